"""Exact-value unit tests for the pure fusion/ranking core (DESIGN §5). No Django, no database."""

from __future__ import annotations

import copy
import math
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.ranking import (
    DEFAULT_ARM_WEIGHTS,
    DEFAULT_TIER_BOOST,
    PHATIC_FACTOR,
    PHATIC_WORDS,
    THIRD_PARTY_FACTOR,
    Candidate,
    Ranked,
    RankingConfig,
    autocut,
    rank,
    recency_boost,
    rrf_scores,
    title_matches,
)

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
# A candidate created this long ago gets a recency boost of 1 + 0.4·30/(30+3000) = 1.00396...
OLD = NOW - timedelta(days=3000)
OLD_RECENCY = 1 + 0.4 * 30 / 3030
DEFAULT = RankingConfig()
# The values the arithmetic of this file is written in: the design's, and the tunables as they were set by hand
# before ``fit_fusion`` chose the defaults (TestRankingConfig.test_defaults pins those). The mechanisms are tested
# here; which values serve the benchmarks best is the fit's business.
DESIGN = RankingConfig(
    arm_weights={"keyword": 1.0, "vector": 1.0, "relational": 0.5},
    rrf_k=60,
    floor_ratio=0.6,
    recency_max=0.4,
    recency_half_days=30.0,
    keyword_trust=1.0,
    turn_keyword_trust=1.0,
    score_fusion=0.2,
    participant_boost=1.25,
    date_window_boost=1.3,
    third_party_factor=0.8,
)


def cand(
    memory_id: int,
    *,
    level: str = "user",
    content_hash: str | None = None,
    title: str = "",
    created_at: datetime = OLD,
    cosine: float | None = None,
    turn_words: int | None = None,
) -> Candidate:
    return Candidate(
        memory_id=memory_id,
        content_hash=content_hash if content_hash is not None else f"hash-{memory_id}",
        level=level,
        title=title,
        created_at=created_at,
        cosine=cosine,
        turn_words=turn_words,
    )


def run(
    arms, candidates, *, query="unrelated query", top_k=10, autocut_enabled=False, config=None, keyword_confidence=0.0
):
    by_id = {c.memory_id: c for c in candidates}
    return rank(
        arms=arms,
        candidates=by_id,
        query=query,
        now=NOW,
        top_k=top_k,
        autocut_enabled=autocut_enabled,
        config=config if config is not None else DESIGN,
        keyword_confidence=keyword_confidence,
    )


# --- RRF ------------------------------------------------------------------------------------------------------


class TestRrfScores:
    def test_hand_computed_example_with_the_design_weights(self):
        # Given three arms with overlapping ids (ranks are 0-based, k = 60, relational weighs 0.5)
        arms = {"keyword": [1, 2, 3], "vector": [3, 1], "relational": [2]}

        # When
        scores = rrf_scores(arms, weights=DESIGN.arm_weights, k=60)

        # Then: 1 = 1/60 + 1/61, 2 = 1/61 + 0.5/60, 3 = 1/62 + 1/60
        assert scores == {
            1: pytest.approx(float(Fraction(1, 60) + Fraction(1, 61)), rel=1e-12),
            2: pytest.approx(float(Fraction(1, 61) + Fraction(1, 120)), rel=1e-12),
            3: pytest.approx(float(Fraction(1, 62) + Fraction(1, 60)), rel=1e-12),
        }
        assert scores[1] == pytest.approx(0.0330601092896175, abs=1e-15)
        assert scores[2] == pytest.approx(0.0247267759562842, abs=1e-15)
        assert scores[3] == pytest.approx(0.0327956989247312, abs=1e-15)

    def test_weights_scale_each_arm(self):
        scores = rrf_scores({"keyword": [7], "vector": [7, 8]}, weights={"keyword": 2.0, "vector": 0.25}, k=60)
        assert scores == {7: pytest.approx(2 / 60 + 0.25 / 60, rel=1e-12), 8: pytest.approx(0.25 / 61, rel=1e-12)}

    def test_zero_weight_arm_contributes_nothing(self):
        scores = rrf_scores({"keyword": [1], "relational": [2]}, weights={"keyword": 1.0, "relational": 0.0})
        assert scores == {1: pytest.approx(1 / 60, rel=1e-12), 2: 0.0}

    def test_small_k(self):
        assert rrf_scores({"keyword": [5, 6]}, weights={"keyword": 1.0}, k=1) == {5: 1.0, 6: 0.5}

    def test_duplicate_id_in_one_arm_counts_once_at_best_rank(self):
        scores = rrf_scores({"keyword": [4, 9, 4]}, weights={"keyword": 1.0})
        assert scores == {4: pytest.approx(1 / 60, rel=1e-12), 9: pytest.approx(1 / 61, rel=1e-12)}

    def test_empty_arms(self):
        assert rrf_scores({}, weights=DEFAULT_ARM_WEIGHTS) == {}
        assert rrf_scores({"keyword": [], "vector": []}, weights=DEFAULT_ARM_WEIGHTS) == {}

    def test_unknown_arm_raises(self):
        with pytest.raises(ValueError, match="unknown arm"):
            rrf_scores({"keywrod": [1]}, weights=DEFAULT_ARM_WEIGHTS)

    @pytest.mark.parametrize("k", [0, -1])
    def test_k_below_one_raises(self, k):
        with pytest.raises(ValueError, match="k must be >= 1"):
            rrf_scores({"keyword": [1]}, weights=DEFAULT_ARM_WEIGHTS, k=k)


