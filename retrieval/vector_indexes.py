"""The vector arm's HNSW indexes: one partial index per large scope, none shared across scopes or tenants.

A caller sees the chunks of the few scopes on its chain (its own node, its team, department … org, its projects).
One HNSW index over every tenant's chunks made the vector arm's cost and recall depend on the whole database: it
read a fixed number of the index's nearest chunks and kept the caller's visible ones, which beside a much larger
tenant were a small fraction of them (bench/HISTORY.md, search at scale). Instead the arm searches each scope of
the chain on its own (``retrieval.selectors``) — a scope with fewer than ``ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS``
chunks exactly, through the ``(tenant, scope)`` b-tree; a larger one through its own partial HNSW index

    CREATE INDEX chunk_hnsw_scope_<id> ON memories_memorychunk USING hnsw (embedding vector_cosine_ops)
        WITH (m = 16, ef_construction = 64) WHERE tenant_id = <tenant> AND scope_id = <id>

which the planner picks because the arm's statement names the scope as a literal. So the cost of a search depends
on the caller's chain, not on the size of its tenant or of the database, and the ANN result needs no filter.

:func:`vector_indexes_sync` keeps the set right: it builds the index of every scope that reached the threshold and
drops those of scopes that fell below half of it (or are gone), and rebuilds one a failed concurrent build left
invalid. It runs on the beat schedule (``retrieval.tasks.sync_vector_indexes``; without a broker the
``orgmemory-sweeper`` thread runs it), from ``manage.py vector_indexes`` and after ``load_corpus``. Until a growing
scope's index exists its chunks are scanned exactly: slower, never wrong. One sync runs at a time (an advisory lock).
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection

from memories.models import MemoryChunk, Scope

logger = logging.getLogger("orgmemory")

TABLE = MemoryChunk._meta.db_table
INDEX_PREFIX = "chunk_hnsw_scope_"
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
_LOCK_KEY = 0x0_76_65_63_74  # pg_try_advisory_lock key of the sync ("vect")
_NAME = re.compile(rf"^{INDEX_PREFIX}(\d+)$")


def index_name(scope_id: int) -> str:
    return f"{INDEX_PREFIX}{int(scope_id)}"


def index_definition(*, tenant_id: int, scope_id: int, concurrently: bool) -> str:
    return (
        f"CREATE INDEX {'CONCURRENTLY ' if concurrently else ''}IF NOT EXISTS {index_name(scope_id)} ON {TABLE} "
        f"USING hnsw (embedding vector_cosine_ops) WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) "
        f"WHERE tenant_id = {int(tenant_id)} AND scope_id = {int(scope_id)}"
    )


@dataclass
class SyncReport:
    scopes_indexed: int = 0  # scopes with an index after the sync
    chunks_indexed: int = 0  # chunks those indexes hold
    created: list[dict] = field(default_factory=list)  # {scope, tenant, chunks, seconds}
    dropped: list[dict] = field(default_factory=list)  # {scope, reason}
    skipped: bool = False  # another sync held the lock
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {
            "scopes_indexed": self.scopes_indexed,
            "chunks_indexed": self.chunks_indexed,
            "created": self.created,
            "dropped": self.dropped,
            "skipped": self.skipped,
            "seconds": round(self.seconds, 3),
        }


def indexes_present() -> dict[int, bool]:
    """scope id → whether its index is valid (a failed ``CREATE INDEX CONCURRENTLY`` leaves an invalid one)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT c.relname, i.indisvalid FROM pg_index i
               JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
               WHERE t.relname = %s AND c.relname LIKE %s AND c.relnamespace = to_regnamespace(current_schema())""",
            [TABLE, INDEX_PREFIX + "%"],
        )
        rows = cursor.fetchall()
    present = {}
    for name, valid in rows:
        match = _NAME.match(name)
        if match:
            present[int(match.group(1))] = bool(valid)
    return present


def min_chunks() -> int:
    return max(1, int(settings.ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS))


def vector_indexes_sync(*, concurrently: bool = True, build_memory: str | None = None) -> SyncReport:
    """Build the partial HNSW index of every scope with at least ``min_chunks()`` chunks, drop the index of every
    scope with fewer than half of that (or gone), rebuild invalid ones. ``concurrently`` keeps writes flowing during
    a build (it cannot run inside a transaction; migrations and the bulk loader pass ``False``)."""
    started = time.perf_counter()
    report = SyncReport()
    threshold = min_chunks()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [_LOCK_KEY])
        if not cursor.fetchone()[0]:
            report.skipped = True
            return report
        try:
            present = indexes_present()
            # one index-only pass over the narrow scope b-tree (scope ids are unique across tenants; the wide
            # (tenant, scope) index holds the embeddings): the scopes near or over the threshold, with their tenant
            cursor.execute(
                f"""SELECT s.tenant_id, c.scope_id, c.chunks FROM (
                    SELECT scope_id, count(*) AS chunks FROM {TABLE} GROUP BY scope_id HAVING count(*) >= %s
                ) c JOIN {Scope._meta.db_table} s ON s.id = c.scope_id""",
                [max(1, threshold // 2)],
            )
            sizes = {scope_id: (tenant_id, chunks) for tenant_id, scope_id, chunks in cursor.fetchall()}
            for scope_id, valid in sorted(present.items()):
                tenant_chunks = sizes.get(scope_id)
                reason = None
                if tenant_chunks is None:
                    reason = f"fewer than {max(1, threshold // 2)} chunks"
                elif not valid:
                    reason = "invalid (an interrupted build)"
                if reason is not None:
                    cursor.execute(
                        f"DROP INDEX {'CONCURRENTLY ' if concurrently else ''}IF EXISTS {index_name(scope_id)}"
                    )
                    report.dropped.append({"scope": scope_id, "reason": reason})
                    present.pop(scope_id)
            wanted = sorted(
                (scope_id, tenant_id, chunks)
                for scope_id, (tenant_id, chunks) in sizes.items()
                if chunks >= threshold and scope_id not in present
            )
            if wanted:
                cursor.execute(
                    "SELECT set_config('maintenance_work_mem', %s, false)",
                    [build_memory or settings.ORGMEMORY_VECTOR_INDEX_BUILD_MEMORY],
                )
            # inside a transaction (a migration, the bulk loader's caller, a test) pending deferred foreign-key checks
            # would refuse CREATE INDEX: run them now, and defer again after (Django's FKs are INITIALLY DEFERRED)
            settle = wanted and not concurrently and connection.in_atomic_block
            if settle:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for scope_id, tenant_id, chunks in wanted:
                built = time.perf_counter()
                cursor.execute(index_definition(tenant_id=tenant_id, scope_id=scope_id, concurrently=concurrently))
                seconds = round(time.perf_counter() - built, 2)
                report.created.append({"scope": scope_id, "tenant": tenant_id, "chunks": chunks, "seconds": seconds})
                present[scope_id] = True
                logger.info("vector index: scope %s (%s chunks) built in %.1f s", scope_id, chunks, seconds)
            if settle:
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            if wanted:
                cursor.execute("RESET maintenance_work_mem")
            report.scopes_indexed = len(present)
            report.chunks_indexed = sum(sizes.get(scope_id, (0, 0))[1] for scope_id in present)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [_LOCK_KEY])
    report.seconds = time.perf_counter() - started
    return report
