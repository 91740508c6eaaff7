"""What a text is about: its own entity (``self_name``), that entity's kind, and the names it goes by.

Pronouns and descriptors are resolved to the text's own entity only when its kind makes that reliable:
"she"/"he" on a page about a person, "it"/"the company" on a page about an organisation, "the meeting" on a
page about an event. The kind comes from the title (meeting-like names are events) or from the text's first
self-description ("Acme is a robotics startup ..." -> org, "Alice is a partner at ..." -> person).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graph import vocabulary as v
from graph.extraction.entities import _is_stop, guess_kind
from graph.extraction.lexicon import (
    COMPANY_SUFFIXES,
    DEPARTMENT_WORDS,
    EVENT_NAME_RE,
    FUNCTION_WORDS,
    NAME_PARTICLES,
    ORG_NOUNS,
    PERSON_NOUNS,
)
from graph.extraction.normalize import normalize_entity_name
from graph.extraction.types import EntityRef, Link

_TITLE_SEPARATOR_RE = re.compile(r"\s+[-–—|]\s+|:\s+")
_TRAILING_PARENTHETICAL_RE = re.compile(r"\(([^()]{1,100})\)$")
_INVESTOR_NAME_RE = re.compile(r"\b(?:capital|ventures|partners|fund|venture capital|vc)\b", re.IGNORECASE)
_INVESTOR_TEXT_RE = re.compile(
    r"\b(?:venture capital (?:firm|fund)s?|venture firms?|vc firms?|investment firms?|private equity)\b",
    re.IGNORECASE,
)
_CODE_RE = re.compile(r"(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]{2,8}")
_IT_DESCRIPTION_RE = re.compile(
    r"(?<=[.!?] )It(?:'s| is| was| remains) (?:a|an|the|our|one of our|one of the) ([^.;\n]{1,160})"
)
_DESCRIPTION_CUTS = frozenset(
    ", and or at of for in with behind who that which where whose since from on by to as known".split()
)


@dataclass(frozen=True)
class SelfContext:
    """The text's own entity and the facts needed to resolve pronouns, descriptors and short names to it."""

    ref: EntityRef | None = None
    kind: str | None = None  # the text's kind: a person, an organisation or an event (vocabulary kinds), or None
    words: frozenset[str] = frozenset()  # a person's first and last name: "Lee founded ...", "Mia joined ..."
    aliases: frozenset[str] = frozenset()  # "epsilon" on a page about "Epsilon Labs"
    investor: bool = False  # the organisation is an investment firm
    name_words: frozenset[str] = frozenset()
    codes: frozenset[str] = frozenset()  # "q1", "w24": identify one event among similar ones


def self_context(text: str, self_name: str | None) -> SelfContext:
    """What ``text`` says about ``self_name`` (an empty context, resolving nothing, when there is none)."""
    if not self_name:
        return SelfContext()
    name, tagline = split_title(self_name)
    norm = normalize_entity_name(name)
    if not norm:
        return SelfContext()
    kind = _guess_self_kind(text, name, tagline)
    entity_kind = {v.PERSON: v.PERSON, v.ORG: v.COMPANY}.get(kind or "", guess_kind(name, None))
    words: frozenset[str] = frozenset()
    parts = norm.split()
    if kind == v.PERSON and len(parts) >= 2:
        words = frozenset({parts[0], parts[-1]}) - FUNCTION_WORDS
    aliases: frozenset[str] = frozenset()
    if kind == v.ORG and len(parts) >= 2 and parts[-1] in COMPANY_SUFFIXES:
        aliases = frozenset({" ".join(parts[:-1])})  # a company is called by its name without the suffix
    name_words = frozenset(re.findall(r"[a-z0-9]+", name.casefold()))
    first_sentence = text[: min(400, (text.find(". ") + 1) or 400)]
    investor = kind == v.ORG and (
        _INVESTOR_NAME_RE.search(f"{name} {tagline}") is not None
        or _INVESTOR_TEXT_RE.search(first_sentence) is not None
    )
    return SelfContext(
        investor=investor,
        ref=EntityRef(name, norm, entity_kind, None),
        kind=kind,
        words=words,
        aliases=aliases,
        name_words=name_words - FUNCTION_WORDS,
        codes=frozenset(w for w in name_words if _CODE_RE.fullmatch(w)),
    )


def split_title(title: str) -> tuple[str, str]:
    """A page title's entity name and its tagline: "Echo - Robotics Startup" -> ("Echo", "Robotics Startup"),
    "Meta (Cybersecurity)" -> ("Meta", "Cybersecurity"), "Acme" -> ("Acme", "")."""
    title = " ".join(title.split())[:200]
    parts = _TITLE_SEPARATOR_RE.split(title, maxsplit=1)
    name, tagline = parts[0], parts[1] if len(parts) > 1 else ""
    parenthetical = _TRAILING_PARENTHETICAL_RE.search(name)
    if parenthetical is not None and parenthetical.start() > 0:
        name, tagline = name[: parenthetical.start()].rstrip(), f"{parenthetical.group(1)} {tagline}".strip()
    return (name, tagline) if normalize_entity_name(name) else (title, "")


