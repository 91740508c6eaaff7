"""Gap analysis: what ranked rows do not cover — stale entities, unknown query terms, contradictions — and a
confidence score derived from them. Pure: no Django, no DB.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from memories.textsim import polarity_signature, signatures_are_twins
from retrieval.synthesis.types import SourceRow
from retrieval.text import GAP_STOPWORDS

_CONTRADICTION_ROWS = 50  # pairwise check is quadratic; the API caps top_k at 50 anyway


@dataclass(frozen=True)
class Gaps:
    """What the rows do not cover; see :func:`analyze_gaps` for each field's meaning."""

    stale_entities: tuple[str, ...]
    unknown_terms: tuple[str, ...]
    contradictions: tuple[tuple[int, int], ...]
    confidence: float


_TERM_RE = re.compile(r"[^\W_]+")  # letters and digits: "on-call" → on, call; "acme's" → acme, s
_CONTRADICTION_PENALTY = 0.75
_STALE_PENALTY = 0.9
_UNKNOWN_SCORE_STRENGTH = 0.5


def _significant_terms(query: str) -> list[str]:
    terms: list[str] = []
    for term in _TERM_RE.findall(query.casefold()):
        if len(term) >= 3 and term not in GAP_STOPWORDS and term not in terms:
            terms.append(term)
    return terms


def _term_is_covered(term: str, vocabulary: set[str]) -> bool:
    if term in vocabulary:
        return True
    # Word-prefix either way: "deploy" covers "deployment"; "deployments" is covered by "deploy". The shorter
    # side must be at least 4 characters in the second case so that "cat" does not cover "category".
    return any(word.startswith(term) or (len(word) >= 4 and term.startswith(word)) for word in vocabulary)


def _confidence(
    *, has_rows: bool, top_score: float | None, terms: int, unknown: int, contradictions: int, stale: int
) -> float:
    if not has_rows:
        return 0.0
    if top_score is None or not math.isfinite(top_score):
        strength = _UNKNOWN_SCORE_STRENGTH
    else:
        strength = min(1.0, max(0.0, top_score))
    coverage = 1.0 if terms == 0 else 1.0 - unknown / terms
    value = strength * (0.5 + 0.5 * coverage) * _CONTRADICTION_PENALTY**contradictions
    if stale:
        value *= _STALE_PENALTY
    return round(min(1.0, max(0.0, value)), 4)


def analyze_gaps(
    *,
    query: str,
    rows: Sequence[SourceRow],
    entity_last_seen: Mapping[str, datetime],
    now: datetime,
    top_score: float | None,
    stale_after_days: int = 30,
) -> Gaps:
    """Gaps in what ``rows`` say about ``query``.

    - ``stale_entities``: names in ``entity_last_seen`` (entity → its newest memory's time) older than
      ``stale_after_days`` before ``now`` (strictly), oldest first, then by name case-insensitively.
    - ``unknown_terms``: the query's significant terms (case-folded letter/digit runs of 3+ characters, not
      stopwords, first-occurrence order) that no row's title or content covers; a term is covered by a row
      word equal to it, starting with it, or (4+ characters) that it starts with.
    - ``contradictions``: ``(negated_id, affirmative_id)`` for row contents that are polarity twins
      (``memories.textsim.polarity_twins``), in row order, over the first 50 distinct rows.
    - ``confidence`` in [0, 1], rounded to 4 places: 0.0 with no rows, else
      ``strength × (0.5 + 0.5 × coverage) × 0.75^contradictions × (0.9 if any stale entity)``, where
      ``strength = clamp(top_score, 0, 1)`` (0.5 when ``top_score`` is None) and ``coverage`` is the share of
      significant terms covered (1.0 when the query has none).
    """
    stale_cutoff = now - timedelta(days=stale_after_days)
    stale = sorted(
        ((seen, name) for name, seen in entity_last_seen.items() if seen < stale_cutoff),
        key=lambda item: (item[0], item[1].casefold()),
    )
    stale_entities = tuple(name for _, name in stale)

    terms = _significant_terms(query)
    vocabulary: set[str] = set()
    for row in rows:
        vocabulary.update(_TERM_RE.findall(f"{row.title} {row.content}".casefold()))
    unknown_terms = tuple(term for term in terms if not _term_is_covered(term, vocabulary))

    distinct: list[SourceRow] = []
    seen_ids: set[int] = set()
    for row in rows:
        if row.memory_id not in seen_ids:
            seen_ids.add(row.memory_id)
            distinct.append(row)
    distinct = distinct[:_CONTRADICTION_ROWS]
    signatures = [polarity_signature(row.content) for row in distinct]
    contradictions: list[tuple[int, int]] = []
    for i, first in enumerate(distinct):
        for j in range(i + 1, len(distinct)):
            if signatures_are_twins(signatures[i], signatures[j]):
                second = distinct[j]
                negated, affirmative = (first, second) if signatures[i][0] else (second, first)
                contradictions.append((negated.memory_id, affirmative.memory_id))

    confidence = _confidence(
        has_rows=bool(rows),
        top_score=top_score,
        terms=len(terms),
        unknown=len(unknown_terms),
        contradictions=len(contradictions),
        stale=len(stale_entities),
    )
    return Gaps(
        stale_entities=stale_entities,
        unknown_terms=unknown_terms,
        contradictions=tuple(contradictions),
        confidence=confidence,
    )
