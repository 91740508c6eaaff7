"""Entity links: list and filter what memories state (by relationship, confidence band, tenant) and delete wrong
links through ``link_delete``, which keeps both entities' mention counts exact. Links are written by extraction:
no add or edit here, and a later edit of the stating memory extracts its links again."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from graph.models import EntityLink
from graph.services import link_delete
from graph.vocabulary import RELATIONSHIP_VALUES
from memories.admin.base import TenantFilter, TenantScopedModelAdmin

HIGH_CONFIDENCE = 0.8
LOW_CONFIDENCE = 0.5


class RelationshipFilter(admin.SimpleListFilter):
    """Every stored relationship, from ``graph.vocabulary`` (the extractor's and the store's ``about``): a fixed
    list, so the filter costs no query over the links."""

    title = "relationship"
    parameter_name = "relationship"

    def lookups(self, request, model_admin):
        return [(name, name) for name in RELATIONSHIP_VALUES]

    def queryset(self, request, queryset):
        return queryset.filter(relationship=self.value()) if self.value() else queryset


class ConfidenceBandFilter(admin.SimpleListFilter):
    title = "confidence"
    parameter_name = "confidence"

    def lookups(self, request, model_admin):
        return [
            ("high", f"high (≥ {HIGH_CONFIDENCE})"),
            ("medium", f"medium ({LOW_CONFIDENCE}–{HIGH_CONFIDENCE})"),
            ("low", f"low (< {LOW_CONFIDENCE})"),
        ]

    def queryset(self, request, queryset):
        if self.value() == "high":
            return queryset.filter(confidence__gte=HIGH_CONFIDENCE)
        if self.value() == "medium":
            return queryset.filter(confidence__gte=LOW_CONFIDENCE, confidence__lt=HIGH_CONFIDENCE)
        if self.value() == "low":
            return queryset.filter(confidence__lt=LOW_CONFIDENCE)
        return queryset


@admin.register(EntityLink)
class EntityLinkAdmin(TenantScopedModelAdmin):
    list_display = ["id", "subject_link", "relationship", "object_link", "confidence", "memory_link", "tenant"]
    list_display_links = ["id"]
    list_filter = [TenantFilter, RelationshipFilter, ConfidenceBandFilter]
    search_fields = ["subject__name", "object__name"]
    search_help_text = "Subject or object name."
    list_select_related = ["tenant", "subject", "object"]
    ordering = ["-id"]
    actions = ["delete_links"]
    fields = [
        "tenant",
        "subject_link",
        "relationship",
        "object_link",
        "confidence",
        "memory_link",
        "subject_norm",
        "object_norm",
        "metadata",
        "span_start",
        "span_end",
    ]
    readonly_fields = fields

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # a bulk delete would skip the mention recount; delete_links does it
        return actions

    def has_add_permission(self, request):
        return False  # links come from extraction

    def has_change_permission(self, request, obj=None):
        return False  # read-only: delete a wrong link, or edit the memory that states it

    def delete_model(self, request, obj):
        link_delete(link=obj)

    def delete_queryset(self, request, queryset):
        for link in queryset:
            link_delete(link=link)

    # --- columns --------------------------------------------------------------------------------------------

    @admin.display(description="subject", ordering="subject__name")
    def subject_link(self, obj: EntityLink) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:graph_entity_change", args=[obj.subject_id]), obj.subject.name
        )

    @admin.display(description="object", ordering="object__name")
    def object_link(self, obj: EntityLink) -> str:
        if obj.object_id is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:graph_entity_change", args=[obj.object_id]), obj.object.name
        )

    @admin.display(description="memory", ordering="memory_id")
    def memory_link(self, obj: EntityLink) -> str:
        url = reverse("admin:memories_memory_change", args=[obj.memory_id])
        return format_html('<a href="{}">memory {}</a>', url, obj.memory_id)

    # --- actions --------------------------------------------------------------------------------------------

    @admin.action(description="Delete selected links (mention counts follow)…", permissions=["delete"])
    def delete_links(self, request, queryset):
        links = list(queryset.select_related("subject", "object").order_by("id"))
        if request.POST.get("post") == "yes":
            for link in links:
                link_delete(link=link)
            self.message_user(request, f"Deleted {len(links)} link{'' if len(links) == 1 else 's'}.", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Delete links",
            "opts": self.model._meta,
            "links": links,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/graph/delete_links.html", context)