# --- bounded boosts -------------------------------------------------------------------------------------------


class TestRecencyBoost:
    @pytest.mark.parametrize(
        ("days", "expected"),
        [
            (0, 1.4),
            (30, 1.2),
            (10, 1 + 0.4 * 30 / 40),
            (90, 1.1),
            (math.inf, 1.0),
            (-5, 1.4),  # a future timestamp counts as "now"
        ],
    )
    def test_values(self, days, expected):
        assert recency_boost(days=days, config=DESIGN) == pytest.approx(expected, abs=1e-12)

    def test_huge_age_tends_to_one(self):
        assert recency_boost(days=1e12, config=DESIGN) == pytest.approx(1.0, abs=1e-9)
        assert recency_boost(days=1e12, config=DESIGN) >= 1.0

    def test_config_changes_the_curve(self):
        config = RankingConfig(recency_max=0.2, recency_half_days=10.0)
        assert recency_boost(days=0, config=config) == pytest.approx(1.2, abs=1e-12)
        assert recency_boost(days=10, config=config) == pytest.approx(1.1, abs=1e-12)


class TestTitleMatches:
    @pytest.mark.parametrize(
        ("title", "query", "expected"),
        [
            ("On-call policy", "on-call   POLICY?", True),  # normalised equality
            ("Acme Robotics", "who founded acme robotics", False),  # inside the query is not a title match
            ("Acme", "acme's founders", False),
            ("Acme", "ACME!", True),
            ("Robotics Acme", "acme robotics", False),  # order matters
            ("Go", "go live plan", False),
            ("Go", "Go!", True),
            ("", "anything", False),
            ("   ", "", False),
            ("Deploy Fridays", "how do we deploy on fridays", False),
        ],
    )
    def test_rule(self, title, query, expected):
        assert title_matches(title=title, query=query) is expected


# --- autocut --------------------------------------------------------------------------------------------------


class TestAutocut:
    @pytest.mark.parametrize(
        ("scores", "expected"),
        [
            ([], 0),
            ([0.5], 1),
            ([0.0], 1),
            ([1.0, 1.0, 1.0], 3),  # all equal: no gap
            ([0.0, 0.0, 0.0], 3),  # all zero: nothing to normalise by
            ([1.0, 0.5, 0.0], 1),  # equal largest gaps: the first one wins
            ([4.0, 3.0, 2.0], 1),  # 1, .75, .5 → equal gaps .25: first
            ([1.0, 0.8], 1),  # gap exactly 0.2 cuts
            ([5.0, 4.0, 4.0], 1),  # 1, .8, .8 → gap 0.2 after normalising
            ([1.0, 0.81], 2),  # gap 0.19 does not
            ([1.0, 0.95, 0.5, 0.45], 2),  # the largest gap is in the middle
            ([2.0, 1.9, 1.8, 0.2], 3),
            ([-0.1, -0.5], 2),  # non-positive maximum: keep all
        ],
    )
    def test_cases(self, scores, expected):
        assert autocut(scores) == expected

    def test_min_gap_is_configurable(self):
        assert autocut([1.0, 0.6], min_gap=0.5) == 2
        assert autocut([1.0, 0.5], min_gap=0.5) == 1

    def test_unsorted_input_raises(self):
        with pytest.raises(ValueError, match="descending"):
            autocut([0.1, 0.9])

    def test_does_not_mutate_input(self):
        scores = [1.0, 0.3]
        autocut(scores)
        assert scores == [1.0, 0.3]

    @given(st.lists(st.floats(min_value=0.0, max_value=1e6, allow_nan=False), min_size=1, max_size=40))
    @settings(max_examples=200, deadline=None)
    def test_never_returns_zero_for_non_empty(self, values):
        scores = sorted(values, reverse=True)
        kept = autocut(scores)
        assert 1 <= kept <= len(scores)


# --- config ---------------------------------------------------------------------------------------------------


