"""The policy admin as forms (issue 42, item 2): writable levels as checkboxes per author kind × level, tier boosts
and retention as number inputs with the defaults shown, the glossary as rows of acronym → expansion. The JSON fields
stay the storage: a page sent back as the browser shows it stores what it shows, and shows what is stored; a value
the rules refuse is an error on its input and nothing is saved; each admin sees only their tenant's policies and
nodes."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.admin.models import LogEntry
from django.utils.html import escape

from memories.models import Policy, Scope
from memories.roles import AUDITOR, TENANT_ADMIN
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db

JSON_FIELDS = ("writable_levels", "tier_boost", "retention_days", "glossary")


class FormReader(HTMLParser):
    """What a browser sends for the form ``form_id`` of a page as it stands: ``{name: [values]}`` of its text and
    number inputs, hidden inputs, ticked boxes and selected options (a select with none selected sends its first)."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.data = form_id, False, {}
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def add(self, name: str, value: str) -> None:
        self.data.setdefault(name, []).append(value)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.inside = attributes.get("id") == self.form_id
        elif not self.inside or "name" not in attributes and tag != "option":
            return
        elif tag == "input":
            kind = attributes.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attributes:
                    self.add(attributes["name"], attributes.get("value") or "on")
            elif kind not in ("submit", "button", "file", "image"):
                self.add(attributes["name"], attributes.get("value") or "")
        elif tag == "select":
            self.select, self.options = attributes["name"], []
        elif tag == "option" and self.select is not None:
            self.options.append((attributes.get("value") or "", "selected" in attributes))

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select is not None:
            chosen = [value for value, selected in self.options if selected] or [self.options[0][0]]
            for value in chosen:
                self.add(self.select, value)
            self.select = None


def form_of(response, form_id: str = "policy_form") -> dict[str, list[str]]:
    assert response.status_code == 200
    reader = FormReader(form_id)
    reader.feed(response.content.decode())
    assert reader.data, f"no form {form_id} on the page"
    return reader.data


def change_url(policy: Policy) -> str:
    return f"/admin/memories/policy/{policy.pk}/change/"


def stored(policy: Policy) -> dict:
    policy.refresh_from_db()
    return {name: getattr(policy, name) for name in JSON_FIELDS}


def field_errors(response) -> dict[str, list[str]]:
    return {name: list(errors) for name, errors in response.context["adminform"].form.errors.items()}


def add_glossary_row(data: dict[str, list[str]], acronym: str, expansion: str) -> None:
    """Fill the first blank glossary row (the form shows some at the end)."""
    total = int(data["glossary-TOTAL_FORMS"][0])
    row = next(i for i in range(total) if not data.get(f"glossary-{i}-acronym", [""])[0])
    data[f"glossary-{row}-acronym"], data[f"glossary-{row}-expansion"] = [acronym], [expansion]


@pytest.fixture
def tenant_policy(acme):
    """acme's policy as onboarding wrote it: agents write at user and team (the admin key left out: every level)."""
    policy = Policy.objects.get(tenant=acme, scope__isnull=True)
    assert stored(policy) == {
        "writable_levels": {"agent": ["user", "team"]},
        "tier_boost": {},
        "retention_days": {},
        "glossary": {},
    }
    return policy


@pytest.fixture
def acme_admin(client, acme):
    client.force_login(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    return client


# --- the form shows the JSON as inputs ---------------------------------------------------------------------------


def test_the_change_page_shows_inputs_with_the_defaults_not_json(superuser_client, tenant_policy):
    response = superuser_client.get(change_url(tenant_policy))

    data = form_of(response)
    html = response.content.decode()
    assert data["writable_levels__agent"] == ["team", "user"]
    assert data["writable_levels__admin"] == ["*"]  # a kind the JSON leaves out writes everywhere
    assert {name: data[f"tier_boost__{name}"] for name in ("org", "division", "team", "user")} == {
        "org": [""],
        "division": [""],
        "team": [""],
        "user": [""],
    }
    assert 'name="tier_boost__org" placeholder="0.88"' in html  # the search's default, as the placeholder
    assert "default 0.88" in html and "default 0.97" in html
    assert 'name="retention_days__event" placeholder="kept"' in html
    assert 'name="retention_days__team"' in html  # per level as well as per kind
    assert "inherit_writable_levels" not in data  # a stored value: not inherited
    assert data["glossary-TOTAL_FORMS"] == ["3"] and data["glossary-INITIAL_FORMS"] == ["0"]
    assert "<textarea" not in html  # no JSON box left


def test_the_page_sent_back_unchanged_stores_exactly_what_was_stored(superuser_client, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))

    response = superuser_client.post(change_url(tenant_policy), page)

    assert response.status_code == 302
    assert stored(tenant_policy)["writable_levels"] == {"agent": ["user", "team"]}  # its order and its missing key


