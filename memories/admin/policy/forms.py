"""The policy forms: the first step of adding one (tenant and node), and the change form of one tenant's levels —
its inputs, what they show, and how they are read back into the JSON fields."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from memories.admin.base import scope_choice_label, scope_label, scope_tree_choices
from memories.admin.policy.common import (
    AUTHOR_HELP,
    EVERY_LEVEL,
    JSON_FIELDS,
    WHOLE_TENANT,
    as_mapping,
    describe,
    entry_field,
    inherit_field,
    policy_inherited,
    reasons_for,
)
from memories.admin.policy.glossary import GlossaryFormSet, GlossaryRowsField
from memories.hooks import tier_boost_default
from memories.models import Policy
from memories.policy_rules import AUTHOR_KINDS, MEMORY_KINDS, policy_field_errors


class PolicyAddForm(forms.ModelForm):
    """The first step of adding a policy: whose and where (the fields come next, on the change page)."""

    class Meta:
        model = Policy
        fields = ["tenant", "scope"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scope"].empty_label = WHOLE_TENANT


@dataclass(frozen=True)
class PolicyInputs:
    """The inputs of one tenant's policy form and what a null field of the edited policy inherits."""

    levels: tuple[str, ...]
    inherited: Mapping[str, Any]
    tenant_default: bool  # the tenant's policy (scope null), whose null fields take the built-in defaults

    @property
    def retention_keys(self) -> tuple[str, ...]:
        """Each memory kind, then each level (a level named like a kind would be the kind's key)."""
        return (*MEMORY_KINDS, *(level for level in self.levels if level not in MEMORY_KINDS))

    def keys(self, name: str) -> tuple[str, ...]:
        return {"writable_levels": AUTHOR_KINDS, "tier_boost": self.levels, "retention_days": self.retention_keys}[name]

    def entry_fields(self, name: str) -> list[str]:
        return [entry_field(name, key) for key in self.keys(name)]

    def fieldsets(self) -> list[tuple[str | None, dict]]:
        return [
            (None, {"fields": ["tenant", "scope"]}),
            (
                "Who may write where",
                {"fields": [inherit_field("writable_levels"), *self.entry_fields("writable_levels")]},
            ),
            ("Members and content", {"fields": ["auto_provision_users", "default_scope", "max_content_bytes"]}),
            (
                "Tier boosts",
                {
                    "fields": [inherit_field("tier_boost"), tuple(self.entry_fields("tier_boost"))],
                    "description": "A multiplier of the search score of memories at each level (0.01–10): above 1 "
                    "favours the level, below 1 holds it back. An empty box takes the default shown.",
                },
            ),
            (
                "Retention",
                {
                    "fields": [
                        inherit_field("retention_days"),
                        tuple(entry_field("retention_days", kind) for kind in MEMORY_KINDS),
                        tuple(self.entry_fields("retention_days")[len(MEMORY_KINDS) :]),
                    ],
                    "description": "Days a memory of each kind, or at each level, is kept after it is written "
                    "(1–36,500); an empty box: kept until deleted.",
                },
            ),
            (
                "Glossary",
                {
                    "fields": [inherit_field("glossary"), "glossary_rows"],
                    "description": "Acronyms expanded in what is indexed and searched (k8s → kubernetes), in any "
                    "case; the stored memories are not changed. Empty a row's boxes or tick delete to remove it.",
                },
            ),
        ]


PLAIN_FIELDS = ["tenant", "scope", "auto_provision_users", "default_scope", "max_content_bytes"]  # model fields


