"""Build a generated scale corpus once: embed it (cached on disk by text hash) and bulk-load it (COPY)."""

from __future__ import annotations

import json
import os
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from bench.corpus.generator import corpus_plan
from bench.corpus_loader import (
    DEFERRED_INDEXES,
    bm25_statistics_check,
    corpus_embed,
    corpus_load,
    deferred_index_definitions,
    indexes_build,
    indexes_drop,
)
from retrieval.vector_indexes import vector_indexes_sync


class Command(BaseCommand):
    help = (
        "Generate a corpus (--size memories in the large tenant, 5 small tenants), embed its chunks (cached under "
        "$ORGMEMORY_DATA_DIR/corpus) and COPY it into the database; prints rates and what limited them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--size", type=int, required=True, help="memories in the large tenant")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--small-tenants", type=int, default=5)
        parser.add_argument("--workers", type=int, default=1, help="embedding processes (one thread each)")
        parser.add_argument("--embed-only", action="store_true", help="fill the embedding cache, write nothing")
        parser.add_argument(
            "--defer-indexes",
            action="store_true",
            help=f"drop {', '.join(DEFERRED_INDEXES)} before the load and build them after it (a dedicated "
            "benchmark database only: other tenants lose those indexes meanwhile)",
        )
        parser.add_argument(
            "--maintenance-work-mem",
            default="2GB",
            help="for the deferred index builds: an HNSW build is fast only while its graph fits (~2 KB a chunk)",
        )
        parser.add_argument("--batch", type=int, default=20_000)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, size: int, seed: int, small_tenants: int, workers: int, **options):
        if size < 1 or workers < 1 or options["batch"] < 1:
            raise CommandError("--size, --workers and --batch must be positive")
        quiet = options["json"]
        plan = corpus_plan(seed=seed, size=size, small_tenants=small_tenants)
        out = {
            "size": size,
            "seed": seed,
            "memories": plan.total,
            "tenants": len(plan.tenants),
            "cores": os.cpu_count(),
        }

        def progress(stage: str, done: int, total: int, seconds: float) -> None:
            if not quiet:
                rate = done / seconds if seconds else 0.0
                print(f"\r  {stage}: {done}/{total} ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)
                if done >= total:
                    print(file=sys.stderr)

        started = time.perf_counter()
        cpu0 = os.times()
        out["embed"] = corpus_embed(plan, workers=workers, progress=progress)
        cpu1 = os.times()
        out["embed"]["cpu_s"] = round(
            (cpu1.user - cpu0.user)
            + (cpu1.system - cpu0.system)
            + (cpu1.children_user - cpu0.children_user)
            + (cpu1.children_system - cpu0.children_system),
            1,
        )
        if not options["embed_only"]:
            definitions = deferred_index_definitions()
            if options["defer_indexes"]:
                indexes_drop(list(definitions))
            t0 = time.perf_counter()
            report = corpus_load(plan, progress=progress, batch=options["batch"])
            load_s = time.perf_counter() - t0
            out["load"] = {
                "tenants": report.tenants,
                "memories": report.memories,
                "chunks": report.chunks,
                "entities": report.entities,
                "links": report.links,
                "duplicates_skipped": report.duplicates,
                "seconds": round(load_s, 1),
                "memories_per_second": round(report.memories / load_s, 1),
                "stages_s": report.seconds,
            }
            out["indexes_s"] = (
                indexes_build(definitions, progress=progress, maintenance_mem=options["maintenance_work_mem"])
                if options["defer_indexes"]
                else {}
            )
            # the vector arm's partial HNSW indexes of the scopes that are large now (built after the load either way:
            # the new scopes had none while their chunks went in)
            out["vector_indexes"] = vector_indexes_sync(
                concurrently=False, build_memory=options["maintenance_work_mem"]
            ).as_dict()
            t0 = time.perf_counter()
            out["bm25_check"] = bm25_statistics_check(list(report.tenants.values()))
            out["bm25_check"]["seconds"] = round(time.perf_counter() - t0, 1)
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute("ANALYZE memories_memory; ANALYZE memories_memorychunk; ANALYZE graph_entitylink")
                cursor.execute("ANALYZE graph_entity; ANALYZE retrieval_term_statistic")
                # the keyword arm reads the postings index-only: the visibility map must know the new pages
                cursor.execute("VACUUM (ANALYZE) retrieval_posting")
        out["total_s"] = round(time.perf_counter() - started, 1)
        if quiet:
            self.stdout.write(json.dumps(out))
            return
        self.stdout.write(self._text(out))
        check = out.get("bm25_check")
        if check and (check["corpus_rows_wrong"] or check["term_rows_wrong"] or check["posting_rows_wrong"]):
            raise CommandError("the BM25 statistics or the postings disagree with a recomputation")

    def _text(self, out: dict) -> str:
        e = out["embed"]
        lines = [
            f"load_corpus: seed {out['seed']}, {out['memories']} memories in {out['tenants']} tenants "
            f"(large tenant {out['size']}), {out['cores']} cores",
            f"  embed ({e['model']}, {e['workers']} process(es)): {e['texts']} chunk texts, {e['cached']} cached, "
            f"{e['embedded']} embedded in {e['seconds']} s = {e['per_second']}/s "
            f"({e['cpu_s']} CPU-s in this process and its children); text generation {e['generate_s']} s",
        ]
        if "load" in out:
            load = out["load"]
            stages = ", ".join(f"{k} {v} s" for k, v in sorted(load["stages_s"].items(), key=lambda kv: -kv[1]))
            lines.append(
                f"  load: {load['memories']} memories, {load['chunks']} chunks, {load['entities']} entities, "
                f"{load['links']} links in {load['seconds']} s = {load['memories_per_second']} memories/s "
                f"({load['duplicates_skipped']} exact duplicates at the same scope skipped, as the write path would)"
            )
            lines.append(f"    stages: {stages}")
            if out["indexes_s"]:
                lines.append(
                    "  indexes built after the load: " + ", ".join(f"{k} {v} s" for k, v in out["indexes_s"].items())
                )
            vectors = out["vector_indexes"]
            built = vectors["created"]
            lines.append(
                f"  vector indexes: {len(built)} scope(s) built ({sum(b['chunks'] for b in built)} chunks) in "
                f"{sum(b['seconds'] for b in built):.1f} s, the largest {max((b['chunks'] for b in built), default=0)} "
                f"chunks; {vectors['scopes_indexed']} scopes hold {vectors['chunks_indexed']} chunks in their own index"
            )
            check = out["bm25_check"]
            lines.append(
                f"  BM25 statistics and postings vs a recomputation: {check['corpus_rows_wrong']} corpus rows, "
                f"{check['term_rows_wrong']} lexeme rows and {check['posting_rows_wrong']} postings differ "
                f"({check['lexemes']} lexemes, {check['documents']} documents; {check['seconds']} s)"
            )
        limits = {"embedding": e["seconds"]}
        if "load" in out:
            limits.update({f"load: {k}": v for k, v in out["load"]["stages_s"].items()})
            limits.update({f"index {k}": v for k, v in out["indexes_s"].items()})
            limits["vector indexes"] = sum(b["seconds"] for b in out["vector_indexes"]["created"])
        worst = max(limits.items(), key=lambda kv: kv[1])
        lines.append(f"  total {out['total_s']} s; the largest part: {worst[0]} ({worst[1]} s)")
        return "\n".join(lines)
