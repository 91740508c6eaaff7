"""Admin curation of memories: list, filter and search a tenant's memories; add, edit, move, re-kind, re-index and
delete them. Every write goes through ``memories.services.memory``; a refused write shows on the form or as a
message, never as a server error."""

from __future__ import annotations

import operator
from collections import defaultdict
from functools import reduce
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import ChangeList
from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Substr
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from memories.admin.base import TenantFilter, TenantScopedModelAdmin, tenants_for
from memories.models import IndexState, Memory, MemoryKind, Scope, Tenant
from memories.selectors.tenancy import scope_subtree
from memories.services.memory import (
    TEXT_SEARCH_CONFIG,
    Author,
    WriteResult,
    memory_create,
    memory_delete,
    memory_move,
    memory_set_kind,
    memory_update,
)
from memories.tasks import embed_memories
from orgmemory.errors import DomainError

SUMMARY_CHARS = 80
SEARCH_MAX_CHARS = 1000  # longer input is not a search; bound the work a pasted novel can cause
REINDEX_BATCH = 64
HISTORY_MAX_STEPS = 50  # a supersedes chain is short; the bound only protects the page from a corrupt cycle
INDENT = "\u2003"  # an em space survives HTML whitespace collapsing, so the tree shows its depth

# What the list needs: the list never loads the search vector, the content (only its head, see
# MemoryChangeList) or any column added later.
LIST_FIELDS = [
    "id",
    "tenant",
    "scope",
    "kind",
    "title",
    "author",
    "created_at",
    "index_state",
    "warnings",
    "superseded_by",
]
EDITABLE_FIELDS = ["kind", "title", "content", "metadata"]
ADD_FIELDS = ["tenant", "scope", *EDITABLE_FIELDS]

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


def _admin_author(request) -> Author:
    return Author(kind="admin", user=request.user)


def _visible_tenants(request):
    allowed = tenants_for(request.user)
    return Tenant.objects.all() if allowed is None else Tenant.objects.filter(pk__in=allowed)


def _plural(count: int) -> str:
    return f"{count} memory" if count == 1 else f"{count} memories"


def _change_url(memory_id: int) -> str:
    return reverse("admin:memories_memory_change", args=[memory_id])


def _with_summary(queryset):
    """Rows with only the head of their content loaded (``content_head``), enough for a one-line summary."""
    return queryset.only(*LIST_FIELDS).annotate(content_head=Substr("content", 1, SUMMARY_CHARS * 4))


def _versions(queryset):
    """Rows for the history panel: enough for a dated one-line summary."""
    return queryset.only("id", "title", "superseded_by", "superseded_at", "created_at").annotate(
        content_head=Substr("content", 1, SUMMARY_CHARS * 4)
    )


def _summary(memory: Memory) -> str:
    if memory.title:
        return Truncator(memory.title).chars(SUMMARY_CHARS)
    head = getattr(memory, "content_head", None)
    if head is None:
        head = memory.content[: SUMMARY_CHARS * 4]
    first_line = next((line.strip() for line in head.splitlines() if line.strip()), "")
    return Truncator(first_line).chars(SUMMARY_CHARS)


# --- list filters -----------------------------------------------------------------------------------------------