def test_form_to_json_to_form_round_trip(superuser_client, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    page["writable_levels__agent"] = ["division", "team", "user"]
    page["writable_levels__admin"] = ["org", "team"]
    page["tier_boost__team"], page["tier_boost__org"] = ["1.2"], ["0.5"]
    page["retention_days__event"], page["retention_days__user"] = ["365"], ["30"]
    add_glossary_row(page, "k8s", "kubernetes")
    add_glossary_row(page, "SLA", "service level agreement")

    response = superuser_client.post(change_url(tenant_policy), page)

    assert response.status_code == 302
    assert stored(tenant_policy) == {
        "writable_levels": {"agent": ["division", "team", "user"], "admin": ["org", "team"]},
        "tier_boost": {"org": 0.5, "team": 1.2},
        "retention_days": {"event": 365, "user": 30},
        "glossary": {"k8s": "kubernetes", "SLA": "service level agreement"},
    }
    logged = LogEntry.objects.filter(object_id=str(tenant_policy.pk)).latest("pk")
    assert logged.get_change_message() == "Changed writable_levels, tier_boost, retention_days and glossary."
    shown = form_of(superuser_client.get(change_url(tenant_policy)))
    assert shown["writable_levels__agent"] == ["division", "team", "user"]
    assert shown["writable_levels__admin"] == ["org", "team"]
    assert (shown["tier_boost__org"], shown["tier_boost__team"], shown["tier_boost__user"]) == (["0.5"], ["1.2"], [""])
    assert (shown["retention_days__event"], shown["retention_days__user"], shown["retention_days__fact"]) == (
        ["365"],
        ["30"],
        [""],
    )
    rows = int(shown["glossary-INITIAL_FORMS"][0])
    assert [(shown[f"glossary-{i}-acronym"][0], shown[f"glossary-{i}-expansion"][0]) for i in range(rows)] == [
        ("k8s", "kubernetes"),
        ("SLA", "service level agreement"),
    ]
    assert superuser_client.post(change_url(tenant_policy), shown).status_code == 302  # and back again: the same
    assert stored(tenant_policy)["glossary"] == {"k8s": "kubernetes", "SLA": "service level agreement"}


def test_a_glossary_row_deleted_or_emptied_is_removed(superuser_client, tenant_policy):
    Policy.objects.filter(pk=tenant_policy.pk).update(glossary={"k8s": "kubernetes", "pr": "pull request", "ci": "x"})
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    assert [page[f"glossary-{i}-acronym"] for i in range(3)] == [["ci"], ["k8s"], ["pr"]]  # alphabetical
    page["glossary-2-DELETE"] = ["on"]
    page["glossary-0-acronym"], page["glossary-0-expansion"] = [""], [""]

    assert superuser_client.post(change_url(tenant_policy), page).status_code == 302

    assert stored(tenant_policy)["glossary"] == {"k8s": "kubernetes"}


def test_every_level_is_stored_as_null(superuser_client, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    page["writable_levels__agent"] = ["*"]
    page["writable_levels__admin"] = []

    assert superuser_client.post(change_url(tenant_policy), page).status_code == 302

    assert stored(tenant_policy)["writable_levels"] == {"agent": None, "admin": []}


# --- inheriting ----------------------------------------------------------------------------------------------------


def test_inherit_stores_null_and_an_override_shows_what_it_inherits(superuser_client, acme, tenant_policy):
    Policy.objects.filter(pk=tenant_policy.pk).update(tier_boost={"org": 0.5}, glossary={"k8s": "kubernetes"})
    override = Policy.objects.create(tenant=acme, scope=Scope.objects.get(tenant=acme, level="team", key="platform"))

    response = superuser_client.get(change_url(override))

    page = form_of(response)
    assert all(page[f"inherit_{name}"] == ["on"] for name in JSON_FIELDS)
    assert page["tier_boost__org"] == ["0.5"]  # the inherited values fill the inputs
    assert (page["glossary-0-acronym"], page["glossary-0-expansion"]) == (["k8s"], ["kubernetes"])
    assert page["writable_levels__agent"] == ["team", "user"]
    html = response.content.decode()
    assert "Ticked: the tenant policy and the overrides above — org 0.5." in html
    assert "Ticked: the tenant policy and the overrides above — k8s → kubernetes." in html

    assert superuser_client.post(change_url(override), page).status_code == 302
    assert stored(override) == dict.fromkeys(JSON_FIELDS)  # still inheriting every field

    del page["inherit_tier_boost"]  # set here, starting from what it inherited
    page["tier_boost__user"] = ["2"]
    assert superuser_client.post(change_url(override), page).status_code == 302
    assert stored(override) == {**dict.fromkeys(JSON_FIELDS), "tier_boost": {"org": 0.5, "user": 2.0}}

    page = form_of(superuser_client.get(change_url(override)))
    page["inherit_tier_boost"] = ["on"]
    assert superuser_client.post(change_url(override), page).status_code == 302
    assert stored(override)["tier_boost"] is None


def test_a_value_changed_while_inherit_is_ticked_is_an_error_on_the_box(superuser_client, acme, tenant_policy):
    override = Policy.objects.create(tenant=acme, scope=Scope.objects.get(tenant=acme, level="team", key="platform"))
    page = form_of(superuser_client.get(change_url(override)))
    page["retention_days__event"] = ["90"]

    response = superuser_client.post(change_url(override), page)

    assert response.status_code == 200
    assert field_errors(response) == {
        "inherit_retention_days": [
            "Untick inherit to set the values below, or put them back: ticked, the field inherits."
        ]
    }
    assert stored(override)["retention_days"] is None


# --- validation errors on the field --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "errors"),
    [
        ("tier_boost__team", "12", {"tier_boost__team": ["must be a number from 0.01 to 10.0, got '12.0'"]}),
        ("tier_boost__org", "0", {"tier_boost__org": ["must be a number from 0.01 to 10.0, got '0.0'"]}),
        ("tier_boost__user", "fast", {"tier_boost__user": ["Enter a number."]}),
        ("retention_days__event", "0", {"retention_days__event": ["must be a whole number of days from 1 to 36500"]}),
        ("retention_days__team", "1.5", {"retention_days__team": ["Enter a whole number."]}),
        (
            "writable_levels__agent",
            "moon",
            {"writable_levels__agent": ["Select a valid choice. moon is not one of the available choices."]},
        ),
    ],
)
def test_a_bad_value_is_an_error_on_its_input_and_saves_nothing(superuser_client, tenant_policy, field, value, errors):
    before = stored(tenant_policy)
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    page[field] = [value]
    page["tier_boost__division"] = ["0.9"]  # a good change beside it is not saved either

    response = superuser_client.post(change_url(tenant_policy), page)

    assert response.status_code == 200
    assert field_errors(response) == errors
    message = escape(errors[field][0])
    assert f'<ul class="errorlist" id="id_{field}_error"><li>{message}</li></ul>' in response.content.decode()
    assert stored(tenant_policy) == before


def test_glossary_errors_are_on_their_rows(superuser_client, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    add_glossary_row(page, "k8s", "kubernetes")
    add_glossary_row(page, "K8S", "kubernetes again")
    add_glossary_row(page, "ci", "")

    response = superuser_client.post(change_url(tenant_policy), page)

    assert response.status_code == 200
    assert field_errors(response) == {"glossary_rows": ["Correct the rows marked below."]}
    rows = response.context["adminform"].form.glossary_rows
    assert [dict(row.errors) for row in rows] == [
        {},
        {"acronym": ["K8S is listed already (as k8s): acronyms match in any case."]},
        {"expansion": ["Write what the acronym stands for, or empty the row."]},
    ]
    html = response.content.decode()
    assert "K8S is listed already (as k8s)" in html.split('id="glossary-rows"')[1]
    assert stored(tenant_policy)["glossary"] == {}


def test_too_long_an_acronym_is_an_error_on_its_box(superuser_client, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    add_glossary_row(page, "x" * 33, "long")

    response = superuser_client.post(change_url(tenant_policy), page)

    assert [dict(row.errors) for row in response.context["adminform"].form.glossary_rows][0] == {
        "acronym": ["Ensure this value has at most 32 characters (it has 33)."]
    }
    assert stored(tenant_policy)["glossary"] == {}


def test_a_stored_value_the_rules_refuse_is_named_on_its_inherit_box(superuser_client, tenant_policy):
    Policy.objects.filter(pk=tenant_policy.pk).update(tier_boost={"team": "x"})  # written by hand in SQL
    page = form_of(superuser_client.get(change_url(tenant_policy)))

    refused = superuser_client.post(change_url(tenant_policy), page)

    assert field_errors(refused) == {"inherit_tier_boost": ["team: must be a number from 0.01 to 10.0, got 'x'"]}
    page["inherit_tier_boost"] = ["on"]  # the way out: inherit (or set the values)
    assert superuser_client.post(change_url(tenant_policy), page).status_code == 302
    assert stored(tenant_policy)["tier_boost"] is None


def test_an_auditor_reads_each_field_in_words(client, acme, tenant_policy):
    Policy.objects.filter(pk=tenant_policy.pk).update(tier_boost=None, glossary={"k8s": "kubernetes"})
    client.force_login(StaffUserFactory(tenants=[acme], groups=[AUDITOR]))

    response = client.get(change_url(tenant_policy))

    assert response.status_code == 200
    html = response.content.decode()
    shown = {
        label: re.sub(r"<[^>]+>", "", value)
        for label, value in re.findall(r'<label>([^<]*):</label>\s*<div class="readonly">(.*?)</div>', html)
    }
    assert shown == {
        "Tenant": "acme",
        "Scope": "-",
        "Writable levels": "agent: user, team; admin: every level",
        "Auto provision users": "",  # Django's "no" icon
        "Default scope": "-",
        "Max content bytes": "32768",
        "Tier boosts": "inherited: none set (each level&#x27;s default)",
        "Retention": "none (memories are kept)",
        "Glossary": "k8s → kubernetes",
    }
    assert 'name="tier_boost__org"' not in html and 'id="glossary-rows"' not in html


# --- adding: tenant and node first ---------------------------------------------------------------------------------


def test_adding_asks_for_the_node_then_opens_the_form(acme_admin, acme):
    add_page = acme_admin.get("/admin/memories/policy/add/")
    data = form_of(add_page)
    assert data["tenant"] == [str(acme.pk)]  # the only tenant, preselected
    assert "Platform (team:platform)" in add_page.content.decode()

    platform = Scope.objects.get(tenant=acme, level="team", key="platform")
    response = acme_admin.post("/admin/memories/policy/add/", {"tenant": acme.pk, "scope": platform.pk})

    policy = Policy.objects.get(tenant=acme, scope=platform)
    assert response.status_code == 302
    assert response["Location"] == change_url(policy)
    assert stored(policy) == dict.fromkeys(JSON_FIELDS)


# --- tenant isolation ----------------------------------------------------------------------------------------------


def test_an_admin_sees_only_their_tenants_policies_and_nodes(acme_admin, acme, globex):
    globex_policy = Policy.objects.get(tenant=globex, scope__isnull=True)
    acme_policy = Policy.objects.get(tenant=acme, scope__isnull=True)

    listed = acme_admin.get("/admin/memories/policy/").content.decode()
    page = acme_admin.get(change_url(acme_policy))
    add_page = acme_admin.get("/admin/memories/policy/add/").content.decode()

    assert f"/admin/memories/policy/{acme_policy.pk}/change/" in listed
    assert f"/admin/memories/policy/{globex_policy.pk}/change/" not in listed
    assert acme_admin.get(change_url(globex_policy)).status_code in (302, 403, 404)
    offered = {
        int(pk) for pk in page.context["adminform"].form.fields["default_scope"].queryset.values_list("pk", flat=True)
    }
    assert offered == set(Scope.objects.filter(tenant=acme).values_list("pk", flat=True))
    for html in (page.content.decode(), add_page, listed):
        assert "globex" not in html.lower() and "Globex" not in html


def test_another_tenants_node_is_refused_on_its_field(superuser_client, acme, globex, tenant_policy):
    page = form_of(superuser_client.get(change_url(tenant_policy)))
    page["default_scope"] = [str(Scope.objects.get(tenant=globex, level="team", key="platform").pk)]

    response = superuser_client.post(change_url(tenant_policy), page)

    assert list(field_errors(response)) == ["default_scope"]
    tenant_policy.refresh_from_db()
    assert tenant_policy.default_scope_id is None
