"""The zero-LLM date answer of a "when" question: the first date the top hits' event dates state (each read against
its own reference time when it was stored: memories.temporal), restated with its citation — "Dana went to the
support group on 7 May 2025 [1]." — or, when the question's shape is not a simple one, the date with the quoted
turn. ``answer.kind`` is ``date``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from memories.temporal import tag_dates
from retrieval.synthesis.types import Answer
from retrieval.text import WEEKDAYS

# "When …?", "What day was …?", and the noun form "What was the date of …?" / "What's the date of …?"
_WHEN_RE = re.compile(
    r"^\W*(?:when\b|(?:on\s+)?(?:what|which)\s+(?:date|day)\b"
    r"|(?:what|which)(?:\s+(?:is|was|were)|'s)\s+the\s+(?:date|day)\s+(?:of|on|when|that)\b)",
    re.IGNORECASE,
)
_WHEN_CLAUSE_RE = re.compile(
    r"^\W*(?:when|(?:on\s+)?(?:what|which)\s+(?:date|day))\s+(did|was|were|is|are|will|does|do|has|have|had)\s+"
    r"(.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_DETERMINERS = frozenset("the a an my his her their our your its this that".split())
_COMPLEMENT_START = _DETERMINERS | frozenset("to at in on of for with from into by about up out off".split())
_PERSPECTIVE = {"i": "you", "me": "you", "my": "your", "mine": "yours", "we": "you", "our": "your", "us": "you"}
# past forms of the irregular verbs questions about events use most; the rest take the regular ending
_IRREGULAR_PAST = dict(
    pair.split(":")
    for pair in (
        "be:was begin:began break:broke bring:brought build:built buy:bought catch:caught choose:chose come:came "
        "cut:cut do:did draw:drew drink:drank drive:drove eat:ate fall:fell feel:felt find:found fly:flew "
        "forget:forgot get:got give:gave go:went grow:grew have:had hear:heard hold:held hurt:hurt keep:kept "
        "know:knew leave:left lend:lent let:let lose:lost make:made mean:meant meet:met pay:paid put:put quit:quit "
        "read:read ride:rode ring:rang rise:rose run:ran say:said see:saw sell:sold send:sent set:set shut:shut "
        "sing:sang sit:sat sleep:slept speak:spoke spend:spent stand:stood swim:swam take:took teach:taught "
        "tell:told think:thought throw:threw understand:understood wake:woke wear:wore win:won write:wrote"
    ).split()
)


@dataclass(frozen=True)
class DatedRow:
    """A ranked hit as a date answer reads it: its text, its event dates (ISO days or {start, end}) and the
    reference time they were read against."""

    memory_id: int
    content: str
    event_dates: Sequence[Any]
    reference: datetime
    session: str = ""  # a session turn's session id: the turn before it (id - 1) is the one it answers
    reply: Any = None  # the session's next turn (id, author, text, timestamp), when it was loaded
    cosine: float = 0.0  # the hit's best-chunk cosine with the question (0 when the vector arm did not see it)


def is_when_question(question: str) -> bool:
    """Whether the question asks for a date ("When did …?", "What day was …?")."""
    return bool(_WHEN_RE.match(question or ""))


def _past(verb: str) -> str:
    word = verb.casefold()
    if word in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[word]
    if word.endswith("e"):
        return word + "d"
    if len(word) > 2 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ied"
    if len(word) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", word):
        return word + word[-1] + "ed"  # stop → stopped, plan → planned
    return word + "ed"


def _spoken(words: list[str]) -> list[str]:
    return [_PERSPECTIVE.get(word.casefold(), word) for word in words]


def _restated(question: str) -> str | None:
    """The question as a statement without its date: "When did Dana go to the support group?" → "Dana went to the
    support group"; None when its shape is not one of the simple ones."""
    match = _WHEN_CLAUSE_RE.match(question.strip())
    if match is None:
        return None
    auxiliary, rest = match.group(1).casefold(), match.group(2).split()
    if not rest:
        return None
    if rest[0].casefold() in _DETERMINERS and len(rest) > 2 and auxiliary in ("is", "are", "was", "were"):
        # "the contract signed" ends in a participle; "the ceremony that Yara mentioned" is all subject
        last = rest[-1].casefold()
        relative = any(word.casefold() in ("that", "which", "who") for word in rest[1:])
        participle = not relative and (last.endswith(("ed", "en")) or last in _PAST_FORMS)
        cut = len(rest) - 1 if participle else len(rest)
        subject, tail = _spoken(rest[:cut]), [auxiliary, *_spoken(rest[cut:])]
        text = " ".join([*subject, *tail])
        return text[:1].upper() + text[1:]
    if rest[0].casefold() in _DETERMINERS and len(rest) > 2 and auxiliary == "did":
        # "the code freeze start": the verb is the last word before the complement (a preposition or a determiner)
        end = next((i for i in range(2, len(rest)) if rest[i].casefold() in _COMPLEMENT_START), len(rest))
        cut = max(2, end - 1)
    else:
        cut = 2 if rest[0].casefold() in _DETERMINERS and len(rest) > 1 else 1
        while cut < len(rest) and (rest[cut][:1].isupper() or rest[cut - 1].endswith("'s")):
            cut += 1  # "Dana Smith", "Dana's sister"
    subject, tail = _spoken(rest[:cut]), _spoken(rest[cut:])
    if auxiliary == "did" and tail:
        tail = [_past(tail[0]), *tail[1:]]
    elif auxiliary in ("will", "has", "have", "had", "is", "are", "was", "were"):
        tail = [auxiliary, *tail]
    elif auxiliary in ("do", "does"):
        return None  # a habit, not an event: stated with the quote instead
    text = " ".join([*subject, *tail]).strip()
    return text[:1].upper() + text[1:] if text else None


