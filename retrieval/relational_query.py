"""Recognise relationship questions ("who founded Acme", "where does Bob work") — pure, no Django, no DB.

:func:`parse_relational_query` turns a search query into a :class:`RelationalQuery` (relationship, seed entity
phrase, direction) for the relational arm, or ``None`` when the query is not a relationship question.

ReDoS safety: a query longer than ``MAX_QUERY_CHARS`` is refused before any regex runs; every pattern is
anchored (``fullmatch``) and its only free capture is the bounded seed ``.{1,80}`` next to literal words, so
the work per pattern is bounded by a small constant times the query length.

``about`` rule: "about X", "tell me about X", "what do we know about X", "info on X" are taken as asked
unless X starts with a pronoun, determiner or question word ("tell me about our deploys", "about how we …"
→ ``None``). "who is X" / "what is X" (also "was", "are", "who's", "what's") are ``about`` only when X looks
like a name: at most 6 words, not starting with a function word, and either some word has an upper-case
letter or a digit ("what is Kubernetes", "who is Alice Smith", "what is k8s"), or X is one word of 3+
characters outside a list of common words ("who is alice", but not "who is available"). So "what is our
on-call policy?" → ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ABOUT",
    "DIRECTIONS",
    "INBOUND",
    "MAX_QUERY_CHARS",
    "MAX_SEED_CHARS",
    "OUTBOUND",
    "RELATIONSHIPS",
    "RelationalQuery",
    "parse_relational_query",
]

MAX_QUERY_CHARS = 512
MAX_SEED_CHARS = 80

RELATIONSHIPS = (
    "founded",
    "invested_in",
    "works_at",
    "advises",
    "attended",
    "partner_of",
    "competitor_of",
    "acquired",
    "reports_to",
    "about",
)
INBOUND = "inbound"  # the seed is the edge's object; the question asks for subjects ("who founded Acme")
OUTBOUND = "outbound"  # the seed is the edge's subject; the question asks for objects ("what did Alice found")
ABOUT = "about"  # anything known about the seed, either side of any edge
DIRECTIONS = (INBOUND, OUTBOUND, ABOUT)


@dataclass(frozen=True)
class RelationalQuery:
    """A recognised relationship question.

    ``seed`` is the entity phrase as the user typed it (case kept), 1–80 characters, without surrounding
    punctuation/quotes, unbalanced or wrapping brackets, a leading "the" or a trailing possessive "'s"
    (inner punctuation stays: "Meta (Cybersecurity)", "1:1 Julia Davis + Uma Brown").
    """

    relationship: str
    seed: str
    direction: str

    def __post_init__(self) -> None:
        if self.relationship not in RELATIONSHIPS:
            raise ValueError(f"unknown relationship {self.relationship!r}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {self.direction!r}")
        if (self.relationship == "about") != (self.direction == ABOUT):
            raise ValueError("relationship 'about' goes with direction 'about' and only with it")
        if not 1 <= len(self.seed) <= MAX_SEED_CHARS:
            raise ValueError(f"seed must be 1..{MAX_SEED_CHARS} characters")


# --- pattern vocabulary --------------------------------------------------------------------------------------
# Placeholders expanded by _compile():
#   {S}   the seed: an optional "the " then a bounded capture
#   {AUX} an optional auxiliary verb ("who has founded", "who is employed by")
#   {DO}  a required auxiliary for questions about the seed's own actions ("what did X found"): required so
#         that "what caused the outage we found" is not read as "what did <...> found"
#   {NP}  an optional lead-in for noun phrases ("who are the", "list all the", "name an", …)
#   {POS} a possessive marker after the seed ("'s", or a bare "'" after a final s)
_PLACEHOLDERS = {
    "{S}": r"(?:the )?(?P<seed>.{1,80})",
    "{AUX}": r"(?:(?:does|do|did|has|have|had|is|are|was|were)(?: been)? )?",
    "{DO}": r"(?:does|do|did|has|have|had|is|are|was|were) ",
    "{NP}": r"(?:(?:who|what) (?:are|is|were|was) |(?:list|name|show|give)(?: me)? |)(?:all )?(?:the |an |a )?",
    "{POS}": r"(?:'s|')",
}

_FOUNDED_VERBS = r"(?:co-?founded|co founded|cofounded|founded|started)"
_FOUND_VERBS = r"(?:co-?found|co found|cofound|found|start|co-?founded|co founded|cofounded|founded|started)"
_COMPANIES = r"(?:companies|company|startups?|businesses|business|firms?|ventures?|organi[sz]ations?)"

# (relationship, direction, pattern). Order matters: the first full match decides, so the specific forms come
# before the generic "who is X" / "what is X" ones (tried last, separately). Kept as a one-rule-per-line table.
# fmt: off
_RULES: tuple[tuple[str, str, str], ...] = (
    # founded
    ("founded", INBOUND, r"who {AUX}" + _FOUNDED_VERBS + r" {S}"),
    ("founded", INBOUND, r"who (?:was|were|is) {S} (?:co-?)?(?:founded|started) by"),
    ("founded", INBOUND, r"{NP}(?:co-?|co )?(?:founders?|founding team) (?:of|behind) {S}"),
    ("founded", INBOUND, r"{NP}{S}{POS} (?:co-?|co )?(?:founders?|founding team)"),
    ("founded", OUTBOUND, r"what {DO}{S} " + _FOUND_VERBS),
    ("founded", OUTBOUND, r"(?:what|which) " + _COMPANIES + r" {DO}{S} (?:" + _FOUND_VERBS + r"|create|created)"),
    # invested_in
    ("invested_in", INBOUND, r"who {AUX}(?:invested in|invests in|funded|funds|backed|backs|financed"
     r"|led (?:the |a )?(?:\w+ )?round (?:in|for)) {S}"),
    ("invested_in", INBOUND, r"who (?:was|were|is) {S} (?:funded|backed|financed) by"),
    ("invested_in", INBOUND, r"{NP}(?:investors?|backers?|funders?|financiers?) (?:in|of|behind|for) {S}"),
    ("invested_in", INBOUND, r"{NP}{S}{POS} (?:investors?|backers?|funders?)"),
    ("invested_in", OUTBOUND, r"what {DO}{S} (?:invest|invested|investing) in"),
    ("invested_in", OUTBOUND, r"(?:what|which) (?:" + _COMPANIES + r"|deals?) {DO}{S} "
     r"(?:invest in|invested in|investing in|back|backed|backing|fund|funded|funding|finance|financed)"),
    ("invested_in", OUTBOUND, r"what is in {S}{POS} portfolio"),
    ("invested_in", OUTBOUND, r"{NP}{S}{POS} (?:portfolio companies|portfolio|investments)"),
    ("invested_in", OUTBOUND, r"{NP}(?:investments|portfolio companies|portfolio) (?:of|by|made by) {S}"),
    # works_at
    ("works_at", INBOUND, r"who {AUX}(?:works|work|worked|working) (?:at|for|in) {S}"),
    ("works_at", INBOUND, r"who {AUX}employed (?:by|at) {S}"),
    ("works_at", INBOUND, r"{NP}(?:employees|employee|people|staff|staff members|team members|workers|folks) "
     r"(?:of|at|in) {S}"),
    ("works_at", INBOUND, r"{NP}(?:employees|people|staff|folks) (?:working|who work|that work|who worked"
     r"|employed) (?:at|for|by|in) {S}"),
    ("works_at", INBOUND, r"{NP}{S}{POS} (?:employees|staff|people|workforce)"),
    ("works_at", OUTBOUND, r"where {DO}{S} (?:work|works|worked|working)"),
    ("works_at", OUTBOUND, r"where {DO}{S} employed"),
    ("works_at", OUTBOUND, r"who {DO}{S} (?:work|works|worked|working) for"),
    ("works_at", OUTBOUND, r"(?:what|which) (?:company|companies|firm|organi[sz]ation|team|employer) {DO}{S} "
     r"(?:work|works|worked|working) (?:at|for|in)"),
    ("works_at", OUTBOUND, r"who (?:employs|employed|hired) {S}"),
    ("works_at", OUTBOUND, r"{NP}{S}{POS} (?:employer|workplace)"),
    # advises
    ("advises", INBOUND, r"who {AUX}(?:advises|advise|advised|advising) {S}"),
    ("advises", INBOUND, r"who (?:was|were|is) {S} advised by"),
    ("advises", INBOUND, r"{NP}(?:advisors?|advisers?|board advisors?) (?:of|to|for|at) {S}"),
    ("advises", INBOUND, r"{NP}{S}{POS} (?:advisors?|advisers?)"),
    ("advises", OUTBOUND, r"(?:what|who|whom) {DO}{S} (?:advise|advises|advised|advising)"),
    ("advises", OUTBOUND, r"(?:what|which) (?:" + _COMPANIES + r"|teams?|people) {DO}{S} "
     r"(?:advise|advises|advised|advising)"),
    # attended
    ("attended", INBOUND, r"who {AUX}(?:attended|attends|attend|went to|goes to) {S}"),
    # "who was in charge of X" / "in favour of X" are not attendance questions.
    ("attended", INBOUND, r"who (?:was|were) (?:at|in|present at|present in) (?!(?:charge|favou?r) of ){S}"),
    ("attended", INBOUND, r"{NP}(?:attendees|participants|attendee list) (?:of|at|in|for) {S}"),
    ("attended", INBOUND, r"{NP}{S}{POS} (?:attendees|participants)"),
    ("attended", OUTBOUND, r"what {DO}{S} (?:attend|attended|attending)"),
    ("attended", OUTBOUND, r"(?:what|which) (?:meetings?|events?|schools?|universit(?:y|ies)|colleges?"
     r"|conferences?|sessions?|calls?|workshops?|offsites?) {DO}{S} (?:attend|attended|attending|go to"
     r"|went to)"),
    ("attended", OUTBOUND, r"where {DO}{S} (?:study|studied|go to school|went to school|go to college"
     r"|went to college)"),
    # partner_of
    ("partner_of", INBOUND, r"who {AUX}(?:partners|partner|partnered|partnering) with {S}"),
    ("partner_of", INBOUND, r"{NP}partners? (?:of|with|to) {S}"),
    ("partner_of", INBOUND, r"{NP}{S}{POS} partners?"),
    ("partner_of", OUTBOUND, r"(?:who|what|which " + _COMPANIES + r") {DO}{S} "
     r"(?:partner|partners|partnered|partnering) with"),
    # competitor_of
    ("competitor_of", INBOUND, r"who {AUX}(?:competes|compete|competed|competing) (?:with|against) {S}"),
    ("competitor_of", INBOUND, r"{NP}(?:competitors?|rivals?|competition) (?:of|to|for) {S}"),
    ("competitor_of", INBOUND, r"{NP}{S}{POS} (?:competitors?|rivals?|competition)"),
    ("competitor_of", OUTBOUND, r"(?:who|what|which " + _COMPANIES + r") {DO}{S} "
     r"(?:compete|competes|competed|competing) (?:with|against)"),
    # acquired
    ("acquired", INBOUND, r"who {AUX}(?:acquired|acquires|bought|buys|purchased) {S}"),
    ("acquired", INBOUND, r"who (?:was|were|is) {S} (?:acquired|bought|purchased) by"),
    ("acquired", INBOUND, r"{NP}(?:acquirers?|buyers?|purchasers?) of {S}"),
    ("acquired", OUTBOUND, r"what {DO}{S} (?:acquire|acquired|buy|bought|purchase|purchased)"),
    ("acquired", OUTBOUND, r"(?:what|which) " + _COMPANIES + r" {DO}{S} (?:acquire|acquired|buy|bought"
     r"|purchase|purchased)"),
    ("acquired", OUTBOUND, r"{NP}{S}{POS} acquisitions"),
    ("acquired", OUTBOUND, r"{NP}acquisitions (?:by|made by) {S}"),
    # reports_to: "who does X report to" is outbound (X reports to ?), "who reports to X" inbound.
    ("reports_to", OUTBOUND, r"(?:who|whom) {DO}{S} (?:report|reports|reported|reporting) to"),
    ("reports_to", OUTBOUND, r"{NP}{S}{POS} (?:line manager|manager|boss|supervisor)"),
    ("reports_to", OUTBOUND, r"who (?:manages|managed|supervises|supervised) {S}"),
    ("reports_to", INBOUND, r"who {AUX}(?:reports|report|reported|reporting) to {S}"),
    ("reports_to", INBOUND, r"who {AUX}managed by {S}"),
    ("reports_to", INBOUND, r"who (?:does|did) {S} manage"),
    ("reports_to", INBOUND, r"{NP}(?:direct reports|reports) (?:of|to|for) {S}"),
    ("reports_to", INBOUND, r"{NP}{S}{POS} (?:direct reports|reports)"),
)
# fmt: on

# "about" forms, tried after every relationship form. Lenient ones take any seed that does not start with a
# function word; strict ones need a name-like seed (module docstring).
_ABOUT_LENIENT = (
    r"(?:tell me|tell us|what do you know|what do we know|what does anyone know|what is known|anything"
    r"|everything) about {S}",
    r"(?:info|information|details|background) (?:on|about) {S}",
    r"about {S}",
)
_ABOUT_STRICT = (r"(?:who|what) (?:is|was|are|were) {S}",)

_LEADING_FILLERS = frozenset({"and", "so", "also"})
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_CONTRACTION_RE = re.compile(r"\b(who|what|where)'s\b", re.IGNORECASE)
_SEED_EDGE_CHARS = " \t.,;:!?\"'"
_BRACKETS = ("()", "[]", "{}", "<>")
# Words that cannot start (or be) an entity name: pronouns, determiners, question words, prepositions.
_FUNCTION_WORDS = frozenset(
    """a an the our my your their his her its this that these those it them him me us you we they he she i
    some any all every each no how what why when where who whom which whose there here if whether
    on in at to for with of from by about as into over under up down out""".split()
)
# Common words that make "who is X" / "what is X" an ordinary question rather than a name lookup.
_COMMON_WORDS = _FUNCTION_WORDS | frozenset(
    """happening going wrong new next left done available responsible free busy online offline around
    today tomorrow yesterday now later time policy process plan status latest best worst better worse
    right good bad true false possible needed required missing broken working planned
    important urgent blocked pending open closed up down off""".split()
)


def _compile(pattern: str) -> re.Pattern[str]:
    for placeholder, expansion in _PLACEHOLDERS.items():
        pattern = pattern.replace(placeholder, expansion)
    return re.compile(pattern, re.IGNORECASE)


_COMPILED_RULES = tuple((rel, direction, _compile(pattern)) for rel, direction, pattern in _RULES)
_COMPILED_ABOUT_LENIENT = tuple(_compile(pattern) for pattern in _ABOUT_LENIENT)
_COMPILED_ABOUT_STRICT = tuple(_compile(pattern) for pattern in _ABOUT_STRICT)


def _prepare(query: str) -> str:
    """Whitespace collapsed, apostrophes straightened, "who's" → "who is", trailing ?/./! and leading
    "and"/"so"/"also" dropped. Only linear-time operations."""
    text = " ".join(query.translate(_APOSTROPHES).split())
    text = _CONTRACTION_RE.sub(r"\1 is", text)
    text = text.rstrip("?.! ")
    while True:
        first, _, rest = text.partition(" ")
        if rest and first.rstrip(",").casefold() in _LEADING_FILLERS:
            text = rest
        else:
            return text


def _balanced(text: str, opening: str, closing: str) -> bool:
    depth = 0
    for ch in text:
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _strip_edges(seed: str) -> str:
    """Drop surrounding punctuation and quotes; drop brackets only when unbalanced or wrapping the whole seed,
    so that "Meta (Cybersecurity)" keeps its parentheses while "(Acme", "Acme)" and "[[Acme]]" lose them."""
    while True:
        before = seed
        seed = seed.strip(_SEED_EDGE_CHARS)
        for opening, closing in _BRACKETS:
            if seed.endswith(closing) and seed.count(closing) > seed.count(opening):
                seed = seed[:-1]
            if seed.startswith(opening) and seed.count(opening) > seed.count(closing):
                seed = seed[1:]
            if (
                len(seed) >= 2
                and seed[0] == opening
                and seed[-1] == closing
                and _balanced(seed[1:-1], opening, closing)
            ):
                seed = seed[1:-1]
        if seed == before:
            return seed


def _clean_seed(raw: str) -> str | None:
    seed = _strip_edges(raw)
    if seed[:4].casefold() == "the " and len(seed) > 4:
        seed = _strip_edges(seed[4:])
    if seed[-2:].casefold() == "'s":
        seed = _strip_edges(seed[:-2])
    if not 1 <= len(seed) <= MAX_SEED_CHARS or not any(ch.isalnum() for ch in seed):
        return None
    first, _, rest = seed.partition(" ")
    if first.casefold() in _FUNCTION_WORDS and (not rest or first.islower()):
        return None  # "who founded it", "what did he found", "who backed up the database"
    return seed


def _starts_with_function_word(seed: str) -> bool:
    return seed.split(" ", 1)[0].casefold() in _FUNCTION_WORDS


def _looks_like_name(seed: str) -> bool:
    tokens = seed.split()
    if not 1 <= len(tokens) <= 6 or tokens[0].casefold() in _FUNCTION_WORDS:
        return False
    if any(ch.isupper() or ch.isdigit() for token in tokens for ch in token):
        return True
    return len(tokens) == 1 and len(tokens[0]) >= 3 and tokens[0].casefold() not in _COMMON_WORDS


def parse_relational_query(query: str) -> RelationalQuery | None:
    """Recognise a relationship question, or return ``None``.

    Contract: never raises for any ``str``; ``None`` for non-strings, queries over ``MAX_QUERY_CHARS``
    (without running any regex), non-relational questions and seeds that would be longer than 80 characters
    or empty after cleaning. Matching is case-insensitive and tolerant of extra whitespace, a trailing
    "?"/"."/"!" and a leading "and"/"so"/"also".
    """
    if not isinstance(query, str) or len(query) > MAX_QUERY_CHARS:
        return None
    text = _prepare(query)
    if not text:
        return None
    for relationship, direction, pattern in _COMPILED_RULES:
        match = pattern.fullmatch(text)
        if match:
            seed = _clean_seed(match.group("seed"))
            return RelationalQuery(relationship, seed, direction) if seed else None
    for pattern in _COMPILED_ABOUT_LENIENT:
        match = pattern.fullmatch(text)
        if match:
            seed = _clean_seed(match.group("seed"))
            if seed and not _starts_with_function_word(seed):
                return RelationalQuery("about", seed, ABOUT)
            return None
    for pattern in _COMPILED_ABOUT_STRICT:
        match = pattern.fullmatch(text)
        if match:
            seed = _clean_seed(match.group("seed"))
            if seed and _looks_like_name(seed):
                return RelationalQuery("about", seed, ABOUT)
            return None
    return None
