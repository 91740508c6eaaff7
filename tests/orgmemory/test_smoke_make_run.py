"""The `make run` path, minus the server: `load_demo` (the superuser; the demo org chart and memories, once), then
search through the API with the key onboarding printed. Run again, as `make run` does on every start: the demo is
not loaded twice, and what users did to it (a GDPR erasure) stays. Its output: a short summary and the hand-over
block, last (or, for `make run`, the hand-over left to the development server)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from memories.models import IndexState, Member, Memory, Tenant
from orgmemory.handover import HANDOVER_FILE, RULE, handover_take

ROOT = Path(__file__).resolve().parents[2]
DEMO_MEMORIES = ROOT / "fixtures" / "demo_memories.jsonl"

pytestmark = pytest.mark.django_db(transaction=True)  # indexing runs inline after commit, as under `make run`


def make_run_setup(*args: str) -> str:
    """What `make run` does before runserver (load_demo printing its block itself); returns its output."""
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def demo_keys(output: str) -> dict[str, str]:
    """The plain keys of the block's ``export KEY=om_…  # support-agent: read, write`` lines, by key name."""
    return {name: key for key, name in re.findall(r"^export \w+=(om_\S+)\s+# ([\w.-]+):", output, flags=re.M)}


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
    assert demo_keys(second) == {}  # keys are created (and shown) once
    assert "not loaded again" in second

    key = demo_keys(first)["support-agent"]
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
    admin_key = demo_keys(first)["ops-admin"]
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


def test_the_first_run_ends_with_one_block_holding_what_a_person_needs(settings, tmp_path, capsys):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path

    first = make_run_setup()

    lines = first.splitlines()
    password = (tmp_path / "dev_admin_password").read_text().strip()
    block = lines[lines.index(RULE) :]
    # the block is last, opened and closed by its rule, and holds the address, the superuser, both keys with
    # their permissions and three things to try
    assert block[-1] == RULE and block.count(RULE) == 2
    assert block[1] == "# OrgMemory (development) is at http://127.0.0.1:8000/"
    assert block[2] == f"# admin      http://127.0.0.1:8000/admin/   user admin   password {password}"
    keys = demo_keys("\n".join(block))
    assert set(keys) == {"support-agent", "ops-admin"}
    assert [line.split("# ")[-1] for line in block if line.startswith("export ")] == [
        "support-agent: read, write",
        "ops-admin: read, write, delete, admin",
    ]
    assert [line[:5] for line in block if re.match(r"# [123]\. ", line)] == ["# 1. ", "# 2. ", "# 3. "]
    assert any(line.startswith("curl -s -X POST http://127.0.0.1:8000/api/v1/search") for line in block)
    # before it, a summary: no diff, nothing said twice, the keys nowhere else
    before = lines[: lines.index(RULE)]
    assert before[0] == "Superuser admin: created"
    assert before[1] == (
        "Demo tenant northwind: created 12 scopes, 32 members, 1 policy, 2 API keys "
        "(load_demo --verbose lists each change)"
    )
    assert re.fullmatch(r".*demo_memories\.jsonl: 188 created, 0 already present, .* 0 failed", before[2])
    assert len(before) == 3
    assert not any(key in line for line in before for key in keys.values())
    # progress bars only on a terminal: under a capture (a file, a pipe) no bar and no escape codes
    assert "\x1b[" not in capsys.readouterr().err


def test_verbose_lists_every_change_of_the_chart(settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path

    out = make_run_setup("--verbose")

    changes = [line for line in out.splitlines() if line.startswith("  - ")]
    assert "  - create scope team:platform (Platform) under division:engineering" in changes
    assert "  - add member albert under team:platform" in changes
    assert "  - create API key support-agent (read, write)" in changes
    assert not any(line.startswith("  done: ") for line in out.splitlines())  # said once, not twice


def test_a_second_run_says_what_it_kept(client, settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path
    first = make_run_setup()
    erased = client.delete("/api/v1/users/carlos", HTTP_AUTHORIZATION=f"Bearer {demo_keys(first)['ops-admin']}")
    assert erased.status_code == 200, erased.content
    tenant = Tenant.objects.get(slug="northwind")
    memories, members = Memory.objects.filter(tenant=tenant).count(), Member.objects.filter(tenant=tenant).count()

    second = make_run_setup()

    lines = second.splitlines()
    assert lines[0] == "Superuser admin: kept (its password is in the block below)"
    assert re.fullmatch(
        rf"Demo tenant northwind: loaded \S+, not loaded again; kept as it is now: {memories} memories, "
        rf"{members} members, 2 active API key\(s\) \(.*load_demo --force loads it again\)",
        lines[1],
    )
    assert members == 31
    assert lines[2] == RULE and lines[-1] == RULE
    assert (
        "# API keys   support-agent (read, write); ops-admin (read, write, delete, admin): shown on the first run "
        "only. A new one:"
    ) in lines


def test_make_run_leaves_the_block_to_the_server(settings, tmp_path):
    settings.ORGMEMORY_ENV = "development"
    settings.ORGMEMORY_DATA_DIR = tmp_path

    out = make_run_setup("--handover")

    assert RULE not in out and demo_keys(out) == {}
    assert out.splitlines()[-1] == (
        "The development server prints the address, the password and the keys when it is up."
    )
    handover_file = tmp_path / HANDOVER_FILE
    assert handover_file.stat().st_mode & 0o777 == 0o600
    environ: dict[str, str] = {}
    handover = handover_take(data_dir=tmp_path, environ=environ)
    assert not handover_file.exists()  # taken once
    assert (handover.tenant, handover.loaded, handover.members) == ("northwind", "created", 32)
    assert [(key.name, key.permissions, key.key[:3]) for key in handover.keys] == [
        ("support-agent", ["read", "write"], "om_"),
        ("ops-admin", ["read", "write", "delete", "admin"], "om_"),
    ]
    assert handover_take(data_dir=tmp_path, environ=environ) == handover  # a reloaded child: from the environment
