"""The bad-input matrix of the Obsidian vault import and of the org-chart parser (issue 24, points 5 and 6).

Every hostile item — YAML bombs (billion laughs, a recursive alias, 800-deep nesting, huge scalars), oversized
files, symlinks out of the vault (to a note, to /etc/passwd, to /dev/zero, a symlinked folder), a FIFO named like a
note, and bad encodings (latin-1, UTF-16, an encoded lone surrogate) — is one clear message naming the item; nothing
of it is written; the good note of the same vault is imported. Time and memory per case are measured by
``bench_bad_input`` (see the report), not asserted here.
"""

from __future__ import annotations

import errno
import io
import json
import os
import threading
import time

import pytest
from django.core.management import CommandError, call_command

from memories.models import Memory
from memories.orgchart import OrgChartError, parse_org_chart

GOOD = """---
type: orgmemory-memory
scope: org:acme
kind: fact
title: Deploy days
---
We deploy on Tuesdays and Thursdays.
"""


def note(front: str, content: str = "Content of a hostile note.") -> str:
    return f"---\ntype: orgmemory-memory\nscope: org:acme\n{front}\n---\n{content}\n"


def laughs(levels: int = 9, width: int = 9) -> str:
    """The classic billion laughs: ``width ** levels`` "lol"s from a few hundred bytes."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\ntitle: *l{levels - 1}"


OUTSIDE_NOTE = note("title: Outside the vault", "A secret that lives outside the vault.")


def _fifo_writer(path: str, stop: threading.Event) -> threading.Thread:
    """Feeds a memory note to whoever opens the FIFO for reading (an importer that waited on it would import it);
    never blocks itself: it opens the write end without blocking and retries until told to stop."""

    def feed():
        while not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno not in (errno.ENXIO, errno.ENOENT):
                    return
                time.sleep(0.05)
                continue
            with os.fdopen(fd, "w") as fifo:
                fifo.write(note("title: From the FIFO", "Read from a FIFO."))
            return

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return thread


# name → (how to make the bad item under vault/memories, the message expected for it)
def _make_cases(outside):
    return {
        "billion_laughs": (lambda d: (d / "bomb.md").write_text(note(laughs())), "expand the document past"),
        "recursive_alias": (
            lambda d: (d / "loop.md").write_text(note("metadata: &m {self: *m}")),
            "inside its own anchor",
        ),
        "deep_nesting_800": (
            lambda d: (d / "deep.md").write_text(note("metadata: " + "[" * 800 + "]" * 800)),
            "nested deeper than",
        ),
        "deep_block_nesting_800": (
            lambda d: (d / "deep-block.md").write_text(
                note("metadata:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(800)))
            ),
            "nested deeper than",
        ),
        "huge_scalar_front_matter": (
            lambda d: (d / "huge-title.md").write_text(note("title: " + "x" * (2 * 1024 * 1024))),
            "characters; at most",
        ),
        "oversized_file": (
            lambda d: (d / "huge.md").write_text(note("title: Huge", "y" * (5 * 1024 * 1024))),
            "a note may have at most",
        ),
        "symlink_to_outside_note": (lambda d: (d / "leak.md").symlink_to(outside / "secret.md"), "a symlink"),
        "symlink_to_etc_passwd": (lambda d: (d / "passwd.md").symlink_to("/etc/passwd"), "a symlink"),
        "symlink_to_dev_zero": (lambda d: (d / "zero.md").symlink_to("/dev/zero"), "a symlink"),
        "symlinked_folder": (lambda d: (d / "linked").symlink_to(outside, target_is_directory=True), "a symlink"),
        "fifo": (lambda d: os.mkfifo(d / "x.md"), "a FIFO, not a regular file"),
        "latin1": (
            lambda d: (d / "latin1.md").write_bytes(note("title: Café", "Crème brûlée").encode("latin-1")),
            "not UTF-8 text: byte 0xe9",
        ),
        "utf16_bom": (lambda d: (d / "utf16.md").write_bytes(note("title: Wide").encode("utf-16")), "UTF-16"),
        "lone_surrogate": (
            lambda d: (d / "surrogate.md").write_bytes(note("title: half").encode() + b"\xed\xa0\x80\n"),
            "not UTF-8 text: byte 0xed",
        ),
    }


CASES = sorted(_make_cases(None))


@pytest.fixture
def outside(tmp_path):
    """A folder beside the vault holding a perfectly valid memory note: nothing may import it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text(OUTSIDE_NOTE)
    return folder


def _import(vault, tenant="acme") -> dict:
    out = io.StringIO()
    call_command("import_memories", str(vault), "--format", "obsidian", "--json", tenant=tenant, stdout=out)
    return json.loads(out.getvalue())