class TestRankingConfig:
    def test_defaults(self):
        # DESIGN's cascade (1.0 / 0.9 / 0.75 / 0.7 / 0.65 / 0.6) at the measured strength 0.25, rounded
        assert dict(DEFAULT.tier_boost) == {
            "user": 1.0,
            "team": 0.97,
            "division": 0.93,
            "country": 0.91,
            "corporate": 0.9,
            "org": 0.88,
        }
        for level, design in {"team": 0.9, "division": 0.75, "country": 0.7, "corporate": 0.65, "org": 0.6}.items():
            assert DEFAULT.tier_boost[level] == pytest.approx(design**0.25, abs=0.006)
        assert DEFAULT.keyword_trust == 1.0
        # where session turns are score-fused, the keyword arm's confidence does not turn the vectors down
        assert DEFAULT.turn_keyword_trust == 0.0
        # fitted by fit_fusion on the development halves (bench/HISTORY.md); the design's values are DESIGN's
        assert dict(DEFAULT.arm_weights) == {"keyword": 3.0, "vector": 0.75, "relational": 0.5}
        assert (DEFAULT.floor_ratio, DEFAULT.recency_max, DEFAULT.recency_half_days) == (0.8, 0.2, 60.0)
        assert (DEFAULT.date_window_boost, DEFAULT.third_party_factor) == (1.4, 0.7)
        assert (DEFAULT.score_fusion, DEFAULT.participant_boost, DEFAULT.phatic_words, DEFAULT.phatic_factor) == (
            0.2,
            1.25,
            3,
            0.8,
        )
        assert (DEFAULT.rrf_k, DEFAULT.title_boost, DEFAULT.autocut_min_gap) == (60, 1.25, 0.2)

    def test_module_defaults_are_read_only(self):
        with pytest.raises(TypeError):
            DEFAULT_TIER_BOOST["org"] = 1.0  # type: ignore[index]
        with pytest.raises(TypeError):
            DEFAULT_ARM_WEIGHTS["keyword"] = 9.0  # type: ignore[index]

    def test_caller_dict_is_copied(self):
        weights = {"keyword": 1.0}
        config = RankingConfig(arm_weights=weights)
        weights["keyword"] = 5.0
        assert config.arm_weights["keyword"] == 1.0

    def test_with_tier_overrides_keeps_other_levels(self):
        config = DEFAULT.with_tier_overrides({"org": 1.0, "project": 0.95})
        assert dict(config.tier_boost) == {
            "user": 1.0,
            "team": 0.97,
            "division": 0.93,
            "country": 0.91,
            "corporate": 0.9,
            "org": 1.0,
            "project": 0.95,
        }
        assert DEFAULT.tier_boost["org"] == 0.88

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"floor_ratio": 1.5},
            {"floor_ratio": -0.1},
            {"rrf_k": 0},
            {"title_boost": 0.9},
            {"lead_arm": "nonsense"},
            {"recency_half_days": 0.0},
            {"autocut_min_gap": -1.0},
            {"arm_weights": {"keyword": -1.0}},
            {"tier_boost": {"team": math.nan}},
        ],
    )
    def test_invalid_values_raise(self, kwargs):
        with pytest.raises(ValueError):
            RankingConfig(**kwargs)


# --- rank: pipeline -------------------------------------------------------------------------------------------


class TestRankBase:
    def test_rrf_is_normalised_and_base_blends_cosine(self):
        # Given: 1 is first in both arms, 2 second in keyword only and seen by the vector arm at cosine 0.5
        arms = {"keyword": [1, 2], "vector": [1]}
        candidates = [cand(1, cosine=0.9), cand(2, cosine=0.5)]

        ranked = run(arms, candidates)

        one, two = ranked
        assert one.explain["rrf"] == pytest.approx(2 / 60, rel=1e-12)
        assert one.explain["rrf_norm"] == 1.0
        assert one.explain["base"] == pytest.approx(0.7 + 0.3 * 0.9, abs=1e-12)
        assert two.explain["rrf_norm"] == pytest.approx((1 / 61) / (2 / 60), rel=1e-12)  # 30/61
        assert two.explain["base"] == pytest.approx(0.7 * 30 / 61 + 0.3 * 0.5, abs=1e-12)

    @pytest.mark.parametrize(("cosine", "used"), [(None, 0.0), (-0.4, 0.0), (1.7, 1.0), (math.nan, 0.0)])
    def test_cosine_is_clamped_into_zero_one(self, cosine, used):
        [only] = run({"keyword": [1]}, [cand(1, cosine=cosine)])
        assert only.explain["cosine"] == used
        assert only.explain["base"] == pytest.approx(0.7 + 0.3 * used, abs=1e-12)

    def test_empty_arms_give_no_results(self):
        assert run({"keyword": [], "vector": []}, []) == []

    def test_extra_candidates_not_in_any_arm_are_ignored(self):
        ranked = run({"keyword": [1]}, [cand(1), cand(2)])
        assert [r.memory_id for r in ranked] == [1]

    def test_missing_candidate_raises(self):
        with pytest.raises(ValueError, match=r"without a Candidate: \[2\]"):
            run({"keyword": [1, 2]}, [cand(1)])

    def test_unknown_arm_raises(self):
        with pytest.raises(ValueError, match="unknown arm"):
            run({"bm25": [1]}, [cand(1)])

    @pytest.mark.parametrize("top_k", [0, -3])
    def test_top_k_below_one_raises(self, top_k):
        with pytest.raises(ValueError, match="top_k"):
            run({"keyword": [1]}, [cand(1)], top_k=top_k)


