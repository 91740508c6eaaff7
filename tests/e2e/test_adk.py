"""The ADK adapter end to end: a real ADK ``Runner`` (with a scripted model, no network) whose memory service is
``OrgMemoryService`` talking to the live test server; and ``orgmemory://`` resolved by ADK's service registry and
by ``get_fast_api_app``."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from fastapi.testclient import TestClient
from google.adk.agents import LlmAgent
from google.adk.cli import fast_api, service_registry
from google.adk.cli.fast_api import get_fast_api_app
from google.adk.cli.utils.agent_loader import AgentLoader
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools import load_memory, preload_memory
from google.genai import types

from retrieval.adk import OrgMemoryError, OrgMemoryService, register_org_memory_scheme

pytestmark = pytest.mark.adk

EXAMPLE_AGENT = Path(__file__).resolve().parents[2] / "examples" / "adk_agent"
FAKE_MODEL = "orgmemory-fake-llm"
FACT = "Remember this: our staging database runs on pg-stg-2."
QUESTION = "Which host runs our staging database?"
PRELOAD_MARKER = "<PAST_CONVERSATIONS>"


class ScriptedLlm(BaseLlm):
    """A model that needs no network: after a ``load_memory`` response it answers with the recalled texts; to a
    question it calls ``load_memory`` with the question; to anything else it says "Noted." Every request is
    kept in ``requests`` (cleared per test)."""

    requests: ClassVar[list[LlmRequest]] = []

    @classmethod
    def supported_models(cls) -> list[str]:
        return [FAKE_MODEL]

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False):
        ScriptedLlm.requests.append(llm_request)
        recalled = _load_memory_responses(llm_request)
        if recalled is not None:
            yield _model_text("From memory: " + " | ".join(recalled) if recalled else "I found nothing.")
            return
        question = _latest_user_text(llm_request)
        if question.endswith("?"):
            call = types.FunctionCall(name="load_memory", args={"query": question.rstrip("?")})
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))
            return
        yield _model_text("Noted.")


LLMRegistry.register(ScriptedLlm)


def _model_text(text: str) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


def tool_payload(response: dict[str, Any]) -> dict[str, Any]:
    """A function response as JSON data: ADK wraps a tool's non-dict result (load_memory's pydantic
    ``LoadMemoryResponse``) as ``{"result": ...}``, and a real model client serializes it; so does this."""
    result = response.get("result", response)
    return result.model_dump(mode="json") if hasattr(result, "model_dump") else result


def _load_memory_responses(llm_request: LlmRequest) -> list[str] | None:
    """The memory texts of the request's load_memory response, or None if there is none."""
    for content in llm_request.contents:
        for part in content.parts or []:
            if part.function_response is not None and part.function_response.name == "load_memory":
                memories = tool_payload(part.function_response.response or {}).get("memories", [])
                return [p["text"] for memory in memories for p in memory["content"]["parts"] if p.get("text")]
    return None


def _latest_user_text(llm_request: LlmRequest) -> str:
    for content in reversed(llm_request.contents):
        if content.role != "user":
            continue
        texts = [part.text for part in content.parts or [] if part.text and PRELOAD_MARKER not in part.text]
        if texts:
            return " ".join(texts).strip()
    return ""


def _request_text(llm_request: LlmRequest) -> str:
    return "\n".join(part.text for content in llm_request.contents for part in content.parts or [] if part.text)


@pytest.fixture(autouse=True)
def _fresh_model_log():
    ScriptedLlm.requests.clear()
    yield
    ScriptedLlm.requests.clear()


