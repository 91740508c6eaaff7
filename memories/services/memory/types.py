"""Who writes a memory (:class:`Author`) and what a write returns (:class:`WriteResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memories.models import Member, Memory
from orgmemory.errors import DomainError


@dataclass(frozen=True)
class Author:
    """Who writes: an agent acting for a member, an admin user, or an operator import."""

    kind: str  # "agent" | "admin" | "import"
    member: Member | None = None
    user: Any = None
    label: str = ""
    curator: bool = False  # an agent whose key has the `admin` permission: may change admin-curated policies
    key_name: str = ""  # the API key an agent writes through (provenance)

    @property
    def may_curate(self) -> bool:
        """May change or delete admin-curated policy memories: an admin user, an operator import, or an agent whose
        key has the ``admin`` permission."""
        return self.kind != "agent" or self.curator

    @property
    def display(self) -> str:
        if self.label:
            return self.label
        if self.member is not None:
            return self.member.user_id
        if self.user is not None:
            return f"admin:{self.user.get_username()}"
        return self.kind


@dataclass
class WriteResult:
    """What one write did. ``memory`` is the stored row (the new one, or the existing one a duplicate or a re-sent
    id returned); in a batch written item by item, an item that could not be written has ``memory=None`` and the
    domain error that says why in ``error``."""

    memory: Memory | None
    created: bool
    deduplicated: bool = False
    supersedes: int | None = None
    warnings: list[dict[str, Any]] = field(default_factory=list)
    error: DomainError | None = None

    @property
    def outcome(self) -> str:
        """``failed``, ``deduplicated``, ``superseded`` (created, replacing a near-duplicate) or ``created``."""
        if self.error is not None:
            return "failed"
        if self.deduplicated:
            return "deduplicated"
        return "superseded" if self.supersedes else "created"

    @property
    def reason(self) -> dict[str, Any] | None:
        """Why a failed item failed, in the API's error shape (``code``, ``message``, ``details``)."""
        if self.error is None:
            return None
        return {"code": self.error.code, "message": self.error.message, "details": self.error.details}
