"""The conversational and truth steps of a search: each a named ``Page → Page`` pass (:mod:`.page`) that the search
service runs in the order the ``ORGMEMORY_SEARCH_STEPS`` setting lists them (by default all of :data:`STEPS`, in
this order).

- ``participants`` — what the people a question names said, or what links to them, is lifted (:mod:`.weights`);
- ``third_party`` — a turn about someone other than its speaker is damped for a question about a participant;
- ``phatic`` — a turn that only greets, closes or asks is damped;
- ``introductions`` — where a name a hit uses was introduced comes just below it (:mod:`.turns`);
- ``follow_ups`` — what the speaker said next about the same thing comes just above it;
- ``replies`` — the reply to a question put to someone the question names comes just below that question;
- ``exchanges`` — the question a hit answers comes just below it (:mod:`.exchanges`);
- ``truth`` — curated authority, open contradictions and proposals (:mod:`.truth`);
- ``later_statements`` — for how things stand, a speaker's later word on a thing above the earlier
  (:mod:`.later_statements`).

Each step acts at its own point of the search (before ranking, around the load statement, on the hits), whatever
its place in the list; the list decides which run and, among those acting at the same point, in what order. A
benchmark leaves a step out to measure what it does; a name the search does not know stops start-up
(``retrieval.apps``) rather than being ignored.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from retrieval.conversation.exchanges import EXCHANGES
from retrieval.conversation.later_statements import LATER_STATEMENTS
from retrieval.conversation.page import Page, Step
from retrieval.conversation.truth import TRUTH
from retrieval.conversation.turns import FOLLOW_UPS, INTRODUCTIONS, REPLIES
from retrieval.conversation.weights import PARTICIPANTS, PHATIC, THIRD_PARTY

__all__ = ["STEPS", "Page", "Step", "search_steps", "steps_named"]

STEPS: tuple[Step, ...] = (
    PARTICIPANTS,
    THIRD_PARTY,
    PHATIC,
    INTRODUCTIONS,
    FOLLOW_UPS,
    REPLIES,
    EXCHANGES,
    TRUTH,
    LATER_STATEMENTS,
)
_BY_NAME = {step.name: step for step in STEPS}


def steps_named(names: Iterable[str]) -> tuple[Step, ...]:
    """The steps ``names`` lists, in its order; ImproperlyConfigured for a name no step has or one listed twice."""
    if isinstance(names, str):  # a single name would be read letter by letter
        raise ImproperlyConfigured(f"ORGMEMORY_SEARCH_STEPS must list step names, got the string {names!r}")
    names = list(names)
    unknown = [name for name in names if name not in _BY_NAME]
    if unknown:
        known = ", ".join(_BY_NAME)
        raise ImproperlyConfigured(f"ORGMEMORY_SEARCH_STEPS names unknown step(s) {unknown}; known: {known}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ImproperlyConfigured(f"ORGMEMORY_SEARCH_STEPS lists {', '.join(map(repr, twice))} more than once")
    return tuple(_BY_NAME[name] for name in names)


def search_steps() -> tuple[Step, ...]:
    """The steps a search runs now, as ``settings.ORGMEMORY_SEARCH_STEPS`` lists them (read on every search, so a
    benchmark's ``override_settings`` applies)."""
    return steps_named(settings.ORGMEMORY_SEARCH_STEPS)
