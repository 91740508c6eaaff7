"""The HR re-sync steps ``tenant_onboard`` runs inside its transaction: the leaver choices checked, then leavers
erased or kept de-attributed, then the nodes the chart dropped removed, deepest first."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.utils import timezone

from memories.models import Member, Memory, Scope, Tenant
from memories.services.erasure import user_erase
from memories.services.memory import memories_delete
from memories.services.onboarding.diff import _RowsAt
from memories.services.onboarding.types import FORMER_MEMBER, LEAVER_CHOICES, LEAVER_ERASE, OnboardingDiff
from orgmemory.errors import ValidationFailed


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
    kept = [leaver.user_id for leaver in diff.leavers if leavers[leaver.user_id] != LEAVER_ERASE]
    for user_id, (deleted, deattributed) in _leavers_keep(tenant=tenant, user_ids=kept).items():
        changes.append(
            f"leaver {user_id} removed: {deattributed} authored memories kept de-attributed, "
            f"{deleted} at their own node deleted"
        )
    for removal in diff.scopes_removed:
        scope = Scope.objects.for_tenant(tenant).get(pk=removal.scope_id)
        if Scope.objects.filter(parent=scope).exists():  # the diff is computed under lock: a bug, not a race
            raise ValidationFailed(f"{removal.tag} still has nodes below it", code="scope_not_empty")
        ids = list(Memory.objects.for_tenant(tenant).filter(scope=scope).values_list("pk", flat=True))
        deleted = memories_delete(memory_ids=ids) if ids else 0
        scope.delete()  # its key and policy rows go with it (on_delete CASCADE), as the diff said
        changes.append(f"scope {removal.tag} removed" + (f": {deleted} memories deleted" if deleted else ""))
    return changes


def _leavers_keep(*, tenant: Tenant, user_ids: list[str]) -> dict[str, tuple[int, int]]:
    """Remove leavers but keep what they authored outside their own nodes, with the author removed — all of them
    together, in a fixed number of statements. Returns, per user id, (memories deleted at their own node with the
    older versions those superseded, memories kept de-attributed)."""
    if not user_ids:
        return {}
    # the member rows, locked after the tree (tenant_onboard holds its nodes), as the erasure service does
    members = list(
        Member.objects.for_tenant(tenant)
        .filter(user_id__in=user_ids)
        .select_for_update(no_key=True, of=("self",))
        .order_by("pk")
        .values("id", "user_id", "scope_id")
    )
    children: dict[int | None, list[int]] = defaultdict(list)
    for node_id, parent_id in Scope.objects.for_tenant(tenant).values_list("pk", "parent_id"):
        children[parent_id].append(node_id)

    def below(node_id: int) -> list[int]:
        found, frontier = [node_id], [node_id]
        while frontier:
            frontier = [child for node in frontier for child in children.get(node, [])]
            found.extend(frontier)
        return found

    own_nodes = {member["id"]: below(member["scope_id"]) for member in members}
    rows = _RowsAt(tenant, gone=members, own_nodes=own_nodes, removed_nodes=[])
    doomed = {member["id"]: rows.with_history(rows.own[member["id"]]) for member in members}
    every_doomed = set().union(*doomed.values())
    if every_doomed:
        memories_delete(memory_ids=sorted(every_doomed))
    kept = {member["id"]: len(set(rows.elsewhere[member["id"]]) - every_doomed) for member in members}
    Memory.objects.for_tenant(tenant).filter(author_member_id__in=list(own_nodes)).update(
        author_member=None, author=FORMER_MEMBER, updated_at=timezone.now()
    )
    # each user node's delete cascades to the nodes below it, the member row, and keys/policies bound there
    Scope.objects.filter(pk__in=[member["scope_id"] for member in members]).delete()
    return {member["user_id"]: (len(doomed[member["id"]]), kept[member["id"]]) for member in members}
