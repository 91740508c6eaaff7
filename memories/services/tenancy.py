"""Tenancy writes: API keys, member provisioning, effective policies. (Onboarding an org chart, which also erases
and deletes through the memory services, is ``memories.services.onboarding``.)"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from memories.keys import validate_key
from memories.models import ApiKey, Member, Policy, Scope, Tenant
from memories.orgchart import PERMISSIONS
from memories.policy_rules import policy_field_errors
from orgmemory.errors import NotFound, ValidationFailed
from orgmemory.rows import ModelColumns, build_all, select_list

logger = logging.getLogger(__name__)

KEY_PREFIX = "om"
LAST_USED_RESOLUTION = timedelta(minutes=1)  # write last_used_at at most once a minute per key
# the key with its tenant and its scope (None: the whole tenant), as select_related("tenant", "scope") gives them
_KEY, _KEY_TENANT, _KEY_SCOPE = ModelColumns(ApiKey, "k"), ModelColumns(Tenant, "t"), ModelColumns(Scope, "s")
_KEY_HASH_INDEX = _KEY.attnames.index("key_hash")
_KEY_LOOKUP_SQL = f"""SELECT {select_list(_KEY, _KEY_TENANT, _KEY_SCOPE)}
    FROM memories_apikey k
    JOIN memories_tenant t ON t.id = k.tenant_id
    LEFT JOIN memories_scope s ON s.id = k.scope_id AND s.tenant_id = k.tenant_id
    WHERE k.prefix = %s"""

POLICY_DEFAULTS: dict[str, Any] = {
    "writable_levels": {"agent": ["user", "team"], "admin": None},  # None: every level
    "auto_provision_users": False,
    "max_content_bytes": 32 * 1024,
    "tier_boost": {},
    "retention_days": {},
    "glossary": {},
}
_POLICY_FIELDS = tuple(POLICY_DEFAULTS)


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
    with connection.cursor() as cursor:  # every API request: a statement written once (orgmemory.rows)
        cursor.execute(_KEY_LOOKUP_SQL, [parts[1]])
        rows = cursor.fetchall()
    key = None
    for row in rows:
        if hmac.compare_digest(row[_KEY_HASH_INDEX], digest):
            key, key.tenant, key.scope = build_all(row, _KEY, _KEY_TENANT, _KEY_SCOPE)
            break
    if key is None or key.revoked_at is not None:
        return None
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
    return key
