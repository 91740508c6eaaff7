"""Measuring answers: does the deterministic answer quote the fact? Pure parts of ``eval_answers`` (no Django).

For each question the memories are ranked by rank_bm25 (so the figures do not depend on the search code; a
``rank`` callable can replace it), the top rows are given to the extractive scorer
(:mod:`retrieval.synthesis.extractive`) and to today's numbered list of titles
(:func:`retrieval.synthesis.cited_list_answer`), and each answer text is checked for the gold:

- **own set** (tests/retrieval/extractive_answers.json): the gold answer span, case-insensitively;
- **world-v1** template questions: the name of a gold entity (the title of a gold page);
- **associative-recall-v1** dev probes (indirect and direct): the text of a required evidence span — strictly
  (the whole span inside the quoted sentences) and loosely (80 % of the span's words present).

It also reports the abstention features' AUROC (answerable questions against questions answered nowhere: the
own set's negatives, and associative-recall's negative probes, over the pages a member may see), the same per
answerable family against the set's negatives (associative-recall's direct and indirect probes), and a logistic
calibration fitted on the own set's development half.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.evaluation import Bm25Baseline, bm25_tokens, build_questions, load_associative_recall, load_pages
from retrieval.synthesis import cited_list_answer
from retrieval.synthesis.extractive import Embed, LogisticCalibrator, extract, fit_logistic
from retrieval.synthesis.types import SourceRow

OWN_SET = Path(__file__).resolve().parent.parent / "tests" / "retrieval" / "extractive_answers.json"
ROWS = 5  # visible top rows given to both answers (the list answer shows five)
FEATURES = ("best_score", "best_overlap", "bm25_share")
_EPOCH = __import__("datetime").datetime(2026, 1, 1)

Ranker = Callable[[str, int], list[int]]  # (question, k) -> indexes of the ranked memories


@dataclass(frozen=True)
class Doc:
    key: str
    title: str
    content: str


@dataclass(frozen=True)
class Case:
    """One question: the gold strings (any one found counts), whether it is answerable, and its half."""

    question: str
    gold: tuple[str, ...]
    answerable: bool
    split: str = "dev"
    family: str = ""


@dataclass
class Tally:
    n: int = 0
    extractive: int = 0
    extractive_loose: int = 0
    title_list: int = 0
    retrieved: int = 0  # a gold string appears somewhere in the rows' contents (the ceiling)

    def as_dict(self) -> dict:
        share = (lambda x: round(x / self.n, 4)) if self.n else (lambda x: 0.0)
        return {
            "n": self.n,
            "extractive": share(self.extractive),
            "extractive_loose": share(self.extractive_loose),
            "title_list": share(self.title_list),
            "gold_in_rows": share(self.retrieved),
        }


@dataclass
class Result:
    tallies: dict[str, Tally] = field(default_factory=dict)
    # (set, features, answerable, split, family)
    features: list[tuple[str, dict, bool, str, str]] = field(default_factory=list)
    examples: list[dict] = field(default_factory=list)


def _normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    return " ".join(text.split())


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", _normal(text))


def contains(answer: str, gold: str) -> bool:
    return _normal(gold) in _normal(answer)


def mostly_contains(answer: str, gold: str, share: float = 0.8) -> bool:
    words = _words(gold)
    present = set(_words(answer))
    return bool(words) and sum(w in present for w in words) / len(words) >= share


class Bm25Ranker:
    """rank_bm25 over ``title + content`` of the docs; also the best score's share of the most a document could
    score for the question (each query term's IDF times (k1 + 1)), an abstention feature."""

    def __init__(self, docs: Sequence[Doc]) -> None:
        self.baseline = Bm25Baseline(list(range(len(docs))), [f"{d.title}\n{d.content}" for d in docs])

    def __call__(self, question: str, k: int) -> list[int]:
        return self.baseline.search(question, k=k)

    def share(self, question: str) -> float:
        index = self.baseline.index
        tokens = bm25_tokens(question)
        scores = index.get_scores(tokens)
        ceiling = sum(max(index.idf.get(t, 0.0), 0.0) for t in set(tokens)) * (index.k1 + 1)
        return float(max(scores) / ceiling) if ceiling > 0 and len(scores) else 0.0


def run_cases(
    name: str,
    docs: Sequence[Doc],
    cases: Sequence[Case],
    result: Result,
    *,
    ranker: Ranker | None = None,
    embed: Embed | None = None,
    rows_k: int = ROWS,
    keep_examples: int = 0,
) -> None:
    bm25 = Bm25Ranker(docs)
    rank = ranker or bm25
    for case in cases:
        ranked = rank(case.question, rows_k)
        rows = [SourceRow(memory_id=i, title=docs[i].title, content=docs[i].content, created_at=_EPOCH) for i in ranked]
        extracted = extract(case.question, rows, embed=embed) if rows else None
        answer = extracted.answer.text if extracted else ""
        features = {
            "best_score": extracted.best_score if extracted else 0.0,
            "best_overlap": extracted.best_overlap if extracted else 0.0,
            "best_cosine": extracted.best_cosine if extracted else None,
            "bm25_share": bm25.share(case.question),
        }
        result.features.append((name, features, case.answerable, case.split, case.family))
        if not case.answerable:
            continue
        listed = cited_list_answer(rows=rows).text if rows else ""
        contents = " ".join(row.content for row in rows)
        halves = (f"{name}/{case.split}",) if case.split != "all" else ()
        for key in (name, *halves) + ((f"{name}/{case.family}",) if case.family else ()):
            tally = result.tallies.setdefault(key, Tally())
            tally.n += 1
            tally.extractive += any(contains(answer, g) for g in case.gold)
            tally.extractive_loose += any(mostly_contains(answer, g) for g in case.gold)
            tally.title_list += any(contains(listed, g) for g in case.gold)
            tally.retrieved += any(contains(contents, g) for g in case.gold)
        if len(result.examples) < keep_examples and case.split == "dev":
            result.examples.append({"set": name, "question": case.question, "gold": case.gold[0], "answer": answer})


def cached(embed: Embed) -> Embed:
    """``embed`` with a cache by text: the same sentences recur across a set's questions."""
    memo: dict[str, Sequence[float]] = {}

    def embed_cached(texts: Sequence[str]) -> list[Sequence[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in memo))
        if missing:
            memo.update(zip(missing, embed(missing), strict=True))
        return [memo[t] for t in texts]

    return embed_cached


# --- the sets -----------------------------------------------------------------------------------------------------


def own_set(path: Path = OWN_SET) -> tuple[list[Doc], list[Case]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    docs = [Doc(key=m["id"], title=m["title"], content=m["content"]) for m in data["memories"]]
    cases = [
        Case(
            question=q["question"],
            gold=(q["span"],) if q["span"] else (),
            answerable=q["memory"] is not None,
            split=q["split"],
        )
        for q in data["questions"]
    ]
    return docs, cases


def world_set(folder: Path) -> tuple[list[Doc], list[Case]]:
    pages, facts = load_pages(folder)
    title_of = {page.slug: page.title for page in pages}
    docs = [Doc(key=page.slug, title=page.title, content=page.text) for page in pages]
    cases = [
        Case(
            question=q.text,
            gold=tuple(sorted(title_of[slug] for slug in q.gold)),
            answerable=True,
            split="all",
            family=q.family,
        )
        for q in build_questions(pages, facts)
    ]
    return docs, cases


def recall_set(folder: Path) -> tuple[list[Doc], list[Case]]:
    """The pages a member may see (public only: private pages belong to someone else, withdrawn ones are deleted)
    and the development probes; a negative probe is a question answered nowhere visible."""
    pages, probes = load_associative_recall(folder)
    spans = json.loads((folder / "qrels.json").read_text(encoding="utf-8"))["spans"]
    raw_probes = {p["id"]: p for p in json.loads((folder / "probes.json").read_text(encoding="utf-8"))["probes"]}
    span_text = {span["id"]: span["text"] for span in spans}
    docs = [Doc(key=p.key, title=p.title, content=p.text) for p in pages if p.visibility == "public"]
    cases = []
    for probe in probes:
        gold = tuple(span_text[s] for s in raw_probes[probe.probe_id].get("required_span_ids") or [])
        cases.append(
            Case(
                question=probe.text,
                gold=gold,
                answerable=probe.kind != "negative" and bool(gold),
                split="all",
                family=probe.kind,
            )
        )
    return docs, cases


# --- abstention ---------------------------------------------------------------------------------------------------


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """The probability that a random answerable question scores above a random unanswerable one (ties half)."""
    positives = [s for s, label in zip(scores, labels, strict=True) if label]
    negatives = [s for s, label in zip(scores, labels, strict=True) if not label]
    if not positives or not negatives:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return round(wins / (len(positives) * len(negatives)), 4)


def abstention_report(result: Result, *, refuse_share: float = 0.05) -> dict:
    """Each feature's AUROC per set, a logistic calibration fitted on the own set's dev half and its AUROC on
    every set, and the operating point: the threshold refusing at most ``refuse_share`` of the fit's answerable
    questions, with the share of negatives it refuses on each set."""
    report: dict = {"features": {}, "calibrated": {}}
    sets = sorted({name for name, *_ in result.features})
    names = list(FEATURES) + (
        ["best_cosine"] if any(f["best_cosine"] is not None for _, f, *_ in result.features) else []
    )
    for name in sets:
        subset = [(f, a) for n, f, a, *_ in result.features if n == name]
        report["features"][name] = {
            feature: auroc([float(f.get(feature) or 0.0) for f, _ in subset], [a for _, a in subset])
            for feature in names
        }
    report["by_family"] = _by_family(result, names)
    fit_rows = [(f, a) for n, f, a, split, _ in result.features if n == "own" and split == "dev"]
    if not fit_rows or len({a for _, a in fit_rows}) < 2:
        return report
    model = fit_logistic([f for f, _ in fit_rows], [a for _, a in fit_rows], names=names)
    report["model"] = {"names": model.names, "weights": [round(w, 4) for w in model.weights],
                       "intercept": round(model.intercept, 4)}  # fmt: skip
    answerable_scores = sorted(model.confidence(f) for f, a in fit_rows if a)
    cut = answerable_scores[max(0, math.floor(refuse_share * len(answerable_scores)) - 1)] if answerable_scores else 0
    threshold = cut - 1e-9 if refuse_share > 0 else 0.0
    report["threshold"] = round(threshold, 4)
    for name, split in [("own", "dev"), ("own", "held"), *((n, None) for n in sets if n != "own")]:
        subset = [(f, a) for n, f, a, s, _ in result.features if n == name and (split is None or s == split)]
        if not subset:
            continue
        scores = [model.confidence(f) for f, _ in subset]
        labels = [a for _, a in subset]
        key = f"{name}/{split}" if split else name
        positives = [s for s, a in zip(scores, labels, strict=True) if a]
        negatives = [s for s, a in zip(scores, labels, strict=True) if not a]
        report["calibrated"][key] = {
            "auroc": auroc(scores, labels),
            "answerable_refused": round(sum(s < threshold for s in positives) / len(positives), 4)
            if positives
            else None,
            "negatives_refused": round(sum(s < threshold for s in negatives) / len(negatives), 4)
            if negatives
            else None,
            "n_answerable": len(positives),
            "n_negative": len(negatives),
        }
    return report


def _by_family(result: Result, names: Sequence[str]) -> dict:
    """Each feature's AUROC of one answerable family against all of its set's unanswerable questions, for sets whose
    questions carry families and unanswerable ones (associative-recall: direct and indirect probes against the
    negatives). A feature can separate one family well and invert on another: indirect probes share few words with
    their evidence, while a negative asks an absent attribute of a topic that is present."""
    report: dict = {}
    for name in sorted({n for n, *_ in result.features}):
        rows = [(f, a, family) for n, f, a, _, family in result.features if n == name]
        negatives = [f for f, a, _ in rows if not a]
        families = sorted({family for _, a, family in rows if a and family})
        if not negatives or not families:
            continue
        for family in families:
            positives = [f for f, a, fam in rows if a and fam == family]
            subset = [(f, True) for f in positives] + [(f, False) for f in negatives]
            report.setdefault(name, {})[family] = {
                feature: auroc([float(f.get(feature) or 0.0) for f, _ in subset], [a for _, a in subset])
                for feature in names
            }
    return report


def calibrator_from(report: dict) -> LogisticCalibrator | None:
    model = report.get("model")
    if not model:
        return None
    return LogisticCalibrator(
        names=tuple(model["names"]), weights=tuple(model["weights"]), intercept=model["intercept"]
    )


def format_report(result: Result, abstention: dict, *, seconds: float) -> str:
    header = f"{'set':32s} {'n':>5s} {'extractive':>11s} {'(loose)':>8s} {'title list':>11s} {'gold in rows':>13s}"
    lines = ["Answers that quote the fact: share of answerable questions whose answer text holds the gold", header]
    for key in sorted(result.tallies):
        t = result.tallies[key].as_dict()
        lines.append(
            f"{key:32s} {t['n']:5d} {t['extractive']:11.3f} {t['extractive_loose']:8.3f} {t['title_list']:11.3f} "
            f"{t['gold_in_rows']:13.3f}"
        )
    lines.append("")
    lines.append("Abstention: AUROC of each feature (answerable vs answered nowhere)")
    for name, aurocs in abstention.get("features", {}).items():
        lines.append(f"  {name:10s} " + "  ".join(f"{k}={v}" for k, v in aurocs.items()))
    for name, families in abstention.get("by_family", {}).items():
        for family, aurocs in families.items():
            lines.append(f"  {name + '/' + family:10s} " + "  ".join(f"{k}={v}" for k, v in aurocs.items()))
    if "model" in abstention:
        lines.append(f"Logistic fit on own/dev: {abstention['model']}; threshold {abstention['threshold']}")
        for key, row in abstention["calibrated"].items():
            lines.append(f"  {key:12s} {row}")
    lines.append(f"({seconds:.1f} s)")
    return "\n".join(lines)
