"""Understand relationship questions in any wording — pure: no Django, no database.

No list of per-wording patterns. A question is understood from three general pieces of evidence:

1. **Entity mentions**: :func:`mention_candidates` lists the question's word n-grams (a trailing possessive
   "'s" dropped) as normalised names; the caller looks them up among the tenant's entity names and aliases (the
   graph knows them) and hands back the matches as :class:`Mention` spans. Overlaps keep the longest span.
2. **Relation cues**: a lexicon of verbs and nouns with their synonyms (``LEXICON``) names the relation each
   word signals, and the word's *role*: a verb ("backed"), an agent noun asking for the edge's subjects
   ("investors", "founders", "attendees"), a patient noun asking for its objects ("portfolio", "employer"), or a
   generic membership word ("part of", "member", "people") resolved by the kind of the entity it applies to (a
   meeting's members attended it, a company's work there).
3. **Roles and types**: each relation has a signature (who can be its subject and object: a person founds a
   company, attends an event). The direction of a hop follows from the kind of the entity (or set) it starts
   from when the signature decides it, else from the words: an agent noun asks for subjects; a verb before its
   noun phrase ("who backed X") makes the phrase the object, after it ("what did X back") the subject, and "by"
   reverses a passive ("companies founded by X").

Several cues make a path of up to ``MAX_HOPS`` hops, walked from the named entity outwards (the cue nearest to
it first): "who founded the companies that X invested in" → X -invested_in→ companies ←founded- founders. A hop
whose relation cannot start from the current kind gets an implicit membership hop first ("which meetings did
people from Acme attend": Acme ←works_at- people -attended→ meetings).

Bounded work: at most ``MAX_QUERY_CHARS`` characters and ``MAX_TOKENS`` tokens are read, n-grams are at most
``MAX_NGRAM`` tokens, and the only regular expression is a linear tokenizer. Never raises for any ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from graph import vocabulary
from graph.extraction.normalize import normalize_entity_name

__all__ = [
    "ABOUT",
    "DIRECTIONS",
    "INBOUND",
    "LEXICON",
    "MAX_HOPS",
    "MAX_QUERY_CHARS",
    "OUTBOUND",
    "RELATIONSHIPS",
    "Ambiguity",
    "Hop",
    "Mention",
    "RelationalPlan",
    "RelationalQuery",
    "Token",
    "link_mentions",
    "mention_candidates",
    "parse_relational_query",
    "partial_candidates",
    "partial_covers",
    "plan_from_spans",
    "plan_relational",
    "spoken_forms",
    "tokenize",
]

MAX_QUERY_CHARS = 2000
MAX_TOKENS = 80
MAX_NGRAM = 8
MAX_HOPS = 3
MAX_SEED_CHARS = 200
MAX_PARTIAL_TOKENS = 3  # a partial name is a name's first words or a person's last name: short
MAX_PARTIALS = 16  # partial-name look-ups per question (each is one index probe in the context statement)
MAX_PARTIAL_MATCHES = 6  # entities read per partial name: enough to list the candidates of an ambiguous one

# Every relationship, its signature and the words that ask for it come from the graph's vocabulary.
RELATIONSHIPS = (*vocabulary.TYPED_RELATIONSHIPS, vocabulary.ABOUT)
INBOUND = "inbound"  # the start is the edge's object; the question asks for subjects ("who founded Acme")
OUTBOUND = "outbound"  # the start is the edge's subject; the question asks for objects ("what did Alice found")
ABOUT = vocabulary.ABOUT  # anything known about the seed, either side of any edge
DIRECTIONS = (INBOUND, OUTBOUND, ABOUT)
MEMBERSHIP = vocabulary.MEMBER_OF  # a generic cue, resolved by the kind of the entity it applies to

VERB, AGENT, PATIENT, INVERSE_VERB = vocabulary.VERB, vocabulary.AGENT, vocabulary.PATIENT, vocabulary.INVERSE_VERB
WEAK_VERB = (
    vocabulary.WEAK_VERB
)  # a verb that signals the relation only when its entity can take it ("go to <meeting>")

# (subject kinds, object kinds); "unknown" and kinds no signature names are compatible with everything.
SIGNATURES: Mapping[str, tuple[frozenset[str], frozenset[str]]] = {
    r.value: (r.subjects, r.objects) for r in vocabulary.RELATIONSHIPS if r.typed
}
_TYPED_KINDS = vocabulary.SIGNATURE_KINDS
_KNOWN_KINDS = frozenset(vocabulary.KINDS_BY_VALUE)

# The lexicon: word → (relationship, role). Verbs in their inflections, nouns in singular and plural. Words that
# belong to no single relation in general ("board", "round" alone, "at") are left out on purpose.
LEXICON: Mapping[str, tuple[str, str]] = vocabulary.cue_words()
_AUXILIARIES = frozenset("was were is are be been being get gets got".split())
_PASSIVE_BY = "by"
_WITH = "with"
# Relationships a question about another also walks ("works at" counts a founder as working at their company).
ALSO_FOLLOW: Mapping[str, tuple[str, ...]] = {r.value: r.also_follow for r in vocabulary.RELATIONSHIPS if r.also_follow}

_TOKEN_RE = re.compile(r"[^\W_][\w&'’.-]*", re.UNICODE)
_SEPARATORS = frozenset("-–—:(|")
SYMMETRIC = vocabulary.SYMMETRIC_RELATIONSHIPS


@dataclass(frozen=True)
class Token:
    text: str  # as written, without a trailing possessive
    lower: str
    possessive: bool  # written with "'s" / "'" after it
    after_separator: bool = False  # a dash, colon or opening bracket stands between it and the previous word


@dataclass(frozen=True)
class Mention:
    """Tokens ``[start, end)`` of the question name an entity the tenant knows (``entity_ids``, best first)."""

    start: int
    end: int
    entity_ids: tuple[int, ...]
    name: str
    kind: str


@dataclass(frozen=True)
class Ambiguity:
    """Tokens ``[start, end)`` (``text`` as written) are the start of several visible entities' names
    (``names``, best first; ``more``: there are others beyond them), so nothing was linked for them."""

    start: int
    end: int
    text: str
    names: tuple[str, ...]
    more: bool = False


@dataclass(frozen=True)
class Hop:
    relationship: str
    direction: str  # INBOUND or OUTBOUND (either side for a symmetric relationship)


@dataclass(frozen=True)
class RelationalPlan:
    """What the relational arm walks: from ``seeds`` along ``hops`` (none: everything about the seeds)."""

    seeds: tuple[Mention, ...]
    hops: tuple[Hop, ...]
    target: Mention | None = None  # a second named entity the answer must reach, when the question names one
    truncated: bool = False  # the question asked for more than MAX_HOPS hops; the nearest ones were kept
    ambiguous: tuple[Ambiguity, ...] = ()  # partial names that fit several visible entities (none linked)

    @property
    def is_about(self) -> bool:
        return not self.hops

    def as_query(self) -> RelationalQuery:
        """The one-hop view the deterministic answer sentences use (the last hop for a path)."""
        seed = self.seeds[0].name[:MAX_SEED_CHARS] or "?"
        if not self.hops:
            return RelationalQuery(ABOUT, seed, ABOUT)
        hop = self.hops[-1]
        return RelationalQuery(hop.relationship, seed, hop.direction)


@dataclass(frozen=True)
class RelationalQuery:
    """A relationship question as one hop: the relationship, the seed as named, and the direction."""

    relationship: str
    seed: str
    direction: str

    def __post_init__(self) -> None:
        if self.relationship not in RELATIONSHIPS:
            raise ValueError(f"unknown relationship {self.relationship!r}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {self.direction!r}")
        if (self.relationship == ABOUT) != (self.direction == ABOUT):
            raise ValueError("relationship 'about' goes with direction 'about' and only with it")
        if not 1 <= len(self.seed) <= MAX_SEED_CHARS:
            raise ValueError(f"seed must be 1..{MAX_SEED_CHARS} characters")


def tokenize(query: str) -> list[Token]:
    """Words of the question (at most MAX_TOKENS), possessives split off, edge punctuation dropped."""
    if not isinstance(query, str):
        return []
    tokens: list[Token] = []
    previous_end = 0
    for match in _TOKEN_RE.finditer(query[:MAX_QUERY_CHARS]):
        gap = query[previous_end : match.start()]
        previous_end = match.end()
        separated = bool(tokens) and any(ch in gap for ch in _SEPARATORS)
        text = match.group(0).replace("’", "'").rstrip(".-")
        possessive = False
        if text.lower().endswith("'s") and len(text) > 2:
            text, possessive = text[:-2], True
        elif text.endswith("'") and len(text) > 1:
            text, possessive = text[:-1], text[-2:-1].lower() == "s"
        text = text.strip("'")
        if text:
            tokens.append(Token(text=text, lower=text.lower(), possessive=possessive, after_separator=separated))
        if len(tokens) >= MAX_TOKENS:
            break
    return tokens


def mention_candidates(tokens: Sequence[Token]) -> dict[str, list[tuple[int, int]]]:
    """Normalised name → token spans ``[start, end)`` for every n-gram of up to MAX_NGRAM tokens that could name
    an entity: it holds a letter or digit, does not start with a function word (unless written as a name), ends at a
    possessive, and ends
    with a function word only when it is one token long. The caller looks the names up."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for start in range(len(tokens)):
        if tokens[start].lower in _FUNCTION_WORDS and not _written_as_a_name(tokens, start):
            continue
        for end in range(start + 1, min(len(tokens), start + MAX_NGRAM) + 1):
            last = tokens[end - 1]
            if last.lower in _FUNCTION_WORDS and end - start > 1:
                if last.possessive:
                    break
                continue
            name = " ".join(token.text for token in tokens[start:end])
            norm = normalize_entity_name(name)[:MAX_SEED_CHARS]
            if norm and any(ch.isalnum() for ch in norm):
                spans.setdefault(norm, []).append((start, end))
            if last.possessive:
                break  # "Acme's investors": the name ends at the possessive
    return spans


