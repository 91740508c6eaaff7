"""A memory as an export record: what ``export_memories`` writes as one JSONL line (and the front matter of an
Obsidian note) and ``import_memories`` reads back losslessly."""

from __future__ import annotations

from memories.models import Memory


def memory_as_record(memory: Memory) -> dict:
    """The record's fields (None where the memory has no value); the caller drops the Nones for JSONL."""
    return {
        "external_id": memory.external_id or None,
        # the authoring member: import restores the link, so a later erasure of that user still finds the memory
        "user_id": memory.author_member.user_id if memory.author_member_id else None,
        # a project memory: its owner node's tag and the project's name (import recreates the project)
        "scope": memory.home_scope.tag,
        "project": memory.project,
        "kind": memory.kind,
        "title": memory.title,
        "content": memory.content,
        "metadata": memory.metadata,
        "author": memory.author,
        "app_name": memory.source_app or None,
        "session_id": memory.source_session or None,
        "event_id": memory.source_event_id or None,
        "created_at": memory.created_at.isoformat(),
        "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
        "valid_from": memory.valid_from.isoformat() if memory.valid_from else None,
        "valid_until": memory.valid_until.isoformat() if memory.valid_until else None,
        # the "now" of its relative dates: an import re-tags the content against it, as the first write did
        "reference_time": memory.reference_time.isoformat() if memory.reference_time else None,
    }
