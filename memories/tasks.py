"""Celery tasks of the memory store: thin wrappers over services, idempotent, ids in.

``sweep_unindexed`` is on the beat schedule (``CELERY_BEAT_SCHEDULE``; without a broker the ``orgmemory-sweeper``
thread of ``memories.background`` runs it): memories whose embedding is pending or failed for longer than
``ORGMEMORY_SWEEP_AFTER_SECONDS`` are queued again, so a lost message never loses a memory's indexing. (The
graph sweeps its links with its own task, ``graph.tasks.sweep_unextracted``.)
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from memories.selectors.memory import memory_ids_index_stale
from memories.services.access import access_record
from memories.services.indexing import memories_embed

# memories per embedding call and transaction: a bulk write of thousands queues one task, which must not hold
# every vector in memory nor one transaction open for minutes (each slice is still one length-sorted model call)
EMBED_SLICE = 256
SWEEP_BATCH = 64  # ids per task a sweep queues


@shared_task(name="memories.tasks.embed_memories", ignore_result=True)
def embed_memories(memory_ids: list[int]) -> dict:
    ids = list(memory_ids)
    totals = {"embedded": 0, "failed": 0, "chunks": 0, "seconds": 0.0}
    for start in range(0, len(ids), EMBED_SLICE):
        outcome = memories_embed(memory_ids=ids[start : start + EMBED_SLICE])
        for key in totals:
            totals[key] += outcome.get(key, 0)
    return totals


def memories_sweep(*, older_than: timedelta | None = None) -> dict[str, int]:
    """Queue ``embed_memories`` for the memories whose embedding is pending or failed for longer than
    ``older_than`` (default ORGMEMORY_SWEEP_AFTER_SECONDS), in batches of SWEEP_BATCH; returns how many."""
    ids = memory_ids_index_stale(state_field="index_state", older_than=older_than)
    for start in range(0, len(ids), SWEEP_BATCH):
        embed_memories.delay(ids[start : start + SWEEP_BATCH])
    return {"embeddings": len(ids)}


@shared_task(name="memories.tasks.sweep_unindexed", ignore_result=True)
def sweep_unindexed() -> dict:
    return memories_sweep()


@shared_task(name="memories.tasks.record_access", ignore_result=True)
def record_access(memory_ids: list[int]) -> int:
    return access_record(memory_ids=memory_ids)
