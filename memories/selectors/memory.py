"""Memory reads for callers acting as a member: only what their scope chain makes visible (live rows)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.postgres.search import SearchQuery
from django.db.models import QuerySet

from memories.models import Memory, Tenant

TEXT_SEARCH_CONFIG = "english"
_HEAVY_FIELDS = ("search_vector", "dedup_bands")


def memories_visible(
    *, tenant: Tenant, chain_ids: Sequence[int], kind: str | None = None, q: str = ""
) -> QuerySet[Memory]:
    """Live memories of the tenant at the given scopes (the caller's chain, or a part of it), optionally of one
    kind and matching ``q`` (web-search syntax full text over the stored title + content vector). Unordered:
    the caller paginates."""
    memories = (
        Memory.objects.live()
        .filter(tenant=tenant, scope_id__in=list(chain_ids))
        .select_related("scope")
        .defer(*_HEAVY_FIELDS)
    )
    if kind:
        memories = memories.filter(kind=kind)
    if q:
        memories = memories.filter(search_vector=SearchQuery(q, search_type="websearch", config=TEXT_SEARCH_CONFIG))
    return memories


def memory_get_visible(*, tenant: Tenant, chain_ids: Sequence[int], memory_id: int) -> Memory | None:
    """The live memory ``memory_id`` if the chain makes it visible, else None (unknown, another tenant's, another
    scope's or superseded: the caller cannot tell which)."""
    return memories_visible(tenant=tenant, chain_ids=chain_ids).filter(pk=memory_id).first()
