"""Questions about an attribute of someone or something ("Where does Dmitri live now?", "Who is Ines's manager?",
"Who owns the billing service?", "When is the Orion launch?", "Where did she live before?") — pure, no Django.

The attribute is read from the question's cue words, as the graph vocabulary declares them for each attribute
(:data:`graph.vocabulary.ATTRIBUTES`), the question word breaking ties ("where" asks for a place). The subject is a
name the question uses that is not in the value's place: a name right after "at", "in", "for", "to", "by", "from"
or "with" is a value ("Who works at Acme?" asks for the people at Acme — a relationship question, not an attribute
of Acme). "I", "me", "my" make the caller the subject. What time is asked: how things stand now, what held before
("before", "used to", "previous", "former"), or what held at a date the question names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graph import vocabulary as v
from retrieval.relational_query import Token

__all__ = ["AttributeQuestion", "attribute_question"]

NOW, BEFORE, THEN = "now", "before", "then"

_QUESTION_WORDS = frozenset({"who", "whom", "whose", "what", "which", "where", "when"})
_VALUE_PREPOSITIONS = frozenset({"at", "in", "for", "to", "by", "from", "with", "of", "into"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
_BEFORE_RE = re.compile(
    r"\b(?:before|previous(?:ly)?|used?\s+to|former(?:ly)?|earlier|originally|old|past|prior)\b", re.IGNORECASE
)
_CUES: Mapping[str, frozenset[str]] = {a.value: frozenset(a.cues.split()) for a in v.ATTRIBUTES}
_ASKS: Mapping[str, frozenset[str]] = {a.value: frozenset(a.asks.split()) for a in v.ATTRIBUTES}


@dataclass(frozen=True)
class AttributeQuestion:
    """``attribute`` of ``subjects`` (candidate names, normalised, in the question's order) or of the caller
    (``first_person``), asked about ``when``: now, before, or then (a date the question names). ``values``: the
    names it puts in the value's place ("Do I still live in Boston?")."""

    attribute: str
    subjects: tuple[str, ...]
    first_person: bool
    when: str
    values: tuple[str, ...] = ()
    named: str = ""  # the subject as the question writes it, when it reads as a name ("Saoirse", "the Orion launch")


def attribute_question(
    query: str, tokens: Sequence[Token], spans: Mapping[str, Sequence[tuple[int, int]]], *, dated: bool = False
) -> AttributeQuestion | None:
    """The attribute question ``query`` asks, or None. ``spans``: the question's candidate names and their token
    spans (:func:`retrieval.relational_query.mention_candidates`); ``dated``: the question names a date window."""
    words = [token.lower for token in tokens]
    asked = next((word for word in words if word in _QUESTION_WORDS), None)
    scores: dict[str, tuple[int, int]] = {}
    for attribute, cues in _CUES.items():
        hits = sum(1 for word in words if word in cues)
        if hits:
            scores[attribute] = (hits, int(asked in _ASKS[attribute]) if asked else 0)
    if not scores:
        return None
    attribute = max(scores, key=lambda name: scores[name])  # ties: the vocabulary's order
    cue_positions = {i for i, word in enumerate(words) if word in _CUES[attribute]}
    subjects: list[tuple[int, str]] = []
    values: list[tuple[int, str]] = []
    for norm, places in spans.items():
        start, end = places[0]
        if any(start <= position < end for position in cue_positions):
            continue  # a cue word is no name ("Where does Dmitri live" has the span "dmitri live")
        if {token.lower for token in tokens[start:end]} & _QUESTION_WORDS:
            continue
        in_value_place = start > 0 and words[start - 1] in _VALUE_PREPOSITIONS
        (values if in_value_place else subjects).append((start, norm))
    first_person = bool(_FIRST_PERSON & set(words))
    named = _named(attribute, tokens, [spans[norm][0] for _, norm in subjects])
    when = BEFORE if _BEFORE_RE.search(query) else THEN if dated else NOW
    return AttributeQuestion(
        attribute=attribute,
        subjects=tuple(norm for _, norm in sorted(subjects, key=lambda item: (item[0], -len(item[1])))),
        first_person=first_person,
        when=when,
        values=tuple(norm for _, norm in sorted(values)),
        named=named,
    )


def _named(attribute: str, tokens: Sequence[Token], places: Sequence[tuple[int, int]]) -> str:
    """The longest subject candidate that reads as a name: capitalised words (not the question's first word alone),
    or, for a system or a project, words ending in a system's head noun ("the notifications pipeline")."""
    things = attribute in (v.OWNED_BY, v.DUE_DATE)
    best = ""
    for start, end in places:
        words = tokens[start:end]
        capitalised = all(word.text[:1].isupper() for word in words) and (start > 0 or end - start > 1)
        headed = things and words[-1].lower in v.KIND_HEAD_NOUNS
        text = " ".join(word.text for word in words)
        if (capitalised or headed) and len(text) > len(best):
            best = text
    return best