def _written_as_a_name(tokens: Sequence[Token], position: int) -> bool:
    """A function word capitalised inside the question ("What does Will do?", "Where is May from?") is written as a
    name; the first word is capitalised whatever it is."""
    text = tokens[position].text
    return position > 0 and len(text) > 1 and text[:1].isupper() and text[1:].islower()


def partial_candidates(
    query: str, tokens: Sequence[Token], spans: Mapping[str, Sequence[tuple[int, int]]]
) -> list[str]:
    """The candidate names (of ``spans``) worth looking up as the start of a longer name or as a person's last
    name: at most MAX_PARTIAL_TOKENS words, capitalised as a name is (any word, when the whole question is lower
    case), not a relation cue, at least two characters; the earliest first, at most MAX_PARTIALS."""
    lower_question = query == query.lower()
    picked: list[tuple[int, int, str]] = []
    for norm, positions in spans.items():
        for start, end in positions:
            words = tokens[start:end]
            if end - start > MAX_PARTIAL_TOKENS or len(norm) < 2:
                continue
            if not lower_question and not all(word.text[:1].isupper() or word.text[:1].isdigit() for word in words):
                continue
            if len(words) == 1 and words[0].lower in LEXICON:
                continue
            picked.append((start, -(end - start), norm))
            break
    return list(dict.fromkeys(norm for _, _, norm in sorted(picked)))[:MAX_PARTIALS]


