"""Facts through the ADK adapter against the live test server: a member's sessions in March ("I live in Boston")
and September ("I moved to Denver last month"); a real ADK ``Runner`` whose ``before_model_callback`` puts
``OrgMemoryService.recall`` in the model's instructions gets what holds now of the person the task names, cited, and
never the closed value as current; ``OrgMemoryService.facts`` reads the timeline. A teammate, another tenant and a
service outside the project see none of the private or project facts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from google.adk.agents import LlmAgent
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.genai import types

from graph.models import Entity
from memories.models import Member
from retrieval.adk import OrgMemoryError, OrgMemoryFact, OrgMemoryService
from tests.conftest import GLOBEX_CHART, onboard
from tests.e2e.test_adk import FAKE_MODEL, ScriptedLlm, run_turn

pytestmark = pytest.mark.adk

MARCH = datetime(2025, 3, 10, 9, 0, tzinfo=UTC).timestamp()
SEPTEMBER = datetime(2025, 9, 12, 9, 0, tzinfo=UTC).timestamp()
TASK = "Book a table for Albert Ortiz near home."


def said(event_id: str, author: str, text: str, timestamp: float) -> Event:
    role = "user" if author == "user" else "model"
    content = types.Content(role=role, parts=[types.Part(text=text)])
    return Event(id=event_id, author=author, content=content, timestamp=timestamp)


def sessions_of_albert() -> list[Session]:
    """March: albert lives in Boston (and the companion's echo); September: albert moved to Denver last month."""
    march = [
        said("m1", "user", "I live in Boston, near the harbour.", MARCH),
        said("m2", "companion", "Noted that you live in Boston.", MARCH + 5),
    ]
    september = [said("s1", "user", "I moved to Denver last month.", SEPTEMBER)]
    return [
        Session(id=session_id, app_name="companion", user_id="albert", events=events)
        for session_id, events in (("march", march), ("september", september))
    ]


def recalling_agent(memory: OrgMemoryService) -> LlmAgent:
    """An agent whose every model call starts with the recall block for the user's message (the pattern of
    ``OrgMemoryService.recall``'s docstring)."""

    async def preload(callback_context, llm_request):
        task = callback_context.user_content.parts[0].text
        recall = await memory.recall(user_id=callback_context.user_id, task=task, budget_tokens=500)
        if recall.block:
            llm_request.append_instructions(["What the organisation knows (cite #ids):\n" + recall.block])

    return LlmAgent(name="concierge", model=FAKE_MODEL, instruction="Help.", before_model_callback=preload)


def instructions_seen() -> str:
    config = ScriptedLlm.requests[-1].config
    return str(config.system_instruction or "")


@pytest.fixture
def albert_moved(orgmemory_env, e2e_tenant):
    Member.objects.filter(tenant=e2e_tenant, user_id="albert").update(display_name="Albert Ortiz")

    async def store():
        memory = OrgMemoryService()
        for session in sessions_of_albert():
            await memory.add_session_to_memory(session)
        await memory.aclose()

    asyncio.run(store())
    return Entity.objects.get(tenant=e2e_tenant, norm="albert ortiz").pk


def test_a_runner_preloading_recall_sees_where_the_member_lives_now(albert_moved):
    ScriptedLlm.requests.clear()

    async def scenario():
        memory = OrgMemoryService()
        sessions = InMemorySessionService()
        runner = Runner(app_name="companion", agent=recalling_agent(memory), session_service=sessions)
        await sessions.create_session(app_name="companion", user_id="albert", session_id="today")
        await run_turn(runner, user_id="albert", session_id="today", text=TASK)
        recall = await memory.recall(user_id="albert", task=TASK, budget_tokens=500)
        facts = await memory.facts(user_id="albert", entity="Albert Ortiz")
        by_id = await memory.facts(user_id="albert", entity=albert_moved, as_of="2025-06-01")
        await memory.aclose()
        return recall, facts, by_id

    recall, facts, in_june = asyncio.run(scenario())

    (denver,) = recall.facts
    line = f"- Albert Ortiz lives in Denver (since 1 August 2025) [#{denver.memory_id}]"
    assert recall.items[0].line == line
    assert recall.items[0].fact == denver
    assert line in instructions_seen()  # what the model was given
    assert "lives in Boston" not in instructions_seen()  # the closed value never as current
    assert [(f.value, f.valid_from, f.valid_until, f.current) for f in facts] == [
        ("Denver", "2025-08-01", None, True),
        ("Boston", "2025-03-10", "2025-08-01", False),
    ]
    assert facts[0] == denver
    assert facts[0].subject == "Albert Ortiz" and isinstance(facts[0], OrgMemoryFact)
    assert [(f.value, f.current) for f in in_june] == [("Boston", True)]


def test_a_private_fact_reaches_no_teammate_and_no_other_tenant(albert_moved, live_server):
    from memories.services import api_key_create

    globex = onboard(GLOBEX_CHART)
    _, globex_key = api_key_create(tenant=globex, name="adk-globex", permissions=["read"])

    async def scenario():
        memory, other_tenant = OrgMemoryService(), OrgMemoryService(api_key=globex_key)
        teammate = await memory.recall(user_id="bea", task=TASK, budget_tokens=500)
        errors = []
        for service, user_id in ((memory, "bea"), (other_tenant, "albert")):
            try:
                await service.facts(user_id=user_id, entity=albert_moved)
            except OrgMemoryError as exc:
                errors.append((exc.status, exc.code))
        try:
            await memory.facts(user_id="bea", entity="Albert Ortiz")
        except OrgMemoryError as exc:
            errors.append((exc.status, exc.code))
        stranger = await other_tenant.recall(user_id="albert", task=TASK, budget_tokens=500)
        await memory.aclose()
        await other_tenant.aclose()
        return teammate, errors, stranger

    teammate, errors, stranger = asyncio.run(scenario())

    assert teammate.facts == () and "Denver" not in teammate.block
    assert errors == [(404, "entity_not_found")] * 3
    assert stranger.facts == () and "Denver" not in stranger.block


def test_a_project_fact_is_recalled_only_inside_the_project(albert_moved):
    async def scenario():
        alpha, plain = OrgMemoryService(project="alpha"), OrgMemoryService()
        statement = MemoryEntry(
            id="alpha-1",
            content=types.Content(parts=[types.Part(text="Albert Ortiz now reports to Ines Duarte.")]),
            custom_metadata={"reference_time": "2025-09-15T09:00:00+00:00"},
        )
        await alpha.add_memory(app_name="companion", user_id="albert", memories=[statement])
        inside = await alpha.recall(user_id="albert", task=TASK, budget_tokens=500)
        outside = await plain.recall(user_id="albert", task=TASK, budget_tokens=500)
        on_the_entity = await plain.facts(user_id="albert", entity="Albert Ortiz")
        await alpha.aclose()
        await plain.aclose()
        return inside, outside, on_the_entity

    inside, outside, on_the_entity = asyncio.run(scenario())

    assert [(f.attribute, f.value) for f in inside.facts] == [("reports_to", "Ines Duarte"), ("lives_in", "Denver")]
    assert [(f.attribute, f.value) for f in outside.facts] == [("lives_in", "Denver")]
    assert "reports_to" not in {f.attribute for f in on_the_entity}
