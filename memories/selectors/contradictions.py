"""Open contradictions: live memories whose ``possible_contradiction`` warning names another live memory of the same
tenant and has no ``resolution`` yet (see :mod:`memories.services.contradictions`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models.functions import Substr

from memories import visibility
from memories.models import Memory, Tenant
from orgmemory.db_routing import read_connection

CONTRADICTION_CODE = "possible_contradiction"
CONTENT_SHOWN_CHARS = 2000  # a side of the review page; the change form has the whole text

# One statement: the warning rows are unnested from the (few) live memories that carry an unresolved contradiction
# warning; both sides must be live and of the tenant. A warning is a JSON object in the ``warnings`` array.
_OPEN_PAIRS_SQL = f"""
    SELECT m.id, (w.value ->> 'memory_id')::bigint AS other_id
    FROM memories_memory m
    CROSS JOIN LATERAL jsonb_array_elements(m.warnings) AS w(value)
    JOIN memories_memory o ON o.id = (w.value ->> 'memory_id')::bigint
    WHERE m.tenant_id = %(tenant)s
      AND {visibility.current_sql("m")}
      AND m.warnings @> '[{{"code": "possible_contradiction"}}]'::jsonb
      AND w.value ->> 'code' = 'possible_contradiction'
      AND jsonb_typeof(w.value -> 'memory_id') = 'number'
      AND NOT (w.value ? 'resolution')
      AND o.tenant_id = %(tenant)s
      AND {visibility.current_sql("o")}
      AND {visibility.EXPIRY.sql("m", visibility.NOW)}
      AND {visibility.EXPIRY.sql("o", visibility.NOW)}
"""


@dataclass(frozen=True)
class ContradictionPair:
    memory: Memory  # carries the warning (the later write)
    other: Memory  # the memory it may contradict


def contradiction_open_count(*, tenant: Tenant) -> int:
    """How many open contradiction warnings the tenant has (one statement)."""
    with read_connection().cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({_OPEN_PAIRS_SQL}) pairs", {"tenant": tenant.pk})
        return cursor.fetchone()[0]


def contradiction_pairs_open(*, tenant: Tenant, limit: int = 50) -> list[ContradictionPair]:
    """The tenant's open contradictions, newest warning first, at most ``limit``: both memories loaded (scope and
    the head of their content) in one more statement."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            f"{_OPEN_PAIRS_SQL} ORDER BY m.id DESC, other_id LIMIT %(limit)s", {"tenant": tenant.pk, "limit": limit}
        )
        ids = cursor.fetchall()
    if not ids:
        return []
    wanted = {pk for pair in ids for pk in pair}
    rows = {
        memory.pk: memory
        for memory in Memory.objects.filter(tenant=tenant, pk__in=wanted)
        .select_related("scope")
        .defer("content", "search_vector", "dedup_bands")
        .annotate(content_head=Substr("content", 1, CONTENT_SHOWN_CHARS))
    }
    return [
        ContradictionPair(memory=rows[memory_id], other=rows[other_id])
        for memory_id, other_id in ids
        if memory_id in rows and other_id in rows
    ]
