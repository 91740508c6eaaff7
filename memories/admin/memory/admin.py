"""The registered :class:`MemoryAdmin`: the list (current memories unless asked otherwise, history marked with
what replaced it, deferred heavy columns, full-text search, tenant-aware columns), the add and change pages
(``save_model`` writes through the services; a refusal is a form error), and the change page's read-only panels
(index state, supersedes history, warnings).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ChangeList
from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from memories import visibility
from memories.admin.base import TenantFilter, TenantScopedModelAdmin, scope_label, tenants_for
from memories.admin.memory.actions import MemoryActionsMixin, _set_kind_action
from memories.admin.memory.common import (
    ADD_FIELDS,
    EDITABLE_FIELDS,
    _snippet,
    _summary,
    _versions,
    _with_summary,
)
from memories.admin.memory.filters import HasWarningFilter, HistoryFilter, LevelFilter, ScopeSubtreeFilter
from memories.admin.memory.forms import MemoryAdminForm
from memories.indexing_text import TEXT_SEARCH_CONFIG
from memories.models import Memory, MemoryAccess, MemoryKind
from memories.selectors.contradictions import CONTRADICTION_CODE
from memories.services.memory import Author, memory_create, memory_update
from orgmemory.errors import DomainError
from orgmemory.text import text_storable


class MemoryWriteRefused(Exception):
    """The write service refused an add or change that passed the form's checks; carries the form and the error."""

    def __init__(self, form, error: DomainError) -> None:
        super().__init__(error.message)
        self.form, self.error = form, error


class MemoryAlreadyStored(Exception):
    """An add whose content is already stored at that scope (exact dedup): nothing new was written."""

    def __init__(self, memory: Memory) -> None:
        super().__init__(f"already stored as memory {memory.pk}")
        self.memory = memory


SEARCH_MAX_CHARS = 1000  # longer input is not a search; bound the work a pasted novel can cause
HISTORY_MAX_STEPS = 50  # a supersedes chain is short; the bound only protects the page from a corrupt cycle


def _change_url(memory_id: int) -> str:
    return reverse("admin:memories_memory_change", args=[memory_id])


class MemoryChangeList(ChangeList):
    def get_queryset(self, request, exclude_parameters=None):
        return _with_summary(super().get_queryset(request, exclude_parameters))


