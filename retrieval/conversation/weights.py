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


def participant_shares(page: Page) -> dict[int, float]:
    """Each candidate by or about someone or something the question names, with the share of the participant boost
    it gets: what it covers of the named, over the most any candidate covers. A named speaker is one participant,
    whether a turn is by them or links their entity; each other entity the question names is another. "Which of
    Ilona's films did Bence recommend?": Bence's turn linking Ilona covers both and gets the whole boost, his
    friend's turn asking about Ilona half of it — a remark about the named thing by someone else no longer ties with
    the named speaker's own word on it. Where no turn covers more than one, each gets the whole boost; so does any
    candidate that is not a session turn (a page or a note has no speaker to be named: what it links is the
    relational arm's to weigh)."""
    words = ["" if word in page.unnamed else word for word in name_words(page.query)]
    covered = {}
    for memory_id, row in page.rows.items():
        things = {"speaker" if entity_id in page.speaker_entities else entity_id for entity_id in row.named}
        if named_in(row.speaker, words):
            things.add("speaker")
        if things:
            covered[memory_id] = len(things) if row.is_turn else 0
    most = max(covered.values(), default=0)
    return {memory_id: count / most if count else 1.0 for memory_id, count in covered.items()}


def participants_of(page: Page) -> set[int]:
    """The candidates by or about someone the question names: their speaker's (a session event's author, else the
    memory's author) full name or first name is a phrase of the question, or they link an entity it names. The
    question's ``unnamed`` words (ordinary words it does not write as a name: "in May 2025") name nobody."""
    return set(participant_shares(page))


def _participants(page: Page) -> Page:
    """What the people a question names said, or what is linked to them, is where its answer is likeliest."""
    return replace(page, participants=participant_shares(page))


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