class TestRankTier:
    @pytest.mark.parametrize(
        ("level", "factor"),
        [
            ("user", 1.0),
            ("team", 0.97),
            ("division", 0.93),
            ("country", 0.91),
            ("corporate", 0.9),
            ("org", 0.88),
            ("project", 1.0),  # unknown level
        ],
    )
    def test_factor_per_level(self, level, factor):
        [only] = run({"keyword": [1]}, [cand(1, level=level)])
        assert only.explain["tier"] == factor
        assert only.explain["post_tier"] == pytest.approx(0.7 * factor, abs=1e-12)
        assert only.score == pytest.approx(0.7 * factor * OLD_RECENCY, abs=1e-12)

    def test_tier_reorders_an_org_fact_below_a_user_fact(self):
        # Given the org fact ranks first in the only arm and the user fact second
        ranked = run({"keyword": [1, 2]}, [cand(1, level="org"), cand(2, level="user")])

        # Then the user fact wins: 0.7·(60/61)·1.0 = 0.6885 > 0.7·1·0.88 = 0.616
        assert [r.memory_id for r in ranked] == [2, 1]
        assert ranked[0].explain["post_tier"] == pytest.approx(0.7 * 60 / 61, abs=1e-12)
        assert ranked[1].explain["post_tier"] == pytest.approx(0.616, abs=1e-12)

    @pytest.mark.parametrize(("user_rank", "winner"), [(3, "user"), (8, "user"), (9, "org"), (30, "org")])
    def test_tier_moves_a_fact_only_a_few_places(self, user_rank, winner):
        # Given an org fact first in the only arm and a user fact further down (other user facts between them)
        order = [100 + i for i in range(user_rank)]
        order[0] = 1
        order.append(2)
        candidates = [cand(1, level="org"), cand(2), *(cand(i) for i in order if i >= 100)]

        ranked = run({"keyword": order}, candidates, top_k=50)

        # Then the user fact passes it only within 8 places: 0.7·60/(60+r) > 0.7·0.88 ⇔ r ≤ 8
        position = {r.memory_id: i for i, r in enumerate(ranked)}
        assert (position[2] < position[1]) == (winner == "user")

    def test_policy_override(self):
        config = DESIGN.with_tier_overrides({"org": 1.0})
        ranked = run({"keyword": [1, 2]}, [cand(1, level="org"), cand(2, level="user")], config=config)
        assert [r.memory_id for r in ranked] == [1, 2]
        assert ranked[0].explain["tier"] == 1.0

    def test_partial_tier_mapping_leaves_missing_levels_at_one(self):
        config = replace(DESIGN, tier_boost={"team": 2.0})
        ranked = run({"keyword": [1], "vector": [2]}, [cand(1, level="team"), cand(2, level="org")], config=config)
        assert {r.memory_id: r.explain["tier"] for r in ranked} == {1: 2.0, 2: 1.0}


class TestKeywordConfidence:
    """The more of its possible BM25 score the keyword arm's best row reached, the less the vector arm counts."""

    ARMS = {"keyword": [1, 2], "vector": [3, 2]}
    CANDIDATES = [cand(1), cand(2, cosine=0.5), cand(3, cosine=0.9)]

    def test_no_confidence_is_the_plain_fusion(self):
        ranked = run(self.ARMS, self.CANDIDATES, keyword_confidence=0.0)
        # 2 is in both arms; 3 leads the vector arm with a high cosine
        assert [r.memory_id for r in ranked] == [2, 3, 1]
        assert {r.explain["vector_factor"] for r in ranked} == {1.0}
        assert ranked[0].explain["base"] == pytest.approx(0.7 + 0.3 * 0.5, abs=1e-12)

    def test_full_confidence_leaves_the_keyword_order(self):
        ranked = run(self.ARMS, self.CANDIDATES, keyword_confidence=1.0)

        assert [r.memory_id for r in ranked] == [1, 2, 3]
        assert {r.explain["vector_factor"] for r in ranked} == {0.0}
        assert ranked[2].explain["base"] == 0.0  # seen only by the vector arm

    def test_half_confidence_halves_the_vector_weight_and_cosine_share(self):
        [first, *_] = run(self.ARMS, self.CANDIDATES, keyword_confidence=0.5)
        rrf = {1: 1 / 60, 2: 1 / 61 + 0.5 / 61, 3: 0.5 / 60}
        assert first.memory_id == 2
        assert first.explain["vector_factor"] == 0.5
        assert first.explain["rrf"] == pytest.approx(rrf[2], abs=1e-12)
        assert first.explain["base"] == pytest.approx(0.85 * 1.0 + 0.15 * 0.5, abs=1e-12)

    @pytest.mark.parametrize(("confidence", "factor"), [(-3.0, 1.0), (7.0, 0.0), (math.nan, 1.0), (math.inf, 1.0)])
    def test_out_of_range_confidence_is_clamped(self, confidence, factor):
        [first, *_] = run(self.ARMS, self.CANDIDATES, keyword_confidence=confidence)
        assert first.explain["vector_factor"] == factor

    def test_keyword_trust_zero_ignores_the_confidence(self):
        ranked = run(self.ARMS, self.CANDIDATES, keyword_confidence=1.0, config=replace(DESIGN, keyword_trust=0.0))
        assert [r.memory_id for r in ranked] == [2, 3, 1]

    @pytest.mark.parametrize("trust", [-0.1, 1.5, math.nan])
    @pytest.mark.parametrize("name", ["keyword_trust", "turn_keyword_trust"])
    def test_keyword_trust_must_be_a_share(self, trust, name):
        with pytest.raises(ValueError, match=name):
            RankingConfig(**{name: trust})


