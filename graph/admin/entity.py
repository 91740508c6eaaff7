"""Entities: list, search and filter them; merge duplicates (the others become aliases of the survivor) and split
an alias back off (undo a merge); open the graph page centred on one; read what its facts say over time (the page's
fact timeline, with links to close or correct a fact: ``graph.admin.fact``). Entities are written by link extraction
and changed only through ``graph.services``: no add, edit or delete here."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from graph.admin.fact import entity_fact_timeline
from graph.models import Entity, EntityAlias, EntityLink, Fact
from graph.services import entity_merge, entity_split_alias
from memories.admin.base import TenantFilter, TenantScopedModelAdmin
from orgmemory.errors import DomainError

LINKS_SHOWN = 50


def graph_url(entity: Entity) -> str:
    return f"{reverse('admin:graph')}?{urlencode({'tenant': entity.tenant_id, 'entity': entity.pk})}"


def _count_of(field: str) -> Subquery:
    """Links whose ``field`` is the row's entity, as a correlated subquery: two of them (out and in) count an
    entity's links without joining both sides at once (which would multiply the rows)."""
    counted = (
        EntityLink.objects.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(count=Count("*"))
        .values("count")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


class EntityAliasInline(admin.TabularInline):
    """The entity's other names, read-only, each with a link to split it back off."""

    model = EntityAlias
    fk_name = "entity"
    extra = 0
    fields = ["name", "norm", "created_at", "split_link"]
    readonly_fields = fields
    ordering = ["norm"]
    verbose_name = "alias"
    verbose_name_plural = "aliases (names merged into this entity)"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("entity")

    @admin.display(description="undo the merge")
    def split_link(self, obj: EntityAlias) -> str:
        if obj.pk is None or obj.norm == obj.entity.norm:
            return "—"
        url = reverse("admin:graph_entity_split_alias", args=[obj.entity_id, obj.pk])
        return format_html('<a class="button" href="{}">Split off…</a>', url)

    # the parent admin has already checked the entity is in one of the user's tenants
    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MergeForm(forms.Form):
    survivor = forms.ModelChoiceField(
        queryset=Entity.objects.none(),
        widget=forms.RadioSelect,
        empty_label=None,
        label="Surviving entity",
        help_text="The others become its aliases; their links point at it.",
    )

    def __init__(self, *args, entities: list[Entity], **kwargs):
        super().__init__(*args, **kwargs)
        # only the selected entities: any other id is "not a valid choice"
        self.fields["survivor"].queryset = Entity.objects.filter(pk__in=[entity.pk for entity in entities])
        self.fields["survivor"].label_from_instance = lambda entity: (
            f"{entity.name} ({entity.kind}, {entity.mention_count} mention{pluralize(entity.mention_count)})"
        )


@admin.register(Entity)
class EntityAdmin(TenantScopedModelAdmin):
    list_display = ["name", "kind", "mention_count", "link_count", "tenant", "graph_link"]
    list_filter = [TenantFilter, "kind"]
    search_fields = ["name", "norm", "aliases__name", "aliases__norm"]
    search_help_text = "Name, normalised name or alias."
    list_select_related = ["tenant"]
    ordering = ["-mention_count", "name"]
    actions = ["merge_entities"]
    inlines = [EntityAliasInline]
    fields = ["tenant", "name", "norm", "kind", "target", "mention_count", "created_at", "graph_link", "links"]
    readonly_fields = fields
    change_form_template = "admin/graph/entity_change_form.html"
    change_list_template = "admin/graph/entity_change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(links_total=_count_of("subject") + _count_of("object"))

    def get_urls(self):
        split = path(
            "<path:object_id>/split/<int:alias_id>/",
            self.admin_site.admin_view(self.split_alias_view),
            name="graph_entity_split_alias",
        )
        return [split, *super().get_urls()]

    def has_add_permission(self, request):
        return False  # entities come from link extraction

    def has_delete_permission(self, request, obj=None):
        return False  # deleting one would leave its neighbours' mention counts stale; delete links instead

    def save_model(self, request, obj, form, change):
        pass  # every field is read-only: merge and split are the writes

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}), "show_save": False, "show_save_and_continue": False}
        return super().change_view(request, object_id, form_url, extra_context)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            fact_admin = self.admin_site.get_model_admin(Fact)
            context["fact_timeline"] = entity_fact_timeline(
                obj, may_change=fact_admin.has_change_permission(request, obj)
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    # --- columns and panels ---------------------------------------------------------------------------------

    @admin.display(description="links", ordering="links_total")
    def link_count(self, obj: Entity) -> int:
        return obj.links_total

    @admin.display(description="graph")
    def graph_link(self, obj: Entity) -> str:
        return format_html('<a href="{}">View in graph</a>', graph_url(obj))

    @admin.display(description="links (strongest first)")
    def links(self, obj: Entity) -> str:
        rows = list(
            EntityLink.objects.filter(Q(subject=obj) | Q(object=obj))
            .select_related("subject", "object")
            .order_by("-confidence", "id")[: LINKS_SHOWN + 1]
        )
        if not rows:
            return "None."
        items = format_html_join(
            "",
            '<li>{} <em>{}</em> {} — {}, <a href="{}">memory {}</a> (<a href="{}">link {}</a>)</li>',
            (
                (
                    link.subject.name,
                    link.relationship,
                    link.object.name if link.object_id else "—",
                    f"{link.confidence:.2f}",
                    reverse("admin:memories_memory_change", args=[link.memory_id]),
                    link.memory_id,
                    reverse("admin:graph_entitylink_change", args=[link.pk]),
                    link.pk,
                )
                for link in rows[:LINKS_SHOWN]
            ),
        )
        more = format_html("<li>… more in the graph view</li>") if len(rows) > LINKS_SHOWN else ""
        return format_html("<ul>{}{}</ul>", items, more)

    # --- merge ----------------------------------------------------------------------------------------------

    @admin.action(description="Merge selected entities…", permissions=["change"])
    def merge_entities(self, request, queryset):
        entities = list(queryset.select_related("tenant").order_by("-mention_count", "name", "id"))
        if len(entities) < 2:
            self.message_user(request, "Select at least two entities to merge.", messages.ERROR)
            return None
        if len({entity.tenant_id for entity in entities}) != 1:
            self.message_user(request, "Select entities of one tenant to merge them.", messages.ERROR)
            return None
        form = MergeForm(request.POST if "apply" in request.POST else None, entities=entities)
        if form.is_bound and form.is_valid():
            survivor = form.cleaned_data["survivor"]
            others = [entity for entity in entities if entity.pk != survivor.pk]
            try:
                survivor = entity_merge(tenant=survivor.tenant, survivor=survivor, others=others)
            except DomainError as exc:
                self.message_user(request, f"Nothing was merged: {exc.message}", messages.ERROR)
                return None
            self.message_user(
                request,
                format_html(
                    'Merged {} into <a href="{}">{}</a>: {} now its alias{}; it has {} mentions.',
                    ", ".join(entity.name for entity in others),
                    reverse("admin:graph_entity_change", args=[survivor.pk]),
                    survivor.name,
                    "that name is" if len(others) == 1 else "those names are",
                    "" if len(others) == 1 else "es",
                    survivor.mention_count,
                ),
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Merge entities",
            "opts": self.model._meta,
            "tenant": entities[0].tenant,
            "entities": entities,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/graph/merge_entities.html", context)

    # --- split ----------------------------------------------------------------------------------------------

    def split_alias_view(self, request, object_id, alias_id):
        """GET: what splitting the alias off would do; POST: do it (``entity_split_alias``)."""
        entity = self.get_object(request, object_id)  # None for another tenant's entity: same as a missing one
        if entity is None or not self.has_change_permission(request, entity):
            return self._get_obj_does_not_exist_redirect(request, self.model._meta, object_id)
        alias = get_object_or_404(EntityAlias, pk=alias_id, entity=entity)
        change_url = reverse("admin:graph_entity_change", args=[entity.pk])
        if request.method == "POST":
            try:
                split = entity_split_alias(alias=alias)
            except DomainError as exc:
                self.message_user(request, f"Not split: {exc.message}", messages.ERROR)
                return HttpResponseRedirect(change_url)
            self.log_change(request, entity, f"Split alias {alias.name!r} off into entity {split.pk}.")
            self.message_user(
                request,
                format_html(
                    '<a href="{}">{}</a> is its own entity again, with {} mentions.',
                    reverse("admin:graph_entity_change", args=[split.pk]),
                    split.name,
                    split.mention_count,
                ),
                messages.SUCCESS,
            )
            return HttpResponseRedirect(change_url)
        returning = EntityLink.objects.filter(
            Q(subject=entity, subject_norm=alias.norm) | Q(object=entity, object_norm=alias.norm)
        ).count()
        context = {
            **self.admin_site.each_context(request),
            "title": f"Split “{alias.name}” off {entity.name}",
            "opts": self.model._meta,
            "entity": entity,
            "alias": alias,
            "returning": returning,
            "original": entity,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/graph/split_alias.html", context)
