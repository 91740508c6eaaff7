"""Fusion fitted, not hand-set (issue 41 item 3): the numeric tunables of ``retrieval.ranking.rank`` chosen by
coordinate ascent on ranking inputs captured from real searches — pure: no Django, no database.

``fit_fusion`` (the management command) searches the development questions of every set once, keeps for each the
keyword arguments ``rank`` received (:func:`capturing_rank`) and the question's gold keys (:class:`Case`); this
module re-ranks those inputs under other values of the tunables and scores the top lists:

- :data:`PARAMS`: what is fitted, each on a small grid around its current value (:meth:`Param.grid`);
- :func:`configure`: the config a captured search would have had under other values, keeping what the search
  service decided for that question (a lead arm, no score fusion outside conversations, the relational weight of an
  "about" plan, a policy's tier boosts);
- :func:`evaluate`: per set R@5 and R@10 of the re-ranked lists; :func:`objective` the mean over sets of R@5 + R@10,
  macro-averaged so that the largest set does not dominate;
- :func:`fit`: coordinate ascent — a few passes over the parameters, each set to the best value of its grid with the
  others held; a move needs a gain above ``min_gain`` and ties keep the value nearest the default, so equal scores
  never move a parameter away from it; with ``max_set_loss`` no move may cost any one set more than that of its
  R@5 or of its R@10 at the defaults. Deterministic: same inputs, same fit.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from retrieval import ranking

KS = (5, 10)


@dataclass(frozen=True)
class Param:
    """One fitted tunable: its default, how its grid is made around a value (``deltas`` added, or multiplied when
    ``relative``), and its bounds (``integer``: rounded)."""

    name: str
    default: float
    deltas: tuple[float, ...]
    lo: float
    hi: float = math.inf
    relative: bool = False
    integer: bool = False

    def grid(self, current: float) -> list[float]:
        values = {current}
        for delta in self.deltas:
            value = current * delta if self.relative else current + delta
            value = min(self.hi, max(self.lo, value))
            values.add(float(round(value)) if self.integer else round(value, 4))
        return sorted(values)


def _defaults() -> ranking.RankingConfig:
    return ranking.RankingConfig()


def default_params() -> dict[str, float]:
    """The fitted tunables at the current defaults of ``retrieval.ranking``."""
    config = _defaults()
    return {
        "keyword_weight": config.arm_weights["keyword"],
        "vector_weight": config.arm_weights["vector"],
        "relational_weight": config.arm_weights["relational"],
        "rrf_k": float(config.rrf_k),
        "keyword_trust": config.keyword_trust,
        "turn_keyword_trust": config.turn_keyword_trust,
        "score_fusion": config.score_fusion if config.score_fusion is not None else 0.0,
        "participant_boost": config.participant_boost,
        "date_window_boost": config.date_window_boost,
        "phatic_words": float(config.phatic_words),
        "phatic_factor": config.phatic_factor,
        "third_party_factor": config.third_party_factor,
        "recency_max": config.recency_max,
        "recency_half_days": config.recency_half_days,
        "title_boost": config.title_boost,
        "floor_ratio": config.floor_ratio,
    }


_MULTIPLY = (0.5, 0.75, 1.5, 2.0)
_SHARE = (-0.2, -0.1, 0.1, 0.2)


def params_table() -> tuple[Param, ...]:
    """Every fitted tunable, its grid and bounds (the bounds are ``RankingConfig``'s checks)."""
    d = default_params()
    return (
        Param("keyword_weight", d["keyword_weight"], _MULTIPLY, lo=0.0, relative=True),
        Param("vector_weight", d["vector_weight"], _MULTIPLY, lo=0.0, relative=True),
        Param("relational_weight", d["relational_weight"], _MULTIPLY, lo=0.0, relative=True),
        Param("rrf_k", d["rrf_k"], _MULTIPLY, lo=1.0, relative=True, integer=True),
        Param("keyword_trust", d["keyword_trust"], (-0.5, -0.25, 0.25, 0.5), lo=0.0, hi=1.0),
        Param("turn_keyword_trust", d["turn_keyword_trust"], (-1.0, -0.5, -0.25, 0.25, 0.5, 1.0), lo=0.0, hi=1.0),
        Param("score_fusion", d["score_fusion"], _SHARE, lo=0.0),
        Param("participant_boost", d["participant_boost"], (-0.25, -0.1, 0.1, 0.25), lo=1.0),
        Param("date_window_boost", d["date_window_boost"], (-0.2, -0.1, 0.1, 0.2), lo=1.0, hi=2.0),
        Param("phatic_words", d["phatic_words"], (-2.0, -1.0, 1.0, 2.0), lo=0.0, integer=True),
        Param("phatic_factor", d["phatic_factor"], _SHARE, lo=0.0, hi=1.0),
        Param("third_party_factor", d["third_party_factor"], _SHARE, lo=0.0, hi=1.0),
        Param("recency_max", d["recency_max"], (-0.4, -0.2, -0.1, 0.1, 0.2), lo=0.0),
        Param("recency_half_days", d["recency_half_days"], (0.25, 0.5, 2.0, 4.0), lo=1.0, relative=True),
        Param("title_boost", d["title_boost"], (-0.25, -0.1, 0.1, 0.25), lo=1.0),
        Param("floor_ratio", d["floor_ratio"], _SHARE, lo=0.0, hi=1.0),
    )


# --- capture -----------------------------------------------------------------------------------------------------


@dataclass
class Calls:
    """What the patched ``rank`` saw during one search: the keyword arguments of each call and what it returned."""

    inputs: list[dict[str, Any]] = field(default_factory=list)
    outputs: list[list[int]] = field(default_factory=list)

    def clear(self) -> None:
        self.inputs.clear()
        self.outputs.clear()


@contextlib.contextmanager
def capturing_rank(modules: Sequence[str] = ("retrieval",)) -> Iterator[Calls]:
    """Patch ``retrieval.ranking.rank`` wherever a loaded module under ``modules`` imported it by name (the search
    service does: ``from retrieval.ranking import rank``), recording each call; restored on exit. The product code
    is not changed: only the names bound in those modules, for the duration of the block."""
    real = ranking.rank
    calls = Calls()

    def keep(**kwargs: Any) -> list[ranking.Ranked]:
        calls.inputs.append(dict(kwargs))
        out = real(**kwargs)
        calls.outputs.append([item.memory_id for item in out])
        return out

    patched = []
    for name, module in list(sys.modules.items()):
        if module is None or module is ranking or not any(name == m or name.startswith(m + ".") for m in modules):
            continue
        if getattr(module, "rank", None) is real:
            patched.append(module)
            module.rank = keep
    try:
        yield calls
    finally:
        for module in patched:
            module.rank = real


# --- one question ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One development question: the inputs ``rank`` received (``None``: the search never ranked, so no re-ranking
    can find anything), how its memory ids map to the set's keys, and the keys that answer it."""

    set_name: str
    inputs: Mapping[str, Any] | None
    key_of: Mapping[int, str]
    gold: frozenset[str]
    ranked: tuple[str, ...] = ()  # what rank returned during the search (the defaults must reproduce it)
    searched: tuple[str, ...] = ()  # the search's own hits, end to end (after the passes that follow rank)


