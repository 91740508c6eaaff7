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

``--replica``: the same benchmark on a primary and a streaming hot standby built on this machine from the embedded
binaries (bench/replication.py; the corpora are loaded into the primary with ``load_corpus``), against two servers
in turn, interleaved per client count: one on the primary alone, one with ``DATABASE_REPLICA_URLS`` set to the
standby (read-your-writes markers in a throwaway Redis). Printed besides: where each search was read (the router's
``X-OrgMemory-Read-From`` header), the standby's replay lag seen in /health around each run, CPU per request of
the primary and of the standby, and the router's own cost per request measured in-process.
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
        parser.add_argument(
            "--server-pid",
            type=int,
            help="the --url server's master process, so its workers' CPU per request is reported too (e.g. another "
            "commit's gunicorn on the same database, for a before/after with the same queries)",
        )
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
        parser.add_argument(
            "--replica", action="store_true", help="primary alone vs primary + streaming standby, on this machine"
        )

    def handle(self, *args, **options):
        sizes = _ints(options["sizes"])
        clients = _ints(options["clients"])
        if not sizes or not clients or options["requests"] < 1:
            raise CommandError("--sizes, --clients and --requests must be positive")
        quiet = options["json"]
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request otherwise
        with _replica_databases(options, sizes) if options["replica"] else contextlib.nullcontext() as replica:
            self._run(options, sizes, clients, quiet, replica)

    def _run(self, options: dict, sizes: list[int], clients: list[int], quiet: bool, replica: dict | None) -> None:
        corpora = [self._corpus(size, options, clients) for size in sizes]
        report: dict = {"sizes": sizes, "clients": clients, "cores": os.cpu_count(), "runs": [], "split": {}}
        keys: list = []
        try:
            for corpus in corpora:
                keys.extend(corpus["keys"])
            if options["explain"]:
                self._explain(corpora, Path(options["explain"]))
            if replica is not None:
                report["router_cost"] = _router_cost(replica, corpora[0])
            with contextlib.ExitStack() as stack:
                servers = self._servers(options, replica, stack)
                report["server"] = {k: v for k, v in servers[0][1].items() if k not in ("log", "warmed", "postmasters")}
                for n_clients in clients:
                    for corpus in corpora:  # sizes interleaved per client count: same conditions for the ratio
                        for label, server in servers:  # and, with --replica, the two deployments too
                            run = self._measure(server, corpus, n_clients, options, replica)
                            if label:
                                run["deployment"] = label
                            report["runs"].append(run)
                            if not quiet:
                                self.stderr.write(_run_line(run))
                if "log" in servers[0][1]:
                    report["server"]["workers"] = _worker_figures(servers[0][1])
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

    def _servers(self, options: dict, replica: dict | None, stack: contextlib.ExitStack) -> list[tuple[str, dict]]:
        if options["url"]:
            return [("", {"url": options["url"], **({"pid": options["server_pid"]} if options["server_pid"] else {})})]
        if replica is None:
            return [("", stack.enter_context(_server(options)))]
        postmasters = {"database": replica["pair"].primary.data, "standby": replica["pair"].standby.data}
        alone = stack.enter_context(_server(options, postmasters=postmasters))
        routed = stack.enter_context(
            _server(
                options,
                postmasters=postmasters,
                DATABASE_REPLICA_URLS=replica["standby_url"],
                ORGMEMORY_CACHE_URL=replica["cache_url"],
            )
        )
        return [("primary", alone), ("primary+standby", routed)]

    def _measure(self, server: dict, corpus: dict, n_clients: int, options: dict, replica: dict | None) -> dict:
        cpu_before = _cpu_seconds(server)
        load_before = os.getloadavg()[0]
        lag_before = _replay_lag(server, corpus) if replica is not None else None
        warmed = server.setdefault("warmed", set())  # each server's workers warm up once per corpus
        run = asyncio.run(
            _load(server["url"], corpus, n_clients, options["requests"], warm_up=corpus["size"] not in warmed)
        )
        warmed.add(corpus["size"])
        cpu_after = _cpu_seconds(server)
        for part in ("app", "database", "standby"):
            if cpu_before.get(part) is not None and cpu_after.get(part) is not None:
                run[f"{part}_cpu_ms_per_request"] = round(
                    (cpu_after[part] - cpu_before[part]) * 1000 / run["requests"], 1
                )
        run["load_average"] = round((load_before + os.getloadavg()[0]) / 2, 1)
        if replica is not None:
            run["replay_lag_ms"] = [lag_before, _replay_lag(server, corpus)]
        return run

    # --- set-up -------------------------------------------------------------------------------------------------

    def _corpus(self, size: int, options: dict, clients: list[int]) -> dict:
        from memories.models import Memory, MemoryChunk, Tenant
        from memories.services.tenancy import api_key_create

        plan = corpus_plan(seed=options["seed"], size=size)
        large = plan.tenants[0]
        tenant = Tenant.objects.filter(slug=large.slug).first()
        if tenant is None:
            raise CommandError(f"corpus of size {size} is not loaded: manage.py load_corpus --size {size}")
        deployments = 2 if options["replica"] else 1
        needed = (WARMUP + options["requests"] * len(clients)) * deployments + options["split"]
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


