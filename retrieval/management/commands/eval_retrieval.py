"""The retrieval benchmark on world-v1: keyword, vector, hybrid and full (+relational) in one run."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from graph.services import links_extract_for_memories
from memories.models import Memory, Scope, Tenant
from memories.orgchart import parse_org_chart
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create
from memories.services.tenancy import tenant_onboard
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred
from retrieval.evaluation import build_questions, load_pages, percentile, score
from retrieval.services import SearchOptions, search_memories

CONFIGS = (
    ("relational", ("relational",), False),
    ("keyword", ("keyword",), False),
    ("vector", ("vector",), False),
    ("hybrid", ("keyword", "vector"), False),
    ("full", ("keyword", "vector", "relational"), False),
    ("full+autocut", ("keyword", "vector", "relational"), True),
)
FAMILIES = ("attended", "works_at", "invested_in", "advises")
PUBLISHED = "published (gbrain-evals): keyword 0.171/0.624, vector 0.108/0.407, hybrid 0.192/0.687, oracle 0.342/0.979"


class Command(BaseCommand):
    help = "Run the world-v1 retrieval benchmark (P@5, R@5, MRR per configuration and family, latency)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="the world-v1 folder")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the throw-away tenant")
        parser.add_argument("--top-k", type=int, default=5)
        parser.add_argument("--relational-weight", type=float, default=None)
        parser.add_argument("--reuse", help="a tenant slug kept by an earlier --keep run: skip the ingest")

    def handle(self, *args, path: Path, **options):
        if not path.is_dir():
            raise CommandError(f"{path} is not a folder")
        pages, facts = load_pages(path)
        questions = build_questions(pages, facts)
        if not pages or not questions:
            raise CommandError(f"no pages or questions under {path}")
        if options["reuse"]:
            tenant, user_id, ingest = Tenant.objects.get(slug=options["reuse"]), "reader", {}
            options["keep"] = True
        else:
            tenant, user_id, ingest = self._ingest(pages, quiet=options["json"])
        if options["keep"]:
            self.stderr.write(f"tenant kept: {tenant.slug}")
        try:
            slug_of = {m.pk: m.metadata.get("slug") for m in Memory.objects.filter(tenant=tenant)}
            table, latencies = {}, {}
            for name, arms, autocut in CONFIGS:
                ranked, per_query = [], []
                for question in tqdm(questions, desc=name, file=sys.stderr, disable=options["json"]):
                    started = time.perf_counter()
                    result = search_memories(
                        tenant=tenant,
                        user_id=user_id,
                        query=question.text,
                        options=SearchOptions(
                            top_k=options["top_k"],
                            arms=arms,
                            autocut=autocut,
                            track_access=False,
                            relational_weight=options["relational_weight"],
                        ),
                    )
                    per_query.append((time.perf_counter() - started) * 1000)
                    ranked.append([slug_of.get(hit.memory.pk) for hit in result.hits])
                row = {"all": _as_dict(score(ranked, questions))}
                for family in FAMILIES:
                    picked = [(r, q) for r, q in zip(ranked, questions, strict=True) if q.family == family]
                    row[family] = _as_dict(score([r for r, _ in picked], [q for _, q in picked]))
                table[name] = row
                latencies[name] = {
                    "p50_ms": round(percentile(per_query, 50), 1),
                    "p95_ms": round(percentile(per_query, 95), 1),
                }
        finally:
            if not options["keep"]:
                tenant.delete()
        result = {
            "pages": len(pages),
            "questions": len(questions),
            "families": _family_counts(questions),
            "ingest": ingest,
            "table": table,
            "latency": latencies,
            "published": PUBLISHED,
        }
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(_format(result))

    def _ingest(self, pages, *, quiet: bool):
        slug = f"bench-world-{uuid.uuid4().hex[:8]}"
        plan = parse_org_chart(
            f"tenant: {{slug: {slug}, name: world-v1 benchmark}}\nlevels: [org, user]\n"
            "tree: [{level: org, key: world, name: World, members: [reader]}]\n"
        )
        tenant_onboard(plan=plan)
        tenant = Tenant.objects.get(slug=slug)
        root = Scope.objects.get(tenant=tenant, level="org")
        author = Author(kind="import", label="world-v1")
        started = time.perf_counter()
        with indexing_deferred() as embed_ids, deferred("links") as link_ids, transaction.atomic():
            for page in pages:
                memory_create(
                    tenant=tenant,
                    author=author,
                    content=page.text,
                    title=page.title,
                    scope=root,
                    metadata={"slug": page.slug, "entity_kind": _kind(page.type)},
                )
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        ids = sorted(embed_ids)
        for start in tqdm(range(0, len(ids), 32), desc="embed", file=sys.stderr, disable=quiet):
            memories_embed(memory_ids=ids[start : start + 32])
        embed_s = time.perf_counter() - started
        started = time.perf_counter()
        links = links_extract_for_memories(memory_ids=sorted(link_ids))
        links_s = time.perf_counter() - started
        return (
            tenant,
            "reader",
            {
                "write_s": round(write_s, 2),
                "embed_s": round(embed_s, 2),
                "links_s": round(links_s, 2),
                "links": links["links"],
            },
        )


def _kind(page_type: str) -> str:
    return {"person": "person", "company": "company", "meeting": "event"}.get(page_type, "unknown")


def _as_dict(scores) -> dict:
    return {"p5": round(scores.p_at_k, 3), "r5": round(scores.r_at_k, 3), "mrr": round(scores.mrr, 3), "n": scores.n}


def _family_counts(questions) -> dict:
    counts: dict[str, int] = {}
    for question in questions:
        counts[question.family] = counts.get(question.family, 0) + 1
    return counts


def _format(result: dict) -> str:
    lines = [
        f"world-v1: {result['pages']} pages, {result['questions']} questions {result['families']}",
        "ingest: write {write_s}s, embed {embed_s}s, links {links_s}s ({links} links)".format(**result["ingest"])
        if result["ingest"]
        else "ingest: reused a kept tenant",
        "",
        f"{'config':<14} {'P@5':>6} {'R@5':>6} {'MRR':>6}   "
        + "   ".join(f"{family:<18}" for family in FAMILIES)
        + f"   {'p50 ms':>7} {'p95 ms':>7}",
    ]
    for name, row in result["table"].items():
        overall = row["all"]
        per_family = "   ".join(f"{row[f]['p5']:.3f}/{row[f]['r5']:.3f}/{row[f]['mrr']:.2f}" for f in FAMILIES)
        latency = result["latency"][name]
        lines.append(
            f"{name:<14} {overall['p5']:>6.3f} {overall['r5']:>6.3f} {overall['mrr']:>6.3f}   {per_family}"
            f"   {latency['p50_ms']:>7.1f} {latency['p95_ms']:>7.1f}"
        )
    lines += ["", "per family: P@5/R@5/MRR", result["published"]]
    return "\n".join(lines)
