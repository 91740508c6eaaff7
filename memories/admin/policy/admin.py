"""The registered :class:`PolicyAdmin`: two-step add, the change form of the policy's tenant, each JSON field in
words for a view-only role."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.options import IS_POPUP_VAR

from memories.admin.base import TenantFilter, TenantScopedModelAdmin, scope_label
from memories.admin.policy.common import describe
from memories.admin.policy.forms import PolicyAddForm, PolicyForm, policy_form_class
from memories.admin.tenancy import TenantFixedOnChange
from memories.models import Policy


@admin.register(Policy)
class PolicyAdmin(TenantFixedOnChange, TenantScopedModelAdmin):
    list_display = ["__str__", "tenant", "node", "auto_provision_users", "max_content_bytes", "updated_at"]
    list_filter = [TenantFilter]
    list_select_related = ["tenant", "scope"]
    # what a view-only role (an auditor) reads instead of the inputs: each JSON field in words
    view_only_fields = ["writable_levels_shown", "tier_boost_shown", "retention_days_shown", "glossary_shown"]
    readonly_fields = view_only_fields

    def _shown(self, obj: Policy, name: str) -> str:
        value = getattr(obj, name)
        if value is None:
            return f"inherited: {describe(name, self._form_class(obj).inputs.inherited[name], glossary_shown=50)}"
        return describe(name, value, glossary_shown=50)

    @admin.display(description="writable levels")
    def writable_levels_shown(self, obj: Policy) -> str:
        return self._shown(obj, "writable_levels")

    @admin.display(description="tier boosts")
    def tier_boost_shown(self, obj: Policy) -> str:
        return self._shown(obj, "tier_boost")

    @admin.display(description="retention")
    def retention_days_shown(self, obj: Policy) -> str:
        return self._shown(obj, "retention_days")

    @admin.display(description="glossary")
    def glossary_shown(self, obj: Policy) -> str:
        return self._shown(obj, "glossary")

    @admin.display(description="node", ordering="scope__level")
    def node(self, obj: Policy) -> str:
        return scope_label(obj.scope) if obj.scope_id else "the whole tenant"

    def _form_class(self, obj: Policy) -> type[PolicyForm]:
        # get_form and get_fieldsets both need it: the inherited values cost a query or two, once per page
        if getattr(obj, "_policy_form_class", None) is None:
            obj._policy_form_class = policy_form_class(obj)
        return obj._policy_form_class

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [
                (
                    None,
                    {
                        "fields": ["tenant", "scope"],
                        "description": "Whose policy, and for which node (empty: the whole tenant). Its fields "
                        "come next; until they are set, it inherits every one.",
                    },
                )
            ]
        if not self.has_change_permission(request, obj):
            plain = ["auto_provision_users", "default_scope", "max_content_bytes"]
            return [
                (None, {"fields": ["tenant", "scope", *self.view_only_fields[:1], *plain, *self.view_only_fields[1:]]})
            ]
        return self._form_class(obj).inputs.fieldsets()

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = PolicyAddForm if obj is None else self._form_class(obj)
        return super().get_form(request, obj, change=change, **kwargs)

    def response_add(self, request, obj, post_url_continue=None):
        """After the first step, the policy's fields (as Django's user admin does after the password)."""
        if "_addanother" not in request.POST and IS_POPUP_VAR not in request.POST:
            request.POST = request.POST.copy()
            request.POST["_continue"] = 1
        return super().response_add(request, obj, post_url_continue)
