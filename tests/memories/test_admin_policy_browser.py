"""The policy form in a real headless Chromium (issue 42, items 2 and 6): a tenant admin ticks a writable level, sets
a tier boost and adds a glossary entry with real clicks and keys, and the stored JSON is exactly that, shown again
on the reloaded page; a bad value is shown on its own input and nothing is saved; editing an inherited field
unticks its inherit box. Screenshots go to ``<test artifacts>/admin-pages/`` (``policy_form.png``,
``policy_form_error.png``; ``docs/screenshots/`` holds copies)."""

from __future__ import annotations

import pytest

from memories.models import Policy, Scope
from memories.roles import TENANT_ADMIN
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1400, 900


@pytest.fixture
def shots(test_artifacts_dir):
    folder = test_artifacts_dir / "admin-pages"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def stored(policy: Policy) -> dict:
    policy.refresh_from_db()
    return {name: getattr(policy, name) for name in ("writable_levels", "tier_boost", "retention_days", "glossary")}


def open_tenant_policy(page, live_server, acme) -> Policy:
    """From the admin index, as a tenant admin would: Policies › the tenant's policy."""
    policy = Policy.objects.get(tenant=acme, scope__isnull=True)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{live_server.url}/admin/memories/policy/")
    page.get_by_role("link", name="acme policy").click()
    page.wait_for_selector("#policy_form")
    assert page.url.endswith(f"/admin/memories/policy/{policy.pk}/change/")
    return policy


def test_writable_levels_a_tier_boost_and_a_glossary_entry_round_trip(
    admin_page, live_server, acme, page_errors, shots
):
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    policy = open_tenant_policy(page, live_server, acme)
    agent = page.locator("#id_writable_levels__agent")
    assert [box.is_checked() for box in agent.get_by_role("checkbox").all()] == [False, False, True, True, False]
    assert page.locator("#id_writable_levels__admin").get_by_label("every level").is_checked()
    team_boost = page.locator("[name=tier_boost__team]")
    assert team_boost.get_attribute("placeholder") == "0.97"  # the default, shown

    agent.get_by_label("division").check()
    team_boost.fill("1.2")
    page.locator("[name=glossary-0-acronym]").fill("k8s")
    page.locator("[name=glossary-0-expansion]").fill("kubernetes")
    page.screenshot(path=shots / "policy_form.png", full_page=True)
    page.get_by_role("button", name="Save and continue editing").click()
    page.wait_for_selector(".messagelist .success")

    assert stored(policy) == {
        "writable_levels": {"agent": ["division", "team", "user"], "admin": None},
        "tier_boost": {"team": 1.2},
        "retention_days": {},
        "glossary": {"k8s": "kubernetes"},
    }
    agent = page.locator("#id_writable_levels__agent")
    assert [box.is_checked() for box in agent.get_by_role("checkbox").all()] == [False, True, True, True, False]
    assert page.locator("[name=tier_boost__team]").input_value() == "1.2"
    assert page.locator("[name=glossary-0-acronym]").input_value() == "k8s"
    assert page.locator("[name=glossary-0-expansion]").input_value() == "kubernetes"
    assert page_errors == []


def test_a_bad_value_shows_on_its_input_and_saves_nothing(admin_page, live_server, acme, page_errors, shots):
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    policy = open_tenant_policy(page, live_server, acme)
    before = stored(policy)

    page.locator("#id_writable_levels__agent").get_by_label("org").check()
    page.locator("[name=tier_boost__org]").fill("12")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector(".errornote")

    error = page.locator("#id_tier_boost__org_error")
    assert error.inner_text() == "must be a number from 0.01 to 10.0, got '12.0'"
    field, message = page.locator("[name=tier_boost__org]").bounding_box(), error.bounding_box()
    assert abs(message["x"] - field["x"]) < 120 and 0 < field["y"] - message["y"] < 80  # right above its input
    assert page.locator(".errorlist").count() == 1  # on that input only
    assert page.locator("[name=tier_boost__org]").input_value() == "12"  # the page keeps what was typed
    page.locator("#id_tier_boost__org").scroll_into_view_if_needed()
    page.screenshot(path=shots / "policy_form_error.png")
    assert stored(policy) == before  # the good change beside it was not saved either
    assert page_errors == []


def test_editing_an_inherited_field_unticks_its_inherit_box(admin_page, live_server, acme, page_errors):
    override = Policy.objects.create(tenant=acme, scope=Scope.objects.get(tenant=acme, level="team", key="platform"))
    page = admin_page(StaffUserFactory(tenants=[acme], groups=[TENANT_ADMIN]))
    page.goto(f"{live_server.url}/admin/memories/policy/{override.pk}/change/")
    inherit = page.locator("#id_inherit_retention_days")
    assert inherit.is_checked()

    page.locator("[name=retention_days__event]").fill("90")
    assert not inherit.is_checked()
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector(".messagelist .success")

    assert stored(override) == {
        "writable_levels": None,
        "tier_boost": None,
        "retention_days": {"event": 90},
        "glossary": None,
    }
    assert page_errors == []
