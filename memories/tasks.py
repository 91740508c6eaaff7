"""Celery tasks of the memory store: thin wrappers over services, idempotent, ids in."""

from celery import shared_task

from memories.services.indexing import memories_embed, memories_sweep


@shared_task(name="memories.tasks.embed_memories", ignore_result=True)
def embed_memories(memory_ids: list[int]) -> dict:
    return memories_embed(memory_ids=list(memory_ids))


@shared_task(name="memories.tasks.sweep_unindexed", ignore_result=True)
def sweep_unindexed() -> dict:
    return memories_sweep()


@shared_task(name="memories.tasks.record_access", ignore_result=True)
def record_access(memory_ids: list[int]) -> int:
    from memories.services.access import access_record

    return access_record(memory_ids=memory_ids)
