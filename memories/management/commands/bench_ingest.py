"""Benchmark the write path and the embedding task (batched vs one-by-one) with the real embedder."""

from __future__ import annotations

import json
import os
import random
import time
import uuid

from django.core.management.base import BaseCommand
from django.db import transaction

from graph.services import links_extract_for_memories
from memories.embedding import get_embedder
from memories.models import Memory, Scope, Tenant
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred

_PEOPLE = ["Alice Smith", "Bob Lee", "Carla Diaz", "Deniz Kaya", "Emeka Obi", "Fatima Khan", "Goran Ilic", "Hana Sato"]
_TOPICS = [
    "the billing service",
    "the k8s cluster",
    "on-call",
    "the Q3 roadmap",
    "the data warehouse",
    "SSO",
    "the mobile release",
    "customer onboarding",
    "the incident review",
    "the EU region",
]
_VERBS = ["owns", "migrated", "reviewed", "is rewriting", "documented", "deprecated", "load-tested", "paged on"]


def synthetic_text(rng: random.Random, index: int) -> str:
    """Believable, varied memory text; every 10th one is long (several chunks)."""
    sentences = []
    count = rng.randint(1, 4) if index % 10 else rng.randint(25, 40)
    for _ in range(count):
        sentences.append(
            f"{rng.choice(_PEOPLE)} {rng.choice(_VERBS)} {rng.choice(_TOPICS)} on {rng.randint(1, 28)} "
            f"{rng.choice(['March', 'June', 'September', 'November'])} (ticket OPS-{rng.randint(100, 99999)})."
        )
    return f"Note {index}: " + " ".join(sentences)


class Command(BaseCommand):
    help = "Create N memories through the write service, then embed them batched and one-by-one; print rates."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=2000)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the throw-away tenant")

    def handle(self, *args, count: int, **options):
        rng = random.Random(7)
        get_embedder()  # load the model before timing anything
        tenant = Tenant.objects.create(slug=f"bench-{uuid.uuid4().hex[:8]}", name="bench", levels=["org", "user"])
        root = Scope.objects.create(tenant=tenant, level="org", key="bench", name="bench")
        author = Author(kind="import", label="bench")
        texts = [synthetic_text(rng, i) for i in range(count)]
        try:
            with indexing_deferred() as ids, deferred("links") as link_ids:
                started = time.perf_counter()
                for text in texts:
                    with transaction.atomic():
                        memory_create(tenant=tenant, author=author, content=text, scope=root)
                write_seconds = time.perf_counter() - started
            ids = sorted(ids)

            started = time.perf_counter()
            links = 0
            for start in range(0, len(link_ids), 64):
                links += links_extract_for_memories(memory_ids=sorted(link_ids)[start : start + 64])["links"]
            links_seconds = time.perf_counter() - started

            started = time.perf_counter()
            chunks = 0
            for start in range(0, len(ids), 64):
                chunks += memories_embed(memory_ids=ids[start : start + 64])["chunks"]
            batched_seconds = time.perf_counter() - started

            started = time.perf_counter()
            for memory_id in ids:
                memories_embed(memory_ids=[memory_id])
            single_seconds = time.perf_counter() - started
            ready = Memory.objects.filter(tenant=tenant, index_state="ready").count()
        finally:
            if not options["keep"]:
                tenant.delete()
        result = {
            "count": count,
            "cores": os.cpu_count(),
            "torch_threads": _torch_threads(),
            "chunks": chunks,
            "write_path_per_second": round(count / write_seconds, 1),
            "links": links,
            "link_extraction_per_second": round(count / links_seconds, 1),
            "embed_batched_per_second": round(count / batched_seconds, 1),
            "embed_one_by_one_per_second": round(count / single_seconds, 1),
            "batched_speedup": round(single_seconds / batched_seconds, 2),
            "ready": ready,
        }
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        rates = (
            ("write path (validate, dedup, save, tsvector)", result["write_path_per_second"]),
            ("link extraction task (64/call)", result["link_extraction_per_second"]),
            ("embedding task, batched (64/call)", result["embed_batched_per_second"]),
            ("embedding task, one by one", result["embed_one_by_one_per_second"]),
        )
        lines = "".join(f"  {label:<46}{rate:>8.1f} memories/s\n" for label, rate in rates)
        self.stdout.write(
            f"bench_ingest: {count} memories ({chunks} chunks), {result['cores']} cores, "
            f"torch threads {result['torch_threads']}\n"
            f"{lines}"
            f"  {'batched / one-by-one':<46}{result['batched_speedup']:>8.2f}x\n"
            f"  memories ready: {ready}/{count}"
        )


def _torch_threads() -> int:
    import torch

    return torch.get_num_threads()
