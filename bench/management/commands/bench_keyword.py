"""Benchmark the BM25 keyword arm as the corpus grows (1k → 10k → 100k memories in one tenant, in one run).

The corpus is generated: a Zipf-distributed vocabulary (a few very common words, a long tail of rare ones, as
in real text), 15–90 words a memory, spread over org, team and users' private scopes of a tenant with a second
tenant beside it. Only the keyword arm is timed (its statement through ``selectors.arm_candidates``); the query
mix holds rare, mixed and common-only queries. EXPLAIN (ANALYZE, BUFFERS) of a common-term query is printed at
each size, so the bounded candidate set can be seen. A benchmark command, not a test.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import time
from bisect import bisect_left

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from bench.stats import percentile
from memories.models import IndexState, Memory, Scope, Tenant
from memories.orgchart import parse_org_chart
from memories.services.onboarding import tenant_onboard
from retrieval import selectors

SLUG = "bench-keyword"
_SYLLABLES = "ka lo mi ne ru sa te vo zi ba de fu gi ho ja ke lu ma no pe ri so tu va we xi yo zu".split()
_COMMON = (
    "the team deploy release meeting customer service data report project review plan update issue policy "
    "incident budget sales product design launch week quarter goal office system"
).split()
_USERS = [f"user{i}" for i in range(40)]


def vocabulary(rng: random.Random, size: int) -> list[str]:
    words = set(_COMMON)
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    ordered = _COMMON + sorted(words - set(_COMMON))
    return ordered


class Zipf:
    def __init__(self, words: list[str], s: float = 1.07) -> None:
        self.words = words
        weights = [1.0 / (rank + 1) ** s for rank in range(len(words))]
        total = sum(weights)
        self.cumulative = []
        running = 0.0
        for weight in weights:
            running += weight / total
            self.cumulative.append(running)

    def draw(self, rng: random.Random) -> str:
        return self.words[min(len(self.words) - 1, bisect_left(self.cumulative, rng.random()))]


class Command(BaseCommand):
    help = "BM25 keyword-arm latency at growing corpus sizes in one run (p50/p95/p99, ratio, EXPLAIN)."

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="1000,10000,100000")
        parser.add_argument("--queries", type=int, default=300)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--keep", action="store_true", help="keep the benchmark tenants")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, sizes: str, queries: int, seed: int, **options):
        targets = sorted(int(size) for size in sizes.split(",") if size)
        if not targets or targets[0] < 1:
            raise CommandError("--sizes must be positive integers")
        rng = random.Random(seed)
        zipf = Zipf(vocabulary(rng, 50_000))
        tenant, other = self._tenants()
        reader_chain = [
            node.scope_id for node in selectors.search_context(tenant=tenant, user_id="user0", norms=[]).chain
        ]
        scopes = list(Scope.objects.filter(tenant=tenant).exclude(level="division"))
        other_scope = Scope.objects.get(tenant=other, level="org")
        query_texts = _queries(rng, zipf, queries)
        results = []
        try:
            loaded = 0
            for target in targets:
                started = time.perf_counter()
                while loaded < target:
                    batch = min(5000, target - loaded)
                    _load(tenant, scopes, rng, zipf, loaded, batch)
                    _load(other, [other_scope], rng, zipf, loaded, max(1, batch // 10))
                    loaded += batch
                load_s = time.perf_counter() - started
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE memories_memory")
                self.stderr.write(f"{target} memories loaded ({load_s:.1f}s); timing {len(query_texts)} queries")
                for text in query_texts[:20]:  # warm the cache as a running server would be
                    _keyword(tenant, reader_chain, text)
                timings = []
                for text in query_texts:
                    t0 = time.perf_counter()
                    _keyword(tenant, reader_chain, text)
                    timings.append((time.perf_counter() - t0) * 1000)
                results.append(
                    {
                        "memories": target,
                        "load_s": round(load_s, 1),
                        "p50_ms": round(percentile(timings, 50), 2),
                        "p95_ms": round(percentile(timings, 95), 2),
                        "p99_ms": round(percentile(timings, 99), 2),
                        "mean_ms": round(statistics.fmean(timings), 2),
                        "explain": _explain(tenant, reader_chain, "the team release meeting"),
                    }
                )
            report = {"queries": len(query_texts), "budget": selectors.KEYWORD_CANDIDATES, "sizes": results}
            by_size = {row["memories"]: row for row in results}
            if 10_000 in by_size and 100_000 in by_size:
                report["p95_ratio_100k_10k"] = round(by_size[100_000]["p95_ms"] / by_size[10_000]["p95_ms"], 2)
            self.stdout.write(json.dumps(report) if options["json"] else _format(report))
        finally:
            if not options["keep"]:
                _drop(tenant, other)

    def _tenants(self) -> tuple[Tenant, Tenant]:
        Tenant.objects.filter(slug__in=[SLUG, f"{SLUG}-other"]).delete()
        teams = ", ".join(
            f"{{level: team, key: t{t}, name: T{t}, members: [{', '.join(_USERS[t * 5 : t * 5 + 5])}]}}"
            for t in range(8)
        )
        chart = (
            f"tenant: {{slug: {SLUG}, name: keyword benchmark}}\nlevels: [org, division, team, user]\n"
            f"tree: [{{level: org, key: root, name: Root, children: [{{level: division, key: d, name: D, "
            f"children: [{teams}]}}]}}]\npolicies: {{writable_levels: {{agent: [user, team]}}}}\n"
        )
        tenant_onboard(plan=parse_org_chart(chart))
        tenant_onboard(
            plan=parse_org_chart(
                f"tenant: {{slug: {SLUG}-other, name: other}}\nlevels: [org, user]\n"
                "tree: [{level: org, key: root, name: Root, members: [someone]}]\n"
                "policies: {writable_levels: {agent: [user]}}\n"
            )
        )
        return Tenant.objects.get(slug=SLUG), Tenant.objects.get(slug=f"{SLUG}-other")


def _drop(*tenants: Tenant) -> None:
    """The generated rows have no chunks, links or history: one DELETE (the BM25 triggers run once for it)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM memories_memory WHERE tenant_id = ANY(%s)", [[t.pk for t in tenants]])
    Tenant.objects.filter(pk__in=[t.pk for t in tenants]).delete()


