"""Faults, with real components: the production request path (pytest-django's live server, httpx), the real
PostgreSQL, a real Redis and real Celery worker processes. The only double is the embedder wrapper of the first
test, because the embedder's failure is the fault under test.

Each test ends the same way: no memory lost, none duplicated, every memory indexed."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator, Sequence
from datetime import timedelta

import httpx
import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import Count

from memories.embedding import embedder_override, get_embedder
from memories.models import IndexState, Memory, MemoryChunk
from memories.services.indexing import chunk_texts_for
from memories.signals import indexing_deferred
from memories.tasks import memories_sweep
from orgmemory.oncommit import deferred
from tests.e2e.conftest import celery_broker, wait_for
from tests.services import free_port, redis_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

POISON = "[poison]"


@pytest.fixture
def api(live_server, e2e_api_key):
    with httpx.Client(
        base_url=f"{live_server.url}/api/v1", headers={"Authorization": f"Bearer {e2e_api_key}"}, timeout=300
    ) as client:
        yield client


def write_batch(api: httpx.Client, contents: Sequence[str], *, user_id: str = "albert") -> list[int]:
    """POST one batch (one transaction: one embedding task); returns the new ids in order."""
    response = api.post("/memories", json={"user_id": user_id, "memories": [{"content": c} for c in contents]})
    assert response.status_code == 201, response.text
    return [item["id"] for item in response.json()["memories"]]


def sweep_now() -> dict[str, int]:
    """One sweeper run that takes every unfinished memory, however recent."""
    return memories_sweep(older_than=timedelta(0))


def assert_all_indexed_once(ids: Sequence[int]) -> None:
    """Every memory exists once, is indexed, and has exactly its chunks (none twice)."""
    memories = list(Memory.objects.filter(pk__in=ids).select_related("tenant", "scope"))
    assert sorted(m.pk for m in memories) == sorted(ids)
    assert {m.index_state for m in memories} == {IndexState.READY}
    for memory in memories:
        chunks = list(MemoryChunk.objects.filter(memory=memory).order_by("ordinal").values_list("ordinal", "text"))
        expected = chunk_texts_for(memory, {})
        assert chunks == list(enumerate(expected))
    duplicated = (
        MemoryChunk.objects.filter(memory_id__in=ids).values("memory_id", "ordinal").annotate(n=Count("id"))
    ).filter(n__gt=1)
    assert list(duplicated) == []


# --- the embedder fails for part of a batch --------------------------------------------------------------------


class FailingForMarker:
    """The real embedder, except that while ``failing`` it raises for any batch holding a text with the marker
    (a text the model cannot take: the batch call fails as a whole, as a real model error would)."""

    def __init__(self, real) -> None:
        self.real = real
        self.name = real.name
        self.dimensions = real.dimensions
        self.failing = True

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.failing and any(POISON in text for text in texts):
            raise RuntimeError("the model rejected a text")
        return self.real.embed(texts)


def test_embedder_failing_for_part_of_a_batch(api):
    embedder = FailingForMarker(get_embedder())
    contents = [f"Platform fact {n}: the deploy window is {n} o'clock." for n in range(6)]
    contents[2] = f"{POISON} A text the model chokes on."
    contents[4] = f"{POISON} Another one."

    with embedder_override(embedder):
        ids = write_batch(api, contents)
        states = dict(Memory.objects.filter(pk__in=ids).values_list("pk", "index_state"))

        # the healthy memories of the batch are indexed now; the two the model rejects wait for a retry
        assert [states[i] for i in ids] == [
            IndexState.READY,
            IndexState.READY,
            IndexState.FAILED,
            IndexState.READY,
            IndexState.FAILED,
            IndexState.READY,
        ]
        assert Memory.objects.get(pk=ids[2]).index_error == "RuntimeError: the model rejected a text"
        found = api.post("/search", json={"user_id": "albert", "query": "deploy window 3 o'clock"}).json()
        assert ids[3] in [hit["id"] for hit in found["results"]]

        # a sweep while the fault lasts loses nothing and keeps what was indexed
        assert sweep_now()["embeddings"] == 2
        assert dict(Memory.objects.filter(pk__in=ids).values_list("pk", "index_state")) == states

        embedder.failing = False
        assert sweep_now()["embeddings"] == 2

    assert_all_indexed_once(ids)


# --- the database connection is killed -------------------------------------------------------------------------


@pytest.fixture
def persistent_connections() -> Iterator[None]:
    """As in production (the test settings close connections after each request): each serving thread keeps its
    connection for CONN_MAX_AGE seconds and checks it at the start of a request (CONN_HEALTH_CHECKS)."""
    settings_dict = connection.settings_dict  # the dict every thread's connection is built from
    previous = settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"]
    settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = 60, True
    try:
        yield
    finally:
        settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = previous


@pytest.fixture
def test_backend_pid() -> int:
    """The test thread's own database backend (the live server's connections are others)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate_backends(*, sparing: int) -> int:
    """pg_terminate_backend every connection to the test database except the backend ``sparing``."""
    with psycopg.connect(**_libpq_kwargs(), autocommit=True) as admin:
        return admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> %s",
            [sparing],
        ).fetchone()[0]


