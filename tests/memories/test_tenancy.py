"""Scope chains, subtrees, onboarding, API keys and policies on the real embedded PostgreSQL."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memories.models import ApiKey, Member, Policy, Scope, Tenant
from memories.orgchart import OrgChartError, parse_org_chart
from memories.selectors import (
    scope_chain_for,
    scope_chain_for_scope,
    scope_get_by_tag,
    scope_subtree,
    scope_tree_with_member_counts,
)
from memories.services import (
    api_key_authenticate,
    api_key_create,
    api_key_revoke,
    member_provision,
    policy_effective,
    tenant_onboard,
)
from orgmemory.errors import NotFound, ValidationFailed
from tests.conftest import ACME_CHART

pytestmark = pytest.mark.django_db


def tags(scopes):
    return [scope.tag for scope in scopes]


class TestScopeChain:
    def test_chain_is_leaf_first_and_exact(self, acme, django_assert_num_queries):
        with django_assert_num_queries(1):
            chain = scope_chain_for(tenant=acme, user_id="albert")

        assert tags(chain) == ["user:albert", "team:platform", "division:eu", "org:acme"]

    def test_chain_of_a_scope_node(self, acme):
        team = Scope.objects.get(tenant=acme, level="team", key="sales")

        assert tags(scope_chain_for_scope(tenant=acme, scope=team)) == ["team:sales", "division:us", "org:acme"]

    def test_unknown_user_has_no_chain(self, acme):
        assert scope_chain_for(tenant=acme, user_id="nobody") == []

    def test_chain_never_crosses_tenants(self, acme, globex):
        assert tags(scope_chain_for(tenant=globex, user_id="albert")) == ["user:albert", "team:platform", "org:globex"]
        assert tags(scope_chain_for(tenant=acme, user_id="zed")) == []
        acme_team = Scope.objects.get(tenant=acme, level="team", key="platform")
        assert scope_chain_for_scope(tenant=globex, scope=acme_team) == []


class TestSubtreeAndTags:
    def test_subtree_is_depth_first_and_tenant_bound(self, acme, globex):
        division = Scope.objects.get(tenant=acme, level="division", key="eu")

        assert tags(scope_subtree(tenant=acme, scope=division)) == [
            "division:eu",
            "team:data",
            "user:dora",
            "team:platform",
            "user:albert",
            "user:bea",
        ]
        assert list(scope_subtree(tenant=globex, scope=division)) == []

    def test_member_counts_cover_the_subtree(self, acme, globex):
        counts = {node.tag: node.member_count for node in scope_tree_with_member_counts(tenant=acme)}

        assert counts["org:acme"] == 4
        assert counts["division:eu"] == 3
        assert counts["team:platform"] == 2
        assert counts["team:sales"] == 1
        assert counts["user:bea"] == 0

    def test_scope_by_tag(self, acme, globex):
        assert scope_get_by_tag(tenant=acme, tag="team:platform").tenant_id == acme.pk
        assert scope_get_by_tag(tenant=globex, tag="team:platform").tenant_id == globex.pk
        with pytest.raises(NotFound):
            scope_get_by_tag(tenant=globex, tag="division:eu")
        with pytest.raises(ValidationFailed):
            scope_get_by_tag(tenant=acme, tag="platform")


class TestOnboarding:
    def test_second_run_changes_nothing(self, db):
        first = tenant_onboard(plan=parse_org_chart(ACME_CHART))
        second = tenant_onboard(plan=parse_org_chart(ACME_CHART))

        assert first.as_dict()["created"] == {"tenant": 1, "scopes": 6, "members": 4, "policies": 1, "api_keys": 0}
        assert second.as_dict()["created"] == {"tenant": 0, "scopes": 0, "members": 0, "policies": 0, "api_keys": 0}
        assert second.as_dict()["updated"] == {"tenant": 0, "scopes": 0, "members": 0, "policies": 0, "api_keys": 0}
        assert second.changed is False
        assert Scope.objects.count() == 10
        assert Member.objects.count() == 4

    def test_changed_file_moves_renames_and_adds(self, acme):
        changed = (
            ACME_CHART.replace("members: [albert, bea]", "members: [bea]")
            .replace("members: [carlos]", "members: [carlos, albert, erin]")
            .replace("name: Europe", "name: EMEA")
        )

        result = tenant_onboard(plan=parse_org_chart(changed))

        assert result.as_dict()["created"]["members"] == 1
        assert result.as_dict()["updated"] == {"tenant": 0, "scopes": 1, "members": 1, "policies": 0, "api_keys": 0}
        assert tags(scope_chain_for(tenant=acme, user_id="albert")) == [
            "user:albert",
            "team:sales",
            "division:us",
            "org:acme",
        ]
        assert Scope.objects.get(tenant=acme, level="division", key="eu").name == "EMEA"
        assert Scope.objects.filter(tenant=acme, level="user", key="albert").count() == 1

    def test_dry_run_writes_nothing(self, db):
        result = tenant_onboard(plan=parse_org_chart(ACME_CHART), dry_run=True)

        assert result.as_dict()["created"]["scopes"] == 6
        assert Tenant.objects.count() == 0

    def test_command_json_twice_and_keys_shown_once(self, db, tmp_path):
        chart = tmp_path / "org.yaml"
        chart.write_text(ACME_CHART + "api_keys: [{name: support-agent, permissions: [read, write]}]\n")

        out1, out2 = StringIO(), StringIO()
        call_command("onboard_tenant", str(chart), "--json", stdout=out1)
        call_command("onboard_tenant", str(chart), "--json", stdout=out2)
        first, second = json.loads(out1.getvalue()), json.loads(out2.getvalue())

        assert first["created"]["api_keys"] == 1
        assert first["api_keys"][0]["name"] == "support-agent"
        assert api_key_authenticate(plain=first["api_keys"][0]["key"]).name == "support-agent"
        assert sum(second["created"].values()) == 0
        assert second["api_keys"] == []

    @pytest.mark.parametrize(
        "bad",
        [
            "tenant: {slug: acme}\ntree: [{level: org, key: acme, children: [{level: team, key: x",
            ACME_CHART.replace("{level: team, key: data", "{level: planet, key: data"),
            ACME_CHART.replace("members: [dora]", "members: [albert]"),
            ACME_CHART.replace("key: data", "key: platform"),
        ],
    )
    def test_bad_file_exits_nonzero_and_leaves_the_database_unchanged(self, acme, tmp_path, bad):
        before = (Scope.objects.count(), Member.objects.count(), list(Scope.objects.values_list("parent_id", "name")))
        chart = tmp_path / "bad.yaml"
        chart.write_text(bad)

        with pytest.raises(CommandError) as excinfo:
            call_command("onboard_tenant", str(chart), stdout=StringIO())

        assert str(chart) in str(excinfo.value)
        after = (Scope.objects.count(), Member.objects.count(), list(Scope.objects.values_list("parent_id", "name")))
        assert after == before

    def test_dropping_a_level_in_use_rolls_back(self, acme):
        text = (
            "tenant: {slug: acme, name: Acme Corp}\nlevels: [org, team, user]\n"
            "tree: [{level: org, key: acme, children: [{level: team, key: platform, members: [albert]}]}]\n"
        )
        with pytest.raises(OrgChartError, match="existing nodes use level 'division'"):
            tenant_onboard(plan=parse_org_chart(text))
        assert Tenant.objects.get(slug="acme").levels == ["org", "division", "team", "user"]


class TestApiKeys:
    def test_only_the_hash_is_stored_and_the_key_authenticates(self, acme):
        key, plain = api_key_create(tenant=acme, name="agent", permissions=["read", "write"])

        assert plain.startswith(f"om_{key.prefix}_")
        assert plain not in key.key_hash
        assert api_key_authenticate(plain=plain).pk == key.pk
        assert ApiKey.objects.get(pk=key.pk).last_used_at is not None

    def test_wrong_revoked_and_malformed_keys_fail(self, acme):
        key, plain = api_key_create(tenant=acme, name="agent", permissions=["read"])

        assert api_key_authenticate(plain=plain[:-1] + ("A" if plain[-1] != "A" else "B")) is None
        assert api_key_authenticate(plain="nonsense") is None
        assert api_key_authenticate(plain="om_zzzzzzzz_x") is None
        api_key_revoke(api_key=key)
        assert api_key_authenticate(plain=plain) is None

    def test_bad_permissions_refused(self, acme):
        with pytest.raises(ValidationFailed):
            api_key_create(tenant=acme, name="agent", permissions=["root"])


class TestPolicy:
    def test_scope_override_applies_below_it_only(self, acme):
        platform = Scope.objects.get(tenant=acme, level="team", key="platform")
        Policy.objects.create(tenant=acme, scope=platform, max_content_bytes=100, glossary={"k8s": "kubernetes"})

        albert = policy_effective(tenant=acme, chain=scope_chain_for(tenant=acme, user_id="albert"))
        carlos = policy_effective(tenant=acme, chain=scope_chain_for(tenant=acme, user_id="carlos"))

        assert albert["max_content_bytes"] == 100
        assert albert["glossary"] == {"k8s": "kubernetes"}
        assert albert["writable_levels"] == {"agent": ["user", "team"]}
        assert carlos["max_content_bytes"] == 32768
        assert carlos["glossary"] == {}

    def test_unknown_user_refused_or_provisioned_per_policy(self, acme):
        with pytest.raises(NotFound):
            member_provision(tenant=acme, user_id="newbie")

        Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)
        member = member_provision(tenant=acme, user_id="newbie")

        assert tags(scope_chain_for(tenant=acme, user_id="newbie")) == ["user:newbie", "org:acme"]
        assert member.scope.level == "user"
        with pytest.raises(ValidationFailed):
            member_provision(tenant=acme, user_id="bad id\x00")


def test_create_api_key_command_prints_a_working_key(acme):
    out = StringIO()
    call_command(
        "create_api_key", tenant="acme", name="cli", permissions="read,admin", scope="team:platform", stdout=out
    )

    key = api_key_authenticate(plain=out.getvalue().strip())
    assert (key.name, key.permissions, key.scope.tag) == ("cli", ["admin", "read"], "team:platform")
    with pytest.raises(CommandError, match="permissions must be"):
        call_command("create_api_key", tenant="acme", name="bad", permissions="root", stdout=StringIO())
