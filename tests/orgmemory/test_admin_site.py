"""OrgMemory's admin site (``orgmemory.admin_site``): one site for every screen and custom page, OrgMemory's name,
``/`` leading to it, and an index that links every custom page the user may open."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.urls import resolve, reverse

from memories.admin.login import RateLimitedAdminAuthenticationForm
from memories.models import TenantStaff
from memories.roles import AUDITOR, CURATOR, TENANT_ADMIN
from orgmemory.admin_site import PAGES, OrgMemoryAdminSite

pytestmark = pytest.mark.django_db

CUSTOM_PAGES = {
    "admin:dashboard": "/admin/dashboard/",
    "admin:graph": "/admin/graph/",
    "admin:graph_data": "/admin/graph/data/",
    "admin:graph_entities": "/admin/graph/entities/",
    "admin:playground": "/admin/search/",
    "admin:onboarding": "/admin/onboard/",
    "admin:onboarding_apply": "/admin/onboard/apply/",
    "admin:contradictions": "/admin/contradictions/",
}


def staff(client, role: str, *tenants) -> User:
    user = User.objects.create_user(role.replace(" ", "-").lower(), password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


def box_links(html: str) -> dict[str, str]:
    """The index's OrgMemory box: {link text: href}."""
    box = html.split('id="orgmemory-pages"')[1].split("</table>")[0]
    return dict((text, href) for href, text in re.findall(r'<a href="([^"]+)" id="[^"]+">([^<]+)</a>', box))


def test_admin_site_is_the_orgmemory_site_and_every_screen_is_registered_on_it():
    admin.site.name  # noqa: B018  (admin.site is Django's lazy default site: this resolves it)
    site = admin.site._wrapped

    assert type(site) is OrgMemoryAdminSite
    assert admin.site.login_form is RateLimitedAdminAuthenticationForm
    registry = admin.site._registry
    assert len(registry) >= 10
    assert {model._meta.label for model in registry} >= {
        "memories.Memory",
        "memories.Scope",
        "memories.Member",
        "memories.ApiKey",
        "graph.Entity",
        "graph.EntityLink",
    }
    assert all(model_admin.admin_site is site for model_admin in registry.values())


def test_every_custom_page_hangs_on_the_admin_site():
    for name, url in CUSTOM_PAGES.items():
        assert reverse(name) == url
        assert resolve(url).namespace == "admin"
    assert reverse("admin:dashboard_tenant", args=[7]) == "/admin/dashboard/7/"
    assert reverse("admin:contradictions_queue", args=[7]) == "/admin/contradictions/7/"
    assert reverse("admin:app_list", args=["memories"]) == "/admin/memories/"


def test_the_root_redirects_to_the_admin(client):
    response = client.get("/")

    assert response.status_code == 302
    assert response["Location"] == "/admin/"


def test_the_sign_in_page_carries_orgmemorys_name(client):
    html = client.get("/admin/login/").content.decode()

    assert "<title>Log in | OrgMemory admin</title>" in html
    assert '<div id="site-name"><a href="/admin/">OrgMemory administration</a></div>' in html
    assert "Django administration" not in html


def test_the_header_names_orgmemory_and_its_site_link_is_the_api_docs(superuser_client):
    html = superuser_client.get("/admin/").content.decode()

    assert "<title>OrgMemory | OrgMemory admin</title>" in html
    assert "OrgMemory administration" in html and "Django administration" not in html
    assert '<a href="/api/docs/" id="api-docs-userlink">API docs</a>' in html
    assert superuser_client.get("/api/docs/").status_code == 200


def test_the_index_links_every_custom_page_for_a_superuser(superuser_client, acme, globex):
    links = box_links(superuser_client.get("/admin/").content.decode())

    assert links == {
        "Dashboard": "/admin/dashboard/",
        "Knowledge graph": "/admin/graph/",
        "Search playground": "/admin/search/",
        "Contradictions": "/admin/contradictions/",
        "Onboard": "/admin/onboard/",
        "API docs": "/api/docs/",
    }
    assert [page.title for page in PAGES] == list(links)
    for href in links.values():
        assert superuser_client.get(href).status_code == 200, href


def test_a_one_tenant_admin_reaches_every_page_of_the_box(client, acme, globex):
    staff(client, TENANT_ADMIN, acme)

    links = box_links(client.get("/admin/").content.decode())

    assert set(links) == {"Dashboard", "Knowledge graph", "Search playground", "Contradictions", "Onboard", "API docs"}
    dashboard = client.get(links["Dashboard"])
    assert (dashboard.status_code, dashboard["Location"]) == (302, f"/admin/dashboard/{acme.pk}/")
    contradictions = client.get(links["Contradictions"])
    assert (contradictions.status_code, contradictions["Location"]) == (302, f"/admin/contradictions/{acme.pk}/")
    for name in ("Knowledge graph", "Search playground", "Onboard"):
        assert client.get(links[name]).status_code == 200, name


@pytest.mark.parametrize("role", [CURATOR, AUDITOR])
def test_roles_that_cannot_onboard_do_not_see_the_onboarding_link(client, acme, role):
    staff(client, role, acme)

    links = box_links(client.get("/admin/").content.decode())

    assert set(links) == {"Dashboard", "Knowledge graph", "Search playground", "Contradictions", "API docs"}


def test_the_dashboard_index_lists_the_tenants_of_a_superuser(superuser_client, acme, globex):
    html = superuser_client.get("/admin/dashboard/").content.decode()

    listed = html.split('id="dashboard-tenants"')[1].split("</ul>")[0]
    assert f'<a href="/admin/dashboard/{acme.pk}/">acme</a>' in listed
    assert f'<a href="/admin/dashboard/{globex.pk}/">globex</a>' in listed


def test_custom_pages_send_anonymous_visitors_to_the_sign_in(client):
    for url in ("/admin/dashboard/", "/admin/graph/", "/admin/search/", "/admin/onboard/", "/admin/contradictions/"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/admin/login/?next={url}"


def test_a_staff_user_without_a_role_sees_only_the_api_docs_in_the_box(client, acme):
    user = User.objects.create_user("no-role", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    client.force_login(user)

    assert box_links(client.get("/admin/").content.decode()) == {"API docs": "/api/docs/"}
