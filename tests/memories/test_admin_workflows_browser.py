"""Admin workflows in a real headless Chromium (pytest-playwright on Debian's chromium), with real clicks: resolving a
contradiction (keep one, keep both) from the tenant admin's dashboard, a curator who cannot open keys or policies,
and the dashboard as a superuser reaches it. Screenshots go to the test-artifacts folder."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User

from memories.models import ApiKey, Memory, Policy, Scope, TenantStaff
from memories.roles import CURATOR, TENANT_ADMIN
from memories.services import api_key_create
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.browser


def write(tenant, content: str) -> Memory:
    scope = Scope.objects.get(tenant=tenant, level="team", key="platform")
    return memory_create(
        tenant=tenant, author=Author(kind="admin", label="admin:test"), content=content, scope=scope
    ).memory


def staff(username: str, role: str, *tenants) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def pair(acme):
    older = write(acme, "We deploy on Fridays.")
    newer = write(acme, "We no longer deploy on Fridays.")
    assert [w["code"] for w in newer.warnings] == ["possible_contradiction"]
    return older, newer


def open_queue_from_the_dashboard(page, live_server):
    """The tenant admin's index is their dashboard; its open-contradictions figure links to the queue."""
    assert page.locator("#contradiction-count").inner_text() == "1 open"
    page.locator("#open-contradictions").get_by_role("link", name="Contradictions").click()
    page.wait_for_selector("h1:text-is('Contradictions')")


def test_keep_one_supersedes_the_other(admin_page, live_server, acme, pair, page_errors, test_artifacts_dir):
    older, newer = pair
    page = admin_page(staff("acme-admin", TENANT_ADMIN, acme))
    open_queue_from_the_dashboard(page, live_server)
    section = page.locator(f"#pair-{newer.pk}-{older.pk}")
    assert "We no longer deploy on Fridays." in section.inner_text()
    assert "We deploy on Fridays." in section.inner_text()
    page.screenshot(path=test_artifacts_dir / "contradictions_queue.png", full_page=True)

    section.get_by_role("button", name=f"Keep memory {newer.pk}").click()

    success = page.locator("ul.messagelist li.success")
    success.wait_for()
    assert success.inner_text() == f"Kept memory {newer.pk}; memory {older.pk} is now its history (superseded)."
    assert page.locator("#no-contradictions").inner_text() == "No open contradictions."
    page.screenshot(path=test_artifacts_dir / "contradictions_keep_one.png", full_page=True)
    older.refresh_from_db()
    newer.refresh_from_db()
    assert older.superseded_by_id == newer.pk
    assert newer.warnings[0]["resolution"]["by"] == "acme-admin"
    assert page_errors == []


def test_keep_both_dismisses_the_warning(admin_page, live_server, acme, pair, page_errors, test_artifacts_dir):
    older, newer = pair
    page = admin_page(staff("acme-curator", CURATOR, acme))  # a curator may resolve too
    open_queue_from_the_dashboard(page, live_server)

    page.locator(f"#pair-{newer.pk}-{older.pk}").get_by_role("button", name="Keep both").click()

    success = page.locator("ul.messagelist li.success")
    success.wait_for()
    assert success.inner_text() == f"Kept both memory {newer.pk} and memory {older.pk}; warning dismissed."
    page.screenshot(path=test_artifacts_dir / "contradictions_keep_both.png", full_page=True)
    older.refresh_from_db()
    newer.refresh_from_db()
    assert older.is_live and newer.is_live
    assert newer.warnings[0]["resolution"]["choice"] == "keep_both"
    # the resolution is in the audit trail, which a curator may not read; the history link on the memory works
    page.goto(f"{live_server.url}/admin/memories/memory/{newer.pk}/change/")
    assert "possible_contradiction" in page.locator(".field-warnings_display").inner_text()
    assert page_errors == []


def test_a_curator_cannot_open_keys_or_policies(admin_page, live_server, acme, page_errors, test_artifacts_dir):
    key, _ = api_key_create(tenant=acme, name="support-agent", permissions=["read"])
    policy = Policy.objects.get(tenant=acme, scope__isnull=True)
    page = admin_page(staff("acme-curator", CURATOR, acme))

    app_list = page.locator("#content-main")
    assert app_list.get_by_role("row", name="Memories").locator('a[href="/admin/memories/memory/"]').count() == 2
    assert app_list.locator('a[href="/admin/memories/apikey/"]').count() == 0
    assert app_list.locator('a[href="/admin/memories/policy/"]').count() == 0
    page.screenshot(path=test_artifacts_dir / "curator_index.png", full_page=True)

    for path in (
        "/admin/memories/apikey/",
        f"/admin/memories/apikey/{key.pk}/change/",
        "/admin/memories/policy/",
        f"/admin/memories/policy/{policy.pk}/change/",
        "/admin/admin/logentry/",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 403, path
        assert "support-agent" not in page.content()
    page.screenshot(path=test_artifacts_dir / "curator_refused_keys.png")

    # what a curator may do: open the memories list by clicking
    page.goto(f"{live_server.url}/admin/")
    page.locator('#content-main a[href="/admin/memories/memory/"]').first.click()
    page.wait_for_url(re.compile(r".*/admin/memories/memory/$"))
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None
    # a 403 page is a console error in Chromium ("Failed to load resource"); nothing else went wrong
    assert [e for e in page_errors if "403" not in e] == []


def test_the_dashboard_as_a_superuser_reaches_it(
    admin_page, live_server, acme, globex, pair, page_errors, test_artifacts_dir
):
    page = admin_page()  # a superuser: the index lists every tenant with its Dashboard link
    row = page.locator("#tenant-dashboards tr", has_text="acme")

    row.get_by_role("link", name="Dashboard").click()

    page.wait_for_selector("#tenant-dashboard")
    assert page.locator("#tenant-dashboard").get_attribute("data-tenant") == "acme"
    assert page.locator("#live-total").inner_text() == "2"
    assert page.locator("#contradiction-count").inner_text() == "1 open"
    bars = page.locator("#writes-per-day svg rect.bar")
    assert bars.count() == 30
    assert bars.last.get_attribute("data-count") == "2"
    assert page.locator("#writes-per-day svg").is_visible()
    page.screenshot(path=test_artifacts_dir / "tenant_dashboard.png", full_page=True)
    assert page_errors == []
