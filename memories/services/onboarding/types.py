"""What an onboarding run does, as data: :class:`OnboardingDiff` and its rows, the leaver choices, the limits."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from orgmemory.errors import Conflict

CHART_MAX_BYTES = 2 * 1024 * 1024
LEAVER_ERASE = "erase"
LEAVER_KEEP = "keep"
LEAVER_CHOICES = (LEAVER_ERASE, LEAVER_KEEP)
#: The author shown on a kept leaver's memories: no name, so nothing personal outlives them there.
FORMER_MEMBER = "(former member)"


class StaleDiff(Conflict):
    """The tenant changed between the dry run an admin reviewed and the apply: nothing was written."""

    code = "stale_diff"


# --- the diff ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScopeCreate:
    tag: str
    name: str
    parent: str | None


@dataclass(frozen=True)
class ScopeRename:
    tag: str
    old_name: str
    new_name: str


@dataclass(frozen=True)
class ScopeMove:
    tag: str
    old_parent: str | None
    new_parent: str | None
    memories: int  # rows in the moved subtree: they stay on it, and its new ancestors' members now read them


@dataclass(frozen=True)
class ScopeRemove:
    tag: str
    name: str
    memories: int  # rows at this node, with the older versions they superseded: deleted with it
    api_keys: int  # keys restricted to this node: deleted with it
    policies: int  # the policy override on this node: deleted with it
    scope_id: int = field(default=0, compare=False)  # the node (a project node's tag is not unique in a tenant)


@dataclass(frozen=True)
class MemberAdd:
    user_id: str
    parent: str


@dataclass(frozen=True)
class MemberMove:
    user_id: str
    old_parent: str
    new_parent: str
    own_memories: int  # rows at their own node (and below): they move with them
    team_memories: int  # rows they authored at other nodes (team and above): they stay where they are


@dataclass(frozen=True)
class Leaver:
    user_id: str
    parent: str
    own_memories: int  # rows at their own node and below it
    authored_memories: int  # rows they authored at other nodes
    erase_deletes: int  # what ``erase`` deletes: both of the above with the older versions they superseded
    keep_deletes: int  # what ``keep`` deletes: their own node's rows with their older versions
    keep_deattributes: int  # what ``keep`` keeps, with the author removed
    api_keys: int  # keys restricted to their node: deleted either way
    policies: int  # policy overrides on their node: deleted either way


@dataclass(frozen=True)
class PolicyChange:
    field: str
    old: Any  # None when the tenant has no policy yet
    new: Any


@dataclass(frozen=True)
class KeyCreate:
    name: str
    permissions: tuple[str, ...]
    scope: str | None


@dataclass
class OnboardingDiff:
    """What applying one chart to one tenant does. ``fingerprint`` changes whenever the tenant's structure or
    any figure here changes, which is how an apply knows the diff it was given is still the truth."""

    tenant: str
    tenant_name: str
    levels: list[str]
    sync: bool
    tenant_exists: bool
    tenant_renamed: tuple[str, str] | None = None
    levels_changed: tuple[list[str], list[str]] | None = None
    scopes_created: list[ScopeCreate] = field(default_factory=list)
    scopes_renamed: list[ScopeRename] = field(default_factory=list)
    scopes_moved: list[ScopeMove] = field(default_factory=list)
    scopes_removed: list[ScopeRemove] = field(default_factory=list)  # deepest first: the order they are removed
    members_added: list[MemberAdd] = field(default_factory=list)
    members_moved: list[MemberMove] = field(default_factory=list)
    leavers: list[Leaver] = field(default_factory=list)
    policies: list[PolicyChange] = field(default_factory=list)
    api_keys: list[KeyCreate] = field(default_factory=list)
    # without ``sync``: what the chart does not list, left as it is
    untouched_scopes: list[str] = field(default_factory=list)
    untouched_members: list[str] = field(default_factory=list)
    state: str = ""  # digest of the tenant's structure when the diff was made

    @property
    def changed(self) -> bool:
        return bool(
            not self.tenant_exists
            or self.tenant_renamed
            or self.levels_changed
            or self.scopes_created
            or self.scopes_renamed
            or self.scopes_moved
            or self.scopes_removed
            or self.members_added
            or self.members_moved
            or self.leavers
            or self.policies
            or self.api_keys
        )

    @property
    def removed_scope_memories(self) -> int:
        """Memories deleted with removed nodes: the apply needs the caller's confirmation when this is not 0."""
        return sum(removal.memories for removal in self.scopes_removed)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True, default=str).encode()).hexdigest()
