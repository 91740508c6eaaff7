"""OrgMemory as a Model Context Protocol server (the official ``mcp`` package): tools ``search``, ``remember``,
``recall``, ``forget``, ``entities``, ``neighbours`` and ``facts`` over the same services, validation and rules as
the REST API.

Authentication is the API's: a tenant API key, re-checked on every call (a revoked key stops working at once). Over
stdio the key comes from ``ORGMEMORY_API_KEY`` (as the ADK adapter reads it); over streamable HTTP each request
carries ``Authorization: Bearer <key>`` (a request without a valid key is a 401 before MCP sees it). Each tool
takes the ``user_id`` it acts for, resolved by the API's own service (``memories.services.callers``: 404
``unknown_user``, 403 ``scope_restricted`` for a restricted key outside its subtree) and needs the permission the
matching endpoint needs (read; remember: write; forget: delete). A refusal is a tool error ``code: message``
(``is_error``). An HTTP session belongs to the key that opened it: another key presenting its id is answered as if
the session did not exist.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from rest_framework.exceptions import ValidationError as DrfValidationError

from graph.api import EntityFactsApi, EntityNeighboursApi, entity_facts_as_dict, neighbourhood_as_dict
from memories.api.auth import AUTH_SCHEME, MAX_KEY_CHARS
from memories.api.base import ApiView
from memories.api.serializers import MemoryInputSerializer, MemoryWriteOutputSerializer
from memories.api.throttling import bad_key_counter, client_address
from memories.models import ApiKey
from memories.selectors import project_name_clean
from memories.selectors.memory import memory_get_visible
from memories.services import api_key_authenticate
from memories.services.callers import (
    Caller,
    author_for,
    caller_resolve,
    caller_scope_ids,
    key_check_may_write,
    key_is_curator,
    key_writable_scope,
)
from memories.services.deletion import memory_delete_by_member
from memories.services.memory import memory_create
from memories.services.memory.time import parse_moment
from orgmemory.api.exceptions import error_body
from orgmemory.errors import DomainError, NotFound, PermissionDenied
from retrieval.api import RecallInputSerializer, SearchInputSerializer
from retrieval.mcp_entities import DEFAULT_LIMIT, entities_by_name, entity_id_for, results_with_entities
from retrieval.presenters import result_as_dict
from retrieval.recall import recall_block
from retrieval.services import SearchOptions, search_memories

API_KEY_ENV = "ORGMEMORY_API_KEY"
SERVER_NAME = "orgmemory"
INSTRUCTIONS = (
    "OrgMemory is an organisation's shared long-term memory (org › division › team › user). Every tool acts for "
    "one user_id and sees only that user's scope chain. Before a task, call `recall` for a short cited block "
    "(on-topic policies first); `search` for ranked memories; `remember` to store a fact, preference or policy "
    "(default: private to the user; `scope` such as team:platform to share); `forget` to delete one memory by "
    "id; `entities` to look an entity (person, team, company, system...) up by name and `neighbours` for its "
    "typed relationships (by name or id; search results list the entity ids each memory mentions); `facts` for "
    "what holds of an entity now (lives in, works at, reports to, owner, due date, ...) and what held before. "
    "Give `project` (e.g. alpha) to work inside one project: "
    "its memories are seen, written and forgotten only when it is named."
)


class KeyRefused(Exception):
    """No key, or one that is unknown or revoked."""


def bearer_key(headers: Mapping[str, str] | None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header (None when absent or malformed)."""
    if not headers:
        return None
    value = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
    scheme, _, credentials = value.partition(" ")
    credentials = credentials.strip()
    if scheme.lower() != AUTH_SCHEME.lower() or not credentials or " " in credentials:
        return None
    return credentials


def key_authenticate(plain: str | None) -> ApiKey:
    """The active key for ``plain``; KeyRefused otherwise (the API's check: prefix lookup, constant-time hash)."""
    key = api_key_authenticate(plain=plain) if plain and len(plain) <= MAX_KEY_CHARS else None
    if key is None:
        raise KeyRefused("unknown or revoked API key" if plain else "no API key")
    return key


