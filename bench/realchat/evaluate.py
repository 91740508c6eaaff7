"""The realistic conversational set, end to end, one half at a time: every session through the sessions service
(``session_ingest``, what ``POST /api/v1/sessions`` calls) as its conversation's member, with each turn's speaker as
``author`` and its ISO timestamp; every question through the search service (``search_memories``) as that member,
for each configuration of arms, beside rank_bm25 over exactly the turns that were stored, in the same run. The
tenant, the ingest and the runs are ``bench.conversations.evaluate``'s, imported rather than copied.

Figures, per family: evidence R@5 and R@10 (the share of a question's evidence turns in the top k) and MRR (first
evidence turn), also for the answerable questions asked with the words that were said (``echoed``) and without them
(``paraphrased``); for never-said questions, how often the search says it has nothing (``no_relevant_memory``), the
false refusals on answerable ones, and how well its confidence separates the two; for knowledge updates, how often
the later statement ranks above the earlier one. The pure calibration statistics of the half come with them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from bench.conversations.evaluate import (
    ARM_CONFIGS,
    BASELINE,
    Run,
    abstention_ceiling,
    current_first,
    evidence_recall,
    ingest,
    reciprocal_rank,
    run_baseline,
    run_config,
    tenant_for,
)
from bench.realchat.calibration import calibration
from bench.realchat.generator import ANSWERABLE, Dataset, Question
from bench.stats import percentile
from memories.models import Memory, Tenant

SLUG = "eval-realchat"
GROUPS = (*ANSWERABLE, "answerable", "echoed", "paraphrased")


def _mean(values) -> float:
    values = [float(value) for value in values]
    return round(sum(values) / len(values), 3) if values else 0.0


def _in_group(question: Question, group: str) -> bool:
    if question.family not in ANSWERABLE:
        return False
    if group == "answerable":
        return True
    if group == "echoed":
        return not question.paraphrased
    if group == "paraphrased":
        return question.paraphrased
    return question.family == group


def score(questions: Sequence[Question], run: Run) -> dict:
    """The figures of one run (see the module docstring)."""
    table: dict[str, dict] = {}
    for group in GROUPS:
        chosen = [i for i, q in enumerate(questions) if _in_group(q, group)]
        table[group] = {
            "r5": _mean(evidence_recall(run.ranked[i], questions[i].evidence, 5) for i in chosen),
            "r10": _mean(evidence_recall(run.ranked[i], questions[i].evidence, 10) for i in chosen),
            "mrr": _mean(reciprocal_rank(run.ranked[i], questions[i].evidence) for i in chosen),
            "n": len(chosen),
        }
    never = [i for i, q in enumerate(questions) if q.family == "never-said"]
    answerable = [i for i, q in enumerate(questions) if q.family in ANSWERABLE]
    updates = [i for i, q in enumerate(questions) if q.family == "knowledge-update"]
    table["never-said"] = {
        "abstained": _mean(run.abstained[i] for i in never),
        "false_refusals": _mean(run.abstained[i] for i in answerable),
        "n": len(never),
    }
    if run.confidences:
        table["never-said"]["confidence"] = abstention_ceiling(
            [run.confidences[i] for i in never], [run.confidences[i] for i in answerable]
        )
    table["update_order"] = {
        "current_first": _mean(
            current_first(run.ranked[i], questions[i].evidence, questions[i].superseded) for i in updates
        ),  # fmt: skip
        "n": len(updates),
    }
    return table


def evidence_searchable(tenant: Tenant, dataset: Dataset, event_of: dict[int, str]) -> dict:
    """How many evidence turns the store holds as a live memory of their own (none folded into another turn, none
    superseded): what a perfect ranking could reach."""
    live = set(Memory.objects.filter(tenant=tenant, pk__in=list(event_of)).live().values_list("pk", flat=True))
    stored = {event_of[pk] for pk in live}
    wanted = {event_id for q in dataset.questions for event_id in q.evidence}
    return {"live": len(wanted & stored), "evidence": len(wanted)}


def evaluate(
    dataset: Dataset,
    *,
    configs: Sequence[str] = tuple(ARM_CONFIGS),
    slug: str = SLUG,
    keep: bool = False,
    quiet: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> dict:
    """Ingest the half, ask every question in every configuration, score: the report of one run (the tenant is
    deleted afterwards unless ``keep``)."""
    started = time.perf_counter()
    tenant = tenant_for(dataset, slug=slug)
    try:
        event_of, ingest_stats = ingest(tenant, dataset, quiet=quiet)
        log(f"ingested {ingest_stats['turns']} turns as {ingest_stats['memories']} memories")
        ingest_stats["evidence_searchable"] = evidence_searchable(tenant, dataset, event_of)
        questions = dataset.questions
        searched = time.perf_counter()
        runs: dict[str, Run] = {BASELINE: run_baseline(dataset, questions, set(event_of.values()), speaker=False)}
        for name in configs:
            runs[name] = run_config(
                tenant, questions, event_of, ARM_CONFIGS[name], synthesize=name == "full", desc=name, quiet=quiet
            )
        search_s = time.perf_counter() - searched
    finally:
        if not keep:
            tenant.delete()
    return {
        "half": dataset.half,
        "seed": dataset.seed,
        "calibration": calibration(dataset),
        "ingest": ingest_stats,
        "table": {name: score(questions, run) for name, run in runs.items()},
        "latency": {
            name: {"p50_ms": round(percentile(run.latencies, 50), 1), "p95_ms": round(percentile(run.latencies, 95), 1)}
            for name, run in runs.items()
        },
        "seconds": {"search": round(search_s, 1), "total": round(time.perf_counter() - started, 1)},
    }


def pooled(reports: Sequence[dict]) -> dict:
    """One report over the runs of several seeds of a half, as if their questions had been asked in one run: each
    figure the mean over all the seeds' questions (each seed's mean weighted by its count), ingest summed, latency
    the mean of the seeds' percentiles. One seed's chats are only one draw from the half's people and statements: a
    choice made on one seed's questions can fit that draw; over several, it has to hold for the half."""
    first = reports[0]
    if len(reports) == 1:
        return first

    def weighted(rows: Sequence[dict], keys: Sequence[str]) -> dict:
        n = sum(row["n"] for row in rows)
        return {key: round(sum(row[key] * row["n"] for row in rows) / n, 3) if n else 0.0 for key in keys} | {"n": n}

    def table_of(name: str) -> dict:
        rows = [report["table"][name] for report in reports]
        table = {group: weighted([row[group] for row in rows], ("r5", "r10", "mrr")) for group in GROUPS}
        never = [row["never-said"] for row in rows]
        answerable = sum(row["answerable"]["n"] for row in rows)  # false refusals are a share of these
        refused = sum(row["never-said"]["false_refusals"] * row["answerable"]["n"] for row in rows)
        table["never-said"] = weighted(never, ("abstained",)) | {
            "false_refusals": round(refused / answerable, 3) if answerable else 0.0
        }
        table["update_order"] = weighted([row["update_order"] for row in rows], ("current_first",))
        return table

    calibrations = [report["calibration"] for report in reports]
    stats = ("bm25_r5", "bm25_r10", "shared_word")
    calibration_pooled = {
        "half": first["half"],
        **{key: sum(c[key] for c in calibrations) for key in ("conversations", "sessions", "turns", "questions")},
        **weighted(calibrations, stats),
        "families": {
            family: weighted([c["families"][family] for c in calibrations], stats)
            for family in first["calibration"]["families"]
        },
        "paraphrased": weighted([c["paraphrased"] for c in calibrations], stats),
        "echoed": weighted([c["echoed"] for c in calibrations], stats),
        "never_said": sum(c["never_said"] for c in calibrations),
    }
    searchable = [report["ingest"]["evidence_searchable"] for report in reports]
    ingest_keys = ("turns", "memories", "write_s", "embed_s", "links_s")
    return {
        "half": first["half"],
        "seed": ",".join(str(report["seed"]) for report in reports),
        "calibration": calibration_pooled,
        "ingest": {key: round(sum(report["ingest"][key] for report in reports), 2) for key in ingest_keys}
        | {"evidence_searchable": {key: sum(row[key] for row in searchable) for key in ("live", "evidence")}},
        "table": {name: table_of(name) for name in first["table"]},
        "latency": {
            name: {
                key: round(sum(report["latency"][name][key] for report in reports) / len(reports), 1)
                for key in ("p50_ms", "p95_ms")
            }
            for name in first["latency"]
        },
        "seconds": {key: round(sum(report["seconds"][key] for report in reports), 1) for key in ("search", "total")},
    }


