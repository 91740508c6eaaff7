"""An ADK agent whose long-term memory is OrgMemory.

``preload_memory`` puts what OrgMemory recalls for the user's message into every model request; ``load_memory``
lets the model search on its own; ``remember_session`` stores the conversation after each turn (idempotent per
event id, so re-sending the whole session is cheap). The memory service itself comes from the runner:
``--memory_service_uri orgmemory://host:port`` (see ``services.py``) or ``Runner(memory_service=OrgMemoryService())``.

The model is ``ORGMEMORY_AGENT_MODEL`` (default ``gemini-2.5-flash``; any name ADK's model registry resolves).
"""

from __future__ import annotations

import logging
import os

from google.adk.agents import Agent
from google.adk.agents.callback_context import CallbackContext
from google.adk.tools import load_memory, preload_memory

from retrieval.adk import OrgMemoryError

logger = logging.getLogger(__name__)

MODEL = os.environ.get("ORGMEMORY_AGENT_MODEL", "gemini-2.5-flash")

INSTRUCTION = """You are a helpful colleague with a long-term memory shared across the organisation.
Facts may come from the user, their team, their division or the whole organisation; each remembered item
carries its scope (e.g. team:platform) in custom_metadata. When a question may depend on something said or
decided before, call load_memory with a short query. Cite what you recall plainly and say when you found
nothing."""


async def remember_session(callback_context: CallbackContext) -> None:
    """After each turn, send the session to the memory service; a memory outage must not break the turn."""
    try:
        await callback_context.add_session_to_memory()
    except (OrgMemoryError, ValueError) as exc:  # ValueError: the runner has no memory service
        logger.warning("could not store the session in memory: %s", exc)


root_agent = Agent(
    name="orgmemory_assistant",
    model=MODEL,
    description="Answers with what the organisation remembers.",
    instruction=INSTRUCTION,
    tools=[preload_memory, load_memory],
    after_agent_callback=remember_session,
)
