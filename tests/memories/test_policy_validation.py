"""Finding 7: policy JSON is validated wherever a policy is written (model clean → admin form, onboarding); a bad
stored policy degrades to the defaults instead of failing every search; admin forms keep every foreign key inside
one tenant, even for staff who administer two tenants."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from memories.models import ApiKey, Member, Memory, MemoryKind, Policy, Scope, Tenant, TenantStaff
from memories.policy_rules import MEMORY_KINDS, policy_errors
from memories.roles import TENANT_ADMIN
from memories.services import api_key_create, policy_effective

LEVELS = ("org", "division", "team", "user")


class TestRules:
    @pytest.mark.parametrize(
        ("field", "value", "reason"),
        [
            ("tier_boost", {"team": "x"}, "must be a number"),
            ("tier_boost", {"team": True}, "must be a number"),
            ("tier_boost", {"team": float("nan")}, "must be a number"),
            ("tier_boost", {"team": 0}, "must be a number from 0.01 to 10.0"),
            ("tier_boost", {"team": 1e9}, "must be a number from 0.01 to 10.0"),
            ("tier_boost", {"moon": 1.0}, "not a level of this tenant"),
            ("tier_boost", [["team", 1.0]], "must map a level"),
            ("glossary", ["k8s", "kubernetes"], "must map an acronym"),
            ("glossary", {"k8s": 3}, "expansion must be text"),
            ("glossary", {"": "empty"}, "an acronym is 1–32 characters"),
            ("glossary", {"x" * 33: "long"}, "an acronym is 1–32 characters"),
            ("glossary", {"k8s": "k" * 201}, "expansion must be text of 1–200"),
            ("glossary", {f"a{i}": "b" for i in range(501)}, "at most 500"),
            ("retention_days", {"event": 0}, "whole number of days"),
            ("retention_days", {"event": -5}, "whole number of days"),
            ("retention_days", {"event": 10**9}, "whole number of days from 1 to 36500"),
            ("retention_days", {"event": 1.5}, "whole number of days"),
            ("retention_days", {"rumour": 3}, "neither a memory kind"),
            ("retention_days", 365, "must map a memory kind"),
            ("writable_levels", {"agent": "user"}, "must be a list of levels"),
            ("writable_levels", {"agent": ["moon"]}, "unknown level"),
            ("writable_levels", {"robot": ["user"]}, "not an author kind"),
            ("writable_levels", ["user"], "must map an author kind"),
            ("max_content_bytes", 0, "whole number of bytes"),
            ("max_content_bytes", 10**12, "whole number of bytes"),
            ("auto_provision_users", "yes", "true or false"),
        ],
    )
    def test_bad_values_are_named_with_a_reason(self, field, value, reason):
        errors = policy_errors({field: value}, levels=LEVELS)

        assert list(errors) == [field]
        assert any(reason in message for message in errors[field]), errors

    def test_good_values_and_nulls_pass(self):
        good = {
            "writable_levels": {"agent": ["user", "team"], "admin": None},
            "auto_provision_users": True,
            "max_content_bytes": 32768,
            "tier_boost": {"org": 0.6, "team": 1},
            "retention_days": {"event": 365, "team": 30},
            "glossary": {"k8s": "kubernetes"},
        }

        assert policy_errors(good, levels=LEVELS) == {}
        assert policy_errors(dict.fromkeys(good), levels=LEVELS) == {}

    def test_the_pure_kinds_are_the_models(self):
        assert set(MEMORY_KINDS) == set(MemoryKind.values)


@pytest.mark.django_db
class TestModel:
    def test_clean_refuses_a_bad_tier_boost_and_glossary(self, acme):
        policy = Policy.objects.get(tenant=acme, scope__isnull=True)
        policy.tier_boost, policy.glossary = {"team": "x"}, ["k8s"]

        with pytest.raises(ValidationError) as caught:
            policy.full_clean()

        assert set(caught.value.message_dict) == {"tier_boost", "glossary"}

    def test_default_scope_may_not_be_a_users_own_node(self, acme):
        policy = Policy.objects.get(tenant=acme, scope__isnull=True)
        policy.default_scope = Scope.objects.get(tenant=acme, level="user", key="albert")

        with pytest.raises(ValidationError) as caught:
            policy.full_clean()

        assert "default_scope" in caught.value.message_dict

    def test_foreign_keys_stay_in_the_tenant(self, acme, globex):
        globex_team = Scope.objects.get(tenant=globex, level="team", key="platform")
        acme_root = Scope.objects.get(tenant=acme, level="org")
        cases = [
            (Policy(tenant=acme, scope=globex_team), "scope"),
            (Policy(tenant=acme, scope=acme_root, default_scope=globex_team), "default_scope"),
            (Scope(tenant=acme, parent=globex_team, level="team", key="x"), "parent"),
            (
                ApiKey(
                    tenant=acme, name="k", prefix="abcd1234", key_hash="0" * 64, permissions=["read"], scope=globex_team
                ),
                "scope",
            ),
        ]
        for obj, field in cases:
            with pytest.raises(ValidationError) as caught:
                obj.full_clean()
            assert field in caught.value.message_dict, (obj, caught.value.message_dict)

        member = Member.objects.get(tenant=acme, user_id="albert")
        member.scope = Scope.objects.get(tenant=globex, level="user", key="zed")
        with pytest.raises(ValidationError) as caught:
            member.full_clean()
        assert "scope" in caught.value.message_dict

    def test_a_scope_level_must_be_one_of_the_tenants(self, acme):
        scope = Scope(tenant=acme, parent=Scope.objects.get(tenant=acme, level="org"), level="country", key="fr")

        with pytest.raises(ValidationError) as caught:
            scope.full_clean()

        assert "level" in caught.value.message_dict

    def test_tenant_levels_are_checked(self, acme):
        acme.levels = ["org", "team", "user"]  # drops division, which nodes use

        with pytest.raises(ValidationError) as caught:
            acme.full_clean()

        assert "levels" in caught.value.message_dict
        assert Tenant(slug="t", name="T", levels="org").full_clean is not None
        with pytest.raises(ValidationError):
            Tenant(slug="t", name="T", levels=["org", "org"]).full_clean()


@pytest.mark.django_db
class TestReadingABadStoredPolicy:
    """Rows written before the rules (or by hand in SQL) must not take the tenant's API down."""

    @pytest.fixture
    def api(self, acme):
        _, plain = api_key_create(tenant=acme, name="policy-test", permissions=["read", "write"])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
        return client

    @pytest.mark.parametrize(
        "bad",
        [
            {"tier_boost": {"team": "x"}},
            {"glossary": ["k8s", "kubernetes"]},
            {"retention_days": {"fact": 10**12}},
            {"writable_levels": "everything"},
            {"retention_days": ["event"]},
        ],
    )
    def test_search_and_writes_fall_back_to_the_defaults_and_log(self, acme, api, bad, caplog):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(**bad)

        with caplog.at_level(logging.WARNING, logger="memories.services.tenancy"):
            written = api.post(
                "/api/v1/memories", {"user_id": "albert", "content": "Albert deploys with k8s."}, format="json"
            )
            found = api.post("/api/v1/search", {"user_id": "albert", "query": "k8s deploys"}, format="json")

        assert written.status_code == 201, written.content
        assert found.status_code == 200, found.content
        field = next(iter(bad))
        assert any(field in record.getMessage() and "acme" in record.getMessage() for record in caplog.records)

    def test_the_effective_policy_skips_only_the_bad_field(self, acme):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(
            tier_boost={"team": "x"}, glossary={"k8s": "kubernetes"}
        )

        policy = policy_effective(tenant=acme, chain=[])

        assert policy["tier_boost"] == {}
        assert policy["glossary"] == {"k8s": "kubernetes"}


