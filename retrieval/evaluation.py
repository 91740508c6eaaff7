"""Pure parts of the retrieval benchmark (world-v1 protocol, shared/bench/README.md): pages, questions, metrics.

No Django: the management command ``eval_retrieval`` loads the pages, runs the searches and calls these.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

K = 5


@dataclass(frozen=True)
class Page:
    slug: str
    type: str
    title: str
    text: str  # compiled_truth + timeline: what is ingested (never _facts)


@dataclass(frozen=True)
class Question:
    family: str  # attended | works_at | invested_in | advises
    text: str
    gold: frozenset[str]


def load_pages(directory: Path) -> tuple[list[Page], dict[str, dict]]:
    """The pages (to ingest) and their ``_facts`` (the answer key, only for building questions)."""
    pages, facts = [], {}
    for path in sorted(directory.glob("*.json")):
        if path.name.startswith("_"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        text = (data.get("compiled_truth") or "").strip()
        timeline = data.get("timeline") or ""
        if isinstance(timeline, list):  # a few pages store the timeline as a list of lines
            timeline = "\n".join(str(line) for line in timeline)
        timeline = timeline.strip()
        if timeline:
            text = f"{text}\n\n{timeline}"
        pages.append(Page(slug=data["slug"], type=data.get("type", ""), title=data["title"], text=text))
        facts[data["slug"]] = data.get("_facts") or {}
    return pages, facts


def build_questions(pages: Sequence[Page], facts: dict[str, dict]) -> list[Question]:
    """The protocol's questions; gold keeps only slugs that exist as pages; empty gold is skipped."""
    known = {page.slug for page in pages}
    questions = []

    def add(family: str, text: str, slugs) -> None:
        gold = frozenset(slug for slug in slugs or [] if slug in known)
        if gold:
            questions.append(Question(family=family, text=text, gold=gold))

    for page in pages:
        page_facts = facts.get(page.slug, {})
        if page.type == "meeting":
            add("attended", f"Who attended {page.title}?", page_facts.get("attendees"))
        elif page.type == "company":
            employees = list(page_facts.get("employees") or []) + list(page_facts.get("founders") or [])
            add("works_at", f"Who works at {page.title}?", employees)
            add("invested_in", f"Who invested in {page.title}?", page_facts.get("investors"))
            add("advises", f"Who advises {page.title}?", page_facts.get("advisors"))
    return questions


@dataclass(frozen=True)
class Scores:
    p_at_k: float
    r_at_k: float
    mrr: float
    n: int


def score(ranked: Sequence[Sequence[str]], questions: Sequence[Question], k: int = K) -> Scores:
    """P@k with a fixed denominator k, R@k (share of gold in the top k), MRR over the whole ranked list."""
    if not questions:
        return Scores(0.0, 0.0, 0.0, 0)
    p = r = rr = 0.0
    for slugs, question in zip(ranked, questions, strict=True):
        top = list(dict.fromkeys(slugs))[:k]
        hits = sum(1 for slug in top if slug in question.gold)
        p += hits / k
        r += hits / len(question.gold)
        rank = next((i for i, slug in enumerate(dict.fromkeys(slugs), start=1) if slug in question.gold), None)
        rr += 1.0 / rank if rank else 0.0
    n = len(questions)
    return Scores(p / n, r / n, rr / n, n)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 100]) of a non-empty sequence."""
    ordered = sorted(values)
    index = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[index]
