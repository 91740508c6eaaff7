"""The one write path for memories: validation, scope and policy checks, dedup at store, history.

Every caller (API, MCP, admin, sessions, commands, ADK ingestion) goes through these functions. Nothing here
embeds or calls the network: a write hands its new memories to indexing on commit
(``memories.services.indexing.memories_index_queue``).

Modules: ``types`` (who writes, what a write returns), ``validation`` (cleaning input, the content hash, the
size and depth limits), ``scope`` (the target scope, the right to write there, retention), ``create`` (the one
path of new memories — replay, dedup, supersede, expiry — for one or many), ``write`` (update, move, re-kind,
delete). Callers import from here.
"""

from __future__ import annotations

from memories.indexing_text import TEXT_SEARCH_CONFIG
from memories.services.memory.create import memories_write, memory_create, memory_create_batch
from memories.services.memory.scope import memory_scope_resolve
from memories.services.memory.types import Author, WriteResult
from memories.services.memory.validation import (
    METADATA_MAX_BYTES,
    METADATA_MAX_DEPTH,
    SOURCE_FIELD_MAX,
    TITLE_MAX_CHARS,
    content_hash,
)
from memories.services.memory.write import (
    NEAR_DUPLICATE_CANDIDATES,
    memories_check_may_delete,
    memories_delete,
    memories_with_history,
    memory_check_may_change,
    memory_delete,
    memory_is_protected,
    memory_move,
    memory_set_kind,
    memory_update,
)

__all__ = [
    "METADATA_MAX_BYTES",
    "METADATA_MAX_DEPTH",
    "NEAR_DUPLICATE_CANDIDATES",
    "SOURCE_FIELD_MAX",
    "TEXT_SEARCH_CONFIG",
    "TITLE_MAX_CHARS",
    "Author",
    "WriteResult",
    "content_hash",
    "memories_write",
    "memory_check_may_change",
    "memory_create",
    "memory_create_batch",
    "memories_check_may_delete",
    "memories_delete",
    "memories_with_history",
    "memory_delete",
    "memory_is_protected",
    "memory_move",
    "memory_scope_resolve",
    "memory_set_kind",
    "memory_update",
]
