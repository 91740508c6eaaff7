"""The steps that bring other turns of a conversation beside the hits that need them — pure: no Django, no database.

A turn rarely says everything about what it mentions: who a name is was said earlier ("Bilal, my brother."), how a
plan ended was said later ("Porto is off, we're doing Lyon instead"), what someone said of themselves is in their
answers to what they were asked. Each step
asks the load statement for the turns it needs (``ask``: the search reads them with the hits, in one statement)
and then puts each just above or below its hit (``attach``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from retrieval.conversation.page import Page, Step, attach
from retrieval.conversation.third_party import RELATION_NOUNS, about_someone_else, relation_nouns
from retrieval.ranking import Ranked
from retrieval.text import CALENDAR_TERMS, NAME_WORD_RE, content_terms, is_question, speaker_named

if TYPE_CHECKING:
    from memories.models import Memory
    from retrieval.selectors import RankingRow

# a capitalised word inside a sentence (not its first word): a name ("Porto", "Kestrel Analytics", "Spanish class")
_NAME_RE = re.compile(r"(?<=[^.!?\s]\s)[A-ZÀ-Ý][\w'’-]{2,}")
# a sentence's first word introduced as a person by apposition: "Bilal, my brother.", "Carmen, my little sister, …"
# (the noun must be a relation: retrieval.conversation.third_party.RELATION_NOUNS)
_APPOSED_RE = re.compile(r"(?:^|[.!?]\s+)([A-ZÀ-Ý][\w'’-]{2,}),\s+(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?([\w-]+)")
# a sentence's first word, capitalised: a name only when the candidates use it as one inside a sentence
_OPENING_RE = re.compile(r"(?:^|[.!?:]\s+)([A-ZÀ-Ý][\w'’-]{2,})")
# a run of capitalised words: a name of several ("Kestle Valley Hospital", "Zirc Lake Festival")
_NAME_RUN_RE = re.compile(r"[A-ZÀ-Ý][\w'’-]{2,}(?:\s+[A-ZÀ-Ý][\w'’-]{2,})+")
_MAX_NAMES = 4


def turn_names(ranked: Sequence[Ranked], rows: Mapping[int, RankingRow]) -> dict[int, list[str]]:
    """Per session turn on the page, the names it uses that are not a calendar word nor the name of a speaker of any
    candidate turn ("Evening Mateo!" names no topic): what the speaker's later turn on the same thing would mention
    again, and what an earlier turn of theirs introduced."""
    if not any(item.memory_id in rows and rows[item.memory_id].is_turn for item in ranked):
        return {}  # a page of pages and notes: nothing to read of the candidates (every search comes here)
    speakers = {word.casefold() for row in rows.values() for word in NAME_WORD_RE.findall(row.speaker)}
    texts = [row.turn_text for row in rows.values() if row.turn_text]

    def used_as_a_name(word: str) -> bool:  # inside a sentence of a candidate turn (a substring test first: cheap)
        return any(word in text and word in _NAME_RE.findall(text) for text in texts)

    def ordinary(word: str) -> bool:  # written in lower case by a candidate turn: "the new hospital job", "hospitals"
        lower = word.lower()
        return any(lower in text and re.search(rf"(?<![\w'’-]){re.escape(lower)}", text) for text in texts)

    asks: dict[int, list[str]] = {}
    for item in ranked:
        row = rows.get(item.memory_id)
        if row is None or not row.is_turn:
            continue
        text = row.turn_text or ""
        apposed = [name for name, noun in _APPOSED_RE.findall(text) if noun.casefold() in RELATION_NOUNS]
        opening = [word for word in _OPENING_RE.findall(text) if used_as_a_name(word)]
        # a word of a name of several that people also write as an ordinary word ("Hospital" of "Kestle Valley
        # Hospital") matches every turn that uses the word: the name's other words say what it names
        common = {word for run in _NAME_RUN_RE.findall(text) for word in run.split() if ordinary(word)}
        names = [
            name
            for name in dict.fromkeys([*apposed, *opening, *_NAME_RE.findall(text)])
            if name.casefold() not in speakers and not content_terms(name) <= CALENDAR_TERMS and name not in common
        ][:_MAX_NAMES]
        if names:
            asks[item.memory_id] = names
    return asks


# --- introductions: where a name a hit uses was introduced -----------------------------------------------------------


def _ask_introductions(page: Page) -> Page:
    """Where the names of each turn were first said by its speaker ("The kids settled on Biscuit." for "Biscuit cut a
    paw on broken glass") — but not for a remark about someone else, whose names are no context for the question."""
    return replace(
        page,
        introduced={
            hit: words for hit, words in page.names.items() if not about_someone_else(page.rows[hit].turn_text)
        },
    )


def _attach_introductions(page: Page) -> Page:
    if not page.introductions:
        return page
    return replace(page, ranked=attach(page.ranked, page.introductions, page.top_k, why="introduced", above=False))


INTRODUCTIONS = Step("introductions", ask=_ask_introductions, attach=_attach_introductions)


# --- follow-ups: what the speaker said next about the same thing ----------------------------------------------------


def relatives(query: str, names: Mapping[int, Sequence[str]], rows: Mapping[int, RankingRow]) -> dict[int, list[str]]:
    """For a question about someone's relation ("What did Zoe's sister qualify as?"), the names of the page turns
    that use the same relation noun ("Carmen, my little sister, turned thirty on Sunday."): who the relation is.
    Their follow-ups also count the speaker's replies to what others asked about them, and they are followed even
    for a question about an earlier time (a date window, "before", a past "when"), where other names are not."""
    asked = relation_nouns(query)
    if not asked:
        return {}
    return {hit: list(words) for hit, words in names.items() if relation_nouns(rows[hit].turn_text) & asked}


def _ask_follow_ups(page: Page) -> Page:
    """In a conversation the later word on a thing is how it stands now ("Flights to Porto are booked" → "Porto is
    off, we're doing Lyon instead"): for a question about how things stand, the names of every turn are followed;
    for one about an earlier time, only those of the relation the question asks about."""
    related = relatives(page.query, page.names, page.rows)
    return replace(page, follow_ups=page.names if page.current else related, relatives=frozenset(related))


def first_news(ranked: Sequence[Ranked], followed: Mapping[int, int], loaded: Mapping[int, Memory]) -> dict[int, int]:
    """Per hit, the first of its candidate follow-ups (in the order said) that the page does not show above it
    already and that is not a remark about someone else ("My flatmate is going to Kyoto" is no news of the speaker's
    own trip to Kyoto) — unless the hit is one too."""
    position = {item.memory_id: index for index, item in enumerate(ranked)}
    candidates: dict[int, list[Memory]] = {}
    for follow_up, hit in followed.items():
        if follow_up in loaded and hit in position:
            candidates.setdefault(hit, []).append(loaded[follow_up])
    chosen: dict[int, int] = {}
    for hit, turns in candidates.items():
        aside = about_someone_else(loaded[hit].content)
        turns.sort(key=lambda turn: (turn.reference_time or turn.created_at, turn.pk))
        first = next(
            (
                turn
                for turn in turns
                if position.get(turn.pk, len(ranked)) > position[hit]
                and (aside or not about_someone_else(turn.content))
            ),
            None,
        )
        if first is not None:
            chosen[first.pk] = hit
    return chosen


def _attach_follow_ups(page: Page) -> Page:
    if not page.followed:
        return page
    news = first_news(page.ranked, page.followed, page.loaded)
    return replace(page, ranked=attach(page.ranked, news, page.top_k, why="follows", above=True))


FOLLOW_UPS = Step("follow_ups", ask=_ask_follow_ups, attach=_attach_follow_ups)


# --- replies: what the people the question names answered when asked ---------------------------------------------


def put_to(ranked: Sequence[Ranked], rows: Mapping[int, RankingRow], speakers: Sequence[str]) -> list[int]:
    """The session turns of the page that ask something and were said by someone other than the speakers the
    question names (lower-cased as written): questions put to them, whose replies say what they said of
    themselves."""
    if not speakers:
        return []
    named = {name.casefold() for name in speakers}
    asked = []
    for item in ranked:
        row = rows.get(item.memory_id)
        if row is not None and row.is_turn and is_question(row.turn_text) and not speaker_named(row.speaker, named):
            asked.append(item.memory_id)
    return asked


def _ask_replies(page: Page) -> Page:
    """People say little of themselves unprompted: what they said about their work or plans is in their replies to
    what others asked them ("How's the new place treating you?" / "Ashby & Crane is calmer than I expected")."""
    return replace(page, reply_to=put_to(page.ranked, page.rows, page.speakers))


def _attach_replies(page: Page) -> Page:
    if not page.answers:
        return page
    return replace(page, ranked=attach(page.ranked, page.answers, page.top_k, why="answers", above=False))


REPLIES = Step("replies", ask=_ask_replies, attach=_attach_replies)
