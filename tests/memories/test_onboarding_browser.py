"""The onboarding wizard in a real headless Chromium (pytest-playwright on Debian's chromium), with real clicks on
the live server: upload a chart, read the dry-run diff, apply it and see the new key once; re-sync a newer chart
with a mover and leavers (one kept, one erased). Screenshots go to the test-artifacts folder."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission, User

from memories.admin.onboarding import ONBOARD_PERMISSIONS
from memories.models import ApiKey, Member, Memory, Tenant, TenantStaff
from memories.services import api_key_authenticate
from memories.services.memory import Author, memory_create
from memories.services.onboarding import FORMER_MEMBER
from tests.conftest import ACME_CHART

pytestmark = pytest.mark.browser

INITECH = """tenant: {slug: initech, name: Initech}
levels: [org, team, user]
tree:
  - level: org
    key: initech
    name: Initech
    children:
      - {level: team, key: tps, name: TPS Reports, members: [peter, milton]}
      - {level: team, key: sales, name: Sales, members: [bob]}
policies: {writable_levels: {agent: [user, team]}}
api_keys: [{name: support-agent, permissions: [read, write]}]
"""


def test_upload_a_chart_read_the_diff_apply_and_see_the_key_once(
    admin_page, live_server, page_errors, test_artifacts_dir, tmp_path
):
    chart = tmp_path / "initech.yaml"
    chart.write_text(INITECH)
    page = admin_page()

    page.get_by_role("link", name="Onboard", exact=True).click()
    page.get_by_label("…or upload a file").set_input_files(chart)
    page.get_by_role("button", name="Review changes").click()

    assert page.locator("#diff-summary").inner_text().startswith("Dry run for tenant initech (Initech).")
    create_rows = page.locator("#diff-create tbody tr").all_inner_texts()
    assert [re.sub(r"\s+", " ", row).strip() for row in create_rows] == [
        "scope org:initech Initech (root)",
        "scope team:tps TPS Reports org:initech",
        "scope team:sales Sales org:initech",
        "member peter team:tps",
        "member milton team:tps",
        "member bob team:sales",
    ]
    assert re.sub(r"\s+", " ", page.locator("#diff-keys tbody").inner_text()).strip() == (
        "support-agent read, write the whole tenant"
    )
    assert "writable_levels" in page.locator("#diff-policies").inner_text()
    assert not Tenant.objects.filter(slug="initech").exists()  # the dry run wrote nothing
    page.screenshot(path=test_artifacts_dir / "onboarding_diff.png", full_page=True)

    page.get_by_role("button", name="Apply").click()

    assert "Tenant initech now matches the chart" in page.locator("#onboarding-applied").inner_text()
    shown = page.locator("#new-keys code.api-key").all_inner_texts()
    assert len(shown) == 1
    assert api_key_authenticate(plain=shown[0]).name == "support-agent"
    page.screenshot(path=test_artifacts_dir / "onboarding_keys_shown_once.png", full_page=True)
    assert sorted(Member.objects.filter(tenant__slug="initech").values_list("user_id", flat=True)) == [
        "bob",
        "milton",
        "peter",
    ]

    # once: the key's own admin page lists its prefix only, and onboarding the same chart again creates nothing
    key = ApiKey.objects.get(tenant__slug="initech", name="support-agent")
    page.goto(f"{live_server.url}/admin/memories/apikey/{key.pk}/change/")
    assert f"om_{key.prefix}_…" in page.content() and shown[0] not in page.content()
    page.goto(f"{live_server.url}/admin/onboard/")
    page.get_by_label("Paste the org chart (YAML)").fill(INITECH)
    page.get_by_role("button", name="Review changes").click()
    assert page.locator("#no-changes").inner_text() == "Nothing to change: the tenant already matches this chart."
    assert page.get_by_role("button", name="Apply").is_disabled()
    assert page_errors == []


@pytest.fixture
def acme_admin(acme) -> User:
    """A tenant admin of acme (staff, assigned to acme, holding the onboarding and erasure permissions)."""
    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    codenames = [name.split(".", 1)[1] for name in ONBOARD_PERMISSIONS] + ["erase_member"]
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="memories", codename__in=codenames))
    return user


def write(tenant, user_id: str, content: str, scope: str | None = None) -> Memory:
    member = Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id)
    return memory_create(tenant=tenant, author=Author(kind="agent", member=member), content=content, scope=scope).memory


def test_re_sync_a_chart_with_a_mover_and_leavers(
    admin_page, live_server, acme, acme_admin, page_errors, test_artifacts_dir
):
    albert_private = write(acme, "albert", "Albert prefers dark mode in every editor.")
    albert_team = write(acme, "albert", "The platform team deploys on Tuesdays after standup.", "team:platform")
    write(acme, "bea", "Bea keeps her notes in a paper notebook.")
    bea_team = write(acme, "bea", "Platform on-call rotates every Monday at nine.", "team:platform")
    write(acme, "dora", "Dora's badge number changed last week.")
    dora_team = write(acme, "dora", "The data team's warehouse refresh runs nightly at two.", "team:data")
    # albert moves from platform to sales; bea and dora have left
    newer = (
        ACME_CHART.replace("members: [albert, bea]", "members: []")
        .replace("members: [dora]", "members: []")
        .replace("members: [carlos]", "members: [carlos, albert]")
    )
    page = admin_page(acme_admin)

    page.get_by_role("link", name="Onboard", exact=True).click()
    page.get_by_label("Paste the org chart (YAML)").fill(newer)
    page.get_by_label("Re-sync").check()
    page.get_by_role("button", name="Review changes").click()

    mover = re.sub(r"\s+", " ", page.locator('#diff-move tr.member-move[data-user="albert"]').inner_text()).strip()
    assert mover == (
        "member albert team:platform team:sales 1 own memory moves with them; 1 they wrote at team or higher scopes "
        "stays there"
    )
    leavers = page.locator("#diff-leavers tr.leaver")
    assert leavers.count() == 2
    bea, dora = page.locator('tr.leaver[data-user="bea"]'), page.locator('tr.leaver[data-user="dora"]')
    assert "erase: deletes 2 memories" in bea.inner_text()
    assert "keep 1 de-attributed; deletes 1 at their own node" in dora.inner_text()
    page.screenshot(path=test_artifacts_dir / "onboarding_resync_diff.png", full_page=True)

    # no choice yet: the browser will not send the form (each leaver's choice is required)
    page.get_by_role("button", name="Apply").click()
    assert page.locator("#diff-leavers").is_visible()
    assert Member.objects.filter(tenant=acme, user_id__in=["bea", "dora"]).count() == 2

    bea.locator('input[type="radio"][value="erase"]').check()
    dora.locator('input[type="radio"][value="keep"]').check()
    page.screenshot(path=test_artifacts_dir / "onboarding_resync_choices.png", full_page=True)
    page.get_by_role("button", name="Apply").click()

    # the choices come back fixed, signed into the review: applying runs exactly them
    assert "erase: deletes 2 memories" in bea.inner_text()
    assert "keep 1 de-attributed; deletes 1 at their own node" in dora.inner_text()
    assert page.locator('#diff-leavers input[type="radio"]').count() == 0
    assert Member.objects.filter(tenant=acme, user_id__in=["bea", "dora"]).count() == 2
    page.get_by_role("button", name="Apply these choices").click()

    done = page.locator("#applied-changes").inner_text()
    assert "member albert moved under team:sales" in done
    assert "leaver bea erased: 2 memories deleted" in done
    assert "leaver dora removed: 1 authored memories kept de-attributed, 1 at their own node deleted" in done
    page.screenshot(path=test_artifacts_dir / "onboarding_resync_applied.png", full_page=True)

    albert = Member.objects.select_related("scope__parent").get(tenant=acme, user_id="albert")
    assert albert.scope.parent.tag == "team:sales"
    assert Memory.objects.get(pk=albert_private.pk).scope_id == albert.scope_id  # moved with him
    assert Memory.objects.get(pk=albert_team.pk).scope.tag == "team:platform"  # stayed with the team
    assert not Memory.objects.filter(pk=bea_team.pk).exists()
    kept = Memory.objects.get(pk=dora_team.pk)
    assert (kept.author_member_id, kept.author) == (None, FORMER_MEMBER)
    assert sorted(Member.objects.filter(tenant=acme).values_list("user_id", flat=True)) == ["albert", "carlos"]
    assert page_errors == []


def test_bad_charts_are_messages_on_the_page(admin_page, live_server, acme, page_errors, test_artifacts_dir, tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text(ACME_CHART + "# padding\n" * (5 * 1024 * 1024 // 10))
    page = admin_page()
    page.goto(f"{live_server.url}/admin/onboard/")

    page.get_by_label("…or upload a file").set_input_files(big)
    page.get_by_role("button", name="Review changes").click()

    assert "The file is 5.0 MiB; the wizard accepts charts up to 2 MiB." in page.locator("#content-main").inner_text()
    page.screenshot(path=test_artifacts_dir / "onboarding_too_large.png", full_page=True)

    page.get_by_label("Paste the org chart (YAML)").fill(ACME_CHART.replace("members: [dora]", "members: [dora, bea]"))
    page.get_by_role("button", name="Review changes").click()

    assert "member 'bea' is listed twice (also under team:platform)" in page.locator("#content-main").inner_text()
    assert Member.objects.filter(tenant=acme).count() == 4
    # a 4xx page is a console error in Chromium ("Failed to load resource"): that is the refusal itself
    assert all("status of 400" in error for error in page_errors)