def _call_sync(
    plain_key: str | None, permission: str, user_id: Any, work: Callable[..., Any], arguments: dict[str, Any]
) -> Any:
    close_old_connections()  # what Django does around each request: drop broken or expired connections
    try:
        key = key_authenticate(plain_key)
        if permission not in (key.permissions or []):
            raise PermissionDenied(f"This API key lacks the `{permission}` permission.", code="permission_missing")
        if not isinstance(user_id, str):
            raise ToolError("validation_error: user_id must be a string")
        caller = caller_resolve(tenant=key.tenant, api_key=key, user_id=user_id, provision=permission == "write")
        return work(key=key, caller=caller, **arguments)
    except KeyRefused as exc:
        raise ToolError(f"not_authenticated: {exc}") from None
    except DomainError as exc:
        raise ToolError(f"{exc.code}: {exc.message}") from None
    except DrfValidationError as exc:
        raise ToolError(f"validation_error: {json.dumps(exc.detail, default=str)[:1000]}") from None
    finally:
        close_old_connections()


def _validated(serializer: type, data: dict[str, Any]) -> dict[str, Any]:
    return ApiView.validated(serializer, {key: value for key, value in data.items() if value is not None})


# --- the tools' work (synchronous: the ORM) -------------------------------------------------------------------


def _search(*, key: ApiKey, caller: Caller, **arguments: Any) -> dict:
    data = _validated(SearchInputSerializer, {"user_id": caller.member.user_id, **arguments})
    options = SearchOptions(
        top_k=data["top_k"],
        kinds=tuple(data["kinds"]),
        scopes=tuple(data["scopes"]),
        project=data.get("project") or None,
        as_of=parse_moment(data.get("as_of"), field_name="as_of"),
    )
    result = search_memories(tenant=key.tenant, user_id=caller.member.user_id, query=data["query"], options=options)
    return results_with_entities(tenant=key.tenant, data=result_as_dict(result))


def _remember(*, key: ApiKey, caller: Caller, **arguments: Any) -> dict:
    data = _validated(MemoryInputSerializer, arguments)
    result = memory_create(
        tenant=key.tenant,
        author=author_for(caller=caller, api_key=key),
        content=data["content"],
        title=data.get("title", ""),
        kind=data["kind"],
        scope=key_writable_scope(tenant=key.tenant, api_key=key, tag=data.get("scope")),
        project=data.get("project") or None,
        metadata=data.get("metadata") or {},
        source_app=data.get("app_name", ""),
        valid_from=data.get("valid_from"),
        valid_until=data.get("valid_until"),
        reference_time=data.get("reference_time"),
    )
    return dict(MemoryWriteOutputSerializer(result).data)


def _recall(*, key: ApiKey, caller: Caller, **arguments: Any) -> dict:
    data = _validated(RecallInputSerializer, {"user_id": caller.member.user_id, **arguments})
    block = recall_block(
        tenant=key.tenant,
        user_id=caller.member.user_id,
        task=data["task"],
        budget_chars=data.get("budget_chars"),
        budget_tokens=data.get("budget_tokens"),
        kinds=tuple(data["kinds"]),
        project=data.get("project") or None,
        as_of=parse_moment(data.get("as_of"), field_name="as_of"),
    )
    return block.as_dict()


def _forget(*, key: ApiKey, caller: Caller, memory_id: Any, project: Any = None) -> dict:
    if isinstance(memory_id, bool) or not isinstance(memory_id, int) or memory_id < 1:
        raise ToolError("validation_error: memory_id must be a positive integer")
    caller = replace(caller, project=project_name_clean(project))
    scope_ids = caller_scope_ids(tenant=key.tenant, caller=caller)
    memory = memory_get_visible(tenant=key.tenant, chain_ids=scope_ids, memory_id=memory_id)
    if memory is None:
        raise NotFound(f"no memory {memory_id} visible to {caller.member.user_id}", code="memory_not_found")
    key_check_may_write(tenant=key.tenant, api_key=key, scope=memory.scope)
    deleted = memory_delete_by_member(
        tenant=key.tenant,
        member=caller.member,
        memory=memory,
        curator=key_is_curator(key),
        project=project or None,
    )
    return {"deleted": deleted, "ids": [memory_id]}


def _entities(*, key: ApiKey, caller: Caller, name: Any, limit: Any) -> dict:
    return entities_by_name(tenant=key.tenant, chain_ids=caller.chain_ids, name=name, limit=limit)


