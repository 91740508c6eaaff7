"""Shared fixtures. Tests run on the real embedded PostgreSQL (pgvector + pg_trgm), never SQLite."""

from __future__ import annotations

import pytest

ACME_CHART = """
tenant: {slug: acme, name: Acme Corp}
levels: [org, division, team, user]
tree:
  - level: org
    key: acme
    name: Acme Corp
    children:
      - level: division
        key: eu
        name: Europe
        children:
          - {level: team, key: platform, name: Platform, members: [albert, bea]}
          - {level: team, key: data, name: Data, members: [dora]}
      - level: division
        key: us
        name: Americas
        children:
          - {level: team, key: sales, name: Sales, members: [carlos]}
policies: {auto_provision_users: false, writable_levels: {agent: [user, team]}}
"""

GLOBEX_CHART = """
tenant: {slug: globex, name: Globex}
levels: [org, team, user]
tree:
  - level: org
    key: globex
    name: Globex
    children:
      - {level: team, key: platform, name: Platform, members: [albert, zed]}
"""


def onboard(text: str):
    # imported here so that the pure test modules also run without Django (-p no:django)
    from memories.models import Tenant
    from memories.orgchart import parse_org_chart
    from memories.services import tenant_onboard

    plan = parse_org_chart(text)
    tenant_onboard(plan=plan)
    return Tenant.objects.get(slug=plan.tenant_slug)


@pytest.fixture
def acme(db):
    """Acme: org:acme › division:eu › team:platform (albert, bea), team:data (dora); division:us › team:sales
    (carlos)."""
    return onboard(ACME_CHART)


@pytest.fixture
def globex(db):
    """A second tenant that reuses the names `albert` and `team:platform`, to catch cross-tenant leaks."""
    return onboard(GLOBEX_CHART)


@pytest.fixture
def root(db):
    """A Django superuser (sees every tenant in the admin)."""
    from django.contrib.auth.models import User

    return User.objects.create_superuser("root", "root@example.com", "pw")


@pytest.fixture
def superuser_client(client, root):
    client.force_login(root)
    return client


@pytest.fixture
def acme_staff_client(client, acme):
    """A staff user who administers only the acme tenant."""
    from django.contrib.auth.models import User

    from memories.models import TenantStaff

    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    client.force_login(user)
    return client
