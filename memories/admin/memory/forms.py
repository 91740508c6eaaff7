"""The memory admin's forms: the add/change form (checks only; ``MemoryAdmin.save_model`` writes through
``memories.services.memory`` and a refused write becomes a form error), and the target-scope form of the move
action.
"""

from __future__ import annotations

from django import forms

from memories.admin.base import scope_choice_label, scope_tree_choices
from memories.admin.memory.common import ADD_FIELDS, EDITABLE_FIELDS, TIME_FIELDS
from memories.models import Memory, Scope, Tenant
from orgmemory.errors import DomainError

# Domain error codes whose message belongs next to a particular form field.
_ERROR_FIELDS = {
    "unknown_scope": "scope",
    "invalid_scope": "scope",
    "level_not_writable": "scope",
    "scope_not_on_chain": "scope",
    "invalid_kind": "kind",
    "empty_content": "content",
    "nul_byte": "content",
}


class MemoryAdminForm(forms.ModelForm):
    """The add/change form: Django's field and model checks plus "the scope belongs to the tenant". It writes
    nothing: ``MemoryAdmin.save_model`` calls the write service with ``service_fields()``, and a refusal comes back
    to this form through ``add_domain_error`` (shown next to the field it concerns)."""

    class Meta:
        model = Memory
        fields = ADD_FIELDS

    def clean(self):
        data = super().clean()
        tenant, scope = data.get("tenant"), data.get("scope")
        if self.instance._state.adding and tenant is not None and scope is not None and scope.tenant_id != tenant.pk:
            self.add_error("scope", f"{scope.tag} is not a scope of {tenant.slug}.")
        return data

    def service_fields(self) -> dict:
        """The write service's arguments: on add every field (an emptied metadata box means none); on change only
        the changed editable fields (an emptied metadata box means ``{}``; None would mean "keep")."""
        data = self.cleaned_data
        if self.instance._state.adding:
            metadata = data.get("metadata")
            return {
                "tenant": data["tenant"],
                "scope": data["scope"],
                "kind": data["kind"],
                "title": data.get("title") or "",
                "content": data["content"],
                "metadata": {} if metadata is None else metadata,
                **{name: data.get(name) for name in TIME_FIELDS},
            }
        changes = {name: data[name] for name in EDITABLE_FIELDS if name in self.changed_data}
        if "metadata" in changes and changes["metadata"] is None:
            changes["metadata"] = {}
        return changes

    def add_domain_error(self, exc: DomainError) -> None:
        """Show a refusal of the write service on the form, next to the field it names (else above the form)."""
        details = exc.details if isinstance(exc.details, dict) else {}
        candidates = [*details, _ERROR_FIELDS.get(exc.code)]
        field = next((name for name in candidates if name in self.fields), None)
        self.add_error(field, exc.message)


class MoveToScopeForm(forms.Form):
    scope = forms.ModelChoiceField(queryset=Scope.objects.none(), label="Target scope")

    def __init__(self, *args, tenant: Tenant, **kwargs):
        super().__init__(*args, **kwargs)
        # the tree of this tenant only: another tenant's scope id is "not a valid choice"
        self.fields["scope"].queryset = scope_tree_choices(tenant=tenant)
        self.fields["scope"].label_from_instance = scope_choice_label
