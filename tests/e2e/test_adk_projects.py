"""A project-scoped ADK memory service (issue 14; adk-rust's ``supports_project_scoping``) with a real ADK
``Runner`` against the live server: what a session stores through it stays in the project."""

from __future__ import annotations

import asyncio

from retrieval.adk import OrgMemoryService
from tests.e2e.test_adk import FACT, QUESTION, remember_fact_in_a_session, visible_memories


def test_a_project_scoped_service_keeps_what_its_sessions_store_inside_the_project(orgmemory_env, e2e_api_key):
    async def scenario():
        alpha, plain = OrgMemoryService(project="alpha"), OrgMemoryService()
        _, _, session = await remember_fact_in_a_session(alpha)
        await alpha.add_session_to_memory(session)
        found = {
            name: await service.search_memory(app_name="support", user_id="albert", query=QUESTION)
            for name, service in (("alpha", alpha), ("plain", plain))
        }
        recall = await alpha.recall(user_id="albert", task=QUESTION, budget_chars=1000)
        listed = visible_memories(orgmemory_env, e2e_api_key, "albert")
        fact_id = next(item.id for item in recall.items if "pg-stg-2" in item.line)
        await alpha.delete_memory(app_name="support", user_id="albert", memory_id=str(fact_id))
        after = await alpha.search_memory(app_name="support", user_id="albert", query=QUESTION)
        await alpha.aclose()
        await plain.aclose()
        return found, recall, listed, after

    found, recall, listed, after = asyncio.run(scenario())

    texts = {
        name: [part.text for memory in response.memories for part in memory.content.parts]
        for name, response in found.items()
    }
    assert FACT in texts["alpha"]
    assert FACT not in texts["plain"]  # a service without the project never sees its memories
    assert listed == []  # nor does the API without `project`
    assert any("pg-stg-2" in item.line for item in recall.items)
    assert FACT not in [part.text for memory in after.memories for part in memory.content.parts]
    assert repr(OrgMemoryService(project="alpha")).endswith("project='alpha')")
