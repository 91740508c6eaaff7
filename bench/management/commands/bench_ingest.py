"""Benchmark ingest: the write path, link extraction and embedding as separate stages, then end to end (write +
embeddings + links, tasks inline after each commit as without a broker), once per embedder in the same run."""

from __future__ import annotations

import json
import logging
import os
import random
import time
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Count, Q

from bench.corpus.synthetic import synthetic_text
from memories.embedding import embedder_override, make_embedder
from memories.hooks import index_steps
from memories.models import IndexState, Memory, MemoryChunk, Scope, Tenant
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create, memory_create_batch
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred

EMBEDDERS = ("onnx-int8", "onnx", "sentence-transformers")


class Command(BaseCommand):
    help = (
        "Ingest N memories through the write service and print memories/s: the write path one memory per "
        "transaction, item by item in batches (the path before issue 10) and in bulk (memory_create_batch); link "
        "extraction one memory per call and batched; embedding per embedder; then end to end (write + embeddings + "
        "links, inline after each batch's commit as without a broker) per embedder, and item by item with the "
        "default embedder for comparison — all in one run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=2000)
        parser.add_argument("--batch", type=int, default=64, help="memories per write batch and per task call")
        parser.add_argument(
            "--embedders",
            default="onnx-int8,sentence-transformers",
            help=f"comma-separated, of {', '.join(EMBEDDERS)} (the first is the default one)",
        )
        parser.add_argument(
            "--no-per-item",
            action="store_true",
            help="skip the item-by-item reference stages (one memory per transaction / per link call, and end to "
            "end item by item)",
        )
        parser.add_argument(
            "--corpus",
            choices=["synthetic", "realistic"],
            default="synthetic",
            help="synthetic: templated, every tenth memory 25-40 sentences (a worst case); realistic: the large "
            "tenant's memories of bench.corpus (titles, kinds, 1 in 25 long), all written at one scope",
        )
        parser.add_argument(
            "--worker-processes",
            type=int,
            default=2,
            help="end to end with a broker as production runs it: a throwaway Redis and a real Celery worker of this "
            "many processes embed and link while this process writes (0: skip)",
        )
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the throw-away tenants")

    def handle(self, *args, count: int, batch: int, **options):
        kinds = [kind.strip() for kind in options["embedders"].split(",") if kind.strip()]
        if not kinds or set(kinds) - set(EMBEDDERS):
            raise CommandError(f"--embedders takes a comma-separated list of {', '.join(EMBEDDERS)}")
        per_item = not options["no_per_item"]
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # one INFO line per inline task
        texts = _corpus(options["corpus"], count)
        embedders = {}
        for kind in kinds:  # load (and warm) each model before timing anything
            embedders[kind] = make_embedder(kind)
            embedders[kind].embed(["warm-up"])
        author = Author(kind="import", label="bench")
        extract_links = index_steps()["links"].run  # the graph's step (memories does not import the graph)
        tenants: list[Tenant] = []
        result: dict = {
            "count": count,
            "batch": batch,
            "cores": os.cpu_count(),
            "corpus": options["corpus"],
            "load_average": [round(value, 2) for value in os.getloadavg()],
            "embedders": {},
        }
        try:
            # --- stages, the other tasks deferred ---------------------------------------------------------------
            if per_item:
                tenant, root = _tenant(tenants)
                with indexing_deferred(), deferred("links"):
                    clock = Clock()
                    for text in texts:
                        with transaction.atomic():
                            memory_create(tenant=tenant, author=author, scope=root, **text)
                    clock.record(result, "write_one_per_transaction", count)

                tenant, root = _tenant(tenants)
                with indexing_deferred(), deferred("links") as link_ids:
                    clock = Clock()
                    for start in range(0, count, batch):
                        _write_item_by_item(tenant, author, root, texts[start : start + batch])
                    clock.record(result, "write_item_by_item", count)
                clock = Clock()
                for memory_id in sorted(link_ids):
                    extract_links(memory_ids=[memory_id])
                clock.record(result, "link_extraction_one_per_call", len(link_ids))

            tenant, root = _tenant(tenants)
            with indexing_deferred() as ids, deferred("links") as link_ids:
                clock = Clock()
                for start in range(0, count, batch):
                    items = [{**text, "scope": root} for text in texts[start : start + batch]]
                    memory_create_batch(tenant=tenant, author=author, items=items)
                clock.record(result, "write_batched", count)
            ids, link_ids = sorted(ids), sorted(link_ids)

            clock = Clock()
            links = 0
            for start in range(0, len(link_ids), batch):
                links += extract_links(memory_ids=link_ids[start : start + batch])["links"]
            result["links"] = links
            clock.record(result, "link_extraction", len(link_ids))

            for kind in kinds:
                with embedder_override(embedders[kind]):
                    clock = Clock()
                    chunks = 0
                    for start in range(0, len(ids), batch):
                        chunks += memories_embed(memory_ids=ids[start : start + batch])["chunks"]
                result["chunks"] = chunks
                result["embedders"][kind] = {"name": embedders[kind].name}
                clock.record(result["embedders"][kind], "embedding", len(ids))
                result["embedders"][kind]["chunks_per_second"] = round(chunks / clock.wall_seconds, 1)

            # --- end to end, tasks inline after each batch's commit ---------------------------------------------
            for kind in kinds:
                tenant, root = _tenant(tenants)
                with embedder_override(embedders[kind]):
                    clock = Clock()
                    for start in range(0, count, batch):
                        items = [{**text, "scope": root} for text in texts[start : start + batch]]
                        memory_create_batch(tenant=tenant, author=author, items=items)
                    clock.record(result["embedders"][kind], "end_to_end", count)
                result["embedders"][kind].update(_indexed(tenant, embedders[kind].name))
            if per_item:
                # the path before issue 10: memory_create item by item in one transaction per batch, embeddings
                # batched after the commit (as they were), links extracted one memory at a time
                kind = kinds[0]
                tenant, root = _tenant(tenants)
                with embedder_override(embedders[kind]):
                    clock = Clock()
                    for start in range(0, count, batch):
                        with deferred("links") as link_ids:
                            _write_item_by_item(tenant, author, root, texts[start : start + batch])
                        for memory_id in sorted(link_ids):
                            extract_links(memory_ids=[memory_id])
                    figures = {"embedder": kind}
                    clock.record(figures, "end_to_end", count)
                figures.update(_indexed(tenant, embedders[kind].name))
                result["item_by_item"] = figures
            if options["worker_processes"] > 0:
                result["broker"] = _end_to_end_broker(
                    texts, batch, options["worker_processes"], tenants, author, embedders[kinds[0]].name
                )
        finally:
            if not options["keep"]:
                for tenant in tenants:
                    tenant.delete()
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(render(result))


def _corpus(name: str, count: int) -> list[dict[str, str]]:
    """``count`` memories as ``memory_create`` arguments (content, and title and kind for the realistic corpus)."""
    if name == "realistic":
        from bench.corpus.generator import corpus_plan, memory_at

        plan = corpus_plan(seed=7, size=count, small_tenants=0)
        generated = (memory_at(plan, 0, ordinal) for ordinal in range(count))
        return [{"content": memory.content, "title": memory.title, "kind": memory.kind} for memory in generated]
    rng = random.Random(7)
    return [{"content": synthetic_text(rng, index)} for index in range(count)]


def _end_to_end_broker(
    texts: list[dict[str, str]], batch: int, processes: int, tenants: list[Tenant], author: Author, model_name: str
) -> dict:
    """Ingest as production does with a broker: this process writes in ``memory_create_batch`` calls (each commit
    queues one embedding and one link task), a real Celery worker of ``processes`` processes runs them; timed from
    the first write until every memory is embedded and linked. CPU: the machine's user + system time over the
    run (niced processes excluded), i.e. the writer, the worker, Redis and every PostgreSQL backend."""
    import tempfile
    from pathlib import Path

    import psutil

    from bench.servers import celery_broker, celery_worker, redis_server

    def wait_indexed(tenant: Tenant, count: int, timeout: float = 1800.0) -> dict[str, int]:
        # one small statement per poll, every 50 ms: the machine's CPU is what is measured, and the four counts
        # of _indexed every 20 ms took a share of it from the worker
        deadline = time.monotonic() + timeout
        live = Memory.objects.filter(tenant=tenant)
        while True:
            progress = live.aggregate(
                embedded=Count("pk", filter=Q(index_state=IndexState.READY, embedding_model=model_name)),
                linked=Count("pk", filter=Q(links_state=IndexState.READY)),
            )
            if progress["embedded"] >= count and progress["linked"] >= count:
                return _indexed(tenant, model_name)
            if time.monotonic() > deadline:
                raise CommandError(f"the worker did not index {count} memories in {timeout:.0f} s: {progress}")
            time.sleep(0.05)

    def busy() -> float:
        times = psutil.cpu_times()
        return times.user + times.system

    with tempfile.TemporaryDirectory(prefix="orgmemory-bench-ingest-") as folder:
        log = Path(folder) / "worker.log"
        with redis_server() as url, celery_broker(url), celery_worker(broker_url=url, concurrency=processes, log=log):
            # not timed: each pool process loads the embedder on its first task
            tenant, root = _tenant(tenants)
            warm = [{"content": f"Warm-up note {i} for the worker.", "scope": root} for i in range(4 * processes)]
            for start in range(0, len(warm), 2):
                memory_create_batch(tenant=tenant, author=author, items=warm[start : start + 2])
            wait_indexed(tenant, len(warm))

            tenant, root = _tenant(tenants)
            started, cpu_started = time.perf_counter(), busy()
            for start in range(0, len(texts), batch):
                items = [{**text, "scope": root} for text in texts[start : start + batch]]
                memory_create_batch(tenant=tenant, author=author, items=items)
            written = time.perf_counter() - started
            figures = wait_indexed(tenant, len(texts))
            seconds, cpu = time.perf_counter() - started, busy() - cpu_started
    return {
        "worker_processes": processes,
        "end_to_end_per_second": round(len(texts) / seconds, 1),
        "end_to_end_per_cpu_second": round(len(texts) / cpu, 1) if cpu > 0 else None,
        "write_seconds": round(written, 2),
        "seconds": round(seconds, 2),
        "machine_cpu_seconds": round(cpu, 2),
        **figures,
    }


def _write_item_by_item(tenant: Tenant, author: Author, root: Scope, texts: list[dict[str, str]]) -> None:
    """The write path before issue 10: ``memory_create`` per item inside one transaction (12 statements an item)."""
    with transaction.atomic():
        for text in texts:
            memory_create(tenant=tenant, author=author, scope=root, **text)


def _indexed(tenant: Tenant, model_name: str) -> dict[str, int]:
    live = Memory.objects.filter(tenant=tenant)
    return {
        "stored": live.count(),
        "embedded": live.filter(index_state=IndexState.READY, embedding_model=model_name).count(),
        "linked": live.filter(links_state=IndexState.READY).count(),
        "chunk_rows": MemoryChunk.objects.filter(tenant=tenant).count(),
    }


def _tenant(tenants: list[Tenant]) -> tuple[Tenant, Scope]:
    tenant = Tenant.objects.create(slug=f"bench-{uuid.uuid4().hex[:8]}", name="bench", levels=["org", "user"])
    tenants.append(tenant)
    return tenant, Scope.objects.create(tenant=tenant, level="org", key="bench", name="bench")


class Clock:
    """Wall time, and the CPU time of this process plus its PostgreSQL backend: on a shared machine the CPU
    rate (memories per CPU-second of both) is what other load disturbs least."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.cpu_started = _cpu_seconds()

    def record(self, into: dict, stage: str, count: int) -> None:
        self.wall_seconds = time.perf_counter() - self.started
        cpu_seconds = _cpu_seconds() - self.cpu_started
        into[f"{stage}_per_second"] = round(count / self.wall_seconds, 1)
        into[f"{stage}_per_cpu_second"] = round(count / cpu_seconds, 1) if cpu_seconds > 0 else None


def _cpu_seconds() -> float:
    import psutil
    from django.db import connection

    connection.ensure_connection()
    own = time.process_time()
    try:  # the backend serving this connection (a local server: the embedded one, or one on this machine)
        times = psutil.Process(connection.connection.info.backend_pid).cpu_times()
        return own + times.user + times.system
    except (psutil.Error, AttributeError):
        return own


def render(result: dict) -> str:
    batch = result["batch"]

    def row(label: str, figures: dict, stage: str, extra: str = "") -> str:
        wall, cpu = figures[f"{stage}_per_second"], figures.get(f"{stage}_per_cpu_second")
        return f"    {label:<54}{wall:>8.1f}/s {cpu if cpu is not None else '-':>8}/CPU-s{extra}"

    def counts(figures: dict) -> str:
        return f"  (stored {figures['stored']}, embedded {figures['embedded']}, linked {figures['linked']})"

    per_item = "write_item_by_item_per_second" in result
    lines = [
        f"bench_ingest: {result['count']} {result.get('corpus', 'synthetic')} memories ({result['chunks']} chunks, "
        f"{result['links']} links), "
        f"{result['cores']} cores (load average at start {', '.join(map(str, result['load_average']))}), "
        f"batches of {batch}; memories per second (wall) and per CPU-second (this process + its PostgreSQL backend)",
        "  stages (the other tasks deferred):",
    ]
    if per_item:
        lines += [
            row("write path, one memory per transaction", result, "write_one_per_transaction"),
            row(f"write path, item by item in transactions of {batch}", result, "write_item_by_item"),
        ]
    lines.append(row(f"write path, memory_create_batch of {batch}", result, "write_batched"))
    if per_item:
        lines.append(row("link extraction, one memory per call", result, "link_extraction_one_per_call"))
    lines.append(row(f"link extraction, batched ({batch}/call)", result, "link_extraction"))
    for kind, figures in result["embedders"].items():
        extra = f"  ({figures['chunks_per_second']} chunks/s)"
        lines.append(row(f"embedding task, {kind} ({batch}/call)", figures, "embedding", extra))
    lines.append("  end to end (write + embeddings + links, inline after each batch's commit):")
    for kind, figures in result["embedders"].items():
        lines.append(row(f"{kind}, memory_create_batch", figures, "end_to_end", counts(figures)))
    if per_item:
        figures = result["item_by_item"]
        lines.append(row(f"{figures['embedder']}, item by item (before)", figures, "end_to_end", counts(figures)))
    if "broker" in result:
        figures = result["broker"]
        lines.append(
            f"  end to end with a broker (Redis + a Celery worker of {figures['worker_processes']} processes; CPU: the "
            "machine's, niced processes excluded):"
        )
        extra = f"  (writes done after {figures['write_seconds']} s; {counts(figures).strip()})"
        lines.append(row("memory_create_batch, tasks on the worker", figures, "end_to_end", extra))
    return "\n".join(lines)