class TestRankFloorGate:
    # Three arms of weight 1 put each candidate at rank 0 of its own arm: equal RRF, base 0.7 each. The tiers
    # then place candidate 2 exactly at the floor (0.7·0.6 = 0.6·0.7) and candidate 3 just below it.
    CONFIG = replace(
        DESIGN,
        arm_weights={"a": 1.0, "b": 1.0, "c": 1.0},
        tier_boost={"user": 1.0, "at": 0.6, "below": 0.5999999},
    )
    ARMS = {"a": [1], "b": [2], "c": [3]}

    def ranked(self):
        fresh = {"created_at": NOW}
        candidates = [cand(1, level="user", **fresh), cand(2, level="at", **fresh), cand(3, level="below", **fresh)]
        return {r.memory_id: r for r in run(self.ARMS, candidates, config=self.CONFIG)}

    def test_floor_is_computed_once_from_post_tier_max(self):
        floors = [r.explain["floor"] for r in self.ranked().values()]
        assert floors == [pytest.approx(0.42, abs=1e-12)] * 3
        assert len(set(floors)) == 1

    def test_row_at_the_floor_gets_boosts(self):
        at_floor = self.ranked()[2]
        assert at_floor.explain["post_tier"] == at_floor.explain["floor"]
        assert at_floor.explain["gated"] is False
        assert at_floor.explain["boosts"] == {"recency": 1.4, "title": 1.0}
        assert at_floor.score == pytest.approx(0.42 * 1.4, abs=1e-12)

    def test_row_just_below_the_floor_gets_none(self):
        below = self.ranked()[3]
        assert below.explain["gated"] is True
        assert below.explain["boosts"] == {"recency": 1.0, "title": 1.0}
        assert below.score == below.explain["post_tier"] == pytest.approx(0.7 * 0.5999999, abs=1e-15)

    def test_boosts_cannot_lift_a_gated_row(self):
        # A gated row with every boost available still scores its post-tier value only.
        candidates = [
            cand(1, level="user"),
            cand(3, level="below", created_at=NOW, title="unrelated query"),
        ]
        ranked = run({"a": [1], "c": [3]}, candidates, config=self.CONFIG)
        assert [r.memory_id for r in ranked] == [1, 3]
        assert ranked[1].score == pytest.approx(0.7 * 0.5999999, abs=1e-15)


class TestRankBoosts:
    def test_both_boosts_multiply(self):
        [only] = run(
            {"keyword": [1]},
            [cand(1, created_at=NOW - timedelta(days=30), title="Deploy policy")],
            query="deploy policy",
        )
        assert only.explain["boosts"] == {"recency": pytest.approx(1.2, abs=1e-12), "title": 1.25}
        assert only.score == pytest.approx(0.7 * 1.2 * 1.25, abs=1e-12)

    def test_recency_counts_from_creation(self):
        [only] = run({"keyword": [1]}, [cand(1, created_at=NOW - timedelta(days=2))])
        assert only.explain["boosts"]["recency"] == pytest.approx(1 + 0.4 * 30 / 32, abs=1e-12)

    def test_candidates_carry_nothing_a_search_writes(self):
        # No popularity loop: ranking reads no access count or last-access time, so a search that records
        # accesses cannot change the next identical search's order.
        fields = set(Candidate.__dataclass_fields__)
        assert fields == {"memory_id", "content_hash", "level", "title", "created_at", "cosine", "turn_words"}

    def test_title_boost_changes_order(self):
        # Given 2 is second in the arm but its title is the query
        ranked = run(
            {"keyword": [1, 2]}, [cand(1, title="Other"), cand(2, title="Release checklist")], query="release checklist"
        )
        # Then 0.7·(60/61)·1.25 = 0.8607 beats 0.7
        assert [r.memory_id for r in ranked] == [2, 1]
        assert ranked[0].explain["boosts"]["title"] == 1.25


class TestRankDedupSortCut:
    def test_dedup_keeps_the_best_scoring_copy(self):
        # Given two copies of one text; the higher id ranks first
        ranked = run({"keyword": [2, 1, 3]}, [cand(1, content_hash="h"), cand(2, content_hash="h"), cand(3)])
        assert [r.memory_id for r in ranked] == [2, 3]

    def test_dedup_tie_keeps_the_lower_id(self):
        ranked = run({"keyword": [2], "vector": [1]}, [cand(1, content_hash="h"), cand(2, content_hash="h")])
        assert [r.memory_id for r in ranked] == [1]

    def test_dedup_uses_final_score_not_arm_rank(self):
        # 1 ranks first but is an org copy; 2 is the same text at user level and wins after the tier stage
        ranked = run({"keyword": [1, 2]}, [cand(1, level="org", content_hash="h"), cand(2, content_hash="h")])
        assert [r.memory_id for r in ranked] == [2]

    def test_empty_hash_is_never_merged(self):
        ranked = run({"keyword": [1, 2]}, [cand(1, content_hash=""), cand(2, content_hash="")])
        assert [r.memory_id for r in ranked] == [1, 2]

    def test_equal_scores_sort_by_memory_id(self):
        ranked = run({"keyword": [9], "vector": [4]}, [cand(9), cand(4)])
        assert [r.memory_id for r in ranked] == [4, 9]
        assert ranked[0].score == ranked[1].score

    def test_top_k_truncates(self):
        ranked = run({"keyword": [1, 2, 3]}, [cand(1), cand(2), cand(3)], top_k=2)
        assert [r.memory_id for r in ranked] == [1, 2]

    def test_autocut_drops_the_tail_only_when_enabled(self):
        # 1 and 2 are in both arms, 3 in one arm at the org tier: 0.7·((1/62)/(1/60+1/61))·0.6 ≈ 0.207
        arms = {"keyword": [1, 2, 3], "vector": [2, 1]}
        candidates = [cand(1), cand(2), cand(3, level="org")]
        assert [r.memory_id for r in run(arms, candidates, autocut_enabled=True)] == [1, 2]
        assert [r.memory_id for r in run(arms, candidates, autocut_enabled=False)] == [1, 2, 3]

    def test_autocut_happens_before_top_k(self):
        arms = {"keyword": [1, 2, 3], "vector": [2, 1]}
        candidates = [cand(1), cand(2), cand(3, level="org")]
        assert [r.memory_id for r in run(arms, candidates, autocut_enabled=True, top_k=1)] == [1]