def spoken_forms(
    names: Sequence[str], tokens: Sequence[Token], spans: Mapping[str, Sequence[tuple[int, int]]]
) -> list[str]:
    """Each of ``names`` (normalised: "niamh obrien", "jean luc") as the question writes it, lower-cased ("niamh
    o'brien", "jean-luc"): the form a speaker's name is stored in (a session event's author, lower-cased), and the
    form to find it by in the question's text. A name with an apostrophe comes in both ways people type it ("o'brien",
    "o’brien"): the question's tokens have the straight one, a stored name may have either."""
    forms = (
        " ".join(token.lower for token in tokens[start:end])
        for start, end in (spans[name][0] for name in names if spans.get(name))
    )
    return list(dict.fromkeys(variant for form in forms for variant in (form, form.replace("'", "’"))))


def partial_covers(partials: Sequence[str], spans: Mapping[str, Sequence[tuple[int, int]]]) -> list[list[str]]:
    """For each of ``partials``, the spans (itself included) that hold every place it occurs: when one of them is
    an entity's whole name or alias, :func:`link_mentions` never reads the partial name's candidates (the whole
    name links instead, and :func:`choose_mentions` takes the longer name over the words inside it), so the
    context statement need not look them up. The one case this gives up is a question naming two entities whose
    names share a word ("Acme Robotics Labs" where both "Acme Robotics" and "Robotics Labs" are names): the first
    links, and the second's other words ("Labs") are not tried as a partial name."""
    return [
        [
            norm
            for norm, places in spans.items()
            if all(any(start <= a and b <= end for start, end in places) for a, b in spans.get(partial, ()))
        ]
        for partial in partials
    ]


