"""The fusion fit (``bench.fusion_fit``, behind ``fit_fusion``): captured inputs re-ranked under other tunables,
scored per set and macro-averaged, fitted by deterministic coordinate ascent whose ties keep the defaults. Pure: no
Django, no database."""

from __future__ import annotations

import pickle
import sys
import types
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bench import fusion_fit
from retrieval import ranking

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
# A start that does not depend on ranking's defaults: equal keyword and vector weights.
BASE = {**fusion_fit.default_params(), "keyword_weight": 1.0, "vector_weight": 1.0}


def _table(*names: str) -> list[fusion_fit.Param]:
    """The fitted tunables (all, or those named), their grids centred on BASE."""
    return [replace(p, default=BASE[p.name]) for p in fusion_fit.params_table() if not names or p.name in names]


def _candidate(memory_id: int, *, cosine: float | None = None, turn_words: int | None = None) -> ranking.Candidate:
    return ranking.Candidate(
        memory_id=memory_id,
        content_hash=f"h{memory_id}",
        level="user",
        title=f"t{memory_id}",
        created_at=NOW - timedelta(days=1),
        cosine=cosine,
        turn_words=turn_words,
    )


def _inputs(config: ranking.RankingConfig | None = None) -> dict:
    """Keyword arm says 1, 2, 3; vector arm says 3, 2, 1, same cosines: which wins depends on the weights."""
    return {
        "arms": {"keyword": [1, 2, 3], "vector": [3, 2, 1]},
        "candidates": {i: _candidate(i, cosine=0.5) for i in (1, 2, 3)},
        "query": "what",
        "now": NOW,
        "top_k": 10,
        "autocut_enabled": False,
        "config": config or replace(ranking.RankingConfig(), score_fusion=None),
        "keyword_confidence": 0.0,
    }


def _case(set_name: str, gold: str, inputs: dict | None = None) -> fusion_fit.Case:
    inputs = inputs if inputs is not None else _inputs()
    key_of = {1: "a", 2: "b", 3: "c"}
    ranked = tuple(key_of[r.memory_id] for r in ranking.rank(**inputs))
    return fusion_fit.Case(set_name=set_name, inputs=inputs, key_of=key_of, gold=frozenset({gold}), ranked=ranked)


def test_grids_stay_within_bounds_and_hold_the_current_value():
    params = {p.name: p for p in fusion_fit.params_table()}
    assert params["keyword_trust"].grid(1.0) == [0.5, 0.75, 1.0]
    assert params["rrf_k"].grid(60.0) == [30.0, 45.0, 60.0, 90.0, 120.0]
    assert params["phatic_words"].grid(1.0) == [0.0, 1.0, 2.0, 3.0]
    assert params["participant_boost"].grid(1.0) == [1.0, 1.1, 1.25]
    for param in params.values():
        assert param.default in param.grid(param.default)


def test_the_defaults_are_rankings_own_and_reproduce_the_captured_ranking():
    defaults = fusion_fit.default_params()
    config = ranking.RankingConfig()
    assert defaults["rrf_k"] == config.rrf_k and defaults["phatic_factor"] == config.phatic_factor
    case = _case("s", "c")
    assert tuple(fusion_fit.rerank(case, defaults)) == case.ranked


def test_configure_keeps_what_the_search_service_decided_for_the_question():
    params = {**fusion_fit.default_params(), "score_fusion": 0.7, "relational_weight": 3.0}
    plain = replace(
        ranking.RankingConfig(), score_fusion=None, arm_weights={"keyword": 1, "vector": 1, "relational": 0.1}
    )
    out = fusion_fit.configure(plain.with_tier_overrides({"org": 0.5}), params)
    assert out.score_fusion is None  # not a conversational pool: no score fusion, whatever the fitted value
    assert out.tier_boost["org"] == 0.5 and out.lead_arm is None
    assert out.arm_weights["relational"] == 0.1  # an "about" plan: the service's weight, not ranking's default
    led = fusion_fit.configure(replace(ranking.RankingConfig(), lead_arm="relational"), params)
    assert led.lead_arm == "relational" and led.arm_weights["relational"] == 3.0 and led.score_fusion == 0.7


def test_reranking_follows_the_weights():
    case = _case("s", "c")
    assert fusion_fit.rerank(case, {**BASE, "keyword_weight": 4.0})[0] == "a"
    assert fusion_fit.rerank(case, {**BASE, "vector_weight": 4.0})[0] == "c"


def test_the_objective_counts_each_set_once_whatever_its_size():
    scores = {"big": {"r5": 1.0, "r10": 1.0, "n": 500}, "small": {"r5": 0.0, "r10": 0.5, "n": 5}}
    assert fusion_fit.objective(scores) == pytest.approx(1.25)
    case = _case("s", "c")
    never = fusion_fit.Case(set_name="s", inputs=None, key_of={}, gold=frozenset({"c"}))
    row = fusion_fit.evaluate([case, never], fusion_fit.default_params())["s"]
    assert row["n"] == 2 and row["r10"] == pytest.approx(0.5)  # a search that never ranked counts as a miss


