"""Celery tasks of the retrieval app: thin wrappers over services.

``sync_vector_indexes`` is on the beat schedule (``CELERY_BEAT_SCHEDULE``; without a broker the
``orgmemory-sweeper`` thread of ``memories.background`` runs it): it builds the partial HNSW index of every scope
that grew past ``ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS`` and drops those of scopes that shrank
(retrieval/vector_indexes.py).
"""

from __future__ import annotations

from celery import shared_task

from retrieval.vector_indexes import vector_indexes_sync


@shared_task(name="retrieval.tasks.sync_vector_indexes", ignore_result=True)
def sync_vector_indexes() -> dict[str, int]:
    report = vector_indexes_sync(concurrently=True)
    return {"vector_indexes_created": len(report.created), "vector_indexes_dropped": len(report.dropped)}
