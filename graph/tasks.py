"""Celery tasks of the graph: thin, idempotent, ids in."""

from celery import shared_task

from graph.services import entities_recount_by_ids, links_extract_for_memories


@shared_task(name="graph.tasks.extract_links_for", ignore_result=True)
def extract_links_for(memory_ids: list[int]) -> dict:
    return links_extract_for_memories(memory_ids=list(memory_ids))


@shared_task(name="graph.tasks.recount_entities", ignore_result=True)
def recount_entities(entity_ids: list[int]) -> None:
    entities_recount_by_ids(entity_ids=list(entity_ids))
