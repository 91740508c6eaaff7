"""The entities API: the knowledge graph as one user may see it. An entity exists for a user only through links
stated by memories visible to them; neighbours and links are filtered the same way."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db.models import Q
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from graph.extraction import TYPED_RELATIONSHIPS
from graph.facts import facts_timeline
from graph.models import Attribute, Entity, EntityKind
from graph.selectors import (
    NEIGHBOURHOOD_MAX_EDGES,
    NEIGHBOURHOOD_PER_NODE,
    entities_visible,
    entity_neighbourhood,
    entity_neighbours,
    visible_links,
)
from memories.api.base import ApiView
from memories.api.common import USER_ID_PARAM
from memories.models import Tenant
from memories.services.memory.time import parse_moment
from orgmemory.api.serializers import NumberedPage, error_responses
from orgmemory.db_routing import read_routed
from orgmemory.errors import NotFound, ValidationFailed

NEIGHBOUR_LIMIT = 200
LINK_LIMIT = 200
CURRENT_FACTS_HELP = (
    "What holds of the entity now, as the user may see it (its history: `GET /entities/{id}/facts`), newest first."
)


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


class EntityRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


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


class EntityDetailSerializer(EntityOutputSerializer):
    neighbours = NeighbourSerializer(many=True)
    links = LinkSerializer(many=True, help_text="Every visible link, mentions included (at most 200).")
    facts = FactSerializer(many=True, help_text=CURRENT_FACTS_HELP)


_ENTITY_EXAMPLE = {"id": 7, "name": "Acme Labs", "kind": "company", "mentions": 3}
_FACT_EXAMPLE = {
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
                                    **_FACT_EXAMPLE,
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


def current_facts(*, tenant: Tenant, chain_ids: Sequence[int], entity_id: int) -> list[dict]:
    """The facts that hold now of an entity the caller may see (``facts_timeline`` over their chain), newest first,
    each as the facts endpoint gives it — one statement."""
    facts = facts_timeline(tenant_id=tenant.pk, chain_ids=chain_ids, subject_ids=[entity_id], now=timezone.now())
    return [fact.as_json() for fact in facts if fact.current]


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


class FactListSerializer(serializers.Serializer):
    entity = EntityRefSerializer()
    as_of = serializers.DateTimeField()
    results = FactSerializer(many=True, help_text="Current values first, then history, newest first.")


FACTS_AS_OF_HELP = (
    "ISO 8601 date or datetime (default now): the facts as they stood then — said by then (by each statement's own "
    "time: a session event's timestamp, a write's reference time), each with the interval it held."
)


@read_routed("get")
class EntityFactsApi(ApiView):
    required_permission = "read"

    class FactsParamsSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128)
        as_of = serializers.CharField(max_length=64, required=False, allow_blank=True)
        attribute = serializers.ChoiceField(choices=Attribute.choices, required=False)

    @extend_schema(
        operation_id="entity_facts",
        tags=["entities"],
        summary="What holds of an entity, and what held before",
        description="The facts visible memories state about the entity (zero LLM: extracted at write), each with "
        "its validity interval among the facts the user can see: a later value of a one-at-a-time attribute (lives "
        "in, works at, job title, reports to, owned by, due date) closes the earlier one, a negation closes it "
        "without a new value, and a curated value is not closed by a later agent-written one (both are marked "
        "`conflicts_with`). Current values first, then history. 404 `entity_not_found` as for the entity.",
        parameters=[
            USER_ID_PARAM,
            OpenApiParameter("as_of", str, description=FACTS_AS_OF_HELP),
            OpenApiParameter("attribute", str, enum=list(Attribute.values), description="One attribute only."),
        ],
        responses={
            200: OpenApiResponse(
                FactListSerializer,
                examples=[
                    OpenApiExample(
                        "a member who moved",
                        value={
                            "entity": {"id": 12, "name": "Dmitri Volkov"},
                            "as_of": "2025-10-01T00:00:00Z",
                            "results": [
                                {
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
                                },
                                {
                                    "id": 18,
                                    "attribute": "lives_in",
                                    "value": "Boston",
                                    "value_entity_id": 22,
                                    "negated": False,
                                    "valid_from": "2025-03-10",
                                    "valid_until": "2025-08-01",
                                    "memory_id": 67,
                                    "confidence": 0.8,
                                    "curated": False,
                                    "current": False,
                                    "closed_by": 31,
                                    "conflicts_with": [],
                                },
                            ],
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request, entity_id: int) -> Response:
        params = self.validated(self.FactsParamsSerializer, request.query_params)
        caller = self.caller(params["user_id"])
        body = entity_facts_as_dict(
            tenant=self.tenant,
            chain_ids=caller.chain_ids,
            user_id=caller.member.user_id,
            entity_id=entity_id,
            as_of=parse_moment(params.get("as_of"), field_name="as_of"),
            attribute=params.get("attribute"),
        )
        return Response(body)


def entity_facts_as_dict(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    user_id: str,
    entity_id: int,
    as_of: datetime | None = None,
    attribute: str | None = None,
) -> dict:
    """The facts response for a caller already resolved (the API view and the MCP tool share it): 404
    ``entity_not_found`` unless a visible memory links to the entity; ``attribute`` is checked by the caller."""
    entity = entities_visible(tenant=tenant, chain_ids=chain_ids).filter(pk=entity_id).first()
    if entity is None:
        raise NotFound(f"no entity {entity_id} visible to {user_id}", code="entity_not_found")
    now = timezone.now()
    facts = facts_timeline(
        tenant_id=tenant.pk,
        chain_ids=chain_ids,
        subject_ids=[entity.pk],
        attributes=[attribute] if attribute else None,
        as_of=as_of,
        now=now,
    )
    return {
        "entity": {"id": entity.pk, "name": entity.name},
        "as_of": (as_of or now).isoformat(),
        "results": [fact.as_json() for fact in facts],
    }