class TestRankExplainAndPurity:
    def test_explain_keys_and_values(self):
        [first, second] = run(
            {"keyword": [1, 2], "vector": [2]},
            [cand(1, level="team", created_at=NOW), cand(2, cosine=0.8)],
        )
        # 2: rrf = 1/61 + 1/60 (max) → base 0.7 + 0.24 = 0.94 → post_tier 0.94
        # 1: rrf = 1/60 → rrf_norm (1/60)/(1/60+1/61) → base 0.7·that → × 0.9
        assert second.memory_id == 1 and first.memory_id == 2
        assert set(first.explain) == {
            "ranks", "rrf", "rrf_norm", "cosine", "base", "vector_factor", "tier", "text_score", "participant",
            "date_window", "phatic", "third_party", "post_tier", "floor", "gated", "boosts", "final",
        }  # fmt: skip
        assert first.explain["ranks"] == {"keyword": 1, "vector": 0, "relational": None}
        assert second.explain["ranks"] == {"keyword": 0, "vector": None, "relational": None}
        assert first.explain["cosine"] == 0.8
        assert first.explain["base"] == pytest.approx(0.94, abs=1e-12)
        assert first.explain["floor"] == pytest.approx(0.6 * 0.94, abs=1e-12)
        rrf_norm_1 = (1 / 60) / (1 / 60 + 1 / 61)
        assert second.explain["rrf_norm"] == pytest.approx(rrf_norm_1, abs=1e-12)
        assert second.explain["post_tier"] == pytest.approx(0.7 * rrf_norm_1 * 0.97, abs=1e-12)
        assert second.explain["gated"] is True  # 0.7·(61/121)·0.97 = 0.3423 < floor 0.564
        assert first.explain["vector_factor"] == second.explain["vector_factor"] == 1.0
        assert second.explain["boosts"] == {"recency": 1.0, "title": 1.0}
        for ranked in (first, second):
            assert ranked.explain["final"] == ranked.score

    def test_inputs_are_not_mutated(self):
        arms = {"keyword": [3, 1, 2, 1], "vector": [2, 3], "relational": [1]}
        candidates = {
            1: cand(1, content_hash="h", cosine=0.2),
            2: cand(2, content_hash="h", level="org", cosine=0.9, title="Q"),
            3: cand(3, level="team", created_at=NOW),
        }
        config = RankingConfig(tier_boost={"org": 0.5, "team": 0.8})
        arms_before, candidates_before = copy.deepcopy(arms), copy.deepcopy(candidates)
        tier_before = dict(config.tier_boost)

        rank(arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=True, config=config)

        assert arms == arms_before
        assert candidates == candidates_before
        assert dict(config.tier_boost) == tier_before

    def test_deterministic_regardless_of_candidate_order(self):
        arms = {"keyword": [1, 2, 3, 4], "vector": [4, 3]}
        forward = [cand(i, cosine=0.1 * i) for i in range(1, 5)]
        first = run(arms, forward)
        second = run(arms, list(reversed(forward)))
        assert first == second
        assert all(isinstance(r, Ranked) for r in first)


class TestLeadArm:
    def test_the_lead_arms_rows_come_first_in_its_order(self):
        # Given the relational arm answered (lead), and 9 is the keyword+vector favourite
        arms = {"keyword": [9, 2], "vector": [9], "relational": [3, 2]}
        candidates = [cand(9, cosine=0.9), cand(2), cand(3)]
        config = replace(DESIGN, lead_arm="relational")
        ranked = run(arms, candidates, config=config)
        # Then the relational order leads, the rest follows by score, and scores never increase down the list
        assert [r.memory_id for r in ranked] == [3, 2, 9]
        assert ranked[0].score >= ranked[1].score >= ranked[2].score
        assert ranked[0].explain["lead"] is True and "lead" not in ranked[2].explain

    def test_without_a_lead_arm_rrf_decides(self):
        arms = {"keyword": [9, 2], "vector": [9], "relational": [3, 2]}
        ranked = run(arms, [cand(9, cosine=0.9), cand(2), cand(3)])
        assert ranked[0].memory_id == 9


ids = st.integers(min_value=1, max_value=15)


