"""Where a memory goes: the target scope with the author's right to write there (scope chain and policy), and
the expiry its tenant's retention policy gives it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction

from memories.models import PROJECT_LEVEL, Scope, Tenant
from memories.selectors.tenancy import project_name_clean, scope_chain_for_scope, scope_get_by_tag
from memories.services.memory.types import Author
from memories.services.memory.validation import _check_size
from memories.services.tenancy import policy_effective
from orgmemory.errors import NotFound, PermissionDenied, ValidationFailed


def memory_scope_resolve(
    *,
    tenant: Tenant,
    author: Author,
    scope: Scope | str | dict | None,
    project: str | None = None,
    create_project: bool | str = False,
    content: str | None = None,
) -> tuple[Scope, dict[str, Any]]:
    """The target scope and its effective policy, with the author's right to write there checked (and, given
    ``content``, its size against the policy).

    With ``project`` the target is that project's node under the resolved scope (its owner, a user or team node):
    created on a write (``create_project``) once every check has passed — or, with ``create_project="deferred"``,
    returned unsaved for the caller to save inside its own transaction (:func:`project_node_save`) — else 404
    ``unknown_project``. The right to write is the owner's: its place on the agent's chain and the level policy
    lets agents write at; the policy is the owner's chain's (a project holds no policy of its own). An agent acting
    on a memory that lives in a project must name that project (403 ``project_required``): nothing without a
    project touches one.
    """
    project = project_name_clean(project)
    target = _scope_target(tenant=tenant, author=author, scope=scope)
    if target.is_project:
        if project is not None and project != target.key:
            raise NotFound(f"the memory is not in project {project!r}", code="unknown_project")
        if project is None and author.kind == "agent":
            raise PermissionDenied(
                f"this memory belongs to project {target.key!r}: name the project to change it", code="project_required"
            )
        owner, project = target.parent, None
    else:
        owner = target
    if project is not None and owner.level not in tenant.project_owner_levels:
        raise ValidationFailed(
            f"a project hangs under a {' or '.join(tenant.project_owner_levels)} node, not under {owner.tag}",
            code="invalid_project",
            details={"project": [project]},
        )
    policy = policy_effective(tenant=tenant, chain=scope_chain_for_scope(tenant=tenant, scope=owner))
    if author.kind == "agent":
        if author.member is None:
            raise ValidationFailed("an agent write needs a user_id", code="user_required")
        member_chain_ids = {node.pk for node in scope_chain_for_scope(tenant=tenant, scope=author.member.scope)}
        if owner.pk not in member_chain_ids:
            raise PermissionDenied(
                f"{author.member.user_id} cannot write at {owner.tag}: it is not on their scope chain",
                code="scope_not_on_chain",
            )
    allowed = (policy["writable_levels"] or {}).get(author.kind if author.kind != "import" else "admin")
    if allowed is not None and owner.level not in allowed:
        raise PermissionDenied(
            f"policy does not let {author.kind} authors write at the {owner.level} level "
            f"(allowed: {', '.join(allowed) or 'none'})",
            code="level_not_writable",
        )
    if content is not None:
        _check_size(content, policy)
    if project is not None:
        target = _project_node(tenant=tenant, owner=owner, project=project, create=create_project)
    return target, policy


def _project_node(*, tenant: Tenant, owner: Scope, project: str, create: bool | str) -> Scope:
    node = Scope.objects.filter(tenant=tenant, level=PROJECT_LEVEL, parent=owner, key=project).first()
    if node is not None:
        return node
    if not create:
        raise NotFound(f"unknown project {project!r} under {owner.tag}", code="unknown_project")
    node = Scope(tenant=tenant, level=PROJECT_LEVEL, parent=owner, key=project, name=project)
    return node if create == "deferred" else project_node_save(node)


def project_node_save(node: Scope) -> Scope:
    """Store a project node returned unsaved (``create_project="deferred"``), or take the one a concurrent first
    write stored meanwhile; sets ``node.pk`` either way (again on a retried transaction) and returns it."""
    try:  # a project exists from its first write; two first writes at once create it once
        with transaction.atomic():
            node.pk = None
            node.save(force_insert=True)
    except IntegrityError:
        node.pk = Scope.objects.get(tenant=node.tenant, level=PROJECT_LEVEL, parent=node.parent, key=node.key).pk
    return node


def _scope_target(*, tenant: Tenant, author: Author, scope: Scope | str | dict | None) -> Scope:
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
    return target


def _expiry(*, policy: dict[str, Any], kind: str, level: str, now: datetime) -> datetime | None:
    retention = policy.get("retention_days") or {}
    days = retention.get(kind, retention.get(level))
    return now + timedelta(days=int(days)) if days else None
