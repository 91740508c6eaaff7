"""Every page of the admin a new tenant admin meets, in a real headless Chromium at 1,400 × 900 (issue 27, item 2):
the index with its OrgMemory box, the dashboard's per-level totals, the memory list (title over a snippet, warnings
on screen), a memory's page (warnings, contradictions and history first), the scope tree's members, the playground
on the admin's tenant, the graph, the contradictions queue and onboarding. One screenshot per page goes to
``<test artifacts>/admin-pages/`` (the folder is printed); the layout is checked from the rendered boxes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from memories.models import Memory, Scope, TenantStaff
from memories.roles import TENANT_ADMIN
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1400, 900
ADMIN = Author(kind="admin", label="admin:onboarding")


def write(tenant, content: str, *, title: str = "", tag: str = "team:platform", kind: str = "fact") -> Memory:
    level, key = tag.split(":")
    scope = Scope.objects.get(tenant=tenant, level=level, key=key)
    return memory_create(tenant=tenant, author=ADMIN, content=content, scope=scope, title=title, kind=kind).memory


@pytest.fixture
def acme_memories(acme):
    """A small but real tenant: two memories both titled "Deploy days", a contradiction, a policy, a preference
    and a few facts naming people, teams and systems (their links are extracted on commit)."""
    write(acme, "The platform team deploys on Tuesdays and Thursdays after the 10:00 stand-up.", title="Deploy days")
    write(acme, "Payments deploy only on Mondays, after the weekly change review.", title="Deploy days")
    write(acme, "Albert Smith leads the platform team and works with Bea Jones on the billing service.")
    write(acme, "Dora Klein manages the data team, which runs the Kafka cluster.", tag="team:data")
    write(acme, "Every vendor contract needs a second signature from legal.", tag="org:acme", kind="policy")
    write(acme, "Albert prefers written summaries over meetings.", tag="user:albert", kind="preference")
    older = write(acme, "We deploy on Fridays.")
    newer = write(acme, "We no longer deploy on Fridays.")
    assert [w["code"] for w in newer.warnings] == ["possible_contradiction"]
    return {"older": older, "newer": newer}


@pytest.fixture
def shots(test_artifacts_dir):
    folder = test_artifacts_dir / "admin-pages"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nadmin page screenshots: {folder.resolve()}")
    return folder


def tenant_admin(tenant) -> User:
    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=TENANT_ADMIN))
    return user


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, "not rendered"
    return found


def test_every_admin_page_at_1400_by_900(admin_page, live_server, acme, acme_memories, page_errors, shots):
    page = admin_page(tenant_admin(acme))
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    url = live_server.url

    # the index: OrgMemory's name and a box linking every custom page
    page.goto(f"{url}/admin/")
    assert page.locator("#site-name").inner_text() == "OrgMemory administration"
    assert page.title() == "OrgMemory | OrgMemory admin"
    links = page.locator("#orgmemory-pages th a")
    assert links.all_inner_texts() == [
        "Dashboard",
        "Knowledge graph",
        "Search playground",
        "Contradictions",
        "Onboard",
        "API docs",
    ]
    assert box(page.locator("#orgmemory-pages"))["y"] < HEIGHT  # above the fold
    for link in links.all():  # each page's name on one line, its description beside it
        assert box(link)["height"] < 30, link.inner_text()
    page.screenshot(path=shots / "index.png")

    # the dashboard, reached from the box: a total per level
    page.locator("#dashboard-page-link").click()
    page.wait_for_selector("#memories-per-level-totals")
    totals = dict(
        zip(
            page.locator("#memories-per-level-totals tbody th").all_inner_texts(),
            page.locator("#memories-per-level-totals tbody td:nth-child(2)").all_inner_texts(),
            strict=True,
        )
    )
    assert totals == {"org": "1", "team": "6", "user": "1"}
    page.screenshot(path=shots / "dashboard.png")

    # the memory list: the memory column takes the width, two "Deploy days" read apart, warnings on screen
    page.goto(f"{url}/admin/memories/memory/")
    summary = page.locator("#result_list td.field-summary").first
    assert box(summary)["width"] >= 300
    deploy_days = page.locator("#result_list td.field-summary", has_text="Deploy days")
    assert deploy_days.count() == 2
    texts = deploy_days.all_inner_texts()
    assert texts[0] != texts[1] and all(text.startswith("Deploy days\n") for text in texts)
    marker = page.locator("#result_list td.field-warning_marker", has_text="⚠")
    assert marker.count() == 1
    right = box(marker)["x"] + box(marker)["width"]
    assert right <= WIDTH
    assert page.locator("#result_list th.column-tenant").count() == 0
    results = box(page.locator("#changelist-form .results"))  # scrolls sideways when the columns do not fit
    for header in page.locator("#result_list thead th").all():  # every column in view, none scrolled away
        assert box(header)["x"] + box(header)["width"] <= results["x"] + results["width"] + 1, header.inner_text()
    page.screenshot(path=shots / "memory_list.png")

    # a memory's page: warnings, contradictions and history before the form
    newer, older = acme_memories["newer"], acme_memories["older"]
    page.goto(f"{url}/admin/memories/memory/{newer.pk}/change/")
    warnings = page.locator(".field-warnings_display")
    assert "possible_contradiction" in warnings.inner_text()
    assert box(warnings)["y"] < HEIGHT
    assert box(page.locator(".field-contradictions_display"))["y"] < HEIGHT
    assert box(page.locator(".field-history"))["y"] < HEIGHT
    assert box(warnings)["y"] < box(page.locator('textarea[name="content"]'))["y"]
    assert f"memory {older.pk}" in page.locator(".field-contradictions_display").inner_text()
    page.screenshot(path=shots / "memory_change.png")

    # the scope tree: each node's members
    page.goto(f"{url}/admin/memories/scope/")
    platform = page.locator("#result_list tr", has_text="team:platform")
    assert platform.locator("td.field-members_display").inner_text() == "albert, bea"
    page.screenshot(path=shots / "scope_tree.png")

    # the playground: on the admin's tenant from the start; a search shows why rows rank
    page.goto(f"{url}/admin/")
    page.locator("#playground-link").click()
    page.wait_for_selector("#playground")
    assert page.locator('select[name="tenant"]').input_value() == str(acme.pk)
    page.locator('input[name="user_id"]').fill("albert")
    page.locator('input[name="query"]').fill("when does the platform team deploy?")
    page.locator('#playground input[type="submit"]').click()
    page.wait_for_selector("#results tbody tr")
    assert "Deploy days" in page.locator("#results").inner_text()
    page.screenshot(path=shots / "playground.png")

    # the graph page
    page.goto(f"{url}/admin/")
    page.locator("#graph-page-link").click()
    page.wait_for_selector("#kg-canvas canvas")
    page.wait_for_timeout(1500)  # let the force layout settle before the picture (nothing is asserted on time)
    page.screenshot(path=shots / "graph.png")

    # the contradictions queue, from the box
    page.goto(f"{url}/admin/")
    page.locator("#contradictions-page-link").click()
    page.wait_for_selector(f"#pair-{newer.pk}-{older.pk}")
    page.screenshot(path=shots / "contradictions.png")

    # onboarding, from the box
    page.goto(f"{url}/admin/")
    page.locator("#onboard-link").click()
    page.wait_for_selector('textarea[name="chart"]')
    page.screenshot(path=shots / "onboarding.png")

    # the header's site link and the root
    assert page.locator("#api-docs-userlink").get_attribute("href") == "/api/docs/"
    page.goto(f"{url}/")
    assert page.url == f"{url}/admin/"
    assert page_errors == []