@given(
    keyword=st.lists(ids, max_size=15),
    vector=st.lists(ids, max_size=15),
    relational=st.lists(ids, max_size=5),
    levels=st.lists(st.sampled_from(sorted(DEFAULT_TIER_BOOST) + ["other"]), min_size=15, max_size=15),
    hashes=st.lists(st.sampled_from("abcdef"), min_size=15, max_size=15),
    top_k=st.integers(min_value=1, max_value=20),
    cut=st.booleans(),
)
@settings(max_examples=150, deadline=None)
def test_rank_invariants(keyword, vector, relational, levels, hashes, top_k, cut):
    candidates = {i: cand(i, level=levels[i - 1], content_hash=hashes[i - 1], cosine=(i % 4) / 4) for i in range(1, 16)}
    arms = {"keyword": keyword, "vector": vector, "relational": relational}
    ranked = rank(arms=arms, candidates=candidates, query="q", now=NOW, top_k=top_k, autocut_enabled=cut)

    seen_ids = set(keyword) | set(vector) | set(relational)
    assert len(ranked) <= top_k
    assert bool(ranked) == bool(seen_ids)
    assert {r.memory_id for r in ranked} <= seen_ids
    assert len({candidates[r.memory_id].content_hash for r in ranked}) == len(ranked)
    assert [(-r.score, r.memory_id) for r in ranked] == sorted((-r.score, r.memory_id) for r in ranked)
    for r in ranked:
        if r.explain["gated"]:
            assert r.score == r.explain["post_tier"]
        else:
            assert r.score >= r.explain["post_tier"] >= r.explain["floor"]
        assert r.score <= r.explain["post_tier"] * 1.4 * 1.25 + 1e-12


