"""The base every tenant-owned admin screen uses: rows, choices and saves stay inside the admin's tenants."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied

from memories.models import Tenant, TenantStaff


def tenants_for(user) -> list[int] | None:
    """Tenant ids the user administers; None means every tenant (a superuser)."""
    if user.is_superuser:
        return None
    cache = getattr(user, "_orgmemory_tenant_ids", None)
    if cache is None:
        cache = list(TenantStaff.objects.filter(user=user).values_list("tenant_id", flat=True))
        user._orgmemory_tenant_ids = cache
    return cache


class TenantFilter(admin.SimpleListFilter):
    """A tenant filter that lists only the tenants the admin user manages."""

    title = "tenant"
    parameter_name = "tenant__id__exact"

    def __init__(self, request, params, model, model_admin):
        self.tenant_field = model_admin.tenant_field
        super().__init__(request, params, model, model_admin)

    def lookups(self, request, model_admin):
        allowed = tenants_for(request.user)
        tenants = Tenant.objects.all() if allowed is None else Tenant.objects.filter(pk__in=allowed)
        return [(str(tenant.pk), tenant.slug) for tenant in tenants]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(**{f"{self.tenant_field}__id": self.value()})
        return queryset


class TenantScopedModelAdmin(admin.ModelAdmin):
    """Keeps every list, form choice, lookup and save inside the tenants the admin user manages."""

    tenant_field = "tenant"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        allowed = tenants_for(request.user)
        if allowed is None:
            return queryset
        return queryset.filter(**{f"{self.tenant_field}__in": allowed})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        allowed = tenants_for(request.user)
        related = db_field.related_model
        if allowed is not None:
            if related is Tenant:
                kwargs["queryset"] = Tenant.objects.filter(pk__in=allowed)
            elif any(f.name == "tenant" for f in related._meta.get_fields()):
                kwargs["queryset"] = related._default_manager.filter(tenant__in=allowed)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request):
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.is_superuser or bool(tenants_for(request.user)))
        )

    def _tenant_allowed(self, request, obj) -> bool:
        allowed = tenants_for(request.user)
        if allowed is None or obj is None:
            return True
        tenant_id = getattr(obj, f"{self.tenant_field}_id", None)
        return tenant_id in allowed

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request) and self._tenant_allowed(request, obj)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and self._tenant_allowed(request, obj)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_delete_permission(self, request, obj=None):
        return self.has_module_permission(request) and self._tenant_allowed(request, obj)

    def save_model(self, request, obj, form, change):
        if not self._tenant_allowed(request, obj):
            raise PermissionDenied("That tenant is not yours to manage.")
        super().save_model(request, obj, form, change)
