"""Questions about an attribute of someone or something ("Where does Dmitri live now?", "Who is Ines's manager?",
"Who owns the billing service?", "When is the Orion launch?", "Where did she live before?") — pure, no Django.

The attribute is read from the question's cues as the graph vocabulary declares them for each attribute
(:data:`graph.vocabulary.ATTRIBUTES`), weighed by where they stand: a noun naming the attribute ("manager") counts
more than a verb, the kind a "what" / "which" asks for ("which pets") more than both, and a cue in a clause that
describes ("my role when I joined") or after a preposition ("animals at home") less; the question word breaks ties
("where" asks for a place). The subject is a name the question uses that is not in the value's place: a name right
after "at", "in", "for", "to", "by", "from" or "with" is a value ("Who works at Acme?" asks for the people at Acme —
a relationship question, not an attribute of Acme), unless the preposition follows a noun of the attribute ("the
deadline for Orion"). "Who speaks French?" asks for everyone with a value, and why / how / requests ask for none:
no attribute question. "I", "me", "my" make the caller the subject. What time is asked: how things stand now, what
held before ("before", "used to", "previous", "originally"), or what held at a date the question names.
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
_VALUE_PREPOSITIONS = frozenset({"at", "in", "for", "to", "by", "from", "with", "into"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
_BEFORE_RE = re.compile(
    r"\b(?:before|previous(?:ly)?|used?\s+to|former(?:ly)?|earlier|original(?:ly)?|initial(?:ly)?|old|past|prior)\b",
    re.IGNORECASE,
)
# Words that open a clause inside the question: a cue there describes the subject ("my role when I joined"), it is
# not what is asked, so it weighs less than a cue of the main clause.
_SUBORDINATORS = frozenset({"when", "before", "after", "since", "while", "until", "because", "if", "once", "that",
                            "who", "which", "where"})  # fmt: skip
# the words of a change: "when" asks of a place, an employer or a manager only when it began ("When did Dmitri move
# to Denver?", "When did Ines join Acme?", "When did they get the dog?")
_CHANGE_WORDS = frozenset(
    "move moved moving relocate relocated join joined joining start started begin began leave left become became "
    "promote promoted take took taken get got adopt adopted hire hired switch switched change changed arrive arrived "
    "settle settled buy bought inherit inherited transfer transferred hand handed pass passed learn learned learnt "
    "quit retire retired".split()
)
_HAVE = frozenset({"has", "have", "had"})
_MODALS = frozenset({"can", "could", "should", "would", "shall", "may", "might", "must"})
_TITLE_STOPS = frozenset({"of", "or", "and", "now", "still", "yet", "before", "after", "when", "since"})
_COPULA = frozenset({"is", "was", "am", "are", "were"})
_ARTICLES = frozenset({"a", "an", "the"})
_ALL_NOUNS = frozenset(word for a in v.ATTRIBUTES for word in a.nouns.split())
_ALL_WORDS = frozenset(word for a in v.ATTRIBUTES for word in a.words)
_NOUN_WEIGHT, _VERB_WEIGHT, _KIND_WEIGHT, _SUBORDINATE = 2.0, 1.0, 2.0, 0.5


@dataclass(frozen=True)
class _Cues:
    """One attribute's question words, as :class:`graph.vocabulary.Attribute` declares them."""

    words: frozenset[str]
    nouns: frozenset[str]  # and the value words: a named pet kind or language asks as a noun does
    verbs: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]
    value_verbs: frozenset[str]
    asks: frozenset[str]


