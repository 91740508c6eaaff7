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
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from memories.models import ApiKey, Member, Memory, Policy, Scope, Tenant
from memories.orgchart import OrgChartError, OrgChartPlan
from memories.services.erasure import user_erase
from memories.services.memory import memories_delete
from memories.services.tenancy import _POLICY_FIELDS, POLICY_DEFAULTS, _member_create, api_key_create
from orgmemory.errors import Conflict, ValidationFailed

#: The largest chart the admin wizard accepts (upload or paste); ``onboard_tenant`` reads files of any size.
CHART_MAX_BYTES = 2 * 1024 * 1024
LEAVER_ERASE = "erase"
LEAVER_KEEP = "keep"
LEAVER_CHOICES = (LEAVER_ERASE, LEAVER_KEEP)
#: The author shown on a kept leaver's memories: no name, so nothing personal outlives them there.
FORMER_MEMBER = "(former member)"


class StaleDiff(Conflict):
    """The tenant changed between the dry run an admin reviewed and the apply: nothing was written."""

    code = "stale_diff"


# --- the diff ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScopeCreate:
    tag: str
    name: str
    parent: str | None


@dataclass(frozen=True)
class ScopeRename:
    tag: str
    old_name: str
    new_name: str


@dataclass(frozen=True)
class ScopeMove:
    tag: str
    old_parent: str | None
    new_parent: str | None
    memories: int  # rows in the moved subtree: they stay on it, and its new ancestors' members now read them


@dataclass(frozen=True)
class ScopeRemove:
    tag: str
    name: str
    memories: int  # rows at this node, with the older versions they superseded: deleted with it
    api_keys: int  # keys restricted to this node: deleted with it
    policies: int  # the policy override on this node: deleted with it


@dataclass(frozen=True)
class MemberAdd:
    user_id: str
    parent: str


@dataclass(frozen=True)
class MemberMove:
    user_id: str
    old_parent: str
    new_parent: str
    own_memories: int  # rows at their own node (and below): they move with them
    team_memories: int  # rows they authored at other nodes (team and above): they stay where they are


@dataclass(frozen=True)
class Leaver:
    user_id: str
    parent: str
    own_memories: int  # rows at their own node and below it
    authored_memories: int  # rows they authored at other nodes
    erase_deletes: int  # what ``erase`` deletes: both of the above with the older versions they superseded
    keep_deletes: int  # what ``keep`` deletes: their own node's rows with their older versions
    keep_deattributes: int  # what ``keep`` keeps, with the author removed
    api_keys: int  # keys restricted to their node: deleted either way
    policies: int  # policy overrides on their node: deleted either way


@dataclass(frozen=True)
class PolicyChange:
    field: str
    old: Any  # None when the tenant has no policy yet
    new: Any


@dataclass(frozen=True)
class KeyCreate:
    name: str
    permissions: tuple[str, ...]
    scope: str | None


