"""``extract_facts``: what a statement says holds of someone or something, and since when. Pure: no Django, no I/O.

A fact is ``subject --attribute--> value`` (the attributes of :data:`graph.vocabulary.ATTRIBUTES`) with the day it
began (``valid_from``), the day it ended when the statement says so (``valid_until``: "I lived in Boston until
2019", "I used to work at Acme"), and whether it only ends a value (``negated``: "I left Acme", "no longer reports
to Noor").

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
from functools import lru_cache
from itertools import islice

from graph import vocabulary as v
from memories.temporal import tag_dates

__all__ = ["LEFT", "MAX_TEXT_CHARS", "StatedFact", "extract_facts"]

#: The attribute of a bare "left X": the end of X as an employer or as a home, whichever X is (the graph knows).
LEFT = "left"

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

_NAME_WORD = r"(?:[A-Z][\w'’-]*(?:\.(?=\s+[A-Z]))?|[A-Z]{2,}|[A-Z]\d[\w-]*)"  # "St. Mary's": a dot only inside a name
# a capitalised name of up to four words, joined by "of", "de", "van", "&" inside ("Bank of Ireland", "São Paulo")
NAME = rf"(?:{_NAME_WORD}(?:\s+(?:(?:of|de|da|del|van|von|la|le|&)\s+)?{_NAME_WORD}){{0,3}})"
_ME = r"(?:I|i)"
# a person named in the sentence, or the speaker: "I", "my sister Ana" (the name after a relation noun)
_RELATION = (
    r"(?:sister|brother|mum|mom|mother|dad|father|wife|husband|partner|son|daughter|cousin|aunt|uncle|friend|"
    r"flatmate|roommate|colleague|boss|manager|neighbour|neighbor|girlfriend|boyfriend|fiancée?|niece|nephew|"
    r"grandma|grandmother|grandpa|grandfather|best\s+friend|little\s+sister|big\s+sister|little\s+brother|"
    r"big\s+brother|older\s+sister|younger\s+sister|older\s+brother|younger\s+brother|kids|children|family)"
)
# "Saoirse and her husband moved to Osaka": Saoirse moved
_COMPANY_OF = rf"(?:\s+and\s+(?:his|her|their|my|our)\s+{_RELATION})?"
_WHO = rf"(?:(?P<me>{_ME})|(?:(?:my|our)\s+{_RELATION},?\s+)?(?P<who>{NAME}){_COMPANY_OF})"
_NOW = r"(?:\s+(?:now|just|recently|finally|officially|actually|also|already|eventually|still))*"
_HAVE = r"(?:'ve|’ve|\s+have|'s|’s|\s+has|\s+had)?"
_BE = r"(?:'m|’m|\s+am|'s|’s|\s+is|\s+was|'re|’re|\s+are)"
# to be, or to have been: "is living", "has been living", "'ve been a developer"
_BEEN = rf"(?:{_BE}|(?:'ve|’ve|\s+have|'s|’s|\s+has|\s+had)\s+been)"
_THE = r"(?:the\s+)?"
_TEAM_WORDS = r"(?:team|squad|group|department|guild|tribe|crew|chapter)"
# a team or a person as an owner or a manager: "the Payments team", "Payments", "Piet Jansen"
_OWNER = rf"(?:[Tt]he\s+)?(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?)"
# a person as a value, possibly named after a role ("the CFO, Freya Moss")
_PERSON_VALUE = rf"(?:(?:the|our|their)\s+[\w -]{{2,30}}?,\s+)?(?P<value>{NAME})"
# a system, a project: a name or a few words ("the billing service", "Ledger", "the Q3 report")
_THING = r"(?:[\w'’-]+(?:\s+[\w'’-]+){0,3}?)"

# role nouns a job title ends with: the vocabulary of titles (synonyms in one list, lower case)
ROLE_NOUNS = frozenset(
    """engineer engineers developer developers designer manager director lead head analyst scientist nurse teacher
    consultant architect officer vp president ceo cto cfo coo cio ciso cmo cpo intern researcher writer editor
    accountant lawyer attorney solicitor doctor surgeon physician chef cook recruiter specialist coordinator
    administrator technician midwife pharmacist paramedic programmer principal partner associate advisor adviser
    strategist producer marketer salesperson representative rep founder cofounder co-founder chair chairman
    chairwoman secretary treasurer librarian professor lecturer tutor therapist psychologist dentist vet
    veterinarian electrician plumber carpenter mechanic pilot barista waiter waitress supervisor foreman trainee
    apprentice postdoc fellow economist statistician actuary auditor controller copywriter journalist photographer
    illustrator animator curator archivist sre devops tester steward""".split()
)
_TITLE_WORDS = r"(?:[\w-]+\s+){0,4}?[\w-]+(?:\s+of\s+(?:[\w-]+\s+){0,2}?[\w-]+)?"
_TITLE_END = (
    r"(?=\s*(?:[.,;:!)]|$|\s+(?:at|for|on|in|since|from|last|this|with|and|after|back|when|but|so|now|yesterday|today|"
    r"recently|earlier|again|officially)\b))"
)
_TITLE = rf"(?P<value>{_TITLE_WORDS}){_TITLE_END}"
# where a title is held: "a nurse at St Mary's Hospital" also says where they work
_AT_ORG = rf"(?:\s+(?:at|for|with)\s+{_THE}(?P<org>{NAME}))?"

_PET_KINDS = (
    r"(?:dog|puppy|cat|kitten|rabbit|bunny|parrot|hamster|guinea\s+pig|tortoise|turtle|lizard|snake|horse|"
    r"budgie|ferret|goldfish|fish|greyhound|labrador|retriever|spaniel|terrier|beagle|poodle|collie|dachshund|"
    r"husky|pug|whippet|lurcher|chihuahua|corgi|schnauzer|sheepdog|tabby)"
)
_PETS = rf"{_PET_KINDS}s?"
_COUNT = r"(?:a|an|one|two|three|four|five|\d+)"
_LANGUAGES = (
    r"(?:English|Spanish|French|German|Italian|Portuguese|Dutch|Polish|Russian|Ukrainian|Mandarin|Cantonese|"
    r"Chinese|Japanese|Korean|Hindi|Urdu|Bengali|Punjabi|Arabic|Hebrew|Turkish|Greek|Swedish|Norwegian|Danish|"
    r"Finnish|Icelandic|Czech|Slovak|Hungarian|Romanian|Bulgarian|Serbian|Croatian|Swahili|Yoruba|Zulu|Tagalog|"
    r"Vietnamese|Thai|Indonesian|Malay|Persian|Farsi|Welsh|Irish|Gaelic|Catalan|Basque|Tamil|Telugu|Marathi)"
)
# a language, as spoken: "fluent French", "a little Greek", "French at home"
_SPOKEN = (
    rf"(?:(?:a\s+little|some|basic|decent|good|fluent|conversational|native|passable|rusty)\s+)?{_LANGUAGES}"
    r"(?:\s+at\s+\w+)?"
)
_SPOKEN_LIST = rf"(?P<value>{_SPOKEN}(?:(?:,\s*|,?\s+and\s+){_SPOKEN})*)"

# what makes a clause no plain assertion: a wish, a plan, a condition, a hypothesis, a hedge, a visit, a question
_NOT_ASSERTED = re.compile(
    r"\b(?:if|unless|whether|would|could|might|should|must|maybe|perhaps|probably|wish|wishes|dream|dreams|"
    r"dreaming|hope|hopes|hoping|plan|plans|planning|thinking|considering|consider|want|wants|wanted|wanting|"
    r"going\s+to|gonna|will|shall|about\s+to|love\s+to|like\s+to|'d|’d|'ll|’ll|imagine|suppose|pretend|"
    r"supposed|supposedly|rumou?r|rumou?red|apparently|someday|one\s+day|never\s+(?:lived|worked)|can't|cannot|"
    r"try|trying|tried|offered|offer|interview|interviewing|interviewed|applied|applying|apply|visit|visiting|"
    r"visited|trip|holiday|vacation|conference|think|thinks|guess|believe|reckon|not\s+sure|unsure|heard|seems?|"
    r"acting|interim|temporarily|temporary|skip-level|expected|expecting|soon|next\s+(?:week|month|year))\b",
    re.IGNORECASE,
)
_TAG_QUESTION_RE = re.compile(
    r",\s*(?:remember|right|you\s+know|yeah|eh|ok|okay|isn't\s+it|didn't\s+I|don't\s+I|haven't\s+I)\s*\?+\s*$",
    re.IGNORECASE,
)
_MAY_RE = re.compile(r"\bmay\b")  # the verb; "May" is also a month
_SENTENCE_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_HISTORY_RE = re.compile(r"\b(?:used\s+to|formerly|previously|back\s+then)\b", re.IGNORECASE)
_UNTIL_RE = re.compile(r"\b(?:until|till|up\s+to|through)\b", re.IGNORECASE)

# --- clauses: one subject and one assertion each --------------------------------------------------------------------

# "Noor, who lives in Ghent, now reports to Piet": two clauses about Noor
_RELATIVE_RE = re.compile(rf"\b(?P<name>{NAME}),\s+who\s+(?P<said>[^,]+?),\s*")
# "Piet, our CFO, lives in Turin": Piet is our CFO; Piet lives in Turin
_APPOSED_ROLE_RE = re.compile(
    rf"\b(?P<name>{NAME}),\s+(?P<role>(?:our|the|their|his|her|my|a|an)\s+[^,.!]{{2,40}}?)(?:,\s*|(?=[.!]?\s*$))"
)
# "Omar's parrot, Kiwi, can whistle": Omar has a parrot called Kiwi
_APPOSED_PET_RE = re.compile(
    rf"\b(?:(?P<owner>{NAME})(?:'s|’s)|(?P<mine>[Mm]y|[Oo]ur)|(?:his|her|their))\s+(?:\w+\s+)?"
    rf"(?P<kind>{_PET_KINDS}),\s+(?P<name>{NAME}),?"
)
# a clause opening with where or when it happened ("After the reorg, …", "In March, …"): the rest is the clause
_OPENER_RE = re.compile(
    r"^(?:After|Following|Since|As\s+of|In|On|Before|From|By|Back\s+in)\b(?![^,]*\b(?:I|we|he|she|they)\b)[^,]{0,30},\s+"
)
_SINCE_RE = re.compile(r"^(?:Since|Now\s+that|Ever\s+since|When|Once)\s+(?=I\b|[A-Z])")
# another subject's clause: ", and Piet took over …", " but I …"
_NEW_SUBJECT_RE = re.compile(
    r",?\s+(?:and|but|while|whereas|so|though)\s+(?=(?:I|[A-Z][\w'’-]*)\s+[a-z'’])"
    # an imperative after a comma is a clause of its own ("I moved to Ghent last week, come and see it!")
    r"|,\s+(?=(?:come|let's|call|drop|see|visit|check|give|send|tell|ask|wish|pop)\b)"
)
# the same subject's next verb: "works at Vanta and lives in Osaka"
_VERBS = (
    r"(?:lives?|living|lived|works?|working|worked|moved|joined|reports?|reported|speaks?|spoke|has|have|had|owns?|"
    r"left|became|is|was|took|started|manages?|got|grew|walks?|adopted|relocated|quit)"
)
_SAME_SUBJECT_RE = re.compile(rf",?\s+and\s+(?=(?:now\s+|also\s+)?{_VERBS}\b)")
_DROPPED_I_RE = re.compile(r"^(?=(?:Started|Moved|Joined|Relocated|Quit|Got\s+promoted)\b)")
_LEAD_RE = re.compile(rf"^(?:(?:my|our)\s+{_RELATION},?\s+)?(?:{_ME}|{NAME}){_COMPANY_OF}\b")


def _clauses(sentence: str) -> list[str]:
    """A sentence as clauses of one subject each: relative clauses and appositions said of their name, openers
    ("After the reorg, ") dropped, coordinated clauses apart, and a clause that goes on with the same subject's next
    verb given that subject ("Saoirse works at Vanta and lives in Osaka": "Saoirse lives in Osaka")."""
    text = sentence.strip()
    extra: list[str] = []
    for match in list(_RELATIVE_RE.finditer(text)):
        extra.append(f"{match['name']} {match['said']}")
    text = _RELATIVE_RE.sub(lambda m: f"{m['name']} ", text)
    for match in list(_APPOSED_PET_RE.finditer(text)):
        owner = match["owner"] or (match["mine"] and "I") or ""
        if owner:
            extra.append(f"{owner} {'have' if owner == 'I' else 'has'} a {match['kind']} called {match['name']}")
        elif _LEAD_RE.match(text):  # "Freya walks her whippet, Juno": the clause's subject's pet
            lead = _LEAD_RE.match(text).group(0)
            extra.append(f"{lead} {'have' if lead == 'I' else 'has'} a {match['kind']} called {match['name']}")
    for match in list(_APPOSED_ROLE_RE.finditer(text)):
        extra.append(f"{match['name']} is {match['role']}")
    text = _APPOSED_ROLE_RE.sub(lambda m: f"{m['name']} ", text)
    clauses = []
    for part in _NEW_SUBJECT_RE.split(text):
        part = _SINCE_RE.sub("", _OPENER_RE.sub("", part.strip()))
        # a chat drops its "I": "Started at Vanta in March, great people."
        if _DROPPED_I_RE.match(part):
            part = f"I {part[:1].lower()}{part[1:]}"
        pieces = _SAME_SUBJECT_RE.split(part)
        lead = _LEAD_RE.match(pieces[0])
        clauses.append(pieces[0])
        clauses += [f"{lead.group(0)} {piece}" if lead else piece for piece in pieces[1:]]
    return [clause for clause in clauses + extra if clause.strip()]


@dataclass(frozen=True)
class _Pattern:
    attribute: str
    regex: re.Pattern[str]
    negated: bool = False
    history: bool = False  # states an earlier value only ("I lived in Boston until 2019")
    confidence: float = 0.8
    check: Callable[[re.Match[str]], bool] | None = None
    after_negation: bool = False  # states the value that follows a negation ("no longer X; it's Y now")


def _p(attribute: str, regex: str, **kwargs) -> _Pattern:
    return _Pattern(attribute, re.compile(regex), **kwargs)


def _title_ok(match: re.Match[str]) -> bool:
    words = match.group("value").casefold().split()
    head = words[words.index("of") - 1] if "of" in words else words[-1]
    return head in ROLE_NOUNS and not {"fan", "lot", "bit", "big", "owner", "on-call", "oncall"} & set(words)


def _org_ok(match: re.Match[str]) -> bool:
    return match.group("value").split()[0] not in {"I", "My", "The", "Our"}


_PATTERNS: tuple[_Pattern, ...] = (
    # --- where someone lives
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}(?:{_BEEN}?{_NOW}\s+(?:live|lives|living|reside|resides|residing|based|settled)|"
        rf"(?:'ve|’ve|\s+have|\s+has){_NOW}\s+lived)\s+in\s+(?P<value>{NAME})(?!,?\s+(?:until|till)\b)",
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated|emigrated)(?:\s+(?:back|house|over|out))?"
        rf"(?:\s+from\s+(?P<old>{NAME}))?\s+to\s+(?P<value>{NAME})",
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Ww]e)(?:'ve|’ve|\s+have)?{_NOW}\s+(?:moved|relocated)(?:\s+(?:back|house|over))?"
        rf"(?:\s+from\s+(?P<old>{NAME}))?\s+to\s+(?P<value>{NAME})",
        confidence=0.7,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+(?:lived|was\s+living|resided)\s+in\s+(?P<value>{NAME})", history=True),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:spent|lived)\s+(?:\w+\s+){{0,2}}(?:years|months|decades|a\s+decade|ages)\s+in\s+"
        rf"(?P<value>{NAME})",
        history=True,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+used\s+to\s+live\s+in\s+(?P<value>{NAME})", history=True),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+(?:works?|working)\s+remotely\s+from\s+(?P<value>{NAME})", confidence=0.6),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated)\s+(?:away\s+)?(?:from|out\s+of)\s+(?P<value>{NAME})"
        r"(?!\s+to\b)",
        negated=True,
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+lives?\s+in\s+(?P<value>{NAME})",
        negated=True,
    ),
    # said in passing: "the new place in Denver has a garden", "we're renting a house in Leeds" (the speaker's home)
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Mm]y|[Oo]ur|[Tt]he)\s+new\s+(?:place|flat|apartment|house|home|condo)\s+in\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Ww]e|I)(?:'re|’re|'m|’m|\s+are|\s+am)\s+(?:now\s+)?renting\s+an?\s+(?:place|flat|apartment|house|"
        rf"room|condo)\s+in\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    # --- where someone works
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BEEN}?{_NOW}\s+(?:work|works|working)\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\s+(?:\w+\s+){{1,3}}?working\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:joined|started\s+at|started\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)|"
        rf"started\s+working\s+(?:at|for)|took\s+a\s+(?:new\s+)?job\s+(?:at|with)|been\s+hired\s+by|was\s+hired\s+by|"
        rf"got\s+hired\s+by|got\s+a\s+job\s+(?:at|with)|been\s+with|been\s+at)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\b[^,]*?\bto\s+join\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s){_NOW}\s+(?:on|in)\s+the\s+[\w -]{{1,30}}?\s+{_TEAM_WORDS}\s+at\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    # said in passing: "Work at Vanta is hectic lately" (the speaker's work)
    _p(
        v.WORKS_AT_ATTR,
        rf"^(?P<mine>[Ww]ork)\s+at\s+{_THE}(?P<value>{NAME})\s+(?:is|has\s+been|was)\b",
        check=_org_ok,
        confidence=0.6,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+team\s+(?:at|over\s+at)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
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
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:quit|resigned\s+from|been\s+laid\s+off\s+(?:from|by)|"
        rf"was\s+laid\s+off\s+(?:from|by)|got\s+laid\s+off\s+(?:from|by)|quit\s+(?:my|his|her|their)\s+job\s+at|"
        rf"left\s+(?:my|his|her|their)\s+job\s+at)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    # a bare "left X": X is an employer or a town, which the graph knows (graph.facts decides; no kind, no fact)
    _p(
        LEFT,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+(?P<value>{NAME})(?!\s+(?:to\s+join|for)\b)(?=\s*(?:[.,;:!]|$|\s+(?:in|last|this|on|"
        r"after|yesterday|earlier|two|three|a\s+few|and)\b))",
        negated=True,
        check=_org_ok,
    ),
    # "left Vanta to join Quorum": the employer left
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+{_THE}(?P<value>{NAME})\s+(?:to\s+join|for)\b",
        negated=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+works?\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
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
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:took|taken)\s+over\s+(?:(?:his|her|their|the|my)\s+)?(?:(?:role|job|post|"
        rf"position)\s+)?as\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:been\s+|was\s+|got\s+)?(?:named|appointed|made|hired\s+as|became)\s+"
        rf"(?:an?\s+|the\s+|our\s+)?{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b(?:[Tt]hey|[A-Z][\w'’-]+)\s+(?:made|named|appointed|promoted)\s+(?P<mine>me)\s+(?:to\s+)?(?:an?\s+|the\s+)?"
        rf"{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_BEEN}{_NOW}\s+(?:working\s+as\s+)?(?:an?|the|our|their)\s+{_TITLE}{_AT_ORG}",
        check=_title_ok,
        confidence=0.7,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}\s+(?:work|works)\s+as\s+(?:an?\s+|the\s+)?{_TITLE}{_AT_ORG}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:'s|’s)\s+(?:job\s+)?title\s+(?:changed|went|moved)\s+from\s+(?:an?\s+)?(?P<old>[\w -]{{2,40}}?)"
        rf"\s+to\s+(?:an?\s+)?{_TITLE}",
        check=_title_ok,
    ),
    # --- who someone reports to
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_BE}?{_NOW}\s+(?:reports|report|reporting)\s+(?:directly\s+)?to\s+{_PERSON_VALUE}"
        rf"(?:\s+instead\s+of\s+(?P<old>{NAME}))?",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|was\s+moved|been\s+moved)\s+under\s+(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}\s+reported\s+(?:directly\s+)?to\s+{_PERSON_VALUE}",
        history=True,
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
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)(?:\s+is{_NOW}|,)\s+"
        rf"(?P<value>{NAME})",
    ),
    # "Piet manages Noor and Omar": each of them reports to Piet
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME}){_NOW}\s+(?:manages|supervises|line-manages)\s+(?P<whom>{NAME}(?:(?:,\s*|,?\s+and\s+)"
        rf"{NAME})*)(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|after|these|nowadays)\b))",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|doesn't|don't|does\s+not|do\s+not)\s+reports?\s+to\s+(?P<value>{NAME})",
        negated=True,
    ),
    # "I no longer report to Piet; it's Noor now": the new value after the negation
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't)\s+reports?\s+to\s+{NAME}\s*[;,:]\s*(?:it(?:'s|’s|\s+is)|now\s+it(?:'s|’s)"
        rf"|now)\s+(?P<value>{NAME})",
        after_negation=True,
    ),
    # --- who owns a system: "Ownership of the billing service moved to the Payments team"
    _p(
        v.OWNED_BY,
        rf"\b[Oo]wnership\s+of\s+(?:the\s+)?(?P<system>{_THING})\s+(?:has\s+)?(?:moved|passed|"
        rf"went|was\s+(?:moved|transferred|handed\s+over|passed|given)|is\s+moving|transferred|shifted)\s+to\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:is|was|has\s+been){_NOW}\s+(?:owned|maintained)\s+by\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:now\s+)?belongs\s+to\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}\s+(?:is|are){_NOW}\s+responsible\s+for\s+(?:the\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|as|after)\b))",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:(?P<me>{_ME})|{_OWNER}){_HAVE}{_NOW}\s+(?:owns|own|took\s+over|taken\s+over|inherited|maintains?)\s+"
        rf"(?:ownership\s+of\s+)?(?:the\s+)?(?P<system>{_THING})(?:\s+from\s+(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?))?"
        r"(?=\s*(?:[.,;!]|$|\s+(?:as|on|in|since|last|this|now)\b))",
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_HAVE}{_NOW}\s+took\s+(?:the\s+)?(?P<system>{_THING})\s+over\b",
    ),
    # "Freya handed the search gateway to Omar": Omar owns it, Freya did
    _p(
        v.OWNED_BY,
        rf"\b(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?){_HAVE}\s+handed\s+(?:over\s+)?(?:the\s+)?(?P<system>{_THING})"
        rf"\s+(?:over\s+)?to\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}\s+(?:no\s+longer|doesn't|don't|does\s+not|do\s+not)\s+owns?\s+(?:the\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$))",
        negated=True,
    ),
    # --- when a project is due: "The Orion launch slipped to 14 March"
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})(?:'s|’s)?\s+(?:launch|release|go-live|go\s+live|deadline|"
        r"cutover|due\s+date|ship\s+date|launch\s+date|release\s+date|delivery\s+date)\s+(?:has\s+|had\s+|is\s+|was\s+)?"
        r"(?:now\s+|been\s+)?(?:slipped|slips|moved|moves|pushed(?:\s+back|\s+out)?|brought\s+forward|set|scheduled|"
        r"planned|fixed|confirmed|rescheduled|delayed|due|locked(?:\s+in)?)?\s*(?:to|for|on|at|from)?\s+(?P<date>.+)",
    ),
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})\s+(?:now\s+)?(?:launches|ships|goes\s+live|is\s+due|are\s+due|"
        r"is\s+launching|is\s+shipping|will\s+launch|will\s+ship|will\s+go\s+live|(?:must|has\s+to|needs\s+to|should)"
        r"\s+(?:be\s+)?(?:done|finished|completed?|shipped|live|delivered|ready))\s+(?:on|in|by|at)?\s*(?P<date>.+)",
    ),
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})\s+(?:has\s+)?(?:slipped|was\s+delayed|moved|was\s+pushed)"
        r"(?:\s+again)?[;,:]?\s+(?:the\s+)?new\s+(?:date|deadline)\s+is\s+(?P<date>.+)",
    ),
    # --- pets and languages: many at once
    _p(
        v.HAS_PET,
        rf"\b{_WHO}{_HAVE}\s+(?:got|adopted|have|has|rescued|own|owns)\s+{_COUNT}\s+(?:new\s+)?(?:\w+\s+)?"
        rf"(?P<kind>{_PETS})(?:,?\s+(?:called|named)?\s*(?P<value>{NAME}(?:\s+and\s+{NAME})?))?",
    ),
    _p(
        v.HAS_PET,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+(?:\w+\s+)?(?P<kind>{_PET_KINDS})\s+(?P<value>{NAME})",
    ),
    _p(
        v.HAS_PET,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+(?:\w+\s+)?(?P<kind>{_PET_KINDS})(?:,\s+|\s+)(?P<value>{NAME}),?\s+"
        r"(?:passed\s+away|died|was\s+rehomed|has\s+been\s+rehomed)",
        negated=True,
    ),
    _p(v.SPEAKS, rf"\b{_WHO}{_NOW}\s+(?:speak|speaks)\s+(?:\w+\s+languages?:?\s*)?{_SPOKEN_LIST}"),
    _p(v.SPEAKS, rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s){_NOW}\s+fluent\s+in\s+{_SPOKEN_LIST}"),
    _p(v.SPEAKS, rf"\b{_WHO}\s+grew\s+up\s+speaking\s+{_SPOKEN_LIST}"),
    _p(v.SPEAKS, rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\s+an?\s+native\s+(?P<value>{_LANGUAGES})\s+speaker"),
    _p(
        v.SPEAKS,
        rf"\b(?P<mine>[Mm]y)\s+(?P<value>{_LANGUAGES})\s+is\s+(?:\w+\s+)?(?:fluent|good|decent|native|solid)",
    ),
    _p(
        v.SPEAKS,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not|can't|cannot)\s+speaks?\s+{_SPOKEN_LIST}",
        negated=True,
    ),
)

# "will" and "going to" state a plan; a due date is stated by a plan ("The Orion launch will be on 14 March")
_PLANS_STATE = frozenset({v.DUE_DATE})
_PLAN_WORDS = re.compile(
    r"\b(?:will|going\s+to|gonna|planned|plan|plans|scheduled|'ll|’ll|must|has\s+to|needs\s+to|should)\b",
    re.IGNORECASE,
)


def extract_facts(text: str, *, speaker: str | None, reference: datetime | date) -> list[StatedFact]:
    """The facts ``text`` states, in order. ``speaker``: who "I" is (None: nobody, so a first-person statement states
    nothing); ``reference``: when it was said (relative dates are read against it; a fact without a date of its own
    holds from then). Never raises; at most :data:`MAX_FACTS`."""
    if not isinstance(text, str) or not text.strip():
        return []
    try:
        return list(islice(_facts(text[:MAX_TEXT_CHARS], speaker, _day(reference)), MAX_FACTS))
    except Exception:  # noqa: BLE001 - extraction enriches a memory; bad input must never fail indexing
        return []


def _day(reference: datetime | date) -> date:
    return reference.date() if isinstance(reference, datetime) else reference


# a word stem each attribute's patterns need: a clause without any is not read against them (most are not)
_NEEDS: dict[str, tuple[str, ...]] = {
    v.LIVES_IN: ("live", "living", "moved", "reloc", "based", "settled", "resid", "emigrat", "new ", "renting",
                 "spent", "remote"),
    LEFT: ("left",),
    v.WORKS_AT_ATTR: ("work", "join", "start", "hired", "left", "quit", "resign", "laid off", "job", "team at",
                      "been with",
                      "been at"),
    v.JOB_TITLE: ("promoted", "took over", "taken over", "named", "appointed", "made", "hired as", "became", " a ",
                  " an ", " the ", " our ", " as ", "title"),
    v.REPORTS_TO_ATTR: ("report", "manager", "boss", "supervisor", "manages", "supervises", "under "),
    v.OWNED_BY: ("own", "took ", "taken over", "inherited", "maintain", "belongs", "responsible", "handed"),
    v.DUE_DATE: ("launch", "release", "go-live", "go live", "deadline", "cutover", "due", "ship", "goes live",
                 "done by", "finished by", "complete", "delivered by", "ready by", "live by", "slipped", "new date"),
    v.HAS_PET: ("dog", "pupp", "cat", "kitten", "rabbit", "bunny", "parrot", "hamster", "pig", "tortoise", "turtle",
                "lizard", "snake", "horse", "budgie", "ferret", "fish", "hound", "labrador", "retriever", "spaniel",
                "terrier", "beagle", "poodle", "collie", "dachshund", "husky", "pug", "whippet", "lurcher", "corgi",
                "chihuahua", "schnauzer", "tabby"),
    v.SPEAKS: ("speak", "fluent"),
}  # fmt: skip


def _facts(text: str, speaker: str | None, today: date) -> Iterator[StatedFact]:
    seen: set[tuple[str, str, str, bool]] = set()
    for sentence in _SENTENCE_RE.finditer(text):
        for fact in _sentence_facts(sentence.group(0), speaker, today):
            key = (fact.subject.casefold(), fact.attribute, fact.value.casefold(), fact.negated)
            if key not in seen:
                seen.add(key)
                yield replace(fact, span=(fact.span[0] + sentence.start(), fact.span[1] + sentence.start()))


@lru_cache(maxsize=4096)
def _sentence_facts(said: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """The facts one sentence states (spans within it); cached, as chats repeat their sentences."""
    said = _TAG_QUESTION_RE.sub(".", said)  # "I live in Ghent, remember?" asserts
    if len(said) > _MAX_SENTENCE_CHARS or said.rstrip().endswith("?"):
        return ()
    facts: list[StatedFact] = []
    for clause in _clauses(said):
        folded = f" {clause.casefold()} "
        wanted = {attribute for attribute, stems in _NEEDS.items() if any(stem in folded for stem in stems)}
        for pattern in _PATTERNS:
            if pattern.attribute not in wanted:
                continue
            for match in pattern.regex.finditer(clause):
                facts.extend(_facts_of(pattern, match, clause, 0, speaker, today))
    return tuple(facts)


def _asserted(pattern: _Pattern, clause: str, start: int) -> bool:
    """The clause asserts, rather than wishes, plans, supposes or hedges; nothing before the match negates it."""
    before = clause[:start]
    if pattern.attribute in _PLANS_STATE:
        return not _NOT_ASSERTED.search(_PLAN_WORDS.sub(" ", clause))
    if _MAY_RE.search(clause):
        return False
    return not _NOT_ASSERTED.search(clause) and not re.search(r"\b(?:not|never|n't)\b", before, re.IGNORECASE)


def _facts_of(
    pattern: _Pattern, match: re.Match[str], clause: str, offset: int, speaker: str | None, today: date
) -> list[StatedFact]:
    """The facts one match states: its value, an earlier value it names ("from X to Y", "instead of X", "took over S
    from X"), the employer a title is held at, and one fact a subject or value when it names several."""
    if not _asserted(pattern, clause, match.start()) and not pattern.after_negation:
        return []
    if pattern.check is not None and not pattern.check(match):
        return []
    groups = match.groupdict()
    negated_inside = re.search(r"\b(?:not|n't|never|no\s+longer)\b", match.group(0), re.IGNORECASE)
    if not pattern.negated and not pattern.after_negation and negated_inside:
        return []
    subjects = _subjects(pattern.attribute, match, speaker)
    values = _values(pattern.attribute, match, speaker, today)
    if not subjects or not values:
        return []
    since, until = _interval(pattern, match, clause, today)
    span = (offset + match.start(), offset + match.end())
    facts = []
    for subject in subjects:
        for value in values:
            if subject.casefold() == value.casefold():
                continue
            facts.append(
                StatedFact(
                    subject=subject,
                    attribute=pattern.attribute,
                    value=value,
                    valid_from=None if (pattern.history and not since) else since,
                    valid_until=until,
                    negated=pattern.negated,
                    confidence=pattern.confidence,
                    span=span,
                )
            )
        old = _earlier(pattern.attribute, {**groups, "said": match.group(0)}, speaker, today)
        if old and old.casefold() not in {value.casefold() for value in values}:
            ended = since if since and since <= today else today
            facts.append(
                StatedFact(subject, pattern.attribute, old, None, ended, False, pattern.confidence * 0.9, span)
            )
        if groups.get("org") and pattern.attribute == v.JOB_TITLE:
            facts.append(StatedFact(subject, v.WORKS_AT_ATTR, groups["org"].strip(), since, None, False, 0.7, span))
    return facts


# capitalised words that open a clause without naming anyone
_NOT_A_NAME = frozenset(
    "He She They We You It This That There Then Now So And But Also Our My Your His Her Their The A An Everyone "
    "Nobody Someone Somebody Everybody Anyone Who What When Where Which Since After Before While Because Once If "
    "Though Although Noted Note Yes No Well Oh Still Just Today Yesterday Tomorrow Last Next Finally Apparently "
    "Luckily Sadly Honestly Anyway Meanwhile Recently Lately Both Everyone's I've I'm I'd I'll I’ve I’m I’d "
    "I’ll".split()
)


def _person(name: str | None) -> str | None:
    """A name as written, without the clause-opening words before it ("Since Ana" is Ana); None when nothing is
    left or the first word is no name."""
    words = (name or "").split()
    while words and words[0] in _NOT_A_NAME:
        words.pop(0)
    return " ".join(words) or None


def _subjects(attribute: str, match: re.Match[str], speaker: str | None) -> list[str]:
    groups = match.groupdict()
    if attribute == v.OWNED_BY:
        system = _system_name(groups["system"], owner=groups.get("value") or "")
        return [system] if system else []
    if attribute == v.DUE_DATE:
        project = _project_name(groups["project"])
        return [project] if project else []
    if groups.get("whom"):  # "Piet manages Noor and Omar"
        return [name for name in map(_person, _listed(groups["whom"])) if name]
    if groups.get("me") or groups.get("mine"):
        return [speaker.strip()] if speaker and speaker.strip() else []
    who = groups.get("who")
    if who:
        words = who.split()
        if words and words[0] in {"Since", "After", "When", "Once"} and len(words) > 1 and words[1] == "I":
            return [speaker.strip()] if speaker and speaker.strip() else []
        person = _person(who)
        return [person] if person else []
    return []


def _listed(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text) if part.strip()]


