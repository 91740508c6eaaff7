"""The queue for real: a Celery worker process on Redis indexes what the web process writes, and the sweeper
recovers a memory whose indexing failed (nothing here runs eagerly)."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.db import connection
from django.utils import timezone
from kombu import pools as kombu_pools

from memories.models import IndexState, Memory, MemoryChunk
from memories.services.memory import Author, memory_create
from orgmemory.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
BROKER = os.environ.get("ORGMEMORY_TEST_BROKER", "redis://127.0.0.1:6379/14")
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def wait_for(predicate, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


def _reset_connection_pools() -> None:
    """Celery caches its connection and producer pools per app; after changing broker_url they must be rebuilt."""
    kombu_pools.reset()  # closes and forgets kombu's process-wide pools (they are keyed by connection)
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@pytest.fixture
def worker():
    """A real `celery worker` subprocess on Redis, using this test's (committed) database."""
    redis.Redis.from_url(BROKER).flushdb()
    db = connection.settings_dict
    env = {
        **os.environ,
        "ORGMEMORY_ENV": "test",
        "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        "DATABASE_URL": f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
        "CELERY_BROKER_URL": BROKER,
        "HF_HUB_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "orgmemory",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    previous = {"broker_url": celery_app.conf.broker_url, "task_always_eager": celery_app.conf.task_always_eager}
    celery_app.conf.update(broker_url=BROKER, task_always_eager=False)
    _reset_connection_pools()  # an earlier test may have built them for the in-memory transport
    try:
        yield process
    finally:
        celery_app.conf.update(**previous)
        _reset_connection_pools()
        process.terminate()
        try:
            output, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        print(output[-4000:])
        connection.close()


def test_worker_embeds_and_extracts_what_the_web_process_writes(acme, worker):
    result = memory_create(
        tenant=acme,
        author=Author(kind="admin", label="ops"),
        scope="org:acme",
        content="Acme Robotics was founded by Alice Smith. The worker embeds this.",
    )
    memory = result.memory
    assert Memory.objects.get(pk=memory.pk).index_state == IndexState.PENDING  # queued, not run inline

    def indexed():
        row = Memory.objects.get(pk=memory.pk)
        return row.index_state == IndexState.READY and row.links_state == IndexState.READY

    assert wait_for(indexed), "the worker did not index the memory"
    assert MemoryChunk.objects.filter(memory=memory).count() == 1
    assert memory.links.filter(relationship="founded").count() == 1


def test_sweeper_task_recovers_a_failed_memory_on_the_worker(acme, worker):
    from memories.signals import indexing_deferred
    from memories.tasks import sweep_unindexed
    from orgmemory.oncommit import deferred

    with indexing_deferred(), deferred("links"):  # as if the message had been lost
        memory = memory_create(
            tenant=acme,
            author=Author(kind="admin", label="ops"),
            scope="org:acme",
            content="A memory whose indexing message was lost.",
        ).memory
    Memory.objects.filter(pk=memory.pk).update(
        index_state=IndexState.FAILED, index_error="lost", updated_at=timezone.now() - timedelta(minutes=5)
    )

    sweep_unindexed.delay()

    assert wait_for(lambda: Memory.objects.get(pk=memory.pk).index_state == IndexState.READY)
    assert Memory.objects.get(pk=memory.pk).links_state == IndexState.READY
