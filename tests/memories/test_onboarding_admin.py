"""The admin onboarding wizard through Django's test client: access, every bad input (a clear message in the page,
nothing written), the whole upload → diff → apply flow with keys shown once, stale and altered reviews refused."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile

from memories.admin.onboarding import ONBOARD_PERMISSIONS
from memories.curation.models import AdminLogTenant
from memories.models import ApiKey, Member, Memory, Policy, Scope, Tenant, TenantStaff
from memories.services import api_key_authenticate
from memories.services.memory import Author, memory_create
from tests.conftest import ACME_CHART, GLOBEX_CHART

pytestmark = pytest.mark.django_db

START, APPLY = "/admin/onboard/", "/admin/onboard/apply/"
NEW_CHART = """
tenant: {slug: initech, name: Initech}
levels: [org, team, user]
tree:
  - {level: org, key: initech, name: Initech, children: [{level: team, key: tps, name: TPS, members: [peter, milton]}]}
api_keys: [{name: support-agent, permissions: [read, write]}]
"""


def everything() -> dict:
    """Every row onboarding writes, to prove a refused request wrote nothing."""
    return {
        "tenants": sorted(Tenant.objects.values_list("slug", "name", "levels")),
        "scopes": sorted(Scope.objects.values_list("tenant_id", "level", "key", "name", "parent_id")),
        "members": sorted(Member.objects.values_list("tenant_id", "user_id", "scope_id")),
        "memories": sorted(Memory.objects.values_list("pk", "scope_id", "author_member_id")),
        "policies": sorted(Policy.objects.values_list("pk", "writable_levels", "auto_provision_users")),
        "keys": sorted(ApiKey.objects.values_list("tenant_id", "name", "revoked_at")),
    }


def tenant_admin(tenant: Tenant, username: str = "acme-admin") -> User:
    """A staff user assigned to ``tenant`` with the onboarding permissions (what the tenant admin role holds)."""
    user = User.objects.create_user(username, password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=tenant, user=user)
    codenames = [name.split(".", 1)[1] for name in ONBOARD_PERMISSIONS] + ["erase_member"]
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="memories", codename__in=codenames))
    return user


@pytest.fixture
def acme_admin_client(client, acme):
    client.force_login(tenant_admin(acme))
    return client


def page_text(response) -> str:
    """The page's visible text (scripts, styles and tags dropped), whitespace collapsed."""
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def review(client, text: str, *, sync: bool = False):
    data = {"chart": text}
    if sync:
        data["sync"] = "on"
    return client.post(START, data)


def apply_form(response) -> dict:
    """The apply form's hidden fields, as the browser would send them back."""
    html = response.content.decode()
    chart = unescape(re.search(r'<textarea name="chart" hidden>\n(.*?)</textarea>', html, re.S).group(1))
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    return {"chart": chart, "token": token}


# --- access ------------------------------------------------------------------------------------------------------


def test_the_admin_index_links_to_the_wizard(superuser_client):
    response = superuser_client.get("/admin/")

    assert response.status_code == 200
    assert re.search(r'<a href="/admin/onboard/" id="onboard-link">Onboard</a>', response.content.decode())


def test_anonymous_and_non_staff_users_are_sent_to_the_login(client, acme):
    assert client.get(START).url == "/admin/login/?next=/admin/onboard/"
    client.force_login(User.objects.create_user("plain", password="pw"))
    before = everything()

    response = client.post(APPLY, {"chart": GLOBEX_CHART, "token": "x"})

    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    assert everything() == before


def test_staff_without_a_tenant_or_without_the_permissions_are_refused(client, acme):
    client.force_login(User.objects.create_user("nobody", password="pw", is_staff=True))
    assert client.get(START).status_code == 403
    curator = User.objects.create_user("curator", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=curator)
    curator.user_permissions.set(Permission.objects.filter(codename__in=["view_memory", "change_memory"]))
    client.force_login(curator)
    before = everything()

    assert client.get(START).status_code == 403
    assert client.post(START, {"chart": ACME_CHART.replace("name: Europe", "name: EMEA")}).status_code == 403
    assert 'id="onboard-link"' not in client.get("/admin/").content.decode()
    assert everything() == before


