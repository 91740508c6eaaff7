"""The one retrieval benchmark: every set in the data folder plus the path questions, every configuration beside a
rank_bm25 baseline over the same texts, in one run (bench/HISTORY.md explains each figure)."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from bench.conversations.evaluate import ARM_CONFIGS as CONVERSATION_CONFIGS
from bench.conversations.evaluate import evaluate as conversations_evaluate
from bench.conversations.evaluate import format_report as conversations_report
from bench.conversations.generator import generate as generate_conversations
from bench.data import DATA_VARIABLE, data_folder
from bench.evaluation import (
    BASELINE,
    PATH_HALVES,
    Bm25Baseline,
    build_path_questions,
    build_questions,
    is_dev_half,
    load_associative_recall,
    load_pages,
    load_paraphrases,
    mrr,
    recall_at,
    score,
    share_in,
)
from bench.stats import percentile
from graph.services import links_extract_for_memories
from memories.background import access_flush
from memories.models import Memory, Scope, Tenant
from memories.orgchart import parse_org_chart
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create, memory_delete
from memories.services.onboarding import tenant_onboard
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred
from retrieval.services import SearchOptions, search_memories

ARM_CONFIGS: dict[str, tuple[str, ...]] = {
    "keyword": ("keyword",),
    "vector": ("vector",),
    "relational": ("relational",),
    "hybrid": ("keyword", "vector"),
    "full": ("keyword", "vector", "relational"),
}
SETS = ("world", "paraphrases", "paths", "assoc", "conversations")
CONVERSATION_SEED = 7  # bench.conversations: the generated chats (20 conversations of 15 sessions)
TOP_K = 10
WORLD_FAMILIES = ("attended", "works_at", "invested_in", "advises")
PUBLISHED = "published (gbrain-evals): keyword 0.171/0.624, vector 0.108/0.407, hybrid 0.192/0.687, oracle 0.342/0.979"
_TAGLINE_RE = re.compile(r"\s[-–—:|]\s|\s\(")


@dataclass
class Run:
    """Ranked page keys per question for one configuration, with latencies and flags."""

    ranked: list[list[str]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    abstained: list[bool] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    cpu_s: float = 0.0  # this process's CPU over the searches (time.process_time, the embedding thread included)


class Command(BaseCommand):
    help = "Retrieval benchmark over every set in the data folder and the path questions (docs/BENCHMARKS.md)."

    def add_arguments(self, parser):
        parser.add_argument(
            "bench",
            nargs="?",
            help="the data folder (world-v1/, world-v1-paraphrases/, associative-recall-v1/); "
            f"default ${DATA_VARIABLE}",
        )
        parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
        parser.add_argument("--configs", default=",".join(ARM_CONFIGS), help="comma-separated configurations")
        parser.add_argument("--repeat", type=int, default=1, help="run everything N times (access tracking on)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark tenants (eval-world, eval-assoc)")
        parser.add_argument("--reuse", action="store_true", help="reuse kept tenants instead of ingesting again")

    def handle(self, *args, bench: str | None, **options):
        bench = data_folder(bench)
        sets = [name for name in options["sets"].split(",") if name]
        configs = [name for name in options["configs"].split(",") if name]
        for name in sets:
            if name not in SETS:
                raise CommandError(f"unknown set {name!r}; known: {', '.join(SETS)}")
        for name in configs:
            if name not in ARM_CONFIGS:
                raise CommandError(f"unknown configuration {name!r}; known: {', '.join(ARM_CONFIGS)}")
        self.quiet = options["json"]
        report: dict = {"sets": {}, "repeat": options["repeat"]}
        tenants: list[Tenant] = []
        try:
            if {"world", "paraphrases", "paths"} & set(sets):
                tenant, slug_of, ingest, baseline, pages, facts = self._world(bench / "world-v1", options)
                tenants.append(tenant)
                report["world_ingest"] = ingest
                templates = build_questions(pages, facts)
                for round_no in range(options["repeat"]):
                    label = f"round {round_no + 1}" if options["repeat"] > 1 else ""
                    if "world" in sets:
                        report["sets"].setdefault("world", []).append(
                            self._world_set(tenant, slug_of, baseline, templates, configs, label)
                        )
                    if "paraphrases" in sets:
                        paraphrases = load_paraphrases(bench / "world-v1-paraphrases" / "paraphrases.json", templates)
                        report["sets"].setdefault("paraphrases", []).append(
                            self._paraphrase_set(tenant, slug_of, baseline, paraphrases, configs, label)
                        )
                    if "paths" in sets:
                        paths = build_path_questions(pages, facts)
                        report["sets"].setdefault("paths", []).append(
                            self._path_set(tenant, slug_of, baseline, paths, configs, label)
                        )
            if "assoc" in sets:
                tenant, key_of, ingest, baseline, pages, probes = self._assoc(bench / "associative-recall-v1", options)
                tenants.append(tenant)
                report["assoc_ingest"] = ingest
                hidden = {page.key for page in pages if page.visibility != "public"}
                for round_no in range(options["repeat"]):
                    label = f"round {round_no + 1}" if options["repeat"] > 1 else ""
                    report["sets"].setdefault("assoc", []).append(
                        self._assoc_set(tenant, key_of, baseline, probes, hidden, configs, label)
                    )
            if "conversations" in sets:
                report["conversations"] = self._conversations(configs, options)
        finally:
            if not options["keep"]:
                for tenant in tenants:
                    tenant.delete()
        if options["repeat"] > 1:
            report["repeat_identical"] = {
                name: all(json.dumps(r["table"]) == json.dumps(rounds[0]["table"]) for r in rounds)
                for name, rounds in report["sets"].items()
            }
        self.stdout.write(json.dumps(report) if options["json"] else _format(report))

    def _conversations(self, configs: Sequence[str], options) -> dict:
        """The conversational set (bench.conversations) through the sessions and search services, for every
        configuration it has (all but the relational arm alone: chats name few graph entities), beside rank_bm25."""
        return conversations_evaluate(
            generate_conversations(CONVERSATION_SEED),
            configs=[name for name in configs if name in CONVERSATION_CONFIGS],
            keep=options["keep"],
            quiet=self.quiet,
        )

    # --- ingest ------------------------------------------------------------------------------------------------
    def _tenant(self, slug: str, name: str, members: str, options) -> tuple[Tenant, bool]:
        existing = Tenant.objects.filter(slug=slug).first()
        if existing is not None:
            if options["reuse"]:
                return existing, False
            existing.delete()
        plan = parse_org_chart(
            f"tenant: {{slug: {slug}, name: {name}}}\nlevels: [org, user]\n"
            f"tree: [{{level: org, key: root, name: Root, members: [{members}]}}]\n"
            "policies: {writable_levels: {agent: [user]}}\n"
        )
        tenant_onboard(plan=plan)
        return Tenant.objects.get(slug=slug), True

    def _ingest(self, tenant: Tenant, items: list[dict]) -> dict:
        """items: {title, content, metadata, scope (Scope), withdrawn (bool)}; embeddings and links after commit."""
        author = Author(kind="import", label="benchmark")
        started = time.perf_counter()
        withdrawn = []
        with indexing_deferred() as embed_ids, deferred("links") as link_ids, transaction.atomic():
            for item in items:
                outcome = memory_create(
                    tenant=tenant,
                    author=author,
                    content=item["content"],
                    title=item["title"],
                    scope=item["scope"],
                    metadata=item["metadata"],
                )
                if item.get("withdrawn"):
                    withdrawn.append(outcome.memory.pk)
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        ids = sorted(embed_ids)
        for start in tqdm(range(0, len(ids), 32), desc="embed", file=sys.stderr, disable=self.quiet):
            memories_embed(memory_ids=ids[start : start + 32])
        embed_s = time.perf_counter() - started
        started = time.perf_counter()
        links = links_extract_for_memories(memory_ids=sorted(link_ids))
        links_s = time.perf_counter() - started
        for memory in Memory.objects.filter(pk__in=withdrawn):
            memory_delete(memory=memory)  # the normal delete path: the page must never come back
        return {
            "memories": len(items),
            "write_s": round(write_s, 2),
            "embed_s": round(embed_s, 2),
            "links_s": round(links_s, 2),
            "links": links["links"],
        }

    def _world(self, path: Path, options, *, slug: str = "eval-world"):
        pages, facts = load_pages(path)
        if not pages:
            raise CommandError(f"no pages under {path}")
        tenant, fresh = self._tenant(slug, "world-v1 benchmark", "reader", options)
        ingest = {}
        if fresh:
            root = Scope.objects.get(tenant=tenant, level="org")
            ingest = self._ingest(
                tenant,
                [
                    {
                        "title": page.title,
                        "content": page.text,
                        "scope": root,
                        "metadata": {"slug": page.slug, "entity_kind": _kind(page.type)},
                    }
                    for page in pages
                ],
            )
        slug_of = {m.pk: m.metadata.get("slug") for m in Memory.objects.filter(tenant=tenant)}
        baseline = Bm25Baseline([page.slug for page in pages], [f"{page.title}\n{page.text}" for page in pages])
        return tenant, slug_of, ingest, baseline, pages, facts

    def _assoc(self, path: Path, options, *, slug: str = "eval-assoc"):
        pages, probes = load_associative_recall(path)
        tenant, fresh = self._tenant(slug, "associative-recall benchmark", "reader, owner", options)
        ingest = {}
        if fresh:
            root = Scope.objects.get(tenant=tenant, level="org")
            owner = Scope.objects.get(tenant=tenant, level="user", key="owner")
            ingest = self._ingest(
                tenant,
                [
                    {
                        "title": page.title,
                        "content": page.text,
                        "scope": owner if page.visibility == "private" else root,
                        "metadata": {"page": page.key},
                        "withdrawn": page.visibility == "withdrawn",
                    }
                    for page in pages
                ],
            )
        key_of = {m.pk: m.metadata.get("page") for m in Memory.objects.filter(tenant=tenant)}
        public = [page for page in pages if page.visibility == "public"]
        baseline = Bm25Baseline([page.key for page in public], [f"{page.title}\n{page.text}" for page in public])
        return tenant, key_of, ingest, baseline, pages, probes

    # --- running -----------------------------------------------------------------------------------------------
    def _run(
        self, tenant: Tenant, key_of: dict, texts: Sequence[str], config: str, desc: str, synthesize: bool = False
    ) -> Run:
        run = Run()
        cpu = time.process_time()
        for text in tqdm(texts, desc=desc, file=sys.stderr, disable=self.quiet):
            started = time.perf_counter()
            result = search_memories(
                tenant=tenant,
                user_id="reader",
                query=text,
                options=SearchOptions(top_k=TOP_K, arms=ARM_CONFIGS[config], synthesize=synthesize),
            )
            run.latencies.append((time.perf_counter() - started) * 1000)
            run.ranked.append([key_of.get(hit.memory.pk, f"?{hit.memory.pk}") for hit in result.hits])
            run.abstained.append(result.no_relevant_memory)
            run.answers.append(result.answer.text if result.answer else "")
        run.cpu_s = time.process_time() - cpu
        access_flush()  # the next configuration (or round) sees every access this one recorded
        return run

    def _baseline(self, baseline: Bm25Baseline, texts: Sequence[str]) -> Run:
        run = Run()
        cpu = time.process_time()
        for text in texts:
            started = time.perf_counter()
            run.ranked.append(baseline.search(text))
            run.latencies.append((time.perf_counter() - started) * 1000)
            run.abstained.append(not run.ranked[-1])
        run.cpu_s = time.process_time() - cpu
        return run

    def _runs(self, tenant, key_of, baseline, texts, configs, desc, synthesize=False) -> dict[str, Run]:
        runs = {BASELINE: self._baseline(baseline, texts)}
        for config in configs:
            runs[config] = self._run(
                tenant, key_of, texts, config, f"{desc} {config}", synthesize=synthesize and config == "full"
            )
        return runs

    def _world_set(self, tenant, slug_of, baseline, questions, configs, label) -> dict:
        runs = self._runs(tenant, slug_of, baseline, [q.text for q in questions], configs, f"world {label}")
        return {"label": label, "n": len(questions), "table": _world_table(runs, questions), "latency": _latency(runs)}

    def _paraphrase_set(self, tenant, slug_of, baseline, paraphrases, configs, label) -> dict:
        questions = [q for q, _ in paraphrases]
        runs = self._runs(tenant, slug_of, baseline, [q.text for q in questions], configs, f"paraphrases {label}")
        table = {}
        for half, wanted in (("dev", True), ("held_out", False)):
            picked = [i for i, (_, dev) in enumerate(paraphrases) if dev == wanted]
            sub = {name: _subset(run, picked) for name, run in runs.items()}
            table[half] = _world_table(sub, [questions[i] for i in picked])
        return {"label": label, "n": len(questions), "table": table, "latency": _latency(runs)}

    def _path_set(self, tenant, slug_of, baseline, questions, configs, label) -> dict:
        runs = self._runs(tenant, slug_of, baseline, [q.text for q in questions], configs, f"paths {label}", True)
        title_of = {m.metadata.get("slug"): m.title for m in Memory.objects.filter(tenant=tenant)}
        table = {}
        # dev, held_out and fresh (bench.evaluation.FRESH_PATH_WORDINGS): each half on its own questions only, so
        # the fresh half changes neither figure of the other two
        for half in PATH_HALVES:
            picked = [i for i, q in enumerate(questions) if q.half == half]
            if not picked:
                continue
            table[half] = {}
            for name, run in runs.items():
                row = {
                    "answers@10": _mean(share_in(run.ranked[i], questions[i].answers, 10) for i in picked),
                    "needed@10": _mean(share_in(run.ranked[i], questions[i].needed, 10) for i in picked),
                    "n": len(picked),
                }
                if run.answers and any(run.answers):
                    row["named_in_answer"] = _mean(
                        _named_share(run.answers[i], questions[i].answers, title_of) for i in picked
                    )
                table[half][name] = row
        return {"label": label, "n": len(questions), "table": table, "latency": _latency(runs)}

    def _assoc_set(self, tenant, key_of, baseline, probes, hidden, configs, label) -> dict:
        runs = self._runs(tenant, key_of, baseline, [p.text for p in probes], configs, f"assoc {label}")
        table = {}
        for name, run in runs.items():
            row = {}
            halves: tuple[tuple[str, Callable[[str], bool]], ...] = (
                ("", lambda family: True),
                ("dev_half", is_dev_half),
                ("other_half", lambda family: not is_dev_half(family)),
            )
            for kind in ("indirect", "direct"):
                for half, in_half in halves:
                    picked = [i for i, p in enumerate(probes) if p.kind == kind and in_half(p.family_id)]
                    ranked = [run.ranked[i] for i in picked]
                    golds = [probes[i].gold for i in picked]
                    key = f"{kind}{'/' + half if half else ''}"
                    row[key] = {
                        "r5": round(recall_at(ranked, golds, 5), 3),
                        "r10": round(recall_at(ranked, golds, 10), 3),
                        "mrr": round(mrr(ranked, golds), 3),
                        "n": len(picked),
                    }
            negatives = [i for i, p in enumerate(probes) if p.kind == "negative"]
            positives = [i for i, p in enumerate(probes) if p.kind != "negative"]
            row["negatives"] = {
                "n": len(negatives),
                "abstained": round(_mean(run.abstained[i] for i in negatives), 3),
                "hidden_returned": sum(1 for i in negatives if set(run.ranked[i][:10]) & hidden),
            }
            row["positives_abstained"] = round(_mean(run.abstained[i] for i in positives), 3)
            row["hidden_returned_any"] = sum(1 for ranked in run.ranked if set(ranked) & hidden)
            table[name] = row
        return {"label": label, "n": len(probes), "table": table, "latency": _latency(runs)}


def _kind(page_type: str) -> str:
    return {"person": "person", "company": "company", "meeting": "event"}.get(page_type, "unknown")


def _mean(values) -> float:
    values = [float(v) for v in values]
    return round(sum(values) / len(values), 3) if values else 0.0


def _subset(run: Run, picked: list[int]) -> Run:
    return Run(
        ranked=[run.ranked[i] for i in picked],
        latencies=[run.latencies[i] for i in picked],
        abstained=[run.abstained[i] for i in picked],
        answers=[run.answers[i] for i in picked] if run.answers else [],
    )


def _world_table(runs: dict[str, Run], questions) -> dict:
    table = {}
    for name, run in runs.items():
        row = {"all": _scores(run.ranked, questions)}
        for family in WORLD_FAMILIES:
            picked = [i for i, q in enumerate(questions) if q.family == family]
            row[family] = _scores([run.ranked[i] for i in picked], [questions[i] for i in picked])
        table[name] = row
    return table


def _scores(ranked, questions) -> dict:
    five = score(ranked, questions, k=5)
    golds = [q.gold for q in questions]
    return {
        "p5": round(five.p_at_k, 3),
        "r5": round(five.r_at_k, 3),
        "r10": round(recall_at(ranked, golds, 10), 3),
        "mrr": round(five.mrr, 3),
        "n": five.n,
    }


def _latency(runs: dict[str, Run]) -> dict:
    return {
        name: {
            "p50_ms": round(percentile(run.latencies, 50), 1),
            "p95_ms": round(percentile(run.latencies, 95), 1),
            "cpu_ms": round(run.cpu_s * 1000 / len(run.latencies), 2),
        }
        for name, run in runs.items()
        if run.latencies
    }


def _named_share(answer: str, wanted: frozenset[str], title_of: dict) -> float:
    if not wanted:
        return 0.0
    text = answer.casefold()
    # a page title's entity name: before a tagline ("Demo Day W24 — Acme", "Meta (Cybersecurity)")
    names = [_TAGLINE_RE.split(title_of.get(slug) or "")[0].strip().casefold() for slug in wanted]
    return sum(1 for name in names if name and name in text) / len(wanted)


def _format(report: dict) -> str:
    lines: list[str] = []
    if report.get("world_ingest"):
        lines.append(
            "world-v1 ingest: {memories} memories, write {write_s}s, embed {embed_s}s, links {links_s}s"
            " ({links} links)".format(**report["world_ingest"])
        )
    if report.get("assoc_ingest"):
        lines.append(
            "associative-recall ingest: {memories} memories, write {write_s}s, embed {embed_s}s,"
            " links {links_s}s".format(**report["assoc_ingest"])
        )
    for name, rounds in report["sets"].items():
        for result in rounds:
            lines += ["", f"== {name} {result['label']} ({result['n']} questions)"]
            table = result["table"]
            if name == "world":
                lines += _format_world(table)
            elif name == "paraphrases":
                for half in ("dev", "held_out"):
                    lines += [f"-- {half} wordings", *_format_world(table[half])]
            elif name == "paths":
                for half in (half for half in PATH_HALVES if half in table):
                    lines.append(f"-- {half} wordings")
                    for config, row in table[half].items():
                        named = f"  named {row['named_in_answer']:.3f}" if "named_in_answer" in row else ""
                        lines.append(
                            f"{config:<11} answers@10 {row['answers@10']:.3f}  needed@10 {row['needed@10']:.3f}"
                            f"  (n={row['n']}){named}"
                        )
            else:
                lines.append(
                    f"{'config':<11} {'indirect R5/R10/MRR':<22}{'direct R5/R10/MRR':<22}"
                    f"{'ind. dev-half / other-half R10':<32}{'neg abst':>9}{'hidden':>8}"
                )
                for config, row in table.items():
                    ind, dire = row["indirect"], row["direct"]
                    lines.append(
                        f"{config:<11} {ind['r5']:.3f}/{ind['r10']:.3f}/{ind['mrr']:.3f}     "
                        f"{dire['r5']:.3f}/{dire['r10']:.3f}/{dire['mrr']:.3f}     "
                        f"{row['indirect/dev_half']['r10']:.3f} / {row['indirect/other_half']['r10']:.3f}"
                        f"{'':<17}{row['negatives']['abstained']:>9.3f}{row['hidden_returned_any']:>8}"
                    )
            lines.append(
                "latency p50/p95 ms: "
                + ", ".join(f"{c} {v['p50_ms']}/{v['p95_ms']}" for c, v in result["latency"].items())
            )
    if "conversations" in report:
        lines += ["", "== conversations", conversations_report(report["conversations"])]
    if "repeat_identical" in report:
        lines += ["", f"repeated rounds identical: {report['repeat_identical']}"]
    lines += ["", PUBLISHED]
    return "\n".join(lines)


def _format_world(table: dict) -> list[str]:
    lines = [
        f"{'config':<11} {'P@5':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}   "
        + "   ".join(f"{family:<18}" for family in WORLD_FAMILIES)
    ]
    for config, row in table.items():
        overall = row["all"]
        per_family = "   ".join(f"{row[f]['p5']:.3f}/{row[f]['r5']:.3f}/{row[f]['mrr']:.2f}" for f in WORLD_FAMILIES)
        lines.append(
            f"{config:<11} {overall['p5']:>6.3f} {overall['r5']:>6.3f} {overall['r10']:>6.3f} {overall['mrr']:>6.3f}"
            f"   {per_family}"
        )
    return lines
