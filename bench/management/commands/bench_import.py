"""Benchmark the user's bulk path: ``import_memories FILE --tenant T`` of a generated organisation's memories, run as
a separate process the way a user runs it, part after part into the same tenant, each part timed until every
memory it wrote lists ``index_state`` and ``links_state`` ready (``bench.import_bench``). With ``--searches N``, each
part is followed at once by N searches of distinct questions through the search service in this process: how fast a
freshly imported tenant answers, before anything else (autovacuum, other writes) touched the database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import psutil
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Q

from bench.corpus_loader import tenant_tree_create
from bench.import_bench import import_file_write, organisation_plan, words_median
from bench.servers import celery_worker, production_env, redis_server
from memories import visibility
from memories.models import IndexState, Memory, Tenant

_WAITING = Q(index_state=IndexState.PENDING) | Q(links_state=IndexState.PENDING)
_UNINDEXED = Q(index_state=IndexState.FAILED) | Q(links_state=IndexState.FAILED)


class Command(BaseCommand):
    help = (
        "Generate an organisation of --users users and --count memories (JSONL, as import_memories reads it), then "
        "run the real import_memories command into it in --parts equal parts, each until its memories are embedded "
        "and linked; prints memories/s end to end per part (with the tenant's size before it), the write stage, and "
        "the CPU used."
    )

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=10_000)
        parser.add_argument("--users", type=int, default=200)
        parser.add_argument("--parts", type=int, default=1, help="import the file in this many equal parts, in order")
        parser.add_argument(
            "--broker",
            action="store_true",
            help="with a throwaway Redis as CELERY_BROKER_URL and a real Celery worker (--worker-processes): the "
            "import hands indexing to the worker, as production with a broker does",
        )
        parser.add_argument("--worker-processes", type=int, default=2)
        parser.add_argument("--import-args", default="", help="extra arguments for import_memories, e.g. '--workers 2'")
        parser.add_argument("--seed", type=int, default=11)
        parser.add_argument(
            "--searches",
            type=int,
            default=0,
            help="after each part, this many searches (distinct questions of the tenant's users, in this process): "
            "search p50/p95 right after an import, with the stages' p50",
        )
        parser.add_argument("--keep", action="store_true", help="keep the tenant (default: deleted at the end)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, count: int, users: int, parts: int, **options):
        if count < 1 or parts < 1 or parts > count:
            raise CommandError("--count and --parts must be positive, --parts at most --count")
        plan = organisation_plan(users=users, seed=options["seed"])
        tp = plan.tenants[0]
        # a fresh slug per run: runs side by side in one database never share a tenant
        tp.slug = f"{tp.slug}-{int(time.time())}"
        tenant, _, _ = tenant_tree_create(tp)
        result = {
            "tenant": tp.slug,
            "users": len(tp.users),
            "scopes": len(tp.scopes),
            "memories": count,
            "words_median": words_median(plan),
            "broker": options["broker"],
            "import_args": options["import_args"],
            "cpus": os.cpu_count(),
            "parts": [],
        }
        try:
            with tempfile.TemporaryDirectory(prefix="orgmemory-bench-import-") as folder, ExitStack() as stack:
                env = production_env()
                env.pop("CELERY_BROKER_URL", None)
                if options["broker"]:
                    url = stack.enter_context(redis_server())
                    stack.enter_context(
                        celery_worker(
                            broker_url=url, concurrency=options["worker_processes"], log=Path(folder) / "worker.log"
                        )
                    )
                    env["CELERY_BROKER_URL"] = url
                bounds = [round(count * index / parts) for index in range(parts + 1)]
                for start, stop in zip(bounds, bounds[1:], strict=False):
                    path = Path(folder) / f"part-{start}.jsonl"
                    lines = import_file_write(path, plan, start=start, stop=stop)
                    figures = _import_part(tenant, path, lines, env=env, extra=options["import_args"].split())
                    result["parts"].append({"before": start, "lines": lines, **figures})
                    if not options["json"]:
                        self.stdout.write(_part_line(result["parts"][-1]))
                    if options["searches"]:
                        searched = _search_after(tenant, plan, options["searches"], part=len(result["parts"]) - 1)
                        result["parts"][-1]["search"] = searched
                        if not options["json"]:
                            self.stdout.write(_search_line(searched))
        finally:
            if not options["keep"]:
                Tenant.objects.filter(pk=tenant.pk).delete()
        total_lines = sum(part["lines"] for part in result["parts"])
        total_seconds = sum(part["seconds"] for part in result["parts"])
        result["end_to_end_per_second"] = round(total_lines / total_seconds, 1)
        result["wall_seconds"] = round(total_seconds, 1)
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{total_lines} memories, {result['users']} users, median {result['words_median']} words, "
            f"{'broker + worker' if options['broker'] else 'inline indexing'} {options['import_args']}: "
            f"{total_seconds:.1f} s, {result['end_to_end_per_second']}/s end to end"
        )


def _import_part(tenant: Tenant, path: Path, lines: int, *, env: dict, extra: list[str]) -> dict:
    """Run ``import_memories`` on ``path`` and wait until the tenant has no memory whose embedding or links are
    pending; timings of the write (the import's rows committed) and of the whole."""
    # the part's rows only (ids grow): polling the whole tenant twice a second would cost the database more as the
    # tenant grows, and that cost would be counted as the import's
    newest = Memory.objects.filter(tenant=tenant).order_by("-pk").values_list("pk", flat=True).first() or 0
    memories = Memory.objects.filter(tenant=tenant, pk__gt=newest)
    command = [sys.executable, "manage.py", "import_memories", str(path), "--tenant", tenant.slug, "--json", *extra]
    machine = psutil.cpu_times()
    started = time.perf_counter()
    errors = path.with_suffix(".stderr")
    with errors.open("w") as sink:
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=sink, text=True
        )
    watched = psutil.Process(process.pid)
    written_at = None
    stored_last, last_write = 0, None
    writer_cpu = workers_cpu = 0.0
    while True:
        time.sleep(0.5)
        try:
            times = watched.cpu_times()
            # the importing process writes; its children (the indexing workers, without a broker) embed and link
            writer_cpu, workers_cpu = times.user + times.system, times.children_user + times.children_system
            for child in watched.children(recursive=True):  # still running: not yet in children_*
                child_times = child.cpu_times()
                workers_cpu += child_times.user + child_times.system
        except psutil.Error:
            pass
        state = memories.aggregate(
            stored=Count("pk"),
            # a memory whose embedding or links failed is settled too (the sweeper's business): counted, not awaited
            pending=Count("pk", filter=visibility.current_q() & _WAITING),
            unindexed=Count("pk", filter=visibility.current_q() & _UNINDEXED),
        )
        if written_at is None and state["stored"]:
            written_at = time.perf_counter()
        if state["stored"] > stored_last:  # the write stage ends with the last row committed
            stored_last, last_write = state["stored"], time.perf_counter()
        if process.poll() is not None and (state["pending"] == 0 or process.returncode != 0):
            break
    seconds = time.perf_counter() - started
    out = process.stdout.read() if process.stdout else ""
    if process.returncode != 0:
        raise CommandError(f"import_memories exited {process.returncode}: {errors.read_text(errors='replace')[-3000:]}")
    summary = json.loads(out.strip().splitlines()[-1])
    after = psutil.cpu_times()
    machine_cpu = (after.user + after.system) - (machine.user + machine.system)
    return {
        "created": summary["created"],
        "failed": summary["failed"],
        "index_failed": state["unindexed"],
        "seconds": round(seconds, 2),
        "per_second": round(lines / seconds, 1),
        "committed_after": round((written_at or time.perf_counter()) - started, 2),
        "write_seconds": round((last_write or time.perf_counter()) - started, 2),
        "import_cpu_seconds": round(writer_cpu + workers_cpu, 1),
        "writer_cpu_seconds": round(writer_cpu, 1),
        "workers_cpu_seconds": round(workers_cpu, 1),
        "machine_cpu_seconds": round(machine_cpu, 1),
    }