def _stored(tenant) -> list[str]:
    return sorted(Memory.objects.filter(tenant=tenant).values_list("content", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES)
def test_vault_bad_item_is_reported_and_the_good_note_imported(acme, tmp_path, outside, case):
    vault = tmp_path / "vault"
    (vault / "memories").mkdir(parents=True)
    (vault / "memories" / "000001-deploy-days.md").write_text(GOOD)
    make, expected = _make_cases(outside)[case]
    make(vault / "memories")
    stop = threading.Event()
    writer = _fifo_writer(str(vault / "memories" / "x.md"), stop) if case == "fifo" else None
    try:
        summary = _import(vault)
    finally:
        stop.set()
        if writer is not None:
            writer.join(timeout=5)

    assert summary["created"] == 1 and summary["failed"] == 1, summary
    [error] = summary["errors"]
    assert error["error"].startswith("memories/"), error
    assert expected in error["error"], error
    assert len(error["error"]) < 400  # a message, never the item's content
    assert _stored(acme) == ["We deploy on Tuesdays and Thursdays."]


@pytest.mark.django_db
def test_every_bad_item_in_one_vault(acme, tmp_path, outside):
    vault = tmp_path / "vault"
    (vault / "memories").mkdir(parents=True)
    (vault / "memories" / "000001-deploy-days.md").write_text(GOOD)
    cases = _make_cases(outside)
    for make, _ in cases.values():
        make(vault / "memories")

    summary = _import(vault)

    assert summary["created"] == 1 and summary["failed"] == len(cases)
    assert _stored(acme) == ["We deploy on Tuesdays and Thursdays."]


@pytest.mark.django_db
def test_a_vault_that_is_itself_a_symlink_is_read_where_it_points(acme, tmp_path):
    """The operator names the vault; only what is inside it is checked."""
    real = tmp_path / "real"
    (real / "memories").mkdir(parents=True)
    (real / "memories" / "000001-deploy-days.md").write_text(GOOD)
    (tmp_path / "vault").symlink_to(real, target_is_directory=True)

    assert _import(tmp_path / "vault")["created"] == 1


# --- the chart parser -----------------------------------------------------------------------------------------

CHART = """tenant: {{slug: bomb, name: {name}}}
levels: [org, team, user]
tree:
  - {{level: org, key: bomb, children: [{{level: team, key: t, members: [{member}]}}]}}
"""


def chart_with_bomb(where: str) -> str:
    bomb = laughs().replace("\ntitle: *l8", "")
    prefix = "x-defs:\n" + "\n".join(f"  {line}" for line in bomb.splitlines()) + "\n"
    return prefix + CHART.format(
        name="*l8" if where == "name" else "Bomb", member="*l8" if where == "member" else "albert"
    )


CHART_CASES = {
    "billion_laughs_tenant_name": (chart_with_bomb("name"), "expand the document past"),
    "billion_laughs_member_id": (chart_with_bomb("member"), "expand the document past"),
    "recursive_alias": (
        "tenant: {slug: loop}\nlevels: [org, user]\ntree: &t [{level: org, key: o, children: *t}]\n",
        "inside its own anchor",
    ),
    "deep_nesting_800": ("tenant: {slug: deep}\ntree: " + "[" * 800 + "]" * 800 + "\n", "nested deeper than"),
    "deep_block_nesting_800": (
        "tenant: {slug: deep}\ntree:\n" + "".join(" " * (2 * i) + f"- k{i}:\n" for i in range(800)),
        "nested deeper than",
    ),
    "huge_scalar": ("tenant: {slug: big, name: " + "n" * (3 * 1024 * 1024) + "}\n", "at most 200 are allowed"),
    "oversized_chart": ("tenant: {slug: big}\n#" + "c" * (65 * 1024 * 1024) + "\n", "characters; at most"),
    "lone_surrogate": ("tenant: {slug: s, name: \ud800}\n", "half of a UTF-16 pair"),
    "member_id_not_text": (CHART.format(name="X", member="{a: [1, 2]}"), "must be text"),
    "tenant_name_not_text": (CHART.format(name="[1, 2]", member="albert"), "must be text"),
}


@pytest.mark.parametrize("case", sorted(CHART_CASES))
def test_chart_parser_refuses_with_a_clear_message(case):
    text, expected = CHART_CASES[case]
    with pytest.raises(OrgChartError) as caught:
        parse_org_chart(text)
    assert expected in str(caught.value)
    assert len(str(caught.value)) < 400


def test_chart_parser_still_reads_merge_keys_and_small_aliases():
    text = """
x-team: &team {level: team}
tenant: {slug: merged, name: Merged}
levels: [org, team, user]
tree:
  - {level: org, key: m, children: [{<<: *team, key: a, members: [ann]}, {<<: *team, key: b, members: [bob]}]}
"""
    plan = parse_org_chart(text)
    assert sorted(plan.members) == ["ann", "bob"]
    assert [(node.level, node.key) for node in plan.nodes] == [("org", "m"), ("team", "a"), ("team", "b")]


ONBOARD_FILES = {
    "fifo": (lambda path: os.mkfifo(path), "not a regular file"),
    "dev_zero_symlink": (lambda path: path.symlink_to("/dev/zero"), "not a regular file"),
    "latin1": (lambda path: path.write_bytes("tenant: {slug: caf, name: Café}\n".encode("latin-1")), "not UTF-8"),
    "utf16_bom": (lambda path: path.write_bytes("tenant: {slug: w}\n".encode("utf-16")), "UTF-16"),
    "billion_laughs": (lambda path: path.write_text(chart_with_bomb("name")), "expand the document past"),
    "deep_nesting_800": (
        lambda path: path.write_text("tenant: {slug: deep}\ntree: " + "[" * 800 + "]" * 800 + "\n"),
        "nested deeper than",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(ONBOARD_FILES))
def test_onboard_tenant_refuses_bad_files_with_a_clear_message(tmp_path, case):
    from memories.models import Tenant

    make, expected = ONBOARD_FILES[case]
    path = tmp_path / "chart.yaml"
    make(path)
    stop = threading.Event()
    writer = _fifo_writer(str(path), stop) if case == "fifo" else None
    try:
        with pytest.raises(CommandError) as caught:
            call_command("onboard_tenant", str(path), "--dry-run", stdout=io.StringIO())
    finally:
        stop.set()
        if writer is not None:
            writer.join(timeout=5)
    assert expected in str(caught.value)
    assert len(str(caught.value)) < 600
    assert not Tenant.objects.exists()