def spoken_day(value: date) -> str:
    """A day as an answer says it: "7 May 2025"."""
    return f"{value.day} {value.strftime('%B')} {value.year}"


_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_SENTENCE_END_RE = re.compile(r"[.!?;\n]")
_STOP = frozenset(
    "the and did was were will when what which date day does have has had you your our their his her its this that "
    "with for from about into onto they them she him who whom whose are is be been going to at in on of me my we us "
    "it an as by or up so do he if no".split()
)


def _stems(text: str) -> set[str]:
    # a four-letter prefix stands for the word's forms ("meets" / "meeting"); irregular pasts map to the verb
    words = (word.casefold() for word in _WORD_RE.findall(text))
    return {_BASE.get(word, word)[:4] for word in words if word not in _STOP}


_BASE = {past: verb for verb, past in _IRREGULAR_PAST.items()}
_PAST_FORMS = frozenset(_BASE) | {"born", "held", "done", "seen", "given", "taken", "made", "sold", "paid"}


def _sentence(text: str, span: tuple[int, int]) -> str:
    starts = [m.end() for m in _SENTENCE_END_RE.finditer(text, 0, span[0])]
    begin = starts[-1] if starts else 0
    stop = _SENTENCE_END_RE.search(text, span[1])
    return text[begin : stop.start() if stop else len(text)]


# a question in the past tense ("When did …?", "What was the date of …?") asks about something that happened
PAST_TENSE_RE = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)
# How much a hit's cosine with the question counts against its question-word overlap and its rank (0.3 a place):
# the event said in other words ("open mic night" for "amateur evening") still wins over a better-ranked dated hit
# about something else. Chosen on the conversational set's development frames, the middle of the values that tied
# (bench/HISTORY.md).
DATE_COSINE_WEIGHT = 4.0
# An undated question hit that shares no word with the question still lends its reply's date when its cosine with
# the question reaches this (the conversational set's dev frames: 0.3-0.4 tied best, 41 -> 43 of 55; no gate at
# all 42; bench/HISTORY.md)
DATE_BORROW_MIN_COSINE = 0.35


def _best_date(question: str, hits: Sequence[DatedRow], today: date | None) -> tuple[DatedRow, date, date] | None:
    """The date among the top hits that the question most likely asks about: each mention (re-read with its span
    against the hit's reference time) is scored by the question's words in its sentence — or in the turn it
    answers, when that turn is a hit too ("Did you make it to the concert?" / "I did, last Friday!") — whether it
    agrees with the question's tense as of ``today`` (a past question is not answered by a day still ahead), and
    the hit's rank and its cosine with the question."""
    wanted = _stems(question)
    asks_past = bool(PAST_TENSE_RE.search(question))
    asks_future = bool(re.search(r"\b(?:will|going to|next|plan)\b", question, re.IGNORECASE))
    by_turn = {(row.session, row.memory_id): row for row in hits if row.session}
    best: tuple[float, int, DatedRow, date, date] | None = None
    for rank, row in enumerate(hits[:DATE_ANSWER_DEPTH]):
        if not row.event_dates:
            borrowed = _reply_row(row)
            overlap = len(wanted & _stems(row.content))
            # only when the hit shares the question's words or, said in other words ("the citizenship ceremony" for
            # "the naturalisation event"), its meaning: the reply's date is about what the hit asks
            if borrowed is not None and (overlap or row.cosine >= DATE_BORROW_MIN_COSINE):
                # an undated question hit ("Did you make it to the gig?") dated by its reply ("I did, on the 2nd!")
                for mention in tag_dates(borrowed.content, reference=borrowed.reference):
                    score = (
                        overlap + DATE_COSINE_WEIGHT * row.cosine - 0.3 * rank - 0.1 - (0.25 if mention.is_range else 0)
                    )
                    if today is not None and asks_past and not asks_future and mention.start > today:
                        score -= 2
                    key = (score, -(rank * 1000 + 999))
                    if best is None or key > best[:2]:
                        best = (score, key[1], borrowed, mention.start, mention.end)
            continue
        answered = by_turn.get((row.session, row.memory_id - 1)) if row.session else None
        # the turn answered counts only when it names no date itself (a question: "Did you make it to …?")
        context = len(wanted & _stems(answered.content)) if answered is not None and not answered.event_dates else 0
        for order, mention in enumerate(tag_dates(row.content, reference=row.reference)):
            overlap = max(len(wanted & _stems(_sentence(row.content, mention.span))), context)
            score = overlap + DATE_COSINE_WEIGHT * row.cosine - 0.3 * rank
            if today is not None and asks_past and not asks_future and mention.start > today:
                score -= 2
            elif asks_past and not asks_future and mention.start > row.reference.date():
                score -= 0.5  # a plan when it was said: weaker evidence that it happened than a report
            elif today is not None and asks_future and not asks_past and mention.end < today:
                score -= 2
            if mention.is_range:
                score -= 0.25  # a day answers "when" better than a span
            key = (score, -(rank * 1000 + order))
            if best is None or key > best[:2]:
                best = (score, -(rank * 1000 + order), row, mention.start, mention.end)
    return None if best is None else best[2:]