def _values(attribute: str, match: re.Match[str], speaker: str | None, today: date) -> list[str]:
    groups = match.groupdict()
    if attribute == v.DUE_DATE:
        day = _due_day(groups["date"], today)
        return [day.isoformat()] if day else []
    if attribute == v.SPEAKS:
        spoken = (re.search(_LANGUAGES, part) for part in _listed(groups["value"]))
        return [language.group(0) for language in spoken if language]
    if attribute == v.HAS_PET:
        if groups.get("value"):
            return _listed(groups["value"])
        return [f"a {re.sub(r's$', '', groups['kind'])}"]
    if attribute == v.JOB_TITLE:
        return [re.sub(r"^(?:new|current|permanent)\s+", "", " ".join(groups["value"].casefold().split()))]
    if attribute == v.OWNED_BY and groups.get("me"):
        return [speaker.strip()] if speaker and speaker.strip() else []
    value = (groups.get("value") or "").strip()
    if attribute == v.OWNED_BY:
        value = _team_name(value)
    elif attribute != v.WORKS_AT_ATTR:
        value = _person(value) or ""
    if not value or value in _NOT_A_NAME:
        return []
    return [value]


def _earlier(attribute: str, groups: dict, speaker: str | None, today: date) -> str | None:
    """The earlier value a statement of change names: "moved from Boston to Denver", "reports to Noor instead of
    Piet", "took over the billing service from Piet", "handed S to T" (the hander), "changed from analyst"."""
    old = groups.get("old")
    if not old:
        changed = re.search(r"\bfrom\b(?P<was>.+?)\bto\b", groups.get("said") or "")
        if attribute == v.DUE_DATE and changed:  # "moved from 30 June to 15 July"
            days = _dates(changed["was"], today)
            return days[0].isoformat() if days else None
        return None
    if attribute == v.JOB_TITLE:
        return " ".join(old.casefold().split())
    return _team_name(old) if attribute == v.OWNED_BY else _person(old)


