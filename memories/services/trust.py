"""Authority and provenance of memories.

- **Proposals.** A ``policy`` written by an agent whose key lacks the ``admin`` permission is stored with
  ``status="proposed"``: searchable, marked, never pinned by recall and never ranked above a curated policy, until
  an admin approves it (``status="curated"``: it then has an admin-written policy's authority) or rejects it (the
  memory is deleted). Each decision is an entry of Django's admin log, with its tenant (the audit page reads it).
- **Curated** memories are those an admin or an operator import wrote (no member authored them) and approved
  proposals.
- **Provenance** is what a result says of where a memory came from: the author's type and name, the source, the
  session, the key, the record time and the validity window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.db import transaction
from django.utils import timezone

from memories import visibility
from memories.curation.services import admin_log_tenant_record
from memories.models import Memory, MemoryKind, MemorySource, MemoryStatus, Tenant
from memories.services.retry import retried_on_deadlock
from orgmemory.errors import Conflict, NotFound, ValidationFailed

if TYPE_CHECKING:  # the write path imports this module: no import of it at load time
    from memories.services.memory.types import Author

Decision = Literal["approve", "reject"]
DECISIONS: tuple[str, ...] = ("approve", "reject")


def memory_trust_fields(*, author: Author, kind: str, session_id: str) -> dict[str, Any]:
    """The ``status``, ``source`` and ``source_key`` a new memory is stored with."""
    if author.kind == "admin":
        source = MemorySource.ADMIN
    elif author.kind == "import":
        source = MemorySource.IMPORT
    else:
        source = MemorySource.SESSION if session_id else MemorySource.API
    proposed = kind == MemoryKind.POLICY and author.kind == "agent" and not author.curator
    return {
        "status": MemoryStatus.PROPOSED if proposed else MemoryStatus.ACTIVE,
        "source": source,
        "source_key": (author.key_name or "")[:100],
    }


def memory_is_curated(memory: Memory) -> bool:
    """Written by an admin or an operator import (no member authored it), or an approved proposal."""
    return memory.status == MemoryStatus.CURATED or (
        memory.author_member_id is None and memory.status != MemoryStatus.PROPOSED
    )


def author_type(memory: Memory) -> str:
    """``admin_user``, ``api_key``, ``member`` (an agent write of a member without a recorded key, or an import for
    a member) or ``import``."""
    if memory.author_member_id is None:
        admin = memory.author_user_id is not None or memory.source == MemorySource.ADMIN
        return "admin_user" if admin else "import"
    return "api_key" if memory.source_key else "member"


def memory_source(memory: Memory) -> str:
    """The recorded source; for a memory written before sources were recorded, the best reading of its row."""
    if memory.source:
        return memory.source
    if memory.author_member_id is None:
        return MemorySource.ADMIN if memory.author_user_id is not None else MemorySource.IMPORT
    return MemorySource.SESSION if memory.source_session else MemorySource.API


def provenance(memory: Memory) -> dict[str, Any]:
    """Where ``memory`` came from, for results and recall items (ids and names only)."""
    valid_from = getattr(memory, "valid_from", None)
    valid_until = getattr(memory, "valid_until", None)
    return {
        "author": memory.author,
        "author_type": author_type(memory),
        "key_name": memory.source_key or None,
        "source": memory_source(memory),
        "session_id": memory.source_session or None,
        "created_at": memory.created_at.isoformat() if memory.created_at else None,
        "valid_from": valid_from.isoformat() if valid_from else None,
        "valid_until": valid_until.isoformat() if valid_until else None,
        "status": memory.status,
        "curated": memory_is_curated(memory),
    }


def proposals_open(*, tenant: Tenant, limit: int = 50) -> list[Memory]:
    """The tenant's live proposals, newest first (one statement)."""
    return list(
        Memory.objects.filter(visibility.current_q(), tenant=tenant, status=MemoryStatus.PROPOSED)
        .select_related("scope")
        .defer("search_vector", "dedup_bands")
        .order_by("-pk")[:limit]
    )


@dataclass(frozen=True)
class ProposalDecision:
    memory_id: int
    decision: str


@retried_on_deadlock
@transaction.atomic
def proposal_decide(*, tenant: Tenant, memory_id: int, decision: str, user) -> ProposalDecision:
    """Approve (the policy becomes curated) or reject (it is deleted, with its history) the proposal
    ``memory_id`` of ``tenant``; ``user`` is the admin who decided, recorded in the admin log. ValidationFailed
    ``invalid_decision``; NotFound ``memory_not_found`` (another tenant's memory looks missing); Conflict
    ``not_proposed`` when it is not an open proposal any more (decided meanwhile)."""
    if decision not in DECISIONS:
        raise ValidationFailed(
            f"decision must be one of {', '.join(DECISIONS)}",
            code="invalid_decision",
            details={"decision": [str(decision)[:50]]},
        )
    memory = (
        Memory.objects.select_for_update().filter(tenant=tenant, pk=memory_id).defer("search_vector", "dedup_bands")
    ).first()
    if memory is None:
        raise NotFound("no such memory in this tenant", code="memory_not_found")
    if memory.status != MemoryStatus.PROPOSED or not memory.is_live:
        raise Conflict(
            f"memory {memory_id} is not an open proposal (decided, superseded or expired)", code="not_proposed"
        )
    if decision == "approve":
        Memory.objects.filter(pk=memory_id).update(status=MemoryStatus.CURATED, updated_at=timezone.now())
        message = f"Proposed policy memory {memory_id} approved: now curated."
        flag = CHANGE
    else:
        message = f"Proposed policy memory {memory_id} rejected: removed."
        flag = DELETION
    # logged before a rejection deletes the row (the entry keeps its id and type, never its words)
    entries = LogEntry.objects.log_actions(user_id=user.pk, queryset=[memory], action_flag=flag, change_message=message)
    admin_log_tenant_record(entries=list(entries), tenant_ids=[tenant.pk])
    if decision == "reject":
        from memories.services.memory.write import memories_delete

        memories_delete(memory_ids=[memory_id])
    return ProposalDecision(memory_id=memory_id, decision=decision)
