"""The extractive answer: the sentence(s) of the visible top rows that answer the question, each cited.

Pure, no Django, no database. Given the question and the ranked rows (anything with ``memory_id``, ``title`` and
``content``, such as :class:`~retrieval.synthesis.types.SourceRow`), the rows' contents are split into sentences and
each sentence is scored by

- **term overlap**: the share of the question's terms the sentence holds, each term weighted by its IDF over the
  candidate sentences (a term every sentence has says nothing about which one answers);
- **question-type cues**: a "when" question wants a date, "who" a person, "where" a place, "how many / how much" a
  number, "how long / how often" a duration or frequency, "what time" a time, "why" a reason — a sentence holding a
  token of that type *beyond the question's own words* scores higher;
- **position**: the row's rank (the search already judged relevance) and the sentence's place in its memory;
- **the memory's title**: question terms in the title lift all of that memory's sentences a little;
- optionally **embedding similarity** at sentence level, through a callable the caller passes (the embedder), so
  that these pure tests run without a model.

A sentence is quoted only where it **supports** an answer (:func:`answers_asked`): it holds the answer type the
question asks for (who → a name or a role, where → a place, when → a date, how many → a number …:
:func:`holds_answer_type`) and shares the question's topic beyond its names, or holds its names when the question
asks about them. A confident wrong sentence is worse than none: without one the answer is ``kind="none"``.

:func:`extractive_answer` returns an :class:`~retrieval.synthesis.types.Answer` quoting the best supporting sentence
(and a second one when it scores nearly as well), never a list of titles. :func:`score_sentences` exposes the
ranking and :class:`LogisticCalibrator` turns features (such as :attr:`Extract.best_score`) into a confidence for
abstention.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from memories.instructions import instruction_reasons
from memories.temporal import tag_dates
from retrieval.synthesis.types import Answer

__all__ = [
    "MAX_ROWS",
    "MAX_SENTENCES",
    "NO_DIRECT_ANSWER_TEXT",
    "STOPWORDS",
    "Asked",
    "Extract",
    "LogisticCalibrator",
    "ScoredSentence",
    "answers_asked",
    "asked_of",
    "extract",
    "extractive_answer",
    "fit_logistic",
    "holds_answer_type",
    "on_subject",
    "question_type",
    "score_sentences",
    "split_sentences",
]

MAX_ROWS = 8  # rows whose sentences are considered: the visible top of the ranking
MAX_SENTENCES = 2  # sentences quoted at most
MAX_SENTENCES_PER_ROW = 60  # bounds the work on a long memory
SECOND_SENTENCE_RATIO = 0.85  # a second sentence is quoted when it scores at least this share of the best
_SENTENCE_CHARS = 400  # a quoted sentence is cut at this length

# Weights of the score's parts. Overlap is in [0, 1]; a cue is 0 or 1; priors are in (0, 1].
_W_OVERLAP = 1.0
_W_CUE = 0.35
_W_ROW = 0.2
_W_POSITION = 0.05
_W_TITLE = 0.15
_TITLE_TERM_CREDIT = 0.5  # a question term found only in the memory's title counts half in a sentence's overlap
_W_EMBEDDING = 0.6


class _Row(Protocol):
    memory_id: int
    title: str
    content: str


Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]


@dataclass(frozen=True)
class ScoredSentence:
    """One candidate sentence: its memory, its rank among the rows (0 = best), its place in the memory, its text
    (markdown links reduced to their text) and its score with the parts that made it."""

    memory_id: int
    row_rank: int
    index: int
    text: str
    score: float
    overlap: float
    cue: bool
    cosine: float | None
    coverage: float = 1.0  # the IDF-weighted share of the question's topic terms held (see :class:`Asked`)
    about: bool = True  # the sentence's memory names what the question names (or the question names nothing)


@dataclass(frozen=True)
class Extract:
    """The chosen sentences (best first), the answer built from them, and features for abstention: the best
    sentence's score and term overlap, its cosine when an embedder was given, and the question type."""

    sentences: tuple[ScoredSentence, ...]
    answer: Answer
    best_score: float
    best_overlap: float
    best_cosine: float | None
    question_type: str | None