class SourceKeys(Mapping[int, str]):
    """Keys for a question of a generated corpus: every memory holding the text it was drawn from (the same text
    sits at several scopes) is the one key ``"source"``, any other memory its own id — so R@k is whether some copy
    of the source came back in the top k, as ``tune_fusion`` counts it."""

    def __init__(self, sources: frozenset[int]) -> None:
        self.sources = frozenset(sources)

    def __getitem__(self, memory_id: int) -> str:
        return "source" if memory_id in self.sources else str(memory_id)

    def __iter__(self) -> Iterator[int]:
        return iter(self.sources)

    def __len__(self) -> int:
        return len(self.sources)


def share_in(keys: Sequence[str], gold: frozenset[str], k: int) -> float:
    """The share of ``gold`` among the first ``k`` distinct keys."""
    top = set(list(dict.fromkeys(keys))[:k])
    return len(top & gold) / len(gold) if gold else 0.0


def configure(captured: ranking.RankingConfig, params: Mapping[str, float]) -> ranking.RankingConfig:
    """The config the search would have ranked with had ranking's defaults been ``params``: what the service set for
    this question is kept (the tier boosts with the policy's overrides, the lead arm, score fusion switched off
    outside conversational pools, autocut, and the relational weight of an "about" plan: the service's own, not a
    default of ranking); ``relational_weight`` is the relational arm's where it leads."""
    weights = dict(captured.arm_weights)
    weights["keyword"] = params["keyword_weight"]
    weights["vector"] = params["vector_weight"]
    if captured.lead_arm:
        weights["relational"] = params["relational_weight"]
    return replace(
        captured,
        arm_weights=weights,
        rrf_k=int(params["rrf_k"]),
        keyword_trust=params["keyword_trust"],
        turn_keyword_trust=params["turn_keyword_trust"],
        score_fusion=None if captured.score_fusion is None else params["score_fusion"],
        participant_boost=params["participant_boost"],
        date_window_boost=params["date_window_boost"],
        phatic_words=int(params["phatic_words"]),
        phatic_factor=params["phatic_factor"],
        third_party_factor=params["third_party_factor"],
        recency_max=params["recency_max"],
        recency_half_days=params["recency_half_days"],
        title_boost=params["title_boost"],
        floor_ratio=params["floor_ratio"],
    )


