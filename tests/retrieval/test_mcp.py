"""The MCP server end to end with the official ``mcp`` client: the streamable HTTP app served by uvicorn in a thread
of the test process (against the test database, so the data is committed: ``transaction=True``), driven by a real
``ClientSession``; and the stdio mode's server (the key fixed at start-up) through the SDK's in-process client."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import httpx2
import pytest
import uvicorn
from django.core.cache import cache
from django.core.management import CommandError, call_command
from mcp import ClientSession
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from graph.models import Entity
from memories.models import Memory, Scope
from memories.services import api_key_create
from retrieval.mcp_server import build_server, http_app
from tests.conftest import remember

pytestmark = pytest.mark.django_db(transaction=True)

TOOLS = {"search", "remember", "recall", "forget", "entities", "neighbours", "facts"}


@pytest.fixture
def no_access_tracking(monkeypatch):
    # the background recorder would write from its own thread while the test database is flushed
    monkeypatch.setattr("retrieval.services.access_schedule", lambda *, memory_ids: None)


@pytest.fixture
def mcp_url(no_access_tracking):
    """The streamable HTTP app on a free port of 127.0.0.1 (uvicorn in a thread), stopped after the test."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(http_app(), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:  # readiness, not a timing assertion
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the MCP server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(timeout=30)
    sock.close()


def key(tenant, permissions=("read", "write", "delete"), scope=None) -> str:
    _, plain = api_key_create(
        tenant=tenant, name=f"mcp-{permissions}-{scope}", permissions=list(permissions), scope=scope
    )
    return plain


def data(result) -> dict:
    """A tool result's JSON (its structured content, else its text)."""
    assert not result.is_error, result.content
    if isinstance(result.structured_content, dict):
        content = result.structured_content
        return content["result"] if set(content) == {"result"} else content
    return json.loads(result.content[0].text)


def error_text(result) -> str:
    """A tool error's message without the SDK's "Error executing tool <name>: " prefix."""
    assert result.is_error
    text = " ".join(getattr(block, "text", "") for block in result.content)
    prefix, _, message = text.partition(": ")
    assert prefix.startswith("Error executing tool ")
    return message


async def over_http(url: str, plain: str, calls):
    """Open a real ClientSession over streamable HTTP with ``plain`` as the bearer key and run ``calls(session)``."""
    timeout = httpx2.Timeout(60.0, read=300.0)
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {plain}"}, timeout=timeout) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await calls(session)


def test_the_tools_end_to_end_over_http(acme, globex, mcp_url):
    plain = key(acme)
    bob = remember(acme, "Bob Lee works at Quartz Systems.", scope="org:acme")
    remember(globex, "Globex deploys on Fridays at noon.", scope="team:platform", kind="policy")
    quartz = Entity.objects.get(tenant=acme, name="Quartz Systems").pk

    async def calls(session: ClientSession):
        tools = await session.list_tools()
        out = {"tools": {tool.name for tool in tools.tools}}
        out["remember"] = await session.call_tool(
            "remember",
            {
                "user_id": "albert",
                "content": "The platform team deploys on Tuesdays and Thursdays after 10:00.",
                "title": "Deploy days",
                "kind": "policy",
                "scope": "team:platform",
            },
        )
        out["search"] = await session.call_tool("search", {"user_id": "bea", "query": "when does platform deploy?"})
        out["carlos"] = await session.call_tool("search", {"user_id": "carlos", "query": "when does platform deploy?"})
        out["recall"] = await session.call_tool(
            "recall", {"user_id": "albert", "task": "prepare the Thursday deploy", "budget_chars": 500}
        )
        out["neighbours"] = await session.call_tool("neighbours", {"user_id": "albert", "entity_id": quartz})
        memory_id = data(out["remember"])["id"]
        out["forget"] = await session.call_tool("forget", {"user_id": "albert", "memory_id": memory_id})
        out["after"] = await session.call_tool("search", {"user_id": "bea", "query": "when does platform deploy?"})
        return out

    out = asyncio.run(over_http(mcp_url, plain, calls))

    assert out["tools"] == TOOLS
    written = data(out["remember"])
    assert (written["kind"], written["scope"]["tag"], written["created"]) == ("policy", "team:platform", True)
    assert not Memory.objects.filter(pk=written["id"]).exists()  # forgotten at the end
    found = data(out["search"])
    assert found["results"][0]["id"] == written["id"]  # bea, albert's teammate, finds it
    assert written["id"] not in {hit["id"] for hit in data(out["carlos"])["results"]}  # sales does not
    block = data(out["recall"])
    # a policy from a key without the admin permission is a proposal: recalled, marked, never pinned
    item = block["items"][0]
    assert {key: item[key] for key in ("id", "kind", "scope", "project", "line", "pinned", "status")} == {
        "id": written["id"],
        "kind": "policy",
        "scope": "team:platform",
        "project": None,
        "line": f"- [policy #{written['id']}] Deploy days: The platform team deploys on Tuesdays and Thursdays "
        "after 10:00. (a proposed policy, not yet approved by an admin)",
        "pinned": False,
        "status": "proposed",
    }
    assert item["provenance"]["author_type"] == "api_key"
    assert len(block["block"]) <= 500
    around = data(out["neighbours"])
    assert [(e["subject"]["name"], e["relationship"], e["memory_ids"]) for e in around["edges"]] == [
        ("Bob Lee", "works_at", [bob.pk])
    ]
    assert data(out["forget"]) == {"deleted": 1, "ids": [written["id"]]}
    assert written["id"] not in {hit["id"] for hit in data(out["after"])["results"]}
    assert not Memory.objects.filter(tenant=globex, content__contains="Tuesdays").exists()