def link_mentions(
    query: str,
    tokens: Sequence[Token],
    spans: Mapping[str, Sequence[tuple[int, int]]],
    entities: EntityIndex,
    partial: EntityIndex | None = None,
) -> tuple[list[Mention], tuple[Ambiguity, ...]]:
    """The question's mentions and the partial names it leaves ambiguous.

    A span links to the entities whose name or alias it is (``entities``). A span that is no entity's whole name
    links when it starts exactly one of the caller's visible entities' names, or is one person's last name
    (``partial``: the caller's look-up of :func:`partial_candidates`) — "Sequoia" → Sequoia Capital, "Alice" →
    Alice Chen. When it fits several, nothing is linked for it and it is reported as an :class:`Ambiguity`
    (unless a mention covers part of it)."""
    partial = partial or {}
    found = []
    unsure: list[tuple[int, int, tuple[str, ...], bool]] = []
    for norm, positions in spans.items():
        refs = entities.get(norm)
        if refs:
            ids = tuple(entity_id for entity_id, _, _ in refs)
            found += [(start, end, ids, refs[0][1], refs[0][2]) for start, end in positions]
            continue
        candidates = list({entity_id: (name, kind) for entity_id, name, kind in partial.get(norm) or ()}.items())
        if len(candidates) == 1:
            entity_id, (name, kind) = candidates[0]
            found += [(start, end, (entity_id,), name, kind) for start, end in positions]
        elif candidates:
            names = tuple(dict.fromkeys(name for _, (name, _) in candidates))
            shown = names[: MAX_PARTIAL_MATCHES - 1]
            more = len(names) > len(shown)
            unsure += [(start, end, shown, more) for start, end in positions]
    mentions = choose_mentions(query, tokens, found)
    taken = {i for m in mentions for i in range(m.start, m.end)}
    ambiguous: list[Ambiguity] = []
    # the longest ambiguous spans first, each only where nothing is linked or already reported
    for start, end, names, more in sorted(unsure, key=lambda u: (-(u[1] - u[0]), u[0])):
        if any(i in taken for i in range(start, end)) or not _may_name(query, tokens[start:end]):
            continue
        taken.update(range(start, end))
        text = " ".join(token.text for token in tokens[start:end])
        ambiguous.append(Ambiguity(start=start, end=end, text=text, names=names, more=more))
    return mentions, tuple(sorted(ambiguous, key=lambda a: a.start))


def _may_name(query: str, words: Sequence[Token]) -> bool:
    """The word-level tests :func:`choose_mentions` applies to a single word before it may name an entity."""
    if len(words) != 1:
        return True
    word = words[0]
    if word.text == word.lower and query != query.lower():
        return False
    return word.lower not in LEXICON


def choose_mentions(
    query: str, tokens: Sequence[Token], found: Iterable[tuple[int, int, tuple[int, ...], str, str]]
) -> list[Mention]:
    """Non-overlapping mentions, longest first, from ``(start, end, entity_ids, name, kind)`` matches. A
    single all-lower-case word names an entity only when the whole question is lower case (a capitalised
    name typed casually), so "the vector index" does not mean the company Vector."""
    lower_question = query == query.lower()
    taken: set[int] = set()
    mentions: list[Mention] = []
    for start, end, entity_ids, name, kind in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
        if any(i in taken for i in range(start, end)):
            continue
        words = tokens[start:end]
        if len(words) == 1 and words[0].text == words[0].lower and not lower_question:
            continue
        if len(words) == 1 and words[0].lower in LEXICON:
            continue  # a cue word, not a name ("Partner", "Founders")
        if words[0].after_separator and (start - 1) in taken:
            continue  # "Echo - Robotics Startup", "Demo Day W25 - Beta Pitch": a tagline of the name before it
        taken.update(range(start, end))
        mentions.append(Mention(start=start, end=end, entity_ids=tuple(entity_ids), name=name, kind=kind))
    return sorted(mentions, key=lambda m: m.start)


