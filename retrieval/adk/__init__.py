"""Google ADK adapter of OrgMemory: ``OrgMemoryService`` (an ADK ``BaseMemoryService`` over the REST API) and the
``orgmemory://`` service-registry scheme.

Importable without Django settings (it imports no Django at all); needs the optional ``adk`` extra
(``pip install 'orgmemory[adk]'``). Configure with ``ORGMEMORY_URL`` and ``ORGMEMORY_API_KEY``::

    from retrieval.adk import OrgMemoryService, register_org_memory_scheme

    memory = OrgMemoryService()  # reads ORGMEMORY_URL / ORGMEMORY_API_KEY
    runner = Runner(agent=agent, app_name="support", session_service=sessions, memory_service=memory)

    register_org_memory_scheme()  # then: memory_service_uri="orgmemory://127.0.0.1:8000"
"""

from retrieval.adk.client import API_KEY_ENV, DEFAULT_TIMEOUT, URL_ENV, OrgMemoryError
from retrieval.adk.registry import SCHEME, base_url_from_uri, org_memory_service_from_uri, register_org_memory_scheme
from retrieval.adk.service import (
    Citation,
    OrgMemoryAnswer,
    OrgMemoryRecall,
    OrgMemoryService,
    RecallItem,
    event_text,
    memory_entry,
    memory_item,
    session_events_payload,
)

__all__ = [
    "API_KEY_ENV",
    "DEFAULT_TIMEOUT",
    "SCHEME",
    "URL_ENV",
    "Citation",
    "OrgMemoryAnswer",
    "OrgMemoryError",
    "OrgMemoryRecall",
    "OrgMemoryService",
    "RecallItem",
    "base_url_from_uri",
    "event_text",
    "memory_entry",
    "memory_item",
    "org_memory_service_from_uri",
    "register_org_memory_scheme",
    "session_events_payload",
]
