"""Admin screens for tenants, the scope tree, members and API keys (policies: ``memories.admin.policy``)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import admin, messages
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from tree_queries.admin import TreeAdmin

from memories.admin.base import TenantFilter, TenantScopedModelAdmin, scope_label, tenants_for, tenants_managed
from memories.models import ApiKey, Member, Memory, Scope, Tenant, TenantStaff
from memories.orgchart import PERMISSIONS
from memories.selectors import scope_subtree, scope_tree_with_member_counts
from memories.services import api_key_create, api_key_revoke
from memories.services.erasure import user_erase

ERASE_PERMISSION = "memories.erase_member"
MEMBERS_SHOWN = 8  # per node in the scope list; the member list has them all


@dataclass(frozen=True)
class ErasurePreview:
    memories: int  # at the member's node or below, or written by them anywhere (history rows not counted)
    nodes_below: int


def erasure_preview(*, member: Member) -> ErasurePreview:
    """What erasing ``member`` would take, for the confirmation page (two counts; nothing is changed)."""
    subtree = list(scope_subtree(tenant=member.tenant, scope=member.scope).values_list("pk", flat=True))
    memories = Memory.objects.filter(tenant=member.tenant).filter(Q(scope_id__in=subtree) | Q(author_member=member))
    return ErasurePreview(memories=memories.count(), nodes_below=len(subtree) - 1)


class TenantFixedOnChange:
    """A row never moves to another tenant: its relatives (children, members, memories) would stay behind."""

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly if obj is None or "tenant" in readonly else [*readonly, "tenant"]


@admin.register(Tenant)
class TenantAdmin(TenantScopedModelAdmin):
    tenant_field = "id"
    list_display = ["slug", "name", "levels_display", "scope_count", "member_count", "created_at"]
    search_fields = ["slug", "name"]
    readonly_fields = ["created_at"]

    def get_queryset(self, request):
        queryset = super(TenantScopedModelAdmin, self).get_queryset(request)
        allowed = tenants_for(request.user)
        return queryset if allowed is None else queryset.filter(pk__in=allowed)

    def _tenant_allowed(self, request, obj) -> bool:
        allowed = tenants_for(request.user)
        return allowed is None or obj is None or obj.pk in allowed

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.display(description="levels")
    def levels_display(self, obj: Tenant) -> str:
        return " › ".join(obj.levels)

    @admin.display(description="scopes")
    def scope_count(self, obj: Tenant) -> int:
        return obj.scopes.count()

    @admin.display(description="members")
    def member_count(self, obj: Tenant) -> int:
        return obj.members.count()


@admin.register(Scope)
class ScopeAdmin(TenantFixedOnChange, TenantScopedModelAdmin, TreeAdmin):
    # the title column names each node with its tag ("Platform (team:platform)"), so no key or tag column repeats it
    list_display = [*TreeAdmin.list_display, "level", "members_display", "tenant"]
    list_filter = [TenantFilter, "level"]
    search_fields = ["key", "name"]
    list_select_related = ["tenant"]
    fields = ["tenant", "parent", "level", "key", "name"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        allowed = tenants_for(request.user)
        if allowed is not None:
            queryset = queryset.tree_filter(tenant__in=allowed)
        return queryset

    def get_fields(self, request, obj=None):
        return self.fields if obj is None else [*self.fields, "members_here"]

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly if obj is None else [*readonly, "members_here"]

    @admin.display(description="members")
    def members_here(self, obj: Scope) -> str:
        """The node's own members (its user node's member, or the people under a team), each linked."""
        members = Member.objects.filter(tenant_id=obj.tenant_id).filter(Q(scope=obj) | Q(scope__parent=obj))
        rows = [
            (reverse("admin:memories_member_change", args=[member.pk]), member.user_id, member.display_name)
            for member in members.order_by("user_id")
        ]
        if not rows:
            return "None directly at this node."
        return format_html_join(", ", '<a href="{}">{}</a> {}', rows)

    def get_list_display(self, request):
        allowed = tenants_for(request.user)
        if allowed is not None and len(allowed) == 1:  # one tenant: the column would repeat it on every row
            return [name for name in self.list_display if name != "tenant"]
        return self.list_display

    def changelist_view(self, request, extra_context=None):
        # member counts for the whole visible tree, and the members of each node, in a few queries, not one per row
        tenants = list(tenants_managed(request.user))
        self._member_counts = {
            node.pk: node.member_count for tenant in tenants for node in scope_tree_with_member_counts(tenant=tenant)
        }
        self._members_at = {}
        for scope_id, parent_id, user_id in (
            Member.objects.filter(tenant__in=tenants)
            .order_by("user_id")
            .values_list("scope_id", "scope__parent_id", "user_id")
        ):
            # a member belongs to their own user node and to the node it hangs under (their team)
            for node_id in {scope_id, parent_id} - {None}:
                self._members_at.setdefault(node_id, []).append(user_id)
        return super().changelist_view(request, extra_context=extra_context)

    def get_deleted_objects(self, objs, request):
        """A node with members at or below it is not deleted here: the cascade would drop the member rows and leave
        what they wrote (team memories) behind, out of reach of any erasure. Members are erased first (Members ›
        delete, or ``DELETE /api/v1/users/{user_id}``)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        nodes = list(objs)
        if nodes:
            below = set()
            for node in nodes:
                below.update(scope_subtree(tenant=node.tenant, scope=node).values_list("pk", flat=True))
            members = Member.objects.filter(scope_id__in=below).order_by("user_id")
            protected = [
                *protected,
                *(
                    format_html(
                        '<a href="{}">Member {}</a>: erase them first (deleting a member erases them)',
                        reverse("admin:memories_member_delete", args=[member.pk]),
                        member.user_id,
                    )
                    for member in members
                ),
            ]
        return deleted, counts, perms_needed, protected

    @admin.display(description="node")
    def indented_title(self, instance: Scope, *, ellipsize: bool = True) -> str:
        """tree-queries' indented title (box drawing by depth), naming the node with its tag."""
        box_drawing = format_html_join(
            "",
            '<i class="{}"></i>',
            [("l",)] * max(instance.tree_depth - 1, 0) + ([("a",)] if instance.tree_depth > 0 else []),
        )
        return format_html(
            '<div class="box"><div class="box-drawing">{}</div>'
            '<div class="box-text{}" style="text-indent:{}px">{}</div></div>',
            box_drawing,
            " ellipsize" if ellipsize else "",
            instance.tree_depth * 30,
            scope_label(instance),
        )

    @admin.display(description="members")
    def members_display(self, obj: Scope) -> str:
        """The node's own members by user id (a team's people, a user node's member), and how many are below."""
        names = getattr(self, "_members_at", {}).get(obj.pk, [])
        below = getattr(self, "_member_counts", {}).get(obj.pk, 0)
        shown = ", ".join(names[:MEMBERS_SHOWN]) + (
            f" +{len(names) - MEMBERS_SHOWN} more" if len(names) > MEMBERS_SHOWN else ""
        )
        if below > len(names):
            return format_html('{}<span class="quiet">{}{} in the subtree</span>', shown, " · " if shown else "", below)
        return shown or "—"


