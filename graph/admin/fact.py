"""Facts: list, search and filter what memories state of entities over time; a curator closes a fact (the day it
stopped holding) or corrects its value, each with a note, through ``graph.fact_services`` (which audit-logs both).
Facts are written by extraction: no add, edit or delete here; a fact goes with its memory.

The entity page's fact timeline is read here too (:func:`entity_fact_timeline`): ``graph.facts.facts_timeline``
over every scope of the entity's tenant, as admins curate the whole tenant (like the graph page, not
scope-filtered).

Who may: the fact screens follow the entity's permissions (``graph.view_entity`` / ``graph.change_entity``, which
``memories.roles`` gives tenant admins and curators, and view to auditors) or the fact's own, when a role holds
them: a fact is curated as part of its subject entity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from graph import vocabulary as v
from graph.fact_services import NOTE_MAX_CHARS, VALUE_MAX_CHARS, fact_close, fact_correct, fact_value_hint
from graph.facts import FactView, facts_timeline
from graph.models import Entity, Fact
from memories.admin.base import TenantFilter, TenantScopedModelAdmin
from memories.models import Scope
from orgmemory.errors import DomainError, ValidationFailed

CLOSE = "close"
CORRECT = "correct"


def entity_url(entity_id: int, anchor: str = "") -> str:
    return reverse("admin:graph_entity_change", args=[entity_id]) + (f"#{anchor}" if anchor else "")


def fact_url(fact_id: int) -> str:
    return reverse("admin:graph_fact_change", args=[fact_id])


def memory_url(memory_id: int) -> str:
    return reverse("admin:memories_memory_change", args=[memory_id])


def _interval(valid_from: date | None, valid_until: date | None) -> str:
    start = valid_from.isoformat() if valid_from else "?"
    return f"{start} – {valid_until.isoformat() if valid_until else 'open'}"


# --- the entity page's timeline ---------------------------------------------------------------------------------


@dataclass
class FactRef:
    """Another fact a timeline row names (what closed it, what it conflicts with)."""

    id: int
    value: str
    negated: bool

    @property
    def url(self) -> str:
        return fact_url(self.id)

    @property
    def label(self) -> str:
        return f"fact {self.id}: " + (f"no longer {self.value}" if self.negated else self.value)


@dataclass
class TimelineRow:
    """One fact of the timeline, as read among every fact of the tenant today, with what the page links to."""

    fact: FactView
    scope: str
    note: str
    closed_by: FactRef | None = None
    conflicts: list[FactRef] = field(default_factory=list)
    may_change: bool = False
    today: date | None = None  # the day the timeline was read for

    @property
    def state(self) -> str:
        """current · closed (by a later value or a negation) · ended (on its own valid_until: as stated or as
        curated) · later (begins after today) · outranked (a curated value holds instead)."""
        if self.fact.current:
            return "current"
        if self.closed_by is not None:
            return "closed"
        today = self.today or timezone.now().date()
        if self.fact.valid_until is not None and self.fact.valid_until <= today:
            return "ended"
        if self.fact.valid_from is not None and self.fact.valid_from > today:
            return "later"
        return "outranked"

    @property
    def interval(self) -> str:
        return _interval(self.fact.valid_from, self.fact.valid_until)

    @property
    def url(self) -> str:
        return fact_url(self.fact.id)

    @property
    def memory_url(self) -> str:
        return memory_url(self.fact.memory_id)

    @property
    def value_url(self) -> str:
        return entity_url(self.fact.value_entity_id) if self.fact.value_entity_id else ""

    @property
    def close_url(self) -> str:
        return reverse("admin:graph_fact_close", args=[self.fact.id])

    @property
    def correct_url(self) -> str:
        return reverse("admin:graph_fact_correct", args=[self.fact.id])


@dataclass
class TimelineGroup:
    attribute: str
    label: str
    functional: bool
    rows: list[TimelineRow]


def entity_fact_timeline(entity: Entity, *, may_change: bool) -> list[TimelineGroup]:
    """What the facts about ``entity`` say of it over time, per attribute (in the vocabulary's order): current
    values first, then history, newest first — read among every fact of its tenant (every scope: admins are
    tenant-wide) as of now. Three queries: the tenant's scopes, the facts, and the rows' notes and scopes."""
    now = timezone.now()
    scope_ids = list(Scope.objects.filter(tenant_id=entity.tenant_id).values_list("pk", flat=True))
    views = facts_timeline(tenant_id=entity.tenant_id, chain_ids=scope_ids, subject_ids=[entity.pk], now=now)
    if not views:
        return []
    named = {view.id for view in views} | {view.closed_by for view in views if view.closed_by}
    named |= {other for view in views for other in view.conflicts_with}
    details = {
        pk: (note, f"{level}:{key}", FactRef(pk, value, negated))
        for pk, note, level, key, value, negated in Fact.objects.filter(
            tenant_id=entity.tenant_id, pk__in=named
        ).values_list("pk", "curator_note", "memory__scope__level", "memory__scope__key", "value", "negated")
    }
    rows: dict[str, list[TimelineRow]] = {}
    for view in views:
        note, scope, _ = details.get(view.id, ("", "", None))
        rows.setdefault(view.attribute, []).append(
            TimelineRow(
                fact=view,
                scope=scope,
                note=note,
                closed_by=details[view.closed_by][2] if view.closed_by in details else None,
                conflicts=[details[other][2] for other in view.conflicts_with if other in details],
                may_change=may_change,
                today=now.date(),
            )
        )
    return [
        TimelineGroup(attribute.value, attribute.label, attribute.functional, rows[attribute.value])
        for attribute in v.ATTRIBUTES
        if attribute.value in rows
    ]


# --- the fact list and page ---------------------------------------------------------------------------------------


class AttributeFilter(admin.SimpleListFilter):
    """Every attribute of ``graph.vocabulary``: a fixed list, no query over the facts."""

    title = "attribute"
    parameter_name = "attribute"

    def lookups(self, request, model_admin):
        return [(attribute.value, attribute.label) for attribute in v.ATTRIBUTES]

    def queryset(self, request, queryset):
        return queryset.filter(attribute=self.value()) if self.value() else queryset


class CuratedFilter(admin.SimpleListFilter):
    title = "changed by a curator"
    parameter_name = "curated"

    def lookups(self, request, model_admin):
        return [("yes", "yes"), ("no", "no")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(curator_note="")
        if self.value() == "no":
            return queryset.filter(curator_note="")
        return queryset


class FactCloseForm(forms.Form):
    valid_until = forms.DateField(
        label="Valid until",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="The day it stopped holding (YYYY-MM-DD): from then on it is history, not the current value.",
    )
    note = forms.CharField(
        label="Note",
        max_length=NOTE_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Why: kept with the fact and in the audit log.",
    )


class FactCorrectForm(forms.Form):
    value = forms.CharField(label="Value", max_length=VALUE_MAX_CHARS)
    note = forms.CharField(
        label="Note",
        max_length=NOTE_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Why: kept with the fact and in the audit log.",
    )

    def __init__(self, *args, attribute: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["value"].help_text = fact_value_hint(attribute)


def _add_domain_error(form: forms.Form, exc: DomainError) -> None:
    """A refusal of the service on the form, next to the field its details name (else above the form)."""
    details = exc.details if isinstance(exc.details, dict) else {}
    name = next((name for name in details if name in form.fields), None)
    form.add_error(name, exc.message)


@admin.register(Fact)
class FactAdmin(TenantScopedModelAdmin):
    list_display = [
        "id",
        "subject_link",
        "attribute",
        "value_link",
        "interval",
        "negated",
        "confidence",
        "memory_link",
        "curator_note",
        "tenant",
    ]
    list_display_links = ["id"]
    list_filter = [TenantFilter, AttributeFilter, CuratedFilter, "negated"]
    search_fields = ["subject__name", "value"]
    search_help_text = "Subject name or value."
    list_select_related = ["tenant", "subject", "value_entity"]
    ordering = ["-id"]
    fields = [
        "tenant",
        "subject_link",
        "attribute",
        "value_link",
        "negated",
        "valid_from",
        "valid_until",
        "recorded_at",
        "confidence",
        "memory_link",
        "curator_note",
    ]
    readonly_fields = fields
    change_form_template = "admin/graph/fact_change_form.html"

    def get_urls(self):
        curate = [
            path(
                f"<path:object_id>/{action}/",
                self.admin_site.admin_view(self.curate_view),
                {"action": action},
                name=f"graph_fact_{action}",
            )
            for action in (CLOSE, CORRECT)
        ]
        return [*curate, *super().get_urls()]

    # --- permissions: the entity's (or the fact's own), inside the admin's tenants --------------------------

    def _may(self, request, action: str) -> bool:
        user = request.user
        return user.has_perm(f"graph.{action}_fact") or user.has_perm(f"graph.{action}_entity")

    def has_view_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and (self._may(request, "view") or self._may(request, "change"))

    def has_change_permission(self, request, obj=None):
        return self._in_tenant(request, obj) and self._may(request, "change")

    def has_add_permission(self, request):
        return False  # facts come from extraction

    def has_delete_permission(self, request, obj=None):
        return False  # a fact goes with its memory; a wrong one is closed or corrected

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def save_model(self, request, obj, form, change):
        pass  # every field is read-only: close and correct are the writes

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "POST":  # nothing on this page is saved: close and correct have their own forms
            return HttpResponseRedirect(request.path)
        fact = self.get_object(request, unquote(object_id))
        may_change = fact is not None and self.has_change_permission(request, fact)
        extra_context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "may_close": may_change and not fact.negated,
            "may_correct": may_change,
        }
        return super().change_view(request, object_id, form_url, extra_context)

    # --- columns --------------------------------------------------------------------------------------------

    @admin.display(description="subject", ordering="subject__name")
    def subject_link(self, obj: Fact) -> str:
        return format_html('<a href="{}">{}</a>', entity_url(obj.subject_id, "facts"), obj.subject.name)

    @admin.display(description="value", ordering="value")
    def value_link(self, obj: Fact) -> str:
        shown = f"no longer {obj.value}" if obj.negated else obj.value
        if obj.value_entity_id is None:
            return shown
        return format_html('<a href="{}">{}</a>', entity_url(obj.value_entity_id), shown)

    @admin.display(description="valid", ordering="valid_from")
    def interval(self, obj: Fact) -> str:
        return _interval(obj.valid_from, obj.valid_until)

    @admin.display(description="stated by", ordering="memory_id")
    def memory_link(self, obj: Fact) -> str:
        return format_html('<a href="{}">memory {}</a>', memory_url(obj.memory_id), obj.memory_id)

    # --- close and correct ----------------------------------------------------------------------------------

    def curate_view(self, request, object_id, action: str):
        """GET: the form to close the fact or correct its value; POST: do it through ``fact_close`` /
        ``fact_correct`` (audit-logged there), then back to the subject's timeline."""
        fact = self.get_object(request, unquote(object_id))  # None for another tenant's fact: same as a missing one
        if fact is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_change_permission(request, fact):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else None
        if action == CLOSE:
            form = FactCloseForm(data, initial={"valid_until": timezone.localdate()})
        else:
            form = FactCorrectForm(data, attribute=fact.attribute, initial={"value": fact.value})
        if form.is_bound and form.is_valid():
            try:
                if action == CLOSE:
                    saved = fact_close(
                        tenant=fact.tenant,
                        fact=fact,
                        until=form.cleaned_data["valid_until"],
                        by=request.user,
                        note=form.cleaned_data["note"],
                    )
                    done = f"Fact {saved.pk} closed: valid until {saved.valid_until.isoformat()}."
                else:
                    saved = fact_correct(
                        tenant=fact.tenant,
                        fact=fact,
                        value=form.cleaned_data["value"],
                        by=request.user,
                        note=form.cleaned_data["note"],
                    )
                    done = f"Fact {saved.pk} corrected: its value is now “{saved.value}”."
            except ValidationFailed as exc:
                _add_domain_error(form, exc)
            except DomainError as exc:
                self.message_user(request, f"Nothing was changed: {exc.message}", messages.ERROR)
                return HttpResponseRedirect(reverse("admin:graph_fact_changelist"))
            else:
                self.message_user(request, done, messages.SUCCESS)
                return HttpResponseRedirect(entity_url(saved.subject_id, "facts"))
        label = v.ATTRIBUTES_BY_VALUE[fact.attribute].label
        context = {
            **self.admin_site.each_context(request),
            "title": "Close a fact" if action == CLOSE else "Correct a fact's value",
            "opts": self.opts,
            "original": fact,
            "fact": fact,
            "attribute_label": label,
            "shown_value": f"no longer {fact.value}" if fact.negated else fact.value,
            "interval": _interval(fact.valid_from, fact.valid_until),
            "action": action,
            "form": form,
            "submit_label": "Close the fact" if action == CLOSE else "Correct the value",
            "subject_url": entity_url(fact.subject_id, "facts"),
            "memory_url": memory_url(fact.memory_id),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/graph/fact_curate.html", context)