class ScopeSubtreeFilter(admin.SimpleListFilter):
    """A scope and everything below it. Lists the admin's tenants' nodes above the user level (a tenant has one
    user node per member, too many to list); a user node is reached from the scope column's link."""

    title = "scope (with everything below)"
    parameter_name = "scope_subtree"

    def lookups(self, request, model_admin):
        tenants = [tenant for tenant in _visible_tenants(request) if tenant.levels]
        if not tenants:
            return []
        user_nodes = reduce(operator.or_, (Q(tenant=tenant, level=tenant.user_level) for tenant in tenants))
        nodes = (
            Scope.objects.with_tree_fields()
            .tree_filter(tenant__in=tenants)
            .order_siblings_by("key")
            .exclude(user_nodes)
            .select_related("tenant")
        )
        several = len(tenants) > 1
        return [
            (str(node.pk), INDENT * node.tree_depth + (f"{node.tenant.slug} · {node.tag}" if several else node.tag))
            for node in nodes
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        try:
            scope_id = int(value)
        except (TypeError, ValueError):
            return queryset.none()
        if not 0 < scope_id < 2**63:
            return queryset.none()
        nodes = Scope.objects.filter(pk=scope_id).select_related("tenant")
        allowed = tenants_for(request.user)
        if allowed is not None:
            nodes = nodes.filter(tenant__in=allowed)
        node = nodes.first()
        if node is None:
            return queryset.none()
        return queryset.filter(scope__in=scope_subtree(tenant=node.tenant, scope=node).values("pk"))


class LevelFilter(admin.SimpleListFilter):
    """The level of a memory's scope, among the levels of the admin's own tenants."""

    title = "level"
    parameter_name = "level"

    def lookups(self, request, model_admin):
        levels: dict[str, None] = {}
        for tenant_levels in _visible_tenants(request).values_list("levels", flat=True):
            levels.update(dict.fromkeys(tenant_levels or []))
        return [(level, level) for level in levels]

    def queryset(self, request, queryset):
        return queryset.filter(scope__level=self.value()) if self.value() else queryset


class HasWarningFilter(admin.SimpleListFilter):
    title = "has warning"
    parameter_name = "has_warning"

    def lookups(self, request, model_admin):
        return [("yes", "yes"), ("no", "no")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(warnings=[])
        if self.value() == "no":
            return queryset.filter(warnings=[])
        return queryset


class HistoryFilter(admin.SimpleListFilter):
    """Live memories versus the history a newer memory superseded."""

    title = "superseded"
    parameter_name = "superseded"

    def lookups(self, request, model_admin):
        return [("live", "live"), ("history", "superseded (history)")]

    def queryset(self, request, queryset):
        if self.value() == "live":
            return queryset.filter(superseded_by__isnull=True)
        if self.value() == "history":
            return queryset.filter(superseded_by__isnull=False)
        return queryset


class MemoryChangeList(ChangeList):
    def get_queryset(self, request, exclude_parameters=None):
        return _with_summary(super().get_queryset(request, exclude_parameters))


# --- forms ------------------------------------------------------------------------------------------------------


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


# --- the admin --------------------------------------------------------------------------------------------------


def _set_kind_action(kind: str):
    def action(modeladmin, request, queryset):
        changed = 0
        for memory in queryset.exclude(kind=kind):
            memory_set_kind(memory=memory, kind=kind)
            changed += 1
        modeladmin.message_user(request, f"{_plural(changed)} changed to {kind}.", messages.SUCCESS)

    action.__name__ = f"make_{kind}"
    return admin.action(description=f"Make {kind}", permissions=["change"])(action)


@admin.register(Memory)
class MemoryAdmin(TenantScopedModelAdmin):
    form = MemoryAdminForm
    list_display = [
        "id",
        "scope_tag",
        "kind",
        "summary",
        "author",
        "created_at",
        "index_state",
        "warning_marker",
    ]
    list_display_links = ["id", "summary"]
    list_filter = [
        TenantFilter,
        ScopeSubtreeFilter,
        LevelFilter,
        "kind",
        "index_state",
        HasWarningFilter,
        HistoryFilter,
    ]
    list_select_related = ["tenant", "scope"]
    list_per_page = 50
    show_full_result_count = False  # no second COUNT over the whole table on every page
    show_facets = admin.ShowFacets.NEVER  # facet counts would re-run every filter, the subtree CTE included
    ordering = ["-id"]
    search_fields = ["title", "content"]  # shows the box; the search itself is get_search_results
    search_help_text = 'Full text (words, "phrases", -exclusions, or) plus substring match on title and content.'
    actions = ["move_to_scope", *(_set_kind_action(kind) for kind in MemoryKind.values), "reindex"]

    change_fieldsets = [
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
                ]
            },
        ),
        (
            "Indexing and use",
            {"fields": ["index_status", "embedding_model", "indexed_at", "access_count", "last_accessed_at"]},
        ),
        ("History and warnings", {"fields": ["history", "warnings_display"]}),
    ]

    # --- rows -----------------------------------------------------------------------------------------------

    def get_queryset(self, request):
        return super().get_queryset(request).defer("search_vector")

    def get_changelist(self, request, **kwargs):
        return MemoryChangeList

    def get_list_display(self, request):
        allowed = tenants_for(request.user)
        if allowed is None or len(allowed) > 1:
            return ["id", "tenant", *self.list_display[1:]]
        return self.list_display

    def get_search_results(self, request, queryset, search_term):
        """Postgres full text (``websearch_to_tsquery``, which accepts any input) OR a substring of the title or
        content, so short or odd input still matches. NULs and lone surrogates are dropped: Postgres rejects them."""
        term = search_term.replace("\x00", "").encode("utf-8", "ignore").decode("utf-8").strip()[:SEARCH_MAX_CHARS]
        if not term:
            return queryset, False
        words = SearchQuery(term, search_type="websearch", config=TEXT_SEARCH_CONFIG)
        matches = Q(search_vector=words) | Q(title__icontains=term) | Q(content__icontains=term)
        return queryset.filter(matches), False

    # --- columns --------------------------------------------------------------------------------------------

    @admin.display(description="scope", ordering="scope__level")
    def scope_tag(self, obj: Memory) -> str:
        query = urlencode({ScopeSubtreeFilter.parameter_name: obj.scope_id})
        return format_html('<a href="?{}" title="only this scope and below">{}</a>', query, obj.scope.tag)

    @admin.display(description="memory")
    def summary(self, obj: Memory) -> str:
        return _summary(obj)

    def action_checkbox(self, obj: Memory) -> str:
        # Django labels the checkbox with str(obj), which would load each row's deferred content
        attrs = {"class": "action-select", "aria-label": format_html("Select memory {} - {}", obj.pk, _summary(obj))}
        return forms.CheckboxInput(attrs, lambda value: False).render(helpers.ACTION_CHECKBOX_NAME, str(obj.pk))

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

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.admin_user = request.user
        return form

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "scope" and field is not None:
            allowed = tenants_for(request.user)
            several = allowed is None or len(allowed) > 1
            nodes = Scope.objects.with_tree_fields().order_siblings_by("key").select_related("tenant")
            field.queryset = nodes if allowed is None else nodes.tree_filter(tenant__in=allowed)
            field.label_from_instance = lambda node: (
                INDENT * node.tree_depth + (f"{node.tenant.slug} · {node.tag}" if several else node.tag)
            )
        return field

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        allowed = tenants_for(request.user)
        if allowed is not None and len(allowed) == 1:
            initial.setdefault("tenant", allowed[0])
        return initial

    def save_form(self, request, form, change):
        instance = form.save(commit=False)  # the service already wrote during validation; this only sets save_m2m
        if change or form.write_result is None:
            return instance
        memory = form.write_result.memory
        memory.admin_write_result = form.write_result
        return memory

    def save_model(self, request, obj, form, change):
        if not self._tenant_allowed(request, obj):
            raise PermissionDenied("That tenant is not yours to manage.")
        result: WriteResult | None = getattr(obj, "admin_write_result", None)
        if result is None:
            return
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

    def _warn(self, request, warning: dict) -> None:
        other = warning.get("memory_id")
        if isinstance(other, int):
            message = format_html(
                '{} (<a href="{}">memory {}</a>)', warning.get("message", ""), _change_url(other), other
            )
        else:
            message = str(warning.get("message", warning))
        self.message_user(request, message, messages.WARNING)

    def log_addition(self, request, obj, message):
        result = getattr(obj, "admin_write_result", None)
        if result is not None and result.deduplicated:
            return None  # nothing was added
        return super().log_addition(request, obj, message)

    def response_add(self, request, obj, post_url_continue=None):
        result = getattr(obj, "admin_write_result", None)
        if result is not None and result.deduplicated:
            url = _change_url(obj.pk)
            self.message_user(
                request,
                format_html(
                    'This content is already stored as memory {} (<a href="{}">open it</a>); nothing new was added.',
                    obj.pk,
                    url,
                ),
                messages.INFO,
            )
            return HttpResponseRedirect(url)
        return super().response_add(request, obj, post_url_continue)

    # --- read-only panels of the change page ----------------------------------------------------------------

    @admin.display(description="scope")
    def scope_display(self, obj: Memory) -> str:
        scope = obj.scope
        return f"{scope.tag} ({scope.name})" if scope.name else scope.tag

    @admin.display(description="index state")
    def index_status(self, obj: Memory) -> str:
        chunks = obj.chunks.count()
        status = f"{obj.index_state}, {chunks} chunk{'' if chunks == 1 else 's'}"
        if obj.index_error:
            return format_html("{}<br><code>{}</code>", status, obj.index_error)
        return status

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

    # --- actions --------------------------------------------------------------------------------------------

    def delete_model(self, request, obj):
        memory_delete(memory=obj)

    def delete_queryset(self, request, queryset):
        """Django's "delete selected", one service call per row so that cascades and signals run."""
        for memory in queryset:
            try:
                memory_delete(memory=memory)
            except DomainError as exc:
                self.message_user(request, f"Memory {memory.pk} was not deleted: {exc.message}", messages.ERROR)

    @admin.action(description="Move to another scope…", permissions=["change"])
    def move_to_scope(self, request, queryset):
        memories = list(_with_summary(queryset.select_related("tenant", "scope")).order_by("id"))
        tenant_ids = {memory.tenant_id for memory in memories}
        if len(tenant_ids) != 1:
            self.message_user(request, "Select memories of one tenant to move them together.", messages.ERROR)
            return None
        tenant = memories[0].tenant
        form = MoveToScopeForm(request.POST if "apply" in request.POST else None, tenant=tenant)
        if form.is_bound and form.is_valid():
            self._move(request, memories, form.cleaned_data["scope"])
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Move memories to another scope",
            "opts": self.model._meta,
            "tenant": tenant,
            "memories": memories,
            "form": form,
            "media": self.media + form.media,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/memories/memory/move_to_scope.html", context)

    def _move(self, request, memories: list[Memory], target: Scope) -> None:
        author = _admin_author(request)
        moved = 0
        refused: dict[str, list[int]] = defaultdict(list)
        for memory in memories:
            if memory.scope_id == target.pk:
                continue
            try:
                memory_move(memory=memory, author=author, scope=target)
            except DomainError as exc:
                refused[exc.message].append(memory.pk)
            else:
                moved += 1
        for message, ids in refused.items():
            shown = ", ".join(str(pk) for pk in ids[:20]) + (" …" if len(ids) > 20 else "")
            self.message_user(request, f"{_plural(len(ids))} not moved ({shown}): {message}", messages.ERROR)
        if moved or not refused:
            self.message_user(request, f"Moved {_plural(moved)} to {target.tag}.", messages.SUCCESS)

    @admin.action(description="Re-index (embed again)", permissions=["change"])
    def reindex(self, request, queryset):
        ids = list(queryset.order_by("id").values_list("id", flat=True))
        # Marking rows pending is indexing bookkeeping (the reindex command does the same); the embedding itself
        # is the memories_embed service, run by the task.
        Memory.objects.filter(pk__in=ids).update(
            index_state=IndexState.PENDING, index_error="", updated_at=timezone.now()
        )

        def queue() -> None:
            for start in range(0, len(ids), REINDEX_BATCH):
                embed_memories.delay(ids[start : start + REINDEX_BATCH])

        transaction.on_commit(queue)  # never embed inside the request's transaction
        self.message_user(request, f"Queued {_plural(len(ids))} for re-indexing.", messages.SUCCESS)
