"""Support: does a sentence hold what the question asks? — pure, no Django.

A sentence is quoted only where it holds the answer type the question asks for (who → a name or a role, where → a
place, when → a date, how many → a number …: :func:`holds_answer_type`) and shares the question's topic beyond its
names, or holds its names when the question asks about them (:func:`answers_asked`). A confident wrong sentence is
worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from memories.temporal import tag_dates
from retrieval.synthesis.question_types import (
    DATE_RE,
    DURATION_RE,
    MONTH_PATTERN,
    NUMBER_RE,
    TIME_RE,
    WEEKDAY_PATTERN,
    question_type,
)
from retrieval.synthesis.types import Row, ScoredSentence
from retrieval.text import (
    HOW_RE,
    MONTH_ABBREVIATIONS,
    MONTHS,
    QUESTION_WORDS,
    STOPWORDS,
    WEEKDAYS,
    WORD_RE,
    stemmed_terms,
    word_stem,
)

__all__ = ["NO_DIRECT_ANSWER_TEXT", "Asked", "answers_asked", "asked_of", "holds_answer_type", "on_subject"]

NO_DIRECT_ANSWER_TEXT = "No memory answers this directly; the closest results are below."
MIN_COVERAGE = 0.0  # an answering sentence holds more than this IDF-weighted share of the question's topic

# the calendar's words, abbreviated and plural too: a date, not a name
_CALENDAR_WORDS = frozenset([*MONTHS, *MONTH_ABBREVIATIONS, *WEEKDAYS, *(f"{day}s" for day in WEEKDAYS)])
# Nouns that name a person by role, or a group of people: they answer "who" as a name does.
_ROLE_NOUNS = frozenset(
    """team department committee council staff crew director manager lead head chief officer captain owner admin
    administrator coordinator organiser organizer reviewer approver founder investor advisor adviser chair
    president secretary treasurer supervisor engineer developer designer lawyer counsel accountant auditor
    recruiter consultant contractor volunteer assistant conductor""".split()
)
# Nouns that name a place, or somewhere things are kept or found (a board, an app, a channel).
_PLACE_NOUNS = frozenset(
    """office hall room floor building desk warehouse region campus site board wiki channel app folder drive
    repository repo vault city country street road avenue square station airport branch store shop venue studio
    lab library clinic school""".split()
)
_LOCATIVES = frozenset("in at from on to into inside near through via within across outside under".split())
# "at the visitor-center steps", "in the repository": a place, unless a date, a number or an idiom follows
_PLACE_PHRASE_RE = re.compile(
    r"\b(?:at|in|inside|outside|near|behind|beside|under|next\s+to|opposite)\s+(?:the\s+|a\s+|an\s+|our\s+|their\s+)?"
    r"(?!(?:least|most|all|time|advance|order|total|particular|general|case|fact|person|turn|addition|"
    rf"short|full|part|place|end|{MONTH_PATTERN}|{WEEKDAY_PATTERN}|\d|first|second|third|last|next|this|that|each|every)\b)"
    r"[^\W\d_]{3,}",
    re.I,
)
# a group reached or kept at is a place for "where": "escalated to the finance team", not "joined the team"
_GROUP_PLACE_RE = re.compile(
    r"\b(?:to|at|in|from|with|by)\s+(?:the\s+|a\s+|our\s+|their\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:team|department|committee|desk)s?\b",
    re.I,
)
# parts of the day and relative times that answer "when" though no calendar date is named
_WHEN_WORDS_RE = re.compile(
    r"\b(?:mornings?|afternoons?|evenings?|nights?|noon|midnight|beforehand|in\s+advance|overnight|"
    r"(?:previous|following|next|same)\s+(?:day|evening|morning|week|month))\b",
    re.I,
)
# a name after these is where something is ("runs on Zendesk", "lives in Notion"), not who does it
_PLACE_ONLY = _LOCATIVES - {"from", "to"}
_NAME_PARTICLES = frozenset("of de van von da del di du der den le la y".split())
# The category nouns of a "what …"/"which …" question: they say what kind of thing is asked ("which city", "what is
# his favourite team"); an instance answers, so the noun is not part of the question's topic.
_CATEGORY_NOUNS: dict[str, frozenset[str]] = {
    "date": frozenset("day days date dates month months year years week weeks quarter season".split()),
    "time": frozenset("time hour".split()),
    "place": frozenset("office city country region warehouse room site channel app place location".split()),
    "person": frozenset(
        "person people team club company firm organisation organization agency vendor supplier provider".split()
    ),
}
_NAMED_KINDS = frozenset({None, "person", "place"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "i'll", "i’ll"})
_DETECTION_DAY = date(2000, 1, 1)  # tag_dates needs a reference; only whether a date is stated matters here


@dataclass(frozen=True)
class Asked:
    """What a question asks: the answer type (:func:`question_type`); the names it holds (case-folded words written
    with a capital, possessives dropped: not the first word unless possessive, nor calendar words); the subjects
    — those names a wh-question is about, acronyms left out (an acronym is often spelt out, and a yes/no question
    may name the wrong alternative); and its topic — the stems of its other terms, less the category noun of a
    "which …" question."""

    kind: str | None
    names: frozenset[str]
    subjects: frozenset[str]
    topic: frozenset[str]
    several: bool = False  # the question names several people or things apart: it may ask which of them
    qualifiers: frozenset[str] = frozenset()  # topic stems that say which thing is asked: "favourite", "sister"


_POSSESSIVE_RE = re.compile(r"(?<=\w)['’]s\b")


def _possessive(word: str) -> str:
    return _POSSESSIVE_RE.sub("", word)


def asked_of(question: str) -> Asked:
    """The :class:`Asked` of ``question``."""
    kind = question_type(question)
    words = [m.group(0) for m in WORD_RE.finditer(question)]
    written = [
        (_possessive(w).casefold(), w.isupper())
        for i, w in enumerate(words)
        if (i > 0 or _possessive(w) != w) and w[:1].isupper() and w != "I"
    ]
    names = frozenset(n for n, _ in written) - STOPWORDS - _CALENDAR_WORDS
    wh = bool(words) and words[0].casefold() in QUESTION_WORDS | _LOCATIVES | {"for"}
    subjects = frozenset(n for n, acronym in written if n in names and not acronym) if wh or kind else frozenset()
    phrase = _category_phrase(question)
    category = next((i for i, w in enumerate(phrase) if w in _CATEGORY_NOUNS.get(kind or "", ())), None)
    # the words before the category noun say which one is asked: "favourite football" team
    qualifying = phrase[:category] if category is not None else []
    # so do the word after a possessive name (Dmitri's "sister") and the thing counted (how many "children")
    for pattern in (_POSSESSED_RE, _COUNTED_RE):
        qualifying += [m.group(1).casefold() for m in pattern.finditer(question)]
    own_names = {word_stem(n) for n in names}
    categories = {word_stem(phrase[category])} if category is not None else set()
    terms = {t for t in stemmed_terms(HOW_RE.sub(" ", _POSSESSIVE_RE.sub("", question))) if t not in QUESTION_WORDS}
    topic = frozenset(terms - own_names - categories)
    qualifiers = frozenset(stemmed_terms(" ".join(qualifying))) & topic
    several = sum(1 for name in _names(question) if not name.initial and set(name.words) & names) > 1
    return Asked(kind=kind, names=names, subjects=subjects, topic=topic, several=several, qualifiers=qualifiers)


def _category_phrase(question: str) -> list[str]:
    """The first words of the noun phrase after "what"/"which" (and an "is the", "was his" …): "which office",
    "what is Dmitri's favourite football team"."""
    match = _CATEGORY_RE.search(question)
    return [w.casefold() for w in WORD_RE.findall(match.group(1))] if match else []


_CATEGORY_RE = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:(?:the|our|your|their|his|her|its|my|[^\W\d_]+['’]s)\s+)?"
    r"((?:[^\W\d_]+[\s-]+){0,2}[^\W\d_]+)",
    re.I,
)
_POSSESSED_RE = re.compile(r"\b[A-Z][^\W\d_]*['’]s\s+([^\W\d_]+)")
_COUNTED_RE = re.compile(r"\bhow\s+(?:many|much)\s+([^\W\d_]+)", re.I)


@dataclass(frozen=True)
class _Name:
    words: tuple[str, ...]  # case-folded, without particles ("de") and leading determiners ("The")
    initial: bool  # only the capital of the sentence's first word: a name if written as one elsewhere
    acronym: bool
    after: str  # the word before the name ("in", "by"), skipping "the"


def _names(sentence: str) -> list[_Name]:
    """The runs of capitalised words of ``sentence``, joined by spaces, "&", a hyphen or a particle ("de"); a
    number may follow a name ("PostgreSQL 16")."""
    tokens = [(m.group(0), m.start(), m.end()) for m in WORD_RE.finditer(sentence)]
    runs: list[tuple[int, int]] = []  # [start, end) token indexes
    index = 0
    while index < len(tokens):
        if not tokens[index][0][:1].isupper():
            index += 1
            continue
        end = index + 1
        while end < len(tokens) and sentence[tokens[end - 1][2] : tokens[end][1]].strip() in ("", "&", "-"):
            word = tokens[end][0]
            if not (word[:1].isupper() or word[:1].isdigit() or word.casefold() in _NAME_PARTICLES):
                break
            end += 1
        runs.append((index, end))
        index = end
    names = []
    for start, end in runs:
        words = [_possessive(w).casefold() for w, _, _ in tokens[start:end] if w.casefold() not in _NAME_PARTICLES]
        first = start
        while words and words[0] in STOPWORDS:
            words, first = words[1:], first + 1
        previous = start - 1
        if previous >= 0 and tokens[previous][0].casefold() == "the":
            previous -= 1
        names.append(
            _Name(
                words=tuple(words),
                initial=first == 0 and len(words) == 1,
                acronym=any(len(w) >= 2 and w.isupper() for w, _, _ in tokens[start:end]),
                after=tokens[previous][0].casefold() if previous >= 0 else "",
            )
        )
    return names


def _is_new_name(name: _Name, asked: Asked, known: frozenset[str]) -> bool:
    """Whether ``name`` names someone or something the question does not: not a calendar word or a number, no word
    of the question's names, not only its topic words ("The Team plan" for "who leads the team"), and not just the
    capital of a sentence's first word, unless that word is written as a name elsewhere among the candidates."""
    words = [w for w in name.words if w not in _CALENDAR_WORDS and not w[:1].isdigit()]
    if not words or (set(words) & asked.names and not asked.several) or {word_stem(w) for w in words} <= asked.topic:
        return False
    return not name.initial or name.acronym or words[0] in known


