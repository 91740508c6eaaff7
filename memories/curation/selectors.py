"""Reads of the curation app: the knowledge gaps the tenant dashboard shows."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Sum

from memories.curation.models import SearchGap
from memories.models import Tenant

GAPS_SHOWN = 10


@dataclass(frozen=True)
class KnowledgeGap:
    query: str
    searches: int
    members: int  # distinct members who asked it


def knowledge_gaps(*, tenant: Tenant, limit: int = GAPS_SHOWN) -> list[KnowledgeGap]:
    """The most frequent searches (and recalls) of the tenant that found nothing relevant, most searches first, then
    most askers, then the query: one statement over ``SearchGap`` (one row per member and query, so the row count
    is the number of members who asked)."""
    rows = (
        SearchGap.objects.filter(tenant=tenant)
        .values("query")
        .annotate(searches=Sum("count"), members=Count("pk"))
        .order_by("-searches", "-members", "query")[:limit]
    )
    return [KnowledgeGap(query=row["query"], searches=row["searches"], members=row["members"]) for row in rows]