@admin.register(Member)
class MemberAdmin(TenantFixedOnChange, TenantScopedModelAdmin):
    list_display = ["user_id", "display_name", "parent_tag", "tenant", "created_at"]
    list_filter = [TenantFilter]
    search_fields = ["user_id", "display_name"]
    list_select_related = ["tenant", "scope__parent"]
    readonly_fields = ["scope", "created_at"]

    @admin.display(description="under")
    def parent_tag(self, obj: Member) -> str:
        return scope_label(obj.scope.parent) if obj.scope.parent_id else "—"

    def has_add_permission(self, request):
        return False  # members come from onboarding (or auto-provisioning), which also creates their scope node

    # --- deleting a member is their GDPR erasure, as ``DELETE /api/v1/users/{user_id}`` ------------------------------
    # Removing the row alone would leave the user node, their private memories and their name on team memories
    # behind, out of reach of any later erasure (which starts from the member row).

    delete_confirmation_template = "admin/memories/member/erase_confirmation.html"
    delete_selected_confirmation_template = "admin/memories/member/erase_selected_confirmation.html"

    def has_delete_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and request.user.has_perm(ERASE_PERMISSION)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:  # the same action, named for what it does
            function, name, _ = actions["delete_selected"]
            actions["delete_selected"] = (function, name, "Erase selected members (GDPR)")
        return actions

    def get_deleted_objects(self, objs, request):
        """What the confirmation page lists: per member, what the erasure takes (not Django's cascade of the row)."""
        members = list(objs)
        lines = [
            format_html(
                "{} ({}): {} memor{} at their node or written by them (with their history), their user node {}{}",
                member.user_id,
                member.display_name or "no display name",
                preview.memories,
                "y" if preview.memories == 1 else "ies",
                member.scope.tag,
                f", {preview.nodes_below} node(s) below it" if preview.nodes_below else "",
            )
            for member in members
            for preview in [erasure_preview(member=member)]
        ]
        return lines, {"members": len(members)}, set(), []

    def delete_model(self, request, obj):
        result = user_erase(tenant=obj.tenant, user_id=obj.user_id)
        self._erased_message(request, [result])

    def delete_queryset(self, request, queryset):
        results = [
            user_erase(tenant=member.tenant, user_id=member.user_id)
            for member in queryset.select_related("tenant").order_by("pk")
        ]
        self._erased_message(request, results)

    def _erased_message(self, request, results) -> None:
        for result in results:
            self.message_user(
                request,
                f"Erased {result.user_id}: {result.memories} memories, {result.links} graph links, "
                f"{result.entities} entities, {result.scopes} scope node(s), {result.api_keys} API key(s), "
                f"{result.policies} policy override(s).",
                messages.SUCCESS,
            )


