"""Celery tasks of the graph: thin, idempotent, ids in.

``sweep_unextracted`` is the graph's own entry on the beat schedule (``CELERY_BEAT_SCHEDULE``; without a broker
the ``orgmemory-sweeper`` thread of ``memories.background`` runs it): memories whose link extraction is pending or
failed for longer than ``ORGMEMORY_SWEEP_AFTER_SECONDS`` are queued again.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from graph.services import entities_recount_by_ids, links_extract_for_memories
from memories.selectors.memory import memory_ids_index_stale
from memories.tasks import SWEEP_BATCH


@shared_task(name="graph.tasks.extract_links_for", ignore_result=True)
def extract_links_for(memory_ids: list[int]) -> dict:
    return links_extract_for_memories(memory_ids=list(memory_ids))


@shared_task(name="graph.tasks.recount_entities", ignore_result=True)
def recount_entities(entity_ids: list[int]) -> None:
    entities_recount_by_ids(entity_ids=list(entity_ids))


def links_sweep(*, older_than: timedelta | None = None) -> dict[str, int]:
    """Queue ``extract_links_for`` for the memories whose links are pending or failed for longer than
    ``older_than`` (default ORGMEMORY_SWEEP_AFTER_SECONDS), in batches; returns how many."""
    ids = memory_ids_index_stale(state_field="links_state", older_than=older_than)
    for start in range(0, len(ids), SWEEP_BATCH):
        extract_links_for.delay(ids[start : start + SWEEP_BATCH])
    return {"links": len(ids)}


@shared_task(name="graph.tasks.sweep_unextracted", ignore_result=True)
def sweep_unextracted() -> dict:
    return links_sweep()
