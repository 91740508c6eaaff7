"""The knowledge graph: entities, their aliases, and the typed links that memories state between them."""

from __future__ import annotations

from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import F, Q

from graph import vocabulary
from memories.models import Memory, Tenant
from memories.models.tenancy import ForTenantQuerySet, TenantKeyed

# The kinds and relationships, with their labels, come from the graph's vocabulary (graph.vocabulary).
EntityKind = models.TextChoices("EntityKind", [(k.value.upper(), (k.value, k.label)) for k in vocabulary.ENTITY_KINDS])
Relationship = models.TextChoices(
    "Relationship", [(r.value.upper(), (r.value, r.label)) for r in vocabulary.RELATIONSHIPS]
)


class Entity(TenantKeyed, models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="entities")
    name = models.CharField(max_length=200)
    norm = models.CharField(max_length=200, help_text="Normalised name: the identity within the tenant.")
    kind = models.CharField(max_length=16, choices=EntityKind.choices, default=EntityKind.UNKNOWN)
    target = models.CharField(max_length=300, blank=True, help_text="Link target it was written with, if any.")
    mention_count = models.PositiveIntegerField(default=0, help_text="Distinct memories that link to it.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entities"
        constraints = [
            models.UniqueConstraint(fields=["tenant", "norm"], name="entity_unique_norm"),
            models.CheckConstraint(condition=Q(kind__in=EntityKind.values), name="entity_kind_known"),
        ]
        indexes = [
            # resolution's fuzzy step and the admin/API name search
            GinIndex(fields=["norm"], opclasses=["gin_trgm_ops"], name="entity_norm_trgm"),
        ]

    def __str__(self) -> str:
        return self.name


class EntityAlias(TenantKeyed, models.Model):
    """Another normalised name that resolves to the entity (merged by an admin or learned by the resolver)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="aliases", db_constraint=False)
    name = models.CharField(max_length=200)
    norm = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entity aliases"
        constraints = [models.UniqueConstraint(fields=["tenant", "norm"], name="alias_unique_norm")]

    def __str__(self) -> str:
        return f"{self.name} → {self.entity}"


class EntityLink(TenantKeyed, models.Model):
    """``subject —relationship→ object`` as stated by one memory (object null for a bare mention or `about`)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="links", db_constraint=False)
    subject = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="links_out", db_constraint=False)
    relationship = models.CharField(max_length=32, choices=Relationship.choices)
    object = models.ForeignKey(
        Entity, null=True, blank=True, on_delete=models.CASCADE, related_name="links_in", db_constraint=False
    )
    confidence = models.FloatField()
    # the normalised names as written: an alias split off later takes exactly the links written with it
    subject_norm = models.CharField(max_length=200, blank=True)
    object_norm = models.CharField(max_length=200, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    span_start = models.PositiveIntegerField(default=0)
    span_end = models.PositiveIntegerField(default=0)
    # the stating memory's scope, copied by the database (graph.0005's triggers: set on insert, kept when the memory
    # moves), so that the relational walk reads only the edges the caller may see from the index; the memory's own
    # scope is still checked, so a stale copy could only hide an edge, never show one
    scope_id = models.BigIntegerField(null=True, blank=True, editable=False)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(confidence__gte=0) & Q(confidence__lte=1), name="link_confidence_range"),
            models.CheckConstraint(
                condition=Q(object__isnull=False) | Q(relationship__in=vocabulary.OBJECTLESS_RELATIONSHIPS),
                name="link_object_unless_mention",
            ),
            models.CheckConstraint(condition=Q(relationship__in=Relationship.values), name="link_relationship_known"),
        ]
        indexes = [
            # the relational walk reads an entity's visible edges of one relationship newest first and stops at its
            # budget (retrieval.selectors.relational_walk): the caller's scopes in the key, memory last, so a hub is
            # read neither whole nor through the edges other scopes stated
            models.Index(
                fields=["tenant", "object", "relationship", "scope_id", "memory"], name="link_by_object_scope"
            ),
            models.Index(
                fields=["tenant", "subject", "relationship", "scope_id", "memory"], name="link_by_subject_scope"
            ),
            models.Index(fields=["memory"], name="link_by_memory"),
        ]

    def __str__(self) -> str:
        return f"{self.subject_id} {self.relationship} {self.object_id}"


Attribute = models.TextChoices("Attribute", [(a.value.upper(), (a.value, a.label)) for a in vocabulary.ATTRIBUTES])


class Fact(TenantKeyed, models.Model):
    """``subject --attribute--> value`` as one memory states it, over the interval it holds
    (graph.extraction.facts; docs/ARCHITECTURE.md § Facts).

    Stored as stated: ``valid_until`` is set only by the statement itself ("until 2019", "used to") or by a curator.
    That a later value of a functional attribute closed it is read, not written — among the facts the caller may
    see, as of the time asked (graph.facts.facts_timeline) — so a private move never closes a value a teammate
    sees, a deleted statement reopens what it closed, and back-dated history falls into place. Visible exactly where
    the stating memory is; deleted with it."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="facts", db_constraint=False)
    subject = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="facts", db_constraint=False)
    attribute = models.CharField(max_length=32, choices=Attribute.choices)
    value_entity = models.ForeignKey(
        Entity, null=True, blank=True, on_delete=models.CASCADE, related_name="facts_valued", db_constraint=False
    )
    value = models.CharField(max_length=200, help_text="The value as written: a name, a title, an ISO day.")
    negated = models.BooleanField(default=False, help_text='Ends the value without a new one ("I left Acme").')
    valid_from = models.DateField(null=True, blank=True, help_text="When it began to hold (unknown: empty).")
    valid_until = models.DateField(null=True, blank=True, help_text="When it stopped, as stated or as curated.")
    recorded_at = models.DateTimeField(help_text="When it was said: the session event's time, else the write's.")
    confidence = models.FloatField()
    # a curator's correction (closed or corrected by hand), kept with who and when in the admin's history
    curator_note = models.CharField(max_length=300, blank=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(confidence__gte=0) & Q(confidence__lte=1), name="fact_confidence_range"),
            models.CheckConstraint(condition=Q(attribute__in=Attribute.values), name="fact_attribute_known"),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True)
                | Q(valid_until__isnull=True)
                | Q(valid_until__gte=F("valid_from")),
                name="fact_interval_ordered",
            ),
        ]
        indexes = [
            # a question reads one subject's facts of one attribute: a handful of rows, their memories checked after
            models.Index(fields=["tenant", "subject", "attribute"], name="fact_by_subject"),
            models.Index(fields=["memory"], name="fact_by_memory"),
        ]

    def __str__(self) -> str:
        return f"{self.subject_id} {self.attribute} {self.value}"