# Lowercase words a title-case name may hold ("Bank of America", "Do Things That Don't Scale" is all capitals).
_NAME_CONNECTORS = frozenset({"of", "and", "the", "for", "on", "in", "at", "a", "an", "&", "+"}) | NAME_PARTICLES
_TITLE_WORD_RE = re.compile(r"[^\s–—]+")
_DASH_TAGLINE_RE = re.compile(r"\S\s+[-–—|]\s+\S|\S\s*\([^()]+\)$")  # "Echo - Robotics Startup"


def title_is_name(title: str, text: str) -> bool:
    """Whether a memory's title reads as the name of the thing it is about ("Acme Retail", "Hack Week 2026",
    "Nimbus Board Meeting Q2 2025") rather than a description ("What we do", "1:1 with Bea", "Deploy days").

    A name is title case (lowercase only for connectors), is not all jargon, weekdays or job titles ("Series C",
    "SLOs"), and a one-word title is a name only when the text also writes it capitalised inside a sentence: a
    capitalised common noun ("Offices", "Procurement") is capitalised there only because it heads the title.
    """
    name = split_title(title)[0] or title
    words = [w.strip("\"'“”‘’()[],.!?;:") for w in _TITLE_WORD_RE.findall(name)]
    words = [w for w in words if w]
    if not words or not words[0][:1].isupper() and not words[0][:1].isdigit():
        return False
    if any(w[:1].islower() and w.casefold() not in _NAME_CONNECTORS for w in words):
        return False
    naming = [w for w in words if not _is_number(w) and not _is_common(w)]
    if not naming:
        return False
    if len(naming) == 1 and not _DASH_TAGLINE_RE.search(title):
        inside = re.compile(r"(?<=[a-z,;(] )" + re.escape(naming[0]) + r"\b")
        return inside.search(text) is not None
    return True


def _is_common(word: str) -> bool:
    return word.casefold() in _NAME_CONNECTORS or word.casefold() in DEPARTMENT_WORDS or _is_stop(word)


def title_entity(title: str, text: str, links: Iterable[Link], *, kind_given: bool = False) -> str | None:
    """The name of the entity a memory's title says the memory is about, or None when the title only describes
    the memory ("What we do", "Deploy days"): each such title would become a junk entity. A title names an
    entity when the writer said what kind of thing it is (``kind_given``), when it reads as a name, or when the
    text's own links name it."""
    if not title:
        return None
    name = split_title(title)[0] or title  # "Echo - Robotics Startup" is about Echo, as the extractor reads it
    if kind_given or title_is_name(title, text):
        return name
    norm = normalize_entity_name(name)
    named = {ref.norm for link in links for ref in (link.subject, link.object) if ref is not None}
    return name if norm and norm in named else None


def _is_number(word: str) -> bool:
    return re.fullmatch(r"[\d:/.-]+|[QHW]\d+|v\d+", word, re.IGNORECASE) is not None


def _kind_from_words(words: list[str]) -> str | None:
    for word in reversed(words):
        for form in (word, word[:-1] if word.endswith("s") else word):
            if form in ORG_NOUNS:
                return v.ORG
            if form in PERSON_NOUNS:
                return v.PERSON
    return None


def _guess_self_kind(text: str, name: str, tagline: str = "") -> str | None:
    """An event for meeting-like titles; else what the text's first self-description (or the title's tagline)
    says the entity is; else an organisation for a name with a company suffix."""
    if EVENT_NAME_RE.search(name):
        return v.EVENT
    description = re.compile(
        re.escape(name) + r"\]?(?:\([^()\s]{1,300}\))?(?:'s|’s)? (?:is|was|has been|remains) "
        r"(?:a|an|the|one of the) ([^.;\n]{1,160})",
        re.IGNORECASE,
    ).search(text, 0, 5000)
    if description is None and re.match(re.escape(name) + r"\b", text.lstrip(), re.IGNORECASE):
        # a text that opens with its own name may describe it in the next sentence: "Acme Retail partnered with
        # us in 2022. It is our largest customer."
        description = _IT_DESCRIPTION_RE.search(text, 0, 600)
    if description is not None:
        # the head noun is the last word before the first preposition / clause word: "a developer tools
        # startup founded in ..." -> startup; "the founder and CEO of ..." -> founder
        head_phrase: list[str] = []
        for word in re.findall(r"[a-z][a-z'-]*|,", description.group(1).casefold())[:16]:
            if word in _DESCRIPTION_CUTS:
                break
            head_phrase.append(word)
        kind = _kind_from_words(head_phrase)
        if kind is not None:
            return kind
    kind = _kind_from_words(re.findall(r"[a-z][a-z'-]*", tagline.casefold()))
    if kind is not None:
        return kind
    return v.ORG if guess_kind(name, None) == v.COMPANY else None


def names_event(ctx: SelfContext, texts: list[str]) -> bool:
    """A timeline entry in a meeting page talks about *this* meeting only when it names it: it shares two
    words with the meeting's name and mentions no other meeting code ("Q4 board meeting" is not
    "... Q1 2025")."""
    words: set[str] = set()
    for text in texts:
        words.update(re.findall(r"[a-z0-9]+", text.casefold()))
    if any(_CODE_RE.fullmatch(w) and w not in ctx.codes for w in words):
        return False
    return len(words & ctx.name_words) >= 2