def test_project_memories_over_mcp_are_seen_and_forgotten_only_by_naming_the_project(acme, mcp_url):
    plain = key(acme)
    question = {"user_id": "albert", "query": "when is the alpha launch?"}

    async def calls(session: ClientSession):
        out = {}
        out["remember"] = await session.call_tool(
            "remember", {"user_id": "albert", "content": "The alpha launch is on 3 June.", "project": "alpha"}
        )
        memory_id = data(out["remember"])["id"]
        out["plain"] = await session.call_tool("search", question)
        out["alpha"] = await session.call_tool("search", {**question, "project": "alpha"})
        out["unknown"] = await session.call_tool("search", {**question, "project": "gamma"})
        out["forget plain"] = await session.call_tool("forget", {"user_id": "albert", "memory_id": memory_id})
        out["forget"] = await session.call_tool(
            "forget", {"user_id": "albert", "memory_id": memory_id, "project": "alpha"}
        )
        return out

    out = asyncio.run(over_http(mcp_url, plain, calls))

    written = data(out["remember"])
    assert (written["scope"]["tag"], written["project"]) == ("user:albert", "alpha")
    assert written["id"] not in {hit["id"] for hit in data(out["plain"])["results"]}
    assert data(out["alpha"])["results"][0]["id"] == written["id"]
    assert error_text(out["unknown"]).startswith("unknown_project")
    assert error_text(out["forget plain"]).startswith("memory_not_found")
    assert data(out["forget"]) == {"deleted": 1, "ids": [written["id"]]}


