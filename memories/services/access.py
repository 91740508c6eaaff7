"""Access tracking: returned memories get access_count + 1 and last_accessed_at = now, in their own narrow rows
(``MemoryAccess``). The batching off the request path (a Celery task, or the ``orgmemory-access`` thread without a
broker) is ``memories.background``'s."""

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
        # one upsert for the batch; a memory deleted meanwhile has no row to join and is skipped
        cursor.execute(
            """
            INSERT INTO memories_memoryaccess AS a (tenant_id, memory_id, access_count, last_accessed_at)
            SELECT m.tenant_id, m.id, b.n, now()
            FROM unnest(%s::bigint[], %s::int[]) AS b(id, n) JOIN memories_memory m ON m.id = b.id
            ON CONFLICT (tenant_id, memory_id) DO UPDATE
            SET access_count = a.access_count + excluded.access_count, last_accessed_at = excluded.last_accessed_at
            """,
            [list(counts), list(counts.values())],
        )
        return cursor.rowcount