# --- text ---------------------------------------------------------------------------------------------------------

_MD_LINK_RE = re.compile(r"\[([^\]\n]{1,200})\]\([^)\s]{0,500}\)")
_MD_EMPHASIS_RE = re.compile(r"\*\*|__|(?<!\w)\*(?!\s)|`")
_BULLET_RE = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+")
# A sentence ends at . ! ? (or a semicolon-free line break) followed by a space and a capital, digit or quote.
_SPLIT_RE = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9À-Ý#$€£@])")
_ABBREVIATIONS = frozenset(
    {"dr", "mr", "mrs", "ms", "st", "prof", "sr", "jr", "vs", "no", "inc", "ltd", "co", "corp", "e.g", "i.e", "etc",
     "approx", "dept", "est", "fig", "mt", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
     "nov", "dec", "u.s", "a.m", "p.m"}
)  # fmt: skip
_WORD_RE = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*")
STOPWORDS = frozenset(
    """a an the and or but if then of to in on at by for with from as into onto about over under after before
    is are was were be been being am do does did doing have has had having will would shall should can could may
    might must i me my we us our you your he him his she her it its they them their this that these those there
    here what which who whom whose when where why how not no so than too very just also only any all each every
    some such own same other more most much many few up down out off again further once s t get got gets
    please tell know need want wants let""".split()
)
_HOW_RE = re.compile(r"\bhow\s+[^\W\d_]+", re.I)
_QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})


def _clean(text: str) -> str:
    return _MD_EMPHASIS_RE.sub("", _MD_LINK_RE.sub(r"\1", text))


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``: markdown links reduced to their text and emphasis removed, split at line breaks
    and at sentence ends (not after common abbreviations such as "Dr." or "St."), bullets and timeline pipes
    ("- 2024-01-05 | …") stripped, blanks dropped. Contract: deterministic; at most ``MAX_SENTENCES_PER_ROW``."""
    sentences: list[str] = []
    for line in _clean(text).split("\n"):
        line = _BULLET_RE.sub("", line).strip()
        if not line:
            continue
        line = re.sub(r"\s*\|\s*", " — ", line) if line.count("|") == 1 else line
        start = 0
        for match in _SPLIT_RE.finditer(line):
            before = line[start : match.start()].rstrip(".!?\"')] ")
            last = before.rsplit(None, 1)[-1].casefold() if before.split() else ""
            if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
                continue
            sentences.append(line[start : match.start()].strip())
            start = match.end()
        sentences.append(line[start:].strip())
        if len(sentences) >= MAX_SENTENCES_PER_ROW:
            break
    return [s for s in sentences if s][:MAX_SENTENCES_PER_ROW]


def _stem(word: str) -> str:
    """A crude, symmetric stem: an inflection ("invested", "advises", "companies") and then an agent suffix
    ("investor", "founder") are dropped, so that a question's verb meets the sentence's noun."""
    for suffix in ("ies", "ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    for suffix in ("or", "er", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> list[str]:
    return [_stem(w) for w in (m.group(0).casefold() for m in _WORD_RE.finditer(text)) if w not in STOPWORDS]


def content_terms(text: str, *, shortest: int = 4) -> set[str]:
    """The stems of ``text``'s words of at least ``shortest`` letters that are not stopwords."""
    return {
        _stem(w) for w in (m.group(0).casefold() for m in _WORD_RE.finditer(text)) if len(w) >= shortest
    } - STOPWORDS


