"""The ablation's pure parts (bench.ablation): which configurations it runs, that a step left out or a ranking switch
turned off is what the search service then runs with, and how its table reads. No database."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench.ablation import (
    AGAIN,
    BASELINE,
    FULL,
    RANKING_SWITCHES,
    Configuration,
    Measured,
    configurations,
    configured,
    format_set,
    report_rows,
    shared_sets,
    step_clock,
)
from retrieval import services
from retrieval.conversation import STEPS, Step, search_steps
from retrieval.conversation.page import run as page_run
from retrieval.ranking import DATE_WINDOW_BOOST, PARTICIPANT_BOOST, RankingConfig
from retrieval.services import SearchOptions

ALL = tuple(step.name for step in STEPS)


def _search_config():
    """The RankingConfig the search service builds for a page (``retrieval.services._unranked``), on no
    candidates: what ranking would multiply by."""
    arms = SimpleNamespace(keyword=[], vector=[], rows={}, cosines={})
    retrieved = SimpleNamespace(arms=arms, walk=None, degraded=[], answered=False)
    return services._unranked("q", retrieved, {}, {}, None, SearchOptions()).config


# --- configurations ------------------------------------------------------------------------------------------------


def test_full_runs_every_step_then_each_is_left_out_alone_then_each_ranking_switch_is_turned_off():
    configs = configurations()

    assert [config.name for config in configs] == [
        FULL,
        *(f"-{name}" for name in ALL),
        "-date_window",
        "-participant_boost",
    ]
    assert configs[0] == Configuration(FULL, ALL)
    for config, left_out in zip(configs[1 : 1 + len(ALL)], ALL, strict=True):
        assert config.steps == tuple(name for name in ALL if name != left_out)
        assert dict(config.ranking) == {}
    assert [(config.steps, dict(config.ranking)) for config in configs[1 + len(ALL) :]] == [
        (ALL, {"date_window_boost": 1.0}),
        (ALL, {"participant_boost": 1.0}),
    ]


def test_configurations_of_given_steps_and_switches():
    configs = configurations(("a", "b"), {"boost": {"date_window_boost": 1.0}})

    assert [(c.name, c.steps, dict(c.ranking)) for c in configs] == [
        ("full", ("a", "b"), {}),
        ("-a", ("b",), {}),
        ("-b", ("a",), {}),
        ("-boost", ("a", "b"), {"date_window_boost": 1.0}),
    ]


def test_full_again_comes_last_with_every_step():
    configs = configurations(("a", "b"), {}, again=True)

    assert [(c.name, c.steps) for c in configs] == [
        ("full", ("a", "b")),
        ("-a", ("b",)),
        ("-b", ("a",)),
        (AGAIN, ("a", "b")),
    ]


def test_a_switch_named_like_a_step_is_refused():
    with pytest.raises(ValueError, match="named like steps: \\['a'\\]"):
        configurations(("a", "b"), {"a": {"date_window_boost": 1.0}})


def test_every_ranking_switch_names_a_ranking_field_and_a_value_it_accepts():
    for values in RANKING_SWITCHES.values():
        RankingConfig(**values)  # an unknown field is a TypeError, a value out of range a ValueError


# --- configured: what the search then runs with --------------------------------------------------------------------


@pytest.mark.parametrize("left_out", ALL)
def test_a_step_left_out_is_not_among_the_steps_the_search_runs(left_out):
    config = next(config for config in configurations() if config.name == f"-{left_out}")

    with configured(config):
        running = [step.name for step in search_steps()]

    assert running == [name for name in ALL if name != left_out]
    assert [step.name for step in search_steps()] == list(ALL)  # restored on exit


def test_full_runs_every_step_whatever_the_setting_said(settings):
    settings.ORGMEMORY_SEARCH_STEPS = ("truth",)

    with configured(configurations()[0]):
        assert search_steps() == STEPS


def test_a_ranking_switch_reaches_the_configuration_the_search_ranks_with_and_nothing_else():
    date_window, participant = (c for c in configurations() if c.name in ("-date_window", "-participant_boost"))
    assert (_search_config().date_window_boost, _search_config().participant_boost) == (
        DATE_WINDOW_BOOST,
        PARTICIPANT_BOOST,
    )

    with configured(date_window):
        during = _search_config()
        assert search_steps() == STEPS
    assert (during.date_window_boost, during.participant_boost) == (1.0, PARTICIPANT_BOOST)
    with configured(participant):
        during = _search_config()
    assert (during.date_window_boost, during.participant_boost) == (DATE_WINDOW_BOOST, 1.0)

    assert (_search_config().date_window_boost, _search_config().participant_boost) == (
        DATE_WINDOW_BOOST,
        PARTICIPANT_BOOST,
    )
    assert services.RankingConfig is RankingConfig


def test_the_step_clock_times_each_step_the_search_runs_at_every_point_and_is_undone_on_exit():
    busy = Step("busy", weigh=lambda page: page + sum(range(200_000)) * 0)
    idle = Step("idle", order=lambda page: page + 1)

    with step_clock() as spent:
        assert services.run([busy, idle], "weigh", 1) == 1
        assert services.run([busy, idle], "order", 1) == 2

    assert sorted(spent) == ["busy", "idle"]
    assert spent["busy"] > spent["idle"] >= 0.0
    assert services.run is page_run


# --- the table -----------------------------------------------------------------------------------------------------


def _report():
    rows = {
        FULL: Measured(
            {"answerable|R@5": 0.8, "answerable|R@10": 0.9, "updates|first": 0.75, "date|answer": 0.5}, 4, 0.048
        ),
        BASELINE: Measured({"answerable|R@5": 0.25, "answerable|R@10": 0.5, "updates|first": 0.5}, 4, 0.0008),
        "-follow_ups": Measured(
            {"answerable|R@5": 0.8, "answerable|R@10": 0.85, "updates|first": 1.0, "date|answer": 0.25}, 4, 0.044
        ),
    }
    return report_rows(
        rows,
        reference=FULL,
        name="chats",
        label="a set",
        seconds={"ingest": 1.5, "search": 2.0},
        steps_spent={"follow_ups": 0.002, "truth": 0.0004},
    )


def test_the_report_gives_each_configuration_its_figures_their_difference_from_full_and_its_cpu_per_search():
    report = _report()

    assert report["searches"] == 4
    assert report["configs"]["-follow_ups"] == {
        "figures": {"answerable|R@5": 0.8, "answerable|R@10": 0.85, "updates|first": 1.0, "date|answer": 0.25},
        "delta": {"answerable|R@5": 0.0, "answerable|R@10": -0.05, "updates|first": 0.25, "date|answer": -0.25},
        "cpu_ms": 11.0,
        "cpu_delta_ms": -1.0,
        "step_cpu_ms": 0.5,
    }
    assert (report["configs"][FULL]["cpu_ms"], report["configs"][FULL]["step_cpu_ms"]) == (12.0, 0.6)
    assert report["configs"][BASELINE]["cpu_ms"] == 0.2
    assert "step_cpu_ms" not in report["configs"][BASELINE]


def test_the_table_prints_full_and_rank_bm25_as_figures_the_other_rows_as_differences_and_a_dash_for_none():
    assert format_set(_report()) == [
        "== chats: a set; 4 searches a configuration; ingest 1.5s, searches 2.0s",
        "                   answerable  updates    date         CPU   own CPU",
        "config            R@5    R@10    first  answer   ms/search        ms",
        "full            0.800   0.900    0.750   0.500       12.00     0.600",
        "rank_bm25       0.250   0.500    0.500       -        0.20",
        "-follow_ups         .  -0.050   +0.250  -0.250       -1.00     0.500",
    ]


# --- the shared sets: each asks its own tenant ------------------------------------------------------------------


class _Retrieval:
    """eval_retrieval's command as shared_sets calls it, recording which tenant and baseline each set's run got."""

    calls: list[tuple[str, str, str]] = []

    def _world(self, path, options):
        return "world-tenant", {}, {"memories": 1}, "world-bm25", [], {}

    def _assoc(self, path, options):
        return "assoc-tenant", {}, {"memories": 1}, "assoc-bm25", [], []

    def _result(self, groups):
        table = {
            config: {group: {"r5": 1.0, "r10": 1.0, "mrr": 1.0} for group in groups} for config in ("full", BASELINE)
        }
        for row in table.values():
            row |= {"negatives": {"abstained": 0.0}, "hidden_returned_any": 0}
        return {"n": 2, "table": table, "latency": {"full": {"cpu_ms": 8.0}, BASELINE: {"cpu_ms": 0.5}}}

    def _world_set(self, tenant, slug_of, baseline, questions, configs, label):
        self.calls.append(("world", tenant, baseline))
        return self._result(("all", "attended", "works_at", "invested_in", "advises"))

    def _assoc_set(self, tenant, key_of, baseline, probes, hidden, configs, label):
        self.calls.append(("assoc", tenant, baseline))
        return self._result(("indirect", "direct", "indirect/dev_half", "indirect/other_half"))


def test_each_shared_set_asks_its_own_tenant_beside_its_own_baseline_and_reads_rank_bm25_from_its_last_run(
    monkeypatch, tmp_path
):
    monkeypatch.setattr("bench.management.commands.eval_retrieval.Command", _Retrieval)
    _Retrieval.calls = []
    sets, _ = shared_sets(tmp_path, ["world", "assoc"], quiet=True, log=lambda line: None)

    world, assoc = sets
    full = world.ask()
    bm25 = world.baseline()
    assoc.ask()

    assert _Retrieval.calls == [("world", "world-tenant", "world-bm25"), ("assoc", "assoc-tenant", "assoc-bm25")]
    assert (full.searches, full.cpu_s, full.figures["all|MRR"]) == (2, 0.016, 1.0)
    assert (bm25.searches, bm25.cpu_s) == (2, 0.001)
