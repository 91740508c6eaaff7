"""Search's text primitives: sentences, words, stop words, stems, content terms, the calendar's words, whether a
text asks something and whether a speaker is named — pure, no Django.

One home for what every pass reads a text with (understanding the question, ranking, the conversational steps,
the answers, gap analysis), so that they agree on what a sentence, a word and a content term are.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

__all__ = [
    "CALENDAR_TERMS",
    "CALENDAR_WORDS",
    "GAP_STOPWORDS",
    "HOW_RE",
    "MAX_SENTENCES_PER_ROW",
    "MONTHS",
    "MONTH_ABBREVIATIONS",
    "NAME_WORD_RE",
    "QUESTION_WORDS",
    "STOPWORDS",
    "WEEKDAYS",
    "WORD_RE",
    "cached_content_terms",
    "clean",
    "content_terms",
    "is_question",
    "name_words",
    "named_in",
    "speaker_named",
    "split_sentences",
    "word_stem",
    "stemmed_terms",
]

MAX_SENTENCES_PER_ROW = 60  # bounds the work on a long memory

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
# a word of running text: letters and digits, with inner apostrophes and dots ("don't", "e.g")
WORD_RE = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*")
# a word of a name, a speaker or a title as they are compared: letters, digits and underscores
NAME_WORD_RE = re.compile(r"\w+")
STOPWORDS = frozenset(
    """a an the and or but if then of to in on at by for with from as into onto about over under after before
    is are was were be been being am do does did doing have has had having will would shall should can could may
    might must i me my we us our you your he him his she her it its they them their this that these those there
    here what which who whom whose when where why how not no so than too very just also only any all each every
    some such own same other more most much many few up down out off again further once s t get got gets
    please tell know need want wants let""".split()
)
# the words of a request that name no topic ("list", "show", "find", "anything"), beyond the function words: gap
# analysis does not report them as topics nothing matched (nor the few function words it reads as topics)
GAP_STOPWORDS = (
    STOPWORDS
    | frozenset(
        """above against anyone anything aren't because below between both done during either else ever everyone
        everything find give hers herself himself itself like list made make mine myself nor now one ours ourselves
        show someone something theirs themselves through two until upon use used while within without yes yet yours
        yourself yourselves""".split()
    )
) - {"onto", "s", "t", "want", "wants"}
HOW_RE = re.compile(r"\bhow\s+[^\W\d_]+", re.I)
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})

# --- the calendar ---------------------------------------------------------------------------------------------------
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
)  # fmt: skip
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# the calendar's names that are also given names ("May", "June", "August"): a name only outside a date phrase
CALENDAR_WORDS = frozenset(MONTHS + WEEKDAYS)


def name_words(text: str) -> list[str]:
    """``text``'s words as names and titles are compared: case-folded, letters, digits and underscores."""
    return NAME_WORD_RE.findall(text.casefold())


def is_question(text: str | None) -> bool:
    """Whether a turn or sentence asks something: it ends with a question mark."""
    return (text or "").rstrip().endswith("?")


def speaker_named(speaker: str, names: set[str] | frozenset[str]) -> bool:
    """Whether ``names`` (case-folded as written: "dana", "dana smith") name ``speaker``, by their whole name or their
    first name — as the search context finds the question's speakers (``retrieval.selectors``)."""
    speaker = speaker.casefold().strip()
    return speaker in names or speaker.split(" ")[0] in names


def named_in(speaker: str, words: Sequence[str]) -> bool:
    """Whether a text whose :func:`name_words` are ``words`` names ``speaker``: their whole name is a phrase of it, or
    their first name (of three letters at least) one of its words."""
    name = name_words(speaker)
    return bool(name) and (f" {' '.join(name)} " in f" {' '.join(words)} " or (len(name[0]) >= 3 and name[0] in words))


def clean(text: str) -> str:
    """``text`` with markdown links reduced to their text and emphasis marks removed."""
    return _MD_EMPHASIS_RE.sub("", _MD_LINK_RE.sub(r"\1", text))


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``: markdown links reduced to their text and emphasis removed, split at line breaks
    and at sentence ends (not after common abbreviations such as "Dr." or "St."), bullets and timeline pipes
    ("- 2024-01-05 | …") stripped, blanks dropped. Contract: deterministic; at most ``MAX_SENTENCES_PER_ROW``."""
    sentences: list[str] = []
    for line in clean(text).split("\n"):
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


def word_stem(word: str) -> str:
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


def stemmed_terms(text: str) -> list[str]:
    """The stems of ``text``'s words that are not stopwords, in order."""
    return [word_stem(w) for w in (m.group(0).casefold() for m in WORD_RE.finditer(text)) if w not in STOPWORDS]


def content_terms(text: str, *, shortest: int = 4) -> set[str]:
    """The stems of ``text``'s words of at least ``shortest`` letters that are not stopwords."""
    return {
        word_stem(w) for w in (m.group(0).casefold() for m in WORD_RE.finditer(text)) if len(w) >= shortest
    } - STOPWORDS


@functools.lru_cache(maxsize=2048)
def cached_content_terms(text: str) -> frozenset[str]:
    """:func:`content_terms` of ``text``, cached: search reads the same turns search after search. Callers pass a
    bounded prefix (a turn's first 400 or 4,000 characters), so the cache holds at most ~8 MB of text."""
    return frozenset(content_terms(text))


# the values a schedule changes between, not what it is about ("Can't do Fridays, that's choir" / "choir moved to
# Tuesdays" share "choir", not a day); stems, as content_terms gives them
CALENDAR_TERMS = content_terms(
    " ".join([*WEEKDAYS, *(f"{day}s" for day in WEEKDAYS), *MONTHS])
    + " today yesterday tomorrow week weekend month year morning evening night"
)
