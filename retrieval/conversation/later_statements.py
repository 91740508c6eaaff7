"""The later word first (the ``later_statements`` step) — pure: no database.

For questions about how things stand (no date window, no word asking about the past): of two conversation turns on
the page by the same speaker in the same scope that share a distinctive word (one at most these two hits use;
weekday and month names are values, not topics), the one said later is moved just above the earlier ("Flights to
Porto are booked" / "Porto is off, we're doing Lyon instead"): in a conversation the later word on a thing is how
it stands now. A remark about someone else (:func:`retrieval.conversation.third_party.about_someone_else`: "My
flatmate is going to Porto") never moves above a turn that is not one: it is no later word on the speaker's own
plans.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from memories.models import Memory
from retrieval.conversation.page import Hit, Page, Step
from retrieval.conversation.third_party import about_someone_else
from retrieval.text import CALENDAR_TERMS, cached_content_terms

_MAX_MOVES = 20


def _turn(memory: Memory) -> tuple | None:
    """(scope, speaker) of a conversation turn, else None."""
    if not memory.source_session:
        return None
    speaker = (memory.metadata or {}).get("author") if isinstance(memory.metadata, dict) else None
    return memory.scope_id, str(speaker or memory.author or "")


def later_statements_first(hits: list[Hit]) -> list[Hit]:
    """``hits`` with the later of two turns on the same thing moved above the earlier (module docstring; each moved
    hit's ``explain["truth"]`` says which turn it moved above); scores re-assigned in page order."""
    turns = {hit.memory.pk: _turn(hit.memory) for hit in hits}
    terms = {
        hit.memory.pk: cached_content_terms(hit.memory.content[:4000]) - CALENDAR_TERMS
        for hit in hits
        if turns[hit.memory.pk] is not None
    }
    if len(terms) < 2:
        return hits
    spread = Counter(term for found in terms.values() for term in found)
    distinctive = {memory_id: {t for t in found if spread[t] <= 2} for memory_id, found in terms.items()}
    # a remark about someone else ("My flatmate is going to Kyoto") is no later word on the speaker's own plans
    aside = {hit.memory.pk: about_someone_else(hit.memory.content) for hit in hits if hit.memory.pk in terms}

    def said(hit: Hit):
        return hit.memory.reference_time or hit.memory.created_at

    order = list(hits)
    moved: dict[int, str] = {}
    for _ in range(_MAX_MOVES):
        move = next(
            (
                (j, i)
                for j, later in enumerate(order)
                if distinctive.get(later.memory.pk)
                for i, earlier in enumerate(order[:j])
                if turns[earlier.memory.pk] is not None
                and turns[earlier.memory.pk] == turns[later.memory.pk]
                and said(earlier) < said(later)
                and distinctive[earlier.memory.pk] & distinctive[later.memory.pk]
                and not (aside[later.memory.pk] and not aside[earlier.memory.pk])
            ),
            None,
        )
        if move is None:
            break
        j, i = move
        later = order.pop(j)
        order.insert(i, later)
        moved[later.memory.pk] = f"above memory {order[i + 1].memory.pk}, said earlier by the same speaker"
    if not moved:
        return hits
    scores = [hit.score for hit in hits]
    for hit, score in zip(order, scores, strict=True):
        hit.score = score
        if hit.explain is not None and hit.memory.pk in moved:
            hit.explain["truth"] = moved[hit.memory.pk]
    return order


def _later_statements(page: Page) -> Page:
    """Of a speaker's statements on one thing, the latest says how it stands now (module docstring); a question
    about an earlier time or a date wants what was said then, so its page keeps the ranking's order."""
    if not page.current:
        return page
    return replace(page, hits=later_statements_first(list(page.hits)))


LATER_STATEMENTS = Step("later_statements", order=_later_statements)
