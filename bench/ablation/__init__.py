"""Which of the search's conversational and truth mechanisms pay (``eval_ablation``): each set is ingested once, then
asked in every configuration — all steps (``full``), each step of :data:`retrieval.conversation.STEPS` left out alone,
and each ranking switch that is not a step (:data:`RANKING_SWITCHES`) turned off alone — beside rank_bm25 over the
same texts. Per set and configuration: the set's own figures, computed by the set's own benchmark code (so ``full``
is what ``eval_conversations``, ``eval_realchat`` and ``eval_retrieval`` print for it), their difference from
``full``, and this process's CPU per search (``time.process_time`` around the searches over their count: the Python
side of a search, the query's embedding included, the database server's CPU not).

A step is left out through ``ORGMEMORY_SEARCH_STEPS`` (read on every search); a ranking switch through the defaults
of the ``RankingConfig`` the search service builds its configuration from, patched for the block only. The query
embedding cache is emptied before each configuration, so each one pays for its own embeddings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext

from bench.ablation.configs import AGAIN, FULL, RANKING_SWITCHES, Configuration, configurations, configured, step_clock
from bench.ablation.sets import (
    HALVES,
    SETS,
    SHARED_SETS,
    AblationSet,
    Measured,
    conversations_set,
    realchat_set,
    shared_sets,
)
from bench.ablation.table import format_report, format_set, report_rows
from bench.evaluation import BASELINE
from retrieval import services

__all__ = [
    "AGAIN",
    "BASELINE",
    "FULL",
    "HALVES",
    "RANKING_SWITCHES",
    "SETS",
    "SHARED_SETS",
    "AblationSet",
    "Configuration",
    "Measured",
    "ablate",
    "configurations",
    "configured",
    "conversations_set",
    "format_report",
    "format_set",
    "realchat_set",
    "report_rows",
    "shared_sets",
    "step_clock",
]


def ablate(
    ablation_set: AblationSet, configs: Sequence[Configuration], *, progress: Callable[[str], None] = lambda name: None
) -> dict:
    """``ablation_set`` asked in every configuration (``configs[0]`` is the one the others are compared with, and the
    one whose steps' own CPU is clocked), then rank_bm25: the set's report."""
    started = time.perf_counter()
    asked: dict[str, Measured] = {}
    steps_spent: dict[str, float] = {}
    for index, configuration in enumerate(configs):
        progress(configuration.name)
        services._embedding_cache.clear()  # every configuration embeds its questions itself
        with configured(configuration), step_clock() if index == 0 else nullcontext({}) as spent:
            asked[configuration.name] = ablation_set.ask()
        steps_spent |= spent
    reference, *others = asked
    rows = {reference: asked[reference], BASELINE: ablation_set.baseline(), **{name: asked[name] for name in others}}
    return report_rows(
        rows,
        reference=reference,
        steps_spent=steps_spent,
        name=ablation_set.name,
        label=ablation_set.label,
        seconds={"ingest": round(ablation_set.ingest_s, 1), "search": round(time.perf_counter() - started, 1)},
    )
