"""Google ADK adapter of OrgMemory: ``OrgMemoryService`` (an ADK ``BaseMemoryService`` over the REST API) and the
``orgmemory://`` service-registry scheme.

Importable without Django settings (it imports no Django at all); needs the optional ``adk`` extra
(``pip install 'orgmemory[adk]'``). Configure with ``ORGMEMORY_URL`` and ``ORGMEMORY_API_KEY``::

    from retrieval.adk import OrgMemoryService, register_org_memory_scheme

    memory = OrgMemoryService()  # reads ORGMEMORY_URL / ORGMEMORY_API_KEY
    runner = Runner(agent=agent, app_name="support", session_service=sessions, memory_service=memory)

    register_org_memory_scheme()  # then: memory_service_uri="orgmemory://127.0.0.1:8000"

Generated agents that must run without org memory use ``build_memory_service()`` (``retrieval.adk.builder``):
``None`` instead of an error when the URL, the key, the ADK or the server is missing. Without the ADK installed
this package still imports (so that the builder can say so); its ADK names raise the ImportError naming the extra.
"""

from retrieval.adk.builder import build_memory_service, memory_tools
from retrieval.adk.client import API_KEY_ENV, DEFAULT_TIMEOUT, URL_ENV, OrgMemoryError

try:
    from retrieval.adk.registry import (
        SCHEME,
        base_url_from_uri,
        org_memory_service_from_uri,
        register_org_memory_scheme,
    )
    from retrieval.adk.service import (
        Citation,
        OrgMemoryAnswer,
        OrgMemoryFact,
        OrgMemoryRecall,
        OrgMemoryService,
        RecallItem,
        event_text,
        memory_entry,
        memory_item,
        session_events_payload,
    )
except ImportError as exc:  # the ADK is missing: raised again when one of its names is used
    _ADK_MISSING = exc

    def __getattr__(name: str):
        if name in __all__:
            raise ImportError(str(_ADK_MISSING)) from _ADK_MISSING
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "API_KEY_ENV",
    "DEFAULT_TIMEOUT",
    "SCHEME",
    "URL_ENV",
    "Citation",
    "OrgMemoryAnswer",
    "OrgMemoryError",
    "OrgMemoryFact",
    "OrgMemoryRecall",
    "OrgMemoryService",
    "RecallItem",
    "base_url_from_uri",
    "build_memory_service",
    "event_text",
    "memory_entry",
    "memory_item",
    "memory_tools",
    "org_memory_service_from_uri",
    "register_org_memory_scheme",
    "session_events_payload",
]