@dataclass(frozen=True)
class _Cue:
    position: int
    relationship: str
    role: str
    passive_by: bool  # "by" follows the cue word ("founded by X")


# Phrases that say when, made of words that are also cues ("back in May", "at present"): no relation is asked
_TIME_PHRASES = (("back", "in"), ("back", "then"), ("back", "when"), ("at", "present"), ("way", "back"))


def _in_time_phrase(words: Sequence[str], position: int) -> bool:
    for phrase in _TIME_PHRASES:
        for start in range(max(0, position - len(phrase) + 1), position + 1):
            if tuple(words[start : start + len(phrase)]) == phrase:
                return True
    return False


def _cues(tokens: Sequence[Token], mentions: Sequence[Mention]) -> list[_Cue]:
    inside = {i for m in mentions for i in range(m.start, m.end)}
    words = [token.lower for token in tokens]
    cues = []
    for position, token in enumerate(tokens):
        if position in inside or token.lower not in LEXICON or _in_time_phrase(words, position):
            continue
        relationship, role = LEXICON[token.lower]
        following = tokens[position + 1].lower if position + 1 < len(tokens) else ""
        if (
            following == _WITH
            and role == VERB
            and cues
            and cues[-1].role == AGENT
            and position - cues[-1].position <= 2
        ):
            continue  # "advisors work with X", "investors who deal with X": the agent noun names the relation
        cues.append(_Cue(position, relationship, role, following == _PASSIVE_BY))
    # "investors backed", "founder and co-founder": adjacent cues of one relation make one hop
    merged: list[_Cue] = []
    for cue in cues:
        if merged and merged[-1].relationship == cue.relationship and cue.position - merged[-1].position <= 3:
            if cue.role == AGENT or merged[-1].role != AGENT:
                merged[-1] = _Cue(
                    merged[-1].position,
                    cue.relationship,
                    _stronger(merged[-1].role, cue.role),
                    merged[-1].passive_by or cue.passive_by,
                )
            continue
        merged.append(cue)
    return merged


def _stronger(first: str, second: str) -> str:
    order = (AGENT, PATIENT, INVERSE_VERB, VERB)
    return min(first, second, key=order.index)


def _kinds_after(relationship: str, direction: str, kinds: frozenset[str]) -> frozenset[str]:
    if relationship not in SIGNATURES:
        return frozenset({vocabulary.UNKNOWN})
    subjects, objects = SIGNATURES[relationship]
    if relationship in SYMMETRIC:
        return kinds
    return (objects if direction == OUTBOUND else subjects) or frozenset({vocabulary.UNKNOWN})


def _can(relationship: str, kinds: frozenset[str]) -> tuple[bool, bool]:
    """(the kinds can be the subject, can be the object) of the relationship; unknown kinds can be either."""
    subjects, objects = SIGNATURES[relationship]
    typed = kinds & _TYPED_KINDS
    if not typed:
        return True, True
    return (not subjects or bool(typed & subjects)), (not objects or bool(typed & objects))


def _syntax_direction(cue: _Cue, phrase_position: int, phrase_possessive: bool, tokens: Sequence[Token]) -> str:
    """The direction the words give for a cue applied to the noun phrase at ``phrase_position``."""
    if cue.role == AGENT:
        return INBOUND
    if cue.role == PATIENT:
        return OUTBOUND
    if phrase_possessive and phrase_position < cue.position:
        direction = INBOUND  # "X's payroll", "X's round": the people in it
    elif cue.position < phrase_position:
        by_before = phrase_position > 0 and tokens[phrase_position - 1].lower == _PASSIVE_BY
        direction = OUTBOUND if by_before else INBOUND
    else:
        auxiliary_before = cue.position > 0 and tokens[cue.position - 1].lower in _AUXILIARIES
        direction = (
            INBOUND if cue.passive_by or (auxiliary_before and tokens[cue.position].lower.endswith("ed")) else OUTBOUND
        )
    if cue.role == INVERSE_VERB:
        direction = OUTBOUND if direction == INBOUND else INBOUND
    return direction


