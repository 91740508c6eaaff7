"""Who is calling and what they may do: the member an agent acts for (with their scope chain), resolved from the
API key and the ``user_id``; the key's own limits on writes; the author a write is made as.

One set of rules for every way in: the REST API's base view, the MCP server and the admin's search playground call
these functions (docs/ARCHITECTURE.md, "Who may change what").
"""

from __future__ import annotations

from dataclasses import dataclass

from memories.keys import validate_key
from memories.models import ApiKey, Member, Scope, Tenant
from memories.selectors import member_get, project_name_clean, project_nodes, scope_chain_for_scope, scope_get_by_tag
from memories.services.memory.types import Author
from memories.services.tenancy import policy_effective
from orgmemory.errors import NotFound, PermissionDenied, ValidationFailed


@dataclass(frozen=True)
class Caller:
    """The member an agent acts for and their scope chain (leaf first): what they may see. ``project`` is the
    project the request names (cleaned; None for none).

    A member the tenant auto-provisions is returned *pending*: an unsaved member at an unsaved node under the
    policy's default node. Nothing is stored here: the write service creates them inside the write's own
    transaction, which any refusal rolls back, so a refused write leaves no member behind."""

    member: Member
    chain: tuple[Scope, ...]
    project: str | None = None

    @property
    def chain_ids(self) -> list[int]:
        return [scope.pk for scope in self.chain if scope.pk is not None]

    @property
    def pending(self) -> bool:
        """A member to be provisioned by the write that needs them (nothing stored yet)."""
        return self.member.pk is None


def caller_resolve(
    *,
    tenant: Tenant,
    api_key: ApiKey | None,
    user_id: str,
    project: object = None,
    provision: bool = False,
) -> Caller:
    """The member ``user_id`` of ``tenant`` and their chain, as ``api_key`` may act for them (``api_key`` None: an
    admin of the tenant, e.g. the playground).

    Unknown → 404 ``unknown_user``; with ``provision``, a tenant-wide key and a policy that auto-provisions users,
    a pending member instead (see :class:`Caller`). A key restricted to a subtree acts only for members inside it:
    anyone else, known or not, is the same 403 ``scope_restricted`` (it must not learn who exists outside its
    subtree), and it never provisions. ``project`` is checked for form only (400 ``invalid_project``): a write may
    create it, a read resolves it with :func:`caller_scope_ids`."""
    validate_key(user_id, field="user_id")
    project_name = project_name_clean(project)
    restricted = api_key is not None and api_key.scope_id is not None
    member = member_get(tenant=tenant, user_id=user_id)
    if member is not None:
        chain = tuple(scope_chain_for_scope(tenant=tenant, scope=member.scope))
    elif provision and not restricted:
        member, chain = _pending_member(tenant=tenant, user_id=user_id)
    else:
        chain = ()
    if restricted and api_key.scope_id not in {scope.pk for scope in chain}:
        raise PermissionDenied(
            f"This API key is restricted to {api_key.scope.tag}; it cannot act for {user_id!r}.",
            code="scope_restricted",
        )
    if member is None:
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    return Caller(member=member, chain=chain, project=project_name)


def _pending_member(*, tenant: Tenant, user_id: str) -> tuple[Member | None, tuple[Scope, ...]]:
    """The member auto-provisioning would create (unsaved) and their chain, or (None, ()) when the policy does not
    provision. The same rules as :func:`memories.services.tenancy.member_provision`, which stores them."""
    policy = policy_effective(tenant=tenant, chain=[])
    if not policy["auto_provision_users"]:
        return None, ()
    parent = policy["default_scope"] or Scope.objects.for_tenant(tenant).filter(parent__isnull=True).first()
    if parent is None:
        raise ValidationFailed("the tenant has no scope tree to provision users into", code="no_scope_tree")
    node = Scope(tenant=tenant, level=tenant.user_level, key=user_id, name=user_id, parent=parent)
    return Member(tenant=tenant, user_id=user_id, scope=node), (
        node,
        *scope_chain_for_scope(tenant=tenant, scope=parent),
    )


def caller_check_may_act_for(*, tenant: Tenant, api_key: ApiKey, user_id: str) -> None:
    """For reads whose service resolves the member itself (search, recall): only a key restricted to a subtree
    needs the member and their chain here (403 ``scope_restricted`` first, as :func:`caller_resolve`); a
    tenant-wide key spends no statement on it."""
    validate_key(user_id, field="user_id")
    if api_key.scope_id is not None:
        caller_resolve(tenant=tenant, api_key=api_key, user_id=user_id)


def caller_project_nodes(*, tenant: Tenant, caller: Caller) -> list[Scope]:
    """The nodes of the caller's project under their chain ([] when none is named; 404 ``unknown_project`` when
    the chain has none)."""
    if caller.project is None:
        return []
    return project_nodes(tenant=tenant, chain_ids=caller.chain_ids, project=caller.project)


def caller_scope_ids(*, tenant: Tenant, caller: Caller) -> list[int]:
    """The scopes a request acting for ``caller`` sees: their chain, plus their project's nodes under it."""
    return caller.chain_ids + [node.pk for node in caller_project_nodes(tenant=tenant, caller=caller)]


def key_writable_scope(*, tenant: Tenant, api_key: ApiKey, tag: str | None) -> Scope | None:
    """Resolve a scope tag named for a write or delete (None when no tag; 404 ``unknown_scope``) and check the key
    may change it; whether the user may write there is the write services' decision."""
    if not tag:
        return None
    scope = scope_get_by_tag(tenant=tenant, tag=tag)
    key_check_may_write(tenant=tenant, api_key=api_key, scope=scope)
    return scope


def key_check_may_write(*, tenant: Tenant, api_key: ApiKey, scope: Scope) -> None:
    """A key restricted to a subtree writes and deletes only inside it (it still reads the whole chain)."""
    if api_key.scope_id is None:
        return
    if api_key.scope_id not in {node.pk for node in scope_chain_for_scope(tenant=tenant, scope=scope)}:
        raise PermissionDenied(
            f"This API key is restricted to {api_key.scope.tag}; it cannot change {scope.tag}.",
            code="scope_restricted",
        )


def key_is_curator(api_key: ApiKey) -> bool:
    """A key with the ``admin`` permission may also change admin-curated policies."""
    return "admin" in (api_key.permissions or [])


def author_for(*, caller: Caller, api_key: ApiKey) -> Author:
    """The agent author of a write made through ``api_key`` for ``caller`` (a pending member is stored by the write
    service, inside the write's transaction)."""
    return Author(kind="agent", member=caller.member, curator=key_is_curator(api_key), key_name=api_key.name)
