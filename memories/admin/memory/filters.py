"""The memory list's sidebar filters: scope subtree, level, has-warning, and what to show (current memories by
default, all, or the history). Each lists only what the admin's own tenants have.
"""

from __future__ import annotations

import operator
from functools import reduce

from django.contrib import admin
from django.db.models import Q

from memories import visibility
from memories.admin.base import scope_choice_label, tenants_for, tenants_managed
from memories.models import Scope
from memories.selectors.tenancy import scope_subtree


class ScopeSubtreeFilter(admin.SimpleListFilter):
    """A scope and everything below it. Lists the admin's tenants' nodes above the user level (a tenant has one
    user node per member, too many to list); a user node is reached from the scope column's link."""

    title = "scope (with everything below)"
    parameter_name = "scope_subtree"

    def lookups(self, request, model_admin):
        tenants = [tenant for tenant in tenants_managed(request.user) if tenant.levels]
        if not tenants:
            return []
        user_nodes = reduce(operator.or_, (Q(tenant=tenant, level=tenant.user_level) for tenant in tenants))
        nodes = (
            Scope.objects.with_tree_fields()
            .tree_filter(tenant__in=tenants)
            .order_siblings_by("key")
            .exclude(user_nodes)
            .select_related("tenant")
        )
        several = len(tenants) > 1
        return [(str(node.pk), scope_choice_label(node, with_tenant=several)) for node in nodes]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        try:
            scope_id = int(value)
        except (TypeError, ValueError):
            return queryset.none()
        if not 0 < scope_id < 2**63:
            return queryset.none()
        nodes = Scope.objects.filter(pk=scope_id).select_related("tenant")
        allowed = tenants_for(request.user)
        if allowed is not None:
            nodes = nodes.filter(tenant__in=allowed)
        node = nodes.first()
        if node is None:
            return queryset.none()
        return queryset.filter(scope__in=scope_subtree(tenant=node.tenant, scope=node).values("pk"))


class LevelFilter(admin.SimpleListFilter):
    """The level of a memory's scope, among the levels of the admin's own tenants."""

    title = "level"
    parameter_name = "level"

    def lookups(self, request, model_admin):
        levels: dict[str, None] = {}
        for tenant_levels in tenants_managed(request.user).values_list("levels", flat=True):
            levels.update(dict.fromkeys(tenant_levels or []))
        return [(level, level) for level in levels]

    def queryset(self, request, queryset):
        return queryset.filter(scope__level=self.value()) if self.value() else queryset


class HasWarningFilter(admin.SimpleListFilter):
    title = "has warning"
    parameter_name = "has_warning"

    def lookups(self, request, model_admin):
        return [("yes", "yes"), ("no", "no")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(warnings=[])
        if self.value() == "no":
            return queryset.filter(warnings=[])
        return queryset


class HistoryFilter(admin.SimpleListFilter):
    """What the list shows: the current memories unless asked otherwise, all of them, or only the history — those a
    newer version superseded or that expired (the dashboard's live / history split, ``visibility.in_force_q``). The
    default is a choice like the others, so one click in the sidebar shows everything."""

    title = "show"
    parameter_name = "show"
    template = "admin/memories/memory/show_filter.html"  # headed "Show", not "By show"
    CURRENT, ALL, HISTORY = "current", "all", "history"

    def lookups(self, request, model_admin):
        return [(self.CURRENT, "current"), (self.ALL, "all"), (self.HISTORY, "history (superseded or expired)")]

    def shown(self) -> str:
        """The choice in force: the asked one, else (nothing or an unknown value) the current memories."""
        value = self.value()
        return value if value in (self.ALL, self.HISTORY) else self.CURRENT

    def queryset(self, request, queryset):
        shown = self.shown()
        if shown == self.ALL:
            return queryset
        if shown == self.HISTORY:
            return queryset.exclude(visibility.in_force_q())
        return queryset.filter(visibility.in_force_q())

    def choices(self, changelist):
        # no "All" entry of Django's: "all" is a choice of its own, and no choice at all means "current"
        shown = self.shown()
        for lookup, title in self.lookup_choices:
            if lookup == self.CURRENT:
                query = changelist.get_query_string(remove=[self.parameter_name])
            else:
                query = changelist.get_query_string({self.parameter_name: lookup})
            yield {"selected": shown == lookup, "query_string": query, "display": title}
