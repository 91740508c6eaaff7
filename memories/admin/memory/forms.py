"""The memory admin's forms: the add/change form that writes through ``memories.services.memory`` (a refused
write becomes a form error), and the target-scope form of the move action.
"""

from __future__ import annotations

from django import forms

from memories.admin.memory.common import ADD_FIELDS, EDITABLE_FIELDS, INDENT
from memories.models import Memory, Scope, Tenant
from memories.services.memory import Author, WriteResult, memory_create, memory_update
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
    """Adds and edits through the write service, called as the form's last check (after Django's model
    validation, so nothing can fail once it wrote): a DomainError becomes a form error and the admin's
    transaction keeps the row only if the whole request succeeds."""

    admin_user = None  # set per request by MemoryAdmin.get_form (a fresh form class each time)

    class Meta:
        model = Memory
        fields = ADD_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.write_result: WriteResult | None = None

    def _post_clean(self):
        # Django's own UserCreationForm validates passwords here for the same reason: after the model checks.
        super()._post_clean()
        if self.errors:
            return
        try:
            if self.instance._state.adding:
                self._create()
            elif self.changed_data:
                self._update()
        except DomainError as exc:
            self._add_domain_error(exc)

    def _create(self) -> None:
        data = self.cleaned_data
        tenant, scope = data["tenant"], data["scope"]
        if scope.tenant_id != tenant.pk:
            self.add_error("scope", f"{scope.tag} is not a scope of {tenant.slug}.")
            return
        metadata = data.get("metadata")
        self.write_result = memory_create(
            tenant=tenant,
            author=Author(kind="admin", user=self.admin_user),
            scope=scope,
            kind=data["kind"],
            title=data.get("title") or "",
            content=data["content"],
            metadata={} if metadata is None else metadata,
        )

    def _update(self) -> None:
        changes = {name: self.cleaned_data[name] for name in EDITABLE_FIELDS if name in self.changed_data}
        if "metadata" in changes and changes["metadata"] is None:
            changes["metadata"] = {}  # an emptied box means no metadata; None would mean "keep"
        memory_update(memory=self.instance, author=Author(kind="admin", user=self.admin_user), **changes)

    def _add_domain_error(self, exc: DomainError) -> None:
        details = exc.details if isinstance(exc.details, dict) else {}
        candidates = [*details, _ERROR_FIELDS.get(exc.code)]
        field = next((name for name in candidates if name in self.fields), None)
        self.add_error(field, exc.message)


class MoveToScopeForm(forms.Form):
    scope = forms.ModelChoiceField(queryset=Scope.objects.none(), label="Target scope")

    def __init__(self, *args, tenant: Tenant, **kwargs):
        super().__init__(*args, **kwargs)
        # the tree of this tenant only: another tenant's scope id is "not a valid choice"
        self.fields["scope"].queryset = (
            Scope.objects.with_tree_fields().tree_filter(tenant=tenant).order_siblings_by("key")
        )
        self.fields["scope"].label_from_instance = lambda node: INDENT * node.tree_depth + node.tag