def test_refusals_are_tool_errors_with_the_apis_codes(acme, globex, mcp_url):
    platform = Scope.objects.get(tenant=acme, level="team", key="platform")
    reader, restricted = key(acme, ("read",)), key(acme, ("read", "write", "delete"), scope=platform)
    remember(acme, "Dora keeps the data team's runbooks in Notion.", scope="team:data")

    async def as_reader(session: ClientSession):
        return {
            "write": await session.call_tool("remember", {"user_id": "albert", "content": "x"}),
            "forget": await session.call_tool("forget", {"user_id": "albert", "memory_id": 1}),
            "unknown": await session.call_tool("search", {"user_id": "nobody", "query": "runbooks"}),
            "globex": await session.call_tool("search", {"user_id": "zed", "query": "runbooks"}),
            "bad_user": await session.call_tool("search", {"user_id": "al bert", "query": "runbooks"}),
            "budget": await session.call_tool("recall", {"user_id": "albert", "task": "deploy", "budget_chars": 0}),
            "both": await session.call_tool(
                "recall", {"user_id": "albert", "task": "deploy", "budget_chars": 500, "budget_tokens": 100}
            ),
            "depth": await session.call_tool("neighbours", {"user_id": "albert", "entity_id": 1, "depth": 3}),
            "entity": await session.call_tool("neighbours", {"user_id": "albert", "entity_id": 987654}),
        }

    async def as_restricted(session: ClientSession):
        return {
            "outside": await session.call_tool("search", {"user_id": "dora", "query": "runbooks"}),
            "inside": await session.call_tool("search", {"user_id": "albert", "query": "runbooks"}),
            "write_outside": await session.call_tool(
                "remember", {"user_id": "albert", "content": "Org-wide note.", "scope": "org:acme"}
            ),
        }

    refused = asyncio.run(over_http(mcp_url, reader, as_reader))
    scoped = asyncio.run(over_http(mcp_url, restricted, as_restricted))

    assert error_text(refused["write"]).startswith("permission_missing:")
    assert error_text(refused["forget"]).startswith("permission_missing:")
    assert error_text(refused["unknown"]).startswith("unknown_user:")
    assert error_text(refused["globex"]).startswith("unknown_user:")  # globex's zed is not acme's
    assert error_text(refused["bad_user"]).startswith("validation_error:")
    assert error_text(refused["budget"]).startswith("validation_error:")
    assert error_text(refused["both"]).startswith("invalid_budget:")
    assert error_text(refused["depth"]).startswith("validation_error:")
    assert error_text(refused["entity"]).startswith("entity_not_found:")
    assert error_text(scoped["outside"]).startswith("scope_restricted:")
    assert "team:data" not in {hit["scope"]["tag"] for hit in data(scoped["inside"])["results"]}
    assert error_text(scoped["write_outside"]).startswith("scope_restricted:")
    assert not Memory.objects.filter(content__in=["x", "Org-wide note."]).exists()  # nothing written


def test_http_without_a_valid_key_is_a_401(acme, mcp_url):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}
    for extra in ({}, {"Authorization": "Bearer om_nope_nope"}, {"Authorization": "Basic abc"}):
        response = httpx2.post(mcp_url, json=init, headers={**headers, **extra}, timeout=30)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"
        assert response.headers["www-authenticate"].startswith("Bearer")


def test_bad_keys_are_counted_per_address_as_in_the_api(acme, mcp_url, settings):
    settings.ORGMEMORY_BAD_KEY_RATE = "3/minute"
    cache.clear()
    good = key(acme)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}

    def post(plain: str | None) -> httpx2.Response:
        auth = {"Authorization": f"Bearer {plain}"} if plain else {}
        return httpx2.post(mcp_url, json=init, headers={**headers, **auth}, timeout=30)

    try:
        assert [post(None).status_code for _ in range(4)] == [401] * 4  # no key sent: nothing counted
        assert [post("om_bad_guess").status_code for _ in range(3)] == [401] * 3
        blocked = post(good)  # even a good key: the address is at its limit
        assert blocked.status_code == 429
        assert blocked.json()["error"]["code"] == "throttled"
        assert int(blocked.headers["retry-after"]) >= 1
    finally:
        cache.clear()


def test_a_revoked_key_stops_working_within_an_open_session(acme, mcp_url):
    plain = key(acme)

    async def calls(session: ClientSession):
        first = await session.call_tool("search", {"user_id": "albert", "query": "anything"})
        await asyncio.to_thread(revoke_all, acme)
        with pytest.raises(MCPError):  # the next request is a 401: the client reports an error response
            await session.call_tool("search", {"user_id": "albert", "query": "anything"})
        return first

    first = asyncio.run(over_http(mcp_url, plain, calls))

    assert not first.is_error


def revoke_all(tenant) -> None:
    from django.db import connection
    from django.utils import timezone

    from memories.models import ApiKey

    ApiKey.objects.filter(tenant=tenant).update(revoked_at=timezone.now())
    connection.close()