def _team_name(value: str) -> str:
    """A team named as the graph names it: "the Payments team" is the entity "Payments"."""
    return re.sub(rf"^[Tt]he\s+|\s+{_TEAM_WORDS}$", "", value.strip())


def _dates(text: str, today: date) -> list[date]:
    return [mention.start for mention in tag_dates(text, reference=today) if not mention.ambiguous]


def _due_day(text: str, today: date) -> date | None:
    """The day a project is due: the last date the phrase gives ("moved from 30 June to 15 July" is 15 July; "at the
    end of the quarter, on 30 September" is 30 September)."""
    days = _dates(text, today)
    return days[-1] if days else None


_NOT_THINGS = frozenset({"it", "this", "that", "which", "as", "over", "all", "everything", "role", "job", "team", "he",
                         "she", "they", "we", "you", "i", "her", "his", "their", "my", "our"})  # fmt: skip


def _system_name(raw: str, *, owner: str) -> str:
    """The system a statement of ownership is about: a name ("Ledger") or a phrase ending in a system's head noun
    ("the billing service"), or anything a team owns ("the Payments team owns billing"); anything else ("as head of
    design", "a dog") is no system."""
    words = re.sub(r"^the\s+", "", raw.strip(), flags=re.IGNORECASE).split()
    if not words or words[0].casefold() in _NOT_THINGS or words[-1].casefold() in _NOT_THINGS:
        return ""
    if words[-1].casefold() in v.KIND_HEAD_NOUNS or words[0][:1].isupper():
        return " ".join(words)
    if re.search(rf"\s{_TEAM_WORDS}$", owner.strip()):
        return " ".join(words)
    return ""


def _project_name(raw: str) -> str:
    """A project as a due date names it: a name or a few words ("Orion", "Q3 report", "billing migration")."""
    words = raw.strip().split()
    if not words or words[0].casefold() in _NOT_THINGS or words[0] in _NOT_A_NAME:
        return ""
    return " ".join(words)


@lru_cache(maxsize=256)
def _clause_dates(clause: str, today: date) -> tuple:
    """The clause's date mentions, read once for all the matches in it."""
    return tuple(tag_dates(clause, reference=today))


def _interval(pattern: _Pattern, match: re.Match[str], clause: str, today: date) -> tuple[date | None, date | None]:
    """(valid_from, valid_until) of the fact: a date the clause gives (the start of "last month", "since 2021"), else
    the day it was said; a statement about the past ends at the date after "until", else (a "used to") the day it
    was said."""
    if pattern.attribute == v.DUE_DATE:
        return today, None
    mentions = _clause_dates(clause, today)
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
