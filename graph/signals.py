"""Hand-off only: link extraction after a memory is saved, mention recounts after one is deleted."""

from __future__ import annotations

from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from graph.models import EntityLink
from graph.tasks import extract_links_for, recount_entities
from memories.models import IndexState, Memory
from memories.services.indexing import memories_index_requested
from orgmemory.oncommit import queue_on_commit


@receiver(post_save, sender=Memory, dispatch_uid="graph.extract_on_commit")
def queue_link_extraction(sender, instance: Memory, using: str, **kwargs) -> None:
    if instance.links_state == IndexState.PENDING:
        queue_on_commit(key="links", item_id=instance.pk, using=using, flush=_enqueue_extraction)


@receiver(memories_index_requested, sender=Memory, dispatch_uid="graph.extract_on_request")
def queue_requested_extraction(sender, memory_ids: list[int], using: str, **kwargs) -> None:
    for memory_id in memory_ids:  # new memories of the write path (memories_index_queue): links still pending
        queue_on_commit(key="links", item_id=memory_id, using=using, flush=_enqueue_extraction)


@receiver(pre_delete, sender=Memory, dispatch_uid="graph.recount_on_delete")
def queue_recount(sender, instance: Memory, using: str, **kwargs) -> None:
    rows = EntityLink.objects.using(using).filter(memory_id=instance.pk).values_list("subject_id", "object_id")
    for subject_id, object_id in rows:
        queue_on_commit(key="recount", item_id=subject_id, using=using, flush=_enqueue_recount)
        if object_id:
            queue_on_commit(key="recount", item_id=object_id, using=using, flush=_enqueue_recount)


def _enqueue_extraction(ids: list[int]) -> None:
    extract_links_for.delay(ids)


def _enqueue_recount(ids: list[int]) -> None:
    recount_entities.delay(ids)