def test_stdio_mode_uses_the_key_it_started_with(acme, no_access_tracking):
    plain = key(acme, ("read", "write"))
    server = build_server(api_key=plain)

    async def calls():
        async with Client(server) as client:
            written = await client.call_tool(
                "remember", {"user_id": "albert", "content": "Albert prefers Python examples.", "kind": "preference"}
            )
            found = await client.call_tool("search", {"user_id": "albert", "query": "python examples"})
            forget = await client.call_tool("forget", {"user_id": "albert", "memory_id": data(written)["id"]})
            return written, found, forget

    written, found, forget = asyncio.run(calls())

    assert data(written)["scope"]["tag"] == "user:albert"
    assert data(found)["results"][0]["id"] == data(written)["id"]
    assert error_text(forget).startswith("permission_missing:")  # the key has no delete


def test_the_command_needs_a_key_for_stdio(monkeypatch, acme):
    monkeypatch.delenv("ORGMEMORY_API_KEY", raising=False)
    with pytest.raises(CommandError, match="ORGMEMORY_API_KEY"):
        call_command("mcp")
    monkeypatch.setenv("ORGMEMORY_API_KEY", "om_bad_key")
    with pytest.raises(CommandError, match="unknown or revoked"):
        call_command("mcp")


# --- issue 24: sessions bound to their key, one JSON depth limit, refused writes provision nobody ---------------


def _initialize(url: str, plain: str) -> str:
    """Open a session over raw HTTP with ``plain``; its ``mcp-session-id``."""
    from mcp.types import LATEST_PROTOCOL_VERSION

    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {plain}"}
    response = httpx2.post(url, json=init, headers=headers, timeout=30)
    assert response.status_code == 200, response.text
    return response.headers["mcp-session-id"]


def _list_tools(url: str, plain: str, session_id: str) -> httpx2.Response:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {plain}",
        "mcp-session-id": session_id,
    }
    return httpx2.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers, timeout=30)


def test_an_http_session_is_bound_to_the_key_that_opened_it(acme, globex, mcp_url):
    opener, other, foreign = key(acme), key(acme, ("read",)), key(globex)
    session_id = _initialize(mcp_url, opener)

    by_other = _list_tools(mcp_url, other, session_id)
    by_foreign = _list_tools(mcp_url, foreign, session_id)
    by_opener = _list_tools(mcp_url, opener, session_id)

    assert by_other.status_code == by_foreign.status_code == 404  # as if the session did not exist
    assert by_opener.status_code == 200
    assert "remember" in by_opener.text


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"k": value}
    return value


def test_remember_applies_the_apis_metadata_depth_limit(acme, no_access_tracking):
    from memories.services.memory import METADATA_MAX_DEPTH

    server = build_server(api_key=key(acme, ("read", "write")))

    async def calls():
        async with Client(server) as client:
            deep = await client.call_tool(
                "remember", {"user_id": "albert", "content": "Deep.", "metadata": nested(METADATA_MAX_DEPTH)}
            )
            too_deep = await client.call_tool(
                "remember", {"user_id": "albert", "content": "Too deep.", "metadata": nested(40)}
            )
            return deep, too_deep

    deep, too_deep = asyncio.run(calls())

    assert Memory.objects.get(pk=data(deep)["id"]).metadata == nested(METADATA_MAX_DEPTH)
    assert error_text(too_deep).startswith("too_deep:")
    assert not Memory.objects.filter(content="Too deep.").exists()


def test_a_refused_remember_provisions_no_member(acme, no_access_tracking):
    from memories.models import Member, Policy

    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True, max_content_bytes=100)
    server = build_server(api_key=key(acme, ("read", "write")))

    async def calls():
        async with Client(server) as client:
            refused = await client.call_tool("remember", {"user_id": "newbie", "content": "x" * 500})
            left = await asyncio.to_thread(lambda: Member.objects.filter(user_id="newbie").exists())
            accepted = await client.call_tool("remember", {"user_id": "newbie", "content": "Hello."})
            return refused, left, accepted

    refused, left, accepted = asyncio.run(calls())

    assert error_text(refused).startswith("content_too_large:")
    assert left is False
    assert data(accepted)["scope"]["tag"] == "user:newbie"