def _entity_named(*, key: ApiKey, caller: Caller, entity: Any, entity_id: Any) -> int:
    """The visible entity a tool names by ``entity`` (a name or an id) or ``entity_id``, exactly one of them."""
    if (entity is None) == (entity_id is None):
        raise ToolError("validation_error: give entity (a name or an id) or entity_id, exactly one of them")
    if entity_id is not None and (isinstance(entity_id, bool) or not isinstance(entity_id, int)):
        raise ToolError("validation_error: entity_id must be an integer")
    return entity_id_for(
        tenant=key.tenant,
        chain_ids=caller.chain_ids,
        user_id=caller.member.user_id,
        entity=entity if entity is not None else entity_id,
    )


def _neighbours(*, key: ApiKey, caller: Caller, entity: Any, entity_id: Any, depth: Any, relationships: Any) -> dict:
    entity_id = _entity_named(key=key, caller=caller, entity=entity, entity_id=entity_id)
    if isinstance(relationships, list):
        relationships = ",".join(str(name) for name in relationships)
    params = _validated(
        EntityNeighboursApi.NeighboursParamsSerializer,
        {"user_id": caller.member.user_id, "depth": depth, "relationships": relationships},
    )
    return neighbourhood_as_dict(
        tenant=key.tenant,
        chain_ids=caller.chain_ids,
        user_id=caller.member.user_id,
        entity_id=entity_id,
        depth=params["depth"],
        relationships=params.get("relationships") or (),
    )


def _facts(*, key: ApiKey, caller: Caller, entity: Any, entity_id: Any, attribute: Any, as_of: Any) -> dict:
    entity_id = _entity_named(key=key, caller=caller, entity=entity, entity_id=entity_id)
    params = _validated(
        EntityFactsApi.FactsParamsSerializer,
        {"user_id": caller.member.user_id, "attribute": attribute, "as_of": as_of},
    )
    return entity_facts_as_dict(
        tenant=key.tenant,
        chain_ids=caller.chain_ids,
        user_id=caller.member.user_id,
        entity_id=entity_id,
        as_of=parse_moment(params.get("as_of"), field_name="as_of"),
        attribute=params.get("attribute"),
    )


# --- the server ------------------------------------------------------------------------------------------------