def rerank(case: Case, params: Mapping[str, float]) -> list[str]:
    """The case's keys, best first, as ``rank`` orders them under ``params``."""
    if case.inputs is None:
        return []
    inputs = dict(case.inputs)
    inputs["config"] = configure(inputs["config"], params)
    return [case.key_of.get(item.memory_id, f"?{item.memory_id}") for item in ranking.rank(**inputs)]


# --- scores ------------------------------------------------------------------------------------------------------


def recall(lists: Mapping[str, list[tuple[Sequence[str], frozenset[str]]]]) -> dict[str, dict[str, float]]:
    """Per set: R@5, R@10 (mean share of gold in the top k) and n, from (ranked keys, gold) pairs."""
    out = {}
    for name, pairs in lists.items():
        row: dict[str, float] = {f"r{k}": _mean(share_in(keys, gold, k) for keys, gold in pairs) for k in KS}
        row["n"] = len(pairs)
        out[name] = row
    return out


def evaluate(cases: Sequence[Case], params: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """Per set R@5 / R@10 of the re-ranked lists."""
    lists: dict[str, list] = {}
    for case in cases:
        lists.setdefault(case.set_name, []).append((rerank(case, params), case.gold))
    return recall(lists)


def searched(cases: Sequence[Case]) -> dict[str, dict[str, float]]:
    """Per set R@5 / R@10 of the searches' own hits (end to end, as captured)."""
    lists: dict[str, list] = {}
    for case in cases:
        lists.setdefault(case.set_name, []).append((case.searched, case.gold))
    return recall(lists)


def objective(scores: Mapping[str, Mapping[str, float]]) -> float:
    """Mean over sets of R@5 + R@10 (each set counts once, whatever its size)."""
    if not scores:
        return 0.0
    return sum(row["r5"] + row["r10"] for row in scores.values()) / len(scores)


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


# --- coordinate ascent -------------------------------------------------------------------------------------------


@dataclass
class Step:
    """One coordinate of one pass: the values tried and their objective (``None``: refused by the per-set guard),
    and the value kept."""

    pass_no: int
    param: str
    tried: dict[float, float | None]
    before: float
    after: float
    value: float


@dataclass
class Fit:
    params: dict[str, float]
    objective: float
    steps: list[Step]


Scores = Mapping[str, Mapping[str, float]]


def fit(
    cases: Sequence[Case],
    *,
    params: Sequence[Param] | None = None,
    start: Mapping[str, float] | None = None,
    passes: int = 3,
    min_gain: float = 0.0,
    max_set_loss: float | None = None,
    scores: Callable[[Mapping[str, float]], Scores] | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> Fit:
    """Coordinate ascent from ``start`` (the defaults): each pass sets every parameter in turn to the best value of
    its grid around the current value, the others held; a value replaces the current one only when it scores more
    than ``min_gain`` above it, and among values within ``min_gain`` of the best the one nearest the default wins
    (then the smaller). With ``max_set_loss``, a value that leaves any set's R@5 or its R@10 more than that below
    its figure at ``start`` is not taken (no set pays for another, nor R@5 for R@10). Stops after ``passes`` or at
    the first pass that moves nothing. ``scores`` (values → per-set R@5 / R@10) defaults to :func:`evaluate` on
    ``cases``."""
    table = tuple(params) if params is not None else params_table()
    defaults = {p.name: p.default for p in table}
    current = dict(start if start is not None else default_params())
    measure = scores or (lambda values: evaluate(cases, values))
    cache: dict[tuple, Scores] = {}

    def per_set(values: Mapping[str, float]) -> Scores:
        key = tuple(sorted(values.items()))
        if key not in cache:
            cache[key] = measure(values)
        return cache[key]

    loss = max_set_loss if max_set_loss is not None else math.inf
    floor = {(name, k): row[f"r{k}"] - loss for name, row in per_set(current).items() for k in KS}

    def value_of(values: Mapping[str, float]) -> float | None:
        got = per_set(values)
        if any(row[f"r{k}"] < floor[name, k] - 1e-12 for name, row in got.items() for k in KS):
            return None
        return objective(got)

    best = value_of(current)
    steps: list[Step] = []
    for pass_no in range(1, passes + 1):
        moved = False
        for param in table:
            tried = {value: value_of({**current, param.name: value}) for value in param.grid(current[param.name])}
            allowed = {value: got for value, got in tried.items() if got is not None}
            top = max(allowed.values())
            chosen = current[param.name]
            if top > allowed[chosen] + min_gain:
                near_top = [value for value, got in allowed.items() if got >= top - min_gain]
                chosen = min(near_top, key=lambda v: (abs(v - defaults[param.name]), v))
            steps.append(Step(pass_no, param.name, tried, best, allowed[chosen], chosen))
            if chosen != current[param.name]:
                moved = True
                log(
                    f"pass {pass_no}: {param.name} {current[param.name]:g} -> {chosen:g} "
                    f"({best:.4f} -> {allowed[chosen]:.4f})"
                )
                current[param.name] = chosen
                best = allowed[chosen]
        if not moved:
            break
    return Fit(params=current, objective=best, steps=steps)


# --- saving captured cases ---------------------------------------------------------------------------------------


def config_fields(config: ranking.RankingConfig) -> dict[str, Any]:
    """A config as plain values (its read-only mappings as dicts), for pickling."""
    out = {}
    for item in fields(config):
        value = getattr(config, item.name)
        out[item.name] = dict(value) if isinstance(value, Mapping) else value
    return out


def portable(case: Case) -> Case:
    """The case with its config as plain values (:func:`config_fields`) and its id collections as plain types."""
    if case.inputs is None:
        return case
    inputs = dict(case.inputs)
    inputs["config"] = config_fields(inputs["config"])
    return replace(case, inputs=inputs)


def restored(case: Case) -> Case:
    """The inverse of :func:`portable`."""
    if case.inputs is None or isinstance(case.inputs["config"], ranking.RankingConfig):
        return case
    inputs = dict(case.inputs)
    inputs["config"] = ranking.RankingConfig(**inputs["config"])
    return replace(case, inputs=inputs)
