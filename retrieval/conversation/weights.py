"""The steps that weigh the candidates before ranking — who a turn is by or about, and whether it states anything —
pure: no Django, no database. Ranking applies what they set (``retrieval.ranking``: ``participant``,
``third_party`` and ``phatic`` in each result's ``explain``).
"""

from __future__ import annotations

from dataclasses import replace

from retrieval.conversation.page import Page, Step
from retrieval.conversation.third_party import about_someone_else, names_relation
from retrieval.ranking import PHATIC_FACTOR
from retrieval.text import name_words, named_in


def participants_of(page: Page) -> set[int]:
    """The candidates by or about someone the question names: their speaker's (a session event's author, else the
    memory's author) full name or first name is a phrase of the question, or they link an entity it names. The
    question's ``unnamed`` words (ordinary words it does not write as a name: "in May 2025") name nobody."""
    words = ["" if word in page.unnamed else word for word in name_words(page.query)]
    return {memory_id for memory_id, row in page.rows.items() if row.names_entity or named_in(row.speaker, words)}


def _participants(page: Page) -> Page:
    """What the people a question names said, or what is linked to them, is where its answer is likeliest."""
    return replace(page, participants=frozenset(participants_of(page)))


def _third_party(page: Page) -> Page:
    """A turn about someone other than its speaker ("My cousin changed jobs three times this year") states nothing
    of the participant the question asks about, though it shares their words and was said by them; a question that
    names a relation itself ("Dana's sister") may be asking about that someone, so then nothing is damped."""
    if not participants_of(page) or names_relation(page.query):
        return page
    return replace(
        page,
        third_party=frozenset(
            memory_id
            for memory_id in page.candidates
            if (row := page.rows.get(memory_id)) is not None and row.is_turn and about_someone_else(row.turn_text)
        ),
    )


def _phatic(page: Page) -> Page:
    """A turn of a few content words ("Evening Jon!", "Night night") greets, closes or asks: it states no fact, so
    ranking damps it (a dated short reply is not one: its date is the fact)."""
    return replace(page, config=replace(page.config, phatic_factor=PHATIC_FACTOR))


PARTICIPANTS = Step("participants", weigh=_participants)
THIRD_PARTY = Step("third_party", weigh=_third_party)
PHATIC = Step("phatic", weigh=_phatic)