@admin.register(Memory)
class MemoryAdmin(MemoryActionsMixin, TenantScopedModelAdmin):
    form = MemoryAdminForm
    # the memory itself (title and a content snippet) takes the width; the warnings sit beside the id, where a
    # narrow window does not push them off-screen
    list_display = [
        "id",
        "warning_marker",
        "summary",
        "scope_tag",
        "kind",
        "author",
        "created",
        "index_state",
    ]
    list_display_links = ["id", "summary"]
    list_filter = [
        HistoryFilter,  # first: the list shows current memories until "all" or "history" is clicked
        TenantFilter,
        ScopeSubtreeFilter,
        LevelFilter,
        "kind",
        "index_state",
        HasWarningFilter,
    ]
    list_select_related = ["tenant", "scope"]
    list_per_page = 50
    show_full_result_count = False  # no second COUNT over the whole table on every page
    show_facets = admin.ShowFacets.NEVER  # facet counts would re-run every filter, the subtree CTE included
    ordering = ["-id"]
    search_fields = ["title", "content"]  # shows the box; the search itself is get_search_results
    search_help_text = 'Full text (words, "phrases", -exclusions, or) plus substring match on title and content.'
    actions = ["move_to_scope", *(_set_kind_action(kind) for kind in MemoryKind.values), "reindex"]

    # what needs the curator's attention first: warnings, contradictions, history; then the memory itself
    change_fieldsets = [
        ("Warnings, contradictions and history", {"fields": ["warnings_display", "contradictions_display", "history"]}),
        (None, {"fields": ["tenant", "scope_display", *EDITABLE_FIELDS]}),
        (
            "Provenance",
            {
                "fields": [
                    "author",
                    "source_app",
                    "source_session",
                    "source_event_id",
                    "external_id",
                    "created_at",
                    "updated_at",
                    "expires_at",
                    "valid_from",
                    "valid_until",
                    "reference_time",
                    "event_dates",
                ]
            },
        ),
        (
            "Indexing and use",
            {"fields": ["index_status", "embedding_model", "indexed_at", "access_display"]},
        ),
    ]

    # --- rows -----------------------------------------------------------------------------------------------

    def get_queryset(self, request):
        return super().get_queryset(request).defer("search_vector")

    def get_changelist(self, request, **kwargs):
        return MemoryChangeList

    def get_list_display(self, request):
        columns = list(self.list_display)
        if request.GET.get(HistoryFilter.parameter_name) in (HistoryFilter.ALL, HistoryFilter.HISTORY):
            columns.insert(columns.index("warning_marker") + 1, "history_marker")  # the current list has none
        allowed = tenants_for(request.user)
        if allowed is None or len(allowed) > 1:
            columns.insert(1, "tenant")
        return columns

    def get_search_results(self, request, queryset, search_term):
        """Postgres full text (``websearch_to_tsquery``, which accepts any input) OR a substring of the title or
        content, so short or odd input still matches. NULs and lone surrogates are dropped: Postgres rejects them."""
        term = text_storable(search_term).strip()[:SEARCH_MAX_CHARS]
        if not term:
            return queryset, False
        words = SearchQuery(term, search_type="websearch", config=TEXT_SEARCH_CONFIG)
        matches = Q(search_vector=words) | Q(title__icontains=term) | Q(content__icontains=term)
        return queryset.filter(matches), False

    # --- columns --------------------------------------------------------------------------------------------

    @admin.display(description="scope", ordering="scope__level")
    def scope_tag(self, obj: Memory) -> str:
        """The node's name over its tag (two short lines leave the memory column its width)."""
        query = urlencode({ScopeSubtreeFilter.parameter_name: obj.scope_id})
        scope = obj.scope
        if not scope.name:
            return format_html('<a href="?{}" title="only this scope and below">{}</a>', query, scope.tag)
        return format_html(
            '<a href="?{}" title="only this scope and below">{}<br><span class="scope-tag">{}</span></a>',
            query,
            scope.name,
            scope.tag,
        )

    @admin.display(description="history")
    def history_marker(self, obj: Memory) -> str:
        """A history row says so, and what replaced it (or when it expired); a current row shows nothing."""
        if visibility.is_in_force(obj):
            return ""
        badge = format_html('<span class="history-badge" title="{}">history</span>', "not returned by searches")
        if obj.superseded_by_id:
            return format_html(
                '{}<br>replaced by <a href="{}">memory {}</a>',
                badge,
                _change_url(obj.superseded_by_id),
                obj.superseded_by_id,
            )
        expired = formats.date_format(timezone.localtime(obj.expires_at), "Y-m-d H:i")
        return format_html("{}<br>expired {}", badge, expired)

    @admin.display(description="memory")
    def summary(self, obj: Memory) -> str:
        """The title (when there is one) above the head of the content: two memories titled alike read apart."""
        snippet = _snippet(obj)
        if not obj.title:
            return format_html('<span class="memory-snippet">{}</span>', snippet)
        return format_html(
            '<strong class="memory-title">{}</strong><br><span class="memory-snippet">{}</span>', _summary(obj), snippet
        )

    def action_checkbox(self, obj: Memory) -> str:
        # Django labels the checkbox with str(obj), which would load each row's deferred content
        attrs = {"class": "action-select", "aria-label": format_html("Select memory {} - {}", obj.pk, _summary(obj))}
        return forms.CheckboxInput(attrs, lambda value: False).render(helpers.ACTION_CHECKBOX_NAME, str(obj.pk))

    @admin.display(description="created", ordering="created_at")
    def created(self, obj: Memory) -> str:
        return formats.date_format(timezone.localtime(obj.created_at), "Y-m-d H:i")

    @admin.display(description="warnings")
    def warning_marker(self, obj: Memory) -> str:
        if not obj.warnings:
            return ""
        codes = sorted({str(w.get("code", "warning")) if isinstance(w, dict) else "warning" for w in obj.warnings})
        return format_html('<span title="{}">⚠ {}</span>', ", ".join(codes), len(obj.warnings))

    # --- add and change forms -------------------------------------------------------------------------------

    def get_fieldsets(self, request, obj=None):
        return [(None, {"fields": ADD_FIELDS})] if obj is None else self.change_fieldsets

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        editable = set(EDITABLE_FIELDS)
        return [name for _, options in self.change_fieldsets for name in options["fields"] if name not in editable]

    def save_model(self, request, obj, form, change):
        """The one write of the add and change pages: ``memory_create`` / ``memory_update`` as the admin user. A
        refusal raises MemoryWriteRefused and an exact duplicate MemoryAlreadyStored; ``changeform_view`` turns
        them into the form with its error, or the stored memory's page (the admin's transaction rolls back)."""
        if not self._tenant_allowed(request, obj):
            raise PermissionDenied("That tenant is not yours to manage.")
        author = Author(kind="admin", user=request.user)
        try:
            if change:
                if form.changed_data:
                    memory_update(memory=obj, author=author, **form.service_fields())
                return
            result = memory_create(author=author, **form.service_fields())
        except DomainError as exc:
            raise MemoryWriteRefused(form, exc) from exc
        if result.deduplicated:
            raise MemoryAlreadyStored(result.memory)
        obj.pk = result.memory.pk  # the page's object becomes the stored row (for the log entry and the redirect)
        obj._state.adding = False
        obj.refresh_from_db()
        if result.supersedes:
            self.message_user(
                request,
                format_html(
                    'This supersedes <a href="{}">memory {}</a>, which is kept as history.',
                    _change_url(result.supersedes),
                    result.supersedes,
                ),
                messages.INFO,
            )
        for warning in result.warnings:
            self._warn(request, warning)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except MemoryAlreadyStored as stored:
            url = _change_url(stored.memory.pk)
            self.message_user(
                request,
                format_html(
                    'This content is already stored as memory {} (<a href="{}">open it</a>); nothing new was added.',
                    stored.memory.pk,
                    url,
                ),
                messages.INFO,
            )
            return HttpResponseRedirect(url)
        except MemoryWriteRefused as refused:
            refused.form.add_domain_error(refused.error)
            return self._render_refused(request, refused.form, object_id, form_url, extra_context)

    def _render_refused(self, request, form, object_id, form_url, extra_context):
        """The add or change page again, with the service's refusal on the form (what Django's own view renders
        for an invalid form; nothing was written)."""
        add = object_id is None
        obj = None if add else self.get_object(request, unquote(object_id))
        admin_form = helpers.AdminForm(
            form,
            list(self.get_fieldsets(request, obj)),
            self.get_prepopulated_fields(request, obj),
            self.get_readonly_fields(request, obj),
            model_admin=self,
        )
        context = {
            **self.admin_site.each_context(request),
            "title": (_("Add %s") if add else _("Change %s")) % self.opts.verbose_name,
            "subtitle": str(obj) if obj else None,
            "adminform": admin_form,
            "object_id": object_id,
            "original": obj,
            "is_popup": IS_POPUP_VAR in request.POST or IS_POPUP_VAR in request.GET,
            "to_field": None,
            "media": self.media + admin_form.media,
            "inline_admin_formsets": [],
            "errors": helpers.AdminErrorList(form, []),
            "preserved_filters": self.get_preserved_filters(request),
            **(extra_context or {}),
        }
        return self.render_change_form(request, context, add=add, change=not add, obj=obj, form_url=form_url)

    def _warn(self, request, warning: dict) -> None:
        other = warning.get("memory_id")
        if isinstance(other, int):
            message = format_html(
                '{} (<a href="{}">memory {}</a>)', warning.get("message", ""), _change_url(other), other
            )
        else:
            message = str(warning.get("message", warning))
        self.message_user(request, message, messages.WARNING)

    # --- read-only panels of the change page ----------------------------------------------------------------

    @admin.display(description="scope")
    def scope_display(self, obj: Memory) -> str:
        return scope_label(obj.scope)

    @admin.display(description="index state")
    def index_status(self, obj: Memory) -> str:
        chunks = obj.chunks.count()
        status = f"{obj.index_state}, {chunks} chunk{'' if chunks == 1 else 's'}"
        if obj.index_error:
            return format_html("{}<br><code>{}</code>", status, obj.index_error)
        return status

    @admin.display(description="returned by searches")
    def access_display(self, obj: Memory) -> str:
        access = MemoryAccess.objects.filter(tenant_id=obj.tenant_id, memory_id=obj.pk).first()
        if access is None:
            return "never"
        times = f"{access.access_count} time{'' if access.access_count == 1 else 's'}"
        last = formats.date_format(timezone.localtime(access.last_accessed_at), "DATETIME_FORMAT")
        return f"{times}, last {last}"

    @admin.display(description="history")
    def history(self, obj: Memory) -> str:
        """The supersedes chain: the newer memories that replaced this one and the older ones it replaced."""
        newer: list[Memory] = []
        current = obj
        seen = {obj.pk}
        while current.superseded_by_id and current.superseded_by_id not in seen and len(newer) < HISTORY_MAX_STEPS:
            seen.add(current.superseded_by_id)
            current = _versions(Memory.objects.filter(tenant_id=obj.tenant_id, pk=current.superseded_by_id)).first()
            if current is None:
                break
            newer.append(current)
        older: list[Memory] = []
        frontier = [obj.pk]
        while frontier and len(older) < HISTORY_MAX_STEPS:
            step = list(
                _versions(Memory.objects.filter(tenant_id=obj.tenant_id, superseded_by_id__in=frontier))
                .exclude(pk__in=seen)
                .order_by("-id")[:HISTORY_MAX_STEPS]
            )
            seen.update(memory.pk for memory in step)
            older.extend(step)
            frontier = [memory.pk for memory in step]
        if not newer and not older:
            return "No other versions."
        rows = [("superseded by", memory, memory.created_at) for memory in newer] + [
            ("supersedes", memory, memory.superseded_at) for memory in older
        ]
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                '<li>{} <a href="{}">memory {}</a> ({}): {}</li>',
                (
                    (
                        label,
                        _change_url(memory.pk),
                        memory.pk,
                        formats.localize(timezone.localtime(when)) if when else "—",
                        _summary(memory),
                    )
                    for label, memory, when in rows
                ),
            ),
        )

    @admin.display(description="contradictions")
    def contradictions_display(self, obj: Memory) -> str:
        """Both sides of a possible contradiction: the memories this one's warnings name, and the later memories
        whose warning names this one (the warning is kept on the later write only), with the review queue."""
        named = [
            w["memory_id"]
            for w in obj.warnings or []
            if isinstance(w, dict) and w.get("code") == CONTRADICTION_CODE and isinstance(w.get("memory_id"), int)
        ]
        naming = Memory.objects.filter(
            tenant_id=obj.tenant_id, warnings__contains=[{"code": CONTRADICTION_CODE, "memory_id": obj.pk}]
        ).values_list("pk", flat=True)
        others = _versions(Memory.objects.filter(tenant_id=obj.tenant_id, pk__in=[*named, *naming])).order_by("-id")
        rows = [(_change_url(other.pk), other.pk, _summary(other)) for other in others]
        if not rows:
            return "None."
        return format_html(
            '<ul>{}</ul><a href="{}">Review in the contradictions queue</a>',
            format_html_join("", '<li>may contradict <a href="{}">memory {}</a>: {}</li>', rows),
            reverse("admin:contradictions_queue", args=[obj.tenant_id]),
        )

    @admin.display(description="warnings")
    def warnings_display(self, obj: Memory) -> str:
        if not obj.warnings:
            return "None."
        items = []
        for warning in obj.warnings:
            if not isinstance(warning, dict):
                items.append(format_html("<li>{}</li>", str(warning)))
                continue
            other = warning.get("memory_id")
            link = (
                format_html(' — <a href="{}">memory {}</a>', _change_url(other), other)
                if isinstance(other, int)
                else ""
            )
            items.append(
                format_html(
                    "<li><strong>{}</strong>: {}{}</li>",
                    warning.get("code", "warning"),
                    warning.get("message", ""),
                    link,
                )
            )
        return format_html("<ul>{}</ul>", format_html_join("", "{}", ((item,) for item in items)))
