"""Hand-off only: a saved memory that needs embedding is queued once its transaction commits (batched)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db.models.signals import post_save
from django.dispatch import receiver

from memories.models import IndexState, Memory
from memories.services.indexing import EMBED_QUEUE, memories_index_requested
from memories.tasks import embed_memories
from orgmemory.oncommit import deferred, queue_on_commit

QUEUE_KEY = EMBED_QUEUE  # the write path queues new memories under the same key


@receiver(post_save, sender=Memory, dispatch_uid="memories.embed_on_commit")
def queue_embedding(sender, instance: Memory, using: str, **kwargs) -> None:
    if instance.index_state == IndexState.PENDING:
        queue_on_commit(key=QUEUE_KEY, item_id=instance.pk, using=using, flush=_enqueue)


@receiver(memories_index_requested, sender=Memory, dispatch_uid="memories.embed_on_request")
def queue_requested_embedding(sender, memory_ids: list[int], using: str, **kwargs) -> None:
    for memory_id in memory_ids:  # new memories of the write path (memories_index_queue)
        queue_on_commit(key=QUEUE_KEY, item_id=memory_id, using=using, flush=_enqueue)


def _enqueue(ids: list[int]) -> None:
    embed_memories.delay(ids)


@contextlib.contextmanager
def indexing_deferred() -> Iterator[set[int]]:
    """Collect the ids that would be queued for embedding instead of queueing them."""
    with deferred(QUEUE_KEY) as ids:
        yield ids