def _membership(kinds: frozenset[str]) -> Hop | None:
    """The hop a generic membership word means for the kinds at hand (an event's attendees, an org's staff)."""
    for kind in vocabulary.ENTITY_KINDS:
        if kind.value in kinds and kind.members:
            return Hop(kind.members, INBOUND)
    return None


def plan_relational(query: str, tokens: Sequence[Token], mentions: Sequence[Mention]) -> RelationalPlan | None:
    """The walk that answers the question, or ``None`` when it names no known entity.

    A named entity with no relation cue is an "about" plan (everything known about it), except that a meeting
    or event has one kind of typed edge, so "who was at <meeting>" walks its attendance. With cues, the hops are
    chained greedily from the seed: each step takes the nearest remaining cue whose relation can start from the
    current kinds; when none can, the nearest strong cue gets an implicit membership hop first, and a weak cue
    ("go to", "present") that cannot apply is dropped.
    """
    if not mentions:
        return None
    cues = _cues(tokens, mentions)
    specific = [cue for cue in cues if cue.relationship != MEMBERSHIP]
    generic = [cue for cue in cues if cue.relationship == MEMBERSHIP]
    seed = _seed(mentions, specific, tokens)
    seeds = tuple(m for m in mentions if _same_group(m, seed, tokens)) or (seed,)
    target = next((m for m in mentions if m not in seeds), None)
    kinds = frozenset(m.kind for m in seeds)

    if not specific:
        asks_members = generic or any(vocabulary.KINDS_BY_VALUE[k].members_by_default for k in kinds & _KNOWN_KINDS)
        hop = _membership(kinds) if asks_members else None
        return RelationalPlan(seeds=seeds, hops=(hop,) if hop else (), target=target)

    hops: list[Hop] = []
    if _names_own_organisation(seed, tokens) and kinds <= _PEOPLE:
        # "the advisors of Alice's companies": the organisations a person belongs to (founders included, see
        # ALSO_FOLLOW) come first, then the cues apply to them
        hops.append(Hop(vocabulary.WORKS_AT, OUTBOUND))
        kinds = _kinds_after(vocabulary.WORKS_AT, OUTBOUND, kinds)
    remaining = list(specific)
    previous: _Cue | None = None
    anchor = seed
    while remaining and len(hops) < MAX_HOPS:
        ranked = sorted(remaining, key=lambda cue: _distance(cue, anchor, previous, tokens))
        compatible = [cue for cue in ranked if any(_can(cue.relationship, kinds))]
        if compatible:
            cue = compatible[0]
        else:
            strong = [cue for cue in ranked if cue.role != WEAK_VERB]
            membership = _membership(kinds)
            if not strong or membership is None:
                break
            cue = strong[0]
            hops.append(membership)
            kinds = _kinds_after(membership.relationship, membership.direction, kinds)
            if not any(_can(cue.relationship, kinds)):
                break
        remaining.remove(cue)
        direction = _direction(cue, kinds, previous, anchor, tokens)
        hops.append(Hop(cue.relationship, direction))
        kinds = _kinds_after(cue.relationship, direction, kinds)
        previous = cue
    truncated = bool([cue for cue in remaining if cue.role != WEAK_VERB]) or len(hops) > MAX_HOPS
    if not hops:
        return RelationalPlan(seeds=seeds, hops=(), target=target)
    return RelationalPlan(seeds=seeds, hops=tuple(hops[:MAX_HOPS]), target=target, truncated=truncated)


# Common nouns for a company in general: after a person's possessive ("Alice's startup") they mean the company
# the person is part of; the relation cues of the question then apply to it.
_ORGANISATION_NOUNS = frozenset("company companies startup startups firm firms business businesses".split())
_PEOPLE = frozenset({vocabulary.PERSON})


def _names_own_organisation(seed: Mention, tokens: Sequence[Token]) -> bool:
    return tokens[seed.end - 1].possessive and seed.end < len(tokens) and tokens[seed.end].lower in _ORGANISATION_NOUNS