_CUES: Mapping[str, _Cues] = {
    a.value: _Cues(
        words=a.words,
        nouns=a.words - frozenset(a.cues.split()) | frozenset(a.nouns.split()),
        verbs=frozenset(a.cues.split()) - frozenset(a.nouns.split()),
        phrases=tuple(tuple(phrase.split()) for phrase in a.phrases),
        value_verbs=frozenset(a.value_verbs.split()),
        asks=frozenset(a.asks.split()),
    )
    for a in v.ATTRIBUTES
}


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
    if _asks_no_value(words):
        return None  # "how long has …", "why did the launch slip?", "can I bring my dog …"
    asked_at = next((i for i, word in enumerate(words) if word in _QUESTION_WORDS), None)
    asked = words[asked_at] if asked_at is not None else None
    weights = _clause_weights(words, asked_at)
    kind_noun = _kind_noun(words, asked_at)
    scores: dict[str, tuple[float, int]] = {}
    positions: dict[str, set[int]] = {}
    predicate = _predicate(words, asked_at)
    for attribute, cues in _CUES.items():
        found = _cue_positions(words, cues)
        score = sum(weights[i] * (_VERB_WEIGHT if words[i] in cues.verbs else _NOUN_WEIGHT) for i in found)
        if kind_noun is not None and kind_noun in found:
            score += _KIND_WEIGHT
        if predicate is not None and words[predicate] in cues.value_verbs:
            score += _KIND_WEIGHT  # "who owns …", "which team maintains …": the verb asked about
        if attribute == v.JOB_TITLE and (_asks_a_title(words) or _asks_what_one_does(words)):
            score += _KIND_WEIGHT + _NOUN_WEIGHT  # the predicate is the title: its role noun asks nothing else
        if score:
            scores[attribute] = (score, int(asked in cues.asks) if asked else 0)
            positions[attribute] = found
    if not scores:
        return None
    attribute = max(scores, key=lambda name: scores[name])  # ties: the vocabulary's order
    cues = _CUES[attribute]
    if asked == "when" and "when" not in cues.asks and not _asks_since_when(words, weights, cues, positions[attribute]):
        return None  # "When was Bo's renovation work at home?": a day asked of an event, not of a value's start
    if _asks_who_has(words, asked_at, cues):
        return None  # "who speaks French?": everyone with a value, not one subject's attribute
    if _asks_what_a_value_has(words, asked_at, cues):
        return None  # "what does the Platform team own?": what has the named value, a relationship question
    cue_positions = positions[attribute]
    subjects: list[tuple[int, str]] = []
    values: list[tuple[int, str]] = []
    for norm, places in spans.items():
        start, end = places[0]
        if any(start <= position < end for position in cue_positions):
            continue  # a cue word is no name ("Where does Dmitri live" has the span "dmitri live")
        if {token.lower for token in tokens[start:end]} & _QUESTION_WORDS:
            continue
        (values if _in_value_place(words, start, cues) else subjects).append((start, norm))
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


def _asks_since_when(words: Sequence[str], weights: Sequence[float], cues: _Cues, found: set[int]) -> bool:
    """Whether a "when" asks of an attribute whose value is no day: since when a value held, said with a change's word
    ("When did Dmitri move to Denver?", "When did they get the dog?") or the attribute's own verb in the main clause
    ("Since when has Dmitri lived in Denver?") — not a noun of circumstance ("the renovation work at home")."""
    return bool(_CHANGE_WORDS.intersection(words)) or any(words[i] in cues.verbs and weights[i] == 1.0 for i in found)


def _cue_positions(words: Sequence[str], cues: _Cues) -> set[int]:
    """The positions of the attribute's cue words, and of every word of its cue phrases ("looks after")."""
    found = {i for i, word in enumerate(words) if word in cues.words}
    for phrase in cues.phrases:
        size = len(phrase)
        for i in range(len(words) - size + 1):
            if tuple(words[i : i + size]) == phrase:
                found.update(range(i, i + size))
    return found


def _clause_weights(words: Sequence[str], asked_at: int | None) -> list[float]:
    """Each word's weight as a cue: 1 in the main clause, less once a clause opens after the question word, and less
    right after a preposition ("animals at home", "her role at the company": a circumstance, not what is asked)."""
    weights, weight = [], 1.0
    for i, word in enumerate(words):
        if word in _SUBORDINATORS and i != asked_at and i > 0:
            weight = _SUBORDINATE
        after = i - 1
        while after >= 0 and words[after] in _ARTICLES:
            after -= 1
        circumstance = after >= 0 and words[after] in _VALUE_PREPOSITIONS
        weights.append(weight * (_SUBORDINATE if circumstance else 1.0))
    return weights


def _predicate(words: Sequence[str], asked_at: int | None) -> int | None:
    """The position of the verb right after "who" or "which <noun>" ("who maintains", "which team owns")."""
    if asked_at is None or words[asked_at] not in ("who", "which"):
        return None
    i = asked_at + (2 if words[asked_at] == "which" else 1)
    return i if i < len(words) else None