async def _load(url: str, corpus: dict, n_clients: int, requests: int, *, warm_up: bool) -> dict:
    import httpx

    warm = _take(corpus, WARMUP if warm_up else 0)
    queries = _take(corpus, requests)
    samples: list[float] = []
    errors: list[str] = []
    kinds: dict[str, list[float]] = {}
    read_from: dict[str, int] = {}
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
                    source = response.headers.get("X-OrgMemory-Read-From", "primary (no router)")
                    read_from[source] = read_from.get(source, 0) + 1
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
        "read_from": read_from,
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
        runs = {run["size"]: run for run in report["runs"] if run["clients"] == n_clients and "deployment" not in run}
        if len(runs) < 2:
            continue
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
        + (
            f"\n           {run['deployment']}: reads {run['read_from']}, standby CPU ms/req "
            f"{run.get('standby_cpu_ms_per_request', '-')}, replay lag ms before/after {run['replay_lag_ms']}"
            if "deployment" in run
            else ""
        )
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
    if "router_cost" in report:
        cost = report["router_cost"]
        lines.append(
            f"  router cost per routed request (in-process, p50/p95 us): choosing the database {cost['choose_us']}, "
            f"probing the standby (every {cost['probe_every_ms']} ms at most) {cost['probe_us']}, recording a "
            f"write's WAL position {cost['record_us']}"
        )
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
def _server(options: dict, *, postmasters: dict | None = None, **extra_env: str):
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
        **extra_env,
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
            "postmasters": postmasters or {"database": Path(settings.ORGMEMORY_DATA_DIR) / "pgdata"},
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
            master = psutil.Process(server["pid"])
            out["app"] = _reaped(master) + sum(_cpu(child) for child in master.children())
    postmasters = server.get("postmasters") or {"database": Path(settings.ORGMEMORY_DATA_DIR) / "pgdata"}
    for part, pgdata in postmasters.items():
        with contextlib.suppress(OSError, ValueError, psutil.Error):
            postmaster = psutil.Process(int((Path(pgdata) / "postmaster.pid").read_text().split()[0]))
            out[part] = _cpu(postmaster) + _reaped(postmaster) + sum(_cpu(child) for child in postmaster.children())
    return out


def _cpu(process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def _reaped(process) -> float:
    """CPU seconds of ``process``'s children that have exited and been waited for (a database backend whose
    connection closed, a recycled worker): without them a run's figure fell, even below zero, when one ended
    during the run."""
    times = process.cpu_times()
    return times.children_user + times.children_system


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


# --- --replica: a primary and a streaming standby on this machine ------------------------------------------------


@contextlib.contextmanager
def _replica_databases(options: dict, sizes: list[int]):
    """A primary and a standby (bench/replication.py), the corpora loaded into the primary by ``load_corpus`` (in a
    subprocess, as an operator would), a throwaway Redis for the markers; this process then uses the primary."""
    from django.db import connection

    from bench.replication import streaming_pair
    from bench.servers import redis_server
    from orgmemory.env import database_from_url

    with redis_server() as redis_url, streaming_pair() as pair:
        env = {**os.environ, "ORGMEMORY_ENV": "development", "DATABASE_URL": pair.primary.url(), "HF_HUB_OFFLINE": "1"}
        env.pop("ORGMEMORY_EMBEDDED_DB", None)
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=settings.BASE_DIR)
        for size in sizes:
            load = [*manage, "load_corpus", "--size", str(size), "--seed", str(options["seed"])]
            subprocess.run([*load, "--workers", str(os.cpu_count() or 1)], env=env, check=True, cwd=settings.BASE_DIR)
        connection.close()
        target = database_from_url(pair.primary.url())
        for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT", "OPTIONS"):
            connection.settings_dict[key] = target[key]
        pair.wait_caught_up(timeout=600)
        try:
            yield {"pair": pair, "standby_url": pair.standby.url(), "cache_url": redis_url.rsplit("/", 1)[0] + "/1"}
        finally:
            connection.close()


def _replay_lag(server: dict, corpus: dict) -> float | None:
    """The standby's replay lag as the server's /health reports it (any valid key gets the report)."""
    import httpx

    with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
        body = httpx.get(
            f"{server['url']}/api/v1/health", headers={"Authorization": f"Bearer {corpus['keys'][0][1]}"}, timeout=10
        ).json()
        replicas = body.get("replicas")
        return next(iter(replicas.values()))["lag_ms"] if replicas else None
    return None


def _router_cost(replica: dict, corpus: dict, calls: int = 2000) -> dict:
    """What the router adds to a request, in this process against the same standby and Redis: choosing the database
    (one cache read for the user's marker, the standby's cached status), a probe of the standby (at most every
    ORGMEMORY_REPLICA_STATUS_TTL_MS per process), and recording a write's WAL position (one statement, one cache
    write)."""
    from django.db import connections
    from django.test import override_settings

    from orgmemory import db_routing
    from orgmemory.env import database_from_url

    alias = "replica_1"
    connections.settings[alias] = {**connections["default"].settings_dict, **database_from_url(replica["standby_url"])}
    cache = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": replica["cache_url"]}}
    tenant, users = corpus["tenant"], [query.user_id for query in corpus["queries"][:50]]
    choose, probe, record = [], [], []
    try:
        with override_settings(ORGMEMORY_REPLICA_ALIASES=[alias], CACHES=cache):
            db_routing.replica_status(alias, fresh=True)
            for index in range(calls):
                started = time.perf_counter()
                db_routing.choose_read_alias(tenant.pk, users[index % len(users)])
                choose.append((time.perf_counter() - started) * 1e6)
            for _ in range(200):
                started = time.perf_counter()
                db_routing.replica_status(alias, fresh=True)
                probe.append((time.perf_counter() - started) * 1e6)
                started = time.perf_counter()
                db_routing.write_record(tenant.pk, "bench-router-cost")
                record.append((time.perf_counter() - started) * 1e6)
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.settings[alias]

    def p(values):
        return f"{round(percentile(values, 50))}/{round(percentile(values, 95))}"

    return {
        "choose_us": p(choose),
        "probe_us": p(probe),
        "record_us": p(record),
        "probe_every_ms": settings.ORGMEMORY_REPLICA_STATUS_TTL_MS,
    }
