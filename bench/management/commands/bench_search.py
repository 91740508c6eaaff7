"""Search latency through real HTTP against the production server, on generated corpora (``load_corpus``).

For each corpus size (the large tenant of ``corpus_plan(seed, size)``, loaded beforehand with ``manage.py
load_corpus --size N``; all sizes live side by side in one database, so every search runs against one shared
HNSW index and one memory table), with 1, 8 and 32 concurrent clients in turn: ``POST /api/v1/search`` (top_k 10,
every arm) with realistic questions of the tenant's users — a quarter each keyword, paraphrase, relational and
names — each a question the server has not seen before (the workers' query-embedding cache never answers, so
query embedding is always included). The server is gunicorn with ``orgmemory/gunicorn_conf.py`` in production
mode, started on a free loopback port (or ``--url``); one API key per client, as agents have.

Printed: p50/p95/p99, requests/s and errors per size and client count, p95(largest)/p95(smallest), the server's
workers (memory, start-up), and the server-side split (query embedding, keyword+vector statement, relational walk,
fusion) measured in-process on the same kind of questions, so it is clear what limits, with how often the memory
each question was drawn from comes back (quality at that size). ``--explain`` writes
``EXPLAIN (ANALYZE, BUFFERS)`` of the arm statements per size.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.corpus.generator import BenchQuery, corpus_plan
from bench.evaluation import BASELINE
from bench.queries import SourceCheck, distinct_queries
from bench.servers import free_port, process_stop, production_env
from bench.stats import percentile

READY = re.compile(r"worker (\d+) ready ([\d.]+) s after fork: embedder (.+) loaded in ([\d.]+) s, RSS (\d+) MB")
WARMUP = 24


class Command(BaseCommand):
    help = "Search p50/p95/p99 and requests/s through real HTTP (gunicorn) on generated corpora of several sizes."

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="10000,100000", help="corpus sizes (loaded with load_corpus)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--clients", default="1,8,32", help="concurrent clients, in turn")
        parser.add_argument("--requests", type=int, default=400, help="measured requests per size and client count")
        parser.add_argument("--url", help="an already running server (default: start gunicorn)")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="gunicorn workers")
        parser.add_argument("--split", type=int, default=120, help="in-process searches for the per-stage split")
        parser.add_argument(
            "--baseline-max",
            type=int,
            default=200_000,
            help="rank_bm25 beside the split's quality figure up to this many memories (it scores every one in Python)",
        )
        parser.add_argument("--explain", help="write EXPLAIN ANALYZE of the arm statements to this file")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        sizes = _ints(options["sizes"])
        clients = _ints(options["clients"])
        if not sizes or not clients or options["requests"] < 1:
            raise CommandError("--sizes, --clients and --requests must be positive")
        quiet = options["json"]
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request otherwise
        corpora = [self._corpus(size, options, clients) for size in sizes]
        report: dict = {"sizes": sizes, "clients": clients, "cores": os.cpu_count(), "runs": [], "split": {}}
        keys: list = []
        try:
            for corpus in corpora:
                keys.extend(corpus["keys"])
            if options["explain"]:
                self._explain(corpora, Path(options["explain"]))
            server_cm = contextlib.nullcontext({"url": options["url"]}) if options["url"] else _server(options)
            with server_cm as server:
                report["server"] = {k: v for k, v in server.items() if k != "log"}
                for n_clients in clients:
                    for corpus in corpora:  # sizes interleaved per client count: same conditions for the ratio
                        cpu_before = _cpu_seconds(server)
                        load_before = os.getloadavg()[0]
                        run = asyncio.run(_load(server["url"], corpus, n_clients, options["requests"]))
                        cpu_after = _cpu_seconds(server)
                        for part in ("app", "database"):
                            if cpu_before.get(part) is not None and cpu_after.get(part) is not None:
                                run[f"{part}_cpu_ms_per_request"] = round(
                                    (cpu_after[part] - cpu_before[part]) * 1000 / run["requests"], 1
                                )
                        run["load_average"] = round((load_before + os.getloadavg()[0]) / 2, 1)
                        report["runs"].append(run)
                        if not quiet:
                            self.stderr.write(_run_line(run))
                if "log" in server:
                    report["server"]["workers"] = _worker_figures(server)
            for corpus in corpora:
                report["split"][corpus["size"]] = _split(corpus, options["split"], options["baseline_max"])
        finally:
            from memories.models import ApiKey

            ApiKey.objects.filter(pk__in=[key.pk for key, _ in keys]).delete()
        _ratios(report)
        if quiet:
            self.stdout.write(json.dumps(report))
        else:
            self.stdout.write(_format(report))

    # --- set-up -------------------------------------------------------------------------------------------------

    def _corpus(self, size: int, options: dict, clients: list[int]) -> dict:
        from memories.models import Memory, MemoryChunk, Tenant
        from memories.services.tenancy import api_key_create

        plan = corpus_plan(seed=options["seed"], size=size)
        large = plan.tenants[0]
        tenant = Tenant.objects.filter(slug=large.slug).first()
        if tenant is None:
            raise CommandError(f"corpus of size {size} is not loaded: manage.py load_corpus --size {size}")
        needed = WARMUP + options["requests"] * len(clients) + options["split"]
        queries = distinct_queries(plan, needed)
        keys = [
            api_key_create(tenant=tenant, name=f"bench-search-{secrets.token_hex(4)}", permissions=["read"])
            for _ in range(max(clients))
        ]
        return {
            "size": size,
            "plan": plan,
            "tenant": tenant,
            "memories": Memory.objects.filter(tenant=tenant).count(),
            "chunks": MemoryChunk.objects.filter(tenant=tenant).count(),
            "all_memories": Memory.objects.count(),
            "queries": queries,
            "next": 0,
            "keys": keys,
        }

    def _explain(self, corpora: list[dict], path: Path) -> None:
        from django.db import connection

        from memories.embedding import get_embedder
        from memories.models import MemoryKind
        from retrieval import selectors
        from retrieval.relational_query import mention_candidates, tokenize

        lines = []
        for corpus in corpora:
            samples = {}
            for query in corpus["queries"][-40:]:
                samples.setdefault(query.kind, query)
            for kind, query in samples.items():
                tokens = tokenize(query.text)
                context = selectors.search_context(
                    tenant=corpus["tenant"], user_id=query.user_id, norms=list(mention_candidates(tokens))
                )
                chain = [node.scope_id for node in context.chain]
                sql, params = selectors.arm_statement(
                    tenant=corpus["tenant"],
                    chain_ids=chain,
                    kinds=list(MemoryKind.values),
                    depth=50,
                    query=query.text,
                    vector=get_embedder().embed([query.text])[0],
                )
                with connection.cursor() as cursor:
                    cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
                    plan = "\n".join(row[0] for row in cursor.fetchall())
                plan = re.sub(r"'\[[-0-9.e,]{200,}\]'", "'[<query vector>]'", plan)
                lines.append(
                    f"== size {corpus['size']}, {kind} query {query.text!r} (user {query.user_id}, "
                    f"chain of {len(chain)})\n{plan}\n"
                )
        path.write_text("\n".join(lines))


# --- helpers ------------------------------------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise CommandError(f"not a list of integers: {text!r}") from exc
    if any(value < 1 for value in values):
        raise CommandError(f"values must be positive: {text!r}")
    return values


def _take(corpus: dict, count: int) -> list[BenchQuery]:
    start = corpus["next"]
    corpus["next"] = start + count
    return corpus["queries"][start : start + count]


async def _load(url: str, corpus: dict, n_clients: int, requests: int) -> dict:
    import httpx

    warm = _take(corpus, WARMUP if corpus["next"] == 0 else 0)
    queries = _take(corpus, requests)
    samples: list[float] = []
    errors: list[str] = []
    kinds: dict[str, list[float]] = {}
    limits = httpx.Limits(max_connections=n_clients + 4, max_keepalive_connections=n_clients + 4)
    async with httpx.AsyncClient(base_url=f"{url}/api/v1", timeout=60, limits=limits) as client:
        for index, query in enumerate(warm):  # worker start-up paths, connections, plans
            key = corpus["keys"][index % len(corpus["keys"])][1]
            await client.post(
                "/search",
                json={"user_id": query.user_id, "query": query.text},
                headers={"Authorization": f"Bearer {key}"},
            )
        pending = list(enumerate(queries))

        async def worker(n: int) -> None:
            key = corpus["keys"][n][1]
            headers = {"Authorization": f"Bearer {key}"}
            while pending:
                _, query = pending.pop()
                started = time.perf_counter()
                try:
                    response = await client.post(
                        "/search", json={"user_id": query.user_id, "query": query.text, "top_k": 10}, headers=headers
                    )
                    ok = response.status_code == 200
                    if not ok:
                        errors.append(f"{response.status_code}: {response.text[:200]}")
                except httpx.HTTPError as exc:
                    ok = False
                    errors.append(f"{type(exc).__name__}: {exc}")
                ms = (time.perf_counter() - started) * 1000
                if ok:
                    samples.append(ms)
                    kinds.setdefault(query.kind, []).append(ms)

        started = time.perf_counter()
        await asyncio.gather(*(worker(n) for n in range(n_clients)))
        elapsed = time.perf_counter() - started
    return {
        "size": corpus["size"],
        "tenant_memories": corpus["memories"],
        "tenant_chunks": corpus["chunks"],
        "database_memories": corpus["all_memories"],
        "clients": n_clients,
        "requests": len(queries),
        "seconds": round(elapsed, 2),
        "requests_per_second": round(len(queries) / elapsed, 1),
        "errors": len(errors),
        "first_errors": errors[:3],
        "p50_ms": round(percentile(samples, 50), 1),
        "p95_ms": round(percentile(samples, 95), 1),
        "p99_ms": round(percentile(samples, 99), 1),
        "by_kind_p50_p95_ms": {
            kind: [round(percentile(values, 50), 1), round(percentile(values, 95), 1)]
            for kind, values in sorted(kinds.items())
        },
    }


def _split(corpus: dict, count: int, baseline_max: int) -> dict:
    """The same kind of questions through the search service in this process: where the time goes, and how often
    the memory a question was drawn from comes back (in the top 10, first) — quality at this size, beside its
    latency — with rank_bm25 over the same texts, kept to what each question's user may see, in the same run."""
    from retrieval.services import SearchOptions, search_memories

    check = SourceCheck(corpus["plan"], corpus["tenant"], baseline_max=baseline_max)
    stages: dict[str, list[float]] = {}
    hits = {"search": [0, 0], **({BASELINE: [0, 0]} if check.baseline else {})}  # in the top 10, first
    queries = _take(corpus, count)
    for query in queries:
        cpu = time.process_time()
        result = search_memories(
            tenant=corpus["tenant"],
            user_id=query.user_id,
            query=query.text,
            options=SearchOptions(top_k=10, track_access=False),
        )
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        stages.setdefault("python_cpu", []).append((time.process_time() - cpu) * 1000)
        sources = check.sources(query)
        ranked = {"search": [hit.memory.pk for hit in result.hits]}
        if check.baseline is not None:
            ranked[BASELINE] = check.baseline_top(query)
        for name, ids in ranked.items():
            hits[name][0] += bool(sources & set(ids))
            hits[name][1] += bool(ids) and ids[0] in sources
    split: dict = {
        stage: {"p50_ms": round(percentile(v, 50), 2), "p95_ms": round(percentile(v, 95), 2), "n": len(v)}
        for stage, v in stages.items()
    }
    split["source_memory"] = {
        name: {"in_top_10": round(top / len(queries), 3), "first": round(one / len(queries), 3)}
        for name, (top, one) in hits.items()
    }
    return split


