"""Onboarding an org chart onto a tenant: the dry-run diff and the HR re-sync steps.

``onboarding_diff`` says what ``tenant_onboard`` would do to the tenant as it is now — scopes and members to
create / rename / move / remove, policy fields changed, API keys to create, leavers — and how many memories each
action touches (every row counts, older superseded versions included). ``tenant_onboard`` computes the same diff
inside its transaction, after locking the tenant, and applies it; given the fingerprint of a diff an admin
reviewed, it refuses (:class:`StaleDiff`) when the tenant changed since.

A re-sync (``sync=True``) also treats what the chart no longer lists as gone: a member missing from the chart is
a **leaver**, handled by an explicit choice each — ``erase`` (the erasure service: everything at their node and
everything they authored anywhere) or ``keep`` (the memories they authored at team or higher scopes stay, with
the author removed; their own node and its private memories go) — and a node missing from the chart is removed;
one holding memories is removed only when the caller confirms the deletion of those memories. A member who moves
keeps their node: their private memories move with them, the team memories they wrote stay with the team.

Modules: ``types`` (the diff as data, the limits and choices), ``diff`` (computing it), ``resync`` (leavers and
removed nodes), ``apply`` (``tenant_onboard``), ``text`` (the diff as lines). Callers import from here.
"""

from memories.services.onboarding.apply import OnboardResult, tenant_onboard
from memories.services.onboarding.diff import onboarding_diff, onboarding_diff_locked
from memories.services.onboarding.resync import onboarding_check_choices, onboarding_sync_apply
from memories.services.onboarding.text import onboarding_diff_lines
from memories.services.onboarding.types import (
    CHART_MAX_BYTES,
    FORMER_MEMBER,
    LEAVER_CHOICES,
    LEAVER_ERASE,
    LEAVER_KEEP,
    KeyCreate,
    Leaver,
    MemberAdd,
    MemberMove,
    OnboardingDiff,
    PolicyChange,
    ScopeCreate,
    ScopeMove,
    ScopeRemove,
    ScopeRename,
    StaleDiff,
)

__all__ = [
    "CHART_MAX_BYTES",
    "FORMER_MEMBER",
    "LEAVER_CHOICES",
    "LEAVER_ERASE",
    "LEAVER_KEEP",
    "KeyCreate",
    "Leaver",
    "MemberAdd",
    "MemberMove",
    "OnboardResult",
    "OnboardingDiff",
    "PolicyChange",
    "ScopeCreate",
    "ScopeMove",
    "ScopeRemove",
    "ScopeRename",
    "StaleDiff",
    "onboarding_check_choices",
    "onboarding_diff",
    "onboarding_diff_lines",
    "onboarding_diff_locked",
    "onboarding_sync_apply",
    "tenant_onboard",
]
