"""The curation inbox in a real headless Chromium (pytest-playwright on Debian's chromium), with real clicks: a
read/write key's policy is a proposal listed beside the open contradictions; a tenant admin approves one (it becomes
a curated policy) and rejects another (it is removed); both decisions are in the audit log, which the tenant admin
reads in the browser. Screenshots go to the test-artifacts folder."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User

from memories.models import Member, Memory, Scope, TenantStaff
from memories.roles import TENANT_ADMIN
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.browser


def agent_policy(tenant, content: str) -> Memory:
    """A policy written through a read/write key (no `admin` permission) for albert."""
    albert = Member.objects.get(tenant=tenant, user_id="albert")
    scope = Scope.objects.get(tenant=tenant, level="team", key="platform")
    return memory_create(
        tenant=tenant,
        author=Author(kind="agent", member=albert, key_name="support-bot"),
        content=content,
        scope=scope,
        kind="policy",
    ).memory


def admin_write(tenant, content: str) -> Memory:
    scope = Scope.objects.get(tenant=tenant, level="team", key="platform")
    return memory_create(
        tenant=tenant, author=Author(kind="admin", label="admin:test"), content=content, scope=scope
    ).memory


def tenant_admin(tenant) -> User:
    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=TENANT_ADMIN))
    return user


def test_approve_and_reject_proposals_in_the_inbox(admin_page, live_server, acme, page_errors, test_artifacts_dir):
    keep = agent_policy(acme, "Database migrations run only after a dry run on staging.")
    drop = agent_policy(acme, "Database migrations run any day of the week.")
    older = admin_write(acme, "We deploy on Fridays.")
    newer = admin_write(acme, "We no longer deploy on Fridays.")
    assert (keep.status, drop.status) == ("proposed", "proposed")

    page = admin_page(tenant_admin(acme))
    page.goto(f"{live_server.url}/admin/contradictions/{acme.pk}/")
    page.wait_for_selector("h1:text-is('Contradictions')")
    assert page.locator("#proposal-count").inner_text().startswith("2 proposed policies")
    assert "Database migrations run any day of the week." in page.locator(f"#proposal-{drop.pk}").inner_text()
    assert "support-bot" in page.locator(f"#proposal-{drop.pk}").inner_text()
    assert page.locator(f"#pair-{newer.pk}-{older.pk}").count() == 1  # beside the open contradictions
    page.screenshot(path=test_artifacts_dir / "curation_inbox.png", full_page=True)

    page.locator(f"#proposal-{keep.pk}").get_by_role("button", name=f"Approve memory {keep.pk}").click()
    success = page.locator("ul.messagelist li.success")
    success.wait_for()
    assert success.inner_text() == f"Approved memory {keep.pk}: it is now a curated policy."

    page.locator(f"#proposal-{drop.pk}").get_by_role("button", name=f"Reject memory {drop.pk}").click()
    page.wait_for_selector(f"ul.messagelist li.success:text-is('Rejected memory {drop.pk}: it was removed.')")
    assert page.locator("#no-proposals").inner_text() == "No proposed policies."
    page.screenshot(path=test_artifacts_dir / "curation_inbox_decided.png", full_page=True)

    keep.refresh_from_db()
    assert keep.status == "curated"
    assert not Memory.objects.filter(pk=drop.pk).exists()
    messages = dict(
        LogEntry.objects.filter(object_id__in=[str(keep.pk), str(drop.pk)]).values_list("object_id", "change_message")
    )
    assert messages == {
        str(keep.pk): f"Proposed policy memory {keep.pk} approved: now curated.",
        str(drop.pk): f"Proposed policy memory {drop.pk} rejected: removed.",
    }

    # the tenant admin reads both decisions in the audit log
    page.goto(f"{live_server.url}/admin/admin/logentry/")
    audit = page.locator("#result_list").inner_text()
    assert f"Proposed policy memory {keep.pk} approved: now curated." in audit
    assert f"Proposed policy memory {drop.pk} rejected: removed." in audit
    page.screenshot(path=test_artifacts_dir / "curation_audit.png", full_page=True)
    assert page_errors == []