def test_a_tenant_admin_cannot_onboard_another_tenant_or_create_one(acme_admin_client, globex):
    before = everything()

    foreign = review(acme_admin_client, GLOBEX_CHART.replace("name: Globex", "name: Globex Corp"))
    new = review(acme_admin_client, NEW_CHART)

    assert foreign.status_code == 403
    assert "This chart is for tenant 'globex', which you do not administer." in page_text(foreign)
    assert new.status_code == 403
    assert "only a superuser can create a tenant" in page_text(new)
    assert everything() == before


# --- bad input ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chart", "message"),
    [
        ("tenant: {slug: acme}\ntree: [{level: org, key: acme, children: [", "malformed YAML at line 3"),
        (
            "tenant: {slug: acme, name: Acme Corp}\nlevels: [org, division, team, user]\ntree:\n"
            "  - &root {level: org, key: acme, children: [{level: division, key: eu, children: [*root]}]}\n",
            "the alias *root is inside its own anchor &root (a structure that contains itself)",
        ),
        (ACME_CHART.replace("members: [dora]", "members: [dora, albert]"), "member 'albert' is listed twice"),
        (ACME_CHART.replace("[org, division, team, user]", "[org, division, team, user, device]"), "below `user`"),
        (
            "org_id: acme\nlevels: [org, team, user]\nusers:\n"
            "  bea: {chain: [{level: team, id: platform}, {level: org, id: acme}]}\n"
            "  bea: {chain: [{level: team, id: data}, {level: org, id: acme}]}\n",
            "'bea' appears twice in one mapping",
        ),
        ("", "Paste an org chart or choose a file."),
    ],
)
def test_a_bad_chart_is_a_message_in_the_page_and_writes_nothing(acme_admin_client, chart, message):
    before = everything()

    response = review(acme_admin_client, chart)

    assert response.status_code == 400
    assert message in page_text(response)
    assert everything() == before


