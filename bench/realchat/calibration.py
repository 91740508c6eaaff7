"""The two statistics the realistic set is calibrated on, computed on its texts alone (pure, no database):

- ``bm25_r10``: a plain rank_bm25 (``BM25Okapi`` over each conversation's turn texts, the baseline of every
  benchmark here) — per answerable question, the share of its evidence turns in the top 10, averaged;
- ``shared_word``: the share of answerable questions that have a content word (not a stop word, not a speaker's
  name) in common with one of their evidence turns.

On public multi-session chat benchmarks a plain BM25 over turns reaches roughly R@10 0.5–0.65 and most questions
share a content word with an evidence turn; the bands below hold the set there (tests/bench/test_realchat.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bench.evaluation import Bm25Baseline
from bench.realchat.generator import ANSWERABLE, Dataset, Question

BAND_BM25_R10 = (0.50, 0.65)
BAND_SHARED_WORD = (0.70, 0.95)
_WORD_RE = re.compile(r"\w+")
STOP_WORDS = frozenset(
    """a about after again all also am an and any are as at be been before being both but by can could d did do
    does doing done for from get gets got had has have having he her here hers him his how i if in into is it its
    just ll m me more most my no not now of on once one or our out over re s she so some still such t than that
    the their them then there these they this those through to too up us ve very was we were what when where
    which while who whom whose why will with would you your yours""".split()
)


def content_words(text: str, names: Iterable[str] = ()) -> set[str]:
    """The lower-cased words of ``text`` that are neither stop words nor one of ``names``."""
    skip = STOP_WORDS | {word for name in names for word in _WORD_RE.findall(name.lower())}
    return {word for word in _WORD_RE.findall(text.lower()) if word not in skip}


def _answerable(dataset: Dataset) -> list[Question]:
    return [q for q in dataset.questions if q.family in ANSWERABLE]


def shares_a_word(dataset: Dataset) -> dict[str, bool]:
    """Per answerable question id: whether it has a content word in common with one of its evidence turns."""
    events = dataset.events_by_id()
    speakers = {c.conversation_id: c.speakers for c in dataset.conversations}
    out = {}
    for question in _answerable(dataset):
        names = speakers[question.conversation_id]
        asked = content_words(question.text, names)
        out[question.id] = any(asked & content_words(events[i]["text"], names) for i in question.evidence)
    return out


def bm25_ranked(dataset: Dataset, k: int = 10) -> dict[str, list[str]]:
    """Per question id: the event ids rank_bm25 ranks first over its conversation's turn texts."""
    indexes = {}
    for chat in dataset.conversations:
        events = [e for s in chat.sessions for e in s.events]
        indexes[chat.conversation_id] = Bm25Baseline([e["id"] for e in events], [e["text"] for e in events])
    return {q.id: indexes[q.conversation_id].search(q.text, k=k) for q in dataset.questions}


def _recall(ranked: list[str], evidence: tuple[str, ...], k: int) -> float:
    return len(set(ranked[:k]) & set(evidence)) / len(evidence)


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def calibration(dataset: Dataset) -> dict:
    """The set's size and both statistics, overall and per family (and for the paraphrased questions alone)."""
    ranked = bm25_ranked(dataset, k=10)
    shared = shares_a_word(dataset)
    answerable = _answerable(dataset)

    def row(questions: list[Question]) -> dict:
        return {
            "n": len(questions),
            "bm25_r5": _mean([_recall(ranked[q.id], q.evidence, 5) for q in questions]),
            "bm25_r10": _mean([_recall(ranked[q.id], q.evidence, 10) for q in questions]),
            "shared_word": _mean([float(shared[q.id]) for q in questions]),
        }

    turns = sum(len(s.events) for c in dataset.conversations for s in c.sessions)
    return {
        "half": dataset.half,
        "conversations": len(dataset.conversations),
        "sessions": sum(len(c.sessions) for c in dataset.conversations),
        "turns": turns,
        "questions": len(dataset.questions),
        **row(answerable),
        "families": {f: row([q for q in answerable if q.family == f]) for f in ANSWERABLE},
        "paraphrased": row([q for q in answerable if q.paraphrased]),
        "echoed": row([q for q in answerable if not q.paraphrased]),
        "never_said": sum(q.family == "never-said" for q in dataset.questions),
    }


def in_band(report: dict) -> bool:
    """Both statistics inside their bands."""
    low, high = BAND_BM25_R10
    shared_low, shared_high = BAND_SHARED_WORD
    return low <= report["bm25_r10"] <= high and shared_low <= report["shared_word"] <= shared_high
