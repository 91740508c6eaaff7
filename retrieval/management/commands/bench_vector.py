"""The vector arm's HNSW settings, chosen by measurement: recall against an exact scan vs latency.

For a loaded corpus (``load_corpus``) the vector arm's statement (``retrieval.selectors.arm_statement`` with the
keyword arm left out: visibility filter inside pgvector's iterative index scan, best chunk per memory) runs for
each question once exactly (index scans off: the visible chunks are scanned and sorted) and then with each
``hnsw.ef_search``; recall@10 and recall@depth are the shares of the exact memory ids found. ``--build`` rebuilds
the HNSW index with other ``m`` / ``ef_construction`` first (a dedicated benchmark database only) and puts the
project's settings back at the end.
"""

from __future__ import annotations

import json
import os
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from memories.corpus.generator import corpus_plan
from retrieval.evaluation import percentile

INDEX = "chunk_embedding_hnsw"


class Command(BaseCommand):
    help = "HNSW recall vs latency for the vector arm on a loaded corpus (ef_search sweep, optional rebuilds)."

    def add_arguments(self, parser):
        parser.add_argument("--size", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--queries", type=int, default=100)
        parser.add_argument("--ef-search", default="20,40,64,100,200")
        parser.add_argument("--build", default="", help="m:ef_construction,... to rebuild and measure in turn")
        parser.add_argument("--depth", type=int, default=50, help="the arm's depth (search uses max(30, 5*top_k))")
        parser.add_argument("--ann-candidates", default="", help="VECTOR_ANN_CANDIDATES values to compare")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, size: int, seed: int, queries: int, depth: int, **options):
        from memories.embedding import get_embedder
        from memories.models import MemoryKind, Tenant
        from retrieval import selectors
        from retrieval.relational_query import mention_candidates, tokenize

        plan = corpus_plan(seed=seed, size=size)
        tenant = Tenant.objects.filter(slug=plan.tenants[0].slug).first()
        if tenant is None:
            raise CommandError(f"corpus {size} is not loaded (manage.py load_corpus --size {size})")
        from retrieval.management.commands.bench_search import _unique_queries

        questions = _unique_queries(plan, queries)
        embedder = get_embedder()
        import retrieval.selectors as selectors_module

        candidates_list = [int(x) for x in options["ann_candidates"].split(",") if x.strip()] or [
            selectors_module.VECTOR_ANN_CANDIDATES
        ]
        cases = []
        for question in questions:
            context = selectors.search_context(
                tenant=tenant, user_id=question.user_id, norms=list(mention_candidates(tokenize(question.text)))
            )
            sql, params = selectors.arm_statement(
                tenant=tenant,
                chain_ids=[node.scope_id for node in context.chain],
                kinds=list(MemoryKind.values),
                depth=depth,
                query=None,
                vector=embedder.embed([question.text])[0],
            )
            cases.append((sql, params))
        exact = [self._exact(params) for _, params in cases]
        builds = [tuple(int(x) for x in part.split(":")) for part in options["build"].split(",") if part.strip()]
        results = []
        original = self._definition()
        try:
            for build in builds or [None]:
                build_s = self._rebuild(*build) if build else None
                for ef, ann in [(e, a) for e in _ints(options["ef_search"]) for a in candidates_list]:
                    ms, recall10, recall_all = [], [], []
                    for (sql, params), truth in zip(cases, exact, strict=True):
                        ids, elapsed = self._run(sql, {**params, "ann_candidates": ann}, ef_search=ef)
                        ms.append(elapsed)
                        recall10.append(_recall(ids[:10], truth[:10]))
                        recall_all.append(_recall(ids, truth))
                    results.append(
                        {
                            "index": self._params(),
                            "build_s": build_s,
                            "ef_search": ef,
                            "ann_candidates": ann,
                            "p50_ms": round(percentile(ms, 50), 2),
                            "p95_ms": round(percentile(ms, 95), 2),
                            "recall_at_10": round(sum(recall10) / len(recall10), 4),
                            f"recall_at_{depth}": round(sum(recall_all) / len(recall_all), 4),
                        }
                    )
        finally:
            if builds and original:
                with connection.cursor() as cursor:
                    cursor.execute(f"DROP INDEX IF EXISTS {INDEX}")
                    cursor.execute("SET maintenance_work_mem = '1GB'")
                    cursor.execute(original)
        exact_ms = [self._exact(params, timed=True) for _, params in cases[:20]]
        report = {
            "size": size,
            "queries": len(cases),
            "depth": depth,
            "exact_scan_p50_ms": round(percentile(exact_ms, 50), 2),
            "results": results,
            "cores": os.cpu_count(),
        }
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        lines = [
            f"bench_vector: corpus {size}, {len(cases)} questions, vector arm depth {depth} (chunks {depth * 4}); "
            f"exact scan (no index) p50 {report['exact_scan_p50_ms']} ms",
            "  index (m, ef_construction)  build s  ef_search  candidates  p50 ms  p95 ms  recall@10  recall@depth",
        ]
        for r in results:
            lines.append(
                f"  {str(r['index']):<27} {str(r['build_s'] or '-'):>7} {r['ef_search']:>10} "
                f"{r['ann_candidates']:>11} {r['p50_ms']:>7} "
                f"{r['p95_ms']:>7} {r['recall_at_10']:>10} {r[f'recall_at_{depth}']:>13}"
            )
        self.stdout.write("\n".join(lines))

    def _exact(self, params: dict, timed: bool = False):
        """The visible, live chunks' exact nearest memories (every visible chunk's distance, sorted)."""
        from retrieval.selectors import LIVE_MEMORY

        sql = f"""
            WITH nearest AS (
                SELECT c.memory_id, c.embedding <=> %(vector)s::vector AS distance
                FROM memories_memorychunk c JOIN memories_memory m ON m.id = c.memory_id
                WHERE c.tenant_id = %(tenant)s AND c.scope_id = ANY(%(chain)s) AND {LIVE_MEMORY}
                ORDER BY 2 LIMIT %(chunk_depth)s
            )
            SELECT 'vector', memory_id, 1.0 - min(distance), 0 FROM nearest GROUP BY memory_id
            ORDER BY min(distance), memory_id LIMIT %(depth)s"""
        ids, elapsed = self._run(sql, params, exact=True)
        return elapsed if timed else ids

    def _run(self, sql: str, params: dict, *, exact: bool = False, ef_search: int | None = None):
        with transaction.atomic(), connection.cursor() as cursor:
            if exact:
                cursor.execute("SET LOCAL enable_indexscan = off")
            if ef_search:
                cursor.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            started = time.perf_counter()
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            elapsed = (time.perf_counter() - started) * 1000
        rows.sort(key=lambda r: (-r[2], r[1]))
        return [r[1] for r in rows], elapsed

    def _definition(self) -> str | None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [INDEX])
            row = cursor.fetchone()
        return row[0] if row else None

    def _params(self) -> str:
        definition = self._definition() or ""
        return definition[definition.find("WITH") :] or "none"

    def _rebuild(self, m: int, ef_construction: int) -> float:
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {INDEX}")
            cursor.execute("SET maintenance_work_mem = '1GB'")
            cursor.execute(
                f"CREATE INDEX {INDEX} ON memories_memorychunk USING hnsw (embedding vector_cosine_ops) "
                f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"
            )
        return round(time.perf_counter() - started, 1)


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _recall(found: list[int], truth: list[int]) -> float:
    if not truth:
        return 1.0
    return len(set(found) & set(truth)) / len(truth)
