"""The configurations an ablation runs the search in, and how the search is switched into one (``configured``) and
its steps clocked (``step_clock``) — in the bench only: the product's search reads ``ORGMEMORY_SEARCH_STEPS`` and
builds its ``RankingConfig`` as it always does."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from unittest import mock

from django.test import override_settings

from retrieval import services
from retrieval.conversation import STEPS, Step
from retrieval.ranking import RankingConfig

FULL = "full"
AGAIN = "full again"  # full, asked once more after every other configuration: its CPU difference is the noise
# Ranking mechanisms that are not steps: the RankingConfig fields that switch each off, and their neutral values.
RANKING_SWITCHES: Mapping[str, Mapping[str, float]] = MappingProxyType(
    {
        "date_window": MappingProxyType({"date_window_boost": 1.0}),
        "participant_boost": MappingProxyType({"participant_boost": 1.0}),
    }
)


@dataclass(frozen=True)
class Configuration:
    """One way of running the search: the steps it runs, in order, and the RankingConfig defaults laid over the
    shipped ones (empty: as shipped)."""

    name: str
    steps: tuple[str, ...]
    ranking: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))


def configurations(
    steps: Sequence[str] | None = None,
    switches: Mapping[str, Mapping[str, float]] = RANKING_SWITCHES,
    *,
    again: bool = False,
) -> list[Configuration]:
    """``full`` (every step of ``steps``, by default all of ``retrieval.conversation.STEPS``, in their order), then
    each step left out alone (``-name``), then each ranking switch off alone (``-name``, every step running), then,
    when ``again``, full once more (:data:`AGAIN`: the same figures, and a CPU difference that is only noise)."""
    names = tuple(step.name for step in STEPS) if steps is None else tuple(steps)
    clash = sorted(set(names) & set(switches))
    if clash:
        raise ValueError(f"ranking switches named like steps: {clash}")
    return [
        Configuration(FULL, names),
        *(Configuration(f"-{name}", tuple(other for other in names if other != name)) for name in names),
        *(Configuration(f"-{name}", names, MappingProxyType(dict(values))) for name, values in switches.items()),
        *([Configuration(AGAIN, names)] if again else []),
    ]


@contextmanager
def configured(configuration: Configuration) -> Iterator[None]:
    """The search service runs as ``configuration`` says inside the block: its steps through the setting the search
    reads on every search, its ranking defaults through the ``RankingConfig`` the service builds its configuration
    from (a bench-only patch, undone on exit)."""
    with ExitStack() as stack:
        stack.enter_context(override_settings(ORGMEMORY_SEARCH_STEPS=configuration.steps))
        if configuration.ranking:
            factory = partial(RankingConfig, **configuration.ranking)
            stack.enter_context(mock.patch.object(services, "RankingConfig", factory))
        yield


@contextmanager
def step_clock() -> Iterator[dict[str, float]]:
    """Inside the block, the CPU each step of the search spends in its own functions (step name → seconds, summed
    over its points and searches), measured around each call the search service makes to it; what a step costs
    elsewhere (the turns it asks the load statement for) shows only in the difference its absence makes."""
    spent: dict[str, float] = {}
    run = services.run

    def clocked(step: Step, point: str) -> Step:
        move = getattr(step, point)
        if move is None:
            return step

        def timed(page):
            started = time.process_time()
            try:
                return move(page)
            finally:
                spent[step.name] = spent.get(step.name, 0.0) + time.process_time() - started

        return replace(step, **{point: timed})

    def timed_run(steps: Sequence[Step], point: str, page):
        return run([clocked(step, point) for step in steps], point, page)

    with mock.patch.object(services, "run", timed_run):
        yield spent
