"""The base every tenant-owned admin screen uses: rows, choices and saves stay inside the admin's tenants."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import QuerySet

from memories.curation.services import admin_log_tenant_record
from memories.models import Scope, Tenant, TenantStaff

INDENT = "\u2003"  # an em space survives HTML whitespace collapsing, so a tree picker shows its depth


def tenants_for(user) -> list[int] | None:
    """Tenant ids the user administers; None means every tenant (a superuser)."""
    if user.is_superuser:
        return None
    cache = getattr(user, "_orgmemory_tenant_ids", None)
    if cache is None:
        cache = list(TenantStaff.objects.filter(user=user).values_list("tenant_id", flat=True))
        user._orgmemory_tenant_ids = cache
    return cache


def tenants_managed(user) -> QuerySet[Tenant]:
    """The tenants ``user`` administers (every tenant for a superuser): the one answer to "which tenants may this
    admin see" for admin screens, the graph page and the search playground. A staff user without a role (no
    ``memories.view_memory``, which every role of ``memories.roles`` holds) sees none: those pages show memories."""
    allowed = tenants_for(user)
    if allowed is None:
        return Tenant.objects.all()
    if not user.has_perm("memories.view_memory"):
        return Tenant.objects.none()
    return Tenant.objects.filter(pk__in=allowed)


def only_tenant(user) -> Tenant | None:
    """The one tenant ``user`` may use (a tenant admin's, or the only one there is for a superuser), else None: what
    every form and page with a tenant choice preselects."""
    first_two = list(tenants_managed(user).order_by("pk")[:2])
    return first_two[0] if len(first_two) == 1 else None


def scope_label(scope: Scope) -> str:
    """A node as people name it, with its tag: ``Platform (team:platform)``; the tag alone when it has no name."""
    return f"{scope.name} ({scope.tag})" if scope.name else scope.tag


def scope_choice_label(scope: Scope, *, with_tenant: bool = False) -> str:
    """A node in a tree-ordered picker (``tree_depth`` annotated): indented by its depth, named with its tag, after
    its tenant's slug when the picker lists several tenants' trees."""
    label = scope_label(scope)
    return INDENT * getattr(scope, "tree_depth", 0) + (f"{scope.tenant.slug} · {label}" if with_tenant else label)


def scope_tree_choices(*, user=None, tenant: Tenant | None = None):
    """The nodes a scope picker offers: the trees of ``tenant``, else of every tenant ``user`` administers, depth
    first."""
    nodes = Scope.objects.with_tree_fields().order_siblings_by("key").select_related("tenant")
    if tenant is not None:
        return nodes.tree_filter(tenant=tenant)
    allowed = tenants_for(user)
    return nodes if allowed is None else nodes.tree_filter(tenant__in=allowed)


class TenantFilter(admin.SimpleListFilter):
    """A tenant filter that lists only the tenants the admin user manages."""

    title = "tenant"
    parameter_name = "tenant__id__exact"

    def __init__(self, request, params, model, model_admin):
        self.tenant_field = model_admin.tenant_field
        super().__init__(request, params, model, model_admin)

    def lookups(self, request, model_admin):
        return [(str(tenant.pk), tenant.slug) for tenant in tenants_managed(request.user)]

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
        if related is Scope:  # every scope picker: the tree, each node named with its tag
            kwargs["queryset"] = scope_tree_choices(user=request.user)
        elif allowed is not None:
            if related is Tenant:
                kwargs["queryset"] = Tenant.objects.filter(pk__in=allowed)
            elif any(f.name == "tenant" for f in related._meta.get_fields()):
                kwargs["queryset"] = related._default_manager.filter(tenant__in=allowed)
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if related is Scope and field is not None:
            several = allowed is None or len(allowed) > 1
            field.label_from_instance = lambda node: scope_choice_label(node, with_tenant=several)
        return field

    def get_changeform_initial_data(self, request):
        """An add form's tenant is preselected when the admin may use only one."""
        initial = super().get_changeform_initial_data(request)
        if self.tenant_field == "tenant" and "tenant" not in initial:
            tenant = only_tenant(request.user)
            if tenant is not None:
                initial["tenant"] = tenant.pk
        return initial

    def has_module_permission(self, request):
        """A tenant's staff (or a superuser) holding some permission on this app (see ``memories.roles``)."""
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.is_superuser or bool(tenants_for(request.user)))
            and super().has_module_permission(request)
        )

    def _tenant_allowed(self, request, obj) -> bool:
        allowed = tenants_for(request.user)
        if allowed is None or obj is None:
            return True
        tenant_id = getattr(obj, f"{self.tenant_field}_id", None)
        return tenant_id in allowed

    def _in_tenant(self, request, obj) -> bool:
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.is_superuser or bool(tenants_for(request.user)))
            and self._tenant_allowed(request, obj)
        )

    # Tenant membership says where; the user's model permissions (their role's group) say what.
    def has_view_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        return self._in_tenant(request, None) and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and super().has_delete_permission(request, obj)

    def get_actions(self, request):
        """An action that declares no permissions (``@admin.action(permissions=…)``) needs the change permission:
        Django would offer it to anyone who may view the list."""
        actions = super().get_actions(request)
        if self.has_change_permission(request):
            return actions
        return {
            name: action
            for name, action in actions.items()
            if getattr(action[0], "allowed_permissions", None) is not None
        }

    def get_form(self, request, obj=None, change=False, **kwargs):
        base = kwargs.get("form") or self.form
        kwargs["form"] = type(base.__name__, (SameTenantChoicesForm, base), {})
        return super().get_form(request, obj, change=change, **kwargs)

    # --- the audit trail: each entry also records its tenant (memories.curation.AdminLogTenant) ---------------

    def _object_tenant_id(self, obj) -> int | None:
        return obj.pk if self.tenant_field == "id" else getattr(obj, f"{self.tenant_field}_id", None)

    def log_addition(self, request, obj, message):
        entry = super().log_addition(request, obj, message)
        admin_log_tenant_record(entries=[entry], tenant_ids=[self._object_tenant_id(obj)])
        return entry

    def log_change(self, request, obj, message):
        entry = super().log_change(request, obj, message)
        admin_log_tenant_record(entries=[entry], tenant_ids=[self._object_tenant_id(obj)])
        return entry

    def response_action(self, request, queryset):
        """Django logs no admin action but "delete selected": a completed action (one that redirects back to the
        list) also leaves an entry per selected row — a deletion when the row is gone afterwards, else a change."""
        action = request.POST.get("action", "")
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        select_across = request.POST.get("select_across") == "1"
        targets = []
        if action and action != "delete_selected" and (selected or select_across):
            targets = list(queryset if select_across else queryset.filter(pk__in=selected))
        response = super().response_action(request, queryset)
        if targets and response is not None and response.status_code == 302:
            self._log_action_run(request, action, targets)
        return response

    def _log_action_run(self, request, action: str, targets: list) -> None:
        from django.contrib.admin.models import CHANGE, DELETION, LogEntry

        known = self.get_actions(request).get(action)
        description = str(known[2]) if known else action
        remaining = set(
            self.model._default_manager.filter(pk__in=[obj.pk for obj in targets]).values_list("pk", flat=True)
        )
        for flag, objects in (
            (CHANGE, [obj for obj in targets if obj.pk in remaining]),
            (DELETION, [obj for obj in targets if obj.pk not in remaining]),
        ):
            if objects:
                entries = LogEntry.objects.log_actions(
                    user_id=request.user.pk,
                    queryset=objects,
                    action_flag=flag,
                    change_message=f"Ran the action “{description}”.",
                )
                admin_log_tenant_record(
                    entries=list(entries), tenant_ids=[self._object_tenant_id(obj) for obj in objects]
                )

    def log_deletions(self, request, queryset):
        objects = list(queryset)
        entries = super().log_deletions(request, objects)
        # LogEntry.objects.log_actions returns the entries in the order of the objects
        admin_log_tenant_record(entries=list(entries), tenant_ids=[self._object_tenant_id(obj) for obj in objects])
        return entries

    def save_model(self, request, obj, form, change):
        if not self._tenant_allowed(request, obj):
            raise PermissionDenied("That tenant is not yours to manage.")
        super().save_model(request, obj, form, change)


class SameTenantChoicesForm(forms.BaseForm):
    """Every row chosen in a foreign-key (or many-to-many) field belongs to the form's tenant: the ``tenant`` field's
    choice, else the edited row's. The choice lists are already cut to the user's tenants; a user of two tenants (or
    a superuser) could still pair one tenant's row with another's node."""

    def clean(self):
        cleaned = super().clean()
        tenant = cleaned.get("tenant")
        if not isinstance(tenant, Tenant):
            tenant = self.instance.tenant if getattr(self.instance, "tenant_id", None) else None
        if tenant is None:
            return cleaned
        for name, value in list(cleaned.items()):
            if name == "tenant":
                continue
            chosen = list(value) if isinstance(value, models.QuerySet) else [value]
            for row in chosen:
                if isinstance(row, models.Model) and getattr(row, "tenant_id", tenant.pk) != tenant.pk:
                    self.add_error(name, f"{row} is not a {row._meta.verbose_name} of {tenant.slug}.")
                    break
        return cleaned
