"""The onboarding dry-run diff and the HR re-sync (memories.services.onboarding through tenant_onboard), on the real
embedded PostgreSQL: what a chart would create / move / rename / remove with the memories each action touches,
movers, leavers (erase vs keep), a stale diff refused, and tenants kept apart."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memories.models import ApiKey, Member, Memory, Policy, Scope, Tenant
from memories.orgchart import OrgChartError, parse_org_chart
from memories.selectors import scope_chain_for
from memories.services import tenant_onboard
from memories.services.memory import Author, memory_create
from memories.services.onboarding import (
    FORMER_MEMBER,
    KeyCreate,
    Leaver,
    MemberAdd,
    MemberMove,
    PolicyChange,
    ScopeCreate,
    ScopeMove,
    ScopeRemove,
    ScopeRename,
    StaleDiff,
    onboarding_diff,
)
from orgmemory.errors import ValidationFailed
from tests.conftest import ACME_CHART, GLOBEX_CHART

pytestmark = pytest.mark.django_db


def agent(tenant: Tenant, user_id: str) -> Author:
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


def write(tenant: Tenant, user_id: str, content: str, scope: str | None = None) -> Memory:
    return memory_create(tenant=tenant, author=agent(tenant, user_id), content=content, scope=scope).memory


def snapshot(tenant: Tenant) -> dict:
    """Everything an onboarding run may change, to prove a refused run wrote nothing."""
    return {
        "tenant": list(Tenant.objects.filter(pk=tenant.pk).values_list("name", "levels")),
        "scopes": sorted(Scope.objects.filter(tenant=tenant).values_list("level", "key", "name", "parent_id")),
        "members": sorted(Member.objects.filter(tenant=tenant).values_list("user_id", "scope_id")),
        "memories": sorted(
            Memory.objects.filter(tenant=tenant).values_list("pk", "scope_id", "author_member_id", "author")
        ),
        "policies": sorted(Policy.objects.filter(tenant=tenant).values_list("pk", "writable_levels")),
        "keys": sorted(ApiKey.objects.filter(tenant=tenant).values_list("name", "revoked_at")),
    }


@pytest.fixture
def acme_memories(acme):
    """Albert: 2 private + 1 he wrote at team:platform; Bea: 1 at team:platform; Dora: 1 private + 1 at team:data;
    Carlos: 1 private."""
    return {
        "albert_private": [
            write(acme, "albert", "Albert prefers dark mode in every editor he uses."),
            write(acme, "albert", "Albert's next review is booked for the second week of March."),
        ],
        "albert_team": write(acme, "albert", "The platform team deploys on Tuesdays after standup.", "team:platform"),
        "bea_team": write(acme, "bea", "Platform on-call rotates every Monday at nine.", "team:platform"),
        "dora_private": write(acme, "dora", "Dora keeps her notes in a paper notebook."),
        "dora_team": write(acme, "dora", "The data team's warehouse refresh runs nightly at two.", "team:data"),
        "carlos_private": write(acme, "carlos", "Carlos travels to Lisbon every quarter."),
    }


def chart(**replacements: str) -> str:
    text = ACME_CHART
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


WITHOUT_DORA = {"{level: team, key: data, name: Data, members: [dora]}": "{level: team, key: data, name: Data}"}


# --- the diff ---------------------------------------------------------------------------------------------------


def test_a_new_tenant_diff_lists_everything_it_creates(db):
    diff = onboarding_diff(
        plan=parse_org_chart(ACME_CHART + "api_keys: [{name: bot, permissions: [read], scope: 'team:data'}]\n")
    )

    assert diff.tenant_exists is False
    assert diff.scopes_created == [
        ScopeCreate("org:acme", "Acme Corp", None),
        ScopeCreate("division:eu", "Europe", "org:acme"),
        ScopeCreate("team:platform", "Platform", "division:eu"),
        ScopeCreate("team:data", "Data", "division:eu"),
        ScopeCreate("division:us", "Americas", "org:acme"),
        ScopeCreate("team:sales", "Sales", "division:us"),
    ]
    assert diff.members_added == [
        MemberAdd("albert", "team:platform"),
        MemberAdd("bea", "team:platform"),
        MemberAdd("dora", "team:data"),
        MemberAdd("carlos", "team:sales"),
    ]
    assert PolicyChange("auto_provision_users", None, False) in diff.policies
    assert PolicyChange("writable_levels", None, {"agent": ["user", "team"]}) in diff.policies
    assert [change.field for change in diff.policies] == [
        "writable_levels",
        "auto_provision_users",
        "max_content_bytes",
        "tier_boost",
        "retention_days",
        "glossary",
    ]
    assert diff.api_keys == [KeyCreate("bot", ("read",), "team:data")]
    assert Tenant.objects.count() == 0


def test_the_same_chart_again_is_an_empty_diff_with_a_stable_fingerprint(acme, acme_memories):
    first = onboarding_diff(plan=parse_org_chart(ACME_CHART), sync=True)
    second = onboarding_diff(plan=parse_org_chart(ACME_CHART), sync=True)

    assert first.changed is False
    assert first.fingerprint == second.fingerprint
    assert (first.scopes_created, first.members_moved, first.leavers, first.scopes_removed) == ([], [], [], [])


def test_create_move_rename_remove_with_the_memories_each_touches(acme, acme_memories):
    new = chart(
        **{
            "name: Europe": "name: EMEA",
            # team:data moves from division:eu to division:us; team:sales is dropped and carlos moves to platform
            "{level: team, key: data, name: Data, members: [dora]}": "{level: team, key: ops, name: Ops}",
            "{level: team, key: sales, name: Sales, members: [carlos]}": (
                "{level: team, key: data, name: Data, members: [dora, erin]}"
            ),
            "members: [albert, bea]": "members: [albert, bea, carlos]",
        }
    )
    before = Memory.objects.filter(tenant=acme).count()
    Memory.objects.filter(pk=acme_memories["carlos_private"].pk).update(scope=Scope.objects.get(key="sales"))

    diff = onboarding_diff(plan=parse_org_chart(new), sync=True)

    assert diff.scopes_created == [ScopeCreate("team:ops", "Ops", "division:eu")]
    assert diff.scopes_renamed == [ScopeRename("division:eu", "Europe", "EMEA")]
    # team:data's node holds Dora's team memory; Dora's own node below it holds her private one
    assert diff.scopes_moved == [ScopeMove("team:data", "division:eu", "division:us", memories=2)]
    assert diff.scopes_removed == [ScopeRemove("team:sales", "Sales", memories=1, api_keys=0, policies=0)]
    assert diff.members_added == [MemberAdd("erin", "team:data")]
    assert diff.members_moved == [MemberMove("carlos", "team:sales", "team:platform", own_memories=0, team_memories=1)]
    assert diff.leavers == []

    with pytest.raises(ValidationFailed, match=r"removing team:sales \(1\) deletes 1 memories"):
        tenant_onboard(plan=parse_org_chart(new), sync=True)
    result = tenant_onboard(plan=parse_org_chart(new), sync=True, delete_scope_memories=True)

    assert result.diff.fingerprint == diff.fingerprint
    assert "scope team:sales removed: 1 memories deleted" in result.changes
    assert not Scope.objects.filter(tenant=acme, key="sales").exists()
    assert Scope.objects.get(tenant=acme, key="data").parent.key == "us"
    assert Scope.objects.get(tenant=acme, key="eu").name == "EMEA"
    assert [s.tag for s in scope_chain_for(tenant=acme, user_id="carlos")] == [
        "user:carlos",
        "team:platform",
        "division:eu",
        "org:acme",
    ]
    assert Memory.objects.filter(tenant=acme).count() == before - 1


# --- movers -----------------------------------------------------------------------------------------------------


def test_a_movers_private_memories_move_with_them_and_their_team_memories_stay(acme, acme_memories):
    new = chart(**{"members: [albert, bea]": "members: [bea]", "members: [carlos]": "members: [carlos, albert]"})

    diff = onboarding_diff(plan=parse_org_chart(new), sync=True)
    result = tenant_onboard(plan=parse_org_chart(new), sync=True, leavers={})

    assert diff.members_moved == [MemberMove("albert", "team:platform", "team:sales", own_memories=2, team_memories=1)]
    assert result.updated["members"] == 1
    albert = Member.objects.get(tenant=acme, user_id="albert")
    assert albert.scope.parent.tag == "team:sales"
    assert sorted(Memory.objects.filter(scope=albert.scope).values_list("pk", flat=True)) == sorted(
        m.pk for m in acme_memories["albert_private"]
    )
    team_memory = Memory.objects.get(pk=acme_memories["albert_team"].pk)
    assert (team_memory.scope.tag, team_memory.author_member_id) == ("team:platform", albert.pk)
    assert "team:platform" not in [s.tag for s in scope_chain_for(tenant=acme, user_id="albert")]


# --- leavers ----------------------------------------------------------------------------------------------------


def test_a_leaver_is_listed_with_what_each_choice_deletes(acme, acme_memories):
    # Dora's team memory supersedes a near-duplicate an admin wrote there: erasing Dora takes that older version too
    older = memory_create(
        tenant=acme,
        author=Author(kind="admin", label="curator"),
        content="The data team warehouse refresh runs nightly at two o'clock sharp.",
        scope="team:data",
    ).memory
    newer = write(acme, "dora", "The data team warehouse refresh runs nightly at two o'clock sharp today.", "team:data")
    assert Memory.objects.get(pk=older.pk).superseded_by_id == newer.pk

    diff = onboarding_diff(plan=parse_org_chart(chart(**WITHOUT_DORA)), sync=True)

    assert diff.leavers == [
        Leaver(
            "dora",
            "team:data",
            own_memories=1,
            authored_memories=2,
            erase_deletes=4,
            keep_deletes=1,
            keep_deattributes=2,
            api_keys=0,
            policies=0,
        )
    ]


def test_leaver_erase_deletes_exactly_what_the_diff_said(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA))
    expected = onboarding_diff(plan=plan, sync=True).leavers[0].erase_deletes
    before = Memory.objects.filter(tenant=acme).count()

    result = tenant_onboard(plan=plan, sync=True, leavers={"dora": "erase"})

    assert expected == 2
    assert result.changes[-1] == "leaver dora erased: 2 memories deleted"
    assert Memory.objects.filter(tenant=acme).count() == before - 2
    assert not Member.objects.filter(tenant=acme, user_id="dora").exists()
    assert not Scope.objects.filter(tenant=acme, level="user", key="dora").exists()
    assert not Memory.objects.filter(pk__in=[acme_memories["dora_private"].pk, acme_memories["dora_team"].pk]).exists()
    assert result.removed["members"] == 1


def test_leaver_keep_keeps_their_team_memories_de_attributed(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA))
    leaver = onboarding_diff(plan=plan, sync=True).leavers[0]
    before = Memory.objects.filter(tenant=acme).count()

    result = tenant_onboard(plan=plan, sync=True, leavers={"dora": "keep"})

    assert (leaver.keep_deletes, leaver.keep_deattributes) == (1, 1)
    assert (
        result.changes[-1] == "leaver dora removed: 1 authored memories kept de-attributed, 1 at their own node deleted"
    )
    kept = Memory.objects.get(pk=acme_memories["dora_team"].pk)
    assert (kept.scope.tag, kept.author_member_id, kept.author) == ("team:data", None, FORMER_MEMBER)
    assert not Memory.objects.filter(pk=acme_memories["dora_private"].pk).exists()
    assert Memory.objects.filter(tenant=acme).count() == before - 1
    assert not Member.objects.filter(tenant=acme, user_id="dora").exists()


def test_a_sync_without_a_choice_for_every_leaver_writes_nothing(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA, **{"name: Europe": "name: EMEA"}))
    before = snapshot(acme)

    with pytest.raises(ValidationFailed, match="choose erase or keep for each leaver: dora") as excinfo:
        tenant_onboard(plan=plan, sync=True)
    with pytest.raises(ValidationFailed, match="not leavers in this diff: bea"):
        tenant_onboard(plan=plan, sync=True, leavers={"dora": "erase", "bea": "erase"})
    with pytest.raises(ValidationFailed, match="choose erase or keep"):
        tenant_onboard(plan=plan, sync=True, leavers={"dora": "shred"})

    assert excinfo.value.code == "leaver_choice_required"
    assert snapshot(acme) == before


def test_without_sync_absent_members_and_scopes_are_left_alone(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA))
    before = snapshot(acme)

    result = tenant_onboard(plan=plan)

    assert result.diff.leavers == [] and result.diff.untouched_members == ["dora"]
    assert snapshot(acme) == before


def test_a_dry_run_sync_reports_and_writes_nothing(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA, **{"members: [carlos]": "members: [carlos, erin]"}))
    before = snapshot(acme)

    result = tenant_onboard(plan=plan, sync=True, dry_run=True)

    assert [leaver.user_id for leaver in result.diff.leavers] == ["dora"]
    assert result.created["members"] == 1
    assert snapshot(acme) == before


# --- stale diffs ------------------------------------------------------------------------------------------------


def test_an_apply_refuses_a_diff_the_tenant_has_outgrown(acme, acme_memories):
    plan = parse_org_chart(chart(**WITHOUT_DORA))
    reviewed = tenant_onboard(plan=plan, sync=True, dry_run=True).diff.fingerprint
    write(acme, "dora", "Dora's badge number changed last week.")  # now erasing Dora deletes one more memory
    before = snapshot(acme)

    with pytest.raises(StaleDiff) as excinfo:
        tenant_onboard(plan=plan, sync=True, leavers={"dora": "erase"}, expected_fingerprint=reviewed)

    assert excinfo.value.status == 409
    assert snapshot(acme) == before
    fresh = tenant_onboard(plan=plan, sync=True, dry_run=True).diff
    assert fresh.leavers[0].erase_deletes == 3
    applied = tenant_onboard(plan=plan, sync=True, leavers={"dora": "erase"}, expected_fingerprint=fresh.fingerprint)
    assert applied.changes[-1] == "leaver dora erased: 3 memories deleted"


def test_a_structural_change_since_the_dry_run_is_stale_too(acme):
    plan = parse_org_chart(chart(**{"name: Europe": "name: EMEA"}))
    reviewed = onboarding_diff(plan=plan).fingerprint
    tenant_onboard(plan=parse_org_chart(chart(**{"members: [carlos]": "members: [carlos, erin]"})))

    with pytest.raises(StaleDiff):
        tenant_onboard(plan=plan, expected_fingerprint=reviewed)
    assert Scope.objects.get(tenant=acme, key="eu").name == "Europe"


# --- tenants ----------------------------------------------------------------------------------------------------


def test_a_re_sync_of_one_tenant_never_touches_another(acme, globex, acme_memories):
    globex_albert = write(globex, "albert", "Globex Albert's private note about the Springfield plant.")
    acme_before, acme_diff = snapshot(acme), onboarding_diff(plan=parse_org_chart(ACME_CHART), sync=True)
    plan = parse_org_chart(GLOBEX_CHART.replace("members: [albert, zed]", "members: [zed]"))

    diff = onboarding_diff(plan=plan, sync=True)
    tenant_onboard(plan=plan, sync=True, leavers={"albert": "erase"})

    assert [(leaver.user_id, leaver.own_memories, leaver.erase_deletes) for leaver in diff.leavers] == [
        ("albert", 1, 1)
    ]
    assert not Memory.objects.filter(pk=globex_albert.pk).exists()
    assert snapshot(acme) == acme_before
    assert onboarding_diff(plan=parse_org_chart(ACME_CHART), sync=True).fingerprint == acme_diff.fingerprint


# --- the command ------------------------------------------------------------------------------------------------


def test_command_sync_needs_a_leaver_choice_and_honours_expect(acme, acme_memories, tmp_path):
    path = tmp_path / "org.yaml"
    path.write_text(chart(**WITHOUT_DORA))
    before = snapshot(acme)

    with pytest.raises(CommandError, match=r"1 leaver\(s\) not in the file: dora"):
        call_command("onboard_tenant", str(path), "--sync", stdout=StringIO())
    dry = StringIO()
    call_command("onboard_tenant", str(path), "--sync", "--dry-run", stdout=dry)
    assert (
        "leaver dora (under team:data): erase deletes 2 memories; keep deletes 1 at their own node and keeps 1 "
        "de-attributed" in dry.getvalue()
    )
    fingerprint = dry.getvalue().split("Diff fingerprint: ")[1].split()[0]
    with pytest.raises(CommandError, match="changed since the dry run"):
        call_command(
            "onboard_tenant", str(path), "--sync", "--leavers", "keep", "--expect", "0" * 64, stdout=StringIO()
        )
    assert snapshot(acme) == before

    out = StringIO()
    call_command("onboard_tenant", str(path), "--sync", "--leavers", "keep", "--expect", fingerprint, stdout=out)

    assert "done: leaver dora removed: 1 authored memories kept de-attributed" in out.getvalue()
    assert not Member.objects.filter(tenant=acme, user_id="dora").exists()


def test_nodes_below_a_members_own_node_are_theirs_not_removed_scopes(acme, acme_memories):
    # e.g. a project sub-scope: it lives under the member's node and moves or leaves with them
    albert = Member.objects.select_related("scope").get(tenant=acme, user_id="albert")
    below = Scope.objects.create(tenant=acme, level="user", key="albert-alpha", name="alpha", parent=albert.scope)
    Memory.objects.filter(pk=acme_memories["albert_private"][0].pk).update(scope=below)

    unchanged = onboarding_diff(plan=parse_org_chart(ACME_CHART), sync=True)
    leaving = onboarding_diff(plan=parse_org_chart(chart(**{"members: [albert, bea]": "members: [bea]"})), sync=True)

    assert unchanged.scopes_removed == [] and unchanged.changed is False
    assert [(leaver.user_id, leaver.own_memories, leaver.erase_deletes) for leaver in leaving.leavers] == [
        ("albert", 2, 3)
    ]


def test_a_re_sync_may_drop_a_level_with_every_node_at_it(acme, acme_memories):
    flat = (
        "tenant: {slug: acme, name: Acme Corp}\nlevels: [org, team, user]\n"
        "tree: [{level: org, key: acme, name: Acme Corp, children: [\n"
        "  {level: team, key: platform, name: Platform, members: [albert, bea]},\n"
        "  {level: team, key: data, name: Data, members: [dora]},\n"
        "  {level: team, key: sales, name: Sales, members: [carlos]}]}]\n"
        "policies: {auto_provision_users: false, writable_levels: {agent: [user, team]}}\n"
    )
    before = Memory.objects.filter(tenant=acme).count()

    with pytest.raises(OrgChartError, match="existing nodes use level 'division'"):
        tenant_onboard(plan=parse_org_chart(flat))  # without sync the divisions would stay: refused
    result = tenant_onboard(plan=parse_org_chart(flat), sync=True, leavers={})

    assert [removal.tag for removal in result.diff.scopes_removed] == ["division:eu", "division:us"]
    assert [move.tag for move in result.diff.scopes_moved] == ["team:platform", "team:data", "team:sales"]
    assert Tenant.objects.get(pk=acme.pk).levels == ["org", "team", "user"]
    assert not Scope.objects.filter(tenant=acme, level="division").exists()
    assert [s.tag for s in scope_chain_for(tenant=acme, user_id="dora")] == ["user:dora", "team:data", "org:acme"]
    assert Memory.objects.filter(tenant=acme).count() == before