def build_server(*, api_key: str | None = None) -> MCPServer:
    """The MCP server. ``api_key``: the plain key every call uses (stdio); None: each call must come over HTTP with
    ``Authorization: Bearer <key>``."""
    server = MCPServer(name=SERVER_NAME, instructions=INSTRUCTIONS)

    async def run(ctx: Context, permission: str, user_id: Any, work: Callable[..., Any], **arguments: Any) -> Any:
        plain = api_key if api_key is not None else bearer_key(ctx.headers)
        return await sync_to_async(_call_sync, thread_sensitive=True)(plain, permission, user_id, work, arguments)

    @server.tool(
        name="search",
        description="Ranked memories the user can see for a query (hybrid full text + vectors + knowledge graph). "
        "Returns results with id, content, kind, scope, score and entities (the {id, name, kind} each memory "
        "mentions: ids for `neighbours`), and no_relevant_memory when nothing is relevant. Arguments: user_id - "
        "the member the agent acts for (e.g. albert); query - the question in plain words; top_k - how many "
        "results, 1-50 (default 10); kinds - only these kinds (fact, preference, policy, event, note); project - "
        "also search this project's memories (e.g. alpha); as_of - an ISO 8601 date or datetime: search the "
        "memories as they stood then (default now).",
    )
    async def search(
        user_id: str,
        query: str,
        ctx: Context,
        top_k: int = 10,
        kinds: list[str] | None = None,
        project: str | None = None,
        as_of: str | None = None,
    ) -> dict[str, Any]:
        return await run(
            ctx, "read", user_id, _search, query=query, top_k=top_k, kinds=kinds, project=project, as_of=as_of
        )

    @server.tool(
        name="remember",
        description="Store a memory for the user. Exact duplicates are not stored twice. Arguments: user_id - "
        "the member the agent acts for; content - the text to remember; title - a short title (optional); kind - "
        "fact (default), preference, policy, event or note; scope - a tag such as team:platform to share it "
        "(default: private to the user); project - keep it inside one project under that scope (e.g. alpha); "
        "metadata - a JSON object stored with it; valid_from - the ISO 8601 date or datetime from which it is "
        "true (optional); valid_until - the ISO 8601 moment until which it is true (optional, after valid_from); "
        "reference_time - the ISO 8601 moment relative "
        'dates in the content ("yesterday") refer to (default: now).',
    )
    async def remember(
        user_id: str,
        content: str,
        ctx: Context,
        title: str = "",
        kind: str = "fact",
        scope: str | None = None,
        project: str | None = None,
        metadata: dict[str, Any] | None = None,
        valid_from: str | None = None,
        valid_until: str | None = None,
        reference_time: str | None = None,
    ) -> dict[str, Any]:
        return await run(
            ctx,
            "write",
            user_id,
            _remember,
            valid_from=valid_from,
            valid_until=valid_until,
            reference_time=reference_time,
            content=content,
            title=title,
            kind=kind,
            scope=scope,
            project=project,
            metadata=metadata,
            app_name="mcp",
        )

    @server.tool(
        name="recall",
        description="A prompt-ready block for a task: what holds now of the people and things the task names "
        "(`- Dmitri Volkov lives in Denver (since 1 August 2025) [#12]`), the on-topic policies, then relevant "
        "facts and preferences, one cited line each (`- [policy #123] ...`). Empty when nothing relevant is known. "
        "Arguments: user_id - the member the agent acts for; task - what the agent is about to do, in plain words; "
        "budget_chars (200-20000) or budget_tokens (50-5000) - the block's size, give exactly one; kinds - only "
        "these kinds; project - also recall this project's memories; as_of - ISO 8601: recall the memories as "
        "they stood then.",
    )
    async def recall(
        user_id: str,
        task: str,
        ctx: Context,
        budget_chars: int | None = None,
        budget_tokens: int | None = None,
        kinds: list[str] | None = None,
        project: str | None = None,
        as_of: str | None = None,
    ) -> dict[str, Any]:
        return await run(
            ctx,
            "read",
            user_id,
            _recall,
            as_of=as_of,
            task=task,
            budget_chars=budget_chars,
            budget_tokens=budget_tokens,
            kinds=kinds,
            project=project,
        )

    @server.tool(
        name="forget",
        description="Delete one memory for the user: it must be visible to them and at a level agents may "
        "write. Needs the key's delete permission. Arguments: user_id - the member the agent acts for; memory_id - "
        "the memory's id, as search or recall return it; project - the project the memory belongs to, if any.",
    )
    async def forget(user_id: str, memory_id: int, ctx: Context, project: str | None = None) -> dict[str, Any]:
        return await run(ctx, "delete", user_id, _forget, memory_id=memory_id, project=project)

    @server.tool(
        name="entities",
        description="Entities (people, teams, companies, systems, ...) the user can see whose name or alias "
        "matches, exact names first, then the most mentioned: [{id, name, kind, mentions}] and truncated. "
        "Arguments: user_id - the member the agent acts for; name - a name or part of one, typos tolerated "
        "(e.g. quartz); limit - how many, 1-50 (default 10).",
    )
    async def entities(user_id: str, name: str, ctx: Context, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
        return await run(ctx, "read", user_id, _entities, name=name, limit=limit)

    @server.tool(
        name="neighbours",
        description="The typed relationships (founded, invested_in, works_at, advises, owns, depends_on, ...) "
        "around an entity, as the user may see them, each edge with the memory ids that state it, and the "
        "entity's current facts (see `facts`). Arguments: "
        "user_id - the member the agent acts for; entity - the entity's name (as `entities` or search results "
        "give it; an ambiguous name is refused with the candidates) or its id; entity_id - its id (instead of "
        "entity); depth - 1 (direct) or 2 hops; relationships - only these relationship names.",
    )
    async def neighbours(
        user_id: str,
        ctx: Context,
        entity: str | int | None = None,
        entity_id: int | None = None,
        depth: int = 1,
        relationships: list[str] | None = None,
    ) -> dict[str, Any]:
        return await run(
            ctx,
            "read",
            user_id,
            _neighbours,
            entity=entity,
            entity_id=entity_id,
            depth=depth,
            relationships=relationships,
        )

    @server.tool(
        name="facts",
        description="What holds of an entity now and what held before, as the user may see it: current values "
        "first, then history, each {attribute, value, valid_from, valid_until, current, memory_id (the memory that "
        "states it), curated, closed_by, conflicts_with}. A later value of a one-at-a-time attribute (lives_in, "
        "works_at, job_title, reports_to, owned_by, due_date) closes the earlier one. Arguments: user_id - the "
        "member the agent acts for; entity - the entity's name (as `entities` or search results give it; an "
        "ambiguous name is refused with the candidates) or its id; entity_id - its id (instead of entity); "
        "attribute - only this attribute (e.g. lives_in); as_of - an ISO 8601 date or datetime: the facts as they "
        "stood then (default now).",
    )
    async def facts(
        user_id: str,
        ctx: Context,
        entity: str | int | None = None,
        entity_id: int | None = None,
        attribute: str | None = None,
        as_of: str | None = None,
    ) -> dict[str, Any]:
        return await run(
            ctx, "read", user_id, _facts, entity=entity, entity_id=entity_id, attribute=attribute, as_of=as_of
        )

    return server


class BearerKeyRequired:
    """ASGI middleware in front of the streamable HTTP app, as the API's authentication: a request without an
    active API key as ``Authorization: Bearer`` is answered 401 in the API's error shape before MCP reads it; bad
    keys are counted per client address (``ORGMEMORY_BAD_KEY_RATE``) and at the limit the address gets 429 before
    any key is looked at."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
        meta = {"REMOTE_ADDR": (scope.get("client") or ("", 0))[0]}
        if "x-forwarded-for" in headers:
            meta["HTTP_X_FORWARDED_FOR"] = headers["x-forwarded-for"]
        address = client_address(SimpleNamespace(META=meta))
        sent = "authorization" in headers
        try:
            wait, key_id = await sync_to_async(_check_key, thread_sensitive=True)(bearer_key(headers), address, sent)
        except KeyRefused as exc:
            message = f"Send a valid API key as `Authorization: Bearer <key>` ({exc})."
            await _error(
                send, 401, "not_authenticated", message, {}, [(b"www-authenticate", b'Bearer realm="orgmemory"')]
            )
            return
        if wait is not None:
            message = "Too many requests with a bad API key from this address."
            await _error(
                send, 429, "throttled", message, {"retry_after_seconds": wait}, [(b"retry-after", str(wait).encode())]
            )
            return
        # the SDK's session manager binds each session to the principal that opened it and answers any other
        # principal presenting the session's id as if it did not exist: the principal is the key
        principal = AccessToken(token="", client_id=f"orgmemory-api-key:{key_id}", scopes=[])
        await self.app({**scope, "user": AuthenticatedUser(principal)}, receive, send)


async def _error(send: Any, status: int, code: str, message: str, details: dict, extra: list) -> None:
    body = json.dumps(error_body(code, message, details)).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


def _check_key(plain: str | None, address: str, sent: bool) -> tuple[int | None, int | None]:
    """``(None, key id)`` when ``plain`` is an active key; ``(seconds to wait, None)`` when the address is at its
    bad-key limit; KeyRefused otherwise (a key that was sent and refused counts as a failure, as in the API)."""
    close_old_connections()
    try:
        failures = bad_key_counter()
        if sent:
            wait = failures.blocked(address)
            if wait is not None:
                return wait, None
        try:
            key = key_authenticate(plain)
        except KeyRefused:
            if sent:
                failures.fail(address)
            raise
        return None, key.pk
    finally:
        close_old_connections()


def http_app(*, host: str = "127.0.0.1", path: str = "/mcp") -> Any:
    """The streamable HTTP ASGI app (Starlette, with the SDK's session manager in its lifespan) behind
    ``BearerKeyRequired``."""
    server = build_server()
    return BearerKeyRequired(server.streamable_http_app(streamable_http_path=path, host=host))


def stdio_key_from_env() -> str:
    """The stdio transport's key: ``ORGMEMORY_API_KEY``, checked once at start-up (KeyRefused naming the
    variable)."""
    plain = os.environ.get(API_KEY_ENV, "").strip()
    if not plain:
        raise KeyRefused(f"set {API_KEY_ENV} to an OrgMemory API key")
    key_authenticate(plain)
    return plain
