"""OrgMemory's admin site: Django's admin with OrgMemory's name, the rate-limited sign-in, and every custom page
mounted by one ``get_urls()`` (the HackSoft ``custom_admin/sites.py`` pattern), so adding an admin page is one line
in :meth:`OrgMemoryAdminSite.get_urls` and one entry in :data:`PAGES`.

``OrgMemoryAdminConfig`` replaces ``django.contrib.admin`` in ``INSTALLED_APPS`` and makes this site the default
one: ``admin.site`` *is* this site, so every ``@admin.register`` of the apps lands here, and views that call
``admin.site.each_context`` / ``admin.site.admin_view`` get OrgMemory's header.

Like ``orgmemory.urls``, this module is wiring (docs/ARCHITECTURE.md, "Layering"): it puts the apps' pages together,
so it may import every app; the dashboard, which shows figures owned by three apps, is composed here, each figure
read by a selector of the app that owns its tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse, reverse_lazy


@dataclass(frozen=True)
class Page:
    """A custom admin page as the index's OrgMemory box lists it."""

    url_name: str
    title: str
    description: str
    element_id: str
    needs: str = "tenant"  # tenant: a role in some tenant | onboard: may onboard | staff: any staff user


#: The custom pages of the index's OrgMemory box, in the order a new admin meets them.
PAGES = (
    Page(
        "admin:dashboard",
        "Dashboard",
        "Memories per level, index backlog, writes per day, knowledge gaps, open contradictions, stale entities.",
        "dashboard-page-link",
    ),
    Page(
        "admin:graph",
        "Knowledge graph",
        "The entities and typed links extracted from the memories, around any entity.",
        "graph-page-link",
    ),
    Page(
        "admin:playground",
        "Search playground",
        "Search as a member of your tenant and see why each memory ranks where it does.",
        "playground-link",
    ),
    Page(
        "admin:contradictions",
        "Contradictions",
        "The curation inbox: memories that may contradict each other; keep one, the other, or both.",
        "contradictions-page-link",
    ),
    Page(
        "admin:onboarding",
        "Onboard",
        "Upload an org chart, review the dry-run diff, apply it (or re-sync a newer one).",
        "onboard-link",
        needs="onboard",
    ),
    Page("api-docs", "API docs", "The REST API agents use (OpenAPI, Swagger UI).", "api-docs-link", needs="staff"),
)


class OrgMemoryAdminSite(admin.AdminSite):
    site_header = "OrgMemory administration"
    site_title = "OrgMemory admin"
    index_title = "OrgMemory"
    # the index's OrgMemory box and the breadcrumbs lead; the sidebar's width goes to the lists' columns instead
    enable_nav_sidebar = False
    # "/" redirects here, so the public face of the project is its API: the header's link leads to its docs
    site_url = reverse_lazy("api-docs")

    @property
    def login_form(self):
        """Failed sign-ins are limited per address and username (imported late: this module loads with the apps)."""
        from memories.admin.login import RateLimitedAdminAuthenticationForm

        return RateLimitedAdminAuthenticationForm

    def get_urls(self):
        # imported here, not at the top: the apps' admin modules import ``admin.site``, which is this module's site
        from graph import views as graph
        from memories.admin import contradictions, onboarding
        from retrieval.views import playground

        page = self.admin_view  # staff only (others go to the sign-in), CSRF-protected, never cached
        custom = [
            path("dashboard/", page(dashboard_index), name="dashboard"),
            path("dashboard/<int:tenant_id>/", page(dashboard_view), name="dashboard_tenant"),
            path("graph/", page(graph.graph_page), name="graph"),  # before the app index admin/graph/ it shadows
            path("graph/data/", page(graph.graph_data), name="graph_data"),
            path("graph/entities/", page(graph.entity_search), name="graph_entities"),
            path("search/", page(playground), name="playground"),
            path("onboard/", page(onboarding.onboarding_start), name="onboarding"),
            path("onboard/apply/", page(onboarding.onboarding_apply), name="onboarding_apply"),
            path("contradictions/", page(contradictions.contradictions_index), name="contradictions"),
            path(
                "contradictions/<int:tenant_id>/",
                page(contradictions.contradictions_view),
                name="contradictions_queue",
            ),
        ]
        return custom + super().get_urls()

    def index(self, request, extra_context=None):
        return super().index(request, {**index_context(request), **(extra_context or {})})


