"""The memory endpoints: ``/memories`` (write one or a batch, list what a user can see),
``/memories/<id>`` (read, update, delete one) and ``/memories/delete-by-query``.
"""

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

from memories.api.base import ApiView, Caller
from memories.api.common import (
    PROJECT_PARAM,
    USER_ID_HELP,
    USER_ID_PARAM,
    _agent,
    key_is_curator,
    key_reads_tenant_wide,
    visible_project_nodes,
    visible_scope_ids,
)
from memories.api.serializers import (
    _MEMORY_EXAMPLE,
    _WRITE_EXAMPLE,
    _WRITE_RESPONSE,
    MemoryBatchInputSerializer,
    MemoryDeletedSerializer,
    MemoryInputSerializer,
    MemoryOutputSerializer,
    MemoryPageSerializer,
    MemoryWriteOutputSerializer,
    project_field,
)
from memories.models import Memory, MemoryKind
from memories.selectors import project_name_clean, scope_get_by_tag
from memories.selectors.memory import memories_visible, memory_get_in_tenant, memory_get_visible
from memories.services.deletion import memories_delete_by_query, memory_delete_by_member
from memories.services.memory import memory_create, memory_create_batch, memory_update
from memories.services.memory.time import TIME_FIELDS, parse_moment
from orgmemory.api.serializers import CursorPage, ScopeField, ScopeRefSerializer, error_responses
from orgmemory.db_routing import read_routed, records_writes
from orgmemory.errors import NotFound, ValidationFailed

USER_ID_WHY = (
    "the member the agent acts for: their scope chain decides which memories this key may read or change (a "
    "tenant-wide key with the admin permission may leave it out to read any memory of its tenant)"
)
AS_OF_HELP = (
    "ISO 8601 date or datetime (default now): the memories as they stood then — valid then, recorded by then, not "
    "yet superseded then (a superseded version is listed as of its time)."
)


