"""Benchmark the embedders side by side: torch (sentence-transformers), ONNX fp32 and ONNX int8.

Each embedder runs in a fresh child process, one after the other, so that start-up time, memory and whether
torch got imported are those of a process that serves only that embedder. Prints texts/s on short memory-like
texts and on ~200-word chunks (in calls of 64, as the embedding task makes them), query-embedding p50/p95 (one
text per call, as search makes them), and the cosine of each embedder's vectors to the torch ones."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.corpus.synthetic import synthetic_text
from bench.data import DATA_VARIABLE, optional_data_folder
from bench.stats import percentile

KINDS = ("sentence-transformers", "onnx", "onnx-int8")
CALL_SIZE = 64
RATES = ("short_texts_per_second", "short_texts_per_cpu_second", "chunks_per_second", "chunks_per_cpu_second")


def short_texts(count: int, rng: random.Random) -> list[str]:
    """Memory-sized texts, 1–3 sentences (~10–45 word pieces)."""
    return [synthetic_text(rng, index * 10 + 1).split(": ", 1)[1][: rng.randint(40, 240)] for index in range(count)]


def chunk_texts(count: int, rng: random.Random) -> list[str]:
    """~200-word chunks (about the 256 word pieces a chunk window holds)."""
    texts = []
    for index in range(count):
        words: list[str] = []
        while len(words) < 200:
            words.extend(synthetic_text(rng, index * 10 + 1).split())
        texts.append(" ".join(words[:200]))
    return texts


def query_texts(count: int, rng: random.Random) -> list[str]:
    starts = ["who owns", "when did we migrate", "what is the policy on", "who reviewed", "how do I page for"]
    topics = ["billing", "the k8s cluster", "on-call", "the Q3 roadmap", "SSO", "the EU region", "onboarding"]
    return [f"{rng.choice(starts)} {rng.choice(topics)} {rng.randint(1, 999)}?" for _ in range(count)]


class Command(BaseCommand):
    help = "Embedder throughput, query latency, start-up time, memory and cosine to torch: torch vs ONNX fp32/int8."

    def add_arguments(self, parser):
        parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
        parser.add_argument("--short", type=int, default=1024, help="short texts to embed")
        parser.add_argument("--chunks", type=int, default=256, help="200-word chunks to embed")
        parser.add_argument("--queries", type=int, default=300, help="single-text query embeddings")
        parser.add_argument("--threads", type=int, default=None, help="ORGMEMORY_EMBED_THREADS for the children")
        parser.add_argument(
            "--bench",
            default=None,
            help=f"the data folder (default ${DATA_VARIABLE}): adds a vector-only retrieval check on world-v1 "
            "(templates + paraphrases); without one the check is left out",
        )
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--child", default="", help=argparse_suppress())
        parser.add_argument("--vectors", default="", help=argparse_suppress())

    def handle(self, *args, **options):
        if options["child"]:
            self.stdout.write(json.dumps(run_child(options["child"], options)))
            return
        kinds = [kind.strip() for kind in options["kinds"].split(",") if kind.strip()]
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown:
            raise CommandError(f"unknown embedder(s) {unknown}; choose from {', '.join(KINDS)}")
        threads = options["threads"] or settings.ORGMEMORY_EMBED_THREADS
        bench = optional_data_folder(options["bench"])
        options["bench"] = str(bench) if bench else ""
        results = {}
        with tempfile.TemporaryDirectory() as folder:
            for kind in kinds:
                if not options["json"]:
                    self.stderr.write(f"bench_embedder: {kind}…")
                results[kind] = spawn_child(kind, options, threads=threads, vectors=Path(folder) / f"{kind}.json")
            compare_to_torch(results)
        report = {"cores": os.cpu_count(), "threads": threads, "call_size": CALL_SIZE, "embedders": results}
        reference = results.get("sentence-transformers")
        for result in results.values() if reference else ():
            for key in RATES:
                result[f"{key}_vs_torch"] = round(result[key] / reference[key], 2)
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(render(report, options))


def argparse_suppress() -> str:
    import argparse

    return argparse.SUPPRESS


def spawn_child(kind: str, options: dict, *, threads: int, vectors: Path) -> dict:
    command = [
        sys.executable,
        str(Path(settings.BASE_DIR) / "manage.py"),
        "bench_embedder",
        "--child",
        kind,
        "--vectors",
        str(vectors),
        *("--short", str(options["short"]), "--chunks", str(options["chunks"]), "--queries", str(options["queries"])),
        *(("--bench", options["bench"]) if options["bench"] else ()),
    ]
    env = {**os.environ, "ORGMEMORY_EMBED_THREADS": str(threads), "ORGMEMORY_EMBEDDER": kind}
    completed = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if completed.returncode != 0:
        raise CommandError(f"the {kind} child failed:\n{completed.stderr[-3000:]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    result["vectors_file"] = str(vectors)
    return result


def run_child(kind: str, options: dict) -> dict:
    import psutil

    process = psutil.Process()
    torch_before = "torch" in sys.modules
    rss_before = process.memory_info().rss
    started = time.perf_counter()
    from memories.embedding import make_embedder

    embedder = make_embedder(kind)
    embedder.embed(["warm-up"])
    load_seconds = time.perf_counter() - started
    since_exec = time.time() - process.create_time()
    rss_loaded = process.memory_info().rss

    rng = random.Random(11)
    shorts, chunks, queries = (
        short_texts(options["short"], rng),
        chunk_texts(options["chunks"], rng),
        query_texts(options["queries"], rng),
    )

    def rate(texts: list[str], call_size: int = CALL_SIZE) -> tuple[float, float]:
        """Texts per wall-clock second and per CPU-second of this process (the second is what another agent
        on the same cores disturbs least)."""
        began, began_cpu = time.perf_counter(), time.process_time()
        for start in range(0, len(texts), call_size):
            embedder.embed(texts[start : start + call_size])
        return len(texts) / (time.perf_counter() - began), len(texts) / (time.process_time() - began_cpu)

    short_rate, short_cpu_rate = rate(shorts)
    chunk_rate, chunk_cpu_rate = rate(chunks)
    one_rate, one_cpu_rate = rate(shorts[:200], call_size=1)
    latencies, cpu_latencies = [], []
    for query in queries:
        began, began_cpu = time.perf_counter(), time.process_time()
        embedder.embed([query])
        latencies.append((time.perf_counter() - began) * 1000)
        cpu_latencies.append((time.process_time() - began_cpu) * 1000)

    # the same texts for every embedder, mixed lengths in one call: compared to torch by the parent
    sample = shorts[:64] + chunks[:32] + queries[:32]
    Path(options["vectors"]).write_text(json.dumps(embedder.embed(sample)))
    quality = vector_quality(embedder, Path(options["bench"])) if options["bench"] else {}
    memory = process.memory_full_info()
    return {
        **quality,
        "name": embedder.name,
        "torch_imported": "torch" in sys.modules,
        "torch_imported_before_load": torch_before,
        "load_seconds": round(load_seconds, 2),
        "process_start_to_ready_seconds": round(since_exec, 2),
        "rss_mb_before_load": round(rss_before / 2**20),
        "rss_mb_loaded": round(rss_loaded / 2**20),
        "rss_mb_after_run": round(memory.rss / 2**20),
        "uss_mb_after_run": round(memory.uss / 2**20),
        "short_texts_per_second": round(short_rate, 1),
        "short_texts_per_cpu_second": round(short_cpu_rate, 1),
        "short_texts_one_by_one_per_second": round(one_rate, 1),
        "short_texts_one_by_one_per_cpu_second": round(one_cpu_rate, 1),
        "chunks_per_second": round(chunk_rate, 1),
        "chunks_per_cpu_second": round(chunk_cpu_rate, 1),
        "query_p50_ms": round(statistics.median(latencies), 2),
        "query_p95_ms": round(percentile(latencies, 95), 2),
        "query_cpu_p50_ms": round(statistics.median(cpu_latencies), 2),
    }


def vector_quality(embedder, bench: Path) -> dict:
    """Vector-only retrieval on world-v1, exact cosine over every page's chunks (as the embedding task makes
    them: title-prefixed 200-word windows), a page scored by its best chunk: R@5 and MRR of the template questions
    and of their paraphrases. The full search (keyword + vector + relational) is measured by eval_retrieval; this
    isolates what the embedder changes."""
    import numpy as np

    from bench.evaluation import build_questions, load_pages, load_paraphrases, mrr, recall_at
    from memories.indexing_text import chunk_windows

    world = bench / "world-v1"
    if not world.is_dir():
        return {}
    pages, facts = load_pages(world)
    texts, owners = [], []
    for index, page in enumerate(pages):
        for window in chunk_windows(page.text) or [page.title]:
            texts.append(f"{page.title}. {window}")
            owners.append(index)
    chunk_vectors = np.array(embedder.embed(texts), dtype=np.float32)
    owners = np.array(owners)
    sets = {"world": build_questions(pages, facts)}
    paraphrases = bench / "world-v1-paraphrases" / "paraphrases.json"
    if paraphrases.exists():
        sets["paraphrases"] = [question for question, _ in load_paraphrases(paraphrases, sets["world"])]
    figures = {}
    for name, questions in sets.items():
        similarity = np.array(embedder.embed([q.text for q in questions]), dtype=np.float32) @ chunk_vectors.T
        best = np.full((len(questions), len(pages)), -2.0, dtype=np.float32)
        np.maximum.at(best.T, owners, similarity.T)  # each page: its best chunk
        ranked = [[pages[i].slug for i in np.argsort(-row, kind="stable")[:50]] for row in best]
        golds = [q.gold for q in questions]
        figures[f"vector_r5_{name}"] = round(recall_at(ranked, golds, 5), 3)
        figures[f"vector_mrr_{name}"] = round(mrr(ranked, golds), 3)
    return figures


def compare_to_torch(results: dict) -> None:
    import numpy as np

    vectors = {kind: np.array(json.loads(Path(r.pop("vectors_file")).read_text())) for kind, r in results.items()}
    reference = vectors.get("sentence-transformers")
    for kind, result in results.items():
        if reference is None:
            break
        cosines = (vectors[kind] * reference).sum(axis=1)
        result["cosine_to_torch_min"] = round(float(cosines.min()), 4)
        result["cosine_to_torch_mean"] = round(float(cosines.mean()), 4)


def render(report: dict, options: dict) -> str:
    rows = [
        ("short texts/s (calls of 64)", "short_texts_per_second", "{:.1f}"),
        ("  per CPU-second", "short_texts_per_cpu_second", "{:.1f}"),
        ("short texts/s (one per call)", "short_texts_one_by_one_per_second", "{:.1f}"),
        ("  per CPU-second", "short_texts_one_by_one_per_cpu_second", "{:.1f}"),
        ("200-word chunks/s (calls of 64)", "chunks_per_second", "{:.1f}"),
        ("  per CPU-second", "chunks_per_cpu_second", "{:.1f}"),
        ("query p50 ms", "query_p50_ms", "{:.2f}"),
        ("query p95 ms", "query_p95_ms", "{:.2f}"),
        ("query CPU p50 ms", "query_cpu_p50_ms", "{:.2f}"),
        ("× torch, short texts (wall)", "short_texts_per_second_vs_torch", "{:.2f}x"),
        ("× torch, short texts (CPU)", "short_texts_per_cpu_second_vs_torch", "{:.2f}x"),
        ("× torch, chunks (wall)", "chunks_per_second_vs_torch", "{:.2f}x"),
        ("× torch, chunks (CPU)", "chunks_per_cpu_second_vs_torch", "{:.2f}x"),
        ("vector R@5 world-v1", "vector_r5_world", "{:.3f}"),
        ("vector MRR world-v1", "vector_mrr_world", "{:.3f}"),
        ("vector R@5 paraphrases", "vector_r5_paraphrases", "{:.3f}"),
        ("vector MRR paraphrases", "vector_mrr_paraphrases", "{:.3f}"),
        ("cosine to torch min", "cosine_to_torch_min", "{:.4f}"),
        ("cosine to torch mean", "cosine_to_torch_mean", "{:.4f}"),
        ("load + warm-up s", "load_seconds", "{:.2f}"),
        ("process start to ready s", "process_start_to_ready_seconds", "{:.2f}"),
        ("RSS MB before load", "rss_mb_before_load", "{}"),
        ("RSS MB loaded", "rss_mb_loaded", "{}"),
        ("RSS MB after run", "rss_mb_after_run", "{}"),
        ("USS MB after run", "uss_mb_after_run", "{}"),
        ("torch imported", "torch_imported", "{}"),
    ]
    kinds = list(report["embedders"])
    lines = [
        f"bench_embedder: {options['short']} short texts, {options['chunks']} chunks of 200 words, "
        f"{options['queries']} queries; {report['cores']} cores, {report['threads']} thread(s) per process",
        f"  {'':<34}" + "".join(f"{kind:>22}" for kind in kinds),
    ]
    for label, key, fmt in rows:
        cells = "".join(
            f"{fmt.format(report['embedders'][k][key]) if key in report['embedders'][k] else '-':>22}" for k in kinds
        )
        lines.append(f"  {label:<34}{cells}")
    return "\n".join(lines)
