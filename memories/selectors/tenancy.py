"""Reads over tenants and the scope tree. Every function takes the tenant explicitly."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from memories.keys import validate_key
from memories.models import PROJECT_LEVEL, Member, Scope, Tenant
from orgmemory.errors import NotFound, ValidationFailed


def scope_chain_cte(*, extra_columns: tuple[str, ...] = (), member: bool = False) -> str:
    """The one scope-chain walk, as the body of a ``WITH RECURSIVE`` clause named ``chain`` (columns ``id``,
    ``parent_id``, the ``extra_columns`` of the scope, ``depth`` from 0 at the start node). It walks *up* from one
    node, so its cost is the depth of the tree, not its size. The start is ``%(start)s`` (a scope id), or with
    ``member`` the node of the member ``%(user_id)s``; ``%(tenant)s`` bounds every step to one tenant."""
    scope = Scope._meta.db_table
    start_columns = "".join(f", s.{column}" for column in extra_columns)
    step_columns = "".join(f", p.{column}" for column in extra_columns)
    if member:
        anchor = (
            f"FROM {scope} s JOIN {Member._meta.db_table} mb ON mb.scope_id = s.id\n"
            "    WHERE mb.tenant_id = %(tenant)s AND mb.user_id = %(user_id)s AND s.tenant_id = %(tenant)s"
        )
    else:
        anchor = f"FROM {scope} s\n    WHERE s.id = %(start)s AND s.tenant_id = %(tenant)s"
    return (
        f"chain AS (\n    SELECT s.id, s.parent_id{start_columns}, 0 AS depth\n    {anchor}\n  UNION ALL\n"
        f"    SELECT p.id, p.parent_id{step_columns}, c.depth + 1\n"
        f"    FROM {scope} p JOIN chain c ON p.id = c.parent_id\n"
        "    WHERE p.tenant_id = %(tenant)s AND c.depth < 64\n)\n"
    )


def _chain_sql(*, member: bool) -> str:
    table = Scope._meta.db_table
    return (
        f"WITH RECURSIVE {scope_chain_cte(member=member)}"
        f"SELECT s.* FROM chain JOIN {table} s ON s.id = chain.id ORDER BY chain.depth"
    )


def tenant_get(*, slug: str) -> Tenant:
    try:
        return Tenant.objects.get(slug=slug)
    except Tenant.DoesNotExist:
        raise NotFound(f"unknown tenant {slug!r}", code="unknown_tenant")


def member_get(*, tenant: Tenant, user_id: str) -> Member | None:
    return Member.objects.for_tenant(tenant).select_related("scope").filter(user_id=user_id).first()


def scope_chain_for(*, tenant: Tenant, user_id: str) -> list[Scope]:
    """The user's own scope node and all its ancestors, leaf first, in one query. [] for an unknown user."""
    return list(Scope.objects.raw(_chain_sql(member=True), {"tenant": tenant.pk, "user_id": user_id}))


def scope_chain_for_scope(*, tenant: Tenant, scope: Scope | int) -> list[Scope]:
    """A node and all its ancestors, leaf first, in one query ([] when the node is not the tenant's)."""
    start = scope.pk if isinstance(scope, Scope) else scope
    return list(Scope.objects.raw(_chain_sql(member=False), {"tenant": tenant.pk, "start": start}))


def scope_get_by_tag(*, tenant: Tenant, tag: str) -> Scope:
    """Resolve ``level:key`` within the tenant; a clear error for a malformed or unknown tag."""
    level, sep, key = tag.partition(":")
    if not sep or not level or not key:
        raise ValidationFailed(f"scope {tag!r} must be a tag `level:key`, e.g. team:platform", code="invalid_scope")
    if level == PROJECT_LEVEL:
        raise ValidationFailed(
            "a project is not a scope tag: name it with `project` (and its owner node as `scope`)",
            code="invalid_scope",
        )
    scope = Scope.objects.for_tenant(tenant).filter(level=level, key=key).first()
    if scope is None:
        raise NotFound(f"unknown scope {tag!r}", code="unknown_scope")
    return scope


def project_name_clean(project: object) -> str | None:
    """None for no project (None or ""); the name for a well-formed one; 400 ``invalid_project`` otherwise."""
    if project is None or project == "":
        return None
    if not isinstance(project, str):
        raise ValidationFailed("project must be a string", code="invalid_project", details={"project": ["invalid"]})
    try:
        return validate_key(project, field="project")
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, code="invalid_project", details=exc.details) from None


def project_nodes(*, tenant: Tenant, chain_ids: list[int], project: str) -> list[Scope]:
    """The nodes of project ``project`` that hang under a node of the chain (a user's own project and their
    teams' projects of that name), in one query. 404 ``unknown_project`` when there is none: naming a project
    never silently widens nor silently empties a read or a delete."""
    nodes = list(
        Scope.objects.for_tenant(tenant)
        .filter(level=PROJECT_LEVEL, key=project, parent_id__in=chain_ids)
        .order_by("id")
    )
    if not nodes:
        raise NotFound(f"unknown project {project!r} on this user's scope chain", code="unknown_project")
    return nodes


def scope_subtree(*, tenant: Tenant, scope: Scope, include_self: bool = True) -> QuerySet[Scope]:
    """The node and every node below it (depth-first), restricted to the tenant inside the tree CTE."""
    return (
        Scope.objects.with_tree_fields()
        .tree_filter(tenant=tenant)
        .order_siblings_by("key")
        .descendants(scope, include_self=include_self)
    )


def scope_tree_with_member_counts(*, tenant: Tenant) -> list[Scope]:
    """Every node of the tenant depth-first, each with ``tree_depth`` and ``member_count`` (members in its subtree)."""
    nodes = list(Scope.objects.with_tree_fields().tree_filter(tenant=tenant).order_siblings_by("key"))
    direct = dict(
        Member.objects.for_tenant(tenant)
        .values_list("scope__parent_id")
        .annotate(n=Count("id"))
        .values_list("scope__parent_id", "n")
    )
    totals: dict[int, int] = {}
    for node in nodes:
        for ancestor_id in node.tree_path:
            totals[ancestor_id] = totals.get(ancestor_id, 0) + direct.get(node.pk, 0)
    for node in nodes:
        node.member_count = totals.get(node.pk, 0)
    return nodes