def test_a_5_mib_upload_is_refused_with_the_limit(acme_admin_client):
    big = "# padding\n" * (5 * 1024 * 1024 // 10)
    before = everything()

    response = acme_admin_client.post(START, {"upload": SimpleUploadedFile("org.yaml", (ACME_CHART + big).encode())})

    assert response.status_code == 400
    assert "The file is 5.0 MiB; the wizard accepts charts up to 2 MiB." in page_text(response)
    assert everything() == before


def test_a_paste_over_the_request_limit_is_a_message_and_writes_nothing(acme_admin_client):
    before = everything()

    response = acme_admin_client.post(START, {"chart": ACME_CHART + "#" * (3 * 1024 * 1024)})

    assert response.status_code == 413
    assert "The upload is larger than the wizard accepts (2 MiB): nothing was read or written." in page_text(response)
    assert everything() == before


def test_a_nuvel_org_graph_is_reviewed_like_the_tree_format(superuser_client):
    nuvel = (
        "org_id: nuvel\nlevels: [user, team, org]\nusers:\n"
        "  ana: {chain: [{level: user, id: ana}, {level: team, id: core}, {level: org, id: nuvel}]}\n"
        "  ben: {chain: [{level: team, id: core}, {level: org, id: nuvel}]}\n"
    )

    response = review(superuser_client, nuvel)

    text = page_text(response)
    assert response.status_code == 200
    assert "create nuvel — nuvel, levels org › team › user" in text
    assert "scope team:core core org:nuvel member ana team:core member ben team:core" in text


def test_a_file_that_is_not_utf8_is_refused(acme_admin_client):
    response = acme_admin_client.post(START, {"upload": SimpleUploadedFile("org.yaml", b"\xff\xfe\x00tenant")})

    assert response.status_code == 400
    assert "The file is not UTF-8 text." in page_text(response)


def test_a_chart_that_breaks_the_tenant_is_refused_at_the_dry_run(acme_admin_client, acme):
    before = everything()
    text = (
        "tenant: {slug: acme, name: Acme Corp}\nlevels: [org, team, user]\n"
        "tree: [{level: org, key: acme, children: [{level: team, key: platform, members: [albert]}]}]\n"
    )

    response = review(acme_admin_client, text)

    assert response.status_code == 400
    assert "existing nodes use level 'division', which the new `levels` drops" in page_text(response)
    assert everything() == before


# --- the flow ----------------------------------------------------------------------------------------------------


def test_upload_review_apply_shows_each_key_once(superuser_client):
    upload = SimpleUploadedFile("org.yaml", NEW_CHART.replace("\n", "\r\n").encode())

    reviewed = superuser_client.post(START, {"upload": upload})

    text = page_text(reviewed)
    assert reviewed.status_code == 200
    assert "Dry run for tenant initech (Initech)" in text
    assert "scope team:tps TPS org:initech" in text
    assert "member milton team:tps" in text
    assert "support-agent read, write the whole tenant" in text
    assert Tenant.objects.filter(slug="initech").exists() is False

    applied = superuser_client.post(APPLY, apply_form(reviewed))

    assert applied.status_code == 200
    keys = re.findall(r'<code class="api-key">([^<]+)</code>', applied.content.decode())
    assert len(keys) == 1 and api_key_authenticate(plain=keys[0]).name == "support-agent"
    assert "These keys are shown once" in page_text(applied)
    assert sorted(Member.objects.filter(tenant__slug="initech").values_list("user_id", flat=True)) == [
        "milton",
        "peter",
    ]
    # the same form again (a reload): the tenant moved on, so it is refused and no key is shown or created
    again = superuser_client.post(APPLY, apply_form(reviewed))
    assert again.status_code == 409
    assert "changed since this diff was made, so nothing was written" in page_text(again)
    assert "api-key" not in again.content.decode()
    assert ApiKey.objects.filter(tenant__slug="initech").count() == 1


def test_a_re_sync_needs_a_choice_per_leaver_and_applies_it(acme_admin_client, acme):
    dora = Member.objects.select_related("scope").get(tenant=acme, user_id="dora")
    team = memory_create(
        tenant=acme,
        author=Author(kind="agent", member=dora),
        content="Data team standup is at 9:15.",
        scope="team:data",
    ).memory
    chart = ACME_CHART.replace("members: [dora]", "members: []")
    reviewed = review(acme_admin_client, chart, sync=True)
    assert "dora team:data erase: deletes 1 memory keep 1 de-attributed; deletes 0 at their own node" in page_text(
        reviewed
    )
    before = everything()

    refused = acme_admin_client.post(APPLY, apply_form(reviewed))

    assert refused.status_code == 400
    assert "choose erase or keep for each leaver: dora. Nothing was written." in page_text(refused)
    assert everything() == before

    confirming = acme_admin_client.post(APPLY, {**apply_form(refused), "leaver:dora": "keep"})

    assert confirming.status_code == 200
    assert "Leavers — your choices, to confirm" in page_text(confirming)
    assert everything() == before
    applied = acme_admin_client.post(APPLY, apply_form(confirming))

    assert applied.status_code == 200
    assert "leaver dora removed: 1 authored memories kept de-attributed, 0 at their own node deleted" in page_text(
        applied
    )
    assert Memory.objects.get(pk=team.pk).author_member_id is None
    assert not Member.objects.filter(tenant=acme, user_id="dora").exists()
    entry = LogEntry.objects.get(object_id=str(acme.pk), content_type__model="tenant")
    assert (entry.user.username, entry.action_flag) == ("acme-admin", CHANGE)
    assert entry.change_message == "Onboarded from an org chart (re-sync): 1 leavers."
    assert AdminLogTenant.objects.get(log_entry=entry).tenant_id == acme.pk  # in the tenant's audit log


def test_an_altered_chart_or_token_is_refused(acme_admin_client, acme):
    reviewed = review(acme_admin_client, ACME_CHART.replace("name: Europe", "name: EMEA"))
    form = apply_form(reviewed)
    before = everything()

    altered_chart = acme_admin_client.post(APPLY, {**form, "chart": form["chart"].replace("EMEA", "Asia")})
    altered_token = acme_admin_client.post(APPLY, {**form, "token": form["token"][:-2] + "xx"})

    for response in (altered_chart, altered_token):
        assert response.status_code == 400
        assert "This review expired or was altered" in page_text(response)
    assert everything() == before


def test_a_stale_review_shows_the_new_diff(acme_admin_client, acme):
    reviewed = review(acme_admin_client, ACME_CHART.replace("name: Europe", "name: EMEA"))
    Scope.objects.filter(tenant=acme, key="platform").update(name="Platform Engineering")  # someone else, meanwhile

    response = acme_admin_client.post(APPLY, apply_form(reviewed))

    assert response.status_code == 409
    text = page_text(response)
    assert "Tenant acme changed since this diff was made, so nothing was written." in text
    assert "team:platform Platform Engineering Platform" in text  # the new diff renames it back
    assert Scope.objects.get(tenant=acme, key="eu").name == "Europe"


# --- issue 24: YAML bombs, oversized bodies under real CSRF checks, leaver choices signed ------------------------

BOMB_LINES = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] + [
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
]


