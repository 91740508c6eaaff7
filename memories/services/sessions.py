"""ADK session ingestion: each event with text becomes an ``event`` memory at the member's own scope,
idempotent per (session, event id); and forgetting one user's session."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import transaction

from memories.models import Member, Memory, MemoryKind, Scope, Tenant
from memories.selectors import project_name_clean, project_nodes, scope_chain_for_scope, scope_subtree
from memories.services.memory import Author, memories_check_may_delete, memories_delete, memory_create_batch
from memories.services.memory.time import parse_moment
from memories.services.retry import retried_on_deadlock
from orgmemory.errors import ValidationFailed
from orgmemory.text import text_problem

SESSION_ID_MAX = 256


@dataclass
class SessionIngestResult:
    created: int = 0
    skipped: int = 0  # already stored (same event id, or the same text at the same scope) or no text
    memory_ids: list[int] = field(default_factory=list)


def _clean_session_id(session_id: Any) -> str:
    if not isinstance(session_id, str) or not session_id.strip():
        raise ValidationFailed("session_id is required", details={"session_id": ["must be a non-empty string"]})
    if text_problem(session_id) or len(session_id) > SESSION_ID_MAX:
        raise ValidationFailed(
            f"session_id must be at most {SESSION_ID_MAX} characters of valid text (no NUL bytes)",
            details={"session_id": ["invalid"]},
        )
    return session_id.strip()


def session_ingest(
    *,
    tenant: Tenant,
    author: Author,
    app_name: str,
    session_id: str,
    events: Sequence[dict[str, Any]],
    project: str | None = None,
) -> SessionIngestResult:
    """Store the session's events that carry text as ``event`` memories at the author's own scope (in its project
    ``project`` when given, created by the first write), as one batch
    (:func:`~memories.services.memory.memory_create_batch`: one dedup query and one insert for the call).

    Each event is ``{"id", "author"?, "timestamp"?, "text"?}``; the ADK author (``user`` or an agent's name) and
    timestamp go into the memory's metadata. Re-sending an event id of the session stores nothing new
    (``skipped``), and so does an event whose text is already stored at that scope. All or nothing: a bad event
    raises with its index and nothing of the call is kept.
    """
    session_id = _clean_session_id(session_id)
    result = SessionIngestResult()
    items: list[dict[str, Any]] = []
    numbers: list[int] = []
    for index, event in enumerate(events):
        text = event.get("text") or ""
        if not isinstance(text, str) or not text.strip():
            result.skipped += 1
            continue
        event_id = event.get("id")
        if not isinstance(event_id, str) or not event_id.strip():
            raise ValidationFailed(
                f"events[{index}]: id is required", details={"index": index, "id": ["must be a non-empty string"]}
            )
        metadata: dict[str, Any] = {"author": str(event.get("author") or "")[:200]}
        if event.get("timestamp") is not None:
            metadata["timestamp"] = event["timestamp"]
        # the event's time is the "now" its relative dates ("yesterday") refer to
        try:
            reference = event_moment(event.get("timestamp"))
        except ValidationFailed as exc:
            raise ValidationFailed(
                f"events[{index}]: {exc.message}", code="invalid", details={"index": index, "timestamp": [exc.message]}
            )
        items.append(
            {
                "content": text,
                "kind": MemoryKind.EVENT,
                "metadata": metadata,
                "source_app": app_name or "",
                "source_session": session_id,
                "source_event_id": event_id.strip(),
                "project": project,
                "reference_time": reference,
            }
        )
        numbers.append(index)
    if not items:
        return result
    written = memory_create_batch(tenant=tenant, author=author, items=items, label="events", numbers=numbers)
    for outcome in written:
        if outcome.created:
            result.created += 1
        else:
            result.skipped += 1
        result.memory_ids.append(outcome.memory.pk)
    return result


def event_moment(value: Any) -> datetime | None:
    """A session event's ``timestamp`` — seconds since the epoch (ADK's form) or ISO 8601 — as an aware datetime;
    ValidationFailed when it is neither or out of range."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            moment = datetime.fromtimestamp(float(value), tz=UTC)
        except (ValueError, OverflowError, OSError):
            moment = None
        if moment is None or not 1900 <= moment.year <= 2199:
            raise ValidationFailed("timestamp is out of range", code="invalid", details={"timestamp": [repr(value)]})
        return moment
    return parse_moment(value, field_name="timestamp")


@retried_on_deadlock
@transaction.atomic
def session_delete(
    *,
    tenant: Tenant,
    member: Member,
    session_id: str,
    within: Scope | None = None,
    curator: bool = False,
    project: str | None = None,
) -> int:
    """Delete the memories ``member`` wrote in ``session_id`` (on their own scope chain, and inside ``within``'s
    subtree when given: a key restricted to a subtree deletes nothing outside it), with their superseded history;
    links go with them and entity counts are recounted on commit. Returns how many of the session's memories were
    deleted (0 for an unknown session). Refused (403 ``policy_protected``) when that would delete an admin-curated
    policy the session's memories replaced, unless ``curator`` (the key has the ``admin`` permission). Without
    ``project`` only the chain's own memories go; with it only that project's (404 ``unknown_project``)."""
    session_id = _clean_session_id(session_id)
    chain_ids = [scope.pk for scope in scope_chain_for_scope(tenant=tenant, scope=member.scope)]
    project = project_name_clean(project)
    if project is not None:
        chain_ids = [node.pk for node in project_nodes(tenant=tenant, chain_ids=chain_ids, project=project)]
    if within is not None:
        inside = set(scope_subtree(tenant=tenant, scope=within).values_list("pk", flat=True))
        chain_ids = [scope_id for scope_id in chain_ids if scope_id in inside]
    memories = Memory.objects.filter(
        tenant=tenant, source_session=session_id, author_member=member, scope_id__in=chain_ids
    )
    ids = list(memories.values_list("pk", flat=True))
    memories_check_may_delete(memory_ids=ids, author=Author(kind="agent", member=member, curator=curator))
    memories_delete(memory_ids=ids)  # with their superseded history, which must not become live again
    return len(ids)
