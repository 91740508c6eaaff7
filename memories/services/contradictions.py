"""Resolving a ``possible_contradiction`` warning: keep one memory (the other becomes its history, superseded) or
keep both (the warning is dismissed). Editing is the change form's business; the warning stays open until resolved.

Every resolution is recorded twice: on the warning itself (``"resolution": {"choice", "kept", "by", "at"}``, ids
and the admin's username only, never either memory's words) and in Django's admin log (a change entry on each
memory involved, with its tenant, read by the audit page). Both memories are locked in id order first, so two admins
resolving the same pair at once get one resolution and one clear conflict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone

from memories.contradiction import contradiction_between, value_masked
from memories.curation.services import admin_log_tenant_record
from memories.models import Memory, Tenant
from memories.selectors.contradictions import CONTRADICTION_CODE
from memories.services.retry import retried_on_deadlock
from memories.textsim import lsh_bands
from orgmemory.errors import Conflict, NotFound, ValidationFailed


def candidate_bands(content: str) -> list[int]:
    """The MinHash bands a memory is stored with: those of its text (near-duplicates, negation twins) and those of
    its value-masked text (:func:`memories.contradiction.value_masked`), so that the same statement with another
    value ("deploy on Tuesdays" / "deploy on Thursdays") is always a candidate of the write's checks."""
    plain = lsh_bands(content)
    known = set(plain)
    return plain + [band for band in lsh_bands(value_masked(content)) if band not in known]


def contradiction_check(
    candidates: list[Memory],
    *,
    content: str,
    title: str,
    warnings: list[dict],
    superseded: Memory | None,
    author_member_id: int | None,
    author_name: str,
) -> tuple[Memory | None, list[dict]]:
    """The near-duplicate decision (``superseded``, ``warnings``) with the value contradictions added: a
    ``possible_contradiction`` warning for each candidate (live memories at the write's scope sharing a band) that
    :func:`memories.contradiction.contradiction_between` finds contradicting the new text and no warning names yet.

    A near-duplicate that states the same thing with another value ("deploys on Tuesdays" / "on Thursdays") is an
    update when its own author writes it (superseded, as before) but a contradiction when another author does: like
    a negation twin it is then kept, with the warning, and not superseded — the newer ranks first (unless the older
    is curated and the newer is not) and an admin decides in the curation inbox. The warning names the id and the
    kind of difference only, never a quote of either text."""
    named = {warning.get("memory_id") for warning in warnings if warning.get("code") == CONTRADICTION_CODE}
    added = list(warnings)
    for candidate in candidates:
        if candidate.pk in named:
            continue
        found = contradiction_between(content, candidate.content, title_a=title, title_b=candidate.title)
        if found is None:
            continue
        if superseded is not None and candidate.pk == superseded.pk:
            if _same_author(candidate, author_member_id, author_name):
                continue  # its author's correction: a new version
            superseded = None
        named.add(candidate.pk)
        added.append(
            {
                "code": CONTRADICTION_CODE,
                "memory_id": candidate.pk,
                "message": f"this may contradict memory {candidate.pk} ({found.slot})",
            }
        )
    return superseded, added


def _same_author(memory: Memory, member_id: int | None, name: str) -> bool:
    if memory.author_member_id is not None or member_id is not None:
        return memory.author_member_id == member_id
    return memory.author == name


Choice = Literal["keep_memory", "keep_other", "keep_both"]
CHOICES: tuple[str, ...] = ("keep_memory", "keep_other", "keep_both")


@dataclass(frozen=True)
class Resolution:
    memory_id: int  # carried the warning
    other_id: int  # was named by it
    choice: str
    kept: tuple[int, ...]
    superseded: int | None  # the memory that became history (keep one), else None


