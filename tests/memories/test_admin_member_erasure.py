"""Issue 24, point 4: deleting a member in the admin is their GDPR erasure — the same as ``DELETE /api/v1/users/{id}``
(``memories.services.erasure.user_erase``), with the erasure permission — not the removal of the member row alone,
which left the user node, the private memories and the name on team memories behind, out of reach of any erasure.

The proof builds Albert's traces once (private and team memories, a session, graph entities and aliases, a
contradiction warning on Bea's memory, admin log rows, a key and a policy override bound to his node), then, each
inside a savepoint that is rolled back, erases him through the API and deletes him through the admin (the change
page's Delete and the list's "delete selected" action), and compares every row of every table after each."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.db import connection, transaction
from rest_framework.test import APIClient

from memories.models import Member, Memory, Policy, Scope, TenantStaff
from memories.roles import AUDITOR, CURATOR, TENANT_ADMIN
from memories.services import api_key_create
from tests.memories.test_hardening_erasure import MARKER, alberts_traces, columns_holding  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

# What differs by design between the two paths: the admin logs its deletion (and its tenant) and keeps the signed-in
# session; the API key that erased records its use. They are checked apart.
NOT_COMPARED = {"django_admin_log", "curation_adminlogtenant", "django_session"}
COLUMNS_NOT_COMPARED = {"memories_apikey": {"last_used_at"}}


def every_row() -> dict[str, list[str]]:
    """Every row of every table of the schema (as text, sorted), but the tables and columns named above."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE' ORDER BY 1"
        )
        tables = [name for (name,) in cursor.fetchall() if name not in NOT_COMPARED]
        assert len(tables) > 20  # the comparison really covers the schema
        rows = {}
        for table in tables:
            cursor.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = %s ORDER BY ordinal_position",
                [table],
            )
            columns = [c for (c,) in cursor.fetchall() if c not in COLUMNS_NOT_COMPARED.get(table, set())]
            select = ", ".join(f'"{column}"::text' for column in columns)
            cursor.execute(f'SELECT {select} FROM "{table}"')  # noqa: S608 (names from the catalog)
            rows[table] = sorted(repr(row) for row in cursor.fetchall())
    return rows


def staff(username: str, role: str, tenant) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def traced(acme, alberts_traces):  # noqa: F811
    """Albert's traces plus a key restricted to his node and a policy override there (the erasure takes both)."""
    albert = Member.objects.select_related("scope").get(tenant=acme, user_id="albert")
    api_key_create(tenant=acme, name="alberts laptop", permissions=["read", "write"], scope=albert.scope)
    Policy.objects.create(tenant=acme, scope=albert.scope, max_content_bytes=4096)
    return albert


def rolled_back(run):
    """``run()`` inside a savepoint that is rolled back: what every table holds right after it, and its result."""
    with transaction.atomic():
        result = run()
        rows = every_row()
        log = list(LogEntry.objects.filter(action_flag=DELETION).values_list("object_repr", "change_message"))
        transaction.set_rollback(True)
    return rows, result, log


def test_an_admin_delete_of_a_member_leaves_exactly_what_the_api_erasure_leaves(acme, traced, client):
    _, plain = api_key_create(tenant=acme, name="gdpr desk", permissions=["read", "admin"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))
    before = every_row()

    after_api, erased, _ = rolled_back(lambda: api.delete("/api/v1/users/albert"))
    assert erased.status_code == 200, erased.content
    assert every_row() == before  # the savepoint really rolled back
    after_change_page, deleted, log = rolled_back(
        lambda: client.post(f"/admin/memories/member/{traced.pk}/delete/", {"post": "yes"})
    )
    after_action, acted, action_log = rolled_back(
        lambda: client.post(
            "/admin/memories/member/", {"action": "delete_selected", "_selected_action": [traced.pk], "post": "yes"}
        )
    )

    assert (deleted.status_code, acted.status_code) == (302, 302)
    assert erased.json()["memories"] >= 4 and erased.json()["api_keys"] == 1 and erased.json()["policies"] == 1
    assert after_api != before
    differing = [table for table in after_api if after_api[table] != after_change_page[table]]
    assert differing == [], differing
    differing = [table for table in after_api if after_api[table] != after_action[table]]
    assert differing == [], differing
    # the admin's own record of the deletion keeps that it happened, not the person's name
    assert log == [("(erased)", "")]
    assert action_log == [("(erased)", "")]


def test_after_an_admin_delete_no_column_of_any_table_holds_the_members_text(acme, traced, client):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))

    response = client.post(f"/admin/memories/member/{traced.pk}/delete/", {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert columns_holding(MARKER) == []
    assert not Scope.objects.filter(pk=traced.scope_id).exists()
    assert not Memory.objects.filter(author_member_id=traced.pk).exists()
    messages = [str(message) for message in response.context["messages"]]
    assert any(message.startswith("Erased albert: ") for message in messages), messages


def test_the_confirmation_page_says_it_is_the_erasure_and_what_it_takes(acme, traced, client):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))

    html = client.get(f"/admin/memories/member/{traced.pk}/delete/").content.decode()

    assert 'id="erasure-notice"' in html
    assert "<code>DELETE /api/v1/users/albert</code>" in html
    listed = html.split('id="deleted-objects">')[1].split("</ul>")[0]
    memories = Memory.objects.filter(author_member=traced).count()  # all of his are his own or at his node
    assert listed.strip() == (
        f"<li>albert ({traced.display_name or 'no display name'}): {memories} memories at their node or written by "
        f"them (with their history), their user node {traced.scope.tag}</li>"
    )
    assert 'value="Yes, erase albert"' in html


def test_the_list_names_the_action_for_what_it_does(acme, traced, client):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))

    html = client.get("/admin/memories/member/").content.decode()

    assert '<option value="delete_selected">Erase selected members (GDPR)</option>' in html


@pytest.mark.parametrize("role", [CURATOR, AUDITOR])
def test_roles_without_the_erasure_permission_cannot_delete_a_member(acme, traced, client, role):
    client.force_login(staff("someone", role, acme))

    assert client.post(f"/admin/memories/member/{traced.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Member.objects.filter(pk=traced.pk).exists()


def test_the_delete_permission_alone_is_not_enough(acme, traced, client):
    user = User.objects.create_user("deleter", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="memories", codename__in=["view_member", "delete_member"])
    )
    client.force_login(user)

    assert client.post(f"/admin/memories/member/{traced.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Member.objects.filter(pk=traced.pk).exists()


def test_another_tenants_admin_cannot_delete_the_member(acme, globex, traced, client):
    client.force_login(staff("globex-admin", TENANT_ADMIN, globex))

    response = client.post(f"/admin/memories/member/{traced.pk}/delete/", {"post": "yes"})

    assert response.status_code in (302, 404)  # the admin's "no such object" redirect, or a 404
    assert Member.objects.filter(pk=traced.pk).exists()


def test_a_scope_node_with_members_is_not_deleted_around_them(acme, traced, client):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))
    team = Scope.objects.get(tenant=acme, level="team", key="platform")

    page = client.get(f"/admin/memories/scope/{team.pk}/delete/").content.decode()
    client.post(f"/admin/memories/scope/{team.pk}/delete/", {"post": "yes"})

    assert f'href="/admin/memories/member/{traced.pk}/delete/">Member albert</a>: erase them first' in page
    assert Scope.objects.filter(pk=team.pk).exists()
    assert Member.objects.filter(pk=traced.pk).exists()