def user_message(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def run_turn(runner: Runner, *, user_id: str, session_id: str, text: str) -> list:
    return [
        event
        async for event in runner.run_async(user_id=user_id, session_id=session_id, new_message=user_message(text))
    ]


def memory_agent() -> LlmAgent:
    return LlmAgent(
        name="helper",
        model=FAKE_MODEL,
        instruction="Answer from memory.",
        tools=[preload_memory, load_memory],
    )


def visible_memories(base_url: str, api_key: str, user_id: str) -> list[dict[str, Any]]:
    """What ``GET /api/v1/memories`` lists for the user (one page of up to 100)."""
    response = httpx.get(
        f"{base_url}/api/v1/memories",
        params={"user_id": user_id, "page_size": 100},
        headers={"Authorization": f"Bearer {api_key}"},
        timeout=30,
    )
    response.raise_for_status()
    return response.json()["results"]


async def remember_fact_in_a_session(memory: OrgMemoryService) -> tuple[Runner, InMemorySessionService, Any]:
    """Session 1: albert states the fact and the agent acknowledges it; returns the finished session."""
    sessions = InMemorySessionService()
    runner = Runner(app_name="support", agent=memory_agent(), session_service=sessions, memory_service=memory)
    session = await sessions.create_session(app_name="support", user_id="albert", session_id="session-1")
    await run_turn(runner, user_id="albert", session_id=session.id, text=FACT)
    session = await sessions.get_session(app_name="support", user_id="albert", session_id=session.id)
    return runner, sessions, session


# --- a Runner with OrgMemory as its memory ----------------------------------------------------------------------


def test_a_fact_told_in_one_session_is_found_by_load_memory_in_the_next(orgmemory_env):
    async def scenario():
        memory = OrgMemoryService()
        runner, sessions, first = await remember_fact_in_a_session(memory)
        await memory.add_session_to_memory(first)
        second = await sessions.create_session(app_name="support", user_id="albert", session_id="session-2")
        events = await run_turn(runner, user_id="albert", session_id=second.id, text=QUESTION)
        await memory.aclose()
        return events

    events = asyncio.run(scenario())

    # the model called load_memory with the question, and the tool's response carries the fact
    calls = [call for event in events for call in event.get_function_calls()]
    assert [(call.name, call.args) for call in calls] == [("load_memory", {"query": QUESTION.rstrip("?")})]
    (tool_response,) = [response for event in events for response in event.get_function_responses()]
    recalled = json.dumps(tool_payload(tool_response.response))
    assert "our staging database runs on pg-stg-2." in recalled
    assert '"scope": "user:albert"' in recalled
    # the final answer quotes it; preload_memory had already put it in the first model request of session 2
    assert "pg-stg-2" in events[-1].content.parts[0].text
    first_request_of_session_2 = ScriptedLlm.requests[1]
    assert PRELOAD_MARKER in _request_text(first_request_of_session_2)
    assert FACT in _request_text(first_request_of_session_2)


def test_adding_a_session_twice_stores_nothing_new(orgmemory_env, e2e_api_key):
    async def scenario():
        memory = OrgMemoryService()
        _, _, session = await remember_fact_in_a_session(memory)
        await memory.add_session_to_memory(session)
        after_first = visible_memories(orgmemory_env, e2e_api_key, "albert")
        await memory.add_session_to_memory(session)
        await memory.add_events_to_memory(
            app_name="support", user_id="albert", events=session.events, session_id=session.id
        )
        return session, after_first, visible_memories(orgmemory_env, e2e_api_key, "albert")

    session, after_first, after_again = asyncio.run(scenario())

    # the user's fact and the agent's reply: one event memory each, under the session and event ids
    assert sorted((row["kind"], row["content"]) for row in after_first) == [("event", "Noted."), ("event", FACT)]
    assert {row["session_id"] for row in after_first} == {"session-1"}
    assert {row["event_id"] for row in after_first} == {event.id for event in session.events}
    assert {row["content"]: row["metadata"]["author"] for row in after_first} == {FACT: "user", "Noted.": "helper"}
    assert sorted(row["id"] for row in after_again) == sorted(row["id"] for row in after_first)


def test_search_memory_returns_entries_with_author_time_and_scope(orgmemory_env, e2e_api_key):
    async def scenario():
        memory = OrgMemoryService()
        _, _, session = await remember_fact_in_a_session(memory)
        await memory.add_session_to_memory(session)
        response = await memory.search_memory(app_name="support", user_id="albert", query="staging database host")
        await memory.aclose()
        return session, response

    session, response = asyncio.run(scenario())

    top = response.memories[0]
    stored = {row["id"]: row for row in visible_memories(orgmemory_env, e2e_api_key, "albert")}[int(top.id)]
    assert top.content.parts[0].text == FACT
    assert stored["event_id"] == session.events[0].id
    assert stored["metadata"] == {"author": "user", "timestamp": session.events[0].timestamp}
    # the API's search results carry no memory metadata (yet): the entry's author is then the memory's author (the
    # member the agent wrote for); with metadata it is the ADK event's author
    assert top.author == ("user" if "metadata" in _raw_search_hit(orgmemory_env, e2e_api_key, top.id) else "albert")
    assert top.timestamp.startswith(stored["created_at"][:10])
    assert top.custom_metadata["memory_id"] == int(top.id)
    assert top.custom_metadata["scope"] == "user:albert"
    assert top.custom_metadata["scope_level"] == "user"
    assert top.custom_metadata["kind"] == "event"
    assert top.custom_metadata["orgmemory_author"] == "albert"
    assert top.custom_metadata["score"] > 0
    assert top.custom_metadata["title"] == ""


def _raw_search_hit(base_url: str, api_key: str, memory_id: str) -> dict[str, Any]:
    response = httpx.post(
        f"{base_url}/api/v1/search",
        json={"user_id": "albert", "query": "staging database host"},
        headers={"Authorization": f"Bearer {api_key}"},
        timeout=30,
    )
    response.raise_for_status()
    return next(hit for hit in response.json()["results"] if str(hit["id"]) == memory_id)


def test_a_team_memory_is_shared_with_the_team_only_and_can_be_deleted(orgmemory_env):
    async def scenario():
        memory = OrgMemoryService()
        entry = MemoryEntry(
            id="runbook-1",
            content=types.Content(parts=[types.Part(text="The platform team deploys with Argo CD on Tuesdays.")]),
            custom_metadata={"title": "Deploy day", "source": "runbook"},
        )
        await memory.add_memory(
            app_name="support", user_id="albert", memories=[entry], custom_metadata={"scope": "team:platform"}
        )
        await memory.add_memory(app_name="support", user_id="albert", memories=[entry])  # same id: idempotent
        teammate = await memory.search_memory(app_name="support", user_id="bea", query="when does platform deploy")
        other_team = await memory.search_memory(app_name="support", user_id="dora", query="when does platform deploy")
        await memory.delete_memory(app_name="support", user_id="albert", memory_id=teammate.memories[0].id)
        after_delete = await memory.search_memory(app_name="support", user_id="bea", query="when does platform deploy")
        await memory.aclose()
        return teammate, other_team, after_delete

    teammate, other_team, after_delete = asyncio.run(scenario())

    (shared,) = teammate.memories
    assert shared.content.parts[0].text == "The platform team deploys with Argo CD on Tuesdays."
    assert (shared.custom_metadata["scope"], shared.custom_metadata["kind"]) == ("team:platform", "fact")
    assert shared.custom_metadata["title"] == "Deploy day"
    assert other_team.memories == []
    assert after_delete.memories == []


def test_answer_gives_a_cited_answer(orgmemory_env, monkeypatch):
    monkeypatch.delenv("ORGMEMORY_LLM_URL", raising=False)

    async def scenario():
        memory = OrgMemoryService()
        fact = MemoryEntry(content=types.Content(parts=[types.Part(text="Our on-call rotation changes every Monday.")]))
        await memory.add_memory(app_name="support", user_id="albert", memories=[fact])
        answer = await memory.answer(app_name="support", user_id="albert", query="when does on-call rotate?")
        await memory.aclose()
        return answer

    answer = asyncio.run(scenario())

    assert answer.used_llm is False  # no LLM configured: the deterministic, cited answer
    assert "Our on-call rotation changes every Monday." in answer.text
    assert "[1]" in answer.text
    assert [(citation.index, str(citation.memory_id)) for citation in answer.citations] == [(1, answer.results[0].id)]


def test_api_errors_surface_as_org_memory_error(orgmemory_env):
    async def scenario():
        errors = []
        for service, user_id in ((OrgMemoryService(), "nobody"), (OrgMemoryService(api_key="om_wrong_key"), "albert")):
            try:
                await service.search_memory(app_name="support", user_id=user_id, query="anything")
            except OrgMemoryError as exc:
                errors.append((exc.status, exc.code))
            await service.aclose()
        return errors

    assert asyncio.run(scenario()) == [(404, "unknown_user"), (401, "invalid_api_key")]


# --- orgmemory:// through ADK's registry and get_fast_api_app ---------------------------------------------------


def test_the_registry_resolves_orgmemory_uris_to_the_live_server(orgmemory_env, live_server):
    register_org_memory_scheme()
    register_org_memory_scheme()
    host_port = live_server.url.removeprefix("http://")

    service = service_registry.get_service_registry().create_memory_service(
        f"orgmemory://{host_port}", agents_dir=str(EXAMPLE_AGENT.parent)
    )

    assert isinstance(service, OrgMemoryService)
    assert service.base_url == live_server.url

    async def search_once():
        async with service:
            return await service.search_memory(app_name="a", user_id="albert", query="anything")

    assert asyncio.run(search_once()).memories == []


@pytest.fixture
def agents_dir(tmp_path, monkeypatch) -> Path:
    """A copy of the example agent folder, loaded by ADK as `adk web <folder>` would: a fresh service registry
    (so only the folder's services.py can register the scheme), and sys.path / sys.modules restored after."""
    folder = tmp_path / "adk_agent"
    shutil.copytree(EXAMPLE_AGENT, folder, ignore=shutil.ignore_patterns("__pycache__", ".adk", ".env"))
    monkeypatch.setattr(service_registry, "_service_registry_instance", None)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("services", "adk_agent", "adk_agent.agent"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield folder
    for name in ("services", "adk_agent", "adk_agent.agent"):
        sys.modules.pop(name, None)


@pytest.mark.filterwarnings("ignore:.*EXPERIMENTAL.*:UserWarning")  # ADK's credential service, built by the app
def test_get_fast_api_app_builds_org_memory_service_from_the_uri(
    agents_dir, orgmemory_env, e2e_api_key, live_server, monkeypatch
):
    built = []
    create = fast_api.create_memory_service_from_options

    def recording_create(**kwargs):
        built.append(create(**kwargs))
        return built[-1]

    monkeypatch.setattr(fast_api, "create_memory_service_from_options", recording_create)
    host_port = live_server.url.removeprefix("http://")

    app = get_fast_api_app(
        agents_dir=str(agents_dir),
        memory_service_uri=f"orgmemory://{host_port}",
        session_service_uri="memory://",
        artifact_service_uri="memory://",
        use_local_storage=False,
        web=False,
    )

    # the example folder's services.py registered the scheme, and the URI became an OrgMemoryService
    (memory,) = built
    assert isinstance(memory, OrgMemoryService)
    assert memory.base_url == live_server.url
    # ADK's own API stores a session through it: create a session with events, then PATCH .../memory
    content = {"role": "user", "parts": [{"text": FACT}]}
    events = [{"id": "web-e1", "author": "user", "timestamp": 1746178200.0, "content": content}]
    with TestClient(app) as client:
        created = client.post("/apps/adk_agent/users/albert/sessions", json={"session_id": "web-1", "events": events})
        patched = client.patch("/apps/adk_agent/users/albert/memory", json={"session_id": "web-1"})
        client.portal.call(memory.aclose)  # on the server's loop, which used it
    assert created.status_code == 200, created.text
    assert patched.status_code == 200, patched.text
    rows = visible_memories(live_server.url, e2e_api_key, "albert")
    assert [(row["content"], row["app_name"], row["session_id"], row["event_id"]) for row in rows] == [
        (FACT, "adk_agent", "web-1", "web-e1")
    ]


def test_the_example_agent_stores_each_turn_and_recalls_it(agents_dir, orgmemory_env, monkeypatch):
    monkeypatch.setenv("ORGMEMORY_AGENT_MODEL", FAKE_MODEL)
    monkeypatch.setenv("ADK_DISABLE_LOAD_DOTENV", "1")
    agent = AgentLoader(agents_dir=str(agents_dir.parent)).load_agent("adk_agent")

    async def scenario():
        memory = OrgMemoryService()
        sessions = InMemorySessionService()
        runner = Runner(app_name="adk_agent", agent=agent, session_service=sessions, memory_service=memory)
        first = await sessions.create_session(app_name="adk_agent", user_id="albert")
        await run_turn(runner, user_id="albert", session_id=first.id, text=FACT)  # stored by its callback
        second = await sessions.create_session(app_name="adk_agent", user_id="albert")
        events = await run_turn(runner, user_id="albert", session_id=second.id, text=QUESTION)
        await memory.aclose()
        return events

    events = asyncio.run(scenario())

    assert (agent.name, agent.model) == ("orgmemory_assistant", FAKE_MODEL)
    (tool_response,) = [response for event in events for response in event.get_function_responses()]
    assert "pg-stg-2" in json.dumps(tool_payload(tool_response.response))
    assert events[-1].content.parts[0].text.startswith("From memory: ")
