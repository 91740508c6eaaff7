"""History that looks like history, and nodes named as people name them, in a real headless Chromium (issue 42,
items 3 and 6): the memory list hides a superseded memory until one click on "all" shows it, marked, with a link to
the memory that replaced it; "Add memory" preselects a one-tenant admin's tenant and names each node with its tag,
as the scope tree does. Screenshots go to ``<test artifacts>/admin-pages/`` (``memory_list_history.png``,
``scope_picker.png``, ``scope_tree.png``; ``docs/screenshots/`` holds copies)."""

from __future__ import annotations

import pytest

from memories.models import Memory
from memories.roles import TENANT_ADMIN
from tests.conftest import remember
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1400, 900
OLDER = "The platform team deploys the billing service to production every Tuesday morning after review"
NEWER = "The platform team deploys the billing service to production every Tuesday afternoon after review"


@pytest.fixture
def shots(test_artifacts_dir):
    folder = test_artifacts_dir / "admin-pages"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def versions(acme, globex):
    older = remember(acme, OLDER, scope="team:platform", title="Deploy window")
    newer = remember(acme, NEWER, scope="team:platform", title="Deploy window")
    remember(acme, "Dora Klein manages the data team, which runs the Kafka cluster.", scope="team:data")
    remember(globex, OLDER, scope="team:platform")  # another tenant's history, never shown to acme's admin
    remember(globex, NEWER, scope="team:platform")
    older.refresh_from_db()
    assert older.superseded_by_id == newer.pk
    return older, newer


def test_history_is_hidden_until_all_is_clicked_and_links_what_replaced_it(
    admin_page, live_server, acme, versions, page_errors, shots
):
    older, newer = versions
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{live_server.url}/admin/memories/memory/")
    rows = page.locator("#result_list tbody tr")
    assert rows.count() == 2
    assert page.locator(f"#result_list input[value='{older.pk}']").count() == 0
    show = page.locator("#show-filter")
    assert show.locator("li.selected").inner_text() == "current"

    show.get_by_role("link", name="all", exact=True).click()
    page.wait_for_url("**/admin/memories/memory/?show=all")

    assert rows.count() == 3
    assert show.locator("li.selected").inner_text() == "all"
    row = page.locator("#result_list tr", has=page.locator(f"input[value='{older.pk}']"))
    marker = row.locator("td.field-history_marker")
    assert marker.inner_text() == f"HISTORY\nreplaced by memory {newer.pk}"  # the badge's text is upper-cased
    assert page.locator("#result_list .history-badge").count() == 1
    assert "globex" not in page.content().lower()
    results = page.locator("#changelist-form .results").bounding_box()
    header = page.locator("#result_list th.column-history_marker").bounding_box()
    assert header["x"] + header["width"] <= results["x"] + results["width"] + 1  # in view, not scrolled away
    page.screenshot(path=shots / "memory_list_history.png")

    marker.get_by_role("link", name=f"memory {newer.pk}").click()
    page.wait_for_url(f"**/admin/memories/memory/{newer.pk}/change/")
    assert f"supersedes memory {older.pk}" in page.locator(".field-history").inner_text()
    assert page_errors == []


def test_add_memory_preselects_the_tenant_and_names_the_nodes(
    admin_page, live_server, acme, globex, page_errors, shots
):
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{live_server.url}/admin/memories/memory/")
    page.get_by_role("link", name="Add memory").click()
    page.wait_for_selector("select[name=scope]")

    assert page.locator("select[name=tenant]").input_value() == str(acme.pk)
    options = [text.strip() for text in page.locator("select[name=scope] option").all_inner_texts()]
    assert options[:3] == ["---------", "Acme Corp (org:acme)", "Europe (division:eu)"]
    assert "Platform (team:platform)" in options
    assert not any("globex" in option.lower() for option in options)
    page.locator("select[name=scope]").select_option(label="\u2003\u2003Platform (team:platform)")
    page.locator("select[name=scope]").evaluate("select => { select.size = 11; select.style.height = 'auto'; }")
    page.screenshot(path=shots / "scope_picker.png")

    page.locator("select[name=kind]").select_option("fact")
    page.locator("textarea[name=content]").fill("The platform team's on-call rotation changes on Mondays.")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector(".messagelist .success")
    memory = Memory.objects.get(content="The platform team's on-call rotation changes on Mondays.")
    assert (memory.tenant_id, memory.scope.tag) == (acme.pk, "team:platform")
    assert page_errors == []


def test_the_scope_tree_names_each_node_with_its_tag(admin_page, live_server, acme, globex, page_errors, shots):
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{live_server.url}/admin/memories/scope/")
    collapsed = page.locator("#result_list tr:not(.collapse-hide) .collapse-toggle.collapsed")
    while collapsed.count():  # the tree opens folded below its first level: unfold every branch
        collapsed.first.click()

    titles = [text.strip() for text in page.locator("#result_list .field-indented_title").all_inner_texts()]
    assert titles[:2] == ["Acme Corp (org:acme)", "Europe (division:eu)"]  # depth first
    assert sorted(titles) == [
        "Acme Corp (org:acme)",
        "Americas (division:us)",
        "Data (team:data)",
        "Europe (division:eu)",
        "Platform (team:platform)",
        "Sales (team:sales)",
        "albert (user:albert)",
        "bea (user:bea)",
        "carlos (user:carlos)",
        "dora (user:dora)",
    ]  # and none of globex's look-alike tree
    page.screenshot(path=shots / "scope_tree.png")
    assert page_errors == []
