"""Production serving: the gunicorn configuration, and a real gunicorn that loads the ONNX embedder in its worker
(without torch) and answers over HTTP."""

from __future__ import annotations

import importlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

PROJECT = Path(__file__).resolve().parents[2]


def test_config_one_sync_worker_per_core_one_thread_no_preload(monkeypatch):
    # the module sets these in os.environ; monkeypatch puts back what was there before
    for name in ("WEB_CONCURRENCY", "OMP_WAIT_POLICY", "TOKENIZERS_PARALLELISM", "ORGMEMORY_EMBED_THREADS"):
        monkeypatch.delenv(name, raising=False)
    import orgmemory.gunicorn_conf as conf

    conf = importlib.reload(conf)

    assert conf.workers == os.cpu_count()
    assert (conf.worker_class, conf.threads, conf.preload_app) == ("sync", 1, False)
    assert conf.wsgi_app == "orgmemory.wsgi:application"
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    assert os.environ["ORGMEMORY_EMBED_THREADS"] == "1"


def test_persistent_connections_are_configured_from_the_environment(monkeypatch):
    from django.conf import settings

    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0  # the test suite; 60 s otherwise (CONN_MAX_AGE)


@pytest.mark.slow
def test_gunicorn_serves_with_the_onnx_embedder_loaded_per_worker_without_torch():
    import psutil

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "ORGMEMORY_ENV": "development",
        "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        "ORGMEMORY_EMBEDDER": "onnx-int8",
        "WEB_CONCURRENCY": "1",
        "ORGMEMORY_BIND": f"127.0.0.1:{port}",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", str(PROJECT / "orgmemory" / "gunicorn_conf.py")],
        cwd=PROJECT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in server.stderr:
            lines.append(line)
            if re.search(r"worker \d+ ready .* embedder all-MiniLM-L6-v2/onnx-int8 loaded", line):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(180), "".join(lines[-30:])
        response = httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=30)
        (worker,) = psutil.Process(server.pid).children()

        assert response.status_code == 200
        assert not [m.path for m in worker.memory_maps() if "libtorch" in m.path]
    finally:
        server.terminate()
        server.wait(timeout=60)
    deadline = time.time() + 10
    while time.time() < deadline and psutil.pid_exists(worker.pid):
        time.sleep(0.1)
    assert not psutil.pid_exists(worker.pid)