def _kind_noun(words: Sequence[str], asked_at: int | None) -> int | None:
    """The position of the noun that says what kind of answer "what" / "which" asks for ("which languages", "what is
    Bo's job title"): the first noun of the phrase after the question word, past a copula, articles and a
    possessive name."""
    if asked_at is None or words[asked_at] not in ("what", "which"):
        return None
    i = asked_at + 1
    if i < len(words) and words[i] in _COPULA:
        i += 1
    skipped = 0
    while i < len(words) and skipped < 4 and (words[i] in _ARTICLES or words[i] not in _ALL_NOUNS):
        i, skipped = i + 1, skipped + 1
    return i if i < len(words) and words[i] in _ALL_NOUNS else None


def _asks_a_title(words: Sequence[str]) -> bool:
    """A yes/no question whose predicate is a title: "is Mei (still) a staff engineer?", "was Keiko a data
    analyst …?" — a noun phrase of at most four words after the article ends in a role noun."""
    if not words or words[0] not in _COPULA:
        return False
    for i, word in enumerate(words[1:6], start=1):
        if word in _ARTICLES:
            phrase = []
            for w in words[i + 1 : i + 5]:
                if w in _ARTICLES or w in _VALUE_PREPOSITIONS or w in _TITLE_STOPS:
                    break
                phrase.append(w)
            return bool(phrase) and phrase[-1] in v.ROLE_NOUNS
    return False


def _asks_no_value(words: Sequence[str]) -> bool:
    """Why something happened, how (long) something goes, and requests ("can I bring my dog …?") ask no value;
    "how many pets does …" counts values and is asked as the attribute is."""
    if not words:
        return True
    if words[0] == "why":
        return True
    if words[0] == "how":
        return not (len(words) > 2 and words[1] in ("many", "much") and words[2] in _ALL_WORDS)
    return words[0] in _MODALS and len(words) > 1 and words[1] in ("i", "we")


def _asks_what_one_does(words: Sequence[str]) -> bool:
    """ "what does Zara do (now / these days / for work)?": what someone does is their job."""
    if len(words) < 4 or words[0] != "what" or words[1] not in ("does", "did", "do"):
        return False
    return "do" in words[3:6] and not set(words[3:]) & {"with", "about", "to", "on", "if", "when"}


def _asks_who_has(words: Sequence[str], asked_at: int | None, cues: _Cues) -> bool:
    """ "who speaks French?", "who has a dog?", "who lives near the office?": the question word is the subject of a
    cue verb whose subject is the attribute's subject, so it asks for everyone who has some value."""
    if asked_at is None or words[asked_at] not in ("who", "which", "whom"):
        return False
    i = asked_at + 1
    if words[asked_at] == "which":
        i += 1  # "which customers are based in …": the noun asked for
    had = False
    while i < len(words) and words[i] in ({"else", "here", "also"} | _HAVE | {"are", "is"}):
        had, i = had or words[i] in _HAVE, i + 1
    if i >= len(words) or words[i] not in cues.words or words[i] in cues.value_verbs:
        return False
    if words[i] in cues.nouns:
        # "who has pets …" asks for everyone with one; "who has ownership of S" (a value that can be the sentence's
        # subject) and "who is the manager" ask for one value
        return had and not cues.value_verbs
    return True


def _asks_what_a_value_has(words: Sequence[str], asked_at: int | None, cues: _Cues) -> bool:
    """ "what does the Platform team own?", "who does Piet manage?": after "does" the name is the subject of a verb
    whose subject is the attribute's value, so the question asks for everything that has that value."""
    if asked_at is None:
        return False
    aux = next((i for i in range(asked_at + 1, len(words)) if words[i] in ("does", "do", "did")), None)
    return aux is not None and any(word in cues.value_verbs for word in words[aux + 2 :])


def _in_value_place(words: Sequence[str], start: int, cues: _Cues) -> bool:
    """A name right after "at", "in", "for", "to", "by", "from", "with" or "into" is a value ("who works at Acme?"),
    unless the preposition follows a noun that names the attribute ("the deadline for Orion", "pets for Ingrid")."""
    if start == 0 or words[start - 1] not in _VALUE_PREPOSITIONS:
        return False
    before = start - 2
    while before >= 0 and words[before] in _ARTICLES:
        before -= 1
    return not (before >= 0 and words[before] in cues.nouns)


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