class OrgMemoryAdminConfig(AdminConfig):
    """``django.contrib.admin`` with :class:`OrgMemoryAdminSite` as ``admin.site``."""

    default_site = "orgmemory.admin_site.OrgMemoryAdminSite"

    def ready(self) -> None:
        super().ready()
        # The policy form shows the search's default tier boost of each level; the ranking, a higher floor than
        # the memories app whose admin shows them, owns the defaults (memories.hooks), and this wiring hands them over.
        from memories.hooks import tier_boost_defaults_register
        from retrieval.ranking import DEFAULT_TIER_BOOST

        tier_boost_defaults_register(DEFAULT_TIER_BOOST)


# --- the index and the dashboard ---------------------------------------------------------------------------------


def _may_see(user, page: Page, *, has_tenants: bool) -> bool:
    if page.needs == "staff":
        return user.is_active and user.is_staff
    if page.needs == "onboard":
        from memories.admin.onboarding import may_onboard

        return may_onboard(user)
    return has_tenants


def index_context(request) -> dict:
    """The index's OrgMemory box (the custom pages the user may open) and its tenant panel: the dashboard itself for
    a tenant's staff with one tenant, else a dashboard and contradictions link per tenant."""
    from memories.admin.base import tenants_for, tenants_managed

    user = request.user
    if not (user.is_active and user.is_staff):
        return {}
    tenants = list(tenants_managed(user))  # none for a staff user without a role
    pages = [(page, reverse(page.url_name)) for page in PAGES if _may_see(user, page, has_tenants=bool(tenants))]
    context: dict = {"orgmemory_pages": pages}
    if tenants:
        panel: dict = {
            "tenant_links": [
                (
                    tenant,
                    reverse("admin:dashboard_tenant", args=[tenant.pk]),
                    reverse("admin:contradictions_queue", args=[tenant.pk]),
                )
                for tenant in tenants
            ]
        }
        if tenants_for(user) is not None and len(tenants) == 1:
            panel["dashboard"] = dashboard_context(tenants[0])
        context["tenant_panel"] = panel
    return context


def dashboard_context(tenant) -> dict:
    """Everything the dashboard shows for ``tenant``: the memory store's figures, the curation app's knowledge gaps
    and the graph's stale entities, each from the selectors of the app that owns the tables (one statement each)."""
    from graph.selectors import STALE_AFTER_DAYS, stale_entities
    from memories.admin.dashboard import memory_figures
    from memories.curation.selectors import knowledge_gaps

    return {
        **memory_figures(tenant),
        "gaps": knowledge_gaps(tenant=tenant),
        "stale": stale_entities(tenant=tenant),
        "stale_after_days": STALE_AFTER_DAYS,
    }


def dashboard_view(request, tenant_id: int):
    from memories.admin.dashboard import tenant_for_request

    tenant = tenant_for_request(request, tenant_id)
    site = admin.site
    context = {
        **site.each_context(request),
        "dashboard": dashboard_context(tenant),
        "tenant": tenant,
        "title": f"Dashboard: {tenant.name or tenant.slug}",
    }
    request.current_app = site.name
    return TemplateResponse(request, "admin/dashboard/dashboard.html", context)


def dashboard_index(request):
    """``admin/dashboard/``: the user's only tenant's dashboard, or a choice of tenants."""
    from memories.admin.base import tenants_managed

    tenants = list(tenants_managed(request.user))
    if len(tenants) == 1:
        return HttpResponseRedirect(reverse("admin:dashboard_tenant", args=[tenants[0].pk]))
    if not tenants:
        raise Http404("You do not administer any tenant.")
    site = admin.site
    context = {
        **site.each_context(request),
        "title": "Dashboard",
        "tenant_links": [(tenant, reverse("admin:dashboard_tenant", args=[tenant.pk])) for tenant in tenants],
    }
    request.current_app = site.name
    return TemplateResponse(request, "admin/dashboard/tenants.html", context)