@read_routed("get")
@records_writes("post")
class MemoryCollectionApi(ApiView):
    required_permission = {"GET": "read", "POST": "write"}

    @extend_schema(
        operation_id="memory_create",
        tags=["memories"],
        summary="Write a memory, or a batch of up to 100",
        description=(
            "Stores at the user's own scope unless `scope` names another node of their chain that policy lets "
            "agents write at; with `project`, in that project under the scope (a user or team node; created by "
            "its first write). An exact duplicate at the same scope, or a re-sent `session_id`+`event_id`, returns "
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
            **error_responses(400, 403, 404, 413),
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
            OpenApiExample(
                "batch created",
                response_only=True,
                status_codes=["201"],
                value={"created": 1, "deduplicated": 0, "memories": [_WRITE_EXAMPLE]},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.data, dict) and "memories" in request.data:
            return self._create_batch(request)
        data = self.validated(MemoryInputSerializer, request.data)
        if not data.get("user_id"):
            raise ValidationFailed("user_id: This field is required.", details={"user_id": ["This field is required."]})
        caller = self.caller(data.pop("user_id"), provision=True)
        result = memory_create(tenant=self.tenant, author=_agent(caller, self.api_key), **self._item_kwargs(data))
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
            if not item.get("project"):
                item["project"] = data.get("project")
            items.append(self._item_kwargs(item))
        results = memory_create_batch(tenant=self.tenant, author=_agent(caller, self.api_key), items=items)
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
            "project": data.get("project") or None,
            "metadata": data.get("metadata") or {},
            "source_app": data.get("app_name", ""),
            "source_session": data.get("session_id", ""),
            "source_event_id": data.get("event_id", ""),
            **{name: data.get(name) for name in TIME_FIELDS},
        }

    class ListFilterSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128)
        scope = ScopeField(required=False)
        project = project_field()
        kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False)
        q = serializers.CharField(max_length=2000, required=False)
        as_of = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(
        operation_id="memory_list",
        tags=["memories"],
        summary="List the memories a user can see",
        description=(
            "Live memories on the user's scope chain (their own scope and every ancestor: never a peer's user "
            "scope, never a sibling team), newest first, cursor-paginated (`next`). `scope` narrows to one node "
            "of the chain (400 `scope_not_on_chain` otherwise); `project` adds that project's memories under "
            "the (narrowed) chain; `q` is full text (web-search syntax) over title and content."
        ),
        parameters=[
            USER_ID_PARAM,
            OpenApiParameter("scope", str, description="A scope tag on the user's chain, e.g. `team:platform`."),
            PROJECT_PARAM,
            OpenApiParameter("kind", str, enum=MemoryKind.values),
            OpenApiParameter("q", str, description="Full-text filter, e.g. `deploy argo`."),
            OpenApiParameter("as_of", str, description=AS_OF_HELP),
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
        projects = visible_project_nodes(tenant=self.tenant, caller=caller, project=params.get("project"))
        if params.get("scope"):
            scope = scope_get_by_tag(tenant=self.tenant, tag=params["scope"])
            if scope.pk not in chain_ids:
                raise ValidationFailed(
                    f"scope {params['scope']!r} is not on the user's scope chain",
                    code="scope_not_on_chain",
                    details={"scope": [params["scope"]]},
                )
            chain_ids = [scope.pk]
            projects = [node for node in projects if node.parent_id == scope.pk]
        memories = memories_visible(
            tenant=self.tenant,
            chain_ids=[*chain_ids, *(node.pk for node in projects)],
            kind=params.get("kind"),
            q=params.get("q", ""),
            as_of=parse_moment(params.get("as_of"), field_name="as_of"),
        )
        paginator = CursorPage()
        page = paginator.paginate_queryset(memories, request, view=self)
        return paginator.get_paginated_response(MemoryOutputSerializer(page, many=True).data)


@read_routed("get")
@records_writes("patch", "delete")
class MemoryDetailApi(ApiView):
    required_permission = {"GET": "read", "PATCH": "write", "DELETE": "delete"}

    def _visible(self, request: Request, memory_id: int) -> tuple[Caller, Memory, str | None]:
        """The caller, the memory (404 unless visible to them — with ``project``, in it too) and the project."""
        caller = self.caller(self.user_id_from(request, why=USER_ID_WHY))
        project = request.query_params.get("project")
        if project is None and isinstance(request.data, dict):
            project = request.data.get("project")
        scope_ids = visible_scope_ids(tenant=self.tenant, caller=caller, project=project)
        memory = memory_get_visible(tenant=self.tenant, chain_ids=scope_ids, memory_id=memory_id)
        if memory is None:
            raise NotFound(f"no memory {memory_id} visible to {caller.member.user_id}", code="memory_not_found")
        return caller, memory, project or None

    @extend_schema(
        operation_id="memory_get",
        tags=["memories"],
        summary="Read one memory",
        description="404 `memory_not_found` for an id that does not exist, is another tenant's, or is not on the "
        "user's scope chain (never 403: the id's existence is not revealed). A project's memory needs its "
        "`project`. A tenant-wide key with the `admin` permission may leave out `user_id`: it then reads any "
        "memory of its tenant in force (projects included; with `project`, only that project's); any other key "
        "needs `user_id` (400), since what it may see is that member's scope chain.",
        parameters=[
            OpenApiParameter(
                "user_id",
                str,
                OpenApiParameter.QUERY,
                required=False,
                description=f"{USER_ID_HELP} Required unless the key is tenant-wide with the `admin` permission.",
            ),
            PROJECT_PARAM,
        ],
        responses={
            200: OpenApiResponse(MemoryOutputSerializer, examples=[OpenApiExample("a memory", value=_MEMORY_EXAMPLE)]),
            **error_responses(400, 403, 404),
        },
    )
    def get(self, request: Request, memory_id: int) -> Response:
        if "user_id" not in request.query_params and key_reads_tenant_wide(self.api_key):
            return Response(MemoryOutputSerializer(self._in_tenant(request, memory_id)).data)
        _, memory, _ = self._visible(request, memory_id)
        return Response(MemoryOutputSerializer(memory).data)

    def _in_tenant(self, request: Request, memory_id: int) -> Memory:
        """An admin key's read without a member: any memory of its tenant in force (404 for another tenant's id, a
        superseded or expired one); with ``project``, only if it belongs to that project."""
        project = project_name_clean(request.query_params.get("project"))
        memory = memory_get_in_tenant(tenant=self.tenant, memory_id=memory_id)
        if memory is None or (project is not None and memory.project != project):
            raise NotFound(f"no memory {memory_id} in this tenant", code="memory_not_found")
        return memory

    class MemoryPatchInputSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128, required=False, help_text=USER_ID_HELP)
        project = project_field()
        content = serializers.CharField(required=False)
        title = serializers.CharField(max_length=300, required=False, allow_blank=True)
        kind = serializers.ChoiceField(choices=MemoryKind.choices, required=False)
        metadata = serializers.DictField(child=serializers.JSONField(), required=False)

    @extend_schema(
        operation_id="memory_update",
        tags=["memories"],
        summary="Change a memory's content, title, kind or metadata",
        description="The memory must be visible to the user and at a level agents may write (policy); it is "
        "re-indexed (embedding and graph links) after the change. `user_id` in the body or the query string. "
        "An admin-curated `policy` memory needs a key with the `admin` permission (else 403 `policy_protected`); "
        "content identical to another live memory at its scope → 409 `duplicate_content`.",
        request=MemoryPatchInputSerializer,
        parameters=[
            OpenApiParameter("user_id", str, OpenApiParameter.QUERY, required=False, description="Or in the body."),
            PROJECT_PARAM,
        ],
        responses={
            200: OpenApiResponse(MemoryOutputSerializer, examples=[OpenApiExample("updated", value=_MEMORY_EXAMPLE)]),
            **error_responses(400, 403, 404, 409, 413),
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
        caller, memory, project = self._visible(request, memory_id)
        self.check_key_may_write(memory.scope)
        memory = memory_update(memory=memory, author=_agent(caller, self.api_key), project=project, **changes)
        return Response(MemoryOutputSerializer(memory).data)

    @extend_schema(
        operation_id="memory_delete",
        tags=["memories"],
        summary="Delete a memory (its graph links and superseded history go with it)",
        description="Needs the `delete` permission. The memory must be visible to the user (else 404) and at a "
        "level agents may write for them (else 403 `level_not_writable`): an agent deletes only what it could "
        "have written. The older versions it superseded are deleted with it (they never become live again); "
        "`deleted` counts them. An admin-curated `policy` memory needs a key with the `admin` permission (else "
        "403 `policy_protected`). A project's memory is deleted only by naming its `project`.",
        parameters=[USER_ID_PARAM, PROJECT_PARAM],
        responses={
            200: OpenApiResponse(
                MemoryDeletedSerializer,
                examples=[OpenApiExample("deleted", value={"deleted": 1, "ids": [412]})],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def delete(self, request: Request, memory_id: int) -> Response:
        caller, memory, project = self._visible(request, memory_id)
        self.check_key_may_write(memory.scope)
        deleted = memory_delete_by_member(
            tenant=self.tenant,
            member=caller.member,
            memory=memory,
            curator=key_is_curator(self.api_key),
            project=project,
        )
        return Response({"deleted": deleted, "ids": [memory_id]})


@records_writes("post")
class MemoryDeleteByQueryApi(ApiView):
    required_permission = "delete"

    class DeleteByQueryInputSerializer(serializers.Serializer):
        user_id = serializers.CharField(max_length=128, help_text=USER_ID_HELP)
        query = serializers.CharField(max_length=2000, help_text="Every word must occur (stemmed, ANDed).")
        scope = ScopeField(required=False, allow_null=True, help_text="Default: the user's own scope.")
        project = project_field()
        dry_run = serializers.BooleanField(default=False, help_text="Return the matching ids without deleting.")

    class DeleteByQueryOutputSerializer(serializers.Serializer):
        deleted = serializers.IntegerField()
        ids = serializers.ListField(child=serializers.IntegerField())
        scope = ScopeRefSerializer()
        project = serializers.CharField(allow_null=True)
        dry_run = serializers.BooleanField()

    @extend_schema(
        operation_id="memories_delete_by_query",
        tags=["memories"],
        summary="Delete the memories at one scope that match a query",
        description=(
            "Deletes the memories at exactly `scope` (default: the user's own; it must be on their chain and "
            "writable by agents) whose title + content contain **every** word of `query` (PostgreSQL "
            "`plainto_tsquery`: stemmed words ANDed, no operators, so nothing can widen the match). History "
            "versions at that scope that match are deleted too, and so are the older versions each match "
            "superseded. A query with no searchable word → 400 `empty_query`; over 1,000 matches → 400 "
            "`too_many_matches`; a match that is an admin-curated `policy` memory, unless the key has the `admin` "
            "permission → 403 `policy_protected` (nothing deleted). Use `dry_run` to preview. With `project`, "
            "only that project's memories under `scope` (404 `unknown_project`); without, never a project's."
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
                    "project": None,
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
            tenant=self.tenant,
            member=caller.member,
            query=data["query"],
            scope=scope,
            dry_run=data["dry_run"],
            curator=key_is_curator(self.api_key),
            project=data.get("project") or None,
        )
        return Response(
            {
                "deleted": result.deleted,
                "ids": result.ids,
                "scope": ScopeRefSerializer(result.scope.home).data,
                "project": result.scope.project_name,
                "dry_run": result.dry_run,
            }
        )