@functools.lru_cache(maxsize=2048)
def cached_content_terms(text: str) -> frozenset[str]:
    """:func:`content_terms` of ``text``, cached: search reads the same turns search after search. Callers pass a
    bounded prefix (a turn's first 400 or 4,000 characters), so the cache holds at most ~8 MB of text."""
    return frozenset(content_terms(text))


# --- question types and answer-type cues --------------------------------------------------------------------------

_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = r"mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?"
_DATE_RE = re.compile(
    rf"\b(?:\d{{4}}-\d{{2}}-\d{{2}}|(?:19|20)\d{{2}}|(?:{_MONTHS})\b|(?:{_WEEKDAYS})\b|q[1-4]\b|"
    r"(?:next|last|this)\s+(?:year|quarter|month|week)|quarter|yesterday|tomorrow|today|spring|summer|autumn|fall|"
    r"winter|season|christmas|holidays?)",
    re.I,
)
_TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})\s*(?:[ap]\.?m\.?)?|\b\d{1,2}\s*[ap]\.?m\b|\bnoon\b|\bmidnight\b", re.I)
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|dozen|half"
)
_NUMBER_RE = re.compile(rf"[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:%|k\b|m\b|bn\b)?|\b(?:{_NUMBER_WORDS})\b", re.I)
_DURATION_RE = re.compile(
    rf"\b(?:\d[\d,.]*|{_NUMBER_WORDS}|a|an|few|several)\s+(?:business\s+|working\s+|calendar\s+)?"
    r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|quarters?|years?|sessions?|seasons?)\b"
    r"|\b(?:every|each|per|once|twice|daily|weekly|monthly|quarterly|yearly|annually|hourly|nightly|biweekly)\b",
    re.I,
)
_PERSON_RE = re.compile(
    r"\b(?:dr|mr|mrs|ms|prof|chef)\.?\s+[A-Z][a-z]+"
    r"|\b[A-Z][a-z]+(?:\s+(?:de|van|von|da|del|di|le|la))?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b"
)
# Capitalised words that name events, periods or documents rather than people ("Demo Day", "Board Meeting").
_NOT_PERSON_WORDS = frozenset(
    {"day", "days", "meeting", "meetings", "board", "batch", "week", "winter", "summer", "spring", "autumn", "fall",
     "quarter", "series", "round", "demo", "annual", "conference", "summit", "review", "plan", "policy", "report",
     "update", "notes", "agenda", "release", "launch", "program", "programme", "project", "the", "our", "we", "this"}
)  # fmt: skip
_PLACE_RE = re.compile(
    r"\b(?:in|at|from|to|on)\s+(?:the\s+)?[A-Z][\w'’.-]+"
    r"|\b\d{1,5}\s+[A-Z][a-z]+(?:strasse|straße|street|st|road|rd|avenue|ave|lane|way|platz)\b"
    r"|\b[A-Z][a-z]+(?:strasse|straße|street|road|avenue|platz)\s+\d{1,5}\b"
    r"|\b(?:office|hall|room|floor|building|desk|warehouse|region|campus|site|board|wiki|channel|app|folder|"
    r"drive|repository|repo|vault)\b"
    r"|#[a-z][\w-]+|\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    re.I,
)
_PLACE_CAPITAL_RE = re.compile(r"\b(?:in|at|from|on)\s+(?:the\s+)?[A-Z]")
_REASON_RE = re.compile(
    r"\b(?:because|due\s+to|since|as\s+a\s+result|so\s+that|owing\s+to|caused\s+by|reason|in\s+order\s+to)\b", re.I
)

_TYPE_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "date": (_DATE_RE,),
    "time": (_TIME_RE,),
    "number": (_NUMBER_RE,),
    "duration": (_DURATION_RE,),
    "person": (_PERSON_RE,),
    "place": (_PLACE_RE,),
    "reason": (_REASON_RE,),
}


