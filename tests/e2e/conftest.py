"""End-to-end fixtures: a tenant and an API key in a transactional database, served by pytest-django's live
server (indexing runs inline after commit: a memory is searchable as soon as its POST returns)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from django.db import connection

from bench.servers import celery_broker
from tests.conftest import ACME_CHART, onboard

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def e2e_tenant(transactional_db):
    """Acme (see tests/conftest.py): albert and bea in team:platform, dora in team:data, carlos in team:sales."""
    from memories.background import access_flush

    yield onboard(ACME_CHART)
    # searches record accesses from a background thread: let it finish before the tables are flushed
    access_flush()


@pytest.fixture
def e2e_api_key(e2e_tenant) -> str:
    """The plain text of a read/write/delete key of the e2e tenant."""
    from memories.services import api_key_create

    _, plain = api_key_create(tenant=e2e_tenant, name="adk-e2e", permissions=["read", "write", "delete"])
    return plain


@pytest.fixture
def orgmemory_env(live_server, e2e_api_key, monkeypatch) -> str:
    """``ORGMEMORY_URL`` / ``ORGMEMORY_API_KEY`` pointing at the live server; returns the URL."""
    monkeypatch.setenv("ORGMEMORY_URL", live_server.url)
    monkeypatch.setenv("ORGMEMORY_API_KEY", e2e_api_key)
    # the first search of the process loads the embedding model (seconds): not inside a client's 10 s timeout
    warm_up = httpx.post(
        f"{live_server.url}/api/v1/search",
        json={"user_id": "albert", "query": "warm up"},
        headers={"Authorization": f"Bearer {e2e_api_key}"},
        timeout=300,
    )
    warm_up.raise_for_status()
    return live_server.url


# --- the queue for real: Redis and Celery worker processes ---------------------------------------------------


@pytest.fixture
def broker(redis_url, transactional_db) -> Iterator[str]:
    """The test Redis, emptied, as this process's broker (tasks are queued, nothing runs eagerly)."""
    redis.Redis.from_url(redis_url).flushdb()
    with celery_broker(redis_url) as url:
        yield url


class WorkerProcess:
    """A real ``celery worker`` subprocess; ``kill()`` is kill -9 (no warm shutdown, nothing acknowledged)."""

    def __init__(self, process: subprocess.Popen, log: Path) -> None:
        self.process = process
        self.log = log

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def worker_factory(transactional_db, tmp_path) -> Iterator[Callable[..., WorkerProcess]]:
    """Start Celery workers on a broker and this test's (committed) database; all are stopped at the end.

    ``worker_factory(broker_url=…, pool="solo")`` runs tasks in the worker process itself; ``pool="prefork"`` in
    one child process. ``visibility_timeout`` is how long Redis keeps a message that a dead worker took before
    handing it to another."""
    started: list[WorkerProcess] = []

    def start(*, broker_url: str, pool: str = "solo", visibility_timeout: int = 300) -> WorkerProcess:
        db = connection.settings_dict
        env = {
            **os.environ,
            "ORGMEMORY_ENV": "test",
            "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
            "DATABASE_URL": f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
            "CELERY_BROKER_URL": broker_url,
            "CELERY_VISIBILITY_TIMEOUT_SECONDS": str(visibility_timeout),
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "OMP_WAIT_POLICY": "PASSIVE",
        }
        log = tmp_path / f"worker-{len(started)}.log"
        pool_args = ["--pool=solo"] if pool == "solo" else ["--pool=prefork", "--concurrency=1"]
        with log.open("w") as sink:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "orgmemory",
                    "worker",
                    *pool_args,
                    "--loglevel=INFO",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    f"--hostname=test{len(started)}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        worker = WorkerProcess(process, log)
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()
            print(f"--- worker {worker.pid} ---\n{worker.output()[-4000:]}")
        connection.close()


@pytest.fixture
def start_worker(broker, worker_factory) -> Callable[..., WorkerProcess]:
    """``worker_factory`` on the test Redis (the ``broker`` fixture)."""
    return functools.partial(worker_factory, broker_url=broker)


def wait_for(predicate: Callable[[], bool], timeout: float = 120.0) -> bool:
    """Poll ``predicate`` until it holds (True) or ``timeout`` seconds pass (False). A bound on waiting, not a
    measurement: nothing asserts how long it took."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)  # each poll is one cheap query or log read; a coarser step only adds idle time to the test
    return False
