"""The audit log: Django's admin log (who added, changed or deleted which memory, policy, key, scope, … and when),
read-only, for superusers (every entry) and a tenant's admins and auditors (the ``admin.view_logentry``
permission of their role) — each sees only the entries recorded with one of their tenants
(``curation.AdminLogTenant``, written with every entry by ``TenantScopedModelAdmin``, the contradiction service
and the curation inbox's proposal decisions), deletions included. Erasure blanks the text of entries about what
it erased (``object_repr``, ``change_message``): the record that an admin acted stays, the erased person's words do
not.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.db.models import Exists, OuterRef

from memories.admin.base import tenants_for, tenants_managed
from memories.curation.models import AdminLogTenant


class AuditTenantFilter(admin.SimpleListFilter):
    title = "tenant"
    parameter_name = "tenant"

    def lookups(self, request, model_admin):
        return [(str(tenant.pk), tenant.slug) for tenant in tenants_managed(request.user)]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.filter(
                Exists(AdminLogTenant.objects.filter(log_entry=OuterRef("pk"), tenant_id=int(self.value())))
            )
        return queryset


@admin.register(LogEntry)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ["action_time", "user", "action", "content_type", "object_id", "object_repr", "message"]
    list_filter = [AuditTenantFilter, "action_flag", "content_type"]
    list_select_related = ["user", "content_type"]
    search_fields = ["object_repr", "object_id", "user__username"]
    date_hierarchy = "action_time"
    ordering = ["-action_time", "-id"]
    show_full_result_count = False
    fields = ["action_time", "user", "action", "content_type", "object_id", "object_repr", "message"]
    readonly_fields = fields

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        allowed = tenants_for(request.user)
        if allowed is None:
            return queryset
        return queryset.filter(Exists(AdminLogTenant.objects.filter(log_entry=OuterRef("pk"), tenant_id__in=allowed)))

    def _staff_of_a_tenant(self, request) -> bool:
        user = request.user
        return user.is_active and user.is_staff and (user.is_superuser or bool(tenants_for(user)))

    def has_module_permission(self, request):
        return self._staff_of_a_tenant(request) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        if obj is not None and not self.get_queryset(request).filter(pk=obj.pk).exists():
            return False
        return self._staff_of_a_tenant(request) and super().has_view_permission(request, obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the trail is not editable from the admin; erasure blanks its text

    @admin.display(description="action", ordering="action_flag")
    def action(self, obj: LogEntry) -> str:
        return {1: "added", 2: "changed", 3: "deleted"}.get(obj.action_flag, str(obj.action_flag))

    @admin.display(description="change")
    def message(self, obj: LogEntry) -> str:
        return obj.get_change_message()
