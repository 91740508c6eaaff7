"""Memory reads for callers acting as a member: only what their scope chain makes visible (live rows)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.postgres.search import SearchQuery
from django.db.models import Q, QuerySet
from django.utils import timezone

from memories.indexing_text import TEXT_SEARCH_CONFIG
from memories.models import IndexState, Memory, Tenant

_HEAVY_FIELDS = ("search_vector", "dedup_bands")


def memories_visible(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    kind: str | None = None,
    q: str = "",
    as_of: datetime | None = None,
    valid_now: bool = True,
) -> QuerySet[Memory]:
    """Live memories of the tenant at the given scopes (the caller's chain, or a part of it), optionally of one
    kind and matching ``q`` (web-search syntax full text over the stored title + content vector). Unordered:
    the caller paginates. Live means valid now (open ends unbounded), unless ``valid_now`` is False (a read by id
    still finds a memory whose validity has not begun or has ended); with ``as_of``, the memories as they stood
    then (``Memory.objects.as_of``: a superseded version too)."""
    if as_of is not None:
        rows = Memory.objects.as_of(as_of)
    elif valid_now:
        rows = Memory.objects.live()
    else:
        rows = Memory.objects.in_force()
    memories = (
        rows.filter(tenant=tenant, scope_id__in=list(chain_ids))
        .select_related("scope__parent")  # a project memory is shown at its owner node
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
    return memories_visible(tenant=tenant, chain_ids=chain_ids, valid_now=False).filter(pk=memory_id).first()


def memory_get_in_tenant(*, tenant: Tenant, memory_id: int) -> Memory | None:
    """The memory ``memory_id`` of ``tenant`` in force (not superseded, not expired; any scope, a project's too),
    else None (unknown, another tenant's, superseded or expired: the caller cannot tell which). For a caller that
    may see the whole tenant (an admin key), not for one acting as a member."""
    return (
        Memory.objects.in_force()
        .filter(tenant=tenant, pk=memory_id)
        .select_related("scope__parent")
        .defer(*_HEAVY_FIELDS)
        .first()
    )


def memory_ids_index_stale(*, state_field: str, older_than: timedelta | None = None) -> list[int]:
    """Ids (ascending) of memories, any tenant, whose ``state_field`` (``index_state``: embeddings;
    ``links_state``: graph links) is pending or failed and that were last changed more than ``older_than`` ago
    (default ORGMEMORY_SWEEP_AFTER_SECONDS): what the sweeps re-queue."""
    if older_than is None:
        older_than = timedelta(seconds=settings.ORGMEMORY_SWEEP_AFTER_SECONDS)
    stale = Memory.objects.filter(updated_at__lt=timezone.now() - older_than)
    return list(stale.filter(~Q(**{state_field: IndexState.READY})).order_by("id").values_list("id", flat=True))
