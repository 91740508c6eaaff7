"""What the graph's API views share: an entity as a reference, and a fact as every view gives it."""

from __future__ import annotations

from rest_framework import serializers

from graph.models import Attribute

__all__ = ["CURRENT_FACTS_HELP", "FACT_EXAMPLE", "EntityRefSerializer", "FactSerializer"]

CURRENT_FACTS_HELP = (
    "What holds of the entity now, as the user may see it (its history: `GET /entities/{id}/facts`), newest first."
)


class EntityRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class FactSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    attribute = serializers.ChoiceField(choices=Attribute.choices)
    value = serializers.CharField(help_text="A name as written, a lower-case title, or an ISO day.")
    value_entity_id = serializers.IntegerField(allow_null=True, help_text="The value's entity, when it is one.")
    negated = serializers.BooleanField(help_text="A statement that ended the value without a new one.")
    valid_from = serializers.DateField(allow_null=True)
    valid_until = serializers.DateField(
        allow_null=True, help_text="When it stopped: as stated, or the day a later value (or a negation) began."
    )
    memory_id = serializers.IntegerField(help_text="The visible memory that states it.")
    confidence = serializers.FloatField()
    curated = serializers.BooleanField(help_text="Stated by an admin, an import, or an approved proposal.")
    current = serializers.BooleanField(help_text="Holds now (or at as_of).")
    closed_by = serializers.IntegerField(allow_null=True, help_text="The fact whose value ended this one.")
    conflicts_with = serializers.ListField(
        child=serializers.IntegerField(), help_text="Later values a curated value outranks, and the reverse."
    )


FACT_EXAMPLE = {
    "id": 31,
    "attribute": "lives_in",
    "value": "Denver",
    "value_entity_id": 40,
    "negated": False,
    "valid_from": "2025-08-01",
    "valid_until": None,
    "memory_id": 75,
    "confidence": 0.8,
    "curated": False,
    "current": True,
    "closed_by": None,
    "conflicts_with": [],
}