def _ratios(report: dict) -> None:
    sizes = report["sizes"]
    if len(sizes) < 2:
        return
    report["p95_ratios"] = {}
    for n_clients in report["clients"]:
        runs = {run["size"]: run for run in report["runs"] if run["clients"] == n_clients}
        small, large = runs[min(sizes)], runs[max(sizes)]
        if small["p95_ms"]:
            report["p95_ratios"][n_clients] = round(large["p95_ms"] / small["p95_ms"], 2)


def _run_line(run: dict) -> str:
    kinds = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in run["by_kind_p50_p95_ms"].items())
    cpu = f"{run.get('app_cpu_ms_per_request', '-')}/{run.get('database_cpu_ms_per_request', '-')}"
    return (
        f"  {run['size']:>8} {run['clients']:>7} {run['requests']:>8} {run['p50_ms']:>8} {run['p95_ms']:>8} "
        f"{run['p99_ms']:>8} {run['requests_per_second']:>7} {run['errors']:>6} {cpu:>11} "
        f"{run.get('load_average', '-'):>5}   {kinds}"
    )


def _format(report: dict) -> str:
    server = report["server"]
    lines = [
        f"bench_search: POST /api/v1/search (top_k 10, all arms) through real HTTP at {server['url']} "
        f"({server.get('command', 'external server')}), {report['cores']} cores; distinct questions (no "
        "query-embedding cache hits), one API key per client",
    ]
    for run in report["runs"][:1]:
        lines.append(f"  database: {run['database_memories']} memories in all tenants")
    sizes_seen = set()
    for run in report["runs"]:
        if run["size"] not in sizes_seen:
            sizes_seen.add(run["size"])
            lines.append(
                f"  corpus {run['size']}: searched tenant holds {run['tenant_memories']} memories, "
                f"{run['tenant_chunks']} chunks"
            )
    lines.append(
        "      size clients requests   p50 ms   p95 ms   p99 ms   req/s errors  CPU ms/req  load   p50/p95 ms by kind"
    )
    lines.append("  (CPU ms/req: gunicorn workers / database server, per request; load: the machine's 1-min average)")
    lines.extend(_run_line(run) for run in report["runs"])
    for n_clients, ratio in report.get("p95_ratios", {}).items():
        lines.append(f"  p95({max(report['sizes'])})/p95({min(report['sizes'])}) with {n_clients} client(s): {ratio}")
    for size, stages in report["split"].items():
        source = stages["source_memory"]
        parts = ", ".join(f"{stage} {v['p50_ms']}/{v['p95_ms']}" for stage, v in stages.items() if "p50_ms" in v)
        lines.append(f"  server-side split at {size} (in-process, p50/p95 ms): {parts}")
        ours, baseline = source["search"], source.get(BASELINE)
        beside = (
            f"{BASELINE} over the same visible texts {baseline['in_top_10']:.1%} / {baseline['first']:.1%}"
            if baseline
            else f"{BASELINE} not run at this size (--baseline-max)"
        )
        lines.append(
            f"    the memory each question was drawn from, in the top 10 / first: search {ours['in_top_10']:.1%} / "
            f"{ours['first']:.1%}, {beside} ({stages['total']['n']} questions)"
        )
    for worker in server.get("workers", []):
        lines.append(
            f"  worker {worker['pid']}: ready {worker.get('ready_after_fork_s', '?')} s after fork (embedder "
            f"{worker.get('embedder_load_s', '?')} s), RSS {worker.get('rss_mb', '?')} MB, USS "
            f"{worker.get('uss_mb', '?')} MB after the run"
        )
    if "all_ready_s" in server:
        lines.append(f"  server: all workers ready {server['all_ready_s']} s after start")
    return "\n".join(lines)