# "which firm …", "what is her favourite team": the noun right after the wh-word asks for a name of that kind
_ASKS_FOR_AGENT_RE = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:(?:the|our|your|their|his|her|its|my|\w+['’]s)\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:team|club|company|firm|organi[sz]ation|agency|vendor|supplier|provider)s?\b"
)


def question_type(question: str) -> str | None:
    """The answer type a question asks for: ``date`` (when, what/which day/month/year), ``time`` (what time),
    ``duration`` (how long/often/soon/fast), ``number`` (how many/much, what … cost/price/budget/quota),
    ``person`` (who, whom, whose; which team/company/firm …, "what is her favourite team"), ``place`` (where,
    which office/city/region), ``reason`` (why); else None."""
    q = " ".join(question.casefold().split())
    if re.search(r"\bwhat\s+time\b|\bwhen\s+does\s+\S+(?:\s+\S+)?\s+(?:open|close|start|end)\b", q):
        return "time"
    if re.search(r"\bhow\s+(?:long|often|soon|fast|quickly|frequently|far\s+ahead)\b", q):
        return "duration"
    if re.search(r"\bhow\s+(?:many|much|big|large|high|old)\b|\bwhat\s+(?:is|was|are)\s+(?:the|our)\s+"
                 r"(?:\w+\s+){0,2}(?:cost|price|budget|quota|limit|burn|rate|size|amount|fee)\b", q):  # fmt: skip
        return "number"
    if re.search(r"\b(?:when|(?:what|which)\s+(?:day|date|month|year|week|quarter)s?)\b", q):
        return "date"
    if re.search(r"\bwho(?:m|se)?\b", q) or _ASKS_FOR_AGENT_RE.search(q):
        return "person"
    if re.search(r"\bwhere\b|\bwhich\s+(?:office|city|country|region|warehouse|room|site|channel|app)\b", q):
        return "place"
    if re.search(r"\bwhy\b", q):
        return "reason"
    return None


def _has_cue(kind: str | None, sentence: str, question_terms: frozenset[str]) -> bool:
    """Whether ``sentence`` holds a token of the asked type that is not one of the question's own words."""
    if kind is None:
        return False
    for pattern in _TYPE_PATTERNS[kind]:
        for match in pattern.finditer(sentence):
            raw_words = {w.casefold() for w in _WORD_RE.findall(match.group(0))}
            if kind == "person" and raw_words & _NOT_PERSON_WORDS:
                continue
            words = {_stem(w) for w in raw_words} - STOPWORDS
            if kind == "place" and not _PLACE_CAPITAL_RE.match(match.group(0)) and not words - question_terms:
                continue
            if not words or words - question_terms:
                return True
    return False


# --- support: does a sentence hold what the question asks? -------------------------------------------------------

NO_DIRECT_ANSWER_TEXT = "No memory answers this directly; the closest results are below."
MIN_COVERAGE = 0.0  # an answering sentence holds more than this IDF-weighted share of the question's topic

_CALENDAR_WORDS = frozenset(
    re.findall(r"[a-z]+", _MONTHS)
    + [f"{day}{s}" for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
       for s in ("", "s")]
)  # fmt: skip
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
    rf"short|full|part|place|end|{_MONTHS}|{_WEEKDAYS}|\d|first|second|third|last|next|this|that|each|every)\b)"
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
    words = [m.group(0) for m in _WORD_RE.finditer(question)]
    written = [
        (_possessive(w).casefold(), w.isupper())
        for i, w in enumerate(words)
        if (i > 0 or _possessive(w) != w) and w[:1].isupper() and w != "I"
    ]
    names = frozenset(n for n, _ in written) - STOPWORDS - _CALENDAR_WORDS
    wh = bool(words) and words[0].casefold() in _QUESTION_WORDS | _LOCATIVES | {"for"}
    subjects = frozenset(n for n, acronym in written if n in names and not acronym) if wh or kind else frozenset()
    phrase = _category_phrase(question)
    category = next((i for i, w in enumerate(phrase) if w in _CATEGORY_NOUNS.get(kind or "", ())), None)
    # the words before the category noun say which one is asked: "favourite football" team
    qualifying = phrase[:category] if category is not None else []
    # so do the word after a possessive name (Dmitri's "sister") and the thing counted (how many "children")
    for pattern in (_POSSESSED_RE, _COUNTED_RE):
        qualifying += [m.group(1).casefold() for m in pattern.finditer(question)]
    own_names = {_stem(n) for n in names}
    categories = {_stem(phrase[category])} if category is not None else set()
    terms = {t for t in _terms(_HOW_RE.sub(" ", _POSSESSIVE_RE.sub("", question))) if t not in _QUESTION_WORDS}
    topic = frozenset(terms - own_names - categories)
    qualifiers = frozenset(_terms(" ".join(qualifying))) & topic
    several = sum(1 for name in _names(question) if not name.initial and set(name.words) & names) > 1
    return Asked(kind=kind, names=names, subjects=subjects, topic=topic, several=several, qualifiers=qualifiers)


def _category_phrase(question: str) -> list[str]:
    """The first words of the noun phrase after "what"/"which" (and an "is the", "was his" …): "which office",
    "what is Dmitri's favourite football team"."""
    match = _CATEGORY_RE.search(question)
    return [w.casefold() for w in _WORD_RE.findall(match.group(1))] if match else []


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
    tokens = [(m.group(0), m.start(), m.end()) for m in _WORD_RE.finditer(sentence)]
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
    if not words or (set(words) & asked.names and not asked.several) or {_stem(w) for w in words} <= asked.topic:
        return False
    return not name.initial or name.acronym or words[0] in known


def _holds_noun(sentence: str, nouns: frozenset[str], asked: Asked) -> bool:
    """Whether ``sentence`` holds one of ``nouns`` (or its plural) that is not one of the question's topic terms."""
    words = {m.group(0).casefold() for m in _WORD_RE.finditer(sentence)}
    held = {w for w in words if w in nouns or (w.endswith("s") and w[:-1] in nouns)}
    return bool({_stem(w) for w in held} - asked.topic)


def _typed(sentence: str, own: frozenset[str], pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` matches ``sentence`` somewhere other than in the question's own words."""
    for match in pattern.finditer(sentence):
        words = {_stem(w.casefold()) for w in _WORD_RE.findall(match.group(0))} - STOPWORDS
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
    own = asked.topic | {_stem(n) for n in asked.names}
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
        return any(_typed(sentence, own, p) for p in (_DATE_RE, _TIME_RE, _DURATION_RE, _WHEN_WORDS_RE)) or bool(
            tag_dates(sentence, reference=_DETECTION_DAY, limit=1)
        )
    if kind in ("time", "number", "duration"):
        return _typed(sentence, own, {"time": _TIME_RE, "number": _NUMBER_RE, "duration": _DURATION_RE}[kind])
    return True


def _loose(term: str) -> str:
    """A stem without its final "e": the crude stemmer gives "take" but "tak" (from "takes")."""
    return term.removesuffix("e")


def _words_of(text: str) -> set[str]:
    return {_possessive(m.group(0)).casefold() for m in _WORD_RE.finditer(text)}


_NAME_SCAN_CHARS = 20_000  # the part of a memory read for the question's names
_CHECK_CHARS = 2_000  # the part of a sentence read for its answer type and names (a quote is cut at 400)


def _about_subjects(asked: Asked, row: _Row) -> bool:
    """Whether ``row`` (its title or content) names one of the question's subjects, or the question has none: a
    memory naming none of them is about something else ("the Berlin office" for "Where is the Paris office?")."""
    if not asked.subjects:
        return True
    return bool(asked.subjects & _words_of(f"{row.title or ''}\n{(row.content or '')[:_NAME_SCAN_CHARS]}"))


def _speaks_of(asked: Asked, sentence: str) -> bool:
    """Whether ``sentence`` names one of the question's subjects, or speaks in the first person (the speaker may be
    the one the question names)."""
    words = _words_of(sentence)
    return bool(words & asked.subjects or words & _FIRST_PERSON)


def _known_names(sentences: Sequence[ScoredSentence]) -> frozenset[str]:
    """Words written with a capital after a sentence's first word somewhere among the candidates."""
    known: set[str] = set()
    for sentence in sentences:
        for name in _names(sentence.text[:_CHECK_CHARS]):
            if not name.initial:
                known.update(name.words)
    return frozenset(known - STOPWORDS - _CALENDAR_WORDS)


def _related(qualifiers: frozenset[str], words: set[str]) -> bool:
    """Whether one of ``words`` has a qualifier's stem, or a stem that begins the other ("clear", "clearance")."""
    stems = {_loose(_stem(w)) for w in words}
    for qualifier in map(_loose, qualifiers):
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
    held = _words_of(f"{title}\n{sentence.text[:_CHECK_CHARS]}")
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
        asked, sentence.text[:_CHECK_CHARS], known=known
    )


# --- scoring --------------------------------------------------------------------------------------------------------


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def score_sentences(
    question: str, rows: Sequence[_Row], *, embed: Embed | None = None, max_rows: int = MAX_ROWS
) -> list[ScoredSentence]:
    """Every sentence of the first ``max_rows`` rows, scored for answering ``question``, best first (ties: the
    better-ranked row, then the earlier sentence). Each also carries what :func:`answers_asked` reads: its
    ``coverage`` of the question's topic (IDF-weighted like overlap, title terms counting half) and ``about``.

    ``score = 1.0·overlap + 0.35·cue + 0.2/(1 + row rank) + 0.05/(1 + index) + 0.15·title overlap
    (+ 0.6·cosine with ``embed``)``, where overlap is the IDF-weighted share of the question's terms that the
    sentence holds (IDF over the candidate sentences; a term only in the memory's title counts half), cue says the
    sentence holds a token of the asked type (:func:`question_type`) beyond the question's words, and title
    overlap is the same share for the memory's title. ``embed`` maps texts to vectors (question first); its
    failure is the caller's. No rows → ``[]``; a question without terms → all overlaps 0.
    """
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    candidates: list[tuple[int, _Row, int, str]] = []
    for rank, row in enumerate(rows[:max_rows]):
        for index, sentence in enumerate(split_sentences(row.content or "")):
            candidates.append((rank, row, index, sentence))
    if not candidates:
        return []
    # the word after "how" says what is asked ("how fast", "how long"), not what the answer mentions
    asked = _HOW_RE.sub(" ", question)
    q_terms = [t for t in _terms(asked) if t not in _QUESTION_WORDS]
    q_set = frozenset(q_terms)
    sentence_terms = [frozenset(_terms(sentence)) for _, _, _, sentence in candidates]
    n = len(candidates)
    idf = {t: math.log(1.0 + (n + 1) / (0.5 + sum(1 for terms in sentence_terms if t in terms))) for t in q_set}
    total = sum(idf.values())
    kind = question_type(question)
    asked = asked_of(question)
    topic_total = sum(idf[t] for t in asked.topic)
    cosines: list[float | None] = [None] * n
    if embed is not None:
        vectors = list(embed([question] + [sentence for _, _, _, sentence in candidates]))
        cosines = [_cosine(vectors[0], vector) for vector in vectors[1:]]
    title_overlap: dict[int, float] = {}
    scored = []
    title_terms: dict[int, frozenset[str]] = {}
    about: dict[int, bool] = {}
    for (rank, row, index, sentence), terms, cosine in zip(candidates, sentence_terms, cosines, strict=True):
        if rank not in title_overlap:
            title_terms[rank] = frozenset(_terms(row.title or ""))
            title_overlap[rank] = sum(idf[t] for t in q_set & title_terms[rank]) / total if total else 0.0
            about[rank] = _about_subjects(asked, row)
        # a sentence is about its memory's subject even when it says "the startup": the title's terms count half
        inherited = (q_set & title_terms[rank]) - terms
        overlap = (
            (sum(idf[t] for t in q_set & terms) + _TITLE_TERM_CREDIT * sum(idf[t] for t in inherited)) / total
            if total
            else 0.0
        )
        cue = _has_cue(kind, sentence, q_set)
        loose = {_loose(t) for t in terms}
        held = {t for t in asked.topic if _loose(t) in loose}
        coverage = (
            (
                sum(idf[t] for t in held)
                + _TITLE_TERM_CREDIT * sum(idf[t] for t in (asked.topic & title_terms[rank]) - held)
            )
            / topic_total
            if topic_total
            else 1.0
        )
        score = (
            _W_OVERLAP * overlap
            + _W_CUE * cue
            + _W_ROW / (1 + rank)
            + _W_POSITION / (1 + index)
            + _W_TITLE * title_overlap[rank]
            + (_W_EMBEDDING * cosine if cosine is not None else 0.0)
        )
        scored.append(
            ScoredSentence(
                memory_id=row.memory_id,
                row_rank=rank,
                index=index,
                text=sentence,
                score=round(score, 6),
                overlap=round(overlap, 6),
                cue=cue,
                cosine=None if cosine is None else round(cosine, 6),
                coverage=round(coverage, 6),
                about=about[rank] or _speaks_of(asked, sentence[:_CHECK_CHARS]),
            )
        )
    scored.sort(key=lambda s: (-s.score, s.row_rank, s.index))
    return scored


def _addresses_model(sentence: str) -> bool:
    return bool(instruction_reasons(sentence))


def _quote(sentence: str) -> str:
    text = " ".join(sentence.split())
    if len(text) > _SENTENCE_CHARS:
        text = text[:_SENTENCE_CHARS].rstrip() + " …"
    return text


def extract(
    question: str,
    rows: Sequence[_Row],
    *,
    embed: Embed | None = None,
    max_rows: int = MAX_ROWS,
    max_sentences: int = MAX_SENTENCES,
    check_support: bool = True,
) -> Extract | None:
    """The best sentence that answers the question (:func:`answers_asked`) and, up to ``max_sentences``, the
    sentences after it that score at least ``SECOND_SENTENCE_RATIO`` of it and are :func:`on_subject`, as an
    :class:`Extract`; ``None`` when the rows hold no sentence. A sentence that reads as instructions to a model
    (:func:`memories.instructions.instruction_reasons`) is never chosen. When no sentence answers, the answer is
    ``Answer(NO_DIRECT_ANSWER_TEXT, (), False, kind="none")`` and ``sentences`` is empty; the features
    (``best_score`` …) are the best-scored sentence's either way. ``check_support=False`` quotes the best-scored
    sentence whatever it holds (the scorer alone, for measuring the check).

    The answer's text is the quoted sentences in the order they appear in the ranking (row rank, then place in
    the memory), each followed by its citation ``[n]``; citations number memories by first appearance; a
    sentence is cut at 400 characters.
    """
    if max_sentences < 1:
        raise ValueError(f"max_sentences must be >= 1, got {max_sentences}")
    # a sentence that addresses the model is never quoted as an answer (it is data, shown only as quoted data)
    scored = [
        s for s in score_sentences(question, rows, embed=embed, max_rows=max_rows) if not _addresses_model(s.text)
    ]
    if not scored:
        return None
    best = scored[0]
    asked = asked_of(question)
    titles = {row.memory_id: row.title or "" for row in rows[:max_rows]}
    known = _known_names(scored) if check_support else frozenset()
    position = next(
        (
            i
            for i, s in enumerate(scored)
            if not check_support or answers_asked(asked, s, title=titles.get(s.memory_id, ""), known=known)
        ),
        None,
    )
    if position is None:
        return Extract(
            sentences=(),
            answer=Answer(text=NO_DIRECT_ANSWER_TEXT, citations=(), used_llm=False, kind="none"),
            best_score=best.score,
            best_overlap=best.overlap,
            best_cosine=best.cosine,
            question_type=question_type(question),
        )
    first = scored[position]
    chosen = [first]
    # a second sentence adds to the answer: it is quoted when it scores nearly as well and answers too, or shares
    # the question's topic (it may name its answer in words no type check knows: "the maintenance liaison")
    for candidate in scored[position + 1 :]:
        if len(chosen) >= max_sentences or candidate.score < SECOND_SENTENCE_RATIO * first.score:
            break
        title = titles.get(candidate.memory_id, "")
        on = (
            not check_support
            or on_subject(asked, candidate, title=title, names_alone=False)
            or answers_asked(asked, candidate, title=title, known=known)
        )
        if on and (candidate.overlap > 0 or candidate.cue):
            chosen.append(candidate)
    ordered = sorted(chosen, key=lambda s: (s.row_rank, s.index))
    numbers: dict[int, int] = {}
    parts = []
    for sentence in ordered:
        number = numbers.setdefault(sentence.memory_id, len(numbers) + 1)
        parts.append(f"{_quote(sentence.text)} [{number}]")
    answer = Answer(
        text=" ".join(parts),
        citations=tuple((number, memory_id) for memory_id, number in numbers.items()),
        used_llm=False,
    )
    return Extract(
        sentences=tuple(chosen),
        answer=answer,
        best_score=best.score,
        best_overlap=best.overlap,
        best_cosine=best.cosine,
        question_type=question_type(question),
    )


def extractive_answer(
    *, question: str, rows: Sequence[_Row], embed: Embed | None = None, max_sentences: int = MAX_SENTENCES
) -> Answer | None:
    """The extractive :class:`~retrieval.synthesis.types.Answer` (``used_llm=False``) quoting the answering
    sentence(s) with citations; ``kind="none"`` with ``NO_DIRECT_ANSWER_TEXT`` and no citation when no sentence
    answers; ``None`` when the rows hold no sentence (see :func:`extract`)."""
    result = extract(question, rows, embed=embed, max_sentences=max_sentences)
    return None if result is None else result.answer


# --- calibration for abstention -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogisticCalibrator:
    """``sigmoid(intercept + Σ weight·feature)`` over named features (a missing feature counts as 0): a confidence
    in [0, 1] that the question is answered by what is visible."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float

    def confidence(self, features: Mapping[str, float | None]) -> float:
        z = self.intercept + sum(
            w * float(features.get(n) or 0.0) for n, w in zip(self.names, self.weights, strict=True)
        )
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


def fit_logistic(
    rows: Sequence[Mapping[str, float | None]],
    labels: Sequence[bool],
    *,
    names: Sequence[str],
    l2: float = 1.0,
    iterations: int = 50,
) -> LogisticCalibrator:
    """L2-regularised logistic regression by Newton's method (the intercept unpenalised) over ``names`` of each
    feature row; ``labels`` True = answerable. Needs both classes, else ``ValueError``."""
    import numpy as np

    if len(rows) != len(labels) or not rows:
        raise ValueError("rows and labels must be non-empty and of equal length")
    y = np.array([1.0 if label else 0.0 for label in labels])
    if y.min() == y.max():
        raise ValueError("both classes are needed to fit")
    x = np.array([[1.0] + [float(row.get(n) or 0.0) for n in names] for row in rows])
    w = np.zeros(x.shape[1])
    penalty = np.eye(x.shape[1]) * l2
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return LogisticCalibrator(names=tuple(names), weights=tuple(float(v) for v in w[1:]), intercept=float(w[0]))
