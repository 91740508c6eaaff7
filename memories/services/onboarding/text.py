"""The diff as plain lines, for the ``onboard_tenant`` command."""

from __future__ import annotations

import json
from typing import Any

from memories.services.onboarding.types import OnboardingDiff


def onboarding_diff_lines(diff: OnboardingDiff) -> list[str]:
    """The diff as plain lines (the command prints them; the admin shows the same content as tables)."""
    lines = []
    if not diff.tenant_exists:
        lines.append(f"create tenant {diff.tenant} ({diff.tenant_name}), levels {' › '.join(diff.levels)}")
    if diff.tenant_renamed:
        lines.append(f"rename tenant: {diff.tenant_renamed[0]!r} → {diff.tenant_renamed[1]!r}")
    if diff.levels_changed:
        lines.append(f"levels: {' › '.join(diff.levels_changed[0])} → {' › '.join(diff.levels_changed[1])}")
    lines += [f"create scope {s.tag} ({s.name}) under {s.parent or 'the root'}" for s in diff.scopes_created]
    lines += [f"rename scope {s.tag}: {s.old_name!r} → {s.new_name!r}" for s in diff.scopes_renamed]
    lines += [
        f"move scope {s.tag}: {s.old_parent or 'root'} → {s.new_parent or 'root'} ({s.memories} memories below it)"
        for s in diff.scopes_moved
    ]
    lines += [f"add member {m.user_id} under {m.parent}" for m in diff.members_added]
    lines += [
        f"move member {m.user_id}: {m.old_parent} → {m.new_parent} ({m.own_memories} own memories move with them, "
        f"{m.team_memories} authored team memories stay)"
        for m in diff.members_moved
    ]
    lines += [
        f"leaver {leaver.user_id} (under {leaver.parent}): erase deletes {leaver.erase_deletes} memories; keep "
        f"deletes {leaver.keep_deletes} at their own node and keeps {leaver.keep_deattributes} de-attributed"
        for leaver in diff.leavers
    ]
    lines += [
        f"remove scope {s.tag}: deletes {s.memories} memories, {s.api_keys} API keys, {s.policies} policy overrides"
        for s in diff.scopes_removed
    ]
    lines += [f"policy {p.field}: {_show(p.old)} → {_show(p.new)}" for p in diff.policies]
    lines += [
        f"create API key {k.name} ({', '.join(k.permissions)}" + (f", limited to {k.scope})" if k.scope else ")")
        for k in diff.api_keys
    ]
    if diff.untouched_members or diff.untouched_scopes:
        lines.append(
            f"not in the chart, left alone (--sync would remove them): "
            f"{len(diff.untouched_members)} members, {len(diff.untouched_scopes)} scopes"
        )
    return lines


def _show(value: Any) -> str:
    return "—" if value is None else json.dumps(value, sort_keys=True)
