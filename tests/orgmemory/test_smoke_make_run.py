"""The `make run` path, minus the server: `load_demo` (the superuser; the demo org chart and memories, once), then
search through the API with the key onboarding printed. Run again, as `make run` does on every start: the demo is
not loaded twice, and what users did to it (a GDPR erasure) stays."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from memories.models import IndexState, Member, Memory, Tenant

ROOT = Path(__file__).resolve().parents[2]
DEMO_MEMORIES = ROOT / "fixtures" / "demo_memories.jsonl"

pytestmark = pytest.mark.django_db(transaction=True)  # indexing runs inline after commit, as under `make run`


def make_run_setup() -> str:
    """What `make run` does before runserver; returns its output."""
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_demo_tenant_memories_and_search(client, settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"  # load_demo refuses any other mode
    settings.ORGMEMORY_DATA_DIR = tmp_path  # where load_demo keeps the admin password

    first = make_run_setup()
    second = make_run_setup()

    expected = [json.loads(line) for line in DEMO_MEMORIES.read_text().splitlines() if line.strip()]
    tenant = Tenant.objects.get(slug="northwind")
    memories = Memory.objects.filter(tenant=tenant)
    assert memories.count() == len(expected)  # the second run added nothing
    assert sorted(memories.values_list("external_id", flat=True)) == sorted(row["external_id"] for row in expected)
    assert set(memories.values_list("index_state", flat=True)) == {IndexState.READY}
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password((tmp_path / "dev_admin_password").read_text().strip())
    assert "API key support-agent:" not in second  # keys are created (and shown) once
    assert "not loaded again" in second

    key = re.search(r"API key support-agent: (\S+)", first).group(1)
    response = client.post(
        "/api/v1/search",
        {"user_id": "albert", "query": "Who founded Northwind Logistics?"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["degraded"] == []
    titles = [hit["title"] for hit in body["results"]]
    assert "Company founding" in titles[:3]


def test_a_second_make_run_keeps_an_erasure(client, settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path
    first = make_run_setup()
    admin_key = re.search(r"API key ops-admin: (\S+)", first).group(1)
    tenant = Tenant.objects.get(slug="northwind")
    demo_of_carlos = {
        row["external_id"]
        for row in map(json.loads, filter(str.strip, DEMO_MEMORIES.read_text().splitlines()))
        if row.get("user_id") == "carlos"
    }
    assert Memory.objects.filter(tenant=tenant, external_id__in=demo_of_carlos).count() == len(demo_of_carlos) > 0

    erased = client.delete("/api/v1/users/carlos", HTTP_AUTHORIZATION=f"Bearer {admin_key}")
    assert erased.status_code == 200, erased.content
    left = sorted(Memory.objects.filter(tenant=tenant).values_list("external_id", flat=True))

    second = make_run_setup()  # the next `make run`

    assert "not loaded again" in second
    assert not Member.objects.filter(tenant=tenant, user_id="carlos").exists()
    assert sorted(Memory.objects.filter(tenant=tenant).values_list("external_id", flat=True)) == left
    assert not demo_of_carlos & set(left)  # erased, and not brought back


def test_force_loads_the_demo_again(settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path
    make_run_setup()
    tenant = Tenant.objects.get(slug="northwind")
    Memory.objects.filter(tenant=tenant, external_id="demo-001").delete()

    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)

    assert "not loaded again" not in out.getvalue()
    assert Memory.objects.filter(tenant=tenant, external_id="demo-001").exists()
