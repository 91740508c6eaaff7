"""The queue for real: a Celery worker process on Redis indexes what the web process writes, and the sweeper
recovers a memory whose indexing failed (nothing here runs eagerly)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from memories.models import IndexState, Memory, MemoryChunk
from memories.services.memory import Author, memory_create
from tests.e2e.conftest import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def worker(start_worker):
    """One `celery worker` subprocess on the test Redis (see tests/e2e/conftest.py)."""
    return start_worker()


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
    from graph.tasks import sweep_unextracted
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

    sweep_unindexed.delay()  # beat sends both sweeps: the memory store's (embeddings) and the graph's (links)
    sweep_unextracted.delay()

    def recovered():
        row = Memory.objects.get(pk=memory.pk)
        return row.index_state == IndexState.READY and row.links_state == IndexState.READY

    assert wait_for(recovered), "the sweeper's tasks did not index the memory"
