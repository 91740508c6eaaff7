"""The bulk import as a user runs it: each batch commits on its own while real worker processes (spawned
interpreters on the test database) embed and link the batches already written; a run that stopped half way
resumes when the same file is imported again; and the write path's scope resolution is done once per run."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from graph import tasks as graph_tasks
from memories import tasks as memory_tasks
from memories.management.commands import import_memories
from memories.models import IndexState, Memory, MemoryChunk
from memories.services.memory import create

pytestmark = pytest.mark.django_db(transaction=True)  # the workers read what the import committed


def _file(tmp_path, count: int, start: int = 0):
    lines = []
    for n in range(start, start + count):
        where = {"user_id": "bea"} if n % 3 == 0 else {"scope": "team:platform" if n % 3 == 1 else "org:acme"}
        lines.append(
            json.dumps({"external_id": f"line-{n}", **where, "content": f"Bulk fact {n}: Acme uses Kafka {n}."})
        )
    path = tmp_path / "bulk.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _crash_on_the_third_batch(monkeypatch):
    """The import's third batch write raises the user's Ctrl-C (or the machine going down); returns the real
    write, to put back."""
    real = import_memories.memory_create_batch
    calls = {"n": 0}

    def crashing(**kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(**kwargs)

    monkeypatch.setattr(import_memories, "memory_create_batch", crashing)
    return real


def _import(path, **options) -> dict:
    out = StringIO()
    call_command("import_memories", str(path), tenant="acme", json=True, stdout=out, stderr=StringIO(), **options)
    return json.loads(out.getvalue())


def test_worker_processes_embed_and_link_every_committed_batch(acme, tmp_path, monkeypatch):
    monkeypatch.setattr(import_memories, "IMPORT_BATCH", 40)  # three batches, each handed to a worker
    in_this_process = []  # what the importing process itself embeds or links: nothing (the workers do)
    monkeypatch.setattr(memory_tasks, "memories_embed", lambda **kwargs: in_this_process.append(kwargs))
    monkeypatch.setattr(graph_tasks, "links_extract_for_memories", lambda **kwargs: in_this_process.append(kwargs))
    summary = _import(_file(tmp_path, 100), workers=2)

    assert in_this_process == []

    assert summary["created"] == 100 and summary["failed"] == 0
    memories = Memory.objects.filter(tenant=acme)
    assert memories.count() == 100
    # indexed by the worker processes before the command returned, not left for a sweeper
    assert set(memories.values_list("index_state", flat=True)) == {IndexState.READY}
    assert set(memories.values_list("links_state", flat=True)) == {IndexState.READY}
    assert MemoryChunk.objects.filter(memory__tenant=acme).values("memory_id").distinct().count() == 100
    # the links the workers extracted are the tenant's own
    assert memories.filter(links__isnull=False).distinct().count() == 100


def test_a_run_stopped_half_way_keeps_its_committed_batches_and_the_same_file_resumes(acme, tmp_path, monkeypatch):
    monkeypatch.setattr(import_memories, "IMPORT_BATCH", 30)
    path = _file(tmp_path, 90)
    real = _crash_on_the_third_batch(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        _import(path, workers=0)
    assert Memory.objects.filter(tenant=acme).count() == 60  # two batches committed, the third never

    monkeypatch.setattr(import_memories, "memory_create_batch", real)
    summary = _import(path, workers=0)

    assert (summary["created"], summary["deduplicated"], summary["failed"]) == (30, 60, 0)
    assert Memory.objects.filter(tenant=acme).count() == 90
    assert Memory.objects.filter(tenant=acme).values("external_id").distinct().count() == 90


def test_all_or_nothing_still_commits_the_file_as_one_transaction(acme, tmp_path, monkeypatch):
    monkeypatch.setattr(import_memories, "IMPORT_BATCH", 30)
    path = _file(tmp_path, 90)
    _crash_on_the_third_batch(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        _import(path, all_or_nothing=True)
    assert not Memory.objects.filter(tenant=acme).exists()


def test_each_target_scope_is_resolved_once_per_run_not_once_per_batch(acme, tmp_path, monkeypatch):
    monkeypatch.setattr(import_memories, "IMPORT_BATCH", 10)
    resolved = []
    real = create.memory_scope_resolve

    def counting(**kwargs):
        resolved.append(kwargs["scope"])
        return real(**kwargs)

    monkeypatch.setattr(create, "memory_scope_resolve", counting)
    summary = _import(_file(tmp_path, 60), workers=0)

    assert summary["created"] == 60
    # three targets (bea's own scope, team:platform, org:acme) over six batches
    assert len(resolved) == 3


def test_the_tables_an_import_changed_are_analyzed_at_its_end(acme, tmp_path):
    """A freshly imported tenant is searched with plans for its size: the run ends by analyzing what it changed
    (the memories and the rows indexing wrote for them), nothing else."""
    analyzed_before = _analyze_counts()

    summary = _import(_file(tmp_path, 30), workers=0)

    assert summary["created"] == 30
    analyzed = {table for table, count in _analyze_counts().items() if count != analyzed_before.get(table)}
    assert {Memory._meta.db_table, MemoryChunk._meta.db_table} <= analyzed
    assert "memories_member" not in analyzed and "auth_user" not in analyzed


def _analyze_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, analyze_count FROM pg_stat_user_tables WHERE schemaname = current_schema()")
        return dict(cursor.fetchall())