# --- the production server --------------------------------------------------------------------------------------


@contextlib.contextmanager
def _server(options: dict):
    """gunicorn -c orgmemory/gunicorn_conf.py in production mode on a free loopback port (plain HTTP, a throwaway
    SECRET_KEY, throttling off for the benchmark's keys); stopped on exit. Its log is read for the workers'
    ready lines."""
    import httpx

    port = free_port()
    env = production_env(
        LOG_LEVEL="WARNING",
        ORGMEMORY_BIND=f"127.0.0.1:{port}",
        PORT=str(port),
        WEB_CONCURRENCY=str(options["workers"]),
        ORGMEMORY_API_RATE="1000000/minute",
    )
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "-c",
        str(Path(settings.BASE_DIR) / "orgmemory" / "gunicorn_conf.py"),
    ]
    folder = tempfile.mkdtemp(prefix="orgmemory-bench-search-")
    log_path = Path(folder) / "server.log"
    log: list[str] = []
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    ready: dict[int, dict] = {}

    def read_log() -> None:
        for line in process.stdout:
            log.append(line)
            match = READY.search(line)
            if match:
                ready[int(match[1])] = {
                    "ready_after_fork_s": float(match[2]),
                    "embedder": match[3],
                    "embedder_load_s": float(match[4]),
                    "logged_rss_mb": int(match[5]),
                    "ready_at_s": round(time.perf_counter() - started, 2),
                }

    threading.Thread(target=read_log, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while len(ready) < options["workers"]:
            if process.poll() is not None or time.monotonic() > deadline:
                log_path.write_text("".join(log))
                raise CommandError(f"gunicorn did not start ({log_path}):\n{''.join(log[-20:])}")
            time.sleep(0.2)
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(f"{url}/api/v1/health", timeout=10)
        yield {
            "url": url,
            "command": "gunicorn -c orgmemory/gunicorn_conf.py",
            "workers_n": options["workers"],
            "all_ready_s": max(w["ready_at_s"] for w in ready.values()),
            "log": ready,
            "pid": process.pid,
        }
    finally:
        process_stop(process)


def _cpu_seconds(server: dict) -> dict:
    """CPU seconds used so far by the gunicorn workers ("app") and by the database server ("database": every
    process of the PostgreSQL whose data folder this process uses — the benchmark's own server), so that a run
    reports CPU per request beside wall-clock latency (on a shared machine the wall clock includes waiting
    for a core)."""
    import psutil

    out: dict = {"app": None, "database": None}
    if "pid" in server:
        with contextlib.suppress(psutil.Error):
            out["app"] = sum(_cpu(child) for child in psutil.Process(server["pid"]).children())
    pid_file = Path(settings.ORGMEMORY_DATA_DIR) / "pgdata" / "postmaster.pid"
    with contextlib.suppress(OSError, ValueError, psutil.Error):
        postmaster = psutil.Process(int(pid_file.read_text().split()[0]))
        out["database"] = _cpu(postmaster) + sum(_cpu(child) for child in postmaster.children())
    return out


def _cpu(process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def _worker_figures(server: dict) -> list[dict]:
    import psutil

    out = []
    try:
        master = psutil.Process(server["pid"])
        children = master.children()
    except psutil.Error:
        return out
    for child in children:
        row = {"pid": child.pid, **server["log"].get(child.pid, {})}
        with contextlib.suppress(psutil.Error):
            info = child.memory_full_info()
            row.update(rss_mb=round(info.rss / 2**20), uss_mb=round(info.uss / 2**20))
        out.append(row)
    return out
