"""MCP on its own (the official ``mcp`` client over streamable HTTP, as in ``test_mcp.py``): an agent that has
nothing but MCP remembers facts, finds an entity by name (``entities``), walks its neighbours by name and then by
the ids the answers gave, and reads the entity ids in search results; visibility is the caller's; every tool's
description says what each of its arguments is."""

from __future__ import annotations

import asyncio

import pytest
from mcp import ClientSession

from graph.models import Entity
from tests.conftest import remember
from tests.retrieval.test_mcp import data, error_text, key, mcp_url, no_access_tracking, over_http  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

FACTS = (
    "Bob Lee works at Quartz Systems.",
    "Ann Park founded Quartz Systems in 2019.",
    "Bob Lee advises Delta Labs.",
)


def edges(neighbourhood: dict) -> set[tuple[str, str, str]]:
    return {(e["subject"]["name"], e["relationship"], e["object"]["name"]) for e in neighbourhood["edges"]}


def test_an_agent_with_only_mcp_finds_an_entity_by_name_and_walks_its_neighbours(acme, mcp_url):  # noqa: F811
    plain = key(acme)

    async def calls(session: ClientSession):
        out = {}
        for fact in FACTS:
            written = await session.call_tool(
                "remember", {"user_id": "albert", "content": fact, "scope": "team:platform"}
            )
            assert data(written)["created"] is True
        out["found"] = await session.call_tool("entities", {"user_id": "albert", "name": "quartz"})
        quartz = data(out["found"])["entities"][0]
        out["by_name"] = await session.call_tool("neighbours", {"user_id": "albert", "entity": "Quartz Systems"})
        bob = next(e for e in data(out["by_name"])["entities"] if e["name"] == "Bob Lee")
        out["by_id"] = await session.call_tool("neighbours", {"user_id": "albert", "entity": quartz["id"]})
        out["walk"] = await session.call_tool("neighbours", {"user_id": "albert", "entity_id": bob["id"]})
        out["search"] = await session.call_tool("search", {"user_id": "bea", "query": "who founded Quartz Systems?"})
        return out

    out = asyncio.run(over_http(mcp_url, plain, calls))

    quartz = Entity.objects.get(tenant=acme, name="Quartz Systems")
    found = data(out["found"])
    assert found["entities"][0] == {"id": quartz.pk, "name": "Quartz Systems", "kind": quartz.kind, "mentions": 2}
    assert found["truncated"] is False
    assert edges(data(out["by_name"])) == {
        ("Bob Lee", "works_at", "Quartz Systems"),
        ("Ann Park", "founded", "Quartz Systems"),
    }
    assert data(out["by_id"]) == data(out["by_name"])
    walk = data(out["walk"])  # one step further, from the id the first answer gave
    assert walk["entity"]["name"] == "Bob Lee"
    assert edges(walk) == {("Bob Lee", "works_at", "Quartz Systems"), ("Bob Lee", "advises", "Delta Labs")}
    top = data(out["search"])["results"][0]
    assert top["content"] == "Ann Park founded Quartz Systems in 2019."
    assert {(e["id"], e["name"]) for e in top["entities"]} == {
        (Entity.objects.get(tenant=acme, name="Ann Park").pk, "Ann Park"),
        (quartz.pk, "Quartz Systems"),
    }


def test_entity_look_ups_see_only_what_the_caller_can_see(acme, globex, mcp_url):  # noqa: F811
    remember(acme, "Bob Lee works at Quartz Systems.", scope="team:platform")
    remember(globex, "Zed works at Quartz Systems.", scope="org:globex")
    plain = key(acme)

    async def calls(session: ClientSession):
        return {
            "albert": await session.call_tool("entities", {"user_id": "albert", "name": "Quartz"}),
            "carlos": await session.call_tool("entities", {"user_id": "carlos", "name": "Quartz"}),
            "carlos_walk": await session.call_tool("neighbours", {"user_id": "carlos", "entity": "Quartz Systems"}),
        }

    out = asyncio.run(over_http(mcp_url, plain, calls))

    quartz = Entity.objects.get(tenant=acme, name="Quartz Systems").pk
    assert [e["id"] for e in data(out["albert"])["entities"]] == [quartz]  # not globex's Quartz Systems
    assert data(out["carlos"]) == {"entities": [], "truncated": False}  # sales cannot see team:platform
    assert error_text(out["carlos_walk"]) == "entity_not_found: no entity named 'Quartz Systems' visible to carlos"


def test_a_name_that_several_entities_match_is_refused_with_the_candidates(acme, mcp_url):  # noqa: F811
    remember(acme, "Bob Lee works at Quartz Systems.", scope="org:acme")
    remember(acme, "Bea Stone works at Quartz Analytics.", scope="org:acme")
    plain = key(acme)

    async def calls(session: ClientSession):
        return {
            "ambiguous": await session.call_tool("neighbours", {"user_id": "albert", "entity": "Quartz"}),
            "both": await session.call_tool("neighbours", {"user_id": "albert", "entity": "Bob Lee", "entity_id": 1}),
            "neither": await session.call_tool("neighbours", {"user_id": "albert"}),
            "empty": await session.call_tool("entities", {"user_id": "albert", "name": "  "}),
            "limit": await session.call_tool("entities", {"user_id": "albert", "name": "Quartz", "limit": 0}),
        }

    out = asyncio.run(over_http(mcp_url, plain, calls))

    ambiguous = error_text(out["ambiguous"])
    assert ambiguous.startswith("ambiguous_entity: 2 entities visible to albert match 'Quartz': ")
    for name in ("Quartz Systems", "Quartz Analytics"):
        assert f"{name} (" in ambiguous and f"id {Entity.objects.get(tenant=acme, name=name).pk}" in ambiguous
    assert error_text(out["both"]) == (
        "validation_error: give entity (a name or an id) or entity_id, exactly one of them"
    )
    assert error_text(out["neither"]) == error_text(out["both"])
    assert error_text(out["empty"]) == "validation_error: name must be a non-empty string"
    assert error_text(out["limit"]) == "validation_error: limit must be an integer from 1 to 50"


def test_every_tool_description_says_what_each_argument_is(acme, mcp_url):  # noqa: F811
    plain = key(acme)

    async def calls(session: ClientSession):
        return (await session.list_tools()).tools

    tools = asyncio.run(over_http(mcp_url, plain, calls))

    assert {tool.name for tool in tools} == {"search", "remember", "recall", "forget", "entities", "neighbours"}
    for tool in tools:
        arguments = set(tool.input_schema["properties"])
        assert "user_id" in arguments
        _, _, said = tool.description.partition("Arguments: ")
        missing = {name for name in arguments if f"{name} - " not in said and f"{name} (" not in said}
        assert missing == set(), (tool.name, missing)
