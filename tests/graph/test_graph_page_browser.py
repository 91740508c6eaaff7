"""The graph page in a real headless Chromium (Debian's ``chromium``, driven by pytest-playwright).

The browser is signed in to the admin of the live server (the ``admin_page`` fixture), opens the graph page for the
seeded graph of ``tests/graph/conftest.py``, checks what the page publishes on ``window.orgGraph``, clicks a node and
an edge with the mouse where the page draws them, uses the controls as a user does (typing, the Show button, the
selects), and saves screenshots to the test-artifacts folder.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

READY = "window.orgGraph && window.orgGraph.ready()"
# drawn, and clickable where it is drawn (the hit-testing canvas caught up with the final layout)
INTERACTIVE = "window.orgGraph && window.orgGraph.interactive()"


def graph(page, expression: str):
    return page.evaluate(f"window.orgGraph.{expression}")


def click_on_canvas(page, point: dict) -> None:
    """A real left click where the page draws something: the pointer moves there first, and the click waits for the
    page's hover feedback (the pointer cursor), which it shows once force-graph finds a node or an edge under it."""
    page.mouse.move(point["x"], point["y"])
    page.wait_for_function("document.getElementById('kg-canvas').style.cursor === 'pointer'")
    page.mouse.click(point["x"], point["y"])


def reloaded(page, previous_loads: int, *, until: str = READY) -> None:
    page.wait_for_function(f"window.orgGraph.loads() > {previous_loads} && ({until})")


def test_graph_page_draws_recentres_and_opens_memories(
    admin_page, live_server, acme, seeded_graph_live, page_errors, test_artifacts_dir
):
    page = admin_page()
    entities = seeded_graph_live.entities
    acme_robotics = entities["Acme Robotics"]

    page.goto(f"{live_server.url}/admin/graph/?tenant={acme.pk}&entity={acme_robotics.pk}&depth=2")
    page.wait_for_function(INTERACTIVE)

    assert graph(page, "centre()") == acme_robotics.pk
    assert graph(page, "nodeCount()") == 5
    assert graph(page, "edgeCount()") == 5
    assert graph(page, "nodeIds()") == sorted(
        seeded_graph_live.ids("Acme Robotics", "Alice Smith", "Bob Jones", "Carol White", "Stanford University")
    )
    assert "5 entities and 5 links within 2 hops of Acme Robotics." in page.locator("#kg-status").text_content()
    page.screenshot(path=test_artifacts_dir / "graph_page.png")

    # a click on Carol White recentres the graph on her (depth 2: Carol → Bob → Acme Robotics, Alice)
    carol = entities["Carol White"]
    loads = graph(page, "loads()")
    position = graph(page, f"nodeScreenPosition({carol.pk})")
    viewport = page.viewport_size
    assert 0 < position["x"] < viewport["width"] and 0 < position["y"] < viewport["height"]
    click_on_canvas(page, position)
    reloaded(page, loads, until=INTERACTIVE)

    assert graph(page, "centre()") == carol.pk
    assert graph(page, "nodeIds()") == sorted(
        seeded_graph_live.ids("Carol White", "Bob Jones", "Acme Robotics", "Alice Smith")
    )
    assert page.evaluate("location.search") == f"?tenant={acme.pk}&depth=2&entity={carol.pk}"
    assert page.locator("#kg-entity").input_value() == "Carol White"
    page.screenshot(path=test_artifacts_dir / "graph_page_recentred.png")

    # a click on the edge Carol —advises→ Bob opens the memory that states it
    advises = next(edge for edge in graph(page, "edges()") if edge["relationship"] == "advises")
    assert advises["memory"] == seeded_graph_live.memories["advises"].pk
    click_on_canvas(page, graph(page, f"edgeScreenPosition({advises['id']})"))
    page.wait_for_url(f"{live_server.url}/admin/memories/memory/{advises['memory']}/change/")

    assert "Carol White advises Bob Jones." in page.locator("body").inner_text()
    assert page_errors == []


def test_graph_page_search_box_and_filters(admin_page, live_server, acme, seeded_graph_live, page_errors):
    page = admin_page()
    entities = seeded_graph_live.entities

    page.goto(f"{live_server.url}/admin/graph/")
    page.wait_for_function(READY)
    # no entity asked for: the tenant's most mentioned one (Alice and Bob tie at three; the name decides)
    assert graph(page, "centre()") == entities["Alice Smith"].pk

    loads = graph(page, "loads()")
    page.get_by_label("Entity").fill("stanf")
    page.get_by_role("button", name="Show").click()
    reloaded(page, loads)
    assert graph(page, "centre()") == entities["Stanford University"].pk
    assert graph(page, "nodeIds()") == sorted(seeded_graph_live.ids("Stanford University", "Alice Smith"))

    loads = graph(page, "loads()")
    page.get_by_label("Depth").select_option("2")
    reloaded(page, loads)
    assert graph(page, "nodeIds()") == sorted(
        seeded_graph_live.ids("Stanford University", "Alice Smith", "Acme Robotics", "Bob Jones")
    )

    loads = graph(page, "loads()")
    page.get_by_label("Relationship").select_option("attended")
    reloaded(page, loads)
    assert graph(page, "nodeIds()") == sorted(seeded_graph_live.ids("Stanford University", "Alice Smith"))

    page.get_by_label("Entity").fill("no such entity")
    page.get_by_role("button", name="Show").click()
    page.wait_for_function("window.orgGraph.error() !== ''")
    assert graph(page, "error()") == "No entity of this tenant matches “no such entity”."
    assert page.locator("#kg-status").text_content() == "No entity of this tenant matches “no such entity”."
    assert page_errors == []
