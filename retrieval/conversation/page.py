"""The one state the conversational and truth steps pass along (:class:`Page`), the shape of a step (:class:`Step`)
and the move most of them make (:func:`attach`) — pure: no Django, no database.

A search ranks its candidates once, then reads the page's rows in one load statement. A step acts at one or two
of four points around those: before ranking (``weigh``: which candidates ranking lifts or damps), before the load
statement (``ask``: the turns it needs read beside the hits), after it (``attach``: where those turns go on the
page) and on the finished hits (``order``). Each point is a ``Page → Page`` function; a step leaves the points it
does not use empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from retrieval.ranking import Candidate, Ranked, RankingConfig

if TYPE_CHECKING:
    from memories.models import Memory
    from retrieval.selectors import ContextTurn, RankingRow


class Hit(Protocol):
    """A hit of the page (``retrieval.services.SearchHit``) as the ``order`` steps see it."""

    memory: Memory
    score: float
    explain: dict | None
    contradicts: list[int]


@dataclass(frozen=True)
class Page:
    """One search's page as the steps see it, from its candidates to its ordered hits."""

    query: str
    top_k: int
    rows: Mapping[int, RankingRow]  # what the keyword and vector arms read of each of their candidates
    speakers: Sequence[str] = ()  # the caller's speakers the question names, lower-cased as written
    unnamed: frozenset[str] = frozenset()  # the question's ordinary words that name nobody ("may", "will")
    current: bool = False  # the question asks how things stand now (no date window, nothing of the past)
    dates: bool = False  # the question asks when something happened
    # --- weigh: what ranking fuses and multiplies
    arms: Mapping[str, Sequence[int]] = field(default_factory=dict)  # each arm's candidates, best first
    candidates: Mapping[int, Candidate] = field(default_factory=dict)
    config: RankingConfig = field(default_factory=lambda: RankingConfig(phatic_factor=1.0))  # damped by ``phatic``
    participants: frozenset[int] = frozenset()  # by or about someone the question names: lifted
    third_party: frozenset[int] = frozenset()  # turns about someone other than their speaker: damped
    # --- the ranked page, and the names each session turn on it uses
    ranked: Sequence[Ranked] = ()
    names: Mapping[int, Sequence[str]] = field(default_factory=dict)
    # --- ask: what the load statement reads beside the hits (hit id → names to match, or hit ids)
    follow_ups: Mapping[int, Sequence[str]] = field(default_factory=dict)
    relatives: frozenset[int] = frozenset()  # hits that say who the relation the question asks about is
    introduced: Mapping[int, Sequence[str]] = field(default_factory=dict)
    reply_to: Sequence[int] = ()
    prompted: Sequence[int] = ()  # hits that state something: the question each answers, if just before it
    # --- what it read: the rows, each session hit's neighbouring turns, and the turns asked for (turn id → hit id)
    loaded: Mapping[int, Memory] = field(default_factory=dict)
    contexts: Mapping[int, Sequence[ContextTurn]] = field(default_factory=dict)
    followed: Mapping[int, int] = field(default_factory=dict)
    introductions: Mapping[int, int] = field(default_factory=dict)
    answers: Mapping[int, int] = field(default_factory=dict)
    prompts: Mapping[int, int] = field(default_factory=dict)
    # --- order: the page's hits (``retrieval.services.SearchHit``), best first
    hits: Sequence[Hit] = ()


PageStep = Callable[[Page], Page]


@dataclass(frozen=True)
class Step:
    """A named pass over the page, at the points of the search it acts at (module docstring)."""

    name: str
    weigh: PageStep | None = None
    ask: PageStep | None = None
    attach: PageStep | None = None
    order: PageStep | None = None


def attach(ranked: Sequence[Ranked], attached: Mapping[int, int], top_k: int, *, why: str, above: bool) -> list[Ranked]:
    """``ranked`` with each turn of ``attached`` (turn id → hit id: a follow-up, a question's reply, where a hit's
    name was introduced) just above (``above``) or below its hit, at the hit's score and with ``explain[why]``
    naming it — moved up if it was lower on the page, left where it is if above the hit —, cut to ``top_k``. A hit
    that moves itself carries nothing, so no turn of the page is lost."""
    position = {item.memory_id: index for index, item in enumerate(ranked)}
    moving = {
        turn: hit
        for turn, hit in sorted(attached.items())
        if hit in position and position.get(turn, len(ranked)) > position[hit]
    }
    by_hit: dict[int, list[int]] = {}
    for turn, hit in moving.items():
        if hit not in moving:
            by_hit.setdefault(hit, []).append(turn)
    moved = {turn for turns in by_hit.values() for turn in turns}
    explains = {item.memory_id: item.explain for item in ranked}
    out: list[Ranked] = []
    for item in ranked:
        if item.memory_id in moved:
            continue
        placed = [
            Ranked(memory_id=turn, score=item.score, explain={**(explains.get(turn) or {}), why: item.memory_id})
            for turn in by_hit.get(item.memory_id, ())
        ]
        out += [*placed, item] if above else [item, *placed]
    return out[:top_k]


def run(steps: Sequence[Step], point: str, page: Page) -> Page:
    """``page`` through the ``point`` (``weigh``, ``ask``, ``attach`` or ``order``) of each of ``steps``, in order."""
    for step in steps:
        move = getattr(step, point)
        if move is not None:
            page = move(page)
    return page
