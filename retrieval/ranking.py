"""Fusion and ranking math for search (ARCHITECTURE, "Search path") — pure: no Django, no database, plain floats.

Pipeline of :func:`rank`:

1. RRF over the arms: ``Σ_arm w_arm / (k + rank)``, ranks 0-based, each arm a list of memory ids best first; when
   the caller gives the keyword rows' BM25 shares, the keyword and vector lists first become one list ordered by
   a score on absolute scales (score fusion, ``SCORE_FUSION_KEYWORD``);
2. normalise by the best RRF score (the best row gets 1.0);
3. ``base = (1 - 0.3·f)·rrf_norm + 0.3·f·cosine`` (best-chunk cosine from the vector arm, 0.0 when it did not see
   the row), where ``f = 1 - keyword_trust · keyword_confidence`` also scales the vector arm's RRF weight: the
   more of its possible BM25 score the keyword arm's best row reached, the less the vectors count (in a score-fused
   pool of session turns ``turn_keyword_trust`` stands for ``keyword_trust``: 0, the vectors keep their say);
4. ``post_tier = base × tier_boost[level] × participant × date_window × phatic × third_party`` (unknown level →
   1.0; ``participant_boost`` for rows by or about someone the question names, ``date_window_boost`` for rows dated
   in the question's window, ``phatic_factor`` for session turns of fewer than ``phatic_words`` content words,
   ``third_party_factor`` for turns about someone other than their speaker when the question asks about a
   participant; else 1.0);
5. ``floor = floor_ratio × max(post_tier)``, computed once; only rows with ``post_tier ≥ floor`` get the
   bounded boosts recency × title, rows below keep ``post_tier`` (so a weak row can never be lifted past a
   strong one by freshness alone);
6. dedup by content hash (the best-scoring copy wins), sort by score desc then memory id asc;
7. a *lead arm* (``config.lead_arm``, set when the relational arm answered with typed edges) puts its rows
   first, in its own order: when the graph knows the answer, fusion must not rank it below the other arms;
8. optional autocut at the largest normalised score gap, then truncation to ``top_k``.

No popularity loop: nothing a search itself writes feeds back into ranking. Recency counts from the memory's
creation (not from its last access), and access counts are recorded (for stale-entity and dashboard figures)
but not used as a boost — measured, a boost on them lets the rows a question returned outrank better ones the
next time it is asked, so a repeated evaluation drifted (bench/HISTORY.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from retrieval.text import name_words

__all__ = [
    "DESIGN_TIER_BOOST",
    "DEFAULT_ARM_WEIGHTS",
    "DEFAULT_TIER_BOOST",
    "Candidate",
    "Ranked",
    "RankingConfig",
    "autocut",
    "rank",
    "recency_boost",
    "rrf_scores",
    "title_matches",
]

# The design's tier cascade (DESIGN_TIER_BOOST), applied at TIER_STRENGTH: each default is its value raised to
# that power, rounded (team 0.97, division 0.93, country 0.91, corporate 0.9, org 0.88). The strength was chosen on the
# development half of generated multi-level corpora (``tune_fusion``, bench/HISTORY.md): at full strength an org
# fact lost many places of relevance to a user one (normalised RRF falls slowly over its ranks), and the search
# fell below a plain rank_bm25 on such data. A closer scope still wins among comparably relevant
# memories (within ~8 places for org vs user); a policy's overrides are taken as written.
DESIGN_TIER_BOOST: Mapping[str, float] = MappingProxyType(
    {"user": 1.0, "team": 0.9, "division": 0.75, "country": 0.7, "corporate": 0.65, "org": 0.6}
)
TIER_STRENGTH = 0.25
# Read-only so that no caller can change the defaults for every later request by mutating them.
DEFAULT_TIER_BOOST: Mapping[str, float] = MappingProxyType(
    {level: round(value**TIER_STRENGTH, 2) for level, value in DESIGN_TIER_BOOST.items()}
)
# Fitted, like every default below that says so, by ``fit_fusion`` on the development halves of the benchmarks:
# coordinate ascent over the numeric tunables of RankingConfig, no set allowed to lose (bench/HISTORY.md). The arm
# weights act where the keyword and vector lists fuse by rank (pages and notes); in
# a pool of session turns the two become one list (score fusion) and weigh their sum. Relative, not absolute: RRF is
# normalised by its best row.
DEFAULT_ARM_WEIGHTS: Mapping[str, float] = MappingProxyType({"keyword": 3.0, "vector": 0.75, "relational": 0.5})

_BASE_COSINE_WEIGHT = 0.3  # of base at a vector factor of 1 (the rest is the normalised RRF)
# How far the keyword arm's confidence (its best BM25 score as a share of the most the query's known terms allow)
# turns the vector arm down: vector weight and cosine share × (1 - KEYWORD_TRUST·confidence). A question whose
# rare words a memory holds is answered by them; one the keyword arm barely matches (a paraphrase) leans on the
# vectors. Chosen with the tier strength above (bench/HISTORY.md).
KEYWORD_TRUST = 1.0
# The same where the keyword and vector lists are score-fused (a pool of session turns): people in a chat re-use
# the words of the day in many turns, so a confident keyword match says less about which turn holds the answer than
# it does in a page or a note, and the vectors keep their full say (the fused order is then the cosine plus the
# keyword share's SCORE_FUSION_KEYWORD). Chosen on both conversational sets' development halves end to end
# (``fit_fusion --params turn_keyword_trust`` for the grid; bench/HISTORY.md).
TURN_KEYWORD_TRUST = 0.0
# Score fusion of the keyword and the vector arm (when the caller gives each keyword row's share): one list ordered
# by ``vector_factor · cosine + (SCORE_FUSION_KEYWORD + 1 - vector_factor) · share`` takes both arms' place in RRF,
# with their summed weight. On the conversational set, RRF over the two lists let a keyword row that matched only
# a common word of a paraphrased question take as much rank share as a real match (fusion scored below the vector arm
# alone); on absolute scores a weak keyword match adds little and a confident one leads. The trade: where both arms
# are strong and agree (associative recall) RRF put the answer first slightly more often (docs/BENCHMARKS.md).
# None: RRF of both lists.
SCORE_FUSION_KEYWORD = 0.2
# Rows dated inside the window a question's time expression names ("last week", "in May 2025"): a bounded boost,
# never a filter, so a wrongly read window cannot hide the answer. Fitted by ``fit_fusion``.
DATE_WINDOW_BOOST = 1.4
# Rows written by, or about, a participant the question names (speakers, authors, linked entities).
PARTICIPANT_BOOST = 1.25
# A session turn with fewer than PHATIC_WORDS content words ("Evening Jon!", "Night night", "How's Fionn getting
# on?") greets, closes or asks; it states no fact, so its score is multiplied by PHATIC_FACTOR, the gentlest
# damping that did as well as stronger ones (bench/HISTORY.md).
PHATIC_WORDS = 3
PHATIC_FACTOR = 0.8
# A session turn about someone other than its speaker ("My cousin changed jobs three times this year";
# retrieval.conversation.third_party), when the question asks about a participant and names no relation: its score is
# multiplied by THIRD_PARTY_FACTOR. Fitted by ``fit_fusion`` on the development halves.
THIRD_PARTY_FACTOR = 0.7
# The question a hit answers (retrieval.conversation.exchanges), ranked at EXCHANGE_SHARE of its hit's score: only
# the first EXCHANGE_REACH hits bring theirs — the answer to a question about a chat is in the exchanges its best hits
# belong to, and the questions behind weaker hits crowd out better ones. Chosen on the realistic set's development
# half (bench/HISTORY.md).
EXCHANGE_REACH = 4
EXCHANGE_SHARE = 0.8
# Only rows at or above the floor (FLOOR_RATIO × the best row's score before recency and title) get the bounded
# recency boost ``1 + RECENCY_MAX · half / (half + days)``, half = RECENCY_HALF_DAYS. Fitted by ``fit_fusion``: on the
# benchmarks' questions a fresher memory was no likelier an answer, and a stronger, steeper boost over more rows
# reordered relevant rows by their age.
FLOOR_RATIO = 0.8
RECENCY_MAX = 0.2
RECENCY_HALF_DAYS = 60.0
_SECONDS_PER_DAY = 86_400.0
# A gap written as 0.2 is computed as 0.19999999999999996 from (1.0, 0.8); the tolerance makes the documented
# threshold mean what it says without letting a 0.19 gap through.
_GAP_EPSILON = 1e-9


@dataclass(frozen=True)
class Candidate:
    """One memory seen by at least one arm, with what ranking needs to know about it."""

    memory_id: int
    content_hash: str
    level: str  # the level of the memory's scope: "user", "team", …
    title: str
    created_at: datetime  # tz-aware
    cosine: float | None = None  # best-chunk cosine from the vector arm; None when that arm did not return it
    turn_words: int | None = None  # an undated session turn's content words (None: not one)


def _frozen_mapping(value: Mapping[str, float], what: str) -> Mapping[str, float]:
    copy = {str(key): float(weight) for key, weight in value.items()}
    for key, weight in copy.items():
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(f"{what}[{key!r}] must be a finite number >= 0, got {weight!r}")
    return MappingProxyType(copy)


@dataclass(frozen=True)
class RankingConfig:
    """Tunables of :func:`rank`; the defaults are the design's (ARCHITECTURE, "Search path"), some of them measured or
    fitted since (``fit_fusion``; the constants above say which).

    Mappings given by the caller are copied into read-only mappings, so later changes to the caller's dicts
    do not leak into a config in use. A policy's tier overrides go through :meth:`with_tier_overrides`.

    Title boost rule (the design's "exact title match"): a row gets ``title_boost`` when its normalised title
    (case-folded, words only, single spaces) equals the normalised query. A looser "title inside the query" rule
    was rejected on world-v1: it lifted the seed's own page above the answers of relationship questions ("who
    works at Acme" boosted the Acme page; bench/HISTORY.md).
    """

    arm_weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_ARM_WEIGHTS)
    rrf_k: int = 60
    tier_boost: Mapping[str, float] = field(default_factory=lambda: DEFAULT_TIER_BOOST)
    floor_ratio: float = FLOOR_RATIO
    recency_max: float = RECENCY_MAX
    recency_half_days: float = RECENCY_HALF_DAYS
    title_boost: float = 1.25
    autocut_min_gap: float = 0.2
    lead_arm: str | None = None
    keyword_trust: float = KEYWORD_TRUST
    turn_keyword_trust: float = TURN_KEYWORD_TRUST
    score_fusion: float | None = SCORE_FUSION_KEYWORD
    participant_boost: float = PARTICIPANT_BOOST
    date_window_boost: float = DATE_WINDOW_BOOST
    phatic_words: int = PHATIC_WORDS
    phatic_factor: float = PHATIC_FACTOR
    third_party_factor: float = THIRD_PARTY_FACTOR
    exchange_reach: int = EXCHANGE_REACH
    exchange_share: float = EXCHANGE_SHARE

    def __post_init__(self) -> None:
        object.__setattr__(self, "arm_weights", _frozen_mapping(self.arm_weights, "arm_weights"))
        object.__setattr__(self, "tier_boost", _frozen_mapping(self.tier_boost, "tier_boost"))
        if self.rrf_k < 1:
            raise ValueError(f"rrf_k must be >= 1, got {self.rrf_k}")
        if not 0.0 <= self.floor_ratio <= 1.0:
            raise ValueError(f"floor_ratio must be within [0, 1], got {self.floor_ratio}")
        if self.recency_max < 0 or self.recency_half_days <= 0:
            raise ValueError("recency_max must be >= 0 and recency_half_days > 0")
        if self.lead_arm is not None and self.lead_arm not in self.arm_weights:
            raise ValueError(f"lead_arm {self.lead_arm!r} is not an arm")
        if self.title_boost < 1.0:
            raise ValueError(f"title_boost must be >= 1, got {self.title_boost}")
        for name in ("keyword_trust", "turn_keyword_trust"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], got {getattr(self, name)}")
        if self.score_fusion is not None and not (math.isfinite(self.score_fusion) and self.score_fusion >= 0):
            raise ValueError(f"score_fusion must be None or a finite number >= 0, got {self.score_fusion}")
        if self.participant_boost < 1.0:
            raise ValueError(f"participant_boost must be >= 1, got {self.participant_boost}")
        if not 1.0 <= self.date_window_boost <= 2.0:
            raise ValueError(f"date_window_boost must be within [1, 2], got {self.date_window_boost}")
        if not 0.0 <= self.phatic_factor <= 1.0:
            raise ValueError(f"phatic_factor must be within [0, 1], got {self.phatic_factor}")
        if not 0.0 <= self.third_party_factor <= 1.0:
            raise ValueError(f"third_party_factor must be within [0, 1], got {self.third_party_factor}")
        if self.phatic_words < 0:
            raise ValueError(f"phatic_words must be >= 0, got {self.phatic_words}")
        if self.exchange_reach < 0:
            raise ValueError(f"exchange_reach must be >= 0, got {self.exchange_reach}")
        if not 0.0 <= self.exchange_share <= 1.0:
            raise ValueError(f"exchange_share must be within [0, 1], got {self.exchange_share}")
        if self.autocut_min_gap < 0:
            raise ValueError(f"autocut_min_gap must be >= 0, got {self.autocut_min_gap}")

    def with_tier_overrides(self, overrides: Mapping[str, float]) -> RankingConfig:
        """A copy whose tier boosts are this config's, with ``overrides`` (a policy's) laid on top."""
        return replace(self, tier_boost={**self.tier_boost, **overrides})


@dataclass(frozen=True)
class Ranked:
    """One ranked result: the memory id, its final score and how that score came about."""

    memory_id: int
    score: float
    explain: Mapping[str, Any]


def rrf_scores(arms: Mapping[str, Sequence[int]], *, weights: Mapping[str, float], k: int = 60) -> dict[int, float]:
    """Reciprocal-rank fusion: ``{memory_id: Σ_arm weights[arm] / (k + rank)}`` with 0-based ranks.

    Contract: every arm name must be in ``weights`` (else ``ValueError``: a misspelt arm would otherwise be
    silently dropped or weighted arbitrarily). An id repeated within one arm counts once, at its best rank.
    Ids only appear in the result if some arm returned them.
    """
    unknown = sorted(set(arms) - set(weights))
    if unknown:
        raise ValueError(f"unknown arm name(s) {unknown}; known: {sorted(weights)}")
    if k < 1:
        raise ValueError(f"k must be >= 1 (k = 0 makes rank 0 infinite), got {k}")
    scores: dict[int, float] = {}
    for arm, ids in arms.items():
        weight = float(weights[arm])
        seen: set[int] = set()
        for position, memory_id in enumerate(ids):
            if memory_id in seen:
                continue
            seen.add(memory_id)
            scores[memory_id] = scores.get(memory_id, 0.0) + weight / (k + position)
    return scores


def recency_boost(*, days: float, config: RankingConfig) -> float:
    """``1 + recency_max · half / (half + days)``, clamped to ``[1, 1 + recency_max]``.

    0 days → 1.2, 60 days → 1.1, very old → 1.0 with the defaults. Negative ``days`` (a timestamp in the
    future, clock skew) counts as 0.
    """
    days = max(0.0, float(days))
    half = config.recency_half_days
    value = 1.0 + config.recency_max * half / (half + days)
    return min(1.0 + config.recency_max, max(1.0, value))


def _title_words(text: str) -> str:
    return " ".join(name_words(text))


def title_matches(*, title: str, query: str) -> bool:
    """The title-boost rule (see :class:`RankingConfig`): the normalised title equals the normalised query."""
    norm_title = _title_words(title)
    return bool(norm_title) and norm_title == _title_words(query)


def autocut(scores: Sequence[float], *, min_gap: float = 0.2) -> int:
    """How many of ``scores`` (sorted descending) to keep: cut at the largest gap of max-normalised scores.

    Contract: empty → 0; otherwise 1..len(scores), never 0. Scores are divided by the maximum; if the largest
    gap between consecutive normalised scores is ``>= min_gap`` (with a 1e-9 float tolerance), keep
    everything before it, else keep all. Ties for the largest gap → the first (highest) one, so the result is
    deterministic. A non-positive maximum (all zero) → keep all. Unsorted input → ``ValueError``.
    """
    n = len(scores)
    if n == 0:
        return 0
    if any(scores[i] < scores[i + 1] for i in range(n - 1)):
        raise ValueError("autocut needs scores sorted in descending order")
    top = scores[0]
    if n == 1 or top <= 0:
        return n
    best_gap = -1.0
    cut_at = n
    for i in range(n - 1):
        gap = scores[i] / top - scores[i + 1] / top
        if gap > best_gap:  # strict: the first of equal gaps wins
            best_gap = gap
            cut_at = i + 1
    return cut_at if best_gap >= min_gap - _GAP_EPSILON else n


def _days_between(earlier: datetime, later: datetime) -> float:
    return (later - earlier).total_seconds() / _SECONDS_PER_DAY


def rank(
    *,
    arms: Mapping[str, Sequence[int]],
    candidates: Mapping[int, Candidate],
    query: str,
    now: datetime,
    top_k: int,
    autocut_enabled: bool,
    config: RankingConfig | None = None,
    keyword_confidence: float = 0.0,
    keyword_shares: Mapping[int, float] | None = None,
    participants: frozenset[int] | set[int] = frozenset(),
    dated: frozenset[int] | set[int] = frozenset(),
    third_party: frozenset[int] | set[int] = frozenset(),
) -> list[Ranked]:
    """Fuse the arms' ordered id lists into at most ``top_k`` ranked results (pipeline in the module docstring).

    Contract:
    - ``arms``: arm name → memory ids best first; names must be in ``config.arm_weights`` (else ``ValueError``).
    - ``candidates`` must describe every id any arm returned (else ``ValueError``: a caller bug, not a miss);
      extra candidates no arm returned are ignored.
    - ``now`` and the candidates' timestamps are tz-aware; ``top_k >= 1`` (else ``ValueError``).
    - ``keyword_confidence`` in [0, 1] (clamped; NaN counts as 0): the keyword arm's best BM25 score as a share of
      its ceiling; the vector arm's weight and the cosine share of ``base`` are scaled by
      ``1 - config.keyword_trust · keyword_confidence`` (``explain["vector_factor"]``; ``turn_keyword_trust``
      instead where the keyword and vector lists are score-fused, below).
    - ``keyword_shares`` (optional): each keyword row's BM25 score as a share of that ceiling. With it and
      ``config.score_fusion`` set, the keyword and vector lists are replaced by one list ordered by
      ``vector_factor · cosine + (score_fusion + 1 - vector_factor) · share`` (``explain["text_score"]``), weighted
      by the two arms' (vector-scaled) weights summed; the other arms fuse with it by RRF as before. Without it
      both lists fuse by RRF.
    - ``participants``: the ids of rows by or about someone the question names; their ``post_tier`` is multiplied
      by ``config.participant_boost`` (``explain["participant"]``).
    - ``dated``: the ids of rows whose event dates (else reference time) fall inside the question's date window;
      their ``post_tier`` is multiplied by ``config.date_window_boost`` (``explain["date_window"]``).
    - A candidate whose ``turn_words`` (a session turn's content words) is below ``config.phatic_words`` has its
      ``post_tier`` multiplied by ``config.phatic_factor`` (``explain["phatic"]``); ``None`` (not a turn) never is.
    - ``third_party``: the ids of session turns about someone other than their speaker (the caller decides when the
      question makes that matter); their ``post_tier`` is multiplied by ``config.third_party_factor``
      (``explain["third_party"]``).
    - Inputs are not mutated; the result is deterministic (ties by memory id ascending).
    - Each result's ``explain`` holds ``ranks`` (per known arm, ``None`` if absent), ``rrf``, ``rrf_norm``,
      ``cosine`` (the value used in ``base``), ``base``, ``vector_factor``, ``tier``, ``text_score``,
      ``participant``, ``date_window``, ``phatic``, ``third_party``, ``post_tier``, ``floor``, ``gated`` (True
      when below the floor), ``boosts`` (recency/title, all 1.0 when gated), ``final`` and, for rows a lead arm put
      first, ``lead``.
    """
    config = config if config is not None else RankingConfig()
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    confidence = min(1.0, max(0.0, keyword_confidence)) if math.isfinite(keyword_confidence) else 0.0
    fusing = config.score_fusion is not None and keyword_shares is not None and "keyword" in arms and "vector" in arms
    vector_factor = 1.0 - (config.turn_keyword_trust if fusing else config.keyword_trust) * confidence
    weights = dict(config.arm_weights)
    if "vector" in weights:
        weights["vector"] *= vector_factor
    cosine_weight = _BASE_COSINE_WEIGHT * vector_factor
    fused_arms: Mapping[str, Sequence[int]] = arms
    fused: dict[int, float] | None = None
    if fusing:
        fused = _text_scores(arms, candidates, keyword_shares, vector_factor, config.score_fusion)
        fused_arms = {"text": sorted(fused, key=lambda i: (-fused[i], i))}
        fused_arms.update({arm: ids for arm, ids in arms.items() if arm not in ("keyword", "vector")})
        weights["text"] = weights.get("keyword", 0.0) + weights.get("vector", 0.0)
    rrf = rrf_scores(fused_arms, weights=weights, k=config.rrf_k)
    missing = sorted(memory_id for memory_id in rrf if memory_id not in candidates)
    if missing:
        raise ValueError(f"arms returned memory ids without a Candidate: {missing}")
    if not rrf:
        return []

    ranks: dict[int, dict[str, int | None]] = {
        memory_id: {arm: None for arm in config.arm_weights} for memory_id in rrf
    }
    for arm, ids in arms.items():
        for position, memory_id in enumerate(ids):
            if ranks[memory_id][arm] is None:
                ranks[memory_id][arm] = position

    max_rrf = max(rrf.values())
    stage: dict[int, dict[str, Any]] = {}
    for memory_id, rrf_value in rrf.items():
        candidate = candidates[memory_id]
        rrf_norm = rrf_value / max_rrf if max_rrf > 0 else 0.0
        cosine = candidate.cosine
        # An unseen row and a negative/NaN cosine both contribute nothing: a dissimilar chunk must not push a
        # row below one the vector arm never saw.
        cosine_used = min(1.0, max(0.0, cosine)) if cosine is not None and math.isfinite(cosine) else 0.0
        base = (1.0 - cosine_weight) * rrf_norm + cosine_weight * cosine_used
        tier = float(config.tier_boost.get(candidate.level, 1.0))
        participant = config.participant_boost if memory_id in participants else 1.0
        date_window = config.date_window_boost if memory_id in dated else 1.0
        words = candidate.turn_words
        phatic = config.phatic_factor if words is not None and words < config.phatic_words else 1.0
        elsewhere = config.third_party_factor if memory_id in third_party else 1.0
        stage[memory_id] = {
            "rrf": rrf_value,
            "rrf_norm": rrf_norm,
            "cosine": cosine_used,
            "base": base,
            "vector_factor": vector_factor,
            "tier": tier,
            "text_score": fused.get(memory_id) if fused is not None else None,
            "participant": participant,
            "date_window": date_window,
            "phatic": phatic,
            "third_party": elsewhere,
            "post_tier": base * tier * participant * date_window * phatic * elsewhere,
        }

    # Computed once, before any boost, so boosts cannot move the gate.
    floor = config.floor_ratio * max(row["post_tier"] for row in stage.values())

    scored: list[Ranked] = []
    for memory_id, row in stage.items():
        candidate = candidates[memory_id]
        gated = row["post_tier"] < floor
        if gated:
            boosts = {"recency": 1.0, "title": 1.0}
        else:
            boosts = {
                "recency": recency_boost(days=_days_between(candidate.created_at, now), config=config),
                "title": config.title_boost if title_matches(title=candidate.title, query=query) else 1.0,
            }
        final = row["post_tier"] * boosts["recency"] * boosts["title"]
        explain = {
            "ranks": dict(ranks[memory_id]),
            **row,
            "floor": floor,
            "gated": gated,
            "boosts": boosts,
            "final": final,
        }
        scored.append(Ranked(memory_id=memory_id, score=final, explain=explain))

    scored.sort(key=lambda ranked: (-ranked.score, ranked.memory_id))

    # After sorting, the first copy of a content hash is the best-scoring one. An empty hash is not a
    # fingerprint, so such rows are never merged.
    seen_hashes: set[str] = set()
    unique: list[Ranked] = []
    for ranked in scored:
        content_hash = candidates[ranked.memory_id].content_hash
        if content_hash:
            if content_hash in seen_hashes:
                continue
            seen_hashes.add(content_hash)
        unique.append(ranked)

    if config.lead_arm is not None:
        unique = _lead(unique, ranks, config.lead_arm)

    if autocut_enabled:
        unique = unique[: autocut([ranked.score for ranked in unique], min_gap=config.autocut_min_gap)]
    return unique[:top_k]


def _text_scores(
    arms: Mapping[str, Sequence[int]],
    candidates: Mapping[int, Candidate],
    shares: Mapping[int, float],
    vector_factor: float,
    keyword_floor: float,
) -> dict[int, float]:
    """One score per row of the keyword or the vector arm: ``vector_factor · cosine + (keyword_floor + 1 -
    vector_factor) · share`` (cosine 0 where the vector arm did not see the row, share 0 where the keyword arm
    did not)."""
    scores: dict[int, float] = {}
    for memory_id in dict.fromkeys([*arms["keyword"], *arms["vector"]]):
        candidate = candidates.get(memory_id)
        cosine = candidate.cosine if candidate is not None else None
        cosine = min(1.0, max(0.0, cosine)) if cosine is not None and math.isfinite(cosine) else 0.0
        share = shares.get(memory_id, 0.0)
        share = min(1.0, max(0.0, share)) if math.isfinite(share) else 0.0
        scores[memory_id] = vector_factor * cosine + (keyword_floor + 1.0 - vector_factor) * share
    return scores


def _lead(unique: list[Ranked], ranks: Mapping[int, Mapping[str, int | None]], arm: str) -> list[Ranked]:
    """The lead arm's rows first in that arm's order, then the rest as ranked; scores raised where needed so
    that they stay non-increasing down the list (each raised row says so in ``explain["lead"]``)."""
    led = sorted((r for r in unique if ranks[r.memory_id][arm] is not None), key=lambda r: ranks[r.memory_id][arm])
    rest = [r for r in unique if ranks[r.memory_id][arm] is None]
    floor = rest[0].score if rest else 0.0
    raised: list[Ranked] = []
    for ranked in reversed(led):
        score = max(ranked.score, floor)
        raised.append(replace(ranked, score=score, explain={**ranked.explain, "lead": True, "final": score}))
        floor = score
    return [*reversed(raised), *rest]