@pytest.mark.django_db
class TestAdminForms:
    @pytest.fixture
    def two_tenant_staff(self, client, acme, globex):
        user = User.objects.create_user("both", password="pw", is_staff=True)
        TenantStaff.objects.create(tenant=acme, user=user)
        TenantStaff.objects.create(tenant=globex, user=user)
        user.groups.add(Group.objects.get(name=TENANT_ADMIN))
        client.force_login(user)
        return client

    def test_policy_form_shows_the_error_and_keeps_the_row(self, superuser_client, acme):
        policy = Policy.objects.get(tenant=acme, scope__isnull=True)
        before = policy.tier_boost

        response = superuser_client.post(
            f"/admin/memories/policy/{policy.pk}/change/",
            {
                "scope": "",
                "writable_levels__agent": ["user", "team"],
                "writable_levels__admin": ["*"],
                "auto_provision_users": "false",
                "default_scope": "",
                "max_content_bytes": "32768",
                "tier_boost__team": "12",
                "glossary-TOTAL_FORMS": "0",
                "glossary-INITIAL_FORMS": "0",
            },
        )

        assert response.status_code == 200  # the form again, the reason on the input (tests/…/test_admin_policy.py)
        assert response.context["adminform"].form.errors == {
            "tier_boost__team": ["must be a number from 0.01 to 10.0, got '12.0'"]
        }
        policy.refresh_from_db()
        assert policy.tier_boost == before

    def test_staff_of_two_tenants_cannot_link_them(self, two_tenant_staff, acme, globex):
        globex_team = Scope.objects.get(tenant=globex, level="team", key="platform")
        counts = (Policy.objects.count(), ApiKey.objects.count(), Scope.objects.count(), Memory.objects.count())

        responses = [
            two_tenant_staff.post(
                "/admin/memories/policy/add/",
                {"tenant": acme.pk, "scope": globex_team.pk},
            ),
            two_tenant_staff.post(
                "/admin/memories/apikey/add/",
                {"tenant": acme.pk, "name": "cross", "permissions": ["read"], "scope": globex_team.pk},
            ),
            two_tenant_staff.post(
                "/admin/memories/scope/add/",
                {"tenant": acme.pk, "parent": globex_team.pk, "level": "team", "key": "cross", "name": ""},
            ),
            two_tenant_staff.post(
                "/admin/memories/memory/add/",
                {
                    "tenant": acme.pk,
                    "scope": globex_team.pk,
                    "kind": "fact",
                    "title": "",
                    "content": "cross",
                    "metadata": "{}",
                },
            ),
        ]

        assert [response.status_code for response in responses] == [200, 200, 200, 200]  # forms with errors
        for response in responses:
            assert "errornote" in response.content.decode()
        assert (Policy.objects.count(), ApiKey.objects.count(), Scope.objects.count(), Memory.objects.count()) == counts

    def test_a_tenant_cannot_be_changed_on_an_existing_row(self, two_tenant_staff, acme, globex):
        member = Member.objects.get(tenant=acme, user_id="albert")

        page = two_tenant_staff.get(f"/admin/memories/member/{member.pk}/change/").content.decode()

        assert 'name="tenant"' not in page


def test_an_org_chart_with_a_bad_policy_is_refused_before_anything_is_written():
    from memories.orgchart import OrgChartError, parse_org_chart

    chart = (
        "tenant: {slug: t, name: T}\nlevels: [org, user]\ntree:\n  - {level: org, key: t}\n"
        "policies: {retention_days: {event: 100000000}}\n"
    )

    with pytest.raises(OrgChartError, match="policies.retention_days: event: must be a whole number of days"):
        parse_org_chart(chart)
