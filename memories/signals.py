"""Hand-off only: a saved memory that needs indexing is queued once its transaction commits, batched per
transaction so a bulk write becomes one embedding task."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connections, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from memories.models import IndexState, Memory

_ATTR = "_orgmemory_embed_queue"
_deferred: list[set[int]] = []


@contextlib.contextmanager
def indexing_deferred() -> Iterator[set[int]]:
    """Collect the ids that would be queued for embedding instead of queueing them (bulk loads and benchmarks
    that embed in their own batches). The caller owns indexing the collected ids."""
    collected: set[int] = set()
    _deferred.append(collected)
    try:
        yield collected
    finally:
        _deferred.remove(collected)


@receiver(post_save, sender=Memory, dispatch_uid="memories.embed_on_commit")
def queue_embedding(sender, instance: Memory, using: str, **kwargs) -> None:
    if instance.index_state != IndexState.PENDING:
        return
    if _deferred:
        _deferred[-1].add(instance.pk)
        return
    connection = connections[using]
    queue = getattr(connection, _ATTR, None)
    if queue is None:
        queue = set()
        setattr(connection, _ATTR, queue)
    queue.add(instance.pk)
    # Every save registers a flush; the first one to run after commit takes the whole queue and the others find
    # it empty. (Ids left by a rolled-back transaction ride along with the next flush: the task skips them.)
    transaction.on_commit(lambda: _flush(using), using=using)


def _flush(using: str) -> None:
    from memories.tasks import embed_memories

    connection = connections[using]
    ids = getattr(connection, _ATTR, None)
    if ids:
        setattr(connection, _ATTR, set())
        embed_memories.delay(sorted(ids))