def test_pure_cores_import_no_django():
    # The pure cores must unit-test without Django or a database (DESIGN §2): importing them in a fresh
    # interpreter must not pull in django.
    code = (
        "import sys\n"
        "import memories.textsim, retrieval.ranking, retrieval.relational_query, retrieval.synthesis\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith(('django.', 'rest_framework')))\n"
        "assert not loaded, loaded\n"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


class TestScoreFusionAndParticipants:
    """Score fusion of the keyword and vector arms (with the keyword rows' BM25 shares) and the participant boost."""

    def test_without_shares_the_two_arms_fuse_by_rrf_as_before(self):
        arms = {"keyword": [1, 2], "vector": [2, 1]}
        candidates = {1: cand(1, cosine=0.2), 2: cand(2, cosine=0.9)}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False, config=DESIGN
        )
        assert all(r.explain["text_score"] is None for r in ranked)
        assert ranked[0].explain["rrf"] == pytest.approx(1 / 60 + 1 / 61, abs=1e-15)

    def test_a_weak_keyword_top_row_does_not_outrank_the_vector_answer(self):
        # keyword confidence 0.1 → vector factor 0.9; text score = 0.9·cosine + (0.2 + 0.1)·share
        arms = {"keyword": [1, 2], "vector": [2, 1]}
        candidates = {1: cand(1, cosine=0.2), 2: cand(2, cosine=0.6)}
        shares = {1: 0.1, 2: 0.05}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False,
            keyword_confidence=0.1, keyword_shares=shares, config=DESIGN,
        )  # fmt: skip
        assert [r.memory_id for r in ranked] == [2, 1]
        top, second = ranked
        assert top.explain["text_score"] == pytest.approx(0.9 * 0.6 + 0.3 * 0.05, abs=1e-12)
        assert second.explain["text_score"] == pytest.approx(0.9 * 0.2 + 0.3 * 0.1, abs=1e-12)
        # one fused list, weighted by keyword 1.0 + vector 1.0·0.9
        assert top.explain["rrf"] == pytest.approx(1.9 / 60, abs=1e-15)
        assert second.explain["rrf"] == pytest.approx(1.9 / 61, abs=1e-15)

    def test_a_confident_keyword_match_leads_the_fused_list(self):
        # confidence 0.8 → vector factor 0.2: text score = 0.2·cosine + 1.0·share
        arms = {"keyword": [1], "vector": [2, 1]}
        candidates = {1: cand(1, cosine=0.3), 2: cand(2, cosine=0.4)}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False,
            keyword_confidence=0.8, keyword_shares={1: 0.8}, config=DESIGN,
        )  # fmt: skip
        assert [r.memory_id for r in ranked] == [1, 2]
        assert ranked[0].explain["text_score"] == pytest.approx(0.2 * 0.3 + 0.8, abs=1e-12)
        assert ranked[1].explain["text_score"] == pytest.approx(0.2 * 0.4, abs=1e-12)
        # base = (1 - 0.06)·rrf_norm + 0.06·cosine, the fused list weighted 1.0 + 0.2
        assert ranked[0].explain["base"] == pytest.approx(0.94 + 0.06 * 0.3, abs=1e-12)
        assert ranked[1].explain["base"] == pytest.approx(0.94 * 60 / 61 + 0.06 * 0.4, abs=1e-12)

    def test_in_a_fused_list_the_turn_trust_replaces_the_keyword_trust(self):
        # the confident keyword match above, with turn trust 0: the vectors keep their full say (factor 1), the
        # keyword share adds only score_fusion of itself: text score = cosine + 0.2·share
        arms = {"keyword": [1], "vector": [2, 1]}
        candidates = {1: cand(1, cosine=0.3), 2: cand(2, cosine=0.4)}
        fused = replace(DESIGN, turn_keyword_trust=0.0)
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False,
            keyword_confidence=0.8, keyword_shares={1: 0.8}, config=fused,
        )  # fmt: skip
        by_id = {r.memory_id: r for r in ranked}
        assert by_id[1].explain["vector_factor"] == 1.0
        assert by_id[1].explain["text_score"] == pytest.approx(0.3 + 0.2 * 0.8, abs=1e-12)
        assert by_id[2].explain["text_score"] == pytest.approx(0.4, abs=1e-12)
        assert by_id[1].explain["ranks"]["keyword"] == 0 and by_id[1].explain["rrf"] > by_id[2].explain["rrf"]
        # the full cosine share of base: 0.7·rrf_norm + 0.3·cosine (the closer turn wins overall)
        assert by_id[2].explain["base"] == pytest.approx(0.7 * 60 / 61 + 0.3 * 0.4, abs=1e-12)
        # without the keyword rows' shares the lists fuse by RRF, and the keyword trust holds
        plain = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False,
            keyword_confidence=0.8, config=fused,
        )  # fmt: skip
        assert plain[0].explain["vector_factor"] == pytest.approx(0.2, abs=1e-12)

    def test_other_arms_still_fuse_by_rrf_beside_the_text_list(self):
        arms = {"keyword": [1], "vector": [1], "relational": [3]}
        candidates = {1: cand(1, cosine=0.5), 3: cand(3)}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False,
            keyword_shares={1: 0.5}, config=DESIGN,
        )  # fmt: skip
        by_id = {r.memory_id: r for r in ranked}
        assert by_id[1].explain["rrf"] == pytest.approx(2.0 / 60, abs=1e-15)
        assert by_id[3].explain["rrf"] == pytest.approx(0.5 / 60, abs=1e-15)
        assert by_id[3].explain["ranks"] == {"keyword": None, "vector": None, "relational": 0}

    def test_participant_rows_are_boosted_before_the_floor(self):
        arms = {"vector": [1, 2]}
        candidates = {1: cand(1, cosine=0.5), 2: cand(2, cosine=0.5)}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False, participants={2},
            config=DESIGN,
        )  # fmt: skip
        assert [r.memory_id for r in ranked] == [2, 1]
        by_id = {r.memory_id: r for r in ranked}
        base_2 = 0.7 * (1 / 61) / (1 / 60) + 0.3 * 0.5
        assert by_id[2].explain["participant"] == 1.25 and by_id[1].explain["participant"] == 1.0
        assert by_id[2].explain["post_tier"] == pytest.approx(base_2 * 1.25, abs=1e-12)
        assert by_id[2].explain["floor"] == pytest.approx(0.6 * base_2 * 1.25, abs=1e-12)
        assert by_id[1].explain["post_tier"] == pytest.approx(0.7 + 0.3 * 0.5, abs=1e-12)

    def test_a_session_turn_with_few_content_words_is_damped_and_other_rows_are_not(self):
        # 1 leads the vector arm but is "Evening Jon!" (1 content word); 2 is a turn stating something; 3 is not a
        # session turn at all (turn_words None), however short
        arms = {"vector": [1, 2, 3]}
        candidates = {
            1: cand(1, cosine=0.5, turn_words=1),
            2: cand(2, cosine=0.5, turn_words=PHATIC_WORDS),
            3: cand(3, cosine=0.5, turn_words=None),
        }
        ranked = rank(arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False)
        by_id = {r.memory_id: r for r in ranked}
        assert [r.memory_id for r in ranked] == [2, 3, 1]
        assert by_id[1].explain["phatic"] == PHATIC_FACTOR < 1.0
        assert by_id[2].explain["phatic"] == 1.0 and by_id[3].explain["phatic"] == 1.0
        base_1 = 0.7 + 0.3 * 0.5
        assert by_id[1].explain["post_tier"] == pytest.approx(base_1 * PHATIC_FACTOR, abs=1e-12)

    def test_a_turn_about_someone_else_is_damped_by_the_third_party_factor(self):
        arms = {"vector": [1, 2]}
        candidates = {1: cand(1, cosine=0.5, turn_words=5), 2: cand(2, cosine=0.48, turn_words=5)}
        ranked = rank(
            arms=arms, candidates=candidates, query="q", now=NOW, top_k=5, autocut_enabled=False, third_party={1}
        )
        by_id = {r.memory_id: r for r in ranked}
        assert [r.memory_id for r in ranked] == [2, 1]
        assert by_id[1].explain["third_party"] == THIRD_PARTY_FACTOR < 1.0 and by_id[2].explain["third_party"] == 1.0
        assert by_id[1].explain["post_tier"] == pytest.approx((0.7 + 0.3 * 0.5) * THIRD_PARTY_FACTOR, abs=1e-12)

    @pytest.mark.parametrize("bad", [{"third_party_factor": 1.1}, {"third_party_factor": -0.1}])
    def test_bad_third_party_factor_is_refused(self, bad):
        with pytest.raises(ValueError):
            RankingConfig(**bad)

    @pytest.mark.parametrize("bad", [{"phatic_factor": 1.1}, {"phatic_factor": -0.1}, {"phatic_words": -1}])
    def test_bad_phatic_settings_are_refused(self, bad):
        with pytest.raises(ValueError):
            RankingConfig(**bad)

    @pytest.mark.parametrize("bad", [{"participant_boost": 0.9}, {"score_fusion": -0.1}, {"score_fusion": math.nan}])
    def test_bad_config_values_are_refused(self, bad):
        with pytest.raises(ValueError):
            RankingConfig(**bad)
