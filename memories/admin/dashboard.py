"""The tenant dashboard, mounted at ``admin/dashboard/<tenant id>/``, and the admin index's tenant panel.

Who sees it: a superuser (every tenant) or a tenant's staff holding the view permission on memories (every role of
:mod:`memories.roles`), for their own tenants only: another tenant's id is a 404, like a missing one. Each figure
is one selector of :mod:`memories.selectors.dashboard` (one statement each); the page adds the embedder and queue
state of the serving process. The index shows the dashboard itself to a tenant's staff with one tenant, and a
"Dashboard" link per tenant to everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from memories.admin.base import tenants_for, tenants_managed
from memories.models import Tenant
from memories.selectors import dashboard as figures
from memories.selectors.dashboard import STALE_AFTER_DAYS, WRITES_DAYS, DayCount

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


def dashboard_context(tenant: Tenant) -> dict:
    """Everything the dashboard shows for ``tenant`` (the selectors run here, one statement each)."""
    per_level = figures.memories_per_level_and_kind(tenant=tenant)
    days = figures.writes_per_day(tenant=tenant)
    bars, peak = _bars(days)
    return {
        "tenant": tenant,
        "per_level": per_level,
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
        "gaps": figures.knowledge_gaps(tenant=tenant),
        "contradictions": figures.open_contradictions(tenant=tenant),
        "stale": figures.stale_entities(tenant=tenant),
        "stale_after_days": STALE_AFTER_DAYS,
        "contradictions_url": reverse("contradictions:queue", args=[tenant.pk]),
        "memories_url": reverse("admin:memories_memory_changelist") + f"?tenant__id__exact={tenant.pk}",
    }


def dashboard_view(request, tenant_id: int):
    tenant = tenant_for_request(request, tenant_id)
    context = {
        **admin.site.each_context(request),
        "dashboard": dashboard_context(tenant),
        "tenant": tenant,
        "title": f"Dashboard: {tenant.name or tenant.slug}",
    }
    request.current_app = admin.site.name
    return TemplateResponse(request, "admin/dashboard/dashboard.html", context)


def index_dashboard_context(request) -> dict:
    """The admin index's tenant panel: the dashboard itself for a tenant's staff with one tenant (and the view
    permission), else a list of the user's tenants with their dashboard and contradiction links."""
    user = request.user
    if not (user.is_active and user.is_staff):
        return {}
    allowed = tenants_for(user)
    if allowed is not None and not user.has_perm(VIEW_PERMISSION):
        return {}
    tenants = list(tenants_managed(user))
    panel: dict = {
        "tenant_links": [
            (
                tenant,
                reverse("dashboard:tenant", args=[tenant.pk]),
                reverse("contradictions:queue", args=[tenant.pk]),
            )
            for tenant in tenants
        ]
    }
    if allowed is not None and len(tenants) == 1:
        panel["dashboard"] = dashboard_context(tenants[0])
    return {"tenant_panel": panel}


def install_index_dashboard(site: admin.AdminSite) -> None:
    """Give the site's index the tenant panel (``tenant_panel`` in its context; ``templates/admin/index.html``
    shows it). Idempotent."""
    index = site.index
    if getattr(index, "tenant_panel", False):
        return

    def index_with_panel(request, extra_context=None):
        return index(request, {**index_dashboard_context(request), **(extra_context or {})})

    index_with_panel.tenant_panel = True
    site.index = index_with_panel


app_name = "dashboard"
urlpatterns = [path("<int:tenant_id>/", admin.site.admin_view(dashboard_view), name="tenant")]