def _holds_noun(sentence: str, nouns: frozenset[str], asked: Asked) -> bool:
    """Whether ``sentence`` holds one of ``nouns`` (or its plural) that is not one of the question's topic terms."""
    words = {m.group(0).casefold() for m in WORD_RE.finditer(sentence)}
    held = {w for w in words if w in nouns or (w.endswith("s") and w[:-1] in nouns)}
    return bool({word_stem(w) for w in held} - asked.topic)


def _typed(sentence: str, own: frozenset[str], pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` matches ``sentence`` somewhere other than in the question's own words."""
    for match in pattern.finditer(sentence):
        words = {word_stem(w.casefold()) for w in WORD_RE.findall(match.group(0))} - STOPWORDS
        if not words or words - own:
            return True
    return False


# street addresses, channels and e-mail addresses: places whatever their capitals
_PLACE_FORM_RE = re.compile(
    r"\b\d{1,5}\s+[A-Z][a-z]+(?:strasse|straße|street|st|road|rd|avenue|ave|lane|way|platz)\b"
    r"|\b[A-Z][a-z]+(?:strasse|straße|street|road|avenue|platz)\s+\d{1,5}\b"
    r"|#[a-z][\w-]+|\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    re.I,
)


def holds_answer_type(asked: Asked, sentence: str, *, known: frozenset[str] = frozenset()) -> bool:
    """Whether ``sentence`` holds, beyond the question's own words, a token of the type the question asks for:

    - who → a name (a person, a team, an organisation; not one after "in", "on", "at" …, which says where) or a
      role or group noun ("a director", "the platform team");
    - where → a name after a locative preposition ("in Frankfurt", "through the Parkly app"), a place noun ("the
      front desk"), an address, a channel or an e-mail address;
    - when → a date (:func:`memories.temporal.tag_dates`; weekdays, months, seasons, quarters), a time, or a span
      or frequency ("after 30 days", "every November");
    - how many / how much → a number; how long / how often → a duration or a frequency; what time → a time.

    Other questions (why, what, yes/no) ask for no type: True. ``known``: words written as names elsewhere among
    the candidates, so that a sentence's first word counts as a name ("Alice founded …")."""
    kind = asked.kind
    own = asked.topic | {word_stem(n) for n in asked.names}
    if kind == "person":
        return _holds_noun(sentence, _ROLE_NOUNS, asked) or any(
            name.after not in _PLACE_ONLY and _is_new_name(name, asked, known) for name in _names(sentence)
        )
    if kind == "place":
        return (
            _holds_noun(sentence, _PLACE_NOUNS, asked)
            or _typed(sentence, own, _PLACE_FORM_RE)
            or _typed(sentence, own, _PLACE_PHRASE_RE)
            or _typed(sentence, own, _GROUP_PLACE_RE)
            or any(name.after in _LOCATIVES and _is_new_name(name, asked, known) for name in _names(sentence))
        )
    if kind == "date":
        return any(_typed(sentence, own, p) for p in (DATE_RE, TIME_RE, DURATION_RE, _WHEN_WORDS_RE)) or bool(
            tag_dates(sentence, reference=_DETECTION_DAY, limit=1)
        )
    if kind in ("time", "number", "duration"):
        return _typed(sentence, own, {"time": TIME_RE, "number": NUMBER_RE, "duration": DURATION_RE}[kind])
    return True


def loose(term: str) -> str:
    """A stem without its final "e": the crude stemmer gives "take" but "tak" (from "takes")."""
    return term.removesuffix("e")


def _words_of(text: str) -> set[str]:
    return {_possessive(m.group(0)).casefold() for m in WORD_RE.finditer(text)}


_NAME_SCAN_CHARS = 20_000  # the part of a memory read for the question's names
CHECK_CHARS = 2_000  # the part of a sentence read for its answer type and names (a quote is cut at 400)


def about_subjects(asked: Asked, row: Row) -> bool:
    """Whether ``row`` (its title or content) names one of the question's subjects, or the question has none: a
    memory naming none of them is about something else ("the Berlin office" for "Where is the Paris office?")."""
    if not asked.subjects:
        return True
    return bool(asked.subjects & _words_of(f"{row.title or ''}\n{(row.content or '')[:_NAME_SCAN_CHARS]}"))


def speaks_of(asked: Asked, sentence: str) -> bool:
    """Whether ``sentence`` names one of the question's subjects, or speaks in the first person (the speaker may be
    the one the question names)."""
    words = _words_of(sentence)
    return bool(words & asked.subjects or words & _FIRST_PERSON)


def known_names(sentences: Sequence[ScoredSentence]) -> frozenset[str]:
    """Words written with a capital after a sentence's first word somewhere among the candidates."""
    known: set[str] = set()
    for sentence in sentences:
        for name in _names(sentence.text[:CHECK_CHARS]):
            if not name.initial:
                known.update(name.words)
    return frozenset(known - STOPWORDS - _CALENDAR_WORDS)


def _related(qualifiers: frozenset[str], words: set[str]) -> bool:
    """Whether one of ``words`` has a qualifier's stem, or a stem that begins the other ("clear", "clearance")."""
    stems = {loose(word_stem(w)) for w in words}
    for qualifier in map(loose, qualifiers):
        for stem in stems:
            short, long = sorted((qualifier, stem), key=len)
            if short == long or (len(short) >= 4 and long.startswith(short)):
                return True
    return False


def on_subject(asked: Asked, sentence: ScoredSentence, *, title: str = "", names_alone: bool = True) -> bool:
    """Whether a scored sentence is about what the question asks about: its memory names the question's subjects,
    or the sentence speaks in the first person (the speaker may be the one named) — :attr:`ScoredSentence.about`;
    it holds one of the question's qualifiers, if any (:class:`Asked`); and it shares the question's topic
    (coverage above ``MIN_COVERAGE``) or, with ``names_alone``, holds all the question's names (with its memory's
    ``title``)."""
    if not sentence.about:
        return False
    held = _words_of(f"{title}\n{sentence.text[:CHECK_CHARS]}")
    # a question about something of theirs ("Dmitri's sister", "his favourite team") is answered only where it is
    if asked.qualifiers and not _related(asked.qualifiers, held):
        return False
    if asked.topic and sentence.coverage > MIN_COVERAGE:
        return True
    if not names_alone:
        return False
    # the names alone point at the answer only when a name or a place is asked ("Where does Dmitri live?" over
    # "Dmitri moved to Denver"): a date or a number says nothing of what it dates or counts
    return asked.kind in _NAMED_KINDS and bool(asked.names) and asked.names <= held


def answers_asked(
    asked: Asked, sentence: ScoredSentence, *, title: str = "", known: frozenset[str] = frozenset()
) -> bool:
    """Whether a scored sentence answers the question: it is :func:`on_subject` and holds the answer type the
    question asks for (:func:`holds_answer_type`)."""
    return on_subject(asked, sentence, title=title) and holds_answer_type(
        asked, sentence.text[:CHECK_CHARS], known=known
    )
