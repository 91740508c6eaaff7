"""The conversational development set, end to end: every generated session goes through the sessions service
(``session_ingest``, what ``POST /api/v1/sessions`` calls), one member per conversation; every question goes through
the search service (``search_memories``) as that member, for each configuration of arms, beside rank_bm25 over
exactly the turns that were stored, in the same run.

Figures, per family and per half of the frames (``dev`` / ``held``): evidence R@5 and R@10 (the share of a
question's evidence turns in the top k), MRR (first evidence turn); abstention (``no_relevant_memory`` on
never-said questions) and false refusals (on answerable ones); for knowledge updates, how often the current
statement ranks above the superseded one; for "when" questions, how often the answer states the right date
(``date``), and how often the first day memories.temporal reads in the ranked turns is the right one (``hits-date``:
what a deterministic date answer over that ranking could reach).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from django.db import transaction
from tqdm import tqdm

from bench.conversations.generator import FAMILIES, Dataset, Question
from bench.evaluation import Bm25Baseline
from bench.stats import percentile
from graph.services import links_extract_for_memories
from memories.models import Member, Memory, Tenant
from memories.orgchart import parse_org_chart
from memories.services.indexing import memories_embed
from memories.services.memory import Author
from memories.services.onboarding import tenant_onboard
from memories.services.sessions import session_ingest
from memories.signals import indexing_deferred
from memories.temporal import tag_dates
from orgmemory.oncommit import deferred
from retrieval.services import SearchOptions, search_memories

ARM_CONFIGS: dict[str, tuple[str, ...]] = {
    "keyword": ("keyword",),
    "vector": ("vector",),
    "hybrid": ("keyword", "vector"),
    "full": ("keyword", "vector", "relational"),
}
BASELINE = "rank_bm25"
BASELINE_SPEAKER = "rank_bm25+speaker"  # the same BM25 over "author: text", for scale
TOP_K = 10
HALVES = ("dev", "held", "all")
ANSWERABLE = tuple(f for f in FAMILIES if f != "abstention")


@dataclass
class Run:
    """Ranked event ids per question for one configuration, with abstention flags, answers and latencies."""

    ranked: list[list[str]] = field(default_factory=list)
    abstained: list[bool] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)  # the search's own confidence (none for the baseline)
    answers: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)


# --- ingest ----------------------------------------------------------------------------------------------------


def tenant_for(dataset: Dataset, *, slug: str) -> Tenant:
    """A fresh tenant with one member per conversation (an existing tenant of that slug is deleted first)."""
    Tenant.objects.filter(slug=slug).delete()
    members = ", ".join(chat.user_id for chat in dataset.conversations)
    plan = parse_org_chart(
        f"tenant: {{slug: {slug}, name: conversational benchmark}}\nlevels: [org, user]\n"
        f"tree: [{{level: org, key: root, name: Root, members: [{members}]}}]\n"
        "policies: {writable_levels: {agent: [user]}}\n"
    )
    tenant_onboard(plan=plan)
    return Tenant.objects.get(slug=slug)


def ingest(tenant: Tenant, dataset: Dataset, *, quiet: bool = False) -> tuple[dict[int, str], dict]:
    """Every session through ``session_ingest`` as its conversation's member; then embeddings and graph links
    for what was stored. Returns the first event id stored as each memory, and timings."""
    event_of: dict[int, str] = {}
    started = time.perf_counter()
    turns = 0
    with indexing_deferred() as embed_ids, deferred("links") as link_ids:
        for chat in tqdm(dataset.conversations, desc="sessions", file=sys.stderr, disable=quiet):
            member = Member.objects.get(tenant=tenant, user_id=chat.user_id)
            author = Author(kind="agent", member=member)
            for body in chat.payloads():
                with transaction.atomic():
                    result = session_ingest(
                        tenant=tenant,
                        author=author,
                        app_name=body["app_name"],
                        session_id=body["session_id"],
                        events=body["events"],
                    )
                texts = [e for e in body["events"] if (e.get("text") or "").strip()]
                turns += len(texts)
                for event, memory_id in zip(texts, result.memory_ids, strict=True):
                    event_of.setdefault(memory_id, event["id"])
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        ids = sorted(embed_ids)
        for start in tqdm(range(0, len(ids), 64), desc="embed", file=sys.stderr, disable=quiet):
            memories_embed(memory_ids=ids[start : start + 64])
        embed_s = time.perf_counter() - started
        started = time.perf_counter()
        links = links_extract_for_memories(memory_ids=sorted(link_ids))
        links_s = time.perf_counter() - started
    return event_of, {
        "turns": turns,
        "memories": Memory.objects.filter(tenant=tenant).count(),
        "write_s": round(write_s, 2),
        "embed_s": round(embed_s, 2),
        "links_s": round(links_s, 2),
        "links": links.get("links", 0),
    }


# --- running ---------------------------------------------------------------------------------------------------


def run_config(
    tenant: Tenant,
    questions: Sequence[Question],
    event_of: dict[int, str],
    arms: tuple[str, ...],
    *,
    synthesize: bool = False,
    desc: str = "",
    quiet: bool = False,
) -> Run:
    run = Run()
    options = SearchOptions(top_k=TOP_K, arms=arms, synthesize=synthesize, track_access=False)
    for question in tqdm(questions, desc=desc, file=sys.stderr, disable=quiet):
        started = time.perf_counter()
        result = search_memories(tenant=tenant, user_id=question.user_id, query=question.text, options=options)
        run.latencies.append((time.perf_counter() - started) * 1000)
        run.ranked.append([event_of.get(hit.memory.pk, f"?{hit.memory.pk}") for hit in result.hits])
        run.abstained.append(result.no_relevant_memory)
        run.confidences.append(result.confidence)
        run.answers.append(result.answer.text if result.answer else "")
    return run


def run_baseline(dataset: Dataset, questions: Sequence[Question], stored: set[str], *, speaker: bool) -> Run:
    """rank_bm25 over each conversation's stored turns (each question sees its own conversation, as the member
    sees only their own memories)."""
    indexes: dict[str, Bm25Baseline] = {}
    for chat in dataset.conversations:
        events = [e for s in chat.sessions for e in s.events if e["id"] in stored]
        texts = [f"{e['author']}: {e['text']}" if speaker else e["text"] for e in events]
        indexes[chat.conversation_id] = Bm25Baseline([e["id"] for e in events], texts)
    run = Run()
    for question in questions:
        started = time.perf_counter()
        ranked = indexes[question.conversation_id].search(question.text, k=TOP_K)
        run.latencies.append((time.perf_counter() - started) * 1000)
        run.ranked.append(ranked)
        run.abstained.append(not ranked)
        run.answers.append("")
    return run


# --- scoring ---------------------------------------------------------------------------------------------------


def evidence_recall(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    return len(set(ranked[:k]) & set(evidence)) / len(evidence) if evidence else 0.0


def reciprocal_rank(ranked: Sequence[str], evidence: Sequence[str]) -> float:
    wanted = set(evidence)
    return next((1.0 / rank for rank, key in enumerate(ranked, 1) if key in wanted), 0.0)


def current_first(ranked: Sequence[str], evidence: Sequence[str], superseded: Sequence[str]) -> bool:
    """The newer statement ranks above every superseded one (which may be absent)."""
    position = {key: rank for rank, key in enumerate(ranked)}
    best_new = min((position[k] for k in evidence if k in position), default=None)
    best_old = min((position[k] for k in superseded if k in position), default=len(ranked) + 1)
    return best_new is not None and best_new < best_old


def states_date(answer: str, gold: str) -> bool:
    day = date.fromisoformat(gold)
    spellings = (
        gold,
        f"{day.day} {day.strftime('%B')} {day.year}",
        f"{day.strftime('%B')} {day.day}, {day.year}",
        f"{day.day} {day.strftime('%b')} {day.year}",
    )
    return any(s.casefold() in answer.casefold() for s in spellings)


def date_from_hits(ranked: Sequence[str], events: dict[str, dict]) -> str | None:
    """The first single day the tagger reads in the ranked turns (each against its own timestamp): what a
    deterministic "when" answer built on this ranking could say."""
    for key in ranked:
        event = events.get(key)
        if event is None:
            continue
        reference = datetime.fromtimestamp(event["timestamp"], tz=UTC)
        for mention in tag_dates(event["text"], reference=reference):
            if mention.start == mention.end:
                return mention.start.isoformat()
    return None


def abstention_ceiling(never: Sequence[float], answerable: Sequence[float], *, refusals: float = 0.1) -> dict:
    """How well a confidence score separates never-said questions from answerable ones, whatever the threshold:
    ``auc``, the chance that an answerable question scores above a never-said one (ties count half), and
    ``best``, the largest share of never-said questions refused (confidence below a threshold) while at most
    ``refusals`` of the answerable ones are, with the threshold chosen on these very questions: an upper bound
    on what any threshold on this signal can reach."""
    if not never or not answerable:
        return {"auc": 0.0, "best": 0.0}
    pairs = sum((a > n) + 0.5 * (a == n) for n in never for a in answerable)
    best = 0.0
    for threshold in sorted({*never, *answerable, float("inf")}):
        refused = sum(a < threshold for a in answerable) / len(answerable)
        if refused <= refusals:
            best = max(best, sum(n < threshold for n in never) / len(never))
    return {"auc": round(pairs / (len(never) * len(answerable)), 3), "best": round(best, 3)}


def _mean(values) -> float:
    values = [float(v) for v in values]
    return round(sum(values) / len(values), 3) if values else 0.0


def _in_half(question: Question, half: str) -> bool:
    return half == "all" or question.half == half


def score(questions: Sequence[Question], run: Run, events: dict[str, dict] | None = None) -> dict:
    """The figures of one run, per half and family (see the module docstring)."""
    table: dict[str, dict] = {}
    for half in HALVES:
        picked = [i for i, q in enumerate(questions) if _in_half(q, half)]
        row: dict[str, dict] = {}
        for family in (*ANSWERABLE, "answerable"):
            chosen = [i for i in picked if questions[i].family == family or
                      (family == "answerable" and questions[i].family in ANSWERABLE)]  # fmt: skip
            row[family] = {
                "r5": _mean(evidence_recall(run.ranked[i], questions[i].evidence, 5) for i in chosen),
                "r10": _mean(evidence_recall(run.ranked[i], questions[i].evidence, 10) for i in chosen),
                "mrr": _mean(reciprocal_rank(run.ranked[i], questions[i].evidence) for i in chosen),
                "n": len(chosen),
            }
        never = [i for i in picked if questions[i].family == "abstention"]
        answerable = [i for i in picked if questions[i].family in ANSWERABLE]
        updates = [i for i in picked if questions[i].family == "knowledge-update"]
        when = [i for i in picked if questions[i].gold_date]
        row["abstention"] = {
            "abstained": _mean(run.abstained[i] for i in never),
            "false_refusals": _mean(run.abstained[i] for i in answerable),
            "n": len(never),
        }
        if run.confidences:
            row["abstention"]["confidence"] = abstention_ceiling(
                [run.confidences[i] for i in never], [run.confidences[i] for i in answerable]
            )
        row["update_order"] = {
            "current_first": _mean(
                current_first(run.ranked[i], questions[i].evidence, questions[i].superseded) for i in updates
            ),
            "n": len(updates),
        }
        if events is not None:
            row["hits_date"] = {
                "right": _mean(date_from_hits(run.ranked[i], events) == questions[i].gold_date for i in when),
                "n": len(when),
            }
        if any(run.answers):
            row["answer_date"] = {
                "right": _mean(states_date(run.answers[i], questions[i].gold_date) for i in when),
                "n": len(when),
            }
        table[half] = row
    return table


def evaluate(
    dataset: Dataset,
    *,
    configs: Sequence[str] = tuple(ARM_CONFIGS),
    slug: str = "eval-conversations",
    keep: bool = False,
    quiet: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> dict:
    """Ingest, ask, score: the report of one run (tenant deleted afterwards unless ``keep``)."""
    tenant = tenant_for(dataset, slug=slug)
    try:
        event_of, ingest_stats = ingest(tenant, dataset, quiet=quiet)
        log(f"ingested {ingest_stats['turns']} turns as {ingest_stats['memories']} memories")
        questions = dataset.questions
        events = dataset.events_by_id()
        stored = set(event_of.values())
        runs: dict[str, Run] = {
            BASELINE: run_baseline(dataset, questions, stored, speaker=False),
            BASELINE_SPEAKER: run_baseline(dataset, questions, stored, speaker=True),
        }
        for name in configs:
            runs[name] = run_config(
                tenant, questions, event_of, ARM_CONFIGS[name], synthesize=name == "full", desc=name, quiet=quiet
            )
    finally:
        if not keep:
            tenant.delete()
    return {
        "seed": dataset.seed,
        "conversations": len(dataset.conversations),
        "sessions": sum(len(c.sessions) for c in dataset.conversations),
        "questions": len(questions),
        "ingest": ingest_stats,
        "table": {name: score(questions, run, events) for name, run in runs.items()},
        "latency": {
            name: {"p50_ms": round(percentile(run.latencies, 50), 1), "p95_ms": round(percentile(run.latencies, 95), 1)}
            for name, run in runs.items()
        },
    }


# --- report ----------------------------------------------------------------------------------------------------


def format_report(report: dict) -> str:
    ingest_stats = report["ingest"]
    lines = [
        f"conversational set: seed {report['seed']}, {report['conversations']} conversations, "
        f"{report['sessions']} sessions, {ingest_stats['turns']} turns ({ingest_stats['memories']} memories), "
        f"{report['questions']} questions",
        f"ingest: write {ingest_stats['write_s']}s, embed {ingest_stats['embed_s']}s, links {ingest_stats['links_s']}s",
    ]
    table = report["table"]
    families = (*ANSWERABLE, "answerable")
    for half in HALVES:
        lines += ["", f"== {half} frames: evidence R@5 / R@10 / MRR"]
        lines.append(
            f"{'config':<18}" + "".join(f"{f:<22}" for f in families) + "abst  false-ref  upd-order  date  hits-date"
        )
        for name, by_half in table.items():
            row = by_half[half]
            cells = "".join(f"{row[f]['r5']:.3f}/{row[f]['r10']:.3f}/{row[f]['mrr']:.3f}   " for f in families)
            date_cell = f"{row['answer_date']['right']:.3f}" if "answer_date" in row else "  -  "
            hits_cell = f"{row['hits_date']['right']:.3f}" if "hits_date" in row else "  -  "
            lines.append(
                f"{name:<18}{cells}{row['abstention']['abstained']:.3f} {row['abstention']['false_refusals']:>9.3f}"
                f" {row['update_order']['current_first']:>10.3f}  {date_cell}  {hits_cell:>9}"
            )
        counts = table[BASELINE][half]
        lines.append(
            "n: " + ", ".join(f"{f} {counts[f]['n']}" for f in families) + f", abstention {counts['abstention']['n']}"
        )
    held = table[BASELINE]["held"]["answerable"]
    lines += ["", "held-back frames, answerable, ratio to rank_bm25 (R@5 / R@10):"]
    for name, by_half in table.items():
        row = by_half["held"]["answerable"]
        lines.append(
            f"  {name:<18} {row['r5'] / held['r5'] if held['r5'] else 0:.2f}x / "
            f"{row['r10'] / held['r10'] if held['r10'] else 0:.2f}x"
        )
    lines += ["", "abstention signal (the search's confidence): AUC, and the most never-said questions any threshold"]
    lines.append("refuses at <= 0.1 false refusals, the threshold chosen on the same questions (an upper bound):")
    for name, by_half in table.items():
        if "confidence" in by_half["held"]["abstention"]:
            lines.append(
                f"  {name:<18} "
                + ", ".join(
                    f"{half} {by_half[half]['abstention']['confidence']['auc']:.3f} / "
                    f"{by_half[half]['abstention']['confidence']['best']:.3f}"
                    for half in HALVES
                )
            )
    lines.append(
        "latency p50/p95 ms: " + ", ".join(f"{n} {v['p50_ms']}/{v['p95_ms']}" for n, v in report["latency"].items())
    )
    return "\n".join(lines)
