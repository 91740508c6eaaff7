"""What the benchmark commands (and the tests) that start their own servers share: a free loopback port, the URL
of the database this process uses, for the server processes they start (the embedded server is a Unix-socket
folder), a throwaway Redis, this process as a Celery producer on it, and a real Celery worker."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (":" + quote(db["PASSWORD"], safe="") if db["PASSWORD"] else "")
    name = quote(db["NAME"], safe="")
    if (db["HOST"] or "").startswith("/"):  # a Unix socket directory (the embedded server)
        return f"postgresql://{credentials}@/{name}?host={quote(db['HOST'], safe='')}"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgresql://{credentials}@{db['HOST'] or '127.0.0.1'}{port}/{name}"


def process_stop(process: subprocess.Popen, *, timeout: float = 60.0) -> None:
    """Stop a server or worker a benchmark started: SIGTERM (a gunicorn master or a Celery worker stops its
    children gracefully), SIGKILL after ``timeout`` seconds; reaped either way."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def production_env(**extra: str) -> dict[str, str]:
    """The environment of a server or worker process a benchmark starts: production mode on this process's
    database, a throwaway SECRET_KEY, plain HTTP on loopback (no HTTPS redirect), the model offline; ``extra``
    on top."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        "ORGMEMORY_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": database_url(),
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "DEBUG": "0",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
        **extra,
    }


@contextlib.contextmanager
def redis_server(*, port: int | None = None) -> Iterator[str]:
    """A throwaway ``redis-server`` (no persistence) on ``port`` (default: a free one); yields its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="orgmemory-redis-") as folder:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for_port(port, process)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process_stop(process, timeout=10)


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    for _ in range(200):
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"redis-server did not listen on {port}")


def celery_connection_pools_reset() -> None:
    """Celery caches its connection and producer pools per app; after changing broker_url they must be rebuilt."""
    from kombu import pools as kombu_pools

    from orgmemory.celery import app as celery_app

    kombu_pools.reset()  # closes and forgets kombu's process-wide pools (they are keyed by connection)
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@contextlib.contextmanager
def celery_broker(url: str) -> Iterator[str]:
    """Configure this process as production does with ``CELERY_BROKER_URL=url``: tasks are sent to the broker,
    nothing runs inline."""
    from django.core.cache import cache
    from django.test import override_settings

    from orgmemory.celery import app as celery_app

    previous = {"broker_url": celery_app.conf.broker_url, "task_always_eager": celery_app.conf.task_always_eager}
    celery_app.conf.update(broker_url=url, task_always_eager=False)
    celery_connection_pools_reset()  # an earlier user may have built them for the in-memory transport
    cache.clear()  # health caches its last broker probe
    try:
        with override_settings(CELERY_BROKER_URL=url, CELERY_TASK_ALWAYS_EAGER=False):
            yield url
    finally:
        celery_app.conf.update(**previous)
        celery_connection_pools_reset()
        cache.clear()


@contextlib.contextmanager
def celery_worker(*, broker_url: str, concurrency: int, log: Path) -> Iterator[subprocess.Popen]:
    """A real ``celery worker`` (prefork, ``concurrency`` processes, one task prefetched each) on ``broker_url``
    and this process's database, in production mode; yields it once it reports ready, stops it at the end."""
    env = production_env(CELERY_BROKER_URL=broker_url)
    env.pop("ORGMEMORY_EMBEDDED_DB", None)
    command = [
        sys.executable, "-m", "celery", "-A", "orgmemory", "worker", "--pool=prefork",
        f"--concurrency={concurrency}", "--prefetch-multiplier=1", "--loglevel=INFO",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with log.open("w") as sink:
        process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while " ready." not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the celery worker did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        yield process
    finally:
        process_stop(process, timeout=30)
