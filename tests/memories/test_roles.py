"""Roles on top of tenant membership: the groups and their permissions, what each role may open and do in the admin,
foreign keys kept inside one tenant, and the audit log (per tenant, deletions included, no erased text)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.contrib.auth.models import Group, User
from django.test import Client

from memories.curation.models import AdminLogTenant
from memories.models import ApiKey, Memory, Policy, Scope, TenantStaff
from memories.roles import AUDITOR, CURATOR, ROLES, TENANT_ADMIN, roles_sync
from memories.services import api_key_create
from memories.services.contradictions import contradiction_resolve
from memories.services.erasure import ERASED_REPR, user_erase
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.django_db

MEMORIES = "/admin/memories/memory/"
KEYS = "/admin/memories/apikey/"
POLICIES = "/admin/memories/policy/"
AUDIT = "/admin/admin/logentry/"


def staff(username: str, role: str | None, *tenants) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def write(tenant, content: str, tag: str = "team:platform", author: Author | None = None) -> Memory:
    level, key = tag.split(":")
    scope = Scope.objects.get(tenant=tenant, level=level, key=key)
    author = author or Author(kind="admin", label="admin:test")
    return memory_create(tenant=tenant, author=author, content=content, scope=scope).memory


def perms(role: str) -> set[str]:
    return {
        f"{app}.{codename}"
        for app, codename in Group.objects.get(name=role).permissions.values_list("content_type__app_label", "codename")
    }


# --- the groups -----------------------------------------------------------------------------------------------------


def test_the_roles_exist_after_migrate_with_exactly_their_permissions(db):
    assert set(Group.objects.filter(name__in=ROLES).values_list("name", flat=True)) == set(ROLES)
    assert perms(CURATOR) == {
        "memories.view_tenant",
        "memories.view_scope",
        "memories.view_member",
        "memories.view_memory",
        "memories.add_memory",
        "memories.change_memory",
        "graph.view_entity",
        "graph.change_entity",
        "graph.view_entityalias",
        "graph.view_entitylink",
    }
    assert {p for p in perms(AUDITOR) if not p.split(".")[1].startswith("view_")} == set()
    assert {"memories.view_apikey", "memories.view_policy", "admin.view_logentry"} <= perms(AUDITOR)
    admin = perms(TENANT_ADMIN)
    assert {"memories.erase_member", "memories.add_apikey", "memories.change_policy", "memories.delete_memory"} <= admin
    assert "memories.add_tenant" not in admin and "memories.delete_tenant" not in admin


def test_roles_sync_is_idempotent_and_restores_a_tampered_group(db):
    Group.objects.get(name=CURATOR).permissions.clear()

    first = roles_sync()
    second = roles_sync()

    assert first == second
    assert first[CURATOR] == 10
    assert len(perms(CURATOR)) == 10


def test_existing_tenant_staff_become_tenant_admins(acme):
    migration = importlib.import_module("memories.curation.migrations.0002_existing_staff_are_tenant_admins")
    legacy = staff("legacy", None, acme)
    curator = staff("curator", CURATOR, acme)
    outsider = User.objects.create_user("outsider", password="pw", is_staff=True)

    migration.existing_staff_are_tenant_admins(apps, None)

    assert list(legacy.groups.values_list("name", flat=True)) == [TENANT_ADMIN]
    assert list(curator.groups.values_list("name", flat=True)) == [CURATOR]
    assert not outsider.groups.exists()


# --- what each role may open ----------------------------------------------------------------------------------------


@pytest.fixture
def memory(acme):
    return write(acme, "The platform team deploys on Tuesdays.")


@pytest.fixture
def key(acme):
    return api_key_create(tenant=acme, name="support-agent", permissions=["read"])[0]


@pytest.fixture
def policy(acme):
    return Policy.objects.get(tenant=acme, scope__isnull=True)


def test_a_curator_edits_memories_but_cannot_open_keys_or_policies(client, acme, memory, key, policy):
    client.force_login(staff("curator", CURATOR, acme))

    index = client.get("/admin/").content.decode()
    assert 'href="/admin/memories/memory/"' in index
    assert 'href="/admin/memories/apikey/"' not in index
    assert 'href="/admin/memories/policy/"' not in index
    assert client.get(MEMORIES).status_code == 200
    assert client.get(f"{MEMORIES}{memory.pk}/change/").status_code == 200
    for url in (KEYS, f"{KEYS}{key.pk}/change/", f"{KEYS}add/", POLICIES, f"{POLICIES}{policy.pk}/change/", AUDIT):
        assert client.get(url).status_code == 403, url
    assert client.get(f"{MEMORIES}{memory.pk}/delete/").status_code == 403
    assert 'value="delete_selected"' not in client.get(MEMORIES).content.decode()


def test_a_curator_saves_a_memory_edit(client, acme, memory):
    client.force_login(staff("curator", CURATOR, acme))

    response = client.post(
        f"{MEMORIES}{memory.pk}/change/",
        {"kind": "fact", "title": "", "content": "The platform team deploys on Wednesdays.", "metadata": "{}"},
    )

    memory.refresh_from_db()
    assert response.status_code == 302
    assert memory.content == "The platform team deploys on Wednesdays."


def test_a_curator_cannot_revoke_keys_by_posting_the_action(client, acme, key):
    client.force_login(staff("curator", CURATOR, acme))

    response = client.post(KEYS, {"action": "revoke_keys", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert response.status_code == 403
    assert key.revoked_at is None


def test_an_auditor_views_everything_and_changes_nothing(client, acme, memory, key, policy):
    client.force_login(staff("auditor", AUDITOR, acme))

    for url in (MEMORIES, f"{MEMORIES}{memory.pk}/change/", KEYS, f"{KEYS}{key.pk}/change/", POLICIES, AUDIT):
        assert client.get(url).status_code == 200, url
    keys_page = client.get(KEYS).content.decode()
    assert 'value="revoke_keys"' not in keys_page  # an action without declared permissions needs "change"
    response = client.post(
        f"{MEMORIES}{memory.pk}/change/",
        {"kind": "fact", "title": "", "content": "Rewritten by an auditor.", "metadata": "{}"},
    )
    memory.refresh_from_db()
    assert response.status_code == 403
    assert memory.content == "The platform team deploys on Tuesdays."
    assert client.post(KEYS, {"action": "revoke_keys", "_selected_action": [key.pk]}).status_code in (200, 302)
    key.refresh_from_db()
    assert key.revoked_at is None
    assert client.get(f"{KEYS}add/").status_code == 403
    assert client.get(f"{POLICIES}{policy.pk}/delete/").status_code == 403


def test_a_tenant_admin_manages_keys_and_policies(client, acme, key, policy):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))

    assert client.get(f"{KEYS}add/").status_code == 200
    assert 'value="revoke_keys"' in client.get(KEYS).content.decode()
    response = client.post(KEYS, {"action": "revoke_keys", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert response.status_code == 302
    assert key.revoked_at is not None
    assert client.get(f"{POLICIES}{policy.pk}/change/").status_code == 200


def test_staff_without_a_role_see_no_model(client, acme, memory):
    client.force_login(staff("no-role", None, acme))

    assert client.get(MEMORIES).status_code == 403
    assert 'href="/admin/memories/memory/"' not in client.get("/admin/").content.decode()


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR, AUDITOR])
def test_another_tenants_staff_see_none_of_the_rows(client, acme, globex, memory, key, policy, role):
    client.force_login(staff("globex-staff", role, globex))

    for url in (f"{MEMORIES}{memory.pk}/change/", f"{KEYS}{key.pk}/change/", f"{POLICIES}{policy.pk}/change/"):
        response = client.get(url, follow=True)
        html = response.content.decode()
        # Django's admin treats a row outside the queryset as missing: a redirect to the index, or 403 by role
        assert response.status_code in (200, 403), url
        assert "deploys on Tuesdays" not in html and "support-agent" not in html, url
        assert 'name="_save"' not in html, url
    listing = client.get(MEMORIES).content.decode()
    assert "deploys on Tuesdays" not in listing


# --- foreign keys stay within one tenant ----------------------------------------------------------------------------


@pytest.fixture
def two_tenant_admin(client, acme, globex):
    client.force_login(staff("both", TENANT_ADMIN, acme, globex))
    return client


def test_a_policys_default_scope_must_be_of_its_tenant(two_tenant_admin, acme, globex):
    globex_team = Scope.objects.get(tenant=globex, level="team", key="platform")
    data_team = Scope.objects.get(tenant=acme, level="team", key="data")
    two_tenant_admin.post(f"{POLICIES}add/", {"tenant": acme.pk, "scope": data_team.pk})  # the node first
    policy = Policy.objects.get(tenant=acme, scope=data_team)

    response = two_tenant_admin.post(
        f"{POLICIES}{policy.pk}/change/",
        {
            "scope": data_team.pk,
            "default_scope": globex_team.pk,
            "auto_provision_users": "unknown",
            **{f"inherit_{name}": "on" for name in ("writable_levels", "tier_boost", "retention_days", "glossary")},
            "writable_levels__agent": ["team", "user"],  # what it inherits, as the form shows it
            "writable_levels__admin": ["*"],
            "glossary-TOTAL_FORMS": "0",
            "glossary-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors == {"default_scope": ["Select a valid choice. That choice is not one of the available choices."]}
    policy.refresh_from_db()
    assert policy.default_scope_id is None


def test_a_keys_scope_must_be_of_its_tenant(two_tenant_admin, acme, globex):
    globex_team = Scope.objects.get(tenant=globex, level="team", key="platform")

    response = two_tenant_admin.post(
        f"{KEYS}add/", {"tenant": acme.pk, "name": "cross", "permissions": ["read"], "scope": globex_team.pk}
    )

    assert response.status_code == 200
    assert "team:platform is not a scope of acme." in response.context["adminform"].form.errors["scope"]
    assert not ApiKey.objects.filter(name="cross").exists()


# --- the audit log --------------------------------------------------------------------------------------------------


def test_admin_changes_are_logged_with_their_tenant_and_read_per_tenant(client, acme, globex, key):
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    client.force_login(admin)
    client.post(KEYS, {"action": "delete_selected", "_selected_action": [key.pk], "post": "yes"})
    assert not ApiKey.objects.filter(pk=key.pk).exists()
    globex_key = api_key_create(tenant=globex, name="globex-agent", permissions=["read"])[0]
    globex_admin = staff("globex-admin", TENANT_ADMIN, globex)
    client.force_login(globex_admin)
    client.post(f"{KEYS}{globex_key.pk}/delete/", {"post": "yes"})

    deletion = LogEntry.objects.get(user=admin, action_flag=DELETION)
    assert AdminLogTenant.objects.get(log_entry=deletion).tenant_id == acme.pk
    client = Client()  # a new browser: no message of the previous user's session on the page
    client.force_login(staff("acme-auditor", AUDITOR, acme))
    page = client.get(AUDIT).content.decode()
    assert "support-agent" in page  # the deleted key's entry, still readable by its tenant
    assert "globex-agent" not in page
    other = LogEntry.objects.get(user=globex_admin)
    assert "globex-agent" not in client.get(f"{AUDIT}{other.pk}/change/", follow=True).content.decode()
    client = Client()
    client.force_login(staff("globex-auditor", AUDITOR, globex))
    page = client.get(AUDIT).content.decode()
    assert "globex-agent" in page and "support-agent" not in page


def test_the_audit_log_keeps_no_erased_text(client, acme):
    albert = Author(kind="agent", member=acme.members.get(user_id="albert"))
    older = write(acme, "Albert thinks the office plants are plastic.", "team:platform", author=albert)
    newer = write(acme, "Albert no longer thinks the office plants are plastic.", "team:platform")
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_both", user=admin)
    client.force_login(admin)
    client.post(
        f"{MEMORIES}{older.pk}/change/",
        {"kind": "fact", "title": "Albert's plants", "content": older.content, "metadata": "{}"},
    )
    assert LogEntry.objects.filter(object_id=str(older.pk), object_repr="Albert's plants").exists()

    user_erase(tenant=acme, user_id="albert")

    entries = LogEntry.objects.filter(object_id=str(older.pk))
    assert entries.count() == 2 and set(entries.values_list("object_repr", flat=True)) == {ERASED_REPR}
    client = Client()
    client.force_login(staff("acme-auditor", AUDITOR, acme))
    page = client.get(AUDIT).content.decode()
    # the kept memory (an admin's words, not Albert's) keeps its entry; Albert's memory's entries keep no text
    assert "Albert thinks the office plants" not in page and "Albert&#x27;s plants" not in page
    assert page.count(ERASED_REPR) == 2


def test_auditors_and_curators_read_the_log_as_their_role_allows(client, acme):
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    client.force_login(admin)
    client.post(f"{KEYS}add/", {"tenant": acme.pk, "name": "created-in-admin", "permissions": ["read"], "scope": ""})
    addition = LogEntry.objects.get(user=admin, action_flag=ADDITION)
    assert AdminLogTenant.objects.get(log_entry=addition).tenant_id == acme.pk

    client.force_login(staff("curator", CURATOR, acme))
    assert client.get(AUDIT).status_code == 403
    client.force_login(staff("auditor", AUDITOR, acme))
    assert "created-in-admin" in client.get(AUDIT).content.decode()
    assert client.post(f"{AUDIT}{addition.pk}/delete/", {"post": "yes"}).status_code == 403
    assert LogEntry.objects.filter(pk=addition.pk, action_flag=ADDITION).exists()
    assert not LogEntry.objects.filter(action_flag=CHANGE).exists()


def test_admin_actions_are_logged_per_row_with_their_tenant(client, acme, key, memory):
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    client.force_login(admin)

    revoked = client.post(KEYS, {"action": "revoke_keys", "_selected_action": [key.pk]})
    made = client.post(MEMORIES, {"action": "make_policy", "_selected_action": [memory.pk]})

    assert revoked.status_code == 302 and made.status_code == 302
    key_entry = LogEntry.objects.get(user=admin, object_id=str(key.pk), content_type__model="apikey")
    memory_entry = LogEntry.objects.get(user=admin, object_id=str(memory.pk), content_type__model="memory")
    assert (key_entry.action_flag, key_entry.change_message) == (CHANGE, "Ran the action “Revoke selected keys”.")
    assert (memory_entry.action_flag, memory_entry.change_message) == (CHANGE, "Ran the action “Make policy”.")
    assert set(
        AdminLogTenant.objects.filter(log_entry__in=[key_entry, memory_entry]).values_list("tenant_id", flat=True)
    ) == {acme.pk}
    auditor = Client()
    auditor.force_login(staff("acme-auditor", AUDITOR, acme))
    assert "Ran the action “Revoke selected keys”." in auditor.get(AUDIT).content.decode()


def test_an_action_that_deletes_is_logged_as_deletions(client, acme, globex):
    from graph.models import Entity, EntityLink

    memory = write(acme, "Alice Smith leads the platform team.")
    alice = Entity.objects.create(tenant=acme, name="Alice Smith", norm="alice smith", kind="person", mention_count=1)
    link = EntityLink.objects.create(tenant=acme, memory=memory, subject=alice, relationship="mentioned", confidence=1)
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    client.force_login(admin)

    confirm = client.post("/admin/graph/entitylink/", {"action": "delete_links", "_selected_action": [link.pk]})
    done = client.post(
        "/admin/graph/entitylink/", {"action": "delete_links", "_selected_action": [link.pk], "post": "yes"}
    )

    assert confirm.status_code == 200 and done.status_code == 302
    assert not EntityLink.objects.filter(pk=link.pk).exists()
    entry = LogEntry.objects.get(user=admin, object_id=str(link.pk))
    assert entry.action_flag == DELETION
    assert AdminLogTenant.objects.get(log_entry=entry).tenant_id == acme.pk


@pytest.mark.parametrize("url", ["/admin/graph/data/?tenant={}", "/admin/search/?tenant={}&user_id=albert&query=x"])
def test_the_graph_page_and_playground_need_a_role(client, acme, memory, url):
    client.force_login(staff("no-role", None, acme))
    no_role = client.get(url.format(acme.pk))
    client.force_login(staff("auditor", AUDITOR, acme))
    auditor = client.get(url.format(acme.pk))

    assert auditor.status_code == 200
    if "graph" in url:
        assert no_role.status_code == 404
    else:
        assert "Select a valid choice" in no_role.content.decode()
        assert "Select a valid choice" not in auditor.content.decode()
