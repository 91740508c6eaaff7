"""Abstention: whether anything a search found is relevant to the question (``no_relevant_memory``) and how sure
it is (``confidence``). Pure: it sees only numbers the search already computed, never the database.

Typed edges that answered are evidence enough; otherwise the decision reads the best BM25 score of the visible
candidates the arms found (on the page or not) as a share of what the query's known terms allow, and their best
chunk cosine.
"""

from __future__ import annotations

from dataclasses import dataclass

# Nothing visible is judged relevant when no typed edge answered, the best BM25 score reaches less than this share
# of the best score the query's known terms allow, and the best chunk cosine is below NO_RELEVANT_COSINE. A
# conservative point: the thresholds that catch the most associative-recall negatives also refused many of
# eval_recall's on-topic tasks on the short demo memories; these still catch clearly unrelated questions and almost
# never an on-topic one (bench/HISTORY.md has both operating points).
NO_RELEVANT_BM25_SHARE = 0.3
NO_RELEVANT_COSINE = 0.3


@dataclass(frozen=True)
class Signals:
    """What the search measured about its visible hits."""

    hits: int  # visible hits on the page
    answered: bool = False  # typed edges reached an answer
    bm25_share: float = 0.0  # best visible BM25 / the query's ceiling, scaled by the share of known query lexemes
    cosine: float = 0.0  # best visible chunk cosine


def bm25_share(*, best: float, ceiling: float, query_lexemes: int, known_lexemes: int) -> float:
    """The best BM25 score as a share of the best the query's terms allow, scaled by how many of them are known."""
    if ceiling <= 0 or not query_lexemes:
        return 0.0
    return min(1.0, best / ceiling) * known_lexemes / query_lexemes


def decide(signals: Signals) -> tuple[float, bool]:
    """(confidence in [0, 1], no_relevant_memory)."""
    if not signals.hits:
        return 0.0, True
    if signals.answered:
        return 1.0, False
    confidence = max(signals.bm25_share / (2 * NO_RELEVANT_BM25_SHARE), signals.cosine / (2 * NO_RELEVANT_COSINE))
    no_relevant = signals.bm25_share < NO_RELEVANT_BM25_SHARE and signals.cosine < NO_RELEVANT_COSINE
    return round(min(1.0, confidence), 3), no_relevant
