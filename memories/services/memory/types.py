"""Who writes a memory (:class:`Author`) and what a write returns (:class:`WriteResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memories.models import Member, Memory


@dataclass(frozen=True)
class Author:
    """Who writes: an agent acting for a member, an admin user, or an operator import."""

    kind: str  # "agent" | "admin" | "import"
    member: Member | None = None
    user: Any = None
    label: str = ""
    curator: bool = False  # an agent whose key has the `admin` permission: may change admin-curated policies

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
    memory: Memory
    created: bool
    deduplicated: bool = False
    supersedes: int | None = None
    warnings: list[dict[str, Any]] = field(default_factory=list)
