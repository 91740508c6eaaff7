"""Access tracking: returned memories get access_count + 1 and last_accessed_at = now. The batching off the
request path (a Celery task, or the ``orgmemory-access`` thread without a broker) is ``memories.background``'s."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db import connection


def access_record(*, memory_ids: Iterable[int]) -> int:
    """Apply one batch of accesses (an id may repeat: each occurrence counts). Returns rows updated."""
    counts = Counter(memory_ids)
    if not counts:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE memories_memory m SET access_count = m.access_count + a.n, last_accessed_at = now()
            FROM unnest(%s::bigint[], %s::int[]) AS a(id, n) WHERE m.id = a.id
            """,
            [list(counts), list(counts.values())],
        )
        return cursor.rowcount