class PolicyForm(forms.ModelForm):
    """The change form of one policy; :func:`policy_form_class` adds the inputs of its tenant's levels."""

    inputs: PolicyInputs  # set on each tenant's subclass

    class Meta:
        model = Policy
        fields = PLAIN_FIELDS

    class Media:
        css = {"all": ["memories/policy_form.css"]}
        js = ["memories/policy_form.js"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        shown = {}  # each JSON field as stored, or what it inherits when null
        for name in JSON_FIELDS:
            stored = getattr(self.instance, name)
            self.initial[inherit_field(name)] = stored is None
            shown[name] = self.inputs.inherited[name] if stored is None else stored
            self.initial.update(self._initial_entries(name, shown[name]))
        # in alphabetical order: the database keeps a JSON object's keys in an order of its own
        entries = sorted(as_mapping(shown["glossary"]).items(), key=lambda entry: (str(entry[0]).casefold(), entry[0]))
        self.glossary_rows = GlossaryFormSet(
            self.data if self.is_bound else None,
            prefix="glossary",
            initial=[{"acronym": str(key), "expansion": str(value)} for key, value in entries],
        )
        self.fields["glossary_rows"].widget.formset = self.glossary_rows
        for name in ("scope", "default_scope"):  # the policy's tenant is fixed: its tree alone, without its slug
            if name in self.fields:
                self.fields[name].queryset = scope_tree_choices(tenant=self.instance.tenant)
                self.fields[name].label_from_instance = scope_choice_label
        if "scope" in self.fields:
            self.fields["scope"].empty_label = WHOLE_TENANT
        self._describe_inherited_plain_fields()

    def _initial_entries(self, name: str, value: Any) -> dict[str, Any]:
        value = as_mapping(value)
        if name == "writable_levels":
            return {
                entry_field(name, author): [EVERY_LEVEL]
                if value.get(author) is None
                else [level for level in value[author] if isinstance(level, str)]
                for author in AUTHOR_KINDS
            }
        if name == "glossary":
            return {}
        # an entry the rules refuse (a row written by hand) shows empty; kept as it is, the model names it on save
        return {
            entry_field(name, key): value.get(key)
            for key in self.inputs.keys(name)
            if not policy_field_errors(name, {key: value.get(key)}, levels=self.inputs.levels)
        }

    def _describe_inherited_plain_fields(self) -> None:
        """The plain fields say what empty means: what they inherit."""
        inherited = self.inputs.inherited
        if "auto_provision_users" in self.fields:
            self.fields["auto_provision_users"].widget.choices = [
                ("unknown", f"inherit ({'yes' if inherited['auto_provision_users'] else 'no'})"),
                ("true", "yes"),
                ("false", "no"),
            ]
        if "max_content_bytes" in self.fields:
            field = self.fields["max_content_bytes"]
            field.widget.attrs["placeholder"] = str(inherited["max_content_bytes"])
            field.help_text = f"Bytes of content a memory may hold; empty: inherit ({inherited['max_content_bytes']})."
        if "default_scope" in self.fields:
            default_scope = inherited.get("default_scope")
            where = scope_label(default_scope) if default_scope is not None else "the root"
            self.fields["default_scope"].empty_label = f"inherit ({where})"

    # --- reading the inputs back into the JSON fields ---------------------------------------------------------------

    @cached_property
    def changed_inputs(self) -> list[str]:
        """The inputs whose value differs from the initial one (Django's ``changed_data`` of the inputs)."""
        return [name for name, bound in self._bound_items() if bound._has_changed()]

    @property
    def changed_data(self) -> list[str]:
        """What changed, as the change message names it: the plain fields, and each JSON field whose inputs (or
        inherit box, or glossary rows) changed."""
        inputs = self.changed_inputs
        plain = [name for name in inputs if name in PLAIN_FIELDS]
        groups = [name for name in JSON_FIELDS if inherit_field(name) in inputs or self._group_changed(name, inputs)]
        return plain + groups

    def _group_changed(self, name: str, inputs: list[str]) -> bool:
        if name == "glossary":
            return self.glossary_rows.has_changed()
        return any(field in inputs for field in self.inputs.entry_fields(name))

    def clean(self):
        cleaned = super().clean()
        inputs = self.changed_inputs
        self.json_values = {name: self._json_value(name, inputs) for name in JSON_FIELDS}
        return cleaned

    def _json_value(self, name: str, inputs: list[str]) -> Any:
        """What to store: null when inherit is ticked, the stored value when its inputs are as they were, else the
        inputs' value (each entry checked by the policy rules, a refusal on its input)."""
        stored = getattr(self.instance, name)
        changed = self._group_changed(name, inputs)
        if self.cleaned_data.get(inherit_field(name)):
            if changed:
                self.add_error(
                    inherit_field(name),
                    "Untick inherit to set the values below, or put them back: ticked, the field inherits.",
                )
            return None
        if stored is not None and not changed:
            return stored
        return getattr(self, f"_read_{name}")()

    def _read_writable_levels(self) -> dict[str, list[str] | None]:
        value: dict[str, list[str] | None] = {}
        for author in AUTHOR_KINDS:
            chosen = self.cleaned_data.get(entry_field("writable_levels", author)) or []
            value[author] = (
                None if EVERY_LEVEL in chosen else [level for level in self.inputs.levels if level in chosen]
            )
        return value

    def _read_numbers(self, name: str) -> dict[str, float | int]:
        value = {}
        for key in self.inputs.keys(name):
            field = entry_field(name, key)
            number = self.cleaned_data.get(field)
            if number is None:
                continue
            errors = policy_field_errors(name, {key: number}, levels=self.inputs.levels)
            if errors:
                self.add_error(field, reasons_for(errors, key))
            else:
                value[key] = number
        return value

    def _read_tier_boost(self) -> dict[str, float]:
        return self._read_numbers("tier_boost")

    def _read_retention_days(self) -> dict[str, int]:
        return self._read_numbers("retention_days")

    def _read_glossary(self) -> dict[str, str] | None:
        if not self.glossary_rows.is_valid():
            self.add_error("glossary_rows", "Correct the rows marked below.")
            return None
        entries = self.glossary_rows.entries()
        errors = policy_field_errors("glossary", entries, levels=self.inputs.levels)
        if errors:
            self.add_error("glossary_rows", errors)
        return entries

    def _post_clean(self):
        # the model's clean (the same rules) sees the values the form will store
        for name, value in getattr(self, "json_values", {}).items():
            setattr(self.instance, name, value)
        super()._post_clean()

    def _update_errors(self, errors):
        """A JSON field's error from the model (a stored value the rules refuse, kept as it was) goes on its
        inherit box: tick it, or set the values, to repair the field."""
        if hasattr(errors, "error_dict"):
            remapped: dict[str, list] = {}
            for field, messages in errors.error_dict.items():
                remapped.setdefault(inherit_field(field) if field in JSON_FIELDS else field, []).extend(messages)
            errors = ValidationError(remapped)
        super()._update_errors(errors)


def policy_form_class(policy: Policy) -> type[PolicyForm]:
    """The change form for ``policy``: the inherit box of each JSON field, writable levels as checkboxes per author
    kind and level, a number input per level (tier boost) and per kind and level (retention) with the default as
    its placeholder, and the glossary rows."""
    inputs = PolicyInputs(
        levels=tuple(policy.tenant.levels or ()),
        inherited=policy_inherited(policy=policy),
        tenant_default=policy.scope_id is None,
    )
    source = "the built-in defaults" if inputs.tenant_default else "the tenant policy and the overrides above"
    fields: dict[str, forms.Field] = {}
    for name in JSON_FIELDS:
        fields[inherit_field(name)] = forms.BooleanField(
            required=False,
            label="inherit",
            help_text=f"Ticked: {source} — {describe(name, inputs.inherited[name])}.",
            widget=forms.CheckboxInput(attrs={"data-inherit": name}),
        )
    level_choices = [*((level, level) for level in inputs.levels), (EVERY_LEVEL, "every level, and any added later")]
    for author in AUTHOR_KINDS:
        fields[entry_field("writable_levels", author)] = forms.MultipleChoiceField(
            choices=level_choices,
            required=False,
            label=f"{author} may write at",
            help_text=f"{AUTHOR_HELP[author]}; nothing ticked: nowhere.",
            widget=forms.CheckboxSelectMultiple(attrs={"data-policy-group": "writable_levels"}),
        )
    for level in inputs.levels:
        default = tier_boost_default(level)
        fields[entry_field("tier_boost", level)] = forms.FloatField(
            required=False,
            label=level,
            help_text=f"default {default:g}",
            widget=forms.NumberInput(attrs={"placeholder": f"{default:g}", "data-policy-group": "tier_boost"}),
        )
    for key in inputs.retention_keys:
        fields[entry_field("retention_days", key)] = forms.IntegerField(
            required=False,
            label=key,
            widget=forms.NumberInput(attrs={"placeholder": "kept", "data-policy-group": "retention_days"}),
        )
    fields["glossary_rows"] = GlossaryRowsField(label="acronyms")
    return type("PolicyForm", (PolicyForm,), {**fields, "inputs": inputs})