@dataclass
class OnboardingDiff:
    """What applying one chart to one tenant does. ``fingerprint`` changes whenever the tenant's structure or
    any figure here changes, which is how an apply knows the diff it was given is still the truth."""

    tenant: str
    tenant_name: str
    levels: list[str]
    sync: bool
    tenant_exists: bool
    tenant_renamed: tuple[str, str] | None = None
    levels_changed: tuple[list[str], list[str]] | None = None
    scopes_created: list[ScopeCreate] = field(default_factory=list)
    scopes_renamed: list[ScopeRename] = field(default_factory=list)
    scopes_moved: list[ScopeMove] = field(default_factory=list)
    scopes_removed: list[ScopeRemove] = field(default_factory=list)  # deepest first: the order they are removed
    members_added: list[MemberAdd] = field(default_factory=list)
    members_moved: list[MemberMove] = field(default_factory=list)
    leavers: list[Leaver] = field(default_factory=list)
    policies: list[PolicyChange] = field(default_factory=list)
    api_keys: list[KeyCreate] = field(default_factory=list)
    # without ``sync``: what the chart does not list, left as it is
    untouched_scopes: list[str] = field(default_factory=list)
    untouched_members: list[str] = field(default_factory=list)
    state: str = ""  # digest of the tenant's structure when the diff was made

    @property
    def changed(self) -> bool:
        return bool(
            not self.tenant_exists
            or self.tenant_renamed
            or self.levels_changed
            or self.scopes_created
            or self.scopes_renamed
            or self.scopes_moved
            or self.scopes_removed
            or self.members_added
            or self.members_moved
            or self.leavers
            or self.policies
            or self.api_keys
        )

    @property
    def removed_scope_memories(self) -> int:
        """Memories deleted with removed nodes: the apply needs the caller's confirmation when this is not 0."""
        return sum(removal.memories for removal in self.scopes_removed)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True, default=str).encode()).hexdigest()


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
    by_tag = {_tag(row["level"], row["key"]): row for row in scopes.values()}
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
        return None if scope_id is None else _tag(scopes[scope_id]["level"], scopes[scope_id]["key"])

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
    absent_nodes = [
        row["id"] for tag, row in by_tag.items() if tag not in planned_tags and row["id"] not in member_nodes
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


# --- the re-sync steps (run by tenant_onboard, inside its transaction) ------------------------------------------


def onboarding_check_choices(
    *, diff: OnboardingDiff, leavers: Mapping[str, str], delete_scope_memories: bool
) -> dict[str, str]:
    """The leaver choices for ``diff``, checked: one of ``erase`` / ``keep`` for every leaver and no choice for
    anyone else; removed nodes that hold memories need ``delete_scope_memories``. ValidationFailed otherwise,
    before anything is written."""
    expected = {leaver.user_id for leaver in diff.leavers}
    missing = sorted(user_id for user_id in expected if leavers.get(user_id) not in LEAVER_CHOICES)
    if missing:
        raise ValidationFailed(
            f"choose erase or keep for each leaver: {', '.join(missing)}",
            code="leaver_choice_required",
            details={"leavers": missing},
        )
    strangers = sorted(set(leavers) - expected)
    if strangers:
        raise ValidationFailed(
            f"not leavers in this diff: {', '.join(strangers)}",
            code="not_a_leaver",
            details={"leavers": strangers},
        )
    holding = [removal for removal in diff.scopes_removed if removal.memories]
    if holding and not delete_scope_memories:
        listed = ", ".join(f"{removal.tag} ({removal.memories})" for removal in holding)
        raise ValidationFailed(
            f"removing {listed} deletes {diff.removed_scope_memories} memories: confirm their deletion, or keep "
            f"those nodes in the chart",
            code="confirmation_required",
            details={"scopes": [removal.tag for removal in holding]},
        )
    return {user_id: leavers[user_id] for user_id in expected}


def onboarding_sync_apply(*, tenant: Tenant, diff: OnboardingDiff, leavers: Mapping[str, str]) -> list[str]:
    """Handle the leavers (by their checked choices), then remove the nodes the chart dropped, deepest first.
    Runs after the chart's creates and moves, so no member the chart lists is still below a removed node.
    Returns one line per action, with the memories it deleted or de-attributed."""
    changes = []
    for leaver in diff.leavers:
        if leavers[leaver.user_id] == LEAVER_ERASE:
            erased = user_erase(tenant=tenant, user_id=leaver.user_id)
            changes.append(f"leaver {leaver.user_id} erased: {erased.memories} memories deleted")
        else:
            deleted, kept = _leaver_keep(tenant=tenant, user_id=leaver.user_id)
            changes.append(
                f"leaver {leaver.user_id} removed: {kept} authored memories kept de-attributed, "
                f"{deleted} at their own node deleted"
            )
    for removal in diff.scopes_removed:
        level, _, key = removal.tag.partition(":")
        scope = Scope.objects.for_tenant(tenant).get(level=level, key=key)
        if Scope.objects.filter(parent=scope).exists():  # the diff is computed under lock: a bug, not a race
            raise ValidationFailed(f"{removal.tag} still has nodes below it", code="scope_not_empty")
        ids = list(Memory.objects.for_tenant(tenant).filter(scope=scope).values_list("pk", flat=True))
        deleted = memories_delete(memory_ids=ids) if ids else 0
        scope.delete()  # its key and policy rows go with it (on_delete CASCADE), as the diff said
        changes.append(f"scope {removal.tag} removed" + (f": {deleted} memories deleted" if deleted else ""))
    return changes


def _leaver_keep(*, tenant: Tenant, user_id: str) -> tuple[int, int]:
    """Remove a leaver but keep what they authored outside their own node, with the author removed. Returns
    (memories deleted at their node, memories kept de-attributed)."""
    member = Member.objects.for_tenant(tenant).select_related("scope").get(user_id=user_id)
    member = Member.objects.select_for_update(no_key=True, of=("self",)).select_related("scope").get(pk=member.pk)
    own_nodes = list(
        Scope.objects.with_tree_fields()
        .tree_filter(tenant=tenant)
        .descendants(member.scope, include_self=True)
        .values_list("pk", flat=True)
    )
    own_ids = list(Memory.objects.for_tenant(tenant).filter(scope_id__in=own_nodes).values_list("pk", flat=True))
    deleted = memories_delete(memory_ids=own_ids) if own_ids else 0
    kept = (
        Memory.objects.for_tenant(tenant)
        .filter(author_member=member)
        .update(author_member=None, author=FORMER_MEMBER, updated_at=timezone.now())
    )
    member.scope.delete()  # the member row, nodes below, and keys/policies bound there go with it
    return deleted, kept


# --- text, for the command --------------------------------------------------------------------------------------


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


# --- applying a chart (tenant_onboard) ---------------------------------------------------------------------------


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
