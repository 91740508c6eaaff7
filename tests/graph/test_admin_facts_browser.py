"""The entity page's fact timeline and a curator's close, in a real headless Chromium: the timeline (current first,
then history; what closed each value), the close form refusing an empty note on its field, then closing, and the
timeline reading the interval as set. Screenshots go to ``<test artifacts>/admin-pages/``
(``entity_facts.png``, ``fact_close_error.png``, ``entity_facts_closed.png``; ``docs/screenshots/`` holds copies)."""

from __future__ import annotations

import pytest

from graph.models import Entity, Fact
from memories.roles import CURATOR
from tests.factories import StaffUserFactory
from tests.graph.test_admin_facts import ACME_STATEMENTS, GLOBEX_STATEMENTS, _write

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1400, 900


@pytest.fixture
def shots(test_artifacts_dir):
    folder = test_artifacts_dir / "admin-pages"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_curator_reads_the_timeline_and_closes_a_fact(admin_page, live_server, acme, globex, page_errors, shots):
    _write(acme, ACME_STATEMENTS)  # committed: each write's extraction runs at its commit
    _write(globex, GLOBEX_STATEMENTS)
    tomasz = Entity.objects.get(tenant=acme, name="Tomasz Nowak")
    porto = Fact.objects.get(tenant=acme, subject=tomasz, attribute="lives_in", value="Porto")
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[CURATOR]))
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})

    page.goto(f"{live_server.url}/admin/graph/entity/{tomasz.pk}/change/#facts")
    facts = page.locator("#facts")
    rows = facts.locator("tbody tr[data-fact-id]")
    assert [rows.nth(i).get_attribute("class") for i in range(rows.count())] == [
        "fact-current",
        "fact-closed",
        "fact-closed",
        "fact-current",
    ]
    assert "Hooli" not in facts.inner_text()  # globex's Tomasz works there, not acme's
    facts.scroll_into_view_if_needed()
    facts.screenshot(path=shots / "entity_facts.png")

    page.locator(f"tr[data-fact-id='{porto.pk}']").get_by_role("link", name="Close…").click()
    page.wait_for_url(f"**/admin/graph/fact/{porto.pk}/close/")
    page.fill("#id_valid_until", "2025-11-01")
    page.get_by_role("button", name="Close the fact").click()
    page.wait_for_load_state()

    assert page.locator(".field-note .errorlist").inner_text() == "This field is required."
    page.screenshot(path=shots / "fact_close_error.png")

    page.fill("#id_note", "He told us he moved back to Lisbon in November.")
    page.get_by_role("button", name="Close the fact").click()
    page.wait_for_url(f"**/admin/graph/entity/{tomasz.pk}/change/#facts")

    closed = page.locator(f"tr[data-fact-id='{porto.pk}']")
    assert closed.get_attribute("class") == "fact-ended"
    assert closed.locator(".fact-interval").inner_text() == "2025-06-16 – 2025-11-01"
    assert "He told us he moved back to Lisbon in November." in closed.inner_text()
    assert f"Fact {porto.pk} closed: valid until 2025-11-01." in page.locator(".messagelist").inner_text()
    page.locator("#facts").screenshot(path=shots / "entity_facts_closed.png")
    assert page_errors == []
