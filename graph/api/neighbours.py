"""The neighbourhood API: an entity's edges one or two hops out, as one user may see them."""

from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from graph.api.common import CURRENT_FACTS_HELP, EntityRefSerializer, FactSerializer
from graph.api.facts import current_facts
from graph.extraction import TYPED_RELATIONSHIPS
from graph.models import Entity, EntityKind
from graph.selectors import (
    NEIGHBOURHOOD_MAX_EDGES,
    NEIGHBOURHOOD_PER_NODE,
    entities_visible,
    entity_neighbourhood,
)
from memories.api.base import ApiView
from memories.api.common import USER_ID_PARAM
from memories.models import Tenant
from orgmemory.api.serializers import error_responses
from orgmemory.db_routing import read_routed
from orgmemory.errors import NotFound, ValidationFailed


class NeighbourhoodEntitySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=EntityKind.choices)
    distance = serializers.IntegerField(help_text="Hops from the entity asked for (0 is that entity).")


class NeighbourhoodEdgeSerializer(serializers.Serializer):
    subject = EntityRefSerializer()
    relationship = serializers.CharField()
    object = EntityRefSerializer()
    memory_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every memory visible to the user that states this edge."
    )
    confidence = serializers.FloatField(help_text="The highest confidence among those statements.")
    hop = serializers.IntegerField(help_text="1: touches the entity; 2: touches one of its neighbours.")


class NeighbourhoodSerializer(serializers.Serializer):
    entity = NeighbourhoodEntitySerializer()
    depth = serializers.IntegerField()
    entities = NeighbourhoodEntitySerializer(many=True, help_text="Every entity the edges touch, nearest first.")
    edges = NeighbourhoodEdgeSerializer(many=True, help_text="Strongest first.")
    facts = FactSerializer(many=True, help_text=CURRENT_FACTS_HELP)
    truncated = serializers.BooleanField(
        help_text=f"Edges were left out: more than {NEIGHBOURHOOD_PER_NODE} around one entity or "
        f"{NEIGHBOURHOOD_MAX_EDGES} in all."
    )


@read_routed("get")
class EntityNeighboursApi(ApiView):
    required_permission = "read"

    class NeighboursParamsSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128)
        depth = serializers.IntegerField(min_value=1, max_value=2, default=1)
        relationships = serializers.CharField(max_length=500, required=False, allow_blank=True)

        def validate_relationships(self, value: str) -> list[str]:
            names = [name.strip() for name in value.split(",") if name.strip()]
            unknown = [name for name in names if name not in TYPED_RELATIONSHIPS]
            if unknown:
                raise ValidationFailed(
                    f"unknown relationship(s) {', '.join(unknown)[:200]}; known: {', '.join(TYPED_RELATIONSHIPS)}",
                    code="unknown_relationship",
                    details={"relationships": unknown[:20]},
                )
            return list(dict.fromkeys(names))

    @extend_schema(
        operation_id="entity_neighbours",
        tags=["entities"],
        summary="The typed neighbourhood of an entity, as one user may see it",
        description="Typed edges (`founded`, `invested_in`, `works_at`, …) around the entity up to `depth` hops "
        "(1 or 2) in either direction, optionally only the `relationships` named (comma-separated). An edge is "
        "visible when a live memory on the user's scope chain states it; each edge lists those memories. Fan-out "
        f"is bounded: at most {NEIGHBOURHOOD_PER_NODE} edges around one entity and {NEIGHBOURHOOD_MAX_EDGES} in "
        "all, strongest first (`truncated`). 404 `entity_not_found` when the entity does not exist, is another "
        "tenant's, or no memory visible to the user links to it; 400 for a depth other than 1 or 2 or an "
        "unknown relationship (`unknown_relationship`). `facts`: what holds of the entity now (as on the entity).",
        parameters=[
            USER_ID_PARAM,
            OpenApiParameter("depth", int, enum=[1, 2], description="1 (default) or 2 hops."),
            OpenApiParameter(
                "relationships",
                str,
                description=f"Comma-separated, any of: {', '.join(TYPED_RELATIONSHIPS)}. Default: all.",
            ),
        ],
        responses={
            200: OpenApiResponse(
                NeighbourhoodSerializer,
                examples=[
                    OpenApiExample(
                        "one hop",
                        value={
                            "entity": {"id": 7, "name": "Acme Labs", "kind": "company", "distance": 0},
                            "depth": 1,
                            "entities": [
                                {"id": 7, "name": "Acme Labs", "kind": "company", "distance": 0},
                                {"id": 9, "name": "Alice Smith", "kind": "person", "distance": 1},
                            ],
                            "edges": [
                                {
                                    "subject": {"id": 9, "name": "Alice Smith"},
                                    "relationship": "founded",
                                    "object": {"id": 7, "name": "Acme Labs"},
                                    "memory_ids": [412, 415],
                                    "confidence": 0.9,
                                    "hop": 1,
                                }
                            ],
                            "facts": [],
                            "truncated": False,
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request, entity_id: int) -> Response:
        params = self.validated(self.NeighboursParamsSerializer, request.query_params)
        caller = self.caller(params["user_id"])
        body = neighbourhood_as_dict(
            tenant=self.tenant,
            chain_ids=caller.chain_ids,
            user_id=caller.member.user_id,
            entity_id=entity_id,
            depth=params["depth"],
            relationships=params.get("relationships") or (),
        )
        return Response(body)


def neighbourhood_as_dict(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    user_id: str,
    entity_id: int,
    depth: int,
    relationships: Sequence[str] = (),
) -> dict:
    """The neighbours response for a caller already resolved (the API view and the MCP tool share it), with the
    entity's current facts: 404 ``entity_not_found`` unless a visible memory links to the entity; ``depth`` and
    ``relationships`` are checked by the caller."""
    if not entities_visible(tenant=tenant, chain_ids=chain_ids).filter(pk=entity_id).exists():
        raise NotFound(f"no entity {entity_id} visible to {user_id}", code="entity_not_found")
    around = entity_neighbourhood(
        tenant=tenant, chain_ids=chain_ids, entity_id=entity_id, depth=depth, relationships=relationships
    )
    entities = around.entities

    def ref(pk: int) -> dict:
        return {"id": pk, "name": entities[pk].name}

    listed = sorted(around.distance.items(), key=lambda item: (item[1], entities[item[0]].name, item[0]))
    return {
        "entity": {**_entity_ref(entities[entity_id]), "distance": 0},
        "depth": depth,
        "entities": [{**_entity_ref(entities[pk]), "distance": distance} for pk, distance in listed],
        "edges": [
            {
                "subject": ref(edge.subject_id),
                "relationship": edge.relationship,
                "object": ref(edge.object_id),
                "memory_ids": list(edge.memory_ids),
                "confidence": edge.confidence,
                "hop": edge.hop,
            }
            for edge in around.edges
        ],
        "facts": current_facts(tenant=tenant, chain_ids=chain_ids, entity_id=entity_id),
        "truncated": around.truncated,
    }


def _entity_ref(entity: Entity) -> dict:
    return {"id": entity.pk, "name": entity.name, "kind": entity.kind}