class ApiKeyCreateForm(forms.ModelForm):
    permissions = forms.MultipleChoiceField(
        choices=[(p, p) for p in PERMISSIONS],
        widget=forms.CheckboxSelectMultiple,
        initial=["read"],
    )

    class Meta:
        model = ApiKey
        fields = ["tenant", "name", "permissions", "scope"]


@admin.register(ApiKey)
class ApiKeyAdmin(TenantScopedModelAdmin):
    list_display = ["name", "tenant", "prefix_display", "permissions", "scope", "status", "last_used_at", "created_at"]
    list_filter = [TenantFilter, ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix"]
    list_select_related = ["tenant", "scope"]
    actions = ["revoke_keys"]
    readonly_fields = [
        "tenant",
        "name",
        "prefix_display",
        "permissions",
        "scope",
        "created_at",
        "revoked_at",
        "last_used_at",
    ]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = ApiKeyCreateForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_fields(self, request, obj=None):
        return ApiKeyCreateForm.Meta.fields if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            return  # keys are immutable; revoke and create a new one instead
        if not self._tenant_allowed(request, obj):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied("That tenant is not yours to manage.")
        key, plain = api_key_create(
            tenant=obj.tenant, name=obj.name, permissions=form.cleaned_data["permissions"], scope=obj.scope
        )
        obj.pk = key.pk
        obj.prefix, obj.key_hash, obj.created_at = key.prefix, key.key_hash, key.created_at
        messages.warning(
            request,
            format_html("API key <code>{}</code> created. Copy it now: it is shown only once.", plain),
        )

    @admin.display(description="key")
    def prefix_display(self, obj: ApiKey) -> str:
        return f"om_{obj.prefix}_…"

    @admin.display(description="status")
    def status(self, obj: ApiKey) -> str:
        return "active" if obj.is_active else "revoked"

    @admin.action(description="Revoke selected keys")
    def revoke_keys(self, request, queryset):
        count = 0
        for key in queryset.filter(revoked_at__isnull=True):
            api_key_revoke(api_key=key)
            count += 1
        self.message_user(request, f"Revoked {count} key(s).")


@admin.register(TenantStaff)
class TenantStaffAdmin(admin.ModelAdmin):
    list_display = ["user", "tenant"]
    list_select_related = ["user", "tenant"]

    def has_module_permission(self, request):
        return request.user.is_superuser

    has_view_permission = has_change_permission = has_add_permission = has_delete_permission = (
        lambda self, request, obj=None: request.user.is_superuser
    )
