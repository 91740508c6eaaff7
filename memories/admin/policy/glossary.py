"""The glossary as a table: a formset of acronym → expansion rows, each checked by ``memories.policy_rules``,
rendered as one input of the policy form (its errors on their rows)."""

from __future__ import annotations

from django import forms
from django.template.loader import render_to_string

from memories.admin.policy.common import reasons_for
from memories.policy_rules import (
    GLOSSARY_MAX_ENTRIES,
    GLOSSARY_MAX_KEY_CHARS,
    GLOSSARY_MAX_VALUE_CHARS,
    policy_field_errors,
)

GLOSSARY_EXTRA_ROWS = 3  # blank rows under the glossary's entries (a saved page offers three more)


class GlossaryRowForm(forms.Form):
    acronym = forms.CharField(
        max_length=GLOSSARY_MAX_KEY_CHARS,
        required=False,
        widget=forms.TextInput(attrs={"size": 14, "data-policy-group": "glossary"}),
    )
    expansion = forms.CharField(
        max_length=GLOSSARY_MAX_VALUE_CHARS,
        required=False,
        widget=forms.TextInput(attrs={"size": 60, "data-policy-group": "glossary"}),
    )

    def clean(self):
        cleaned = super().clean()
        acronym, expansion = cleaned.get("acronym"), cleaned.get("expansion")
        if self.errors or (not acronym and not expansion):
            return cleaned  # a blank row is no entry
        if not acronym:
            self.add_error("acronym", "Name the acronym this expands, or empty the row.")
        elif not expansion:
            self.add_error("expansion", "Write what the acronym stands for, or empty the row.")
        else:
            # the rules' reason goes on the box it concerns: the acronym alone first, then the whole entry
            key_errors = policy_field_errors("glossary", {acronym: "x"}, levels=[])
            entry_errors = policy_field_errors("glossary", {acronym: expansion}, levels=[])
            if key_errors:
                self.add_error("acronym", key_errors)
            elif entry_errors:
                self.add_error("expansion", reasons_for(entry_errors, acronym))
        return cleaned


class BaseGlossaryFormSet(forms.BaseFormSet):
    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs["data-policy-group"] = "glossary"

    def rows(self):
        """The rows that are entries: neither deleted nor blank."""
        for row in self.forms:
            data = getattr(row, "cleaned_data", {})
            if data.get("acronym") and not (self.can_delete and self._should_delete_form(row)):
                yield row

    def clean(self):
        seen: dict[str, str] = {}
        for row in list(self.rows()):
            acronym = row.cleaned_data["acronym"]
            folded = acronym.casefold()
            if folded in seen:
                row.add_error(
                    "acronym", f"{acronym} is listed already (as {seen[folded]}): acronyms match in any case."
                )
            else:
                seen[folded] = acronym

    def entries(self) -> dict[str, str]:
        return {row.cleaned_data["acronym"]: row.cleaned_data["expansion"] for row in self.rows()}


GlossaryFormSet = forms.formset_factory(
    GlossaryRowForm,
    formset=BaseGlossaryFormSet,
    extra=GLOSSARY_EXTRA_ROWS,
    can_delete=True,
    can_delete_extra=False,
    max_num=GLOSSARY_MAX_ENTRIES + GLOSSARY_EXTRA_ROWS,
    absolute_max=2 * GLOSSARY_MAX_ENTRIES,
)


class GlossaryRowsWidget(forms.Widget):
    """Renders the form's glossary formset as a table (``formset`` is set by the form)."""

    template = "admin/memories/policy/glossary_rows.html"
    formset: BaseGlossaryFormSet | None = None

    def render(self, name, value, attrs=None, renderer=None):
        return render_to_string(self.template, {"formset": self.formset})

    def value_from_datadict(self, data, files, name):
        return None  # the formset reads its own inputs

    def id_for_label(self, id_):
        return ""  # a table, no single input to label


class GlossaryRowsField(forms.Field):
    widget = GlossaryRowsWidget

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)
