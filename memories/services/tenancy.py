"""Tenancy writes: onboarding an org chart, API keys, member provisioning, effective policies."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from memories.keys import validate_key
from memories.models import ApiKey, Member, Policy, Scope, Tenant
from memories.orgchart import PERMISSIONS, OrgChartError, OrgChartPlan
from memories.policy_rules import policy_field_errors
from orgmemory.errors import NotFound, ValidationFailed

logger = logging.getLogger(__name__)

KEY_PREFIX = "om"
LAST_USED_RESOLUTION = timedelta(minutes=1)  # write last_used_at at most once a minute per key

POLICY_DEFAULTS: dict[str, Any] = {
    "writable_levels": {"agent": ["user", "team"], "admin": None},  # None: every level
    "auto_provision_users": False,
    "max_content_bytes": 32 * 1024,
    "tier_boost": {},
    "retention_days": {},
    "glossary": {},
}
_POLICY_FIELDS = tuple(POLICY_DEFAULTS)


# --- onboarding -------------------------------------------------------------------------------------------------


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
    # imported here: the onboarding module uses the erasure and write services, which import this module
    from memories.services.onboarding import (
        StaleDiff,
        onboarding_check_choices,
        onboarding_diff_locked,
        onboarding_sync_apply,
    )

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
            _apply_plan(plan, result)
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


def _apply_plan(plan: OrgChartPlan, result: OnboardResult) -> None:
    tenant = Tenant.objects.select_for_update().filter(slug=plan.tenant_slug).first()
    levels = list(plan.levels)
    if tenant is None:
        tenant = Tenant(slug=plan.tenant_slug, name=plan.tenant_name, levels=levels)
        tenant.full_clean()
        tenant.save()
        result.created["tenant"] += 1
        result.changes.append(f"tenant {tenant.slug} created")
    elif tenant.name != plan.tenant_name or tenant.levels != levels:
        stray = Scope.objects.for_tenant(tenant).exclude(level__in=levels).values_list("level", flat=True).first()
        if stray:
            raise OrgChartError(f"levels: existing nodes use level {stray!r}, which the new `levels` drops")
        tenant.name, tenant.levels = plan.tenant_name, levels
        tenant.save(update_fields=["name", "levels"])
        result.updated["tenant"] += 1
        result.changes.append(f"tenant {tenant.slug} renamed or re-levelled")
    else:
        result.unchanged["tenant"] += 1

    existing = {(s.level, s.key): s for s in Scope.objects.for_tenant(tenant)}
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


def _member_create(*, tenant: Tenant, user_id: str, parent: Scope, user_level: str) -> Member:
    scope = Scope(tenant=tenant, level=user_level, key=user_id, name=user_id, parent=parent)
    scope.full_clean()
    scope.save()
    member = Member(tenant=tenant, user_id=user_id, scope=scope)
    member.full_clean()
    member.save()
    return member


@transaction.atomic
def member_provision(*, tenant: Tenant, user_id: str) -> Member:
    """Return the member for ``user_id``, creating it when the tenant's policy auto-provisions unknown users
    (under the policy's default node, else the root). Refused → NotFound ``unknown_user``."""
    validate_key(user_id, field="user_id")
    member = Member.objects.for_tenant(tenant).select_related("scope").filter(user_id=user_id).first()
    if member is not None:
        return member
    policy = policy_effective(tenant=tenant, chain=[])
    if not policy["auto_provision_users"]:
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    parent = policy["default_scope"] or Scope.objects.for_tenant(tenant).filter(parent__isnull=True).first()
    if parent is None:
        raise ValidationFailed("the tenant has no scope tree to provision users into", code="no_scope_tree")
    try:
        with transaction.atomic():
            return _member_create(tenant=tenant, user_id=user_id, parent=parent, user_level=tenant.user_level)
    except (IntegrityError, DjangoValidationError):
        # a concurrent first request for the same user created them first (full_clean's uniqueness check saw it,
        # or the unique constraint made us wait for its commit): use theirs
        member = Member.objects.for_tenant(tenant).select_related("scope").filter(user_id=user_id).first()
        if member is None:
            raise
        return member


# --- policies ---------------------------------------------------------------------------------------------------


def policy_fold(*, tenant: Tenant, layers: Sequence[tuple[Any, Mapping[str, Any]]]) -> dict[str, Any]:
    """POLICY_DEFAULTS with each layer's fields laid on top, in order (tenant default, then the chain root to
    leaf). ``layers`` are ``(label, {field: value})``; a field a layer leaves null inherits, and a stored value that
    breaks the rules is skipped with a warning naming ``label``. One fold for every reader of policies (the write
    path here, the search's one-statement context in ``retrieval.selectors``)."""
    effective: dict[str, Any] = dict(POLICY_DEFAULTS)
    for label, values in layers:
        for name, value in values.items():
            if name not in POLICY_DEFAULTS or value is None:
                continue
            reasons = policy_field_errors(name, value, levels=tenant.levels or [])
            if reasons:
                # Saving validates; a row that breaks the rules anyway (older data, SQL) is skipped, so the field
                # inherits instead of failing every search and write of the tenant.
                logger.warning(
                    "policy %s of tenant %s: ignoring invalid %s (%s)", label, tenant.slug, name, "; ".join(reasons)
                )
                continue
            effective[name] = value
    return effective


def policy_effective(*, tenant: Tenant, chain: list[Scope]) -> dict[str, Any]:
    """The tenant policy with each scope override on ``chain`` (leaf first) applied root-to-leaf; fields an
    override leaves null inherit. Always has every key of POLICY_DEFAULTS plus ``default_scope``."""
    scope_ids = [scope.pk for scope in chain]
    policies = Policy.objects.for_tenant(tenant).filter(Q(scope__isnull=True) | Q(scope_id__in=scope_ids))
    rows = {policy.scope_id: policy for policy in policies.select_related("default_scope")}
    ordered = [
        policy for policy in [rows.get(None), *(rows.get(scope_id) for scope_id in reversed(scope_ids))] if policy
    ]
    effective = policy_fold(
        tenant=tenant,
        layers=[(policy.pk, {name: getattr(policy, name) for name in _POLICY_FIELDS}) for policy in ordered],
    )
    effective["default_scope"] = None
    for policy in ordered:
        default_scope = policy.default_scope if policy.default_scope_id else None
        if (
            default_scope is not None
            and default_scope.tenant_id == tenant.pk
            and default_scope.level != tenant.user_level
        ):
            effective["default_scope"] = default_scope
    return effective


# --- API keys ---------------------------------------------------------------------------------------------------


def _hash_key(plain: str) -> str:
    # Keys carry 256 bits of randomness, so a fast hash is enough: nothing to brute-force.
    return hashlib.sha256(plain.encode()).hexdigest()


@transaction.atomic
def api_key_create(
    *, tenant: Tenant, name: str, permissions: list[str], scope: Scope | None = None
) -> tuple[ApiKey, str]:
    """Create a key and return it with its plain text (shown once; only the hash is stored)."""
    bad = set(permissions).difference(PERMISSIONS)
    if bad or not permissions:
        raise ValidationFailed(f"permissions must be a non-empty subset of read, write, delete, admin: {sorted(bad)}")
    if scope is not None and scope.tenant_id != tenant.pk:
        raise NotFound("unknown scope", code="unknown_scope")
    prefix = secrets.token_hex(4)
    plain = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    key = ApiKey(
        tenant=tenant,
        name=name,
        prefix=prefix,
        key_hash=_hash_key(plain),
        permissions=sorted(set(permissions)),
        scope=scope,
    )
    key.full_clean()
    key.save()
    return key, plain


def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at"])
    return api_key


def api_key_authenticate(*, plain: str) -> ApiKey | None:
    """The active key matching ``plain`` (constant-time hash comparison), or None. Touches ``last_used_at`` at
    most once a minute so that authentication is not a write per request."""
    parts = plain.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX or len(parts[1]) != 8:
        return None
    # the prefix is unique per tenant (the Citus-ready key): compare every candidate's hash
    digest = _hash_key(plain)
    candidates = ApiKey.objects.select_related("tenant", "scope").filter(prefix=parts[1])
    key = next((k for k in candidates if hmac.compare_digest(k.key_hash, digest)), None)
    if key is None or key.revoked_at is not None:
        return None
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
    return key