# --- report ----------------------------------------------------------------------------------------------------


def format_calibration(report: dict) -> list[str]:
    lines = [
        f"{report['half']}: {report['conversations']} conversations, {report['sessions']} sessions, "
        f"{report['turns']} turns, {report['questions']} questions ({report['n']} answerable, "
        f"{report['never_said']} never said)",
        f"  rank_bm25 over the turns R@5 {report['bm25_r5']:.3f}, R@10 {report['bm25_r10']:.3f}; "
        f"questions sharing a content word with an evidence turn {report['shared_word']:.3f}",
    ]
    for family, row in report["families"].items():
        lines.append(
            f"    {family:<17} n {row['n']:>3}  R@10 {row['bm25_r10']:.3f}  shared word {row['shared_word']:.3f}"
        )
    for group in ("echoed", "paraphrased"):
        row = report[group]
        lines.append(
            f"    {group:<17} n {row['n']:>3}  R@10 {row['bm25_r10']:.3f}  shared word {row['shared_word']:.3f}"
        )
    return lines


def format_report(report: dict) -> str:
    ingest_stats, table = report["ingest"], report["table"]
    lines = [f"realistic conversational set, half {report['half']}, seed {report['seed']}"]
    lines += format_calibration(report["calibration"])
    lines.append(
        f"ingest: {ingest_stats['turns']} turns as {ingest_stats['memories']} memories (evidence turns searchable: "
        f"{ingest_stats['evidence_searchable']['live']} of {ingest_stats['evidence_searchable']['evidence']}); "
        f"write {ingest_stats['write_s']}s,"
        f" embed {ingest_stats['embed_s']}s, links {ingest_stats['links_s']}s; search {report['seconds']['search']}s;"
        f" total {report['seconds']['total']}s"
    )
    lines += ["", "evidence R@5 / R@10 / MRR"]
    lines.append(f"{'config':<12}" + "".join(f"{group:<22}" for group in GROUPS))
    for name, row in table.items():
        lines.append(
            f"{name:<12}" + "".join(f"{row[g]['r5']:.3f}/{row[g]['r10']:.3f}/{row[g]['mrr']:.3f}   " for g in GROUPS)
        )
    counts = table[BASELINE]
    lines.append("n: " + ", ".join(f"{group} {counts[group]['n']}" for group in GROUPS))
    base = table[BASELINE]["answerable"]
    lines += ["", "answerable, ratio to rank_bm25 (R@5 / R@10):"]
    for name, row in table.items():
        answerable = row["answerable"]
        lines.append(
            f"  {name:<12} {answerable['r5'] / base['r5'] if base['r5'] else 0:.2f}x / "
            f"{answerable['r10'] / base['r10'] if base['r10'] else 0:.2f}x"
        )
    lines += ["", "never said: abstained / false refusals / confidence AUC; knowledge update: later statement first"]
    for name, row in table.items():
        never = row["never-said"]
        auc = f"{never['confidence']['auc']:.3f}" if "confidence" in never else "  -  "
        lines.append(
            f"  {name:<12} {never['abstained']:.3f} / {never['false_refusals']:.3f} / {auc}; "
            f"{row['update_order']['current_first']:.3f}"
        )
    lines.append(
        "latency p50/p95 ms: " + ", ".join(f"{n} {v['p50_ms']}/{v['p95_ms']}" for n, v in report["latency"].items())
    )
    return "\n".join(lines)
