"""Where a memory goes: the target scope with the author's right to write there (scope chain and policy), and
the expiry its tenant's retention policy gives it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from memories.models import Scope, Tenant
from memories.selectors.tenancy import scope_chain_for_scope, scope_get_by_tag
from memories.services.memory.types import Author
from memories.services.tenancy import policy_effective
from orgmemory.errors import NotFound, PermissionDenied, ValidationFailed


def memory_scope_resolve(
    *, tenant: Tenant, author: Author, scope: Scope | str | dict | None
) -> tuple[Scope, dict[str, Any]]:
    """The target scope and its effective policy, with the author's right to write there checked."""
    if scope is None or scope == "":
        if author.member is None:
            raise ValidationFailed("scope is required when no user_id is given", code="scope_required")
        target = author.member.scope
    elif isinstance(scope, Scope):
        if scope.tenant_id != tenant.pk:
            raise NotFound("unknown scope", code="unknown_scope")
        target = scope
    elif isinstance(scope, dict):
        target = scope_get_by_tag(tenant=tenant, tag=f"{scope.get('level', '')}:{scope.get('key', '')}")
    else:
        target = scope_get_by_tag(tenant=tenant, tag=str(scope))
    chain = scope_chain_for_scope(tenant=tenant, scope=target)
    policy = policy_effective(tenant=tenant, chain=chain)
    if author.kind == "agent":
        if author.member is None:
            raise ValidationFailed("an agent write needs a user_id", code="user_required")
        member_chain_ids = {node.pk for node in scope_chain_for_scope(tenant=tenant, scope=author.member.scope)}
        if target.pk not in member_chain_ids:
            raise PermissionDenied(
                f"{author.member.user_id} cannot write at {target.tag}: it is not on their scope chain",
                code="scope_not_on_chain",
            )
    allowed = (policy["writable_levels"] or {}).get(author.kind if author.kind != "import" else "admin")
    if allowed is not None and target.level not in allowed:
        raise PermissionDenied(
            f"policy does not let {author.kind} authors write at the {target.level} level "
            f"(allowed: {', '.join(allowed) or 'none'})",
            code="level_not_writable",
        )
    return target, policy


def _expiry(*, policy: dict[str, Any], kind: str, level: str, now: datetime) -> datetime | None:
    retention = policy.get("retention_days") or {}
    days = retention.get(kind, retention.get(level))
    return now + timedelta(days=int(days)) if days else None
