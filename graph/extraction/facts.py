"""``extract_facts``: what a statement says holds of someone or something, and since when. Pure: no Django, no I/O.

A fact is ``subject --attribute--> value`` (the attributes of :data:`graph.vocabulary.ATTRIBUTES`) with the day it
began (``valid_from``), the day it ended when the statement says so (``valid_until``: "I lived in Boston until
2019", "I used to work at Acme"), and whether it only ends a value (``negated``: "I left Acme", "no longer reports
to Ines").

Precision first: a statement yields a fact only when its clause is a plain assertion about the present or the past.
A question, a wish, a plan, a condition or a hypothesis ("I'd love to live in Denver", "if I moved to Denver",
"thinking of joining Acme") yields none; so does a first person nobody can be named for (``speaker=None``: an
assistant's "Noted that you live in Boston" restates; it states nothing new about anyone), and a relative without
a name ("my sister moved to Denver"). Who "I" is comes from the caller: the member for their own turns and notes,
the named person for a turn a person said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime

from graph import vocabulary as v
from memories.temporal import tag_dates

__all__ = ["MAX_TEXT_CHARS", "StatedFact", "extract_facts"]

MAX_TEXT_CHARS = 16 * 1024  # facts are stated in the first pages of a memory; bounds the work on a huge one
MAX_FACTS = 32
_MAX_SENTENCE_CHARS = 600


@dataclass(frozen=True)
class StatedFact:
    subject: str  # the name as written (the speaker's name for "I")
    attribute: str
    value: str  # a name as written; an ISO day for a date; a lower-case title
    valid_from: date | None = None
    valid_until: date | None = None
    negated: bool = False
    confidence: float = 0.8
    span: tuple[int, int] = (0, 0)


# --- the pieces a pattern is written with -------------------------------------------------------------------------

_NAME_WORD = r"(?:[A-Z][\w'’-]*(?:\.(?=\s+[A-Z]))?|[A-Z]{2,})"  # "St. Mary's": a dot only inside a name
# a capitalised name of up to four words, joined by "of", "de", "van", "&" inside ("Bank of Ireland", "São Paulo")
NAME = rf"(?:{_NAME_WORD}(?:\s+(?:(?:of|de|da|del|van|von|la|le|and|&)\s+)?{_NAME_WORD}){{0,3}})"
_ME = r"(?:I|i)"
# a person named in the sentence, or the speaker: "I", "my sister Ana" (the name after a relation noun)
_RELATION = (
    r"(?:sister|brother|mum|mom|mother|dad|father|wife|husband|partner|son|daughter|cousin|aunt|uncle|friend|"
    r"flatmate|roommate|colleague|boss|manager|neighbour|neighbor|girlfriend|boyfriend|fiancée?|niece|nephew|"
    r"grandma|grandmother|grandpa|grandfather|best\s+friend|little\s+sister|big\s+sister|little\s+brother|"
    r"big\s+brother|older\s+sister|younger\s+sister|older\s+brother|younger\s+brother)"
)
_WHO = rf"(?:(?P<me>{_ME})|(?:(?:my|our)\s+{_RELATION},?\s+)?(?P<who>{NAME}))"
_NOW = r"(?:\s+(?:now|just|recently|finally|officially|actually|also|already|eventually))*"
_HAVE = r"(?:'ve|’ve|\s+have|'s|’s|\s+has|\s+had)?"
_BE = r"(?:'m|’m|\s+am|'s|’s|\s+is|\s+was|'re|’re|\s+are)"
_THE = r"(?:the\s+)?"
_TEAM_WORDS = r"(?:team|squad|group|department|guild|tribe|crew|chapter)"
# a team or a person as an owner or a manager: "the Payments team", "Payments", "Tomasz Nowak"
_OWNER = rf"(?:the\s+)?(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?)"

# role nouns a job title ends with: the vocabulary of titles (synonyms in one list, lower case)
ROLE_NOUNS = frozenset(
    """engineer engineers developer developers designer manager director lead head analyst scientist nurse teacher
    consultant architect officer vp president ceo cto cfo coo cio ciso intern researcher writer editor accountant
    lawyer attorney solicitor doctor surgeon physician chef cook recruiter specialist coordinator administrator
    technician midwife pharmacist paramedic programmer principal partner associate advisor adviser strategist
    producer marketer salesperson representative rep owner founder cofounder co-founder chair chairman chairwoman
    secretary treasurer librarian professor lecturer tutor therapist psychologist dentist vet veterinarian
    electrician plumber carpenter mechanic pilot barista waiter waitress manager. supervisor foreman trainee
    apprentice student postdoc fellow economist statistician actuary auditor controller copywriter journalist
    photographer illustrator animator curator archivist sre devops tester qa steward""".replace(".", "").split()
)
_TITLE = (
    r"(?P<value>(?:[\w-]+\s+){0,4}?[\w-]+(?:\s+of\s+(?:[\w-]+\s+){0,2}?[\w-]+)?)"
    r"(?=\s*(?:[.,;:!)]|$|\s+(?:at|for|on|in|since|from|last|this|with|and|after|back|when|but|so)\b))"
)

_PET_KINDS = (
    r"(?:dog|puppy|cat|kitten|rabbit|bunny|parrot|hamster|guinea\s+pig|tortoise|turtle|lizard|snake|horse|"
    r"budgie|ferret|goldfish|fish)"
)
_LANGUAGES = (
    r"(?:English|Spanish|French|German|Italian|Portuguese|Dutch|Polish|Russian|Ukrainian|Mandarin|Cantonese|"
    r"Chinese|Japanese|Korean|Hindi|Urdu|Bengali|Punjabi|Arabic|Hebrew|Turkish|Greek|Swedish|Norwegian|Danish|"
    r"Finnish|Icelandic|Czech|Slovak|Hungarian|Romanian|Bulgarian|Serbian|Croatian|Swahili|Yoruba|Zulu|Tagalog|"
    r"Vietnamese|Thai|Indonesian|Malay|Persian|Farsi|Welsh|Irish|Gaelic|Catalan|Basque|Tamil|Telugu|Marathi)"
)

# what makes a clause no plain assertion: a wish, a plan, a condition, a hypothesis, a possibility, a question word
_NOT_ASSERTED = re.compile(
    r"\b(?:if|unless|whether|would|could|might|should|must|maybe|perhaps|probably|wish|wishes|dream|dreams|"
    r"dreaming|hope|hopes|hoping|plan|plans|planning|thinking|considering|consider|want|wants|wanted|wanting|"
    r"going\s+to|gonna|will|shall|about\s+to|love\s+to|like\s+to|'d|’d|'ll|’ll|imagine|suppose|pretend|"
    r"supposed|rumou?r|apparently|someday|one\s+day|never\s+(?:lived|worked)|can't|cannot|try|trying|tried|"
    r"offered|offer|interview|interviewing|applied|applying|apply|visit|visiting|visited|trip|holiday|vacation)\b",
    re.IGNORECASE,
)
_MAY_RE = re.compile(r"\bmay\b")  # the verb; "May" is also a month
_SENTENCE_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_HISTORY_RE = re.compile(r"\b(?:used\s+to|formerly|previously|back\s+then)\b", re.IGNORECASE)
_UNTIL_RE = re.compile(r"\b(?:until|till|up\s+to|through)\b", re.IGNORECASE)
_PAST_FOR_RE = re.compile(r"\bfor\s+(?:\w+\s+){0,2}(?:years?|months?|decades?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Pattern:
    attribute: str
    regex: re.Pattern[str]
    negated: bool = False
    history: bool = False  # states an earlier value only ("I lived in Boston until 2019")
    confidence: float = 0.8
    check: Callable[[re.Match[str]], bool] | None = None


def _p(attribute: str, regex: str, **kwargs) -> _Pattern:
    return _Pattern(attribute, re.compile(regex), **kwargs)


def _title_ok(match: re.Match[str]) -> bool:
    words = match.group("value").casefold().split()
    head = words[words.index("of") - 1] if "of" in words else words[-1]
    return head in ROLE_NOUNS and not {"fan", "lot", "bit", "big"} & set(words)


def _org_ok(match: re.Match[str]) -> bool:
    return match.group("value").split()[0] not in {"I", "My", "The"}


_PATTERNS: tuple[_Pattern, ...] = (
    # --- where someone lives
    _p(v.LIVES_IN, rf"\b{_WHO}{_NOW}\s+(?:still\s+)?(?:live|lives|living|reside|resides)\s+in\s+(?P<value>{NAME})"),
    _p(v.LIVES_IN, rf"\b{_WHO}{_BE}{_NOW}\s+(?:based|living|settled|staying)\s+in\s+(?P<value>{NAME})"),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated|emigrated)(?:\s+(?:back|house|over|out))?"
        rf"(?:\s+from\s+{NAME})?\s+to\s+(?P<value>{NAME})",
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:lived|was\s+living|resided)\s+in\s+(?P<value>{NAME})",
        history=True,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+used\s+to\s+live\s+in\s+(?P<value>{NAME})", history=True),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated)\s+(?:away\s+)?(?:from|out\s+of)\s+(?P<value>{NAME})",
        negated=True,
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+live\s+in\s+(?P<value>{NAME})",
        negated=True,
    ),
    # said in passing: "the new place in Denver has a garden", "our new flat in Leeds" (the speaker's home)
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Mm]y|[Oo]ur|[Tt]he)\s+new\s+(?:place|flat|apartment|house|home|condo)\s+in\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    # --- where someone works
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_NOW}\s+(?:still\s+)?(?:work|works|working)\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:joined|started\s+at|started\s+(?:a\s+)?(?:new\s+)?job\s+at|"
        rf"started\s+working\s+(?:at|for)|been\s+hired\s+by|was\s+hired\s+by|got\s+hired\s+by)"
        rf"\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:worked|was\s+working)\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+used\s+to\s+work\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:left|quit|resigned\s+from|been\s+laid\s+off\s+(?:from|by)|"
        rf"was\s+laid\s+off\s+(?:from|by)|got\s+laid\s+off\s+(?:from|by))\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+work\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    # --- a job title
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:been\s+|got\s+|was\s+|were\s+)?promoted\s+to\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:took|taken)\s+over\s+as\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:been\s+|was\s+|got\s+)?(?:named|appointed|made|hired\s+as)\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:'m|’m|\s+am|'s|’s|\s+is){_NOW}\s+(?:working\s+as\s+)?(?:an?|the)\s+{_TITLE}",
        check=_title_ok,
        confidence=0.7,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}\s+(?:work|works)\s+as\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
    ),
    # --- who someone reports to
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_BE}?{_NOW}\s+(?:reports|report|reporting)\s+(?:directly\s+)?to\s+(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<mine>[Mm]y)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)\s+is{_NOW}\s+(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+is{_NOW}\s+(?P<mine>my)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+is{_NOW}\s+(?P<who>{NAME})(?:'s|’s)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|"
        r"supervisor)",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)\s+is{_NOW}\s+"
        rf"(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|doesn't|don't|does\s+not|do\s+not)\s+report\s+to\s+(?P<value>{NAME})",
        negated=True,
    ),
    # --- who owns a system: "Ownership of the billing service moved to the Payments team"
    _p(
        v.OWNED_BY,
        rf"\b[Oo]wnership\s+of\s+(?:the\s+)?(?P<system>[\w-]+(?:\s+[\w-]+){{0,3}}?)\s+(?:has\s+)?(?:moved|passed|"
        rf"went|was\s+(?:moved|transferred|handed\s+over|passed|given)|is\s+moving|transferred|shifted)\s+to\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>[\w-]+(?:\s+[\w-]+){{0,3}}?)\s+(?:is|was|has\s+been){_NOW}\s+owned\s+by\s+"
        rf"{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_NOW}\s+(?:owns|took\s+over|has\s+taken\s+over|have\s+taken\s+over|inherited|"
        rf"now\s+maintains?)\s+(?:ownership\s+of\s+)?(?:the\s+)?(?P<system>[\w-]+(?:\s+[\w-]+){{0,3}}?)"
        rf"(?=\s*(?:[.,;!]|$|\s+(?:from|as|on|in|since|last|this)\b))",
    ),
    # --- when a project is due: "The Orion launch slipped to 14 March"
    _p(
        v.DUE_DATE,
        rf"\b(?:[Tt]he\s+)?(?P<project>{NAME})(?:'s|’s)?\s+(?:launch|release|go-live|go\s+live|deadline|"
        r"cutover|due\s+date|ship\s+date|launch\s+date|release\s+date)\s+(?:has\s+|had\s+|is\s+|was\s+)?"
        r"(?:now\s+|been\s+)?(?:slipped|slips|moved|moves|pushed(?:\s+back)?|brought\s+forward|set|scheduled|"
        r"planned|fixed|confirmed|rescheduled|delayed|due|locked(?:\s+in)?)?\s*(?:to|for|on|at)?\s+(?P<date>.+)",
    ),
    _p(
        v.DUE_DATE,
        rf"\b(?:[Tt]he\s+)?(?P<project>{NAME})\s+(?:now\s+)?(?:launches|ships|goes\s+live|is\s+due|"
        r"is\s+launching|is\s+shipping|will\s+launch|will\s+ship|will\s+go\s+live)\s+(?:on|in|by)?\s*(?P<date>.+)",
    ),
    # --- pets and languages: many at once
    _p(
        v.HAS_PET,
        rf"\b{_WHO}{_HAVE}\s+(?:got|adopted|have|has|rescued|own|owns)\s+(?:a|an)\s+(?:new\s+)?(?:\w+\s+)?"
        rf"(?P<kind>{_PET_KINDS})(?:,?\s+(?:called|named)\s+(?P<value>{NAME}))?",
    ),
    _p(
        v.SPEAKS,
        rf"\b{_WHO}\s+(?:speak|speaks|am\s+fluent\s+in|is\s+fluent\s+in)\s+(?:fluent\s+)?"
        rf"(?P<value>{_LANGUAGES}(?:(?:,\s*|\s+and\s+){_LANGUAGES})*)",
    ),
)

# "will" and "going to" state a plan; a due date is stated by a plan ("The Orion launch will be on 14 March")
_PLANS_STATE = frozenset({v.DUE_DATE})
_PLAN_WORDS = re.compile(r"\b(?:will|going\s+to|gonna|planned|plan|plans|scheduled|'ll|’ll)\b", re.IGNORECASE)


def extract_facts(text: str, *, speaker: str | None, reference: datetime | date) -> list[StatedFact]:
    """The facts ``text`` states, in order. ``speaker``: who "I" is (None: nobody, so a first-person statement states
    nothing); ``reference``: when it was said (relative dates are read against it; a fact without a date of its own
    holds from then). Never raises; at most :data:`MAX_FACTS`."""
    if not isinstance(text, str) or not text.strip():
        return []
    try:
        return list(_facts(text[:MAX_TEXT_CHARS], speaker, _day(reference)))[:MAX_FACTS]
    except Exception:  # noqa: BLE001 - extraction enriches a memory; bad input must never fail indexing
        return []


def _day(reference: datetime | date) -> date:
    return reference.date() if isinstance(reference, datetime) else reference


# a word stem each attribute's patterns need: a sentence without any is not read against them (most are not)
_NEEDS: dict[str, tuple[str, ...]] = {
    v.LIVES_IN: ("live", "living", "moved", "reloc", "based", "settled", "resid", "staying", "emigrat", "new "),
    v.WORKS_AT_ATTR: ("work", "join", "start", "hired", "left", "quit", "resign", "laid off"),
    v.JOB_TITLE: ("promoted", "took over", "taken over", "named", "appointed", "made", "hired as", " a ", " an ",
                  " the ", " as "),
    v.REPORTS_TO_ATTR: ("report", "manager", "boss", "supervisor"),
    v.OWNED_BY: ("own", "took over", "taken over", "inherited", "maintain"),
    v.DUE_DATE: ("launch", "release", "go-live", "go live", "deadline", "cutover", "due", "ship", "goes live"),
    v.HAS_PET: ("dog", "pupp", "cat", "kitten", "rabbit", "bunny", "parrot", "hamster", "pig", "tortoise", "turtle",
                "lizard", "snake", "horse", "budgie", "ferret", "fish"),
    v.SPEAKS: ("speak", "fluent"),
}  # fmt: skip


def _facts(text: str, speaker: str | None, today: date) -> Iterator[StatedFact]:
    seen: set[tuple[str, str, str, bool]] = set()
    for sentence in _SENTENCE_RE.finditer(text):
        clause = sentence.group(0)
        if len(clause) > _MAX_SENTENCE_CHARS or clause.rstrip().endswith("?"):
            continue
        folded = f" {clause.casefold()} "
        wanted = {attribute for attribute, stems in _NEEDS.items() if any(stem in folded for stem in stems)}
        for pattern in _PATTERNS:
            if pattern.attribute not in wanted:
                continue
            for match in pattern.regex.finditer(clause):
                fact = _fact(pattern, match, clause, sentence.start(), speaker, today)
                if fact is None:
                    continue
                for one in _each_value(fact):
                    key = (one.subject.casefold(), one.attribute, one.value.casefold(), one.negated)
                    if key not in seen:
                        seen.add(key)
                        yield one


def _each_value(fact: StatedFact) -> list[StatedFact]:
    """A list of values is one fact each ("Spanish and French")."""
    if fact.attribute != v.SPEAKS:
        return [fact]
    return [replace(fact, value=value) for value in re.split(r"\s*,\s*|\s+and\s+", fact.value) if value]


def _asserted(pattern: _Pattern, clause: str, start: int) -> bool:
    """The clause up to the end of the match asserts, rather than wishes, plans or supposes."""
    before = clause[:start]
    said = clause
    if pattern.attribute in _PLANS_STATE:
        return not _NOT_ASSERTED.search(_PLAN_WORDS.sub(" ", said))
    if _MAY_RE.search(said):
        return False
    return not _NOT_ASSERTED.search(said) and not re.search(r"\b(?:not|never|n't)\b", before, re.IGNORECASE)


def _fact(
    pattern: _Pattern, match: re.Match[str], clause: str, offset: int, speaker: str | None, today: date
) -> StatedFact | None:
    if not _asserted(pattern, clause, match.start()):
        return None
    if pattern.check is not None and not pattern.check(match):
        return None
    subject = _subject(match, speaker)
    if subject is None:
        return None
    value = _value(pattern.attribute, match, clause, today)
    if not value:
        return None
    if pattern.attribute == v.OWNED_BY:
        subject = _system_name(match.group("system"))
        if not subject:
            return None
    elif pattern.attribute == v.DUE_DATE:
        subject = match.group("project").strip()
    if subject.casefold() == value.casefold():
        return None
    since, until = _interval(pattern, match, clause, today)
    negated = pattern.negated
    if not negated and re.search(r"\b(?:not|n't|never|no\s+longer)\b", match.group(0), re.IGNORECASE):
        return None
    return StatedFact(
        subject=subject,
        attribute=pattern.attribute,
        value=value,
        valid_from=None if (pattern.history and not since) else since,
        valid_until=until,
        negated=negated,
        confidence=pattern.confidence,
        span=(offset + match.start(), offset + match.end()),
    )


def _subject(match: re.Match[str], speaker: str | None) -> str | None:
    groups = match.groupdict()
    if groups.get("me") or groups.get("mine"):
        return speaker.strip() if speaker and speaker.strip() else None
    who = groups.get("who")
    if who:
        return None if who in _NOT_A_NAME else who.strip()
    # a pattern whose subject is no person (a system, a project) fills it from its own group
    return "" if ("system" in groups or "project" in groups) else None


# capitalised words that open a clause without naming anyone
_NOT_A_NAME = frozenset(
    "He She They We You It This That There Then Now So And But Also Our My Your His Her Their The A An Everyone "
    "Nobody Someone Somebody Everybody Anyone Who What When Where Which".split()
)


def _value(attribute: str, match: re.Match[str], clause: str, today: date) -> str | None:
    groups = match.groupdict()
    if attribute == v.DUE_DATE:
        mentions = [m for m in tag_dates(groups["date"], reference=today) if not m.ambiguous]
        return mentions[0].start.isoformat() if mentions else None
    if attribute == v.SPEAKS:
        return groups["value"]
    if attribute == v.HAS_PET:
        return (groups.get("value") or f"a {groups['kind']}").strip()
    if attribute == v.JOB_TITLE:
        return " ".join(groups["value"].casefold().split())
    value = (groups.get("value") or "").strip()
    if attribute == v.OWNED_BY:
        # a team is named as the graph names it: "the Payments team" is the entity "Payments"
        value = re.sub(rf"^the\s+|\s+{_TEAM_WORDS}$", "", value)
    if value in _NOT_A_NAME or not value:
        return None
    return value


def _system_name(raw: str) -> str:
    """The system a statement of ownership is about: a name ("Ledger") or a phrase ending in a system's head noun
    ("the billing service"); anything else ("as head of design", "it") is no system."""
    words = raw.strip().split()
    if not words or words[0].casefold() in {"it", "this", "that", "which", "as", "over", "all", "everything"}:
        return ""
    if words[-1].casefold() in v.KIND_HEAD_NOUNS or words[0][:1].isupper():
        return " ".join(words)
    return ""


def _interval(pattern: _Pattern, match: re.Match[str], clause: str, today: date) -> tuple[date | None, date | None]:
    """(valid_from, valid_until) of the fact: a date the clause gives (the start of "last month"), else the day it
    was said; a statement about the past ends at the date after "until", else (a "used to") the day it was said."""
    if pattern.attribute == v.DUE_DATE:
        return today, None
    mentions = tag_dates(clause, reference=today)
    until_at = _UNTIL_RE.search(clause)
    until = since = None
    for mention in mentions:
        if until_at is not None and mention.span[1] > until_at.end():
            until = until or mention.end
        elif mention.start <= today and since is None:
            since = mention
    if pattern.history or _HISTORY_RE.search(clause):
        if until is None:
            # "I lived in Boston in 2015": over that period; "I used to live in Boston": until it was said
            until = since.end if since is not None and since.end < today else today
        start = since.start if since is not None and since.start < until else None
        return start, until
    return (since.start if since is not None else today), None
