"""Issue 27, item 2 ("an admin that leads"), in the HTML the admin serves: the playground starts on the user's only
tenant, the memory list reads title plus content and keeps the warnings beside the id, and a memory's page opens on
its warnings, contradictions and history. The browser tests (test_admin_pages_browser.py) look at the same pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User

from memories.models import Memory, Scope, TenantStaff
from memories.roles import TENANT_ADMIN
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="admin:test")


def write(tenant, content: str, *, title: str = "") -> Memory:
    scope = Scope.objects.get(tenant=tenant, level="team", key="platform")
    return memory_create(tenant=tenant, author=ADMIN, content=content, scope=scope, title=title).memory


def tenant_admin(client, *tenants) -> User:
    user = User.objects.create_user("leader", password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=TENANT_ADMIN))
    client.force_login(user)
    return user


def selected_tenant(html: str) -> str | None:
    select = html.split('name="tenant"')[1].split("</select>")[0]
    found = re.search(r'<option value="(\d+)" selected>', select)
    return found.group(1) if found else None


def test_the_playground_starts_on_a_tenant_admins_tenant(client, acme, globex):
    tenant_admin(client, acme)

    assert selected_tenant(client.get("/admin/search/").content.decode()) == str(acme.pk)


def test_the_playground_starts_on_the_only_tenant_for_a_superuser(superuser_client, acme):
    assert selected_tenant(superuser_client.get("/admin/search/").content.decode()) == str(acme.pk)


def test_the_playground_leaves_the_choice_to_a_superuser_of_several_tenants(superuser_client, acme, globex):
    assert selected_tenant(superuser_client.get("/admin/search/").content.decode()) is None


def test_the_memory_list_reads_title_and_content_and_puts_warnings_beside_the_id(client, acme):
    tenant_admin(client, acme)
    first = write(acme, "The platform team deploys on Tuesdays and Thursdays.", title="Deploy days")
    second = write(acme, "Payments deploy only on Mondays, after the weekly review.", title="Deploy days")

    html = client.get("/admin/memories/memory/").content.decode()

    header = re.findall(r'<th scope="col" class="(?:sortable )?column-(\w+)', html)
    assert header[:3] == ["id", "warning_marker", "summary"]
    assert "column-tenant" not in html  # one tenant: no tenant column
    for memory in (first, second):
        assert (
            f'<strong class="memory-title">Deploy days</strong><br><span class="memory-snippet">{memory.content}</span>'
            in html
        )
    assert "td.field-summary { min-width: 20em; }" in html


def test_the_memory_list_shows_the_tenant_to_a_superuser_of_several(superuser_client, acme, globex):
    write(acme, "The platform team deploys on Tuesdays and Thursdays.")

    html = superuser_client.get("/admin/memories/memory/").content.decode()

    assert "column-tenant" in html


def test_a_memorys_page_opens_on_its_warnings_contradictions_and_history(client, acme):
    tenant_admin(client, acme)
    older = write(acme, "We deploy on Fridays.")
    newer = write(acme, "We no longer deploy on Fridays.")
    assert [w["code"] for w in newer.warnings] == ["possible_contradiction"]

    for memory, other in ((newer, older), (older, newer)):
        html = client.get(f"/admin/memories/memory/{memory.pk}/change/").content.decode()
        fieldsets = re.findall(r"<fieldset[^>]*>\s*(?:<h2[^>]*>([^<]*)</h2>)?", html)
        assert fieldsets[0] == "Warnings, contradictions and history"
        first = html.split("<fieldset")[1]
        assert "field-warnings_display" in first and "field-history" in first
        contradictions = first.split("field-contradictions_display")[1].split("</fieldset>")[0]
        assert f'may contradict <a href="/admin/memories/memory/{other.pk}/change/">memory {other.pk}</a>' in (
            contradictions
        )
        assert f'href="/admin/contradictions/{acme.pk}/"' in contradictions
        assert html.index("field-warnings_display") < html.index('name="content"')
