"""The user's bulk path measured as a user runs it (``manage.py bench_import``): a generated organisation (its scope
tree and members, ``users`` of them), a JSONL file of its memories in the format ``import_memories`` reads, and the
real ``import_memories`` command run as a separate process, part after part, each part timed from its start until
every memory it wrote is embedded and linked (``index_state`` and ``links_state`` ready), so the rate per part shows
how the cost moves as the tenant grows. Pure helpers here; the command starts the processes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from bench.corpus.generator import CorpusPlan, corpus_plan, memory_at

# the generator puts one user per ~100 memories of its large tenant: the organisation of `users` users is the plan
# of a corpus of users * 100 memories, whatever the number of memories imported into it
MEMORIES_PER_USER = 100


def organisation_plan(*, users: int, seed: int = 11) -> CorpusPlan:
    """One tenant's plan with about ``users`` users (no small tenants)."""
    return corpus_plan(seed=seed, size=max(1, users) * MEMORIES_PER_USER, small_tenants=0, prefix="import")


def import_lines(plan: CorpusPlan, *, start: int, stop: int) -> Iterator[dict]:
    """The JSONL records of memories ``start`` … ``stop - 1`` of the plan's tenant: a user's own memory names the
    user (``user_id``: their private scope), any other the scope it lives at; each carries an ``external_id``, so an
    import run again (after a crash, or on purpose) returns the stored memory instead of writing it twice."""
    tp = plan.tenants[0]
    for ordinal in range(start, stop):
        memory = memory_at(plan, 0, ordinal)
        line: dict = {"content": memory.content, "kind": memory.kind, "external_id": f"gen-{plan.seed}-{ordinal}"}
        if memory.title:
            line["title"] = memory.title
        if memory.scope.startswith(tp.levels[-1] + ":") and memory.author:
            line["user_id"] = memory.author
        else:
            line["scope"] = memory.scope
        yield line


def import_file_write(path: Path, plan: CorpusPlan, *, start: int, stop: int) -> int:
    """Write memories ``start`` … ``stop - 1`` as JSONL; returns the number of lines."""
    count = 0
    with path.open("w", encoding="utf-8") as sink:
        for line in import_lines(plan, start=start, stop=stop):
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")
            count += 1
    return count


def words_median(plan: CorpusPlan, *, sample: int = 2000) -> int:
    counts = sorted(len(memory_at(plan, 0, ordinal).content.split()) for ordinal in range(sample))
    return counts[len(counts) // 2]