def _libpq_kwargs() -> dict:
    db = connection.settings_dict
    return {"dbname": db["NAME"], "user": db["USER"], "host": db["HOST"], "port": db["PORT"] or None}


class KillingTheDatabaseConnection:
    """The real embedder; while ``armed``, each call first kills the serving process's database connections, as
    a database restart or a network cut would in the middle of indexing."""

    def __init__(self, real, *, sparing: int) -> None:
        self.real = real
        self.name = real.name
        self.dimensions = real.dimensions
        self.sparing = sparing
        self.armed = True
        self.kills = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.armed:
            self.kills += terminate_backends(sparing=self.sparing)
        return self.real.embed(texts)


def test_database_connection_killed_between_and_during_writes(api, persistent_connections, test_backend_pid):
    first = write_batch(api, ["Albert's laptop is a ThinkPad."])
    assert Memory.objects.get(pk=first[0]).index_state == IndexState.READY  # the server holds a live connection

    # between requests: the next request finds its persistent connection dead and opens a new one
    assert terminate_backends(sparing=test_backend_pid) >= 1
    second = write_batch(api, ["Albert's monitor is 27 inches."])

    # during indexing (after the write committed): the write succeeds, its indexing fails and stays retryable
    embedder = KillingTheDatabaseConnection(get_embedder(), sparing=test_backend_pid)
    with embedder_override(embedder):
        third = write_batch(api, ["Albert's keyboard has brown switches.", "Albert's mouse is wireless."])
        assert embedder.kills >= 1
        assert set(Memory.objects.filter(pk__in=third).values_list("index_state", flat=True)) <= {
            IndexState.PENDING,
            IndexState.FAILED,
        }
        # a client retrying the write (it cannot know the indexing failed) stores nothing twice
        embedder.armed = False
        retried = api.post(
            "/memories",
            json={"user_id": "albert", "memories": [{"content": "Albert's keyboard has brown switches."}]},
        )
        assert retried.status_code in (200, 201), retried.text
        assert retried.json()["memories"][0]["id"] == third[0]

        assert sweep_now()["embeddings"] >= 1

    ids = first + second + third
    assert Memory.objects.filter(tenant__slug="acme").count() == len(ids)
    assert_all_indexed_once(ids)


# --- a broker configured but down ------------------------------------------------------------------------------


