"""MCP on its own (the official ``mcp`` client over streamable HTTP, as in ``test_mcp.py``): an agent that has
nothing but MCP remembers facts, finds an entity by name (``entities``), walks its neighbours by name and then by
the ids the answers gave, reads what holds of an entity now and before (``facts``), and reads the entity ids in
search results; visibility is the caller's; every tool's description says what each of its arguments is."""

from __future__ import annotations

import asyncio

import pytest
from mcp import ClientSession

from graph.models import Entity
from tests.conftest import remember, tomasz_statements
from tests.retrieval.test_mcp import (  # noqa: F401
    TOOLS,
    data,
    error_text,
    key,
    mcp_url,
    no_access_tracking,
    over_http,
)

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

    assert {tool.name for tool in tools} == TOOLS
    for tool in tools:
        arguments = set(tool.input_schema["properties"])
        assert "user_id" in arguments
        _, _, said = tool.description.partition("Arguments: ")
        missing = {name for name in arguments if f"{name} - " not in said and f"{name} (" not in said}
        assert missing == set(), (tool.name, missing)


# --- facts: what holds of an entity now, and what held before ----------------------------------------------------


def _tomasz(acme):
    """Tomasz Nowak worked at Initech and joined Globex (org-wide); albert alone heard he moved to Lisbon; albert's
    project alpha says he reports to Ines Duarte."""
    said = tomasz_statements(acme)
    return {name: memory.pk for name, memory in said.items()}


def values(body: dict, key: str = "results") -> list[tuple[str, str, bool]]:
    return [(fact["attribute"], fact["value"], fact["current"]) for fact in body[key]]


def test_facts_by_name_and_by_id_current_first_then_history(acme, mcp_url):  # noqa: F811
    said = _tomasz(acme)
    tomasz = Entity.objects.get(tenant=acme, norm="tomasz nowak").pk
    plain = key(acme)

    async def calls(session: ClientSession):
        return {
            "by_name": await session.call_tool("facts", {"user_id": "albert", "entity": "Tomasz Nowak"}),
            "by_id": await session.call_tool("facts", {"user_id": "albert", "entity_id": tomasz}),
            "works_at": await session.call_tool(
                "facts", {"user_id": "albert", "entity": "Tomasz Nowak", "attribute": "works_at"}
            ),
            "in_march": await session.call_tool(
                "facts", {"user_id": "albert", "entity": tomasz, "as_of": "2025-03-01"}
            ),
            "around": await session.call_tool("neighbours", {"user_id": "albert", "entity": "Tomasz Nowak"}),
        }

    out = asyncio.run(over_http(mcp_url, plain, calls))

    by_name = data(out["by_name"])
    assert by_name["entity"] == {"id": tomasz, "name": "Tomasz Nowak"}
    assert values(by_name) == [
        ("lives_in", "Lisbon", True),
        ("works_at", "Globex", True),
        ("works_at", "Initech", False),
    ]
    assert [fact["memory_id"] for fact in by_name["results"]] == [said["lisbon"], said["globex"], said["initech"]]
    initech = by_name["results"][2]
    assert (initech["valid_from"], initech["valid_until"], initech["closed_by"]) == (
        "2025-01-10",
        "2025-05-01",
        by_name["results"][1]["id"],
    )
    assert data(out["by_id"])["results"] == by_name["results"]
    assert values(data(out["works_at"])) == [("works_at", "Globex", True), ("works_at", "Initech", False)]
    in_march = data(out["in_march"])
    assert (in_march["as_of"][:10], values(in_march)) == ("2025-03-01", [("works_at", "Initech", True)])
    # the neighbourhood carries what holds now
    assert values(data(out["around"]), "facts") == [("lives_in", "Lisbon", True), ("works_at", "Globex", True)]


def test_facts_are_the_callers_view(acme, globex, mcp_url):  # noqa: F811
    """A member's private statement reaches no teammate; a project's is not on the entity; another tenant's key
    finds no such entity."""
    said = _tomasz(acme)
    remember(globex, "Tomasz Nowak works at Hooli.", scope="org:globex")
    acme_key, globex_key = key(acme), key(globex)
    acme_id = Entity.objects.get(tenant=acme, norm="tomasz nowak").pk

    async def acme_calls(session: ClientSession):
        return {
            who: await session.call_tool("facts", {"user_id": who, "entity": "Tomasz Nowak"})
            for who in ("albert", "bea", "carlos")
        }

    async def globex_calls(session: ClientSession):
        return {
            "acme_id": await session.call_tool("facts", {"user_id": "albert", "entity_id": acme_id}),
            "own": await session.call_tool("facts", {"user_id": "albert", "entity": "Tomasz Nowak"}),
        }

    seen = asyncio.run(over_http(mcp_url, acme_key, acme_calls))
    other = asyncio.run(over_http(mcp_url, globex_key, globex_calls))

    mine = data(seen["albert"])
    assert said["alpha"] not in {fact["memory_id"] for fact in mine["results"]}  # the project's, not the chain's
    assert said["lisbon"] in {fact["memory_id"] for fact in mine["results"]}
    for teammate in ("bea", "carlos"):
        assert values(data(seen[teammate])) == [("works_at", "Globex", True), ("works_at", "Initech", False)]
    assert error_text(other["acme_id"]) == f"entity_not_found: no entity {acme_id} visible to albert"
    assert values(data(other["own"])) == [("works_at", "Hooli", True)]


def test_bad_facts_calls_are_tool_errors(acme, mcp_url):  # noqa: F811
    _tomasz(acme)
    plain = key(acme)

    async def calls(session: ClientSession):
        return {
            "neither": await session.call_tool("facts", {"user_id": "albert"}),
            "attribute": await session.call_tool(
                "facts", {"user_id": "albert", "entity": "Tomasz Nowak", "attribute": "favourite_team"}
            ),
            "as_of": await session.call_tool(
                "facts", {"user_id": "albert", "entity": "Tomasz Nowak", "as_of": "last tuesday-ish"}
            ),
            "nobody": await session.call_tool("facts", {"user_id": "albert", "entity": "Nobody Known"}),
        }

    out = asyncio.run(over_http(mcp_url, plain, calls))

    assert error_text(out["neither"]) == (
        "validation_error: give entity (a name or an id) or entity_id, exactly one of them"
    )
    assert error_text(out["attribute"]).startswith("validation_error: ") and "favourite_team" in error_text(
        out["attribute"]
    )
    assert error_text(out["as_of"]).startswith("invalid")
    assert error_text(out["nobody"]) == "entity_not_found: no entity named 'Nobody Known' visible to albert"
