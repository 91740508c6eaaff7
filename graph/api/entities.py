"""The entities API: the knowledge graph as one user may see it. An entity exists for a user only through links
stated by memories visible to them; neighbours and links are filtered the same way."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Q
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from graph.api.common import CURRENT_FACTS_HELP, FACT_EXAMPLE, EntityRefSerializer, FactSerializer
from graph.api.facts import current_facts
from graph.models import Entity, EntityKind
from graph.selectors import (
    entities_visible,
    entity_neighbours,
    visible_links,
)
from memories.api.base import ApiView
from memories.api.common import USER_ID_PARAM
from memories.models import Tenant
from orgmemory.api.serializers import NumberedPage, error_responses
from orgmemory.db_routing import read_routed
from orgmemory.errors import NotFound

NEIGHBOUR_LIMIT = 200
LINK_LIMIT = 200


def _visible_mentions(*, tenant: Tenant, chain_ids: Sequence[int], entity_ids: Sequence[int]) -> dict[int, int]:
    """Distinct visible memories linking to each entity (the global mention count would reveal private ones)."""
    links = visible_links(tenant=tenant, chain_ids=chain_ids).filter(
        Q(subject_id__in=entity_ids) | Q(object_id__in=entity_ids)
    )
    memories: dict[int, set[int]] = defaultdict(set)
    for subject_id, object_id, memory_id in links.values_list("subject_id", "object_id", "memory_id"):
        for entity_id in (subject_id, object_id):
            if entity_id in entity_ids:
                memories[entity_id].add(memory_id)
    return {entity_id: len(ids) for entity_id, ids in memories.items()}


class EntityOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=EntityKind.choices)
    mentions = serializers.IntegerField(help_text="Visible memories that link to it.")


class EntityPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Entities visible to the user that match.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EntityOutputSerializer(many=True)


class NeighbourSerializer(serializers.Serializer):
    entity = EntityRefSerializer()
    relationship = serializers.CharField(help_text="founded, invested_in, works_at, advises, …")
    direction = serializers.ChoiceField(choices=["out", "in"], help_text="out: this entity is the subject.")
    memory_id = serializers.IntegerField(help_text="The visible memory that states the edge.")
    confidence = serializers.FloatField()


class LinkSerializer(serializers.Serializer):
    memory_id = serializers.IntegerField()
    subject = EntityRefSerializer()
    relationship = serializers.CharField()
    object = EntityRefSerializer(allow_null=True)
    confidence = serializers.FloatField()


class EntityDetailSerializer(EntityOutputSerializer):
    neighbours = NeighbourSerializer(many=True)
    links = LinkSerializer(many=True, help_text="Every visible link, mentions included (at most 200).")
    facts = FactSerializer(many=True, help_text=CURRENT_FACTS_HELP)


_ENTITY_EXAMPLE = {"id": 7, "name": "Acme Labs", "kind": "company", "mentions": 3}


@read_routed("get")
class EntityListApi(ApiView):
    required_permission = "read"

    class EntityListFilterSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128)
        q = serializers.CharField(max_length=200, required=False)

    @extend_schema(
        operation_id="entity_list",
        tags=["entities"],
        summary="Entities a user can see",
        description="Entities with at least one link stated by a memory visible to the user, most mentioned "
        "first; `q` matches names by substring, typo-tolerant similarity, or alias. Page-number pagination.",
        parameters=[
            USER_ID_PARAM,
            OpenApiParameter("q", str, description="A name or part of one, e.g. `acme`."),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int, description="1–100, default 20."),
        ],
        responses={
            200: OpenApiResponse(
                EntityPageSerializer,
                examples=[
                    OpenApiExample(
                        "a page", value={"count": 1, "next": None, "previous": None, "results": [_ENTITY_EXAMPLE]}
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request) -> Response:
        params = self.validated(self.EntityListFilterSerializer, request.query_params)
        caller = self.caller(params["user_id"])
        entities = entities_visible(tenant=self.tenant, chain_ids=caller.chain_ids, q=params.get("q", ""))
        paginator = NumberedPage()
        page = paginator.paginate_queryset(entities, request, view=self)
        mentions = _visible_mentions(
            tenant=self.tenant, chain_ids=caller.chain_ids, entity_ids=[entity.pk for entity in page]
        )
        results = [_entity(entity, mentions.get(entity.pk, 0)) for entity in page]
        return paginator.get_paginated_response(results)


@read_routed("get")
class EntityDetailApi(ApiView):
    required_permission = "read"

    @extend_schema(
        operation_id="entity_get",
        tags=["entities"],
        summary="One entity with its visible links, neighbours and current facts",
        description="`facts`: what holds of it now among the facts memories visible to the user state (lives in, "
        "works at, reports to, …; history and `as_of` at `/entities/{id}/facts`). 404 `entity_not_found` when the "
        "entity does not exist, is another tenant's, or no memory visible to the user links to it.",
        parameters=[USER_ID_PARAM],
        responses={
            200: OpenApiResponse(
                EntityDetailSerializer,
                examples=[
                    OpenApiExample(
                        "an entity",
                        value={
                            **_ENTITY_EXAMPLE,
                            "neighbours": [
                                {
                                    "entity": {"id": 9, "name": "Alice Smith"},
                                    "relationship": "founded",
                                    "direction": "in",
                                    "memory_id": 412,
                                    "confidence": 0.9,
                                }
                            ],
                            "links": [
                                {
                                    "memory_id": 412,
                                    "subject": {"id": 9, "name": "Alice Smith"},
                                    "relationship": "founded",
                                    "object": {"id": 7, "name": "Acme Labs"},
                                    "confidence": 0.9,
                                }
                            ],
                            "facts": [
                                {
                                    **FACT_EXAMPLE,
                                    "attribute": "owned_by",
                                    "value": "Payments",
                                    "value_entity_id": 15,
                                    "valid_from": "2025-11-03",
                                }
                            ],
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request, entity_id: int) -> Response:
        caller = self.caller(self.user_id_from(request, body=False))
        chain_ids = caller.chain_ids
        entity = entities_visible(tenant=self.tenant, chain_ids=chain_ids).filter(pk=entity_id).first()
        if entity is None:
            raise NotFound(f"no entity {entity_id} visible to {caller.member.user_id}", code="entity_not_found")
        neighbours = entity_neighbours(tenant=self.tenant, chain_ids=chain_ids, entity=entity, limit=NEIGHBOUR_LIMIT)
        links = (
            visible_links(tenant=self.tenant, chain_ids=chain_ids)
            .filter(Q(subject_id=entity.pk) | Q(object_id=entity.pk))
            .select_related("subject", "object")
            .order_by("-confidence", "memory_id", "id")[:LINK_LIMIT]
        )
        mentions = _visible_mentions(tenant=self.tenant, chain_ids=chain_ids, entity_ids=[entity.pk])
        body = {
            **_entity(entity, mentions.get(entity.pk, 0)),
            "neighbours": [
                {
                    "entity": {"id": hop.entity_id, "name": hop.entity_name},
                    "relationship": hop.relationship,
                    "direction": hop.direction,
                    "memory_id": hop.memory_id,
                    "confidence": hop.confidence,
                }
                for hop in neighbours
            ],
            "links": [
                {
                    "memory_id": link.memory_id,
                    "subject": {"id": link.subject_id, "name": link.subject.name},
                    "relationship": link.relationship,
                    "object": {"id": link.object_id, "name": link.object.name} if link.object_id else None,
                    "confidence": link.confidence,
                }
                for link in links
            ],
            "facts": current_facts(tenant=self.tenant, chain_ids=chain_ids, entity_id=entity.pk),
        }
        return Response(body)


def _entity(entity: Entity, mentions: int) -> dict:
    return {"id": entity.pk, "name": entity.name, "kind": entity.kind, "mentions": mentions}