def test_broker_down_writes_succeed_and_the_sweeper_indexes_them_when_it_is_back(api, worker_factory):
    port = free_port()  # nothing listens here yet
    with celery_broker(f"redis://127.0.0.1:{port}/0"):
        ids = write_batch(
            api, ["Bea's favourite editor is Helix.", "Bea reviews pull requests on Fridays."], user_id="bea"
        )
        session = api.post(
            "/sessions",
            json={
                "user_id": "bea",
                "session_id": "s-broker-down",
                "events": [{"id": "e1", "author": "user", "text": "Remember that Bea is on call next week."}],
            },
        )
        assert session.status_code == 201, session.text
        ids += session.json()["memory_ids"]
        assert len(ids) == 3
        assert set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.PENDING}

        health = api.get("/health").json()
        assert (health["status"], health["queue"]) == ("degraded", "down")
        found = api.post("/search", json={"user_id": "bea", "query": "Helix editor"})
        assert found.status_code == 200, found.text
        assert ids[0] in [hit["id"] for hit in found.json()["results"]]  # the lexical arm already finds it

        # the broker comes back (same URL) with a worker: the sweeper re-queues what was never queued
        with redis_server(port=port):
            worker = worker_factory(broker_url=f"redis://127.0.0.1:{port}/0")
            assert sweep_now()["embeddings"] == 3
            assert wait_for(
                lambda: (
                    set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.READY}
                )
            ), "the worker did not index the memories written while the broker was down"
            cache.clear()  # health's last broker probe said "down"
            assert wait_for(lambda: api.get("/health").json()["queue"] == "workers")
            worker.stop()

    assert_all_indexed_once(ids)


# --- a worker killed mid-task ----------------------------------------------------------------------------------


def _write_unqueued(api: httpx.Client, count: int) -> list[int]:
    """Write memories without queueing their indexing or link extraction (the test queues the embedding)."""
    with indexing_deferred(), deferred("links"):
        return write_batch(
            api, [f"Dora's data pipeline step {n} runs on Airflow." for n in range(count)], user_id="dora"
        )


class RowLock:
    """Holds a row lock on one memory from another connection: a task that indexes it blocks before commit."""

    def __init__(self, memory_id: int) -> None:
        self.conn = psycopg.connect(**_libpq_kwargs())
        self.conn.execute("SELECT 1 FROM memories_memory WHERE id = %s FOR UPDATE", [memory_id])
        # pg_stat_activity is a snapshot per transaction: watch from outside the locking one
        self.observer = psycopg.connect(**_libpq_kwargs(), autocommit=True)

    def task_is_blocked(self) -> bool:
        row = self.observer.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
        return row[0] >= 1

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()
        self.observer.close()


def _children(pid: int) -> list[int]:
    result = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [int(line) for line in result.stdout.split()]


def test_pool_process_killed_mid_task_is_redelivered(api, start_worker):
    from memories.tasks import embed_memories

    ids = _write_unqueued(api, 5)
    worker = start_worker(pool="prefork")
    lock = RowLock(ids[-1])
    try:
        embed_memories.delay(ids)
        assert wait_for(lock.task_is_blocked), "the task never reached the locked row"
        assert set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.PENDING}
        (child,) = _children(worker.pid)
        os.kill(child, signal.SIGKILL)  # the pool process dies mid-task; the worker itself lives on
    finally:
        lock.release()

    assert wait_for(
        lambda: set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.READY}
    ), "the task of the killed pool process was not redelivered"
    assert_all_indexed_once(ids)


def test_worker_killed_mid_task_another_worker_finishes_it(api, start_worker):
    from memories.tasks import embed_memories

    ids = _write_unqueued(api, 5)
    first = start_worker(pool="solo", visibility_timeout=5)
    lock = RowLock(ids[-1])
    try:
        embed_memories.delay(ids)
        assert wait_for(lock.task_is_blocked), "the task never reached the locked row"
        first.kill()  # kill -9: no warm shutdown, the message stays unacknowledged
    finally:
        lock.release()
    assert set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.PENDING}

    start_worker(pool="solo", visibility_timeout=5)
    assert wait_for(
        lambda: set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.READY}
    ), "no other worker took over the killed worker's task"
    assert_all_indexed_once(ids)