def _distance(cue: _Cue, seed: Mention, previous: _Cue | None, tokens: Sequence[Token]) -> tuple[float, int]:
    """How far a cue is from where the walk stands: the seed's span for the first hop, else the previous cue.
    A cue right after a possessive seed is its head noun ("X's employer") and counts as nearest."""
    if previous is not None:
        return abs(cue.position - previous.position), cue.position
    if cue.position >= seed.end:
        distance = cue.position - (seed.end - 1) - (0.5 if tokens[seed.end - 1].possessive else 0.25)
    else:
        distance = seed.start - cue.position
    return distance, cue.position


def _direction(cue: _Cue, kinds: frozenset[str], previous: _Cue | None, seed: Mention, tokens: Sequence[Token]) -> str:
    if cue.relationship in SYMMETRIC:
        return OUTBOUND
    can_subject, can_object = _can(cue.relationship, kinds)
    if can_subject and not can_object:
        return OUTBOUND
    if can_object and not can_subject:
        return INBOUND
    if previous is None:
        return _syntax_direction(cue, seed.start, tokens[seed.end - 1].possessive, tokens)
    # an intermediate set: its noun phrase stands between this cue and the previous one
    between = previous.position + 1 if cue.position > previous.position else previous.position - 1
    return _syntax_direction(cue, between, False, tokens)


def _seed(mentions: Sequence[Mention], cues: Sequence[_Cue], tokens: Sequence[Token]) -> Mention:
    """The mention the walk starts from: the first typed one (person, company, event — not a word the extractor
    only saw capitalised) that its nearest relation cue can start from, else the first typed one, else the
    first. Another mention, if any, becomes the target the answer must reach."""
    if len(mentions) == 1:
        return mentions[0]
    typed = [m for m in mentions if m.kind in _TYPED_KINDS]
    if cues:
        for mention in typed:
            nearest = min(cues, key=lambda cue: _distance(cue, mention, None, tokens))
            if any(_can(nearest.relationship, frozenset({mention.kind}))):
                return mention
    return typed[0] if typed else mentions[0]


def _same_group(mention: Mention, seed: Mention, tokens: Sequence[Token]) -> bool:
    """Mentions joined to the seed by "and" / "or" / "," and of the same kind are seeds too ("Acme and Beta")."""
    if mention == seed:
        return True
    if mention.kind != seed.kind:
        return False
    low, high = sorted((mention, seed), key=lambda m: m.start)
    between = [token.lower for token in tokens[low.end : high.start]]
    return bool(between) and all(word in ("and", "or", "&") for word in between) and len(between) <= 2


_FUNCTION_WORDS = frozenset(
    """a an the our my your their his her its this that these those it them him me us you we they he she i
    some any all every each no how what why when where who whom which whose there here if whether do does did
    is are was were be been has have had will would can could should on in at to for with of from by about as
    into over under and or not""".split()
)


EntityIndex = Mapping[str, Sequence[tuple[int, str, str]]]  # normalised name → (entity id, name, kind), best first


def plan_from_spans(
    query: str,
    tokens: Sequence[Token],
    spans: Mapping[str, Sequence[tuple[int, int]]],
    entities: EntityIndex,
    partial: EntityIndex | None = None,
) -> RelationalPlan | None:
    """Link the candidate spans that name known entities (:func:`link_mentions`), then plan the walk
    (:func:`plan_relational`); the partial names left ambiguous ride on the plan."""
    mentions, ambiguous = link_mentions(query, tokens, spans, entities, partial)
    plan = plan_relational(query, tokens, mentions)
    return replace(plan, ambiguous=ambiguous) if plan is not None and ambiguous else plan


def parse_relational_query(
    query: str, entities: EntityIndex | None = None, partial: EntityIndex | None = None
) -> RelationalPlan | None:
    """The whole pure pipeline for one question against a known entity index (tests, benchmarks); ``partial``
    maps partial names to the visible entities they could start (see :func:`link_mentions`)."""
    if not isinstance(query, str):
        return None
    tokens = tokenize(query)
    return plan_from_spans(query, tokens, mention_candidates(tokens), entities or {}, partial)
