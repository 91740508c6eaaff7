"""``tenant_onboard``: apply a chart to a tenant in one transaction, through the diff computed under its lock."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from memories.models import PROJECT_LEVEL, ApiKey, Member, Policy, Scope, Tenant
from memories.orgchart import OrgChartError, OrgChartPlan
from memories.services.onboarding.diff import onboarding_diff_locked
from memories.services.onboarding.resync import onboarding_check_choices, onboarding_sync_apply
from memories.services.onboarding.types import StaleDiff
from memories.services.tenancy import _POLICY_FIELDS, POLICY_DEFAULTS, _member_create, api_key_create


@dataclass
class OnboardResult:
    tenant: str
    dry_run: bool
    sync: bool = False
    created: Counter = field(default_factory=Counter)
    updated: Counter = field(default_factory=Counter)
    unchanged: Counter = field(default_factory=Counter)
    removed: Counter = field(default_factory=Counter)
    api_keys: list[dict[str, str]] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    diff: Any = None  # the OnboardingDiff this run applied (or, dry, would apply)

    @property
    def changed(self) -> bool:
        return bool(sum(self.created.values()) or sum(self.updated.values()) or (self.diff and self.diff.changed))

    def as_dict(self) -> dict[str, Any]:
        kinds = ("tenant", "scopes", "members", "policies", "api_keys")
        return {
            "tenant": self.tenant,
            "dry_run": self.dry_run,
            "created": {kind: self.created[kind] for kind in kinds},
            "updated": {kind: self.updated[kind] for kind in kinds},
            "unchanged": {kind: self.unchanged[kind] for kind in kinds},
            "removed": {kind: self.removed[kind] for kind in ("scopes", "members")},
            "changes": self.changes,
            "api_keys": self.api_keys,
            "sync": self.sync,
            "diff": self.diff.as_dict() if self.diff is not None else None,
            "fingerprint": self.diff.fingerprint if self.diff is not None else None,
        }


class _DryRunRollback(Exception):
    pass


def tenant_onboard(
    *,
    plan: OrgChartPlan,
    dry_run: bool = False,
    sync: bool = False,
    leavers: Mapping[str, str] | None = None,
    delete_scope_memories: bool = False,
    expected_fingerprint: str | None = None,
) -> OnboardResult:
    """Apply an org-chart plan idempotently: create or rename nodes, move nodes and members, set the tenant
    policy, create missing API keys (their plain keys are in the result, the only time they are shown). The
    result's ``diff`` (``memories.services.onboarding.OnboardingDiff``) says what the run does, with the memories
    each action touches; it is computed after locking the tenant and its tree, in the same transaction.

    Without ``sync``, nodes and members absent from the plan are left alone. With ``sync`` (an HR re-sync), absent
    members are leavers, each handled by ``leavers[user_id]`` (``erase`` or ``keep``, required for every leaver),
    and absent nodes are removed, deepest first (those holding memories only with ``delete_scope_memories``).
    With ``expected_fingerprint`` (the fingerprint of the diff a person reviewed) a tenant that changed since is
    refused with ``StaleDiff``. A dry run checks everything the same way, then rolls back; its leavers and removals
    are reported in the diff but not run.

    All or nothing: any error rolls the whole run back.
    """

    result = OnboardResult(tenant=plan.tenant_slug, dry_run=dry_run, sync=sync)
    try:
        with transaction.atomic():
            tenant, diff = onboarding_diff_locked(plan=plan, sync=sync)
            result.diff = diff
            if expected_fingerprint is not None and expected_fingerprint != diff.fingerprint:
                raise StaleDiff(
                    f"tenant {plan.tenant_slug} changed since the dry run: review the new diff before applying",
                    details={"expected": expected_fingerprint, "now": diff.fingerprint},
                )
            choices = None
            if sync and not dry_run:
                choices = onboarding_check_choices(
                    diff=diff, leavers=leavers or {}, delete_scope_memories=delete_scope_memories
                )
            # a re-sync may drop a level together with every node at it: those nodes go after the moves
            _apply_plan(plan, result, removing={removal.tag for removal in diff.scopes_removed} if sync else set())
            if choices is not None:
                tenant = Tenant.objects.get(slug=plan.tenant_slug)
                removed = onboarding_sync_apply(tenant=tenant, diff=diff, leavers=choices)
                result.changes.extend(removed)
                result.removed["members"] += len(diff.leavers)
                result.removed["scopes"] += len(diff.scopes_removed)
            if dry_run:
                raise _DryRunRollback
    except _DryRunRollback:
        result.api_keys = [{"name": entry["name"], "key": "(dry run: not created)"} for entry in result.api_keys]
    return result


def _apply_plan(plan: OrgChartPlan, result: OnboardResult, *, removing: set[str]) -> None:
    tenant = Tenant.objects.select_for_update().filter(slug=plan.tenant_slug).first()
    levels = list(plan.levels)
    if tenant is None:
        tenant = Tenant(slug=plan.tenant_slug, name=plan.tenant_name, levels=levels)
        tenant.full_clean()
        tenant.save()
        result.created["tenant"] += 1
        result.changes.append(f"tenant {tenant.slug} created")
    elif tenant.name != plan.tenant_name or tenant.levels != levels:
        strays = (
            Scope.objects.for_tenant(tenant).exclude(level__in=[*levels, PROJECT_LEVEL]).values_list("level", "key")
        )
        stray = next((level for level, key in strays if f"{level}:{key}" not in removing), None)
        if stray:
            raise OrgChartError(f"levels: existing nodes use level {stray!r}, which the new `levels` drops")
        tenant.name, tenant.levels = plan.tenant_name, levels
        tenant.save(update_fields=["name", "levels"])
        result.updated["tenant"] += 1
        result.changes.append(f"tenant {tenant.slug} renamed or re-levelled")
    else:
        result.unchanged["tenant"] += 1

    existing = {(s.level, s.key): s for s in Scope.objects.for_tenant(tenant).exclude(level=PROJECT_LEVEL)}
    for node in plan.nodes:  # parents come before children
        parent = existing[node.parent] if node.parent else None
        scope = existing.get((node.level, node.key))
        if scope is None:
            scope = Scope(tenant=tenant, level=node.level, key=node.key, name=node.name, parent=parent)
            scope.full_clean()
            scope.save()
            existing[(node.level, node.key)] = scope
            result.created["scopes"] += 1
            result.changes.append(f"scope {scope.tag} created")
        elif scope.name != node.name or scope.parent_id != (parent.pk if parent else None):
            if scope.parent_id != (parent.pk if parent else None):
                result.changes.append(f"scope {scope.tag} moved under {parent.tag if parent else 'the root'}")
            scope.name, scope.parent = node.name, parent
            scope.full_clean()  # tree-queries' clean() refuses a move that would make a loop
            scope.save()
            result.updated["scopes"] += 1
        else:
            result.unchanged["scopes"] += 1

    members = {m.user_id: m for m in Member.objects.for_tenant(tenant).select_related("scope")}
    user_level = tenant.user_level
    for user_id, parent_tag in plan.members.items():
        parent = existing[parent_tag]
        member = members.get(user_id)
        if member is None:
            _member_create(tenant=tenant, user_id=user_id, parent=parent, user_level=user_level)
            result.created["members"] += 1
            result.changes.append(f"member {user_id} added under {parent.tag}")
        elif member.scope.parent_id != parent.pk:
            member.scope.parent = parent
            member.scope.save(update_fields=["parent"])
            result.updated["members"] += 1
            result.changes.append(f"member {user_id} moved under {parent.tag}")
        else:
            result.unchanged["members"] += 1

    _apply_policy(tenant, plan.policies, result)

    active = set(ApiKey.objects.for_tenant(tenant).filter(revoked_at__isnull=True).values_list("name", flat=True))
    for key_plan in plan.api_keys:
        if key_plan.name in active:
            result.unchanged["api_keys"] += 1
            continue
        scope = existing[key_plan.scope] if key_plan.scope else None
        _, plain = api_key_create(
            tenant=tenant, name=key_plan.name, permissions=list(key_plan.permissions), scope=scope
        )
        result.created["api_keys"] += 1
        result.api_keys.append({"name": key_plan.name, "key": plain})
        result.changes.append(f"api key {key_plan.name} created")


def _apply_policy(tenant: Tenant, policies: dict[str, Any], result: OnboardResult) -> None:
    policy = Policy.objects.filter(tenant=tenant, scope__isnull=True).first()
    wanted = {name: policies.get(name, POLICY_DEFAULTS[name]) for name in _POLICY_FIELDS}
    if policy is None:
        policy = Policy(tenant=tenant, **wanted)
        policy.full_clean()
        policy.save()
        result.created["policies"] += 1
        result.changes.append("tenant policy created")
        return
    changed = [name for name in _POLICY_FIELDS if name in policies and getattr(policy, name) != policies[name]]
    if changed:
        for name in changed:
            setattr(policy, name, policies[name])
        policy.full_clean()
        policy.save()
        result.updated["policies"] += 1
        result.changes.append(f"tenant policy updated: {', '.join(changed)}")
    else:
        result.unchanged["policies"] += 1
