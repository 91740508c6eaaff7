"""Celery tasks of the memory store: thin wrappers over services, idempotent, ids in."""

from celery import shared_task

from memories.services.indexing import memories_embed, memories_sweep

# memories per embedding call and transaction: a bulk write of thousands queues one task, which must not hold
# every vector in memory nor one transaction open for minutes (each slice is still one length-sorted model call)
EMBED_SLICE = 256


@shared_task(name="memories.tasks.embed_memories", ignore_result=True)
def embed_memories(memory_ids: list[int]) -> dict:
    ids = list(memory_ids)
    totals = {"embedded": 0, "failed": 0, "chunks": 0, "seconds": 0.0}
    for start in range(0, len(ids), EMBED_SLICE):
        outcome = memories_embed(memory_ids=ids[start : start + EMBED_SLICE])
        for key in totals:
            totals[key] += outcome.get(key, 0)
    return totals


@shared_task(name="memories.tasks.sweep_unindexed", ignore_result=True)
def sweep_unindexed() -> dict:
    return memories_sweep()


@shared_task(name="memories.tasks.record_access", ignore_result=True)
def record_access(memory_ids: list[int]) -> int:
    from memories.services.access import access_record

    return access_record(memory_ids=memory_ids)
