"""Writes of the curation app: the tenant of an admin log entry, and the record of a search that found nothing."""

from __future__ import annotations

import random
from collections.abc import Iterable

from django.contrib.admin.models import LogEntry
from django.db import connection

from memories.curation.models import AdminLogTenant
from memories.models import Member, Tenant

GAPS_PER_TENANT = 5000
GAP_PRUNE_ONE_IN = 50  # prune on a random 2 % of records: the bound is kept within ~50 rows without a count each time
GAP_QUERY_MAX_CHARS = 200


def admin_log_tenant_record(*, entries: Iterable[LogEntry | None], tenant_ids: Iterable[int | None]) -> int:
    """Record the tenant of each admin log entry (pairs; a None on either side is skipped). Returns rows written."""
    rows = [
        AdminLogTenant(log_entry_id=entry.pk, tenant_id=tenant_id)
        for entry, tenant_id in zip(entries, tenant_ids, strict=True)
        if entry is not None and entry.pk is not None and tenant_id is not None
    ]
    AdminLogTenant.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def gap_query_normalise(query: str) -> str:
    return " ".join(query.casefold().split())[:GAP_QUERY_MAX_CHARS]


def search_gap_record(*, tenant: Tenant, user_id: str, query: str) -> None:
    """Count one search by ``user_id`` that found nothing relevant: one upsert (and, now and then, a prune that keeps
    the tenant's newest :data:`GAPS_PER_TENANT` rows). An unknown user or an empty query records nothing."""
    normalised = gap_query_normalise(query)
    member_id = Member.objects.filter(tenant=tenant, user_id=user_id).values_list("pk", flat=True).first()
    if not normalised or member_id is None:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO curation_searchgap (tenant_id, member_id, query, count, first_seen, last_seen)
            VALUES (%s, %s, %s, 1, now(), now())
            ON CONFLICT (tenant_id, member_id, query)
            DO UPDATE SET count = curation_searchgap.count + 1, last_seen = now()
            """,
            [tenant.pk, member_id, normalised],
        )
        if random.randrange(GAP_PRUNE_ONE_IN) == 0:
            search_gaps_prune(tenant_id=tenant.pk, cursor=cursor)


def search_gaps_prune(*, tenant_id: int, cursor=None, keep: int = GAPS_PER_TENANT) -> int:
    """Delete the tenant's gap rows beyond the ``keep`` most recently seen. Returns rows deleted."""
    sql = """
        DELETE FROM curation_searchgap WHERE tenant_id = %s AND id IN (
            SELECT id FROM curation_searchgap WHERE tenant_id = %s ORDER BY last_seen DESC OFFSET %s
        )
    """
    if cursor is not None:
        cursor.execute(sql, [tenant_id, tenant_id, keep])
        return cursor.rowcount
    with connection.cursor() as own:
        own.execute(sql, [tenant_id, tenant_id, keep])
        return own.rowcount
