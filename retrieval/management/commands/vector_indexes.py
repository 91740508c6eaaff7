"""Bring the vector arm's per-scope HNSW indexes up to date now (the beat schedule does it every five minutes) and
list them: which scopes have one and how many chunks each holds."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from django.db import connection

from memories.models import MemoryChunk, Scope, Tenant
from retrieval.vector_indexes import indexes_present, min_chunks, vector_indexes_sync


class Command(BaseCommand):
    help = (
        "Build the partial HNSW index of every scope with at least ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS chunks, drop "
        "those of scopes that shrank below half of it, and list them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--blocking",
            action="store_true",
            help="build without CONCURRENTLY (faster; blocks writes to the chunk table meanwhile)",
        )
        parser.add_argument("--build-memory", default=None, help="maintenance_work_mem for the builds, e.g. 2GB")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, blocking: bool, build_memory: str | None, **options):
        report = vector_indexes_sync(concurrently=not blocking, build_memory=build_memory)
        listing = self._listing()
        if options["json"]:
            self.stdout.write(json.dumps({**report.as_dict(), "threshold": min_chunks(), "indexes": listing}))
            return
        if report.skipped:
            self.stdout.write("another sync holds the lock; nothing done")
        for built in report.created:
            self.stdout.write(
                f"built  scope {built['scope']} (tenant {built['tenant']}): {built['chunks']} chunks, "
                f"{built['seconds']} s"
            )
        for dropped in report.dropped:
            self.stdout.write(f"dropped scope {dropped['scope']}: {dropped['reason']}")
        self.stdout.write(
            f"{len(listing)} scope(s) with their own HNSW index (threshold {min_chunks()} chunks), "
            f"{sum(row['chunks'] for row in listing)} chunks; {report.seconds:.2f} s"
        )
        for row in listing:
            self.stdout.write(
                f"  {row['tenant']:<24} {row['scope']:<40} {row['chunks']:>9} chunks {row['size_mb']:>8} MB"
                + ("" if row["valid"] else "  INVALID")
            )

    def _listing(self) -> list[dict]:
        present = indexes_present()
        if not present:
            return []
        with connection.cursor() as cursor:
            cursor.execute(
                f"""SELECT s.id, t.slug, s.level || ':' || s.key,
                          (SELECT count(*) FROM {MemoryChunk._meta.db_table} c WHERE c.tenant_id = s.tenant_id
                              AND c.scope_id = s.id),
                          pg_relation_size(to_regclass('chunk_hnsw_scope_' || s.id))
                   FROM {Scope._meta.db_table} s JOIN {Tenant._meta.db_table} t ON t.id = s.tenant_id
                   WHERE s.id = ANY(%s) ORDER BY t.slug, s.id""",
                [list(present)],
            )
            rows = cursor.fetchall()
        return [
            {
                "scope_id": scope_id,
                "tenant": slug,
                "scope": tag,
                "chunks": chunks,
                "size_mb": round((size or 0) / 2**20, 1),
                "valid": present[scope_id],
            }
            for scope_id, slug, tag, chunks, size in rows
        ]