def _search_after(tenant: Tenant, plan, count: int, *, part: int) -> dict:
    """``count`` searches through the search service, each a question not asked before in the run (the query
    embedding cache never answers): p50/p95 of the whole and p50 of each stage."""
    from bench.queries import distinct_queries
    from bench.stats import percentile
    from retrieval.services import SearchOptions, search_memories

    queries = distinct_queries(plan, count * (part + 1))[count * part :]
    took: list[float] = []
    stages: dict[str, list[float]] = {}
    for query in queries:
        started = time.perf_counter()
        result = search_memories(
            tenant=tenant, user_id=query.user_id, query=query.text, options=SearchOptions(top_k=10, track_access=False)
        )
        took.append((time.perf_counter() - started) * 1000)
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    return {
        "searches": len(took),
        "p50_ms": round(percentile(took, 50), 2),
        "p95_ms": round(percentile(took, 95), 2),
        "stages_p50_ms": {stage: round(percentile(ms, 50), 2) for stage, ms in stages.items()},
    }


def _search_line(search: dict) -> str:
    stages = ", ".join(f"{stage} {ms}" for stage, ms in search["stages_p50_ms"].items())
    return (
        f"           then {search['searches']} searches: p50 {search['p50_ms']:.2f} ms, p95 {search['p95_ms']:.2f} ms "
        f"(stages p50, ms: {stages})"
    )


def _part_line(part: dict) -> str:
    return (
        f"  {part['before']:>7} → {part['before'] + part['lines']:>7}: {part['per_second']:>6.1f}/s end to end "
        f"({part['seconds']:.1f} s; rows visible after {part['committed_after']:.1f} s; created {part['created']}, "
        f"failed {part['failed']}, embedding or links failed {part['index_failed']}; "
        f"written in {part['write_seconds']:.1f} s; CPU: import {part['import_cpu_seconds']} s (writer "
        f"{part['writer_cpu_seconds']} s, indexing workers {part['workers_cpu_seconds']} s), machine "
        f"{part['machine_cpu_seconds']} s)"
    )