# a time that recurs: "on Tuesdays", "every other Monday", "each morning", "weekly"
_RECURRING_RE = re.compile(
    r"\b(?:every|each)\s+(?:other\s+)?\w+|\b(?:"
    + "".join(f"{day}s|" for day in WEEKDAYS)
    + r"weekdays|weekends|daily|weekly|fortnightly|monthly|nightly|mornings|evenings)\b",
    re.IGNORECASE,
)


_NOT_NOW_RE = re.compile(r"\b(?:will|going to|next|plan|ago|last)\b", re.IGNORECASE)
_SIMPLE_PRESENT_RE = re.compile(r"\b(?:do|does|is|are)\b|['’]s\b", re.IGNORECASE)


def _a_schedule_ranks_above(question: str, hits: Sequence[DatedRow], row: DatedRow) -> bool:
    """A "when" in the simple present (neither past nor future: "when do we deploy?", "when does the choir meet?")
    asks when something recurs; a hit ranked above the dated one that states a recurring time answers it."""
    if PAST_TENSE_RE.search(question) or re.search(
        r"\b(?:will|going to|next|plan|ago|last)\b", question, re.IGNORECASE
    ):
        return False
    if not _SIMPLE_PRESENT_RE.search(question):
        return False  # "what year …", "how long ago …": no present tense, no schedule asked
    above = [hit for hit in hits[:DATE_ANSWER_DEPTH] if hit.memory_id != row.memory_id]
    position = next((i for i, hit in enumerate(hits) if hit.memory_id == row.memory_id), len(hits))
    return any(_RECURRING_RE.search(hit.content) for hit in above[:position])


def _reply_row(row: DatedRow) -> DatedRow | None:
    """The loaded next turn of a hit that asks something, as a row of its own (cited as itself)."""
    reply = row.reply
    if reply is None or "?" not in row.content or not getattr(reply, "text", ""):
        return None
    reference = getattr(reply, "timestamp", None) or row.reference
    return DatedRow(memory_id=reply.id, content=reply.text, event_dates=(), reference=reference, session=row.session)


DATE_ANSWER_DEPTH = 5  # the top hits a date is read from


def date_answer(*, question: str, hits: Sequence[DatedRow], today: date | None = None) -> Answer | None:
    """The zero-LLM answer to a "when" question: the date of the top hits the question most likely asks about
    (:func:`_best_date`), stated with its citation ("Dana went to the support group on 7 May 2025 [1]."); None
    when none of them is dated."""
    found = _best_date(question, hits, today)
    if found is not None and _a_schedule_ranks_above(question, hits, found[0]):
        return None  # "when do we deploy?" asks how often: the schedule above answers, not a dated note below it
    if found is not None:
        row, start, end = found
        when = f"on {spoken_day(start)}" if start == end else f"between {spoken_day(start)} and {spoken_day(end)}"
        statement = _restated(question)
        if statement:
            text = f"{statement} {when} [1]."
        else:
            quote = " ".join(row.content.split())
            quote = quote if len(quote) <= 160 else quote[:157].rstrip() + "…"
            text = f"{when[:1].upper()}{when[1:]} [1]: “{quote}”"
        return Answer(text=text, citations=((1, row.memory_id),), used_llm=False, kind="date")
    return None
