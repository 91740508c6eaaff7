"""The memory store's part of the tenant dashboard (``admin/dashboard/<tenant id>/``, mounted and composed with the
graph's and the curation app's figures by ``orgmemory.admin_site``), and who may see a tenant's admin pages.

Who sees it: a superuser (every tenant) or a tenant's staff holding the view permission on memories (every role of
:mod:`memories.roles`), for their own tenants only: another tenant's id is a 404, like a missing one. Each figure
is one selector of :mod:`memories.selectors.dashboard` (one statement each), plus the embedder and queue state of
the serving process. The index shows the dashboard itself to a tenant's staff with one tenant.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse

from memories.admin.base import tenants_for
from memories.models import Tenant
from memories.selectors import dashboard as figures
from memories.selectors.dashboard import WRITES_DAYS, DayCount

VIEW_PERMISSION = "memories.view_memory"
CHART_WIDTH = 600
CHART_HEIGHT = 120


def tenant_for_request(request, tenant_id: int, *, permission: str = VIEW_PERMISSION) -> Tenant:
    """The tenant ``tenant_id`` if the user administers it and holds ``permission``; else 404 (another tenant's id
    looks exactly like a missing one). Raises PermissionDenied for a user of the tenant without the permission."""
    allowed = tenants_for(request.user)
    if allowed is not None and tenant_id not in allowed:
        raise Http404("No such tenant.")
    tenant = Tenant.objects.filter(pk=tenant_id).first()
    if tenant is None:
        raise Http404("No such tenant.")
    if not request.user.has_perm(permission):
        raise PermissionDenied("Your role does not include this page.")
    return tenant


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    day: str
    count: int


def _bars(days: list[DayCount]) -> tuple[list[Bar], int]:
    """The writes-per-day chart as SVG rectangles (no script, no library): one bar a day, scaled to the busiest."""
    peak = max((day.count for day in days), default=0)
    slot = CHART_WIDTH / max(len(days), 1)
    bars = []
    for index, day in enumerate(days):
        height = 0.0 if peak == 0 else (CHART_HEIGHT - 14) * day.count / peak
        bars.append(
            Bar(
                x=round(index * slot + 1, 1),
                y=round(CHART_HEIGHT - height, 1),
                width=round(slot - 2, 1),
                height=round(height, 1),
                day=day.day.isoformat(),
                count=day.count,
            )
        )
    return bars, peak


def memory_figures(tenant: Tenant) -> dict:
    """The memory store's part of the dashboard (the selectors run here, one statement each); the page that shows
    it adds the figures of the apps above (``orgmemory.admin_site.dashboard_context``)."""
    per_level = figures.memories_per_level_and_kind(tenant=tenant)
    days = figures.writes_per_day(tenant=tenant)
    bars, peak = _bars(days)
    return {
        "tenant": tenant,
        "per_level": per_level,
        "level_totals": figures.level_totals(per_level),
        "live_total": sum(row.live for row in per_level),
        "history_total": sum(row.history for row in per_level),
        "backlog": figures.index_backlog(tenant=tenant),
        "runtime": figures.runtime_state(),
        "writes": days,
        "writes_total": sum(day.count for day in days),
        "bars": bars,
        "peak": peak,
        "chart_width": CHART_WIDTH,
        "chart_height": CHART_HEIGHT,
        "writes_days": WRITES_DAYS,
        "first_day": days[0].day if days else None,
        "last_day": days[-1].day if days else None,
        "contradictions": figures.open_contradictions(tenant=tenant),
        "contradictions_url": reverse("admin:contradictions_queue", args=[tenant.pk]),
        "memories_url": reverse("admin:memories_memory_changelist") + f"?tenant__id__exact={tenant.pk}",
    }
