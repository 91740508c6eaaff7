"""``build_memory_service()``, the degrading builder for generated agents: None (and one warning saying why) for
each missing piece — no URL, no key, no ADK, a malformed URL, a refused key, a server that does not answer —
and a real ADK ``Runner`` that still answers without it; with everything there, a working ``OrgMemoryService``
that the same Runner recalls a fact through."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from google.adk.agents import LlmAgent
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService

from retrieval.adk import OrgMemoryService, build_memory_service, memory_tools
from tests.e2e.test_adk import FACT, FAKE_MODEL, QUESTION, ScriptedLlm, run_turn, tool_payload

pytestmark = pytest.mark.adk

REPO = Path(__file__).resolve().parents[2]
OFF = "OrgMemory is off for this agent: "


def generated_agent(memory) -> LlmAgent:
    """What a generated agent looks like: its memory tools only when there is a memory service."""
    return LlmAgent(name="generated", model=FAKE_MODEL, instruction="Help.", tools=memory_tools(memory))


async def one_turn(memory, text: str, *, session_id: str = "s-1") -> list:
    sessions = InMemorySessionService()
    runner = Runner(
        app_name="generated", agent=generated_agent(memory), session_service=sessions, memory_service=memory
    )
    await sessions.create_session(app_name="generated", user_id="albert", session_id=session_id)
    return await run_turn(runner, user_id="albert", session_id=session_id, text=text)


def reasons(caplog) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == "retrieval.adk.builder" and r.levelno == logging.WARNING
    ]


@pytest.fixture
def unset(monkeypatch):
    monkeypatch.delenv("ORGMEMORY_URL", raising=False)
    monkeypatch.delenv("ORGMEMORY_API_KEY", raising=False)


def test_without_a_url_the_builder_returns_none_and_the_runner_still_answers(unset, monkeypatch, caplog):
    monkeypatch.setenv("ORGMEMORY_API_KEY", "om_x_y")
    caplog.set_level(logging.INFO, logger="retrieval.adk.builder")

    memory = build_memory_service()
    events = asyncio.run(one_turn(memory, "Hello there."))

    assert memory is None
    assert reasons(caplog) == [f"{OFF}ORGMEMORY_URL is not set; it runs without organisational memory"]
    assert events[-1].content.parts[0].text == "Noted."  # the agent ran its turn, without memory tools
    assert ScriptedLlm.requests[-1].tools_dict == {}


def test_without_a_key_the_builder_returns_none(unset, monkeypatch, caplog):
    monkeypatch.setenv("ORGMEMORY_URL", "http://127.0.0.1:8000")

    assert build_memory_service() is None
    assert reasons(caplog) == [f"{OFF}ORGMEMORY_API_KEY is not set; it runs without organisational memory"]


def test_a_malformed_url_is_none_not_an_exception(unset, caplog):
    assert build_memory_service(base_url="ftp://host", api_key="om_x_y") is None
    (reason,) = reasons(caplog)
    assert reason.startswith(f"{OFF}the configuration is not valid: ORGMEMORY_URL must be an http(s) URL")


def test_a_server_that_does_not_answer_is_none_within_the_probe_timeout(unset, caplog):
    # a socket that accepts connections and never replies: the probe's timeout, not the agent, decides
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    port = silent.getsockname()[1]
    try:
        memory = build_memory_service(base_url=f"http://127.0.0.1:{port}", api_key="om_x_y", probe_timeout=0.5)
    finally:
        silent.close()

    assert memory is None
    assert reasons(caplog) == [
        f"{OFF}http://127.0.0.1:{port} did not answer within 0.5 s; it runs without organisational memory"
    ]


def test_nothing_listening_is_none(unset, caplog):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    assert build_memory_service(base_url=f"http://127.0.0.1:{port}", api_key="om_x_y") is None
    (reason,) = reasons(caplog)
    assert reason.startswith(f"{OFF}http://127.0.0.1:{port} is unreachable (ConnectError")


def test_without_the_adk_the_builder_returns_none_and_says_what_to_install(orgmemory_env):
    code = (
        "import logging, sys; logging.basicConfig(format='%(message)s'); sys.modules['google.adk'] = None\n"
        "from retrieval.adk import build_memory_service\n"
        "print(build_memory_service())"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=dict(os.environ), capture_output=True, text=True)

    assert (done.returncode, done.stdout.strip()) == (0, "None"), done.stderr
    assert done.stderr.strip() == (
        f"{OFF}the Google ADK is not installed (the adk extra: pip install 'orgmemory[adk]'; ImportError); "
        "it runs without organisational memory"
    )


def test_a_refused_key_is_none(orgmemory_env, monkeypatch, caplog):
    monkeypatch.setenv("ORGMEMORY_API_KEY", "om_deadbeef_not-a-real-key")

    assert build_memory_service() is None
    assert reasons(caplog) == [f"{OFF}{orgmemory_env} refused the API key (401); it runs without organisational memory"]


def test_with_everything_there_the_runner_recalls_through_the_built_service(orgmemory_env, caplog):
    caplog.set_level(logging.INFO, logger="retrieval.adk.builder")

    async def scenario(memory):
        sessions = InMemorySessionService()
        runner = Runner(
            app_name="generated", agent=generated_agent(memory), session_service=sessions, memory_service=memory
        )
        await sessions.create_session(app_name="generated", user_id="albert", session_id="s-1")
        await run_turn(runner, user_id="albert", session_id="s-1", text=FACT)
        first = await sessions.get_session(app_name="generated", user_id="albert", session_id="s-1")
        await memory.add_session_to_memory(first)
        await sessions.create_session(app_name="generated", user_id="albert", session_id="s-2")
        events = await run_turn(runner, user_id="albert", session_id="s-2", text=QUESTION)
        await memory.aclose()
        return events

    memory = build_memory_service()
    assert isinstance(memory, OrgMemoryService)
    assert memory.base_url == orgmemory_env
    events = asyncio.run(scenario(memory))

    (tool_response,) = [response for event in events for response in event.get_function_responses()]
    assert "pg-stg-2" in json.dumps(tool_payload(tool_response.response))
    assert "pg-stg-2" in events[-1].content.parts[0].text
    assert reasons(caplog) == []
