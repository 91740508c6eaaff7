"""The hand-over block (``orgmemory.handover``), pure: what it says when the demo's keys were shown before, when
there is no hand-over at all, and that the hand-over file is taken once (the load_demo and runserver ends are in
test_smoke_make_run.py and test_runserver.py)."""

from __future__ import annotations

from orgmemory.handover import (
    HANDOVER_ENV,
    HANDOVER_FILE,
    RULE,
    DemoKey,
    Handover,
    handover_block,
    handover_take,
    handover_write,
)

KEPT = Handover(
    tenant="northwind",
    tenant_name="Northwind Logistics",
    loaded="kept",
    loaded_at="2026-01-01T00:00:00+00:00",
    memories=120,
    members=31,
    keys=[DemoKey(name="support-agent", permissions=["read", "write"])],
)


def test_a_later_run_names_the_keys_without_showing_them_and_says_how_to_get_one():
    block = handover_block(url="http://127.0.0.1:9000/", handover=KEPT, password="pw").splitlines()

    assert (block[0], block[-1]) == (RULE, RULE)
    assert block[1] == "# OrgMemory (development) is at http://127.0.0.1:9000/"
    assert block[4] == (
        "# demo       tenant northwind (Northwind Logistics): 120 memories, 31 members; loaded "
        "2026-01-01T00:00:00+00:00, kept as it is (load_demo --force loads it again)"
    )
    assert block[5:7] == [
        "# API keys   support-agent (read, write): shown on the first run only. A new one:",
        "#   export KEY=$(.venv/bin/python manage.py create_api_key --tenant northwind --name me)",
    ]
    assert not any(line.startswith("export ") for line in block)  # nothing to paste that is not there


def test_without_a_handover_the_block_still_gives_the_address_and_the_superuser():
    block = handover_block(url="http://127.0.0.1:8000", handover=None, password="pw").splitlines()

    assert block[2] == "# admin      http://127.0.0.1:8000/admin/   user admin   password pw"
    assert block[4] == "# demo       not loaded by this start (make run loads it once); an API key:"


def test_the_handover_is_taken_once_and_kept_in_the_environment(tmp_path):
    handover_write(data_dir=tmp_path, handover=KEPT)
    environ: dict[str, str] = {}

    assert handover_take(data_dir=tmp_path, environ=environ) == KEPT
    assert not (tmp_path / HANDOVER_FILE).exists()
    assert handover_take(data_dir=tmp_path, environ=environ) == KEPT  # a reloaded server process
    assert handover_take(data_dir=tmp_path, environ={}) is None  # another server: nothing to take
    assert HANDOVER_ENV in environ