def test_fit_moves_only_for_a_gain_and_ties_keep_the_default():
    flat = fusion_fit.fit([], scores=lambda values: {"s": {"r5": 0.5, "r10": 0.5}})
    assert flat.params == fusion_fit.default_params()
    assert len({step.pass_no for step in flat.steps}) == 1  # nothing moved: one pass

    def peaked(values):  # best at vector weight 2 (reached over two passes), flat in everything else
        return {"s": {"r5": -abs(values["vector_weight"] - 2.0), "r10": 0.0}}

    moved = fusion_fit.fit([], params=_table(), start=BASE, scores=peaked)
    assert moved.params["vector_weight"] == 2.0
    assert {k: v for k, v in moved.params.items() if k != "vector_weight"} == {
        k: v for k, v in BASE.items() if k != "vector_weight"
    }
    assert fusion_fit.fit([], params=_table(), start=BASE, scores=peaked, min_gain=10.0).params == BASE
    assert fusion_fit.fit([], params=_table(), start=BASE, scores=peaked).params == moved.params  # deterministic


def test_no_set_pays_for_another_under_the_guard():
    def trade(values):  # a higher vector weight helps set a by twice what it costs set b
        gain = values["vector_weight"] - 1.0
        return {"a": {"r5": 2 * gain, "r10": 0.0}, "b": {"r5": -gain, "r10": 0.0}}

    table = _table("vector_weight")
    assert fusion_fit.fit([], params=table, start=BASE, scores=trade, passes=1).params["vector_weight"] == 2.0
    guarded = fusion_fit.fit([], params=table, start=BASE, scores=trade, max_set_loss=0.5, passes=1)
    assert guarded.params["vector_weight"] == 1.5  # costs b 0.5, allowed; 2.0 would cost it 1.0
    assert fusion_fit.fit([], params=table, start=BASE, scores=trade, max_set_loss=0.0).params["vector_weight"] == 1.0
    refused = [step for step in guarded.steps if step.tried[2.0] is None]
    assert refused

    def swap(values):  # a higher vector weight buys R@10 with R@5 in the one set
        gain = values["vector_weight"] - 1.0
        return {"a": {"r5": -gain, "r10": 2 * gain}}

    assert fusion_fit.fit([], params=table, start=BASE, scores=swap, passes=1).params["vector_weight"] == 2.0
    assert fusion_fit.fit([], params=table, start=BASE, scores=swap, max_set_loss=0.0).params["vector_weight"] == 1.0


def test_fit_on_cases_finds_weights_that_bring_the_gold_into_the_top_five():
    # the keyword arm puts the gold (12) last of 12, the vector arm first; at a vector weight of 0.05 it is 6th
    inputs = {
        **_inputs(),
        "arms": {"keyword": list(range(1, 13)), "vector": [12]},
        "candidates": {i: _candidate(i) for i in range(1, 13)},
    }
    key_of = {i: str(i) for i in range(1, 13)}
    cases = [fusion_fit.Case(set_name="s", inputs=inputs, key_of=key_of, gold=frozenset({"12"}))]
    start = {**BASE, "vector_weight": 0.05}
    table = _table("keyword_weight", "vector_weight")
    before = fusion_fit.evaluate(cases, start)["s"]
    assert (before["r5"], before["r10"]) == (0.0, 1.0)
    result = fusion_fit.fit(cases, params=table, start=start)
    assert result.objective == 2.0 and "12" in fusion_fit.rerank(cases[0], result.params)[:5]
    assert fusion_fit.fit(cases, params=table, start=start).params == result.params


def test_capturing_rank_records_and_restores():
    module = types.ModuleType("retrieval._fit_probe")
    module.rank = ranking.rank
    sys.modules[module.__name__] = module
    try:
        with fusion_fit.capturing_rank() as calls:
            assert module.rank is not ranking.rank
            module.rank(**_inputs())
        assert module.rank is ranking.rank
        assert len(calls.inputs) == 1 and calls.outputs[0][0] in (1, 3)
        assert calls.inputs[0]["query"] == "what"
    finally:
        del sys.modules[module.__name__]


def test_saved_cases_come_back_the_same():
    case = _case("s", "c", _inputs(ranking.RankingConfig().with_tier_overrides({"org": 0.5})))
    back = fusion_fit.restored(pickle.loads(pickle.dumps(fusion_fit.portable(case))))  # noqa: S301 - our own bytes
    assert back.inputs["config"] == case.inputs["config"]
    assert fusion_fit.rerank(back, fusion_fit.default_params()) == fusion_fit.rerank(case, fusion_fit.default_params())


def test_any_copy_of_a_generated_corpus_source_is_a_hit():
    keys = fusion_fit.SourceKeys(frozenset({7, 9}))
    assert (keys[7], keys[9], keys[3], keys.get(3)) == ("source", "source", "3", "3")
    ranked = [keys[i] for i in (3, 9, 7)]
    assert fusion_fit.share_in(ranked, frozenset({"source"}), 1) == 0.0
    assert fusion_fit.share_in(ranked, frozenset({"source"}), 2) == 1.0
    assert pickle.loads(pickle.dumps(keys))[9] == "source"  # noqa: S301 - our own bytes
