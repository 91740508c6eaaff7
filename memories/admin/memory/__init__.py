"""Admin curation of memories: list, filter and search a tenant's memories; add, edit, move, re-kind, re-index and
delete them. Every write goes through ``memories.services.memory``; a refused write shows on the form or as a
message, never as a server error.

Modules: ``admin`` (the registered :class:`MemoryAdmin`: list, search, columns, add/change pages and their
read-only panels), ``filters`` (the list's sidebar filters), ``forms`` (the add/change form that writes through
the service, the move form), ``actions`` (move, re-kind, re-index, delete), ``common`` (field lists and the
one-line summary every part shows). Importing this package registers the admin.
"""

from __future__ import annotations

from memories.admin.memory.admin import MemoryAdmin, MemoryChangeList
from memories.admin.memory.filters import HasWarningFilter, HistoryFilter, LevelFilter, ScopeSubtreeFilter
from memories.admin.memory.forms import MemoryAdminForm, MoveToScopeForm

__all__ = [
    "HasWarningFilter",
    "HistoryFilter",
    "LevelFilter",
    "MemoryAdmin",
    "MemoryAdminForm",
    "MemoryChangeList",
    "MoveToScopeForm",
    "ScopeSubtreeFilter",
]
