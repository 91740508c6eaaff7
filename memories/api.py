"""The memories API (DESIGN §7): write, list, read, update and delete memories; ingest and forget ADK sessions;
delete by query; GDPR erasure of a user. Each view parses, calls one service or selector, and serializes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from memories.models import Memory, MemoryKind
from memories.selectors import scope_get_by_tag
from memories.selectors.memory import memories_visible, memory_get_visible
from memories.services.deletion import memories_delete_by_query, memory_delete_by_member
from memories.services.erasure import user_erase
from memories.services.memory import Author, WriteResult, memory_create, memory_create_batch, memory_update
from memories.services.sessions import session_delete, session_ingest
from orgmemory.api.base import ApiView, Caller
from orgmemory.api.serializers import CursorPage, ScopeField, ScopeRefSerializer, error_responses
from orgmemory.errors import NotFound, ValidationFailed

MAX_BATCH = 100
MAX_EVENTS = 1000
USER_ID_HELP = "The user the agent acts for (an external id of the tenant): what they may see and write."
USER_ID_PARAM = OpenApiParameter("user_id", str, OpenApiParameter.QUERY, required=True, description=USER_ID_HELP)


def _agent(caller: Caller) -> Author:
    return Author(kind="agent", member=caller.member)


# --- serializers ------------------------------------------------------------------------------------------------


class MemoryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    scope = ScopeRefSerializer()
    kind = serializers.ChoiceField(choices=MemoryKind.choices)
    title = serializers.CharField()
    content = serializers.CharField()
    author = serializers.CharField(help_text="Display name of the author (a user_id, or admin:<name>).")
    metadata = serializers.DictField(child=serializers.JSONField())
    app_name = serializers.CharField(source="source_app")
    session_id = serializers.CharField(source="source_session")
    event_id = serializers.CharField(source="source_event_id")
    index_state = serializers.CharField(help_text="pending until embedded; failed rows are retried.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MemoryPageSerializer(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next page (same filters), null on the last page.")
    previous = serializers.URLField(allow_null=True)
    results = MemoryOutputSerializer(many=True)


class MemoryInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text=USER_ID_HELP)
    content = serializers.CharField(help_text="The memory's text (size limit per tenant policy, default 32 KiB).")
    title = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    kind = serializers.ChoiceField(choices=MemoryKind.choices, default=MemoryKind.FACT)
    scope = ScopeField(required=False, allow_null=True, help_text="Default: the user's own scope.")
    metadata = serializers.DictField(child=serializers.JSONField(), required=False, default=dict)
    app_name = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    session_id = serializers.CharField(max_length=256, required=False, allow_blank=True, default="")
    event_id = serializers.CharField(max_length=256, required=False, allow_blank=True, default="")


class MemoryBatchInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text="Default user_id of every item.")
    memories = serializers.ListField(child=MemoryInputSerializer(), min_length=1, max_length=MAX_BATCH)


class MemoryWriteOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    scope = ScopeRefSerializer()
    kind = serializers.ChoiceField(choices=MemoryKind.choices)
    created_at = serializers.DateTimeField()
    created = serializers.BooleanField(help_text="False when an existing memory was returned.")
    deduplicated = serializers.BooleanField(help_text="An exact duplicate or a re-sent event id: nothing stored.")
    supersedes = serializers.IntegerField(allow_null=True, help_text="The near-duplicate this memory replaced.")
    warnings = serializers.ListField(child=serializers.DictField(), help_text="e.g. possible_contradiction.")

    def to_representation(self, result: WriteResult) -> dict[str, Any]:
        memory = result.memory
        return {
            "id": memory.pk,
            "scope": ScopeRefSerializer(memory.scope).data,
            "kind": memory.kind,
            "created_at": serializers.DateTimeField().to_representation(memory.created_at),
            "created": result.created,
            "deduplicated": result.deduplicated,
            "supersedes": result.supersedes,
            "warnings": result.warnings,
        }


class MemoryDeletedSerializer(serializers.Serializer):
    deleted = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.IntegerField())


class MemoryBatchOutputSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    deduplicated = serializers.IntegerField()
    memories = MemoryWriteOutputSerializer(many=True)


_WRITE_RESPONSE = PolymorphicProxySerializer(
    component_name="MemoryCreateResponse",
    serializers=[MemoryWriteOutputSerializer, MemoryBatchOutputSerializer],
    resource_type_field_name=None,
)
_WRITE_EXAMPLE = {
    "id": 412,
    "scope": {"level": "team", "key": "platform", "tag": "team:platform"},
    "kind": "fact",
    "created_at": "2025-05-02T09:30:00Z",
    "created": True,
    "deduplicated": False,
    "supersedes": None,
    "warnings": [],
}
_MEMORY_EXAMPLE = {
    "id": 412,
    "scope": {"level": "team", "key": "platform", "tag": "team:platform"},
    "kind": "fact",
    "title": "Deploys",
    "content": "The platform team deploys with Argo CD.",
    "author": "albert",
    "metadata": {},
    "app_name": "support-bot",
    "session_id": "",
    "event_id": "",
    "index_state": "ready",
    "created_at": "2025-05-02T09:30:00Z",
    "updated_at": "2025-05-02T09:30:01Z",
}


# --- views ------------------------------------------------------------------------------------------------------


class MemoryCollectionApi(ApiView):
    required_permission = {"GET": "read", "POST": "write"}

    @extend_schema(
        operation_id="memory_create",
        tags=["memories"],
        summary="Write a memory, or a batch of up to 100",
        description=(
            "Stores at the user's own scope unless `scope` names another node of their chain that policy lets "
            "agents write at. An exact duplicate at the same scope, or a re-sent `session_id`+`event_id`, returns "
            "the existing memory (200, `deduplicated`); a near-duplicate is superseded (`supersedes`). A batch "
            '`{"memories": [...]}` is all or nothing; 201 when any item was created, else 200. Unknown `user_id` '
            "→ 404 `unknown_user` unless the tenant policy auto-provisions users."
        ),
        request=PolymorphicProxySerializer(
            component_name="MemoryCreate",
            serializers=[MemoryInputSerializer, MemoryBatchInputSerializer],
            resource_type_field_name=None,
        ),
        responses={
            201: _WRITE_RESPONSE,
            200: OpenApiResponse(_WRITE_RESPONSE, description="Nothing new stored (duplicate / re-sent event)."),
            **error_responses(400, 403, 404, 409, 413),
        },
        examples=[
            OpenApiExample(
                "one memory",
                request_only=True,
                value={
                    "user_id": "albert",
                    "content": "The platform team deploys with Argo CD.",
                    "scope": "team:platform",
                },
            ),
            OpenApiExample(
                "batch",
                request_only=True,
                value={
                    "user_id": "albert",
                    "memories": [
                        {"content": "I prefer Python examples.", "kind": "preference"},
                        {"content": "On-call rotates weekly.", "scope": {"level": "team", "key": "platform"}},
                    ],
                },
            ),
            OpenApiExample("created", response_only=True, status_codes=["201"], value=_WRITE_EXAMPLE),
        ],
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.data, dict) and "memories" in request.data:
            return self._create_batch(request)
        data = self.validated(MemoryInputSerializer, request.data)
        if not data.get("user_id"):
            raise ValidationFailed("user_id: This field is required.", details={"user_id": ["This field is required."]})
        caller = self.caller(data.pop("user_id"), provision=True)
        result = memory_create(tenant=self.tenant, author=_agent(caller), **self._item_kwargs(data))
        code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        return Response(MemoryWriteOutputSerializer(result).data, status=code)

    def _create_batch(self, request: Request) -> Response:
        data = self.validated(MemoryBatchInputSerializer, request.data)
        user_ids = {item.get("user_id") or data.get("user_id") for item in data["memories"]}
        if None in user_ids or "" in user_ids:
            raise ValidationFailed(
                "user_id is required (at the top level or in every item)",
                details={"user_id": ["This field is required."]},
            )
        if len(user_ids) > 1:
            raise ValidationFailed(
                "a batch writes for one user_id; send one batch per user",
                code="mixed_users",
                details={"user_id": sorted(user_ids)},
            )
        caller = self.caller(user_ids.pop(), provision=True)
        items = []
        for item in data["memories"]:
            item.pop("user_id", None)
            items.append(self._item_kwargs(item))
        results = memory_create_batch(tenant=self.tenant, author=_agent(caller), items=items)
        created = sum(1 for result in results if result.created)
        body = {
            "created": created,
            "deduplicated": sum(1 for result in results if result.deduplicated),
            "memories": MemoryWriteOutputSerializer(results, many=True).data,
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    def _item_kwargs(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "content": data["content"],
            "title": data.get("title", ""),
            "kind": data.get("kind", MemoryKind.FACT),
            "scope": self.writable_scope(data.get("scope")),
            "metadata": data.get("metadata") or {},
            "source_app": data.get("app_name", ""),
            "source_session": data.get("session_id", ""),
            "source_event_id": data.get("event_id", ""),
        }

    class ListFilterSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128)
        scope = ScopeField(required=False)
        kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False)
        q = serializers.CharField(max_length=2000, required=False)

    @extend_schema(
        operation_id="memory_list",
        tags=["memories"],
        summary="List the memories a user can see",
        description=(
            "Live memories on the user's scope chain (their own scope and every ancestor: never a peer's user "
            "scope, never a sibling team), newest first, cursor-paginated (`next`). `scope` narrows to one node "
            "of the chain (400 `scope_not_on_chain` otherwise); `q` is full text (web-search syntax) over title "
            "and content."
        ),
        parameters=[
            USER_ID_PARAM,
            OpenApiParameter("scope", str, description="A scope tag on the user's chain, e.g. `team:platform`."),
            OpenApiParameter("kind", str, enum=MemoryKind.values),
            OpenApiParameter("q", str, description="Full-text filter, e.g. `deploy argo`."),
            OpenApiParameter("cursor", str, description="From `next` / `previous`."),
            OpenApiParameter("page_size", int, description="1–100, default 20."),
        ],
        responses={
            200: OpenApiResponse(
                MemoryPageSerializer,
                examples=[
                    OpenApiExample(
                        "a page",
                        value={
                            "next": "https://memory.example/api/v1/memories?cursor=cD0y&user_id=albert",
                            "previous": None,
                            "results": [_MEMORY_EXAMPLE],
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request) -> Response:
        params = self.validated(self.ListFilterSerializer, request.query_params)
        caller = self.caller(params["user_id"])
        chain_ids = caller.chain_ids
        if params.get("scope"):
            scope = scope_get_by_tag(tenant=self.tenant, tag=params["scope"])
            if scope.pk not in chain_ids:
                raise ValidationFailed(
                    f"scope {params['scope']!r} is not on the user's scope chain",
                    code="scope_not_on_chain",
                    details={"scope": [params["scope"]]},
                )
            chain_ids = [scope.pk]
        memories = memories_visible(
            tenant=self.tenant, chain_ids=chain_ids, kind=params.get("kind"), q=params.get("q", "")
        )
        paginator = CursorPage()
        page = paginator.paginate_queryset(memories, request, view=self)
        return paginator.get_paginated_response(MemoryOutputSerializer(page, many=True).data)


class MemoryDetailApi(ApiView):
    required_permission = {"GET": "read", "PATCH": "write", "DELETE": "delete"}

    def _visible(self, request: Request, memory_id: int) -> tuple[Caller, Memory]:
        caller = self.caller(self.user_id_from(request))
        memory = memory_get_visible(tenant=self.tenant, chain_ids=caller.chain_ids, memory_id=memory_id)
        if memory is None:
            raise NotFound(f"no memory {memory_id} visible to {caller.member.user_id}", code="memory_not_found")
        return caller, memory

    @extend_schema(
        operation_id="memory_get",
        tags=["memories"],
        summary="Read one memory",
        description="404 `memory_not_found` for an id that does not exist, is another tenant's, or is not on the "
        "user's scope chain (never 403: the id's existence is not revealed).",
        parameters=[USER_ID_PARAM],
        responses={
            200: OpenApiResponse(MemoryOutputSerializer, examples=[OpenApiExample("a memory", value=_MEMORY_EXAMPLE)]),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request, memory_id: int) -> Response:
        _, memory = self._visible(request, memory_id)
        return Response(MemoryOutputSerializer(memory).data)

    class MemoryPatchInputSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128, required=False, help_text=USER_ID_HELP)
        content = serializers.CharField(required=False)
        title = serializers.CharField(max_length=300, required=False, allow_blank=True)
        kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False)
        metadata = serializers.DictField(child=serializers.JSONField(), required=False)

    @extend_schema(
        operation_id="memory_update",
        tags=["memories"],
        summary="Change a memory's content, title, kind or metadata",
        description="The memory must be visible to the user and at a level agents may write (policy); it is "
        "re-indexed (embedding and graph links) after the change. `user_id` in the body or the query string.",
        request=MemoryPatchInputSerializer,
        parameters=[
            OpenApiParameter("user_id", str, OpenApiParameter.QUERY, required=False, description="Or in the body.")
        ],
        responses={
            200: OpenApiResponse(MemoryOutputSerializer, examples=[OpenApiExample("updated", value=_MEMORY_EXAMPLE)]),
            **error_responses(400, 403, 404, 413),
        },
        examples=[
            OpenApiExample(
                "new content",
                request_only=True,
                value={"user_id": "albert", "content": "The platform team deploys with Argo CD and Helm."},
            )
        ],
    )
    def patch(self, request: Request, memory_id: int) -> Response:
        data = self.validated(self.MemoryPatchInputSerializer, request.data)
        changes = {name: data[name] for name in ("content", "title", "kind", "metadata") if name in data}
        if not changes:
            raise ValidationFailed(
                "nothing to update: send content, title, kind or metadata", details={"non_field_errors": ["empty"]}
            )
        caller, memory = self._visible(request, memory_id)
        self.check_key_may_write(memory.scope)
        memory = memory_update(memory=memory, author=_agent(caller), **changes)
        return Response(MemoryOutputSerializer(memory).data)

    @extend_schema(
        operation_id="memory_delete",
        tags=["memories"],
        summary="Delete a memory (its graph links go with it)",
        description="Needs the `delete` permission. The memory must be visible to the user (else 404) and at a "
        "level agents may write for them (else 403 `level_not_writable`): an agent deletes only what it could "
        "have written.",
        parameters=[USER_ID_PARAM],
        responses={
            200: OpenApiResponse(
                MemoryDeletedSerializer,
                examples=[OpenApiExample("deleted", value={"deleted": 1, "ids": [412]})],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def delete(self, request: Request, memory_id: int) -> Response:
        caller, memory = self._visible(request, memory_id)
        self.check_key_may_write(memory.scope)
        deleted = memory_delete_by_member(tenant=self.tenant, member=caller.member, memory=memory)
        return Response({"deleted": deleted, "ids": [memory_id]})


class MemoryDeleteByQueryApi(ApiView):
    required_permission = "delete"

    class DeleteByQueryInputSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128, help_text=USER_ID_HELP)
        query = serializers.CharField(max_length=2000, help_text="Every word must occur (stemmed, ANDed).")
        scope = ScopeField(required=False, allow_null=True, help_text="Default: the user's own scope.")
        dry_run = serializers.BooleanField(default=False, help_text="Return the matching ids without deleting.")

    class DeleteByQueryOutputSerializer(serializers.Serializer):
        deleted = serializers.IntegerField()
        ids = serializers.ListField(child=serializers.IntegerField())
        scope = ScopeRefSerializer()
        dry_run = serializers.BooleanField()

    @extend_schema(
        operation_id="memories_delete_by_query",
        tags=["memories"],
        summary="Delete the memories at one scope that match a query",
        description=(
            "Deletes the memories at exactly `scope` (default: the user's own; it must be on their chain and "
            "writable by agents) whose title + content contain **every** word of `query` (PostgreSQL "
            "`plainto_tsquery`: stemmed words ANDed, no operators, so nothing can widen the match). History "
            "versions at that scope that match are deleted too. A query with no searchable word → 400 "
            "`empty_query`; over 1,000 matches → 400 `too_many_matches`. Use `dry_run` to preview."
        ),
        request=DeleteByQueryInputSerializer,
        responses={200: DeleteByQueryOutputSerializer, **error_responses(400, 403, 404)},
        examples=[
            OpenApiExample(
                "forget a preference",
                request_only=True,
                value={"user_id": "albert", "query": "prefers dark mode", "scope": "user:albert"},
            ),
            OpenApiExample(
                "deleted",
                response_only=True,
                value={
                    "deleted": 2,
                    "ids": [17, 18],
                    "scope": {"level": "user", "key": "albert", "tag": "user:albert"},
                    "dry_run": False,
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.validated(self.DeleteByQueryInputSerializer, request.data)
        caller = self.caller(data["user_id"])
        scope = self.writable_scope(data.get("scope"))
        result = memories_delete_by_query(
            tenant=self.tenant, member=caller.member, query=data["query"], scope=scope, dry_run=data["dry_run"]
        )
        return Response(
            {
                "deleted": result.deleted,
                "ids": result.ids,
                "scope": ScopeRefSerializer(result.scope).data,
                "dry_run": result.dry_run,
            }
        )


class SessionEventSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=256)
    author = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    timestamp = serializers.FloatField(required=False, allow_null=True, help_text="Seconds since the epoch.")
    text = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)


class SessionIngestApi(ApiView):
    required_permission = "write"

    class SessionIngestInputSerializer(serializers.Serializer):
        app_name = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
        user_id = serializers.CharField(max_length=128, help_text=USER_ID_HELP)
        session_id = serializers.CharField(max_length=256)
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
            "Each event with text becomes an `event` memory at the user's own scope (the ADK author and timestamp "
            "in its metadata). Idempotent per event id: re-sending the session stores only new events. 201 when "
            "anything was created, else 200. All or nothing: a bad event fails the call with its index."
        ),
        request=SessionIngestInputSerializer,
        responses={
            201: SessionIngestOutputSerializer,
            200: SessionIngestOutputSerializer,
            **error_responses(400, 403, 404, 409, 413),
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
                        {"id": "e2", "author": "support-bot", "timestamp": 1746178201.5, "text": "Noted."},
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
            author=_agent(caller),
            app_name=data["app_name"],
            session_id=data["session_id"],
            events=data["events"],
        )
        body = {
            "session_id": data["session_id"],
            "created": result.created,
            "skipped": result.skipped,
            "memory_ids": result.memory_ids,
        }
        return Response(body, status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK)


class SessionDeleteApi(ApiView):
    required_permission = "delete"

    class SessionDeleteOutputSerializer(serializers.Serializer):
        session_id = serializers.CharField()
        deleted = serializers.IntegerField()

    @extend_schema(
        operation_id="session_delete",
        tags=["sessions"],
        summary="Forget what a user's session stored",
        description="Deletes the memories this user wrote in the session (their graph links go with them). "
        "0 for a session that stored nothing.",
        parameters=[USER_ID_PARAM],
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
        deleted = session_delete(tenant=self.tenant, member=caller.member, session_id=session_id)
        return Response({"session_id": session_id, "deleted": deleted})


class UserEraseApi(ApiView):
    required_permission = "admin"

    class UserErasureOutputSerializer(serializers.Serializer):
        user_id = serializers.CharField()
        memories = serializers.IntegerField(help_text="At their scope, plus everything they authored elsewhere.")
        links = serializers.IntegerField()
        entities = serializers.IntegerField(help_text="Entities no memory mentions any more, deleted.")
        scopes = serializers.IntegerField()
        api_keys = serializers.IntegerField(help_text="Keys restricted to their subtree, deleted.")
        policies = serializers.IntegerField()

    @extend_schema(
        operation_id="user_erase",
        tags=["users"],
        summary="Erase a user (GDPR)",
        description=(
            "Needs the `admin` permission. Deletes every memory at the user's scope, every memory they authored "
            "at any scope (with its history), the graph links those memories stated, entities nothing mentions "
            "any more, keys and policies bound to their node, the node and the member. Irreversible."
        ),
        responses={
            200: OpenApiResponse(
                UserErasureOutputSerializer,
                examples=[
                    OpenApiExample(
                        "erased",
                        value={
                            "user_id": "albert",
                            "memories": 12,
                            "links": 9,
                            "entities": 3,
                            "scopes": 1,
                            "api_keys": 0,
                            "policies": 0,
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def delete(self, request: Request, user_id: str) -> Response:
        self.caller(user_id)  # 404 unknown_user; a restricted key erases only inside its subtree
        return Response(user_erase(tenant=self.tenant, user_id=user_id).as_dict())