def test_800_deep_yaml_is_a_form_error_not_a_500(acme_admin_client):
    before = everything()

    response = review(acme_admin_client, "tenant: {slug: acme}\ntree: " + "[" * 800 + "]" * 800 + "\n")

    assert response.status_code == 400
    assert "nested deeper than 64 levels" in page_text(response)
    assert everything() == before


def test_a_600_byte_alias_bomb_is_a_clear_error(acme_admin_client):
    chart = "x-laughs:\n" + "".join(f"  {line}\n" for line in BOMB_LINES) + "tenant: {slug: acme, name: *i}\n"
    assert len(chart.encode()) < 620

    response = review(acme_admin_client, chart)

    assert response.status_code == 400
    assert "the aliases expand the document past" in page_text(response)


def test_a_bomb_as_a_member_id_is_a_short_page(acme_admin_client):
    chart = (
        "x-laughs:\n"
        + "".join(f"  {line}\n" for line in BOMB_LINES)
        + ACME_CHART.replace("members: [dora]", "members: [*i]")
    )

    response = review(acme_admin_client, chart)

    assert response.status_code == 400
    assert "the aliases expand the document past" in page_text(response)
    assert len(response.content) < 100_000  # the page holds the pasted chart and the message, no expansion


@pytest.fixture
def csrf_client(acme):
    """A client that, like a browser, must send the CSRF token (Django's test client skips the check)."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(tenant_admin(acme))
    client.get(START)
    return client


def test_a_3_mib_paste_under_real_csrf_checks_is_the_wizards_message(csrf_client):
    before = everything()
    token = csrf_client.cookies["csrftoken"].value

    response = csrf_client.post(START, {"chart": ACME_CHART + "#" * (3 * 1024 * 1024), "csrfmiddlewaretoken": token})

    assert response.status_code == 413
    assert "The upload is larger than the wizard accepts (2 MiB): nothing was read or written." in page_text(response)
    assert everything() == before


def test_the_wizard_still_refuses_a_post_without_the_csrf_token(csrf_client):
    before = everything()

    for url in (START, APPLY):
        response = csrf_client.post(url, {"chart": ACME_CHART})
        assert response.status_code == 403
    assert everything() == before
    token = csrf_client.cookies["csrftoken"].value
    assert csrf_client.post(START, {"chart": ACME_CHART, "csrfmiddlewaretoken": token}).status_code == 200


def test_leaver_choices_are_signed_by_the_confirmed_review(acme_admin_client, acme):
    chart = ACME_CHART.replace("members: [dora]", "members: []")
    reviewed = review(acme_admin_client, chart, sync=True)
    before = everything()

    confirming = acme_admin_client.post(APPLY, {**apply_form(reviewed), "leaver:dora": "keep"})

    assert confirming.status_code == 200
    text = page_text(confirming)
    assert "dora team:data keep 0 de-attributed; deletes 0 at their own node" in text
    assert 'name="leaver:dora"' not in confirming.content.decode()  # nothing left to change on the page
    assert everything() == before
    signed = apply_form(confirming)
    # the choice changed after it was confirmed: refused
    changed = acme_admin_client.post(APPLY, {**signed, "leaver:dora": "erase"})
    assert changed.status_code == 400
    assert "These choices differ from the ones you confirmed" in page_text(changed)
    assert everything() == before
    # the first review's token never applies a choice by itself
    assert acme_admin_client.post(APPLY, {**apply_form(reviewed), "leaver:dora": "erase"}).status_code == 200
    assert Member.objects.filter(tenant=acme, user_id="dora").exists()

    applied = acme_admin_client.post(APPLY, signed)

    assert applied.status_code == 200
    assert "leaver dora removed: 0 authored memories kept de-attributed, 0 at their own node deleted" in page_text(
        applied
    )
    assert not Member.objects.filter(tenant=acme, user_id="dora").exists()
