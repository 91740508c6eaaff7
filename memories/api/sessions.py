"""The ADK session endpoints: ``POST /sessions`` stores a session's events as memories (idempotent per event
id); ``DELETE /sessions/<id>`` forgets what a user's session stored.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from memories.api.base import ApiView
from memories.api.common import PROJECT_PARAM, USER_ID_HELP, USER_ID_PARAM, _agent, key_is_curator
from memories.api.serializers import project_field
from memories.services.sessions import event_moment, session_delete, session_ingest
from orgmemory.api.serializers import error_responses
from orgmemory.db_routing import records_writes
from orgmemory.errors import ValidationFailed

MAX_EVENTS = 1000


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number", "example": 1746178200.0, "description": "Seconds since the epoch (ADK's form)."},
            {"type": "string", "example": "2025-05-02T09:30:00Z", "description": "An ISO 8601 date or datetime."},
        ]
    }
)
class EventTimestampField(serializers.Field):
    """A session event's time: seconds since the epoch (a number, as ADK sends it) or an ISO 8601 date or datetime
    (a string, as every other time field takes it), checked as the session service reads it (``event_moment``) and
    passed on as sent."""

    default_error_messages = {
        "invalid": "A timestamp is seconds since the epoch (a number) or an ISO 8601 date or datetime (a string)."
    }

    def to_internal_value(self, data: Any) -> float | str:
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            self.fail("invalid")
        value = data.strip() if isinstance(data, str) else float(data)
        try:
            event_moment(value)
        except ValidationFailed as exc:
            raise serializers.ValidationError(exc.message, code="invalid") from None
        return value

    def to_representation(self, value: Any) -> Any:
        return value


class SessionEventSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=256)
    author = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    timestamp = EventTimestampField(
        required=False,
        allow_null=True,
        help_text="When the event happened: seconds since the epoch or ISO 8601 (e.g. 2025-05-02T09:30:00Z); the "
        "moment its relative dates refer to.",
    )
    text = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)


@records_writes("post")
class SessionIngestApi(ApiView):
    required_permission = "write"

    class SessionIngestInputSerializer(serializers.Serializer):
        app_name = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
        user_id = serializers.CharField(max_length=128, help_text=USER_ID_HELP)
        session_id = serializers.CharField(max_length=256)
        project = project_field()
        events = serializers.ListField(child=SessionEventSerializer(), max_length=MAX_EVENTS)

    class SessionIngestOutputSerializer(serializers.Serializer):
        session_id = serializers.CharField()
        created = serializers.IntegerField(help_text="Events stored as new memories.")
        skipped = serializers.IntegerField(help_text="Events already stored (same id or same text) or without text.")
        memory_ids = serializers.ListField(child=serializers.IntegerField())

    @extend_schema(
        operation_id="session_ingest",
        tags=["sessions"],
        summary="Remember an ADK session's events",
        description=(
            "Each event with text becomes an `event` memory at the user's own scope (in its `project` when "
            "given; the ADK author and timestamp in its metadata); an event's `timestamp` (seconds since the epoch "
            'or ISO 8601) is the moment its relative dates ("yesterday") refer to. Idempotent per event id: '
            "re-sending the session stores only new events. 201 when anything was created, else 200. All or "
            "nothing: a bad event fails the call with its index."
        ),
        request=SessionIngestInputSerializer,
        responses={
            201: SessionIngestOutputSerializer,
            200: SessionIngestOutputSerializer,
            **error_responses(400, 403, 404, 413),
        },
        examples=[
            OpenApiExample(
                "a session",
                request_only=True,
                value={
                    "app_name": "support-bot",
                    "user_id": "albert",
                    "session_id": "5f0c6a1e",
                    "events": [
                        {
                            "id": "e1",
                            "author": "user",
                            "timestamp": 1746178200.0,
                            "text": "Our staging DB is pg-stg-2.",
                        },
                        {"id": "e2", "author": "support-bot", "timestamp": "2025-05-02T09:30:01Z", "text": "Noted."},
                    ],
                },
            ),
            OpenApiExample(
                "ingested",
                response_only=True,
                status_codes=["201"],
                value={"session_id": "5f0c6a1e", "created": 2, "skipped": 0, "memory_ids": [501, 502]},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.validated(self.SessionIngestInputSerializer, request.data)
        caller = self.caller(data["user_id"], provision=True)
        result = session_ingest(
            tenant=self.tenant,
            author=_agent(caller, self.api_key),
            app_name=data["app_name"],
            session_id=data["session_id"],
            events=data["events"],
            project=data.get("project") or None,
        )
        body = {
            "session_id": data["session_id"],
            "created": result.created,
            "skipped": result.skipped,
            "memory_ids": result.memory_ids,
        }
        return Response(body, status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK)


@records_writes("delete")
class SessionDeleteApi(ApiView):
    required_permission = "delete"

    class SessionDeleteOutputSerializer(serializers.Serializer):
        session_id = serializers.CharField()
        deleted = serializers.IntegerField()

    @extend_schema(
        operation_id="session_delete",
        tags=["sessions"],
        summary="Forget what a user's session stored",
        description="Deletes the memories this user wrote in the session, with the older versions they "
        "superseded and their graph links. A key restricted to a subtree deletes only the session's memories "
        "inside it. 0 for a session that stored nothing. Without `project` a project's memories stay; with it, "
        "only that project's go (404 `unknown_project`).",
        parameters=[USER_ID_PARAM, PROJECT_PARAM],
        responses={
            200: OpenApiResponse(
                SessionDeleteOutputSerializer,
                examples=[OpenApiExample("deleted", value={"session_id": "5f0c6a1e", "deleted": 2})],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def delete(self, request: Request, session_id: str) -> Response:
        caller = self.caller(self.user_id_from(request))
        deleted = session_delete(
            tenant=self.tenant,
            member=caller.member,
            session_id=session_id,
            within=self.api_key.scope,
            curator=key_is_curator(self.api_key),
            project=request.query_params.get("project") or None,
        )
        return Response({"session_id": session_id, "deleted": deleted})
