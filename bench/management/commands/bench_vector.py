"""The vector arm's HNSW settings, chosen by measurement: recall against an exact scan vs latency.

For a loaded corpus (``load_corpus``) the vector arm's statement (``retrieval.selectors.arm_statement`` with the
keyword arm left out: each scope of the caller's chain searched on its own — exactly, or through the scope's partial
HNSW index, retrieval/vector_indexes.py — best chunk per memory) runs for each question once exactly (index scans
off: the visible chunks are scanned and sorted) and then with each ``hnsw.ef_search``; recall@10 and recall@depth
are the shares of the exact memory ids found. Also printed: how many of the questions' chain scopes have an index,
and the visible chunks per question.
"""

from __future__ import annotations

import json
import os
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from bench.corpus.generator import corpus_plan
from bench.stats import percentile
from retrieval.selectors import CHUNKS_PER_MEMORY


class Command(BaseCommand):
    help = "HNSW recall vs latency for the vector arm on a loaded corpus (ef_search sweep, optional rebuilds)."

    def add_arguments(self, parser):
        parser.add_argument("--size", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--queries", type=int, default=100)
        parser.add_argument("--ef-search", default="20,40,64,100,200")
        parser.add_argument("--depth", type=int, default=50, help="the arm's depth (search uses max(30, 5*top_k))")
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
        from bench.queries import distinct_queries

        questions = distinct_queries(plan, queries)
        embedder = get_embedder()
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
        results = []
        for ef in _ints(options["ef_search"]):
            ms, recall10, recall_all = [], [], []
            for (sql, params), truth in zip(cases, exact, strict=True):
                ids, elapsed = self._run(sql, params, ef_search=ef)
                ms.append(elapsed)
                recall10.append(_recall(ids[:10], truth[:10]))
                recall_all.append(_recall(ids, truth))
            results.append(
                {
                    "ef_search": ef,
                    "p50_ms": round(percentile(ms, 50), 2),
                    "p95_ms": round(percentile(ms, 95), 2),
                    "recall_at_10": round(sum(recall10) / len(recall10), 4),
                    f"recall_at_{depth}": round(sum(recall_all) / len(recall_all), 4),
                }
            )
        exact_ms = [self._exact(params, timed=True) for _, params in cases[:20]]
        report = {
            "size": size,
            "queries": len(cases),
            "depth": depth,
            "exact_scan_p50_ms": round(percentile(exact_ms, 50), 2),
            **self._coverage([params for _, params in cases]),
            "results": results,
            "cores": os.cpu_count(),
        }
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        lines = [
            f"bench_vector: corpus {size}, {len(cases)} questions, vector arm depth {depth} "
            f"(chunks a scope {depth * CHUNKS_PER_MEMORY}); exact scan (no index) p50 {report['exact_scan_p50_ms']} ms",
            f"  chain scopes with their own HNSW index: {report['scopes_indexed']} of {report['scopes']}; visible "
            f"chunks per question p50 {report['visible_p50']}, max {report['visible_max']}, of which in indexed "
            f"scopes p50 {report['visible_indexed_p50']}",
            "  ef_search  p50 ms  p95 ms  recall@10  recall@depth",
        ]
        for r in results:
            lines.append(
                f"  {r['ef_search']:>9} {r['p50_ms']:>7} {r['p95_ms']:>7} {r['recall_at_10']:>10} "
                f"{r[f'recall_at_{depth}']:>13}"
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

    def _coverage(self, cases: list[dict]) -> dict:
        """How many of the questions' chain scopes have their own index, and how many chunks each question sees."""
        from retrieval.vector_indexes import indexes_present

        indexed = {scope for scope, valid in indexes_present().items() if valid}
        scopes = {scope for params in cases for scope in params["chain"]}
        visible, visible_indexed = [], []
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT scope_id, count(*) FROM memories_memorychunk WHERE tenant_id = %s AND scope_id = ANY(%s) "
                "GROUP BY scope_id",
                [cases[0]["tenant"], list(scopes)],
            )
            sizes = dict(cursor.fetchall())
        for params in cases:
            visible.append(sum(sizes.get(scope, 0) for scope in set(params["chain"])))
            visible_indexed.append(sum(sizes.get(scope, 0) for scope in set(params["chain"]) if scope in indexed))
        return {
            "scopes": len(scopes),
            "scopes_indexed": len(scopes & indexed),
            "visible_p50": int(percentile(visible, 50)),
            "visible_max": max(visible),
            "visible_indexed_p50": int(percentile(visible_indexed, 50)),
        }


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _recall(found: list[int], truth: list[int]) -> float:
    if not truth:
        return 1.0
    return len(set(found) & set(truth)) / len(truth)
