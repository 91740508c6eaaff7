"""The tenancy admin: the scope tree with member counts, keys shown once, and every screen inside its tenant."""

import re

import pytest

from memories.models import ApiKey, Member, Scope
from memories.services import api_key_authenticate
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db


def test_scope_tree_is_indented_names_each_node_with_its_tag_and_lists_its_members(superuser_client, acme):
    response = superuser_client.get(f"/admin/memories/scope/?tenant__id__exact={acme.pk}")

    assert response.status_code == 200
    rows = re.findall(
        r'style="text-indent:(\d+)px">([^<]*)</div></div></a></th>.*?class="field-members_display">(.*?)</td>',
        response.content.decode(),
        re.DOTALL,
    )
    assert {label: (int(indent), members) for indent, label, members in rows} == {
        "Acme Corp (org:acme)": (0, '<span class="quiet">4 in the subtree</span>'),
        "Europe (division:eu)": (30, '<span class="quiet">3 in the subtree</span>'),
        "Data (team:data)": (60, "dora"),
        "dora (user:dora)": (90, "dora"),
        "Platform (team:platform)": (60, "albert, bea"),
        "albert (user:albert)": (90, "albert"),
        "bea (user:bea)": (90, "bea"),
        "Americas (division:us)": (30, '<span class="quiet">1 in the subtree</span>'),
        "Sales (team:sales)": (60, "carlos"),
        "carlos (user:carlos)": (90, "carlos"),
    }


def test_a_scope_nodes_page_lists_its_members(superuser_client, acme):
    team = Scope.objects.get(tenant=acme, level="team", key="platform")
    albert, bea = (Member.objects.get(tenant=acme, user_id=user_id) for user_id in ("albert", "bea"))

    html = superuser_client.get(f"/admin/memories/scope/{team.pk}/change/").content.decode()

    members = html.split("field-members_here")[1].split("</div>\n</div>")[0]
    assert f'<a href="/admin/memories/member/{albert.pk}/change/">albert</a>' in members
    assert f'<a href="/admin/memories/member/{bea.pk}/change/">bea</a>' in members


def test_a_one_tenant_admin_sees_no_tenant_column_in_the_scope_tree(acme_staff_client, acme):
    html = acme_staff_client.get("/admin/memories/scope/").content.decode()

    assert 'class="field-members_display">albert, bea</td>' in html
    assert "field-tenant" not in html and "column-tenant" not in html


@pytest.mark.parametrize("path", ["scope", "member", "apikey", "policy", "tenant"])
def test_tenant_staff_sees_only_their_tenant(acme_staff_client, acme, globex, path):
    response = acme_staff_client.get(f"/admin/memories/{path}/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "globex" not in html.lower()


@pytest.mark.parametrize("model", ["memory", "policy", "apikey", "scope"])
def test_a_one_tenant_admin_gets_their_tenant_preselected_and_nodes_named(acme_staff_client, acme, globex, model):
    html = acme_staff_client.get(f"/admin/memories/{model}/add/").content.decode()

    tenant_choice = html.split('name="tenant"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\d*)" selected>', tenant_choice) == [str(acme.pk)]
    assert "\u2003\u2003Platform (team:platform)</option>" in html  # the scope picker: the tree, names and tags
    assert "globex" not in html.lower()


def test_tenant_staff_cannot_open_another_tenants_rows(acme_staff_client, globex):
    member = Member.objects.get(tenant=globex, user_id="zed")
    scope = Scope.objects.get(tenant=globex, level="org")

    assert acme_staff_client.get(f"/admin/memories/member/{member.pk}/change/").status_code in (302, 403, 404)
    assert acme_staff_client.get(f"/admin/memories/scope/{scope.pk}/change/").status_code in (302, 403, 404)


def test_staff_without_a_tenant_sees_nothing(client, acme):
    client.force_login(StaffUserFactory())  # staff, administers no tenant

    assert client.get("/admin/memories/scope/").status_code == 403


def test_api_key_created_in_admin_is_shown_once(superuser_client, acme):
    response = superuser_client.post(
        "/admin/memories/apikey/add/",
        {"tenant": acme.pk, "name": "from-admin", "permissions": ["read", "write"], "scope": ""},
        follow=True,
    )

    assert response.status_code == 200
    shown = re.findall(r"om_[0-9a-f]{8}_[A-Za-z0-9_-]{43}", response.content.decode())
    assert len(shown) == 1
    key = ApiKey.objects.get(name="from-admin")
    assert api_key_authenticate(plain=shown[0]).pk == key.pk
    assert key.permissions == ["read", "write"]
    detail = superuser_client.get(f"/admin/memories/apikey/{key.pk}/change/").content.decode()
    assert shown[0] not in detail
    assert key.key_hash not in detail


def test_revoke_action(superuser_client, acme):
    superuser_client.post(
        "/admin/memories/apikey/add/",
        {"tenant": acme.pk, "name": "k", "permissions": ["read"], "scope": ""},
    )
    key = ApiKey.objects.get(name="k")

    superuser_client.post("/admin/memories/apikey/", {"action": "revoke_keys", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert key.revoked_at is not None
