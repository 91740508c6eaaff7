"""Computing the diff: what applying a chart would do to a tenant as it is now, with the memories each action
touches. Reads only; the locked variant runs inside ``tenant_onboard``'s transaction."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict

from django.db.models import Count

from memories.models import PROJECT_LEVEL, ApiKey, Member, Memory, Policy, Scope, Tenant
from memories.orgchart import OrgChartPlan
from memories.services.onboarding.types import (
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
)
from memories.services.tenancy import _POLICY_FIELDS, POLICY_DEFAULTS


def onboarding_diff(*, plan: OrgChartPlan, sync: bool = False) -> OnboardingDiff:
    """What ``tenant_onboard(plan=plan, sync=sync)`` would do to the tenant named by the chart, as it is now.
    Reads only; one query per kind of row (scopes, members, memory counts, keys, policies) plus, per leaver, the
    history of the memories an erasure would take."""
    tenant = Tenant.objects.filter(slug=plan.tenant_slug).first()
    return _diff(plan=plan, tenant=tenant, sync=sync)


def onboarding_diff_locked(*, plan: OrgChartPlan, sync: bool) -> tuple[Tenant | None, OnboardingDiff]:
    """The diff, computed after locking the tenant row and every node of its tree (in id order, the order the
    erasure service locks them), so no write lands between the figures and the apply. Inside a transaction."""
    tenant = Tenant.objects.select_for_update().filter(slug=plan.tenant_slug).first()
    if tenant is not None:
        # NO KEY UPDATE: blocks memory writes (they share-lock their node) until commit, not the key-share checks
        # of embedding and link tasks inserting rows for memories that already exist
        nodes = Scope.objects.for_tenant(tenant).order_by("pk").select_for_update(no_key=True)
        list(nodes.values_list("pk", flat=True))
    return tenant, _diff(plan=plan, tenant=tenant, sync=sync)


def _tag(level: str, key: str) -> str:
    return f"{level}:{key}"


def _diff(*, plan: OrgChartPlan, tenant: Tenant | None, sync: bool) -> OnboardingDiff:
    diff = OnboardingDiff(
        tenant=plan.tenant_slug,
        tenant_name=plan.tenant_name,
        levels=list(plan.levels),
        sync=sync,
        tenant_exists=tenant is not None,
    )
    keys_wanted = [KeyCreate(k.name, tuple(k.permissions), _tag(*k.scope) if k.scope else None) for k in plan.api_keys]
    if tenant is None:
        diff.scopes_created = [
            ScopeCreate(_tag(n.level, n.key), n.name, _tag(*n.parent) if n.parent else None) for n in plan.nodes
        ]
        diff.members_added = [MemberAdd(user_id, _tag(*parent)) for user_id, parent in plan.members.items()]
        diff.policies = [
            PolicyChange(name, None, plan.policies.get(name, POLICY_DEFAULTS[name])) for name in _POLICY_FIELDS
        ]
        diff.api_keys = keys_wanted
        diff.state = "new"
        return diff

    if tenant.name != plan.tenant_name:
        diff.tenant_renamed = (tenant.name, plan.tenant_name)
    if list(tenant.levels) != list(plan.levels):
        diff.levels_changed = (list(tenant.levels), list(plan.levels))

    scopes = {
        row["id"]: row for row in Scope.objects.for_tenant(tenant).values("id", "level", "key", "name", "parent_id")
    }
    # project nodes are no chart's business: they stay with their owner node (moved, kept or removed with it)
    by_tag = {_tag(row["level"], row["key"]): row for row in scopes.values() if row["level"] != PROJECT_LEVEL}
    children: dict[int | None, list[int]] = defaultdict(list)
    for row in scopes.values():
        children[row["parent_id"]].append(row["id"])
    members = {
        row["user_id"]: row
        for row in Member.objects.for_tenant(tenant).values("id", "user_id", "scope_id").order_by("user_id")
    }
    member_nodes = {row["scope_id"] for row in members.values()}
    rows_at: Counter[int] = Counter(
        dict(Memory.objects.for_tenant(tenant).values("scope_id").annotate(n=Count("id")).values_list("scope_id", "n"))
    )

    def subtree(scope_id: int) -> list[int]:
        found, frontier = [scope_id], [scope_id]
        while frontier:
            frontier = [child for node in frontier for child in children.get(node, [])]
            found.extend(frontier)
        return found

    def tag_of(scope_id: int | None) -> str | None:
        if scope_id is None:
            return None
        row = scopes[scope_id]
        tag = _tag(row["level"], row["key"])
        return f"{tag_of(row['parent_id'])} › {tag}" if row["level"] == PROJECT_LEVEL else tag

    # nodes
    planned_tags = set()
    for node in plan.nodes:
        tag, parent = _tag(node.level, node.key), _tag(*node.parent) if node.parent else None
        planned_tags.add(tag)
        row = by_tag.get(tag)
        if row is None:
            diff.scopes_created.append(ScopeCreate(tag, node.name, parent))
            continue
        if row["name"] != node.name:
            diff.scopes_renamed.append(ScopeRename(tag, row["name"], node.name))
        if tag_of(row["parent_id"]) != parent:
            moved = sum(rows_at[node_id] for node_id in subtree(row["id"]))
            diff.scopes_moved.append(ScopeMove(tag, tag_of(row["parent_id"]), parent, moved))

    # members
    departing = [user_id for user_id in members if user_id not in plan.members]
    movers = [
        user_id
        for user_id, parent in plan.members.items()
        if user_id in members and tag_of(scopes[members[user_id]["scope_id"]]["parent_id"]) != _tag(*parent)
    ]
    authored: dict[int, Counter[int]] = defaultdict(Counter)
    watched = [members[user_id]["id"] for user_id in [*movers, *(departing if sync else [])]]
    if watched:
        per_author = (
            Memory.objects.for_tenant(tenant)
            .filter(author_member_id__in=watched)
            .values("author_member_id", "scope_id")
            .annotate(n=Count("id"))
            .values_list("author_member_id", "scope_id", "n")
        )
        for member_id, scope_id, count in per_author:
            authored[member_id][scope_id] = count
    for user_id, parent in plan.members.items():
        row = members.get(user_id)
        if row is None:
            diff.members_added.append(MemberAdd(user_id, _tag(*parent)))
    for user_id in movers:
        row = members[user_id]
        own = subtree(row["scope_id"])
        diff.members_moved.append(
            MemberMove(
                user_id,
                tag_of(scopes[row["scope_id"]]["parent_id"]) or "—",
                _tag(*plan.members[user_id]),
                own_memories=sum(rows_at[node_id] for node_id in own),
                team_memories=sum(n for scope_id, n in authored[row["id"]].items() if scope_id not in own),
            )
        )

    # what the chart no longer lists
    # a member's own node, and anything below it, belongs to the member (it moves or leaves with them)
    members_own = {node for scope_id in member_nodes for node in subtree(scope_id)}
    absent_nodes = [
        row["id"] for tag, row in by_tag.items() if tag not in planned_tags and row["id"] not in members_own
    ]
    absent_nodes += [  # a removed team's projects go with it (deeper, so removed first)
        child for node in list(absent_nodes) for child in children[node] if scopes[child]["level"] == PROJECT_LEVEL
    ]
    if not sync:
        diff.untouched_scopes = sorted(tag_of(node_id) for node_id in absent_nodes)
        diff.untouched_members = sorted(departing)
    else:
        gone = [members[user_id] for user_id in departing]
        own_nodes = {member["id"]: subtree(member["scope_id"]) for member in gone}
        rows = _RowsAt(tenant, gone=gone, own_nodes=own_nodes, removed_nodes=absent_nodes)
        diff.leavers = [
            _leaver(rows, member, parent=tag_of(scopes[member["scope_id"]]["parent_id"]) or "—") for member in gone
        ]
        diff.scopes_removed = _removals(rows, absent_nodes, scopes, tag_of)

    diff.policies = _policy_changes(tenant, plan)
    active = set(ApiKey.objects.for_tenant(tenant).filter(revoked_at__isnull=True).values_list("name", flat=True))
    diff.api_keys = [key for key in keys_wanted if key.name not in active]
    diff.state = _state_digest(tenant, scopes, members)
    return diff


class _RowsAt:
    """The memory, key and policy rows the leavers and removed nodes of one diff touch, read in a fixed number of
    queries whatever their number (one per kind of row, plus one per generation of superseded history)."""

    def __init__(self, tenant: Tenant, *, gone: list[dict], own_nodes: dict[int, list[int]], removed_nodes: list[int]):
        self.own_nodes = {member_id: set(nodes) for member_id, nodes in own_nodes.items()}
        owner = {node: member_id for member_id, nodes in own_nodes.items() for node in nodes}
        nodes = [*owner, *removed_nodes]
        self.own: dict[int, list[int]] = defaultdict(list)  # member id -> rows at their own node(s)
        self.at_node: dict[int, list[int]] = defaultdict(list)  # removed node id -> rows at it
        self.elsewhere: dict[int, list[int]] = defaultdict(list)  # member id -> rows they wrote at other nodes
        self.keys: Counter[int] = Counter()  # node id -> keys restricted to it
        self.policies: Counter[int] = Counter()  # node id -> policy overrides on it
        self.older: dict[int, list[int]] = defaultdict(list)  # memory id -> the ids it superseded
        if not nodes:
            return
        memories = Memory.objects.for_tenant(tenant)
        for memory_id, scope_id in memories.filter(scope_id__in=nodes).values_list("pk", "scope_id"):
            if scope_id in owner:
                self.own[owner[scope_id]].append(memory_id)
            else:
                self.at_node[scope_id].append(memory_id)
        authored = memories.filter(author_member_id__in=[member["id"] for member in gone])
        for memory_id, author_id, scope_id in authored.values_list("pk", "author_member_id", "scope_id"):
            if scope_id not in self.own_nodes[author_id]:
                self.elsewhere[author_id].append(memory_id)
        for model, counter in ((ApiKey, self.keys), (Policy, self.policies)):
            counted = model.objects.for_tenant(tenant).filter(scope_id__in=nodes).values("scope_id")
            counter.update(dict(counted.annotate(n=Count("id")).values_list("scope_id", "n")))
        # the history a delete takes with each row (as memories_with_history walks it), one generation a query
        frontier = [
            memory_id
            for ids in (*self.own.values(), *self.at_node.values(), *self.elsewhere.values())
            for memory_id in ids
        ]
        seen = set(frontier)
        while frontier:
            superseded = memories.filter(superseded_by_id__in=frontier).values_list("pk", "superseded_by_id")
            frontier = []
            for memory_id, newer_id in superseded:
                self.older[newer_id].append(memory_id)
                if memory_id not in seen:
                    seen.add(memory_id)
                    frontier.append(memory_id)

    def with_history(self, ids: list[int]) -> set[int]:
        found, stack = set(ids), list(ids)
        while stack:
            for older_id in self.older.get(stack.pop(), ()):
                if older_id not in found:
                    found.add(older_id)
                    stack.append(older_id)
        return found

    def bound(self, counter: Counter[int], member_id: int) -> int:
        return sum(counter[node] for node in self.own_nodes[member_id])


def _leaver(rows: _RowsAt, member: dict, *, parent: str) -> Leaver:
    own, elsewhere = rows.own[member["id"]], rows.elsewhere[member["id"]]
    keep_deletes = rows.with_history(own)
    return Leaver(
        user_id=member["user_id"],
        parent=parent,
        own_memories=len(own),
        authored_memories=len(elsewhere),
        erase_deletes=len(rows.with_history([*own, *elsewhere])),
        keep_deletes=len(keep_deletes),
        keep_deattributes=len(set(elsewhere) - keep_deletes),
        api_keys=rows.bound(rows.keys, member["id"]),
        policies=rows.bound(rows.policies, member["id"]),
    )


def _removals(rows: _RowsAt, node_ids: list[int], scopes: dict[int, dict], tag_of) -> list[ScopeRemove]:
    def depth(node_id: int) -> int:
        steps = 0
        while scopes[node_id]["parent_id"] is not None:
            node_id, steps = scopes[node_id]["parent_id"], steps + 1
        return steps

    ordered = sorted(node_ids, key=lambda node_id: (-depth(node_id), tag_of(node_id)))
    return [
        ScopeRemove(
            tag=tag_of(node_id),
            name=scopes[node_id]["name"],
            memories=len(rows.with_history(rows.at_node[node_id])),
            api_keys=rows.keys[node_id],
            policies=rows.policies[node_id],
            scope_id=node_id,
        )
        for node_id in ordered
    ]


def _policy_changes(tenant: Tenant, plan: OrgChartPlan) -> list[PolicyChange]:
    """Mirrors ``tenant_onboard``: a new tenant policy gets every field (the chart's, else the default); an
    existing one changes only the fields the chart names and that differ."""
    policy = Policy.objects.for_tenant(tenant).filter(scope__isnull=True).first()
    if policy is None:
        return [PolicyChange(name, None, plan.policies.get(name, POLICY_DEFAULTS[name])) for name in _POLICY_FIELDS]
    return [
        PolicyChange(name, getattr(policy, name), plan.policies[name])
        for name in _POLICY_FIELDS
        if name in plan.policies and getattr(policy, name) != plan.policies[name]
    ]


def _state_digest(tenant: Tenant, scopes: dict[int, dict], members: dict[str, dict]) -> str:
    """A digest of what a diff is computed from besides the memory figures it reports: the tenant, its nodes, its
    members, its tenant policy and its active keys."""
    policy = Policy.objects.for_tenant(tenant).filter(scope__isnull=True).values(*_POLICY_FIELDS).first()
    state = {
        "tenant": [tenant.name, tenant.levels],
        "scopes": sorted(scopes.values(), key=lambda row: row["id"]),
        "members": sorted(members.values(), key=lambda row: row["id"]),
        "policy": policy,
        "keys": sorted(
            ApiKey.objects.for_tenant(tenant).filter(revoked_at__isnull=True).values_list("name", "scope_id")
        ),
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()