@retried_on_deadlock
@transaction.atomic
def contradiction_resolve(*, tenant: Tenant, memory_id: int, other_id: int, choice: str, user) -> Resolution:
    """Resolve the open contradiction warning that memory ``memory_id`` carries about ``other_id``.

    ``keep_memory`` supersedes ``other_id`` by ``memory_id``; ``keep_other`` supersedes ``memory_id`` by
    ``other_id``; ``keep_both`` dismisses the warning. Raises ValidationFailed ``invalid_choice`` for another choice,
    NotFound ``memory_not_found`` when either memory is not a memory of ``tenant`` (another tenant's looks missing),
    Conflict ``not_open`` when the warning is not open any more (resolved meanwhile, or a side was superseded or
    expired since). ``user`` is the Django user who decided: recorded on the warning and in the admin log."""
    if choice not in CHOICES:
        raise ValidationFailed(
            f"choice must be one of {', '.join(CHOICES)}", code="invalid_choice", details={"choice": [str(choice)[:50]]}
        )
    if memory_id == other_id:
        raise ValidationFailed("a memory cannot contradict itself", code="invalid_pair")
    locked = {
        memory.pk: memory
        for memory in Memory.objects.select_for_update()
        .filter(tenant=tenant, pk__in=[memory_id, other_id])
        .defer("search_vector", "dedup_bands")
        .order_by("pk")
    }
    if memory_id not in locked or other_id not in locked:
        raise NotFound("no such memory in this tenant", code="memory_not_found")
    memory, other = locked[memory_id], locked[other_id]
    index = _open_warning_index(memory, other_id)
    if index is None or not memory.is_live or not other.is_live:
        raise Conflict(
            f"memory {memory_id} has no open contradiction with memory {other_id} (resolved, superseded or expired)",
            code="not_open",
        )
    now = timezone.now()
    superseded: Memory | None = None
    kept: tuple[int, ...] = (memory_id, other_id)
    if choice == "keep_memory":
        superseded, kept = other, (memory_id,)
        Memory.objects.filter(pk=other_id).update(superseded_by=memory_id, superseded_at=now, updated_at=now)
    elif choice == "keep_other":
        superseded, kept = memory, (other_id,)
        Memory.objects.filter(pk=memory_id).update(superseded_by=other_id, superseded_at=now, updated_at=now)
    warnings = list(memory.warnings)
    warnings[index] = {
        **warnings[index],
        "resolution": {"choice": choice, "kept": list(kept), "by": user.get_username(), "at": now.isoformat()},
    }
    # an update of the JSON alone: the index state and the text stay as they are
    Memory.objects.filter(pk=memory_id).update(warnings=warnings)
    _log(
        user=user,
        tenant=tenant,
        memories=[memory, other],
        memory_id=memory_id,
        other_id=other_id,
        choice=choice,
        superseded=superseded,
    )
    return Resolution(
        memory_id=memory_id,
        other_id=other_id,
        choice=choice,
        kept=kept,
        superseded=superseded.pk if superseded is not None else None,
    )


def _open_warning_index(memory: Memory, other_id: int) -> int | None:
    for index, warning in enumerate(memory.warnings or []):
        if (
            isinstance(warning, dict)
            and warning.get("code") == CONTRADICTION_CODE
            and warning.get("memory_id") == other_id
            and "resolution" not in warning
        ):
            return index
    return None


def _log(
    *,
    user,
    tenant: Tenant,
    memories: list[Memory],
    memory_id: int,
    other_id: int,
    choice: str,
    superseded: Memory | None,
) -> None:
    """One admin log entry per memory involved. The message names ids and the choice only: the log outlives an
    erasure of either author, and erasure blanks the entries of the memories it deletes (their ``object_repr``)."""
    if choice == "keep_both":
        message = f"Contradiction between memory {memory_id} and memory {other_id} dismissed: both kept."
    else:
        keeper = other_id if superseded.pk == memory_id else memory_id
        message = (
            f"Contradiction between memory {memory_id} and memory {other_id} resolved: kept memory {keeper}, "
            f"memory {superseded.pk} superseded by it."
        )
    entries = LogEntry.objects.log_actions(
        user_id=user.pk, queryset=memories, action_flag=CHANGE, change_message=message
    )
    admin_log_tenant_record(entries=list(entries), tenant_ids=[tenant.pk] * len(memories))