def _text(rng: random.Random, zipf: Zipf) -> str:
    return " ".join(zipf.draw(rng) for _ in range(rng.randint(15, 90))).capitalize() + "."


def _queries(rng: random.Random, zipf: Zipf, count: int) -> list[str]:
    texts = []
    for i in range(count):
        if i % 5 == 0:  # common words only: the case a naive OR-ranking pays for in full
            texts.append(" ".join(rng.sample(_COMMON, rng.randint(2, 4))))
        else:
            texts.append(" ".join(zipf.draw(rng) for _ in range(rng.randint(2, 5))))
    return texts


@transaction.atomic
def _load(tenant: Tenant, scopes: list[Scope], rng: random.Random, zipf: Zipf, offset: int, count: int) -> None:
    rows = []
    for i in range(count):
        content = f"{_text(rng, zipf)} (#{offset + i})"
        rows.append(
            Memory(
                tenant=tenant,
                scope=rng.choice(scopes),
                kind="fact",
                title="",
                content=content,
                content_hash=hashlib.sha256(content.encode()).hexdigest(),
                author="bench",
                index_state=IndexState.READY,
                links_state=IndexState.READY,
            )
        )
    created = Memory.objects.bulk_create(rows, batch_size=1000)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE memories_memory SET search_vector = setweight(to_tsvector(%s::regconfig, content), 'B') "
            "WHERE id = ANY(%s)",
            [selectors.TEXT_SEARCH_CONFIG, [memory.pk for memory in created]],
        )


def _keyword(tenant: Tenant, chain: list[int], text: str) -> list[int]:
    return selectors.arm_candidates(
        tenant=tenant, chain_ids=chain, kinds=["fact"], depth=50, query=text, vector=None
    ).keyword


def _explain(tenant: Tenant, chain: list[int], text: str) -> list[str]:
    """EXPLAIN ANALYZE of the keyword statement for a common-words query (the plan lines that show its work)."""
    sql, params = selectors.arm_statement(
        tenant=tenant, chain_ids=chain, kinds=["fact"], depth=50, query=text, vector=None
    )
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) " + sql, params)
        lines = [row[0] for row in cursor.fetchall()]
    keep = ("CTE", "Bitmap", "Limit", "Index", "Execution Time", "Buffers")
    return [line for line in lines if any(word in line for word in keep)][:30]


def _format(report: dict) -> str:
    lines = [
        f"BM25 keyword arm, {report['queries']} queries per size, candidate budget {report['budget']}",
        f"{'memories':>9} {'load s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}",
    ]
    for row in report["sizes"]:
        scan = next((line.strip() for line in row["explain"] if "on memories_memory" in line), "")
        lines.append(
            f"{row['memories']:>9} {row['load_s']:>8} {row['p50_ms']:>8} {row['p95_ms']:>8} {row['p99_ms']:>8}"
            f"   candidates: {scan.split('(')[0].strip('-> ')}"
        )
    if "p95_ratio_100k_10k" in report:
        lines.append(f"p95(100k) / p95(10k) = {report['p95_ratio_100k_10k']}")
    largest = report["sizes"][-1]
    lines += ["", f"EXPLAIN ANALYZE at {largest['memories']} (query 'the team release meeting'):"]
    lines += ["  " + line for line in largest["explain"]]
    return "\n".join(lines)
