"""The facts API: what holds of an entity, and what held before, as one user may see it (graph.facts)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from graph.api.common import FACT_EXAMPLE, EntityRefSerializer, FactSerializer
from graph.facts import facts_timeline
from graph.models import Attribute
from graph.selectors import (
    entities_visible,
)
from memories.api.base import ApiView
from memories.api.common import USER_ID_PARAM
from memories.models import Tenant
from memories.services.memory.time import parse_moment
from orgmemory.api.serializers import error_responses
from orgmemory.db_routing import read_routed
from orgmemory.errors import NotFound


def current_facts(*, tenant: Tenant, chain_ids: Sequence[int], entity_id: int) -> list[dict]:
    """The facts that hold now of an entity the caller may see (``facts_timeline`` over their chain), newest first,
    each as the facts endpoint gives it — one statement."""
    facts = facts_timeline(tenant_id=tenant.pk, chain_ids=chain_ids, subject_ids=[entity_id], now=timezone.now())
    return [fact.as_json() for fact in facts if fact.current]


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
                                FACT_EXAMPLE,
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
