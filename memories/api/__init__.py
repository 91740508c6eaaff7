"""The memories API (ARCHITECTURE, "API v1"): write, list, read, update and delete memories; ingest and forget ADK
sessions; delete by query; GDPR erasure of a user. Each view parses, calls one service or selector, and serializes.

Modules: ``memories`` (the collection, detail and delete-by-query views), ``sessions`` (ADK session ingest and
delete), ``users`` (erasure), ``serializers`` (the memory input/output shapes and their OpenAPI examples),
``common`` (what the views share: the ``user_id`` parameter, the agent author). ``orgmemory.api_urls`` routes
the views imported here.
"""

from __future__ import annotations

from memories.api.common import USER_ID_HELP, USER_ID_PARAM
from memories.api.memories import MemoryCollectionApi, MemoryDeleteByQueryApi, MemoryDetailApi
from memories.api.serializers import (
    MAX_BATCH,
    MemoryBatchInputSerializer,
    MemoryBatchOutputSerializer,
    MemoryDeletedSerializer,
    MemoryInputSerializer,
    MemoryOutputSerializer,
    MemoryPageSerializer,
    MemoryWriteOutputSerializer,
)
from memories.api.sessions import MAX_EVENTS, SessionDeleteApi, SessionEventSerializer, SessionIngestApi
from memories.api.users import UserEraseApi

__all__ = [
    "MAX_BATCH",
    "MAX_EVENTS",
    "USER_ID_HELP",
    "USER_ID_PARAM",
    "MemoryBatchInputSerializer",
    "MemoryBatchOutputSerializer",
    "MemoryCollectionApi",
    "MemoryDeleteByQueryApi",
    "MemoryDeletedSerializer",
    "MemoryDetailApi",
    "MemoryInputSerializer",
    "MemoryOutputSerializer",
    "MemoryPageSerializer",
    "MemoryWriteOutputSerializer",
    "SessionDeleteApi",
    "SessionEventSerializer",
    "SessionIngestApi",
    "UserEraseApi",
]
