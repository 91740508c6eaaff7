"""The one write path for memories: validation, scope and policy checks, dedup at store, history.

Every caller (API, admin, commands, ADK ingestion) goes through these functions. Nothing here embeds or calls
the network: saving a memory registers its indexing on commit (see ``memories.signals``).

Modules: ``types`` (who writes, what a write returns), ``validation`` (cleaning input, the content hash, the
size limit), ``scope`` (the target scope, the right to write there, retention), ``write`` (create with dedup,
update, move, re-kind, delete), ``batch`` (create many in a fixed number of statements). Callers import from here.
"""

from __future__ import annotations

from memories.services.memory.batch import memory_create_batch
from memories.services.memory.scope import memory_scope_resolve
from memories.services.memory.types import Author, WriteResult
from memories.services.memory.validation import (
    METADATA_MAX_BYTES,
    SOURCE_FIELD_MAX,
    TITLE_MAX_CHARS,
    content_hash,
)
from memories.services.memory.write import (
    NEAR_DUPLICATE_CANDIDATES,
    TEXT_SEARCH_CONFIG,
    memories_check_may_delete,
    memories_delete,
    memories_with_history,
    memory_check_may_change,
    memory_create,
    memory_delete,
    memory_is_protected,
    memory_move,
    memory_set_kind,
    memory_update,
)

__all__ = [
    "METADATA_MAX_BYTES",
    "NEAR_DUPLICATE_CANDIDATES",
    "SOURCE_FIELD_MAX",
    "TEXT_SEARCH_CONFIG",
    "TITLE_MAX_CHARS",
    "Author",
    "WriteResult",
    "content_hash",
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
