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
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import cached_property, lru_cache, partial
from itertools import chain, islice

from graph import vocabulary as v
from graph.extraction.lexicon import BUSINESS_TAILS, COMPANY_SUFFIXES, FUNCTION_WORDS, ORG_WORDS
from graph.extraction.places import known_place
from memories.temporal import tag_dates

__all__ = ["LEFT", "LEFT_EITHER", "MAX_TEXT_CHARS", "StatedFact", "extract_facts", "left_unread"]

#: The attribute of a bare "left X": the end of X as an employer or as a home, whichever X is (the text says, else
#: the graph knows, else ``left_unread`` reads it).
LEFT = "left"
#: The same, where only the graph can say which: a farewell ("goodbye Szeged!", which to a name nobody knows may be
#: to a person), or a "left X" in a text that speaks of both a job and a home.
LEFT_EITHER = "left_either"

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

# A capital letter of the Latin alphabets names are written in ("Éva", "Øystein", "Łukasz", "Şule")
_UPPER = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĴĶĹĻĽĿŁŃŅŇŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ"
# "St. Mary's", "Example.com": a dot only inside a name, after a short word ("Bab and Pogácsa. Bab eats …" is two)
_NAME_WORD = (
    rf"(?:[{_UPPER}][a-z]{{0,2}}\.(?=\s+[A-Z])|[{_UPPER}][\w'’-]*(?!\.\d)(?:&[A-Z][\w-]*)?"
    r"(?:\.(?:com|io|ai|co|org|net|app|dev)\b)?|[A-Z]{2,}|"
    r"[A-Z]\d[\w-]*(?:\.\d+)*|\d[\w-]*[A-Z][\w-]*)(?![\w-])"
)
# a capitalised name of up to four words, joined by "of", "de", "van", "&" inside ("Bank of Ireland", "São Paulo"), on
# one line (a signature's name is not its title's first words)
# "Institute for Lake Studies", "Centre for Rural Health": an institution's "for" is inside its name
_INSTITUTION_FOR = "|".join(
    rf"(?<={word}\sfor)"
    for word in ("Institute", "Centre", "Center", "Foundation", "Society", "Association", "Council", "Agency",
                 "Ministry", "Department", "School", "College", "Alliance", "Trust", "Fund", "Network", "Office")
)  # fmt: skip
_NAME_JOINER = rf"(?:of|de|da|del|van|von|la|le|&|for(?:{_INSTITUTION_FOR}))"
NAME = rf"(?:{_NAME_WORD}(?:[ \t]+(?:{_NAME_JOINER}[ \t]+)?(?!I\b){_NAME_WORD}){{0,3}})"
_ME = r"(?:I|i)"
# where a name ends: no further word of it follows (so "from São Paulo to" is never read as "from São")
_NAME_ENDS = rf"(?![\w'’-]|[ \t]+(?:(?:of|de|da|del|van|von|la|le|&)[ \t]+)?[{_UPPER}])"
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
_NOW = r"(?:\s+(?:now|just|recently|finally|officially|actually|also|already|eventually|still|in\s+turn))*"
_HAVE = r"(?:'ve|’ve|\s+have|'s|’s|\s+has|\s+had)?"
_BE = r"(?:'m|’m|\s+am|'s|’s|\s+is|\s+was|'re|’re|\s+are)"
# to be, or to have been: "is living", "has been living", "'ve been a developer"
_BEEN = rf"(?:{_BE}|(?:'ve|’ve|\s+have|'s|’s|\s+has|\s+had|'d|’d){_NOW}\s+been)"
# the same, now: "was a teacher" says what someone was (the history patterns read it)
_IS_NOW = rf"(?:'m|’m|\s+am|'s|’s|\s+is|'re|’re|\s+are|(?:'ve|’ve|\s+have|'s|’s|\s+has){_NOW}\s+been)"
_THE = r"(?:the\s+)?"
# home again, before the place: "back home in", "back home to", "back living in", "back at our place in"
_BACK_HOME_IN = (
    r"(?:back\s+)?(?:home\s+(?:in|to)|living\s+in|at\s+(?:our|my|his|her|their)\s+(?:own\s+)?"
    r"(?:place|flat|house|apartment|home)\s+in)\s+"
)
# what comes between a manager and their name: "my manager is Nandor", "… stays Nandor", "… is a woman from Eger
# called Nandor", "Dorka's manager: Nandor"
_MANAGER_NAMED = (
    rf"(?:\s+(?:is|stays|remains|became|has\s+become){_NOW}(?:\s+an?\s+[^,.;!?]{{1,40}}?\s+(?:called|named))?\s+|"
    r"\s*[:—–]\s*)"
)
# a post taken up, now: "I've started", "she's starting", "took on", "began"
_TAKEN_UP = (
    r"(?:'ve|’ve|\s+have|'s|’s|\s+has|'m|’m|\s+am|\s+is)?(?:\s+(?:now|just|recently|finally|officially))*\s+"
    r"(?:started|starting|starts|began|begun|took(?:\s+on|\s+up)?|taken(?:\s+on|\s+up)?)"
)
_TEAM_WORDS = r"(?:team|squad|group|department|guild|tribe|crew|chapter)"
# the people and things of someone's workplace ("my colleagues at Kestle", "my team lead at Kestle")
_WORKPLACE_WORDS = (
    r"(?:team|team\s+lead|colleagues?|co-?workers?|boss|manager|office|standup|stand-up|paycheck|payslip|contract|"
    r"notice)"
)
_FORMER_WORDS = r"(?:old|former|previous|ex-?)"
# the words that set a value against the one it replaces ("on 13 May rather than 9 May", "Dorka now, not Bálint")
_RATHER_WORDS = r"rather\s+than|instead\s+of|not"
# a team or a person as an owner or a manager: "the Payments team", "Payments", "Piet Jansen", "my team, Payments"
_MY_TEAM = (
    rf"(?:[Mm]y|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er|{_NAME_WORD}(?:\s+{_NAME_WORD})?['’]s)\s+{_TEAM_WORDS}(?:\s+now)?"
    r"\s*(?:,|[—–-]|:)\s+(?:the\s+)?"
)
# a team as its tools write it: "data-core", "@tax-compliance", "@acme/web-core"
_CODE_NAME = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
# (a chat's handle, or the channel a team is reached in: "owned by #tisza-ops")
_HANDLE = rf"(?:@[\w/-]+|#[A-Za-z][\w-]+|{_CODE_NAME}\b)"
# (a team by its handle, or in lower case: "the identity team")
_OWNER = (
    # ("owned by our Platform team": the team by its name, whoever "our" is; "by Zirc's own Platform Team", "to the
    # customer's Data Office team": the team by its name, whosever it is)
    rf"(?:[Tt]he\s+|{_MY_TEAM}|(?:[Oo]ur|[Tt]heir)\s+(?={NAME}\s+{_TEAM_WORDS})"
    rf"|(?:the\s+)?(?:[a-z]+|{_NAME_WORD})['’]s\s+(?:(?:in-house|own|internal)\s+)?(?=[{_UPPER}][\w-]*\s+[{_UPPER}]|{NAME}\s+{_TEAM_WORDS}))?"
    rf"(?P<value>{NAME}(?:\s+\d+\b)?(?:\s+{_TEAM_WORDS})?|{_HANDLE}"
    r"|(?!(?:my|our|your|their|his|her|its|a|an|another|which|what|that|this|the|some|any|no|other|same|whole|new|old)\s)"
    rf"[a-z][a-z-]+\s+{_TEAM_WORDS})"
)
# a person as a value, possibly named after a role ("the CFO, Freya Moss")
# ("to the trust's CEO, Dorka Fehér", "to managing partner Dorka Fehér": the post said before the name, in lower case)
_POST_NOUNS = "|".join(sorted((noun for noun in v.ROLE_NOUNS if noun.isalpha()), key=len, reverse=True))
_PERSON_VALUE = (
    rf"(?:(?:the|our|their|its)\s+[\w'’ -]{{2,30}}?,\s+|(?:[a-z][\w-]*\s+){{0,2}}(?:{_POST_NOUNS})\s+(?=[{_UPPER}]))?"
    rf"(?P<value>{NAME})"
)
# a system, a project: a name or a few words ("the billing service", "Ledger", "the Q3 report")
# (a repository's path whole, "the zirc/exporter repo"; a release's number whole, "the R7.3 cut")
_THING = r"(?:[\w'’-]+(?:/[\w-]+)*(?:\.\d+)*(?:\s+[\w'’-]+(?:/[\w-]+)*(?:\.\d+)*){0,3}?)"
# the same, no word of it one that opens a clause or a phrase ("since the reorg the Zirc dashboard …", "as of 3 Nov
# the Zirc service …", "reminder that Zirc …": Zirc)
_OPENING_WORD = (
    r"(?:[Tt]he|[Tt]hat|[Tt]his|[Ss]o|[Aa]nd|[Bb]ut|[Ww]hich|[Aa]s|[Oo]f|[Ss]ince|[Aa]fter|[Ww]hen|[Rr]eminder)\b"
)
_ARTICLELESS_THING = rf"(?:(?:(?!{_OPENING_WORD})[\w'’-]+\s+){{0,3}}?(?!{_OPENING_WORD})[\w'’-]+)"
# what a home is said to be like before its noun ("our own little flat"), never one that was ("my old flat")
_DWELLING_WORDS = r"(?:\s+(?!(?:old|previous|former|last|parents['’]?|first)\b)[a-z-]+){0,2}?"

# (a title's words may be abbreviated, "Sr. Eng. Mgr", or joined by "&", "Head of People & Culture")
_TITLE_WORD = r"(?:[\w-]+(?:\.(?=\s[A-Z]))?|&)"
_TITLE_WORDS = rf"(?:{_TITLE_WORD}\s+){{0,4}}?[\w-]+(?:\s+of\s+(?:{_TITLE_WORD}\s+){{0,2}}?[\w-]+)?"
_TITLE_END = (
    r"(?=\s*(?:[.,;:!)]|$|\s+(?:at|over\s+at|for|on|in|since|from|last|this|with|and|after|back|when|but|so|now|yesterday|"
    r"today|there|who|until|till|before|previously|formerly|while|during|"
    r"reporting|based|working|living|as\s+of|effective|"
    r"recently|earlier|again|officially|(?:a|an|one|two|three|four|five|six|a\s+few|several|\d+)\s+(?:days?|weeks?|"
    r"months?|years?)\s+ago)\b|\s+(?=[^\w\s&])))"
)
_TITLE_WORDS_NAMED = rf"(?P<value>{_TITLE_WORDS})"
_TITLE = rf"{_TITLE_WORDS_NAMED}{_TITLE_END}"
# a post's words where no ending says where a title stops (either side of an arrow, "from A to B")
_POST_WORDS = r"[A-Za-z][\w.&/-]*(?:\s+[A-Za-z][\w.&/-]*){0,4}?"
# where a title is held: "a nurse at St Anne's Hospital" also says where they work
_AT_ORG = rf"(?:\s+(?:(?:over\s+)?at|for|with)\s+{_THE}(?P<org>{NAME}){_NAME_ENDS}(?!\s+{_TEAM_WORDS}\b))?"

_PET_KINDS = "(?i:" + "|".join(kind.replace(" ", r"\s+") for kind in v.PET_KINDS) + ")"


def _plural(kind: str) -> str:
    """A kind of pet in the plural, as English makes it: "puppy" → "puppies", "finch" → "finches", "cat" → "cats"."""
    if re.search(r"[^aeiou]y$", kind):
        return kind[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z)$", kind):
        return kind + "es"
    return kind + "s"


_PET_PLURALS = {_plural(kind): kind for kind in v.PET_KINDS}
# a kind of pet, one or many (the longest form first: "puppies" is not "puppy" and an "s")
_PET_FORMS = sorted({*v.PET_KINDS, *_PET_PLURALS}, key=lambda form: (-len(form), form))
_PETS = "(?i:" + "|".join(form.replace(" ", r"\s+") for form in _PET_FORMS) + ")"
_COUNT = r"(?:a|an|one|two|three|four|five|\d+)"
# the longest first, so that "Haitian Creole" is read whole, not as "Haitian"
_LANGUAGES = (
    "(?:" + "|".join(name.title().replace(" ", r"\s+") for name in sorted(v.LANGUAGES, key=len, reverse=True)) + ")"
)
# a known language however a chat writes it ("I do speak spanish")
_ANY_CASE_LANGUAGE = "(?i:" + "|".join(language.replace(" ", r"\s+") for language in v.LANGUAGES) + ")"
# a language, as spoken: "fluent French", "a little Greek", "French at home"
_SPOKEN_QUALITY = (
    r"(?:(?:a\s+little(?:\s+bit\s+of)?|a\s+bit\s+of|some|basic|decent|good|fluent|conversational|native|passable|"
    r"rusty|enough)\s+)?"
)
# where or with whom it is spoken: "French at home", "Slovak with his parents"
_SPOKEN_WITH = r"(?:\s+(?:at|with|to)\s+(?:(?:my|his|her|their|our|the)\s+)?\w+)?"
_SPOKEN = rf"{_SPOKEN_QUALITY}{_LANGUAGES}{_SPOKEN_WITH}"
_SPOKEN_LIST = rf"(?P<value>{_SPOKEN}(?:(?:,\s*|,?\s+and\s+){_SPOKEN})*)"
# right after a verb of speaking, any capitalised word is a language ("speaks Czech and Slovak"): the list of
# languages cannot hold them all
_LANGUAGE_WORD = rf"(?:{_LANGUAGES}(?![^\W\d_])|[A-Z][^\W\d_]{{2,}})"
_OPEN_SPOKEN = rf"{_SPOKEN_QUALITY}(?:{_LANGUAGE_WORD}|{_ANY_CASE_LANGUAGE}\b){_SPOKEN_WITH}"
_OPEN_SPOKEN_LIST = rf"(?P<value>{_OPEN_SPOKEN}(?:(?:,\s*|,?\s+and\s+|\s*[/&+]\s*){_OPEN_SPOKEN})*)(?![\w'’])"

# "… but don't hold me to it", "don't quote me": what is said is not vouched for
_DONT_HOLD_ME = r"don['’]t\s+(?:quote|hold)\s+me"
# what may stand between an "'s" or an "'d" and the "been" that makes it "has" or "had" ("she's now been living in …",
# "he'd already moved"); the adverbs that change nothing ("currently") are blanked before any pattern reads the text
_ADVERBS_BEFORE_BEEN = r"(?:\s+(?:now|still|also|actually|just|already))*"
# the words of a visit, which say one is somewhere without living or working there
_VISIT_WORDS = r"visit|visiting|visited|trip|holiday|vacation|conference"
# what makes a clause no plain assertion: a wish, a plan, a condition, a hypothesis, a hedge, a visit, a question
_NOT_ASSERTED = re.compile(
    r"\b(?:if|unless|whether|would|could|might|should|must|maybe|perhaps|probably|potentially|possibly|tentatively|"
    r"wish|wishes|dream|dreams|dreamt|dreamed|"
    r"dreaming|hope|hopes|hoping|plan(?:s|ning)?\s+(?:to|on)|planning\s+a|thinking|considering|consider|"
    # (but not "I wanted to let you know that …": news told, not a wish)
    r"(?:want|wants|wanted|wanting)(?!\s+to\s+(?:let\s+\w+\s+know|tell\s+\w+|share|say|mention|update\s+\w+)\b)|"
    # "'d" would, unless it had ("she'd been living in Eger", "he said he'd moved to Pécs")
    rf"going\s+to|gonna|will|shall|about\s+to|love\s+to|like\s+to|['’]d(?!{_ADVERBS_BEFORE_BEEN}\s+"
    r"(?:been|moved|joined|relocated|started|become|settled)\b)|'ll|’ll|imagine|suppose|pretend|"
    r"supposed|supposedly|rumou?r|rumou?red|apparently|someday|one\s+day|never\s+(?:lived|worked)|can't|cannot|"
    rf"try|trying|tried|offered|offer|interview|interviewing|interviewed|applied|applying|apply|{_VISIT_WORDS}|"
    r"think|thinks|guess|believe|reckon|not\s+sure|unsure|heard|seems?|"
    r"acting|interim|temporarily|temporary|skip-level|(?<!than\s)expected|expecting|soon|next\s+(?:week|month|year|sprint|quarter)|"
    rf"assuming|{_DONT_HOLD_ME}|"
    r"provided\s+that|subject\s+to|as\s+long\s+as|proposed|proposes|proposing|proposal|suggested|suggests)\b"
    # a post to be left when a term ends ("stepping down as treasurer at the end of the season"): not yet left
    r"|\b(?:stepping\s+down|retiring)\b(?=[^.;!?]*\bend\s+of\b)",
    re.IGNORECASE,
)
_TAG_QUESTION_RE = re.compile(
    r",\s*(?:remember|right|you\s+know|yeah|eh|ok|okay|isn't\s+it|didn't\s+I|don't\s+I|haven't\s+I)\s*\?+\s*$",
    re.IGNORECASE,
)
# a statement put to be confirmed ("just confirming Zirc ships on the 12th, yeah?"): asked, whatever its tag
_CONFIRMING_RE = re.compile(r"\b(?i:just\s+)?(?i:confirming|double-checking|checking)\b")
# a chat's check that something is so, without its question mark ("Bence owns the Zirc board right"): asked, not said
_CHECKED_RE = re.compile(r"(?<!\bit)(?<!\ball)\s(?i:right)\s*$")  # (not "get it right", "all right")
_MAY_RE = re.compile(r"\bmay\b")  # the verb; "May" is also a month
# a question a chat writes without its question mark: "does Dorka have a cat or …", "where does Ana live now"
_ASKS_RE = re.compile(
    # "remind me: is Kestle due on the 21st, right?": asked to be told, so not said
    r"^(?:(?i:remind\s+me)\b(?!\s+to\b)|"
    r"(?i:who|what|where|when|which|whose|how)\s+(?i:do|does|did|is|are|was|were|has|have|can|will|would)\b|"
    r"(?i:do|does|did|is|are|was|were|can|could|has|have|would|should|shall)\s+(?:[A-Z][\w'’-]*|(?i:I|you|he|she|"
    r"they|we|it|the|your|his|her|their))\b|"
    r"(?i:will)\s+(?i:you|he|she|they|we|it|the|your|his|her|their)\b)"  # "Will Ames moved …" is a name
)
# where a question a sentence ends with begins, after a statement and a break ("…, so can we …?", "… — any tips?")
_QUESTION_AFTER_RE = re.compile(
    r"(?:[,;:]|\s[—–-])\s+(?:(?:so|and|but|then|or)\s+)?(?=(?i:can|could|would|will|shall|should|do|does|did|is|are|"
    r"was|were|have|has|any|anyone|anybody|what|who|whom|where|when|why|how|which|wanna|want|fancy|know|you)\b"
    r"[^,;:—–]*\?\s*$)"
)
# "Example.com" is one word; so is "St. Louis" (a short title or place abbreviation before a name)
_ABBREVIATED = "|".join(
    rf"(?<=\b{word})"
    for word in ("St", "Mt", "Ft", "Dr", "Mr", "Ms", "Mrs", "Jr", "Sr", "Dir", "Mgr", "Assoc", "Asst", "Eng", "Snr",
                 "Prin", "Exec", "Coord", "Mgmt", "Dept")
)  # fmt: skip
# a sentence ends at its full stop, or at the end of its line (a note's lines, a list's items)
_COMPANY_ABBREVIATED = "|".join(rf"(?<=\b{word})" for word in ("Co", "Inc", "Ltd", "Corp", "Bros"))
_SENTENCE_RE = re.compile(
    # an initial does not end a sentence ("Zsófia A. works at Kestle"), nor a company's "& Co." before the sentence
    # goes on ("joined Tisza & Co. in May")
    rf"(?:[^.!?\n]|\.(?=\w)|(?:{_ABBREVIATED})\.(?=\s+[A-Z]|,\s)|(?<=\s[A-Z])\.(?=\s)"
    rf"|(?:{_COMPANY_ABBREVIATED})\.(?=,?\s+[a-z]))+(?:[.!?]+|$|(?=\n))"
)
# (not "getting used to the trams": being used to something is being accustomed to it)
_HISTORY_RE = re.compile(
    r"\b(?:(?<!\bget\s)(?<!\bgetting\s)(?<!\bgot\s)(?<!\bam\s)(?<!['’]m\s)(?<!\bbe\s)used\s+to|formerly|previously|"
    r"back\s+then)\b",
    re.IGNORECASE,
)
_UNTIL_RE = re.compile(r"\b(?:until|till|up\s+to|through)\b", re.IGNORECASE)

# --- clauses: one subject and one assertion each --------------------------------------------------------------------

# the verbs of keeping a system ("owns", "maintain", "looks after")
_KEEPS = r"(?:owns?|maintains?|runs?|looks?\s+after)"
# "Noor, who lives in Ghent, now reports to Piet": two clauses about Noor
# (after what the name is, too: "Noor Aziz, a retired judge who lives in Eger, …")
_RELATIVE_RE = re.compile(
    # ("Bence Vass, staff designer, who …": a post apposed without its article, commas around it)
    # ("the Zirc Billing team, who own Kestle": a team's relative too, when it says what the team owns)
    rf"\b(?P<name>{NAME}(?P<team>\s+{_TEAM_WORDS})?),\s+(?:(?:an?|the|our|their|my)\s+[a-z][a-z' -]{{0,40}}?\s+|"
    r"(?!(?:an?|the|our|their|my)\s)[a-z][\w'-]*(?:\s+[\w'-]+)?,\s+)?"
    r"who(?:\s+|(?P<is>['’]s\s+))"
    rf"(?(team)(?=(?:now\s+|also\s+)?{_KEEPS}\s+(?!(?:it|them)\b)))"
    # (the clause runs on through a list of names to its end: "who speaks Yoruba, Igbo and English.")
    r"(?P<said>[^,]+?(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})*(?:,?\s+and\s+[A-Z][\w'’-]*)?)"
    r"(?:,\s*|(?=[.!]?\s*$))"
)
# "The rate checker, which Risk Ops owns, …": the owner's clause
_WHICH_OWNS_RE = re.compile(
    rf"\b(?P<thing>(?:[Tt]he\s+)?[\w'’ -]{{2,40}}?),\s+which\s+(?:(?:the\s+)?(?P<owner>{NAME}(?:\s+team)?)\s+"
    r"(?P<verb>owns|maintains|runs|looks\s+after)|(?:is|are)\s+(?:now\s+)?(?P<passive>owned|maintained|run)\s+by\s+"
    rf"(?:the\s+)?(?P<by>{NAME}(?:\s+team)?))(?:\s+now)?(?:[,;]\s*|(?=[.!]?\s*$))"
)
# a name right after "from", "at", "with", "for" or "of" is where someone is, not someone: what an apposition says of
# it is what the organisation is to us ("Nandor from Brightwell, our integration partner")
_AFTER_PREPOSITION_RE = re.compile(r"\b(?:from|at|with|for|of)\s+$")
# a name after these is where, or for whom, something is: no subject a later pronoun goes back to
_PLACED_RE = re.compile(r"\b(?:from|at|with|for|of|in|into|near|via)\s+$")
# "Piet, our CFO, lives in Turin": Piet is our CFO; Piet lives in Turin
_APPOSED_ROLE_RE = re.compile(
    rf"\b(?P<name>{NAME}),\s+(?P<role>(?:our|the|their|his|her|my|a|an)\s+(?:(?!\b(?:is|are|was|were)\b)[^,.!]){{2,40}}?)"
    r"(?:,\s*|(?=[.!]?\s*$))"
)
# a second subject whose verb is left out, the first's understood ("Bence lives in Szeged, Dorka in Pécs", "Bence is
# head of support and Dorka head of sales"): the verb said again for the second
_GAPPED_RE = re.compile(
    rf"(?P<first>\b{NAME}\s+(?P<verb>lives|works|reports|moved|is\s+based|is)(?P<prep>\s+(?:in|at|for|to))?\s+[^,;.!?()]+?)"
    rf"(?P<between>,\s+(?:and\s+|while\s+|whereas\s+)?|;\s+|\s+(?:and|while|whereas)\s+)(?P<second>{NAME})"
    r"(?P<gap>\s+(?:in|at|for|to)\s+(?=[A-Z])|\s+(?!(?:is|are|was|were|has|have|had|will|would|can|could|and|or|"
    r"lives|works|reports|moved|speaks|owns|joined|left)\b)(?=[a-z][\w-]*\s+(?:of|[a-z]+)\b))"
)
# a month by its name or its abbreviation ("Apr", "Sept.", "April")
_MONTH_WORDS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# the verbs that give a project its day ("Zirc ships April 6", "Kestle is due on 4 May")
_SCHEDULE_VERB = r"(?:ships|launches|lands|goes\s+live|is\s+due|releases)"
# a schedule gapped the same way: "Zirc ships April 6, Kestle May 4", "Zirc launches on 6 April and Kestle on 4 May"
_GAPPED_DAY_RE = re.compile(
    rf"(?P<first>\b{NAME}\s+(?P<verb>{_SCHEDULE_VERB}|is\s+scheduled)"
    r"(?P<prep>\s+(?:on|for))?\s+[^,;.!?()]+?)(?P<between>,\s+(?:and\s+)?|;\s+|\s+and\s+)"
    rf"(?P<second>[{_UPPER}][\w-]*(?:\s+(?!{_MONTH_WORDS}\s)[{_UPPER}][\w-]*){{0,2}})"
    rf"(?P<gap>\s+(?:on|for)\s+|\s+)(?=\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH_WORDS}|{_MONTH_WORDS}\s+\d|the\s+\d)"
)

# … and an owner's: "Tisza Ops owns the Zirc exporter and Vashegy the Kestle gateway"
_GAPPED_KEEPER_RE = re.compile(
    rf"(?P<first>\b{NAME}\s+(?P<verb>owns|maintains|runs|looks\s+after)(?P<prep>)\s+[^,;.!?()]+?)"
    rf"(?P<between>,\s+(?:and\s+|while\s+|whereas\s+)?|;\s+|\s+(?:and|while|whereas)\s+)(?P<second>{NAME})"
    r"(?P<gap>\s+)(?=(?:the|our)\s+[\w`]|`)"
)

_SCHEDULE_VERBS = ("ships", "launches", "lands", "live", "due", "scheduled", "releases")
_KEEPING_VERBS = ("owns", "maintains", "runs", "looks after")


def _verb_said_again(match: re.Match[str]) -> str:
    """A gapped clause's second subject with the first's verb again ("…, Dorka lives in Pécs", "…, Kestle ships May 4",
    "… and Vashegy owns the Kestle gateway")."""
    return f"{match['first']}{match['between']}{match['second']} {match['verb']}{match['gap']}"


# the same predicate said of another by "does" ("…, as does Dorka", "…; so does Dorka", "… and so does Dorka")
_SO_DOES_RE = re.compile(
    rf"\b{NAME}\s+(?P<said>(?:lives|works|reports|speaks|owns)\s+[^,;.!?]+?)(?:,\s+as\s+does|[,;]?\s+(?:and\s+)?so\s+does)\s+"
    rf"(?P<second>{NAME})(?=\s*(?:[.,;!]|$|\s+too\b))"
)


def _ungapped(match: re.Match[str]) -> str:
    """The second subject with the first's verb again, when what is left of its clause fits it: the same preposition,
    or a post after "is"."""
    prep, gap = (match["prep"] or "").strip(), match["gap"].strip()
    rest = match.string[match.end() :]
    if prep != gap or (not prep and match["verb"] != "is"):
        return match.group(0)  # ("Bence moved his practice to Eger, Dorka started at …": Dorka has a verb of her own)
    if match["verb"] == "is" and (prep or _role_head(rest.split(",")[0].split(".")[0]) not in v.ROLE_NOUNS):
        return match.group(0)
    return _verb_said_again(match)


# "After six years at Kestle, Bence started at Quillon"
_TENURE_RE = re.compile(
    # ("After six years at Kestle I've joined Zirc": a name after the workplace needs the comma, "I" does not)
    rf"^After\s+(?:\w+\s+){{1,2}}(?:years?|months?|decades?)\s+(?:at|with)\s+(?P<org>{NAME})(?:,\s+|\s+(?=I\b))"
    rf"(?P<who>I(?=['’](?:ve|m|d)\b|\s+[a-z])|{NAME}(?=\s+[a-z]))"
)
# "Bence Vass, formerly of Kestle Labs, joined …", "Dorka (previously of Eger)": where someone was before, a town
# their home, anywhere else their employer
_FORMERLY_OF_RE = re.compile(
    rf"(?<![Tt]he\s)\b(?!(?:The|A|An)\s)(?P<name>{NAME})(?:,|\s+\()\s*(?:formerly|previously|once|late)\s+of\s+(?:the\s+)?(?P<where>{NAME})"
    r"(?=\s*[,)])"
)
# a town or a language compounded before a noun: "Szeged-based", "Hungarian-speaking"
_COMPOUND = rf"[{_UPPER}][\w'’]+(?:\s+[{_UPPER}][\w'’]+)?"
_COMPOUND_RE = re.compile(rf"(?<![\w-])(?P<said>{_COMPOUND})-(?:based|speaking)\s+")
_COMPOUNDED_RE = re.compile(
    rf"(?P<name>{NAME}),\s+an?\s+(?P<said>{_COMPOUND})-(?P<kind>based|speaking)\b"
    # (not "a Portuguese-speaking CSM": someone's kind, no one named)
    rf"|(?<![\w-])(?<![Aa]\s)(?<![Aa]n\s)(?<![Tt]he\s)(?P<said2>{_COMPOUND})-(?P<kind2>based|speaking)\s+(?P<name2>{NAME})"
)


def _compounds_said_apart(sentence: str) -> str:
    """A town or a language compounded before the one named or their post ("Szeged-based Bence Vass", "Bence, a
    Hungarian-speaking nurse, …") said as a statement of its own after the sentence, the words read without it."""
    said = []
    for match in _COMPOUNDED_RE.finditer(sentence):
        name = match["name"] or match["name2"]
        compounded, kind = match["said"] or match["said2"], match["kind"] or match["kind2"]
        if not _a_person(name) or _business_name(name) or name.isupper() or _a_title(name):
            continue
        if kind == "based" and known_place(compounded):
            said.append(f"{name} is based in {compounded}")
        elif kind == "speaking" and compounded.casefold() in _LANGUAGE_SET:
            said.append(f"{name} speaks {compounded}")
    if not said:
        return sentence
    bare = _COMPOUND_RE.sub(
        lambda m: "" if known_place(m["said"]) or m["said"].casefold() in _LANGUAGE_SET else m.group(0), sentence
    )
    end = re.search(r"[.!?]*\s*$", bare).start()
    return f"{bare[:end]}; {'; '.join(said)}{bare[end:]}"


# a person named with their employer: "Tisza Analytics' Bence Vass", "Bence Vass of Tisza Analytics", "Bence Vass,
# Tisza Analytics' head of support,"
_EMPLOYER_BEFORE_THE_NAME_RE = re.compile(
    rf"(?P<org>{NAME})(?:['’]s|(?<=s)['’])\s+(?P<name>[{_UPPER}][\w'’-]+(?:\s+[{_UPPER}][\w'’-]+){{0,2}})(?=\s+[a-z]|,)"
)
_EMPLOYER_AFTER_THE_NAME_RE = re.compile(
    rf"(?<![\w'’-])(?P<name>[{_UPPER}][\w'’-]+(?:\s+[{_UPPER}][\w'’-]+){{0,2}})"
    rf"(?:\s+of\s+(?P<org>{NAME})(?=\s+[a-z]|,)|,\s+(?P<org2>{NAME})(?:['’]s|(?<=s)['’])\s+"
    r"(?P<title>[a-z][\w-]*(?:\s+(?:of\s+)?[a-z][\w-]*){0,3}),)"
)
# a post said before the name it is held by, as news writes it: "Head of support Bence Vass", "Tisza Analytics CTO
# Dorka Fehér"
_POST_BEFORE_THE_NAME_RE = re.compile(
    rf"^(?P<title>(?:[\w&'’-]+\s+){{0,4}}?(?:[A-Z]{{2,4}}|[a-z][a-z-]+))\s+"
    rf"(?P<name>[{_UPPER}][\w'’-]+\s+[{_UPPER}][\w'’-]+)\s+(?=[a-z])"
)

_NOT_A_POST_HELD = frozenset({"former", "ex", "retired", "outgoing", "late", "then", "acting", "interim", "future"})


def _post_before_the_name(text: str) -> list[str]:
    """The post a clause's opening phrase gives the person it names, and the employer before the post when it names
    one: "Head of support Bence Vass gave the talk", "Tisza Analytics CTO Dorka Fehér said …"."""
    posted = _POST_BEFORE_THE_NAME_RE.match(text)
    if posted is None or not _a_person(posted["name"]) or _business_name(posted["name"]):
        return []
    name, words = posted["name"], posted["title"].split()
    if _NOT_A_POST_HELD & {word.casefold() for word in words}:
        return []  # "Former CTO Dorka Fehér", "Acting head Bence": no post held now
    words = [word for word in words if word.casefold() not in {"new", "newly", "incoming"}]
    for at in range(1, len(words)):  # an employer's name, then the post ("Tisza Analytics | CTO")
        if at == 1 and words[1][:1].islower():
            continue  # ("Data engineer Bence Vass": a sentence's first word is capitalised as it opens it)
        org, title = " ".join(words[:at]), _a_title(" ".join(words[at:]))
        # (an employer by its name, or any name before a post in capitals: "Kestle CTO")
        if title and re.fullmatch(NAME, org) and (_business_name(org) or words[at].isupper()) and not _a_title(org):
            return [f"{name} is the {title}", f"{name} works at {org}"]
    return [f"{name} is the {title}"] if words and (title := _a_title(" ".join(words))) else []


def _named_with_employer(text: str) -> list[str]:
    """What the phrase naming a person says of where they work (and of their post, when it says it)."""
    said = []
    for match in _EMPLOYER_BEFORE_THE_NAME_RE.finditer(text):
        if _business_name(match["org"]) and _a_person(match["name"]) and not _business_name(match["name"]):
            said.append(f"{match['name']} works at {match['org']}")
    for match in _EMPLOYER_AFTER_THE_NAME_RE.finditer(text):
        org = match["org"] or match["org2"]
        name = _person(match["name"])
        if not (name and _business_name(org) and _a_person(name)) or _business_name(name) or _a_title(name):
            continue
        said.append(f"{name} works at {org}")
        if match["title"] and (title := _a_title(match["title"])):
            said.append(f"{name} is the {title}")
    return said


# "my family and I", "my wife and I": the speaker, with company (one clause, not two subjects)
_WITH_ME_RE = re.compile(rf"\b(?:[Mm]y|[Oo]ur)\s+{_RELATION}\s+and\s+I\b")
# "Bence (now living in Eger) …", "Nandor (my manager) says …": what the brackets say is said of the name; a
# bracket that dates the statement ("(effective 1 Aug)") stays with it
# a name and the post apposed to it, just before a bracket: "Bence Kádár, their new CTO ("
_TITLE_APPOSED_TO_RE = re.compile(rf"(?P<name>{NAME}),\s+(?:(?:their|our|the|his|her|its|an?)\s+)?(?:new\s+)?$")
_BRACKETED_RE = re.compile(
    rf"\b(?P<name>{NAME})\s*\((?!(?:effective|from|since|as\s+of|until|starting)\b|\d{{4}}\s*[–—-]\s*\d{{2,4}}\))"
    r"(?P<said>[^()]{3,60}?)(?:,\s*by\s+the\s+way)?\)"
)


# a bracket after a value that names the one before it: "owned by Tisza Data (was the Kestle team)", "(previously
# Kestle)", "(formerly owned by Kestle Ops; moved in spring)", "(handed over by Kestle yesterday)": read as a contrast
# the statement's reading takes ("Tisza Data, before it was Kestle")
_WAS_BEFORE_RE = re.compile(
    rf"\b(?P<name>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})(?P<now>\s+now)?\s*\(\s*(?:(?:was|formerly|previously|until\s+recently)"
    r"(?:\s+(?:owned|run|maintained|held)\s+by)?|(?:handed|taken)\s+over\s+(?:by|from))(?:\s*:)?\s+(?:the\s+)?"
    rf"(?P<old>{NAME}|{_HANDLE})(?P<rest>[^()]*)\)"
)


# a reference day for asking only whether words name a day at all
_ANY_DAY = date(2000, 1, 1)
# (a pet said to be "the cat" is the household's: the speaker's)
_BRACKETED_PET_RE = re.compile(rf"(?P<whose>[Mm]y|[Oo]ur|[Tt]he|{NAME}['’]s)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PETS})")
# the names a bracket of pets of one kind comes after: "Mák and Bodri (our dogs)"
_NAMES_BEFORE_RE = re.compile(rf"(?:{NAME},\s+)*{NAME},?\s+and\s+$")


def _was_before(match: re.Match[str]) -> str:
    """The value and the one before it, and the day of the change when the bracket says only that ("(handed over by
    Kestle yesterday)"); a bracket that says until when the one before held ("(was Kestle until May)") is left out, as
    its end is a day this reading would not give."""
    rest = match["rest"].strip()
    if _UNTIL_RE.search(rest):
        return match["name"]
    dated = rest and re.fullmatch(r"[\w ]{1,24}", rest) and tag_dates(rest, reference=_ANY_DAY)
    return f"{match['name']}{match['now'] or ''}, before it was {match['old']}{f', {rest}' if dated else ''}"


def _dated_bracket(match: re.Match[str]) -> bool:
    """A bracket after a day's month ("due 9 December (it slipped from 4 December)") goes on with the statement; it
    says nothing of the month."""
    return match["name"].split()[-1].casefold() in _CALENDAR_NAMES


# "The new director of engineering, Réka, is …": Réka is the new director of engineering
_ROLE_FIRST_RE = re.compile(
    # ("My sister, Dorka, moved to Pécs": whoever she is to the speaker, the clause is hers)
    # (not "My boss, Réka, …", which says whom the speaker reports to: that is read as it is)
    rf"^(?P<role>(?:[Tt]he|[Oo]ur|[Tt]heir)\s+(?:new\s+)?[a-z][\w -]{{2,40}}?|(?:[Mm]y|[Hh]is|[Hh]er)\s+"
    rf"(?!(?:boss|manager|colleague)\b){_RELATION}),\s+(?P<name>{NAME}),\s+(?=[a-z])"
)
# "Dorka's husband, Bence, works at Kestle", "Dorka's husband Bence works …": the clause is Bence's (the speaker's
# relatives are the role-first reading's)
_RELATIVE_FIRST_RE = re.compile(
    rf"^(?:{NAME}['’]s|[Tt]heir)\s+(?!(?:boss|manager|colleague)\b){_RELATION}(?P<comma>,)?\s+(?P<name>{NAME})"
    r"(?(comma),)\s+(?=[a-z])"
)
# "Omar's parrot, Kiwi, can whistle": Omar has a parrot called Kiwi
# "Omar's cats, Pogácsa and Mák, …", "The rabbit, Bükk, is still furious" (a household's own, when it opens the
# clause: not "the office dog, Bodri")
# a pet's names in a list ("Bab, Borsó and Mák")
# (a name after "and" that goes on with a verb of its own, in the singular, is the next clause's subject: "a cat named
# Mák and Dorka has a dog"; "Mák and Bors have decided" is the list's)
_PET_NAME_LIST = (
    rf"{NAME}(?:,\s*{NAME}){{0,4}}(?:,?\s+(?:and|&)\s+{NAME}"
    r"(?!\s+(?:has|is|was|lives|works|owns|keeps|speaks|reports)\b))?"
)
_APPOSED_PET_RE = re.compile(
    # ("her dog Bodri" needs no comma: whose "her" is, is read from the sentence)
    rf"(?:\b(?:(?P<owner>{NAME})(?:'s|’s)|(?P<mine>[Mm]y|[Oo]ur)|(?P<theirs>his|her|their))\s+(?:\w+\s+)?|"
    rf"^(?P<the>[Tt]he)\s+)(?P<kind>{_PETS})(?(theirs),?|,)\s+(?P<name>{_PET_NAME_LIST}),?"
)
# a bracket that opens with what kind of pet the name before it is ("(dachshund, 4)", "(budgie)")
_KIND_IN_BRACKET_RE = re.compile(
    rf"(?!(?:an?|the|my|our|his|her|their|[\w-]+['’]s)\s)(?:[\w-]+\s+)?(?P<kind>{_PET_KINDS})\s*(?:,|$)"
)
# a pet met, seen or kept by someone else
_SOMEONE_ELSES_PET_RE = re.compile(
    r"\b(?:owner|owners|saw|seen|met|spotted|neighbou?r['’]?s?|friend['’]s|walking|sitting|pet-?sitting)\b", re.I
)
_FIRST_PERSON_OWNER_RE = re.compile(r"\b(?:I|my|me|mine|I['’]m|I['’]ve)\b")


def _pet_keeper(text: str, before: int, *, lead_first: bool = False) -> str:
    """Whose pet "his" / "her" / "their" pet is: the last person named before it, else the person the clause opens
    with (first, with ``lead_first``, where the names before it may be the pets': "Freya walks Juno and Bodri, her
    two whippets"). A label the clause opens with ("Update from the office: …") is no one."""
    lead = _LEAD_RE.match(text)
    lead = (
        lead.group(0)
        if lead
        and lead.group(0).casefold() not in _SECTION_WORDS
        and lead.group(0) != "I"
        and not _POSSESSIVE_INSIDE_RE.search(lead.group(0))
        else ""
    )
    if lead_first and lead and not re.match(r"[^:]{0,60}:\s", text):
        return lead
    people = [
        m.group(0)
        for m in re.finditer(NAME, text[:before])
        # (not a place, "lives in Tata with her cat", nor a post, "our VP of engineering")
        if _a_person(m.group(0))
        and not _PLACED_RE.search(text, 0, m.start())
        and not _GONE_TO_RE.search(text, 0, m.start())  # ("moved to Eger; … his iguana": no one's)
        and not _a_title(m.group(0))
    ]
    people = [
        name
        for name in people
        if name.split()[0] not in _NOT_A_NAME and _person(name) == name and not _POSSESSIVE_INSIDE_RE.search(name)
    ]
    return people[-1] if people else lead


# a name with a possessive inside is no one's: "Father's Day", "St Anne's Hospital"
_POSSESSIVE_INSIDE_RE = re.compile(r"\w['’]s\s")


_GONE_TO_RE = re.compile(r"\b(?:moved|moving|relocated|relocating|went|back|emigrated)\s+to\s+$")
_MY_PET_RE = re.compile(rf"(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PETS})", re.IGNORECASE)
# the first of two names, just before the second ("Juno and " before "Bodri")
_FIRST_OF_A_PAIR_RE = re.compile(rf"(?P<first>{NAME})\s+and\s+$")
_THEIR_PET_RE = re.compile(rf"(?:his|her|their)\s+(?:[\w-]+\s+){{0,3}}?(?P<kind>{_PETS})", re.IGNORECASE)
_A_PET_RE = re.compile(rf"(?:an?|the)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PET_KINDS})", re.IGNORECASE)
# a verb by which a pet comes to its owner, just before the pet's name
_TAKEN_IN_RE = re.compile(
    r"\b(?:I|[Ww]e|[A-Z][\w'’-]*)(?:['’]ve|\s+have|\s+has|\s+just|\s+finally)*\s+(?:adopted|rescued|got|took\s+in)\s+$"
)
_PET_GONE_RE = re.compile(
    r"\b(?:passed\s+away|passed(?=\s*(?:[.!,;]|$)|\s+(?:\w+\s+){0,2}ago\b|\s+(?:last|yesterday|this)\b)|died|"
    r"rehomed?|rehoming|gave\s+up|give\s+up|put\s+down|put\s+to\s+sleep|lost|gave\s+\w+\s+away|"
    r"gave\s+(?:my|our|his|her|their)\s+(?:[\w-]+\s+){1,3}?(?:to|away)\b|put\s+(?:my|our|his|her|their)\s+(?:[\w-]+\s+){1,3}?down|"
    r"given\s+away|said\s+goodbye\s+to|put\s+[A-Z][\w'’-]*\s+down)\b|(?-i:\bRIP\b)",
    re.IGNORECASE,
)
# a clause opening with where or when it happened ("After the reorg, …", "In March, …"): the rest is the clause
_OPENER_RE = re.compile(
    # (an opener holds no statement of its own: "From today Bence reports to Dorka, before it was Ilona" is one)
    r"^(?:After|Following|Since|As\s+of|In|On|Before|From|By|Back\s+in)\b"
    r"(?![^,]*\b(?:I|we|he|she|they|reports?|lives?|works?|owns?|speaks?|moved|joined|left)\b)[^,]{0,30},\s+"
)
# the months and weekdays by name; "May" is also a person's name, so a name's first word can be it
_MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december".split()
)
_CALENDAR_NAMES = _MONTH_NAMES | frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
_CALENDAR = _CALENDAR_NAMES - {"may"}
# days and months as notes shorten them ("joined Mon", "moved to Thurs")
_CALENDAR_SHORT = frozenset(
    "mon tue tues wed weds thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# an opener that says when ("In March, ", "Since the reorg in May, "): a month, a year, "last year"
_DATED_OPENER_RE = re.compile(
    r"\b(?:\d{4}|(?i:"
    + "|".join(sorted(_CALENDAR_NAMES - {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}))
    + r")|(?:last|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter))\b"
)
_SINCE_RE = re.compile(
    r"^(?:Since|Now\s+that|Ever\s+since|When|Once)\s+(?=I\b|[A-Z])"
    # "When Noor joins Kestle, …" is a change to come: its clause keeps its "when"
    r"(?!(?:[A-Z][\w'’-]*\s+){1,3}(?:joins|moves|starts|leaves)\b)"
    # "Since March I've …" dates the clause
    rf"(?!(?:{'|'.join(sorted(name.capitalize() for name in _CALENDAR_NAMES))})\b)"
)
# another subject's clause: ", and Piet took over …", " but I …"
_NEW_SUBJECT_RE = re.compile(
    r",?\s+(?:and|but|while|whereas|so|though|because)\s+"
    r"(?:(?:now|then|later|today|also|honestly|since\s+then|as\s+of\s+\w+|(?:for|right|just)\s+now|these\s+days|currently|"
    r"at\s+the\s+moment|(?:last|this)\s+(?:week|month|year))\s+)?"
    r"(?=(?:I|[A-Z][\w'’-]*|he|she|they)(?:\s+|['’])[a-z'’])"
    # "Kestle ships on 2 May, and Quillon on 16 May": the same verb understood, one clause for the day reader
    r"(?!(?:[A-Z][\w'’.-]*\s+){1,3}(?:on|by)\s+(?:the\s+)?(?:\d|[A-Z][a-z]+\.?\s+\d))"
    # after a comma, another subject's statement: "…, so my hours will shift", "ask Piet, he's the SRE lead"
    r"|,\s+(?:and|so|but|because)\s+(?=(?:my|our|his|her|their|the|it|its)\s)"
    # "I'd love a dog but my flat in Eger is tiny": what the speaker has, after a wish
    r"|\s+but\s+(?=(?:my|our)\s)"
    r"|,\s+(?=(?:he|she|they)(?:['’](?:s|re)\s|\s+(?:is|was|has|had|now|just|moved|works|lives|reports|speaks)\b))"
    # "…, and in July, Nandor joined …": another subject's clause after its time
    r"|,?\s+and\s+(?:in|on|by|from|since|after|last|this|next)\s+[^,]{1,25},\s+(?=[A-Z][\w'’-]*\s)"
    # a comma splice: "I left Győr for good, Szeged is home now"
    r"|,\s+(?=[A-Z][\w'’-]+\s+(?:is|was)\s+(?:home|now)\b)"
    # an imperative after a comma is a clause of its own ("I moved to Ghent last week, come and see it!")
    r"|,\s+(?=(?:come|let's|call|drop|see|visit|check|give|send|tell|ask|wish|pop)\b)"
    # "…, so route approvals to him now": what to do about it, with its own time
    r"|,\s+so\s+(?=(?:please\s+)?(?:route|send|ping|ask|contact|call|e-?mail|message|tag|loop|update|tell|check|use|"
    r"direct|point)\b)"
    # a change that may come after one made is a clause of its own: "moved to Eger in May, might move again next
    # year", "we're renting in Eger for now, until we know if it suits us"
    r"|,\s+(?=(?:(?:but|and)\s+)?(?:might|may|could|will\s+probably|probably|maybe)\s+(?:move|leave|go|switch|change)\b)"
    r"|,\s+(?=until\s+(?:we|I|they|he|she)\s+(?:figure|know|decide|see|find)\b)"
    # a condition after a complete statement does not make it hypothetical ("… is hiring, if you know anyone", "… is
    # Dorka, if this needs to go higher": when to turn to what holds)
    r"|,?\s+(?=(?:if|unless|in\s+case)\s+(?:you|anyone|anybody|someone|somebody|needed|necessary|required|this|that|"
    r"it|anything|something|there)\b)"
)
_NAMED_PET_BEFORE_RE = re.compile(rf"\b{_PETS}\s+{NAME}$")
_SPEAKING_RE = re.compile(r"\b(?:speak|speaks|spoke|spoken|fluent|languages?)\b", re.IGNORECASE)


def _new_subjects(part: str) -> list[str]:
    """``part`` split where another subject's clause begins; a list of what someone speaks stays whole."""
    pieces, start = [], 0
    for match in _NEW_SUBJECT_RE.finditer(part):
        word = re.match(r"([A-Z][^\W\d_]+)(\s+(?:at|in|on|with|for|to)\b)?", part[match.end() :])
        spoken = word and (word[2] or word[1].casefold() in _LANGUAGE_SET)
        if spoken and _SPEAKING_RE.search(part, 0, match.start()):
            continue
        if _NAMED_PET_BEFORE_RE.search(part[: match.start()]):  # "my cats Mák and Bors say hi": one pair of pets
            continue
        pieces.append(part[start : match.start()])
        start = match.end()
    return [*pieces, part[start:]]


# the same subject's next verb: "works at Kestle and lives in Osaka"
_VERBS = (
    r"(?:lives?|living|lived|works?|working|worked|moved|joined|reports?|reported|speaks?|spoke|has|have|had|owns?|"
    r"left|became|is|was|took|started|manages?|got|grew|walks?|adopted|relocated|quit|calls|does\s+not|doesn['’]t)"
)
# a verb in the third person that goes on with the subject before it, in a list of what is said of one person
_LISTED_VERBS = (
    r"(?:lives|works|reports|speaks|owns|manages|left|joined|moved|relocated|quit|became|has|is\s+fluent|"
    r"no\s+longer|doesn['’]?t)"
)
_SAME_SUBJECT_RE = re.compile(
    # ("Bence lived in Pécs but now lives in Szeged": the same subject, its verb now)
    rf",?\s+(?:and|but)\s+(?=(?:now\s+|also\s+|still\s+)?{_VERBS}\b)"
    # "… is now head of ops at Brightwell, reporting to Nandor": the same subject, going on
    r"|,\s+(?=(?:now\s+)?(?:reporting|living|working|based)\s+(?:directly\s+)?(?:to|into|in|at|for|out)\b)"
    # "I'm based in Eger, work for Kestle as …": the first person's verbs, listed
    r"|,\s+(?=(?:now\s+|also\s+)?(?:work|live|report)\s+(?:for|at|in|to)\s+[A-Z])"
    r"|(?<!\bbeen)(?<!\bis)(?<!\bam)(?<!\bare)(?<!\bwas)(?<!\bwere)(?<![’'](?:m|s))(?<![’']re)(?<!\bnow)(?<!\bstill)"
    r"(?<!\bstopped)(?<!\bstarted)(?<!\bbegan)(?<!\bkeeps)(?<!\bkept)(?<!\bquit)(?<!\bresumed)(?<!\bcontinues)"
    # ("isn't reporting to", "no longer reporting to": one verb, negated)
    r"(?<!n['’]t)(?<!\bnot)(?<!\blonger)(?<!\bnever)"
    r"\s+(?=reporting\s+(?:directly\s+)?to\b)"
    # a note's "left Kestle in June, now at Brightwell, still lives in Szeged": the same subject, said in parts
    r"|,\s+(?=(?:now|still)\s+(?:at|in|with|under|lives|works|reports|speaks|living|working|reporting)\b)"
)
# predicates listed after one subject ("N lives in Győr, speaks Czech; works at Kestle"): each verb is the
# subject's, never the name just before it ("Győr speaks")
_LISTED_PREDICATE_RE = re.compile(rf"\s*[,;]\s+(?=(?:now\s+|also\s+|still\s+)?{_LISTED_VERBS}\b)")
# "Kestle's new CTO, Nandor Vass, joined …": a name apposed between commas is the subject the verb goes on with
_APPOSED_NAME_END_RE = re.compile(rf",\s+{NAME}$")


_LISTED_AFTER_NAME_RE = re.compile(rf"{NAME}(?:,|\s+[—–-])\s+(?:now\s+|also\s+|still\s+)?{_LISTED_VERBS}\b")


def _predicates(part: str) -> list[str]:
    """A clause as the parts its subject's verbs say, joined by "and", a comma or a semicolon."""
    pieces: list[str] = []
    for piece in _SAME_SUBJECT_RE.split(part):
        start = 0
        for listed in _LISTED_PREDICATE_RE.finditer(piece):
            if not _APPOSED_NAME_END_RE.search(piece, 0, listed.start()):
                pieces.append(piece[start : listed.start()])
                start = listed.end()
        pieces.append(piece[start:])
    return pieces


# something left for someone: "left a voicemail for the buyer at Kestle", "left a note for him"
_LEFT_FOR_SOMEONE_RE = re.compile(
    r"\s+(?:(?:the|a|an|your|his|her|their|my|our)\s+(?P<who>[a-z]+)\s+(?:at|from)\b|(?:him|her|them|you|me|us)\b)"
)


def _left_for_someone(match: re.Match[str]) -> bool:
    """Whether what a "left X for" statement left was left for a person (a message), not for another job."""
    left = _LEFT_FOR_SOMEONE_RE.match(match.string, match.end())
    return bool(left) and (not left["who"] or left["who"] in v.ROLE_NOUNS | _PARTIES)


_PARTIES = frozenset("buyer client customer contact recruiter caller vendor supplier".split())
_DROPPED_I_RE = re.compile(
    r"^(?=(?:(?:just|finally|recently|officially|already|also)\s+)?(?:started|moved|joined|relocated|switched|swapped|quit|left|"
    r"learned|learnt|got\s+(?:promoted|demoted|bumped|laid\s+off)|"
    r"laid\s+off|got\s+a\s+(?:new\s+)?job|promoted|adopted|went\s+from|was\s+(?:promoted|hired|made|named|appointed)|"
    r"took\s+a\s+(?:new\s+)?job|used\s+to|worked|lived|grew\s+up|got\s+(?:a|an|two|three)\s+(?:new\s+)?(?:[\w-]+\s+)?"
    # (a pet given up or lost: "Rehomed our rabbit Bodri last week")
    rf"{_PETS}|(?:rehomed|lost|buried)\s+(?:my|our)\s+(?:[\w-]+\s+)?{_PETS})\b)",
    re.IGNORECASE,
)
# a note's line about the person it opens with, in the third person: "N — now lives in Győr (prev Szeged)",
# "N: doesnt speak spanish actually"
_THIRD_PERSON_LINE_RE = re.compile(
    r"^(?:(?:now|still)\s+)?(?:lives|works|reports|speaks)\b|^(?:doesn['’]?t|don['’]?t|no\s+longer)\s+"
    r"(?:speak|live|work|report|own)s?\b",
    re.IGNORECASE,
)
# the same line going on with what its person is or has ("Zsófia — is head of support", "— has two cats")
_BEING_OR_HAVING_LINE_RE = re.compile(r"^(?:(?:now|still|also)\s+)?(?:is|has)\s+(?=[a-z])")
# a post said alone with when it began: "Logistics coordinator since Monday", "senior analyst now", "… as of today"
_DROPPED_TITLE_RE = re.compile(
    r"^(?:(?:a|an)\s+)?(?P<title>[\w&/ -]{3,40}?)\s+"
    r"(?P<when>now|since\s+[\w ]{3,30}?|as\s+of\s+[\w ]{3,30}?|from\s+today)(?=\s*(?:[,.!;]|$))",
    re.IGNORECASE,
)
_DROPPED_EARLIER_RE = re.compile(
    # ("Previously 6 years at Kestle", "Before that, four years building payments at Zirc": how long and doing what)
    r"^(?i:previously|formerly|before\s+that),?\s+(?:(?:\d+|an?|\w+)\s+(?:years?|yrs|months?|decades?)\s+"
    rf"(?:[a-z]+ing(?:\s+[a-z]+){{0,2}}\s+)?)?(?:at|with)\s+(?P<org>{NAME})"
)
# a sentence that is only a post at an employer, as a chat or a profile writes its own ("Software tester at Kestle.")
_DROPPED_CARD_RE = re.compile(rf"^(?P<title>[{_UPPER}][\w&/ -]{{2,40}}?)\s+(?:at|@)\s+(?P<org>{NAME})\s*[.!]?$")
# "Irish speaker, happy to chat as Gaeilge", "native Twi + English speaker"
_LANGUAGE_SPEAKER = rf"(?:an?\s+)?(?:native\s+|fluent\s+)?{_LANGUAGES}(?:\s*(?:\+|,|/|and)\s*{_LANGUAGES})*\s+speaker\b"
# a note's line about the person it is about that says only what they speak: "Met Bence at the fair. Native Finnish
# speaker."
_SPEAKER_FRAGMENT_RE = re.compile(rf"^(?:an?\s+)?(?={_LANGUAGE_SPEAKER})", re.I)
# the subject of the clause a phrase opens ("Based in Szeged, he works remotely"): no dropped "I" before it
_OPENER_OF_ANOTHER_RE = re.compile(r"(?:he|she|they|you)\b", re.IGNORECASE)
_DROPPED_I_AM_RE = re.compile(
    r"^(?:staying(?:\s+put)?\s+at|staying\s+put\s+in|(?:still\s+)?renting|based\s+(?:in|out\s+of)\s+(?=[A-Z])|"
    r"reporting\s+(?:directly\s+)?to\s+(?=[A-Z])|"
    r"now\s+(?:at|in|with|under|based|living|"
    r"working|reporting)|"
    r"still\s+(?:living|in|at|working|based|reporting)|been\s+(?:at|with|living|working)|"
    r"(?:starting|beginning)\s+to\s+(?:hate|love|like|enjoy)\s+(?:working|living)|still\s+an?\s+(?=[\w-]+\s+[\w-]+)|"
    rf"{_LANGUAGE_SPEAKER})",
    re.I,
)
# a chat's opening words that say nothing ("lol", "ok so", "heads up:"): the clause starts after them
_INTERJECTION_RE = re.compile(
    r"^(?:(?:lol|haha+|omg|ok(?:ay)?|yeah|yep|yes|so|well|fyi|btw|heads\s+up|update|news|guess\s+what|ugh|wow|"
    r"oh|hey|anyway|nope|sorry|reminder|note|final\s+call|psa|ps|tbh|ngl|fun\s+fact|action|decision)\b[\s,:!.—–-]*)+",
    re.IGNORECASE,
)
# a pronoun's "'s" and "'re": "has" before a verb's past participle ("she's been", "he's moved"), else "is"
_PRONOUN_CONTRACTED = (
    rf"(?:(?P<has>['’]s(?={_ADVERBS_BEFORE_BEEN}\s+(?:been|got|had|moved|joined|left|relocated|started|become|taken|"
    r"gone|switched|quit)\b))|(?P<is>['’]s|['’]re))?"
)
# "Esme said she speaks Portuguese": what someone is reported to say of themselves is said of them
_REPORTED_RE = re.compile(
    rf"\b(?P<name>{NAME})\s+(?:said|says|told\s+(?:me|us)|mentioned|confirmed|wrote|writes|adds|tells\s+(?:me|us)|"
    r"let\s+(?:me|us)\s+know|informed\s+(?:me|us)|announced|explained|added)"
    rf"(?:\s+that)?\s+(?:he|she|they)\b{_PRONOUN_CONTRACTED}"
)
# "Noor and Piet both work at …", "Omar and his sister Lina both speak Farsi": the clause of each
_BOTH_RE = re.compile(
    rf"^(?:[Bb]oth\s+)?(?P<first>{NAME})\s+and\s+(?:(?:his|her|their)\s+{_RELATION}\s+)?(?P<second>{NAME}|me\b)"
    r"\s+(?:both\s+)?(?=[a-z])"
)
# "Bence, Dorka and Ilka all live in Eger": the clause of each of three or more
_EACH_OF_RE = re.compile(
    rf"^(?:[Aa]ll\s+)?(?P<names>{NAME}(?:,\s+{NAME})+,?\s+and\s+{NAME})\s+(?:all\s+|each\s+)?(?=[a-z])"
)
_LISTED_NAMES_RE = re.compile(r",\s+(?:and\s+)?|,?\s+and\s+")
# a manager said by pronoun in a later clause of the sentence: the person an earlier clause opened with
_REPORTS_TO_PRONOUN_RE = re.compile(
    r"\b(?P<verb>reports?\s+(?:directly\s+)?to|reporting\s+to|under)\s+(?:him|her)\b"
    r"(?!\s+(?:boss|manager|team|deputy|line|direct|own|new|old|husband|wife|partner)\b)"  # "to her boss": not her
)
# a pronoun opening a later clause of the sentence is the name an earlier clause opened with
_PRONOUN_RE = re.compile(
    # ("he's joined Kestle": has joined; "he's based in Eger": is)
    rf"^(?:he|she|they)\b(?:(?P<has>['’]s(?={_ADVERBS_BEFORE_BEEN}\s+(?:been|got|had|joined|moved|left|relocated|started|"
    r"taken|become|gone|"
    r"quit|switched|transferred|handed|passed)\b))|(?P<is>['’]s|['’]re))?",
    re.IGNORECASE,
)
_APPOSED_TITLE_BEFORE_RE = re.compile(rf"(?P<name>{NAME}),\s+(?:our|the|their)\s+(?:new\s+)?")
# a relative's name said as where someone is: "… at Kestle Bio, who", "… in Eger, who"
_WHERE_BEFORE_RE = re.compile(r"\b(?:at|in|near)\s+(?:the\s+)?$")
# the person a post and its workplace are apposed to, before such a name: "Bence Vass, principal scientist at Kestle
# Bio in …"
_APPOSED_POST_BEFORE_RE = re.compile(rf"(?P<name>{NAME}),\s+[^,;:.!?()]{{1,80}}?\s+(?:at|in|near)\s+(?:the\s+)?$")
# a bracket's post held before: "(was finance director there)", "(formerly head of sales)"
_WAS_POST_RE = re.compile(r"(?:was|formerly|previously)\s+(?:(?:an?|the)\s+)?(?P<post>[^()]+?)(?:\s+there)?")
# the person whose post is said before the workplace it is held at: "Dorka Szabó is now CFO at "
_HOLDER_BEFORE_RE = re.compile(rf"(?P<name>{NAME})\s+(?:is|was|has|['’]s)\b[^(),;]*$")
_CONTRACTED_IS_RE = re.compile(
    r"\s+(?:in|at|on|from|with|been|got|now|still|back|off|out|a|an|the|not|just|always|never|moving|living|working|"
    r"going|based|here|there|home)\b"
)
_LEAD_NAME_RE = re.compile(rf"^(?P<name>{NAME})(?:\s+[a-z'’]|$)")
# a sentence that opens with a person doing something ("Zsófia moved …", "Nandor is …"), not with a capitalised word
# that is no name ("Bumped into him at the airport", "Nice guy.")
_OPENING_SUBJECT_RE = re.compile(
    # ("Vera Lind (1931–2020), a linguist, died …": the years and what the person was, between the name and the verb)
    rf"^(?P<name>{NAME})(?:\s*\([^()]{{1,30}}\))?(?:,\s+[a-z][^,;]{{0,40}},)?\s+(?:is|was|has|had|left|became|took|got|came|went|made|said|told|met|ran|grew|found|sent|spent|"
    r"gave|won|lost|bought|brought|wrote|began|kept|sold|quit|put|set|let|heard|knew|flew|drove|fell|felt|paid|led|held|"
    r"built|taught|caught|chose|broke|spoke|sang|swam|rode|ate|drank|saw|did|threw|wore|woke|stood|sat|slept|read|"
    r"thought|fought|forgot|drew|dug|fed|hung|lay|rang|rose|shot|stole|struck|wept|"
    r"now|just|recently|also|still|finally|[a-z]+ed|[a-z]+(?<!s)s)\b"
)
# a sentence that only names someone, as a chat asks or a note heads a line about them ("Zsófia?")
_TOPIC_RE = re.compile(
    rf"^(?:.{{0,20}}\b(?:and|what\s+about|how\s+about)\s+|(?i:oh|ah|so|well|right),?\s+)?(?P<name>{NAME})\s*[?:]$"
)
# "As for Bence, he moved …": the person the sentence sets out to speak of is its pronoun
_AS_FOR_RE = re.compile(
    rf"^(?i:as\s+for|as\s+to|regarding|about|according\s+to)\s+(?P<name>{NAME}),\s+(?:he|she)\b(?!['’]d\b)"
    rf"{_PRONOUN_CONTRACTED}"
)
# "Look who turned up: Bálint.", "a man called Bence, who …": a person brought in by name
_REVEALED_RE = re.compile(rf":\s+(?P<name>{NAME})\s*[.!]*$")
# a profile's opening: the name, and the age or the years of a life ("Club bio: Vera Lind, 58.", "Vera Lind (1931)")
_PROFILED_RE = re.compile(
    rf"^(?:[^:]{{1,30}}:\s+)?(?P<name>{NAME})(?:,\s+\d{{1,3}}|\s*\(\d{{1,4}}(?:\s*[–-]\s*\d{{4}})?\))\s*[.!]*$"
)
# a note's line that heads what it goes on to say of one person: a full name and an aside on who they are, and no
# verb ("Bence Vass (Procurement, Kestle).", "Lead: Bence Vass, VP Ops at Kestle.", "Bence Vass — new client");
# its next "Speaks Hungarian." is theirs
_CARD_HEAD_RE = re.compile(
    rf"^(?:[^:]{{1,30}}:\s+)?(?P<name>{NAME})(?:\s*\([^()]{{1,80}}\))?(?:(?:,|\s+[—–-])\s+[^.!?;:]{{1,80}}?)?\s*[.!]*$"
)
_INTRODUCED_BY_NAME_RE = re.compile(
    rf"\b(?:woman|man|guy|girl|lady|bloke|chap|person|someone|somebody)\s+(?:named|called)\s+(?P<name>{NAME})"
)


def _topic(said: str) -> re.Match[str] | None:
    """The person a sentence is about by asking after them or bringing them in by name."""
    colon = said.rfind(":")
    # a card's "Account: Tisza Bio" reveals no one: a label of a word or two before the colon names a field
    revealing = colon > 0 and len(said[:colon].split()) > 2
    return (
        _TOPIC_RE.match(said)
        or _PROFILED_RE.match(said)
        or _card_head(said)
        or (_REVEALED_RE.search(said, colon) if revealing else None)
        or (_INTRODUCED_BY_NAME_RE.search(said) if "named" in said or "called" in said else None)
    )


def _card_head(said: str) -> re.Match[str] | None:
    """A line that heads a note on one person by their full name (a business's name heads none)."""
    head = _CARD_HEAD_RE.match(said) if said.count(" ") < 16 else None
    if not head or len(head["name"].split()) < 2 or _business_name(head["name"]) or _a_title(head["name"]):
        return None  # ("Title: Head of Procurement": a post, no one's name)
    if _person(head["name"]) != head["name"] or _VERB_IN_ASIDE_RE.search(said, head.end("name")):
        return None
    return head


# an aside that says something of its own is a statement, not a heading ("Bence Vass, who joined in May")
_VERB_IN_ASIDE_RE = re.compile(r"\b(?:who|which|is|are|was|were|has|have|had|will|said|says)\b", re.IGNORECASE)


# the words before a person a sentence opens with: "Anyway, my cousin Dorka …", "Oh, our neighbour Bálint …"
_INTRODUCED_RE = re.compile(
    rf"^(?:(?:so|well|anyway|oh|and|also|meanwhile),?\s+)*(?:(?:my|our|your)\s+{_RELATION}\s+)?(?=[A-Z])",
    re.IGNORECASE,
)
# a person greeted, thanked or met by name ("please welcome Nandor, who …", "congrats to Zsófia on …")
_GREETED_RE = re.compile(
    rf"\b(?i:welcome|welcoming|congratulate|congrats\s+to|thank|thanks\s+to|introduce|introducing|meet|met|say\s+hello\s+to|"
    rf"(?:spoke|talked|met|chatted)\s+(?:with|to)|(?:call|chat|catch-up|catch\s+up|interview)\s+with|remember|"
    rf"(?:ran|bumped)\s+into|caught\s+up\s+with|heard\s+from|"
    # ("This is Bence.", "We hired Bence last week": someone brought in)
    rf"this\s+is|here['’]?s|here\s+is|(?:we|I)\s+(?:have\s+|['’]ve\s+|just\s+)?hired)"
    # "Meet our new intern, Lili!": the one greeted, after what they are to us ("ran into my cousin Dorka", "met
    # Ilka's flatmate, Bálint")
    rf"\s+(?:(?:our|my|the|{NAME}['’]s)\s+[a-z][a-z -]{{1,40}}?,\s+|(?:my|your|our|his|her)\s+{_RELATION}\s+)?"
    rf"(?P<name>{NAME})(?![\w'’])(?!\s+(?:and|&)\s+[A-Z])(?<!['’]s)"
)
# someone a sentence's subject acts on by pronoun ("Kestle hired him last year"): the one the text was about before
# (not "… wasn't for her", which may be the subject's own)
_BACK_TO_RE = re.compile(
    r"(?<!\bfor\s)(?<!\bto\s)(?<!\bwith\s)(?<!\babout\s)(?<!\bof\s)(?<!\bby\s)(?<!\blike\s)"
    r"\b(?:him|her(?=\s*(?:[.,;:!?]|$)|\s+(?:last|this|yesterday|today|on|in|at|to|for|as|from|with|over|back)\b))"
)
# someone a sentence brings in without a name: a relative, a post-holder, a newcomer ("his sister", "a designer",
# "the new hire")
_SOMEONE_UNNAMED_RE = re.compile(
    rf"\b(?i:my|our|his|her|their|your|a|an|the|this|that)\s+(?:(?i:new|other|old)\s+)?(?P<noun>{_RELATION}|[a-z]+)\b"
)
_PEOPLE_NOUNS = frozenset(
    "hire recruit newcomer joiner starter candidate contractor volunteer guy woman man lady".split()
)
# the parties a note or a notice speaks of by their part, not their name
_PARTY_NOUNS = frozenset(
    "homeowner householder owner tenant landlord landlady neighbour neighbor resident occupant guest visitor client "
    "customer patient pt caller buyer seller vendor applicant member parent pupil student".split()
)
_BY_THEIR_PART = _PEOPLE_NOUNS | _PARTY_NOUNS
# the writer or the writer's side as a sentence's subject: whom a later "he" or "she" cannot be
_WRITER_SUBJECT_RE = re.compile(r"(?:I|[Ww]e)(?![\w])")


def _greeted(said: str) -> re.Match[str] | None:
    """The one person a sentence greets, thanks or meets; none when it greets two ("This is Bence, and this is
    Dorka") or one of a pair ("met Dorka Fehér and Ilona Tóth", "spoke with Bence and his wife")."""
    greeted = list(_GREETED_RE.finditer(said))
    if len({match["name"] for match in greeted}) != 1:
        return None
    after = said[greeted[0].end() :]
    if re.match(rf"(?:\s+[{_UPPER}][\w'’-]*)*\s+(?:and|&)\s+(?:[{_UPPER}]|(?:his|her|their)\s)", after):
        return None
    return greeted[0]


def _someone_unnamed(phrase: re.Match[str] | None) -> bool:
    """Whether a phrase's noun is a person's: a relative, a post, a newcomer."""
    noun = phrase["noun"].casefold() if phrase else ""
    return noun in _PEOPLE_NOUNS or noun in v.ROLE_NOUNS or bool(noun and re.fullmatch(_RELATION, noun))


def _someone_else(sentence: str, named: str) -> bool:
    """Whether a sentence turns to a person besides ``named``, so that a later "he" or "she" could be either: one
    unnamed as its subject ("His sister called.", "The new hire starts Monday."), two named as its subject ("Dorka
    and Ilona came over."), or, the writer its subject, others named or unnamed ("I met Dorka Fehér and Ilona Tóth",
    "We hired a designer"). What a note's line says of the one it is about keeps them ("Manager: Dorka Fehér")."""
    if _someone_unnamed(_SOMEONE_UNNAMED_RE.match(sentence)):
        return True
    first = re.match(rf"(?P<name>{NAME})(?:\s*,\s*{NAME})*\s*,?\s+(?:and|&)\s+[{_UPPER}]", sentence)
    if first and (name := _person(first["name"])) and _a_person(name) and not _business_name(name):
        return not known_place(name)  # "Dorka and Ilona came over" (not "Szeged and Pécs are …")
    if not _WRITER_SUBJECT_RE.match(sentence):
        return False
    for match in _NAME_RE.finditer(sentence):
        name = _person(match.group(0))
        if (
            not name
            or name == "I"
            or set(name.split()) <= set(named.split())
            or not _a_person(name)
            or _business_name(name)
            or name.casefold() in _LANGUAGE_SET
        ):
            continue
        before, after = sentence[: match.start()], sentence[match.end() :]
        if re.search(r"\b(?i:at|in|for|from|on|into|near|of|via|by|under)\s+$", before):
            continue  # "at Kestle", "in Szeged": a place or an employer
        if (
            len(name.split()) > 1
            or re.match(rf"\s*(?:,|and|&)\s+[{_UPPER}]", after)
            or re.search(r"(?:,|\band|&)\s+$", before)
        ) and not known_place(name):  # (the towns' list last: it is the slowest to ask)
            return True
    return any(_someone_unnamed(phrase) for phrase in _SOMEONE_UNNAMED_RE.finditer(sentence))


# a change said beside the name it befell ("Congratulations to Zsófia, promoted to staff engineer last week!",
# "Nandor, newly appointed head of ops, starts Monday")
_PARTICIPLE_APPOSED_RE = re.compile(
    rf"\b(?P<name>{NAME}),\s+(?:(?:recently|newly|just|now|officially)\s+)?"
    r"(?P<said>(?:promoted|appointed|named|hired|made|transferred|relocated)\b[^,;.!?()]*)"
)
# a sentence's leading clause of time or circumstance, before its subject
_LEADING_CLAUSE_RE = re.compile(
    r"^(?:Before|After|When|Since|Once|While|As|Although|Though|In|On|By|Back\s+in|Today|Now|These\s+days|Later|Then)\b"
    r"[^,]{0,60},\s+"
)
_LEADS = (_LEADING_CLAUSE_RE, _INTRODUCED_RE)  # what may stand before the person a sentence opens with
# "Zsófia Ambrus is CTO at Brightwell. She lives in Szeged.": one person's pronoun, not a group's
_SENTENCE_PRONOUN_RE = re.compile(
    r"^(?P<when>(?:(?:today|now|these\s+days|nowadays|currently|since\s+then|later|then|also|and|so|but|plus|oh|"
    r"anyway|meanwhile),?\s+)*"
    # ("Originally from Győr, he …", "A keen cyclist, she …": what the sentence says of them first)
    # (a phrase of a few words with no verb of its own: not "Her puppy is called Mák, she …"; nor a story's time,
    # "After graduation, she joined …", which tells a life in order, not what holds)
    r"(?:(?=(?-i:[A-Z]))(?!(?:after|when|while|once|following|during|until|in|on|by|back|since|then|later|at|"
    r"within|over|as)\b)(?![^,;:.!?()\n]*?\b(?:is|are|was|were|has|have|had|called|named)\b)(?:[^\s,;:.!?()]+\s){0,4}"
    r"[^\s,;:.!?()']+,\s+)?)(?:he|she)\b"
    rf"{_PRONOUN_CONTRACTED}",
    re.IGNORECASE,
)
_POSSESSIVE_OPENER_RE = re.compile(
    r"^(?P<when>(?:(?:today|now|also|and|so|but|plus|oh|anyway|meanwhile),?\s+)*)(?:her|his)\s+"
    rf"(?=(?:new\s+|current\s+|actual\s+|direct\s+)?(?:manager|boss|line\s+manager|supervisor|lead|team\s+lead|"
    # ("His title is head of support", "Her employer, Kestle, …", "His home is in Eger": the named's, as a pet is)
    rf"(?:job\s+)?title|employer|home)\b|"
    rf"(?:[a-z-]+\s+)?{_PETS}\b)",
    re.IGNORECASE,
)
# clauses apart: a semicolon before another subject ("…until 2021; he lives in Ghent now", not "; it's Mina
# now", which goes on with the same statement), a dash between spaces
_CLAUSE_BREAK_RE = re.compile(
    r"\s*;\s*(?=(?:I|he|she|they|we|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,3})(?:\s+|['’])[a-z'’])"
    # "… made the jump: she's living in Győr now"
    r"|\s*:\s+(?=(?:I|he|she|they|we|his|her)(?:\s+|['’])[a-z'’])"
    # "Before the call, some context: Réka is our head of legal": the statement after the colon is its own
    rf"|\s*:\s+(?={NAME}\s+(?:is|was|has|had|joined|moved|left|reports|works|lives|speaks|owns)\b)"
    # a dash before a day or a word of schedule goes on with the project named before it ("Kestle 2 — release 9 May"),
    # one after a manager with the manager's name ("Dorka's got a new boss — Bálint")
    # (a day written month first, "— April 6", "— Mon, Apr 6", "— the 6th of April", is a day too)
    r"|(?<!manager)(?<!boss)(?<!supervisor)\s+[—–-]\s+(?!\d|(?i:due|releases?|launch(?:es)?|ga|ships?|go-?live|goes\s+live|"
    r"lands?|deadline|target|eta|owned\s+by|maintained\s+by)\b"
    rf"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s+)?{_MONTH_WORDS}\s+\d"
    r"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s+\d|the\s+\d)"
    # "Based in Eger, previously at Kestle (2016–2021)": what was before, a clause of its own
    r"|\s*,\s+(?=(?:previously|formerly)\s+(?:at|with)\s)"
    # "Zirc ships April 6, Kestle ships May 4": each project's schedule, a clause of its own
    rf"|,\s+(?=[{_UPPER}][\w-]*(?:\s+[{_UPPER}][\w-]*){{0,2}}\s+{_SCHEDULE_VERB}\b)"
    # "N adopted a dog, and M, still at Kestle, now reports to R": M opens a clause of their own
    rf"|,\s+and\s+(?=[{_UPPER}][\w'’-]+(?:\s+[{_UPPER}][\w'’-]+){{0,2}},\s+[a-z])"
)
_LEAD_RE = re.compile(rf"^(?:(?:my|our)\s+{_RELATION},?\s+)?(?:{_ME}|{NAME}){_COMPANY_OF}\b")


# someone brought in by their name after what they are ("a woman called N", "a guy named N"): N
_SOMEONE_CALLED_RE = re.compile(
    rf"\b(?i:an?)\s+(?:(?:new|young|lovely|nice)\s+)?(?i:woman|man|guy|girl|lady|bloke|chap|person|fellow)\s+"
    rf"(?:called|named)\s+(?={NAME})"
)
_NAMED_WHO_RE = re.compile(rf"(?:(?<=\bcalled\s)|(?<=\bnamed\s))(?P<name>{NAME})\s+(?=who\s)")
_PARTY_IN_BRACKETS_RE = re.compile(rf"\b(?:Owner|Client|Customer|Patient|Contact|Tenant)\s*\((?P<name>{NAME})\)")
# someone sent to, then said what of: "Ask Dorka, she owns Zirc", "ping Bence - he's the DRI": the pronoun is them
_SENT_TO_THEN_PRONOUN_RE = re.compile(
    # ("Anything about Zirc, ask Tisza Ops — they own it": after what the asking is about, a team's "they")
    rf"(?:^|(?<=[,;:]\s))(?i:ask|ping|check\s+with|talk\s+to|speak\s+to|reach\s+out\s+to|message|dm|try)\s+(?P<name>{NAME})"
    r"\s*[,;—–-]\s*(?:(?:she|he|they)(?=['’](?:s|re)\b|\s))"
)
_CLEFT_RE = re.compile(
    rf"(?P<name>{NAME}|I)(?:\s+(?:is|was|am)|['’][sm])\s+the\s+one\s+who\s+"
    r"(?P<verb>(?:live|work|speak|report|own|maintain|run|look)s)\b"
)
# "Noor herself now reports to Piet": Noor
_AS_THEMSELF_RE = re.compile(rf"(?P<name>{NAME})\s+(?:herself|himself|themselves|themself)\b")
# a note's arrow where its verb is written out: "Noor → reports to Piet", "Noor → now under Piet"
_ARROW_VERB_RE = re.compile(
    r"(?<=[\w)])\s*(?:→|->)\s*(?=(?:now\s+)?(?:reports|under|moved|moves|lives|works|owns|joined|joins|left|relocated)\b)"
)


# the label of an owner's field ("Owner:", "maintainers:", "owning team:")
_OWNER_LABEL = r"(?i:owners?|maintainers?|owning\s+team)\s*:"
# an owner's field in brackets: "(owner: Tisza team)", "(maintainers: @tisza-ops)"
_BRACKETED_OWNER_RE = re.compile(rf"{_OWNER_LABEL}\s*(?P<owner>(?:[Tt]he\s+)?(?:{NAME}(?:\s+{_TEAM_WORDS})?|@[\w/-]+))")


# whose a thing is, said in brackets after it: "the Zirc status page (owned by Tisza Ops)"
_OWNED_IN_BRACKETS_RE = re.compile(
    rf"(?<![\w-])(?:[Tt]he\s+)?(?P<system>[{_UPPER}][\w-]*(?:\s+[\w-]+){{0,3}}?)\s*\((?:owned|maintained|run)\s+by\s+"
    rf"(?P<owner>(?:the\s+)?{NAME}(?:\s+{_TEAM_WORDS})?)\)"
)


def _first(match: re.Match[str], name: str) -> str:
    """The first of a pattern's alternative groups ``name``, ``name2``, ``name3`` that took part in the match."""
    return next(match[group] for group in (name, f"{name}2", f"{name}3") if match[group])


_HAS_BEEN_RE = re.compile(r"(?<=[^\W\d_])['’]s(?=\s+been\b)")


def _clauses(sentence: str) -> list[str]:
    """A sentence as clauses of one subject each: relative clauses and appositions said of their name, openers
    ("After the reorg, ") dropped, coordinated clauses apart, and a clause that goes on with the same subject's next
    verb given that subject ("Saoirse works at Kestle and lives in Osaka": "Saoirse lives in Osaka")."""
    text = _REPORTED_RE.sub(_reported, sentence.strip())
    if text[:2] in ("As", "as", "Re", "re", "Ab", "ab", "Ac", "ac"):
        text = _AS_FOR_RE.sub(lambda m: _as_name(m["name"], m), text)
    if " here at " in text:  # "I'm a nurse here at Kestle Clinic": at Kestle Clinic
        text = text.replace(" here at ", " at ")
    if "called" in text or "named" in text:  # "I report to a woman called Dorka": to Dorka
        # ("a ranger named Bence who speaks Czech": the relative said of the one named, as after a comma)
        text = _NAMED_WHO_RE.sub(lambda m: f"{m['name']}, ", text)
        text = _SOMEONE_CALLED_RE.sub("", text)
    text = _WITH_ME_RE.sub("I", text)
    text = _HAS_BEEN_RE.sub(" has", text)  # "Tata's been home for three years": has been
    if "(" in text:  # "Owner (Ilona Kiss) doesn't speak English": the person the bracket names
        text = _PARTY_IN_BRACKETS_RE.sub(
            lambda m: m["name"] if _a_person(m["name"]) and "&" not in m["name"] else m.group(0), text
        )
    if sent := _SENT_TO_THEN_PRONOUN_RE.search(text):
        # (what the asking was about stays before it: "Anything about Zirc, Tisza Ops own it")
        text = f"{text[: sent.start()]}{sent['name']}{text[sent.end() :]}"
    if " the one who " in text:  # "Dorka is the one who lives in Eger": Dorka lives there
        text = _CLEFT_RE.sub(lambda m: f"{m['name']} {m['verb'][:-1] if m['name'] == 'I' else m['verb']}", text)
    if "self" in text or "selves" in text:
        text = _AS_THEMSELF_RE.sub(lambda m: m["name"], text)
    if "→" in text or "->" in text:
        text = _ARROW_VERB_RE.sub(" ", text)
    text = _BEEN_SINCE_RE.sub(lambda m: f"{m['change']} {m['long']} ago", text)
    if not _TRIP_RE.search(text):
        # "Three months in Győr and I know every bakery", "I've been in Győr for two years now":
        # a home, that long
        text = _TIME_IN_PLACE_RE.sub(
            lambda m: f"{m['who2'] or 'I'} moved to {_first(m, 'place')} {_first(m, 'long').lower()} ago",
            text,
        )
    anniversary = _ANNIVERSARY_RE.match(text)
    # (said as a day's anniversary, or beside words of work: "Two weeks at Tata Lake and I'm tanned" is a stay)
    if anniversary and not anniversary["today"] and not _EMPLOYER_CUE_RE.search(text) and "manager" not in text:
        anniversary = None
    if anniversary and not known_place(anniversary["org"]):
        text = (
            f"{anniversary['called'] or ''}I joined {anniversary['org']} {anniversary['long'].lower()} ago"
            f"{text[anniversary.end() :]}"
        )
    if " been " in text:  # "I've been at Kestle for eleven years now": an employer joined that long ago
        text = _TIME_AT_EMPLOYER_RE.sub(
            lambda m: m.group(0) if known_place(m["org"]) else f"{m['who']} joined {m['org']} {m['long'].lower()} ago",
            text,
        )
    if _MOVE_WORD_RE.search(text):  # "relocated Szeged → Győr": from one to the other
        text = _ARROW_MOVE_RE.sub(_arrow_move, text)
    text = _WAS_BEFORE_RE.sub(_was_before, text)
    extra: list[str] = []
    if "by " in text:
        # "the Zirc status page (owned by Tisza Ops) ships Friday": whose it is, a statement of its own
        # (not dated by the schedule around it)
        extra += [f"The {m['system']} is owned by {m['owner']}" for m in _OWNED_IN_BRACKETS_RE.finditer(text)]
    for match in list(_BRACKETED_RE.finditer(text)):
        if _dated_bracket(match):
            continue
        said = re.sub(r"^who\b,?\s*(?:by\s+the\s+way,\s*)?", "", match["said"].strip())
        # "Met Bence, their new CTO (joined Kestle in May)": the bracket is said of Bence
        apposed = _TITLE_APPOSED_TO_RE.search(text, 0, match.start("name")) if _a_title(match["name"]) else None
        name = apposed["name"] if apposed else match["name"]
        if (
            (was := _WAS_POST_RE.fullmatch(said))
            and _WHERE_BEFORE_RE.search(text, 0, match.start("name"))
            and _a_title(was["post"])
            and (holder := _HOLDER_BEFORE_RE.search(text, 0, match.start("name")))
        ):
            # "Dorka is now CFO at Kestle (previously finance director there)": the post before is Dorka's, not
            # said of where she holds it
            extra.append(f"{holder['name']} was the {was['post']}")
            continue
        if (
            (kind := _KIND_IN_BRACKET_RE.match(said))
            and _FIRST_PERSON_OWNER_RE.search(text)
            and not _SOMEONE_ELSES_PET_RE.search(text)
        ):
            # "Bodri (dachshund, 4) chewed my headphones again": a pet the speaker's own words keep
            extra.append(f"I have a {kind['kind'].lower()} called {name}")
            continue
        if (
            (taken := _TAKEN_IN_RE.search(text, 0, match.start("name")))
            and (kind := _A_PET_RE.match(said) or _KIND_IN_BRACKET_RE.match(said))
            and not _SOMEONE_ELSES_PET_RE.search(text)
        ):
            # "I rescued Pogácsa (a senior greyhound) last winter": the pet taken in, said what it is in brackets
            when = re.match(r"[^,.;!?]*", text[match.end() :]).group(0)  # "last winter": when it came
            extra.append(f"{text[: taken.end()]}a {kind['kind'].lower()} called {name}{when}")
            continue
        if pet := _BRACKETED_PET_RE.fullmatch(said):
            # "Bodri (Réka's beagle)", "Mák (our cat) passed away": whose pet the name is, and whether it still is
            gone = " passed away" if _PET_GONE_RE.search(text) else ""
            whose = "my" if pet["whose"].casefold() == "the" else pet["whose"]
            before = _NAMES_BEFORE_RE.search(text, 0, match.start("name"))
            if before and " ".join(pet["kind"].casefold().split()) in _PET_PLURALS:  # each of the names before it
                name = f"{text[before.start() : match.start('name')]}{name}"
            extra.append(f"{whose} {pet['kind']} {name}{gone}")
            continue
        listed = _listed(said)
        if len(listed) > 1 and all(part.casefold() in _LANGUAGE_SET for part in listed):
            extra.append(f"{name} speaks {said}")  # "Noor Aziz (Farsi, Dari, English)": what she speaks
            continue
        if owner := _BRACKETED_OWNER_RE.fullmatch(said):
            extra.append(f"{name} is owned by {owner['owner']}")  # "Zirc (owner: Tisza team) is down"
            continue
        # "Quillon (owned by Tisza team)": what is said of it, "is" understood
        article = re.match(r"(?:my|our|the|a|an|his|her|their|(?:owned|maintained|run|led|managed)\s+by)\b", said, re.I)
        role = (
            not article
            and re.fullmatch(r"[a-z][a-z -]{1,40}", said)
            and _role_head(said) in v.ROLE_NOUNS
            and said not in _DUTIES  # "Present: Réka Tóth (chair), …": a meeting's duty, no post
        )
        # "Zsófia Ambrus (Kestle Analytics)": where she works; "Nandor (Payments)", a team, is no employer
        if (
            re.fullmatch(NAME, said)
            and _business_name(said)
            and (len(said.split()) > 1 or re.search(r"[.&]", said))
            and not _TITLE_FIRST_RE.match(said)  # "Nandor Vass (VP Data)": a post, not an employer
        ):
            extra.append(f"{name} works at {said}")
            continue
        extra.append(f"{name} is the {said}" if role else f"{name} {'is ' if article else ''}{said}")
    text = _BRACKETED_RE.sub(lambda m: m.group(0) if _dated_bracket(m) else m["name"], text)
    if "'" in text or "’" in text or " of " in text:
        extra += _named_with_employer(text)
    extra += _post_before_the_name(text)
    if re.search(r"(?:ly|once|late)\s+of\s", text):
        for match in _FORMERLY_OF_RE.finditer(text):
            if not _a_person(match["name"]):
                continue
            if known_place(match["where"]):
                extra.append(f"{match['name']} used to live in {match['where']}")
            elif _business_name(match["where"]):  # (a town nobody knows is neither)
                extra.append(f"{match['name']} used to work at {match['where']}")
    tenure = _TENURE_RE.match(text)
    if tenure:
        extra.append(f"{tenure['who']} used to work at {tenure['org']}")
    if "'s " in text or "’s " in text or text.startswith(("Their ", "their ")):
        if (related := _RELATIVE_FIRST_RE.match(text)) and _a_person(related["name"]):
            extra.append(f"{related['name']} {text[related.end() :]}")
    role_first = _ROLE_FIRST_RE.match(text)
    if role_first and not re.search(_PETS, role_first["role"], re.IGNORECASE):
        # "Our guide, Nandor, grew up …": Nandor is the subject, and a title holder when it is one (a pet said so
        # is the apposed pets' to read)
        if _role_head(role_first["role"]) in v.ROLE_NOUNS:
            extra.append(f"{role_first['name']} is {role_first['role'][:1].lower()}{role_first['role'][1:]}")
        text = f"{role_first['name']} {text[role_first.end() :]}"
    if "," in text or ";" in text or " and " in text or " while " in text:
        for _ in range(4):  # "Bence lives in Szeged, Dorka in Pécs, Réka in Eger": each of them lives in theirs
            ungapped = _GAPPED_RE.sub(_ungapped, text)
            if ungapped == text:
                break
            text = ungapped
        if any(verb in text for verb in _SCHEDULE_VERBS):
            text = _GAPPED_DAY_RE.sub(_verb_said_again, text)
        if any(verb in text for verb in _KEEPING_VERBS):
            text = _GAPPED_KEEPER_RE.sub(_verb_said_again, text)
        if " does " in text:  # "Bence speaks Czech, as does Dorka": Dorka speaks it too
            extra += [f"{m['second']} {m['said']}" for m in _SO_DOES_RE.finditer(text)]
    for match in list(_RELATIVE_RE.finditer(text)):
        # "Zsófia Ambrus, our new VP of Sales, who joins us from Brightwell": the relative is said of Zsófia
        apposed = _APPOSED_TITLE_BEFORE_RE.search(text, 0, match.start("name"))
        name = apposed["name"] if apposed and apposed.end() == match.start("name") else match["name"]
        if _WHERE_BEFORE_RE.search(text, 0, match.start("name")):
            # "Bence Vass, a chemist at Kestle Bio in Eger, who joined from Zirc": a relative is said of the person
            # apposed before a workplace or a town, never of either; with no one apposed, of nobody
            post = _APPOSED_POST_BEFORE_RE.search(text, 0, match.start("name"))
            if post is None:
                continue
            name = post["name"]
        # ("who lives in Pécs and speaks Czech": each verb of the relative said of the name)
        first, *more = _predicates(f"{name} {'is ' if match['is'] else ''}{match['said']}")
        extra += [first, *(f"{name} {_BEING_RE.sub(_being(name), piece)}" for piece in more)]
    for match in list(_WHICH_OWNS_RE.finditer(text)):
        # ("the limiter lives in zirc-limits, which the Tisza team owns": zirc-limits)
        thing = re.split(r"\s+(?:in|at|on|into|from|with|by|under|through|via|to|for)\s+", match["thing"])[-1]
        thing = re.sub(r"^(?i:see|check|read|ask|use)\s+", "", thing)  # "See the Zirc travel policy, which …"
        if match["passive"]:  # "see the Zirc travel policy, which is owned by Tisza Mobility"
            extra.append(f"{thing} is {match['passive']} by {match['by']}")
        else:
            extra.append(f"{match['owner']} {match['verb']} {thing}")
    text = _RELATIVE_RE.sub(lambda m: f"{m['name']} ", text)
    for match in list(_PARTICIPLE_APPOSED_RE.finditer(text)):
        if not _AFTER_PREPOSITION_RE.search(text, 0, match.start()):
            extra.append(f"{match['name']} was {match['said']}")
    for match in list(_APPOSED_PET_RE.finditer(text) if not _PET_GONE_RE.search(text) else ()):
        owner = match["owner"] or ((match["mine"] or match["the"]) and "I") or ""
        if owner:
            extra.append(f"{owner} {'have' if owner == 'I' else 'has'} a {match['kind']} called {match['name']}")
        elif lead := _pet_keeper(text, match.start()):
            # "Freya walks her whippet, Juno", "thanks to Dorka for bringing her pigeon, Pötty": whose "her" is
            extra.append(f"{lead} {'have' if lead == 'I' else 'has'} a {match['kind']} called {match['name']}")
    for match in list(_APPOSED_ROLE_RE.finditer(text)):
        pet = _MY_PET_RE.fullmatch(match["role"])
        if not pet and _AFTER_PREPOSITION_RE.search(text, 0, match.start()):
            # "Nandor from Brightwell, our integration partner": what the company is to us, no one's title (a pet
            # is the speaker's wherever it is named: "a balcony for Bodri, our cat")
            continue
        # "Bodri, my basset hound, …": the speaker's pet, called Bodri (given up, when the sentence says so; "RIP
        # Bodri, our dog": gone, and called Bodri)
        if pet and _PET_GONE_RE.search(text):
            extra.append(f"I gave up my {pet['kind'].lower()}, {match['name'].removeprefix('RIP ')}")
        elif pet:
            extra.append(f"I have a {pet['kind'].lower()} called {match['name']}")
        elif (
            (theirs := _THEIR_PET_RE.fullmatch(match["role"]))
            and (keeper := _pet_keeper(text, match.start(), lead_first=True))
            and keeper != "I"
        ):
            # "Freya walks Juno and Bodri, her two whippets": the clause's subject's pets, named before what they are
            both = _FIRST_OF_A_PAIR_RE.search(text, 0, match.start("name"))
            for name in (match["name"], *([both["first"]] if both else [])):
                extra.append(f"{keeper} has a {theirs['kind'].lower()} called {name}")
        elif (kind := _A_PET_RE.match(match["role"])) and (taken := _TAKEN_IN_RE.search(text, 0, match.start("name"))):
            # "Noor adopted Lolo, a rescue mutt": the pet its subject took in, named before what it is
            extra.append(f"{text[: taken.end()]}a {kind['kind'].lower()} called {match['name']}")
        else:
            extra.append(f"{match['name']} is {match['role']}")
    text = _APPOSED_ROLE_RE.sub(lambda m: f"{m['name']} ", text)
    clauses = []
    named = _headed(text)  # the name the sentence's last clause opened with: what a later "he" / "she" is
    parts = []
    for part in _CLAUSE_BREAK_RE.split(text):
        part = _INTERJECTION_RE.sub("", part.strip())
        opened = _OPENER_RE.match(part)  # "Since the reorg, Zsófia and Nandor sit under …"
        said_when = opened.group(0) if opened else ""
        both = _BOTH_RE.match(part[len(said_when) :])
        if not both and (each := _EACH_OF_RE.match(part[len(said_when) :])):
            rest = part[len(said_when) + each.end() :]
            first, *others = _LISTED_NAMES_RE.split(each["names"])
            part = f"{said_when}{first} {rest}"
            extra += [f"{said_when}{other} {rest}" for other in others]
        elif both:  # each subject's clause, before "and Piet works …" reads as a clause of its own
            rest = part[len(said_when) + both.end() :]
            first, second = ("I" if name in ("Me", "me") else name for name in (both["first"], both["second"]))
            part = f"{said_when}{first} {rest}"  # "Me and Bence live in Eger": the speaker too
            extra.append(f"{said_when}{second} {rest}")
        parts += _new_subjects(part)
    parts = _dated_by_the_next(parts)
    # a heading has said whom its line is about, or that it is about more than one: its words name no one else
    headed = _HEADING_RE.match(text) is not None
    fronted = ""  # a date the sentence opens with
    for index, part in enumerate(parts):
        opener = _OPENER_RE.match(part.strip())
        part = _SINCE_RE.sub("", _OPENER_RE.sub("", part.strip()))
        # "In March, Zsófia became CTO": when, kept for the fact
        if opener and _DATED_OPENER_RE.search(opener.group(0)):
            fronted = opener.group(0).strip(" ,")
            fronted = f"{fronted[:1].lower()}{fronted[1:]}"
            part = f"{part.rstrip('.!')}, {fronted}"
        elif fronted and not _DATED_OPENER_RE.search(part) and not re.search(r"\b(?:ago|yesterday|today)\b", part):
            # "In September, Zsófia got promoted and I now report to Nandor": the date leads the whole sentence
            part = f"{part.rstrip('.!')}, {fronted}"
        # a chat drops its "I": "Started at Kestle in March, great people."
        if _DROPPED_I_RE.match(part):
            part = f"I {part[:1].lower()}{part[1:]}"
        elif earlier := _DROPPED_EARLIER_RE.match(said := f"{opener.group(0) if opener else ''}{part}"):
            # a profile's "previously at Kestle (2016–2021)", "Before that, four years at Zirc"
            part = f"I used to work at {earlier['org']}{said[earlier.end() :]}"
        elif (posted := _DROPPED_TITLE_RE.match(part)) and _a_title(posted["title"]):
            # "Senior data analyst as of today!"
            part = f"I’m a {posted['title'].lower()} {posted['when']}{part[posted.end() :]}"
        elif (card := _DROPPED_CARD_RE.match(part)) and _a_title(card["title"]):
            part = f"I’m a {card['title']} at {card['org']}"  # a chat's or a profile's card: "Tester at Kestle."
        elif _DROPPED_I_AM_RE.match(part) and not (
            # ("Based in Szeged, he works remotely": the phrase opens his clause, no dropped "I")
            part[:6].casefold() == "based "
            and index + 1 < len(parts)
            and _OPENER_OF_ANOTHER_RE.match(parts[index + 1].strip())
        ):  # "still living in Szeged", "been living in Győr since the 1st"
            # (a language keeps its capital: "Irish speaker")
            said = part if part.split()[0].casefold() in _LANGUAGE_SET else f"{part[:1].lower()}{part[1:]}"
            part = f"I{'’ve' if part[:4].casefold() == 'been' else '’m'} {said}"
        if named and _PRONOUN_RE.match(part):
            part = _PRONOUN_RE.sub(partial(_as_name, named), part, count=1)
        elif named and (opening := _POSSESSIVE_OPENER_RE.match(part)):  # "Notes for N: his manager is …": N's
            part = f"{opening['when']}{named}'s {part[opening.end() :]}"
        elif named and not part.startswith(named):  # "Zsófia is head of legal, and Nandor reports to her": to Zsófia
            part = _REPORTS_TO_PRONOUN_RE.sub(partial(_to_name, named), part)
        lead_name = _LEAD_NAME_RE.match(part)
        # "Zsófia's new partner, Nandor, … and he speaks Czech": a possessive names whose, not who ("Zsófia's in
        # Győr", "is", still names who)
        possessive = lead_name and re.search(r"['’]s$", lead_name["name"])
        if possessive and _CONTRACTED_IS_RE.match(part, lead_name.end("name")):
            possessive = None
        # "Tisza Bend was where …": a place the clause is about; "Contracts go to Réka; she's …": a plural verb after
        # it, so things — no one a pronoun goes back to
        # ("Correction to Monday's note: …": a heading, no one)
        no_one = lead_name and re.match(
            r"\s+(?:(?:is|was)\s+where|are|were|go|have)\b|\s+(?:on|about|for|of|re|from)\s[^.:;]{0,40}:",
            part[lead_name.end("name") :],
        )
        if headed and index == 0:
            pass
        elif (
            lead_name
            and _person(lead_name["name"]) == lead_name["name"]
            and lead_name["name"] != "I"  # ("I'm visiting my brother Bence; he moved …": a "he" is never the speaker)
            and not possessive
            and not no_one
            and not _DOING_RE.match(part)
        ):
            named = lead_name["name"]
        elif not named:
            people = {
                _person(re.sub(r"(?<=\w)['’]s$", "", m.group(0)))  # "as Dorka's week ends, she …": Dorka
                for m in re.finditer(NAME, part)
                if not _PLACED_RE.search(part, 0, m.start())
                and _a_person(m.group(0))
                and not (no_one and m.start() == 0)
            } - {None, "I"}
            named = next(iter(people)) if len(people) == 1 else ""
        if named and part.startswith(named) and (pronoun := _REPORTS_TO_PRONOUN_RE.search(part)):
            # "Réka is our finance director, and Bence reports to her": to Réka, whom the clause opened with, when
            # someone else named after her is the one who reports
            doers = [m for m in _NAME_RE.finditer(part, len(named), pronoun.start()) if _person(m.group(0))]
            if doers and _person(doers[-1].group(0)) != named:
                part = f"{part[: pronoun.start()]}{_to_name(named, pronoun)}{part[pronoun.end() :]}"
        pieces = _predicates(part)
        lead = _LEAD_RE.match(pieces[0])
        subject = lead.group(0) if lead else ""
        if len(pieces) > 1 and (not lead or _person(subject) is None or _CALENDAR_OR_OPENER_RE.match(subject)):
            # "After ten years in Győr I've relocated to Eger and joined Kestle": the subject is who does the first
            # verb, not the clause's first capitalised word
            doer = _SUBJECT_OF_VERB_RE.search(pieces[0])
            subject = doer["who"] if doer else subject
        elif len(pieces) > 1 and ":" in pieces[0]:
            # "Bio for the site: Dorka Vass studied in Eger and now lives in Tata": a label names no one, the
            # doer after it does
            doer = _SUBJECT_OF_VERB_RE.search(pieces[0], pieces[0].index(":"))
            subject = doer["who"] if doer else subject
        if len(pieces) > 1 and subject in _ARTICLES_OF_A_THING and (thing := _THING_BEFORE_VERB_RE.match(pieces[0])):
            # "The zirc-sync worker lives in this repo but is owned by Tisza Ops": the thing goes on, not "The"
            subject = thing["thing"]
        clauses.append(pieces[0])
        clauses += [f"{subject} {_BEING_RE.sub(_being(subject), piece)}" if subject else piece for piece in pieces[1:]]
    return [clause for clause in clauses + extra if clause.strip()]


# a thing a clause opens with, up to its verb: the subject its next verbs go on with
_ARTICLES_OF_A_THING = frozenset({"The", "Our", "This", "Their"})
_THING_BEFORE_VERB_RE = re.compile(
    r"^(?P<thing>(?:The|Our|This|Their)\s+[^,;]{1,60}?)\s+(?:is|are|was|were|lives|sits|runs|has|had|ships|went)\b"
)


# a clause opened by what the writer is doing ("Passing this to N — she owns …", "Handing over to N"): a verb, no one a
# later "he" or "she" goes back to
_DOING_RE = re.compile(r"^[A-Z][a-z]{2,}ing\s+(?:to|for|on|with|in|into|up|back|over|this|it|the)\b")


# the subject of a clause's first verb, however the clause opens
_SUBJECT_OF_VERB_RE = re.compile(
    rf"(?:^|(?<=[\s,;:]))(?P<who>I|{NAME})(?=(?:['’](?:ve|m|s|d)|\s+(?:has|have|had|is|am|was|now|just|recently|also|still|"
    r"finally))*\s+(?:[a-z]+ed|lives|works|speaks|reports|owns|moved|left|joined|became|took|got)\b)"
)
_CALENDAR_OR_OPENER_RE = re.compile(
    r"(?i:after|before|since|following|in|on|our|my|their|the|this|last|next|"
    + "|".join(sorted(_CALENDAR_NAMES))
    + r")\b"
)
# how many of a span of time ("three", "a couple of", "12")
_HOW_MANY = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2}|a\s+couple\s+of|a\s+few)"
# "it's been three months since I moved to Győr": the change, dated that long ago
_BEEN_SINCE_RE = re.compile(
    r"\b(?:it['’]s|it\s+has|it\s+had)\s+(?:(?:now|already|only|just|almost|nearly|over|about)\s+)*been\s+"
    rf"(?P<long>{_HOW_MANY}\s+(?:days?|weeks?|months?|years?))\s+since\s+(?P<change>[^.!?;,—–]+)",
    re.IGNORECASE,
)
# a part that goes on with the change the part before it stated, saying when ("Edge owns it now — they took it over
# in March")
_RESTATED_RE = re.compile(
    # (the change named again only by "it", "there": "took it over", "moved there", "moved in")
    # (a note's dropped "I": "I'm in Eger now, moved in December")
    r"^(?:and\s+)?(?:(?:they|he|she|it|we|I)\s+)?(?P<verb>took|moved|switched|joined|started|handed|got|went)\s+"
    r"(?:it|them|there|here|over|in)\b",
    re.IGNORECASE,
)
_WHEN_RE = re.compile(
    r"\b(?:in|on|since|from|last|this)\s+(?:the\s+)?(?:\w+\s+)?(?:"
    + "|".join(sorted(_CALENDAR_NAMES))
    + r"|week|month|year|"
    r"spring|summer|autumn|fall|winter|\d{4})\b(?:\s+\d{4})?|\b(?:yesterday|\w+\s+(?:days?|weeks?|months?|years?)\s+ago)\b",
    re.IGNORECASE,
)


# a part that says how long its subject has been where the part before put them ("I'm a nurse at Kestle, been there
# six years"): the stay began that long ago
_BEEN_THERE_RE = re.compile(
    r"(?:^|[,;]\s*|\s+)(?:and\s+)?(?:(?:I|we|he|she|they)\s*)?(?:(?:have|has|['’]ve|['’]s)\s+)?been\s+there\s+"
    rf"(?:for\s+)?(?:(?:about|almost|nearly|over|just\s+over)\s+)?(?P<long>{_HOW_MANY}\s+(?:years?|yrs?|months?))\b",
    re.IGNORECASE,
)


def _stay_began(stay: re.Match[str]) -> str:
    """When a stay said by ``_BEEN_THERE_RE`` began, as a time expression ("since six years ago")."""
    return f"since {re.sub(r'yrs?$', 'years', stay['long'])} ago"


def _dated_by_the_next(parts: list[str]) -> list[str]:
    """The parts, each undated one that a restatement right after it dates given that date; a stay said after a
    part's fact ("…, been there six years") dates the fact in it."""
    dated = list(parts)
    for index, part in enumerate(parts):
        stay = _BEEN_THERE_RE.search(part)
        if stay and stay.start() > 0 and not _WHEN_RE.search(part, 0, stay.start()):
            dated[index] = f"{part[: stay.start()]} ({_stay_began(stay)}){part[stay.end() :]}"
    for index in range(len(parts) - 1):
        stay = _BEEN_THERE_RE.match(parts[index + 1].strip())
        if stay and not _WHEN_RE.search(parts[index]):
            dated[index] = f"{parts[index].rstrip(' .!')} ({_stay_began(stay)})"
            continue
        restated = _RESTATED_RE.match(parts[index + 1].strip())
        when = _WHEN_RE.search(parts[index + 1]) if restated else None
        if when and not _WHEN_RE.search(parts[index]):
            # (with its verb, whose tense says which May)
            dated[index] = f"{parts[index].rstrip(' .!')} ({restated['verb'].lower()} {when.group(0)})"
    return dated


# (months or years: "four days in Győr" is a trip)
_LONG_STAY = rf"(?:{_HOW_MANY}|several)\s+(?:months?|years?)"
_TIME_IN_PLACE_RE = re.compile(
    rf"^(?P<long>(?i:{_LONG_STAY}))\s+in\s+(?P<place>{NAME})(?=\s*(?:and\b|,|!|\.|[—–-]|$|[^\w\s]))"
    # "I've been in Győr for two years now", "Bence said he'd been living in Pécs for about a year"
    rf"|\b(?P<who2>I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|{NAME})(?:['’]ve|\s+have|['’]s|\s+has|['’]d|\s+had){_NOW}\s+"
    rf"(?:been\s+(?:living\s+)?|lived\s+)in\s+(?P<place2>{NAME})\s+for\s+(?:(?:about|almost|nearly|over|just\s+over)\s+)?"
    rf"(?P<long2>(?i:{_LONG_STAY}))"
    r"(?:\s+now)?"
    # "Tata has been home for three years now"
    rf"|^(?P<place3>{NAME})\s+has\s+been\s+(?:my\s+|our\s+)?home\s+for\s+(?P<long3>(?i:{_LONG_STAY}))(?:\s+now)?"
)
_TIME_AT_EMPLOYER_RE = re.compile(
    rf"\b(?P<who>I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|{NAME})(?:['’]ve|\s+have|['’]s|\s+has)\s+been\s+(?:working\s+)?(?:at|with)\s+"
    rf"(?P<org>{NAME})\s+for\s+"
    rf"(?:(?:about|almost|nearly|over)\s+)?(?P<long>(?i:{_LONG_STAY}))(?:\s+now)?(?![\w-])"
)
# "Three years at Kestle today!", "Two weeks into the job at Kestle and I …": how long one has been with an
# employer, said as a sentence opens: joined that long ago
_ANNIVERSARY_RE = re.compile(
    # (after whom the line calls: "Mum, one month at Kestle and …")
    rf"^(?P<called>[{_UPPER}][\w'’]+,\s+)?(?P<long>(?i:(?:{_HOW_MANY}|several)\s+(?:weeks?|months?|years?)))\s+(?:into\s+(?:the|my)\s+(?:new\s+)?job\s+)?"
    rf"(?:at|with)\s+(?P<org>{NAME})(?:\s+(?P<today>today|this\s+week)\b|(?=\s*(?:$|[,!.—–]|and\b|now\b|already\b|so\s+far\b)))"
)
_MOVE_WORD_RE = re.compile(r"\b(?:moved|relocated|relocating|relocation|moving)\b", re.IGNORECASE)
_ARROW_MOVE_RE = re.compile(rf"(?<![\w-])(?P<old>{NAME})\s*(?:→|->)\s*(?P<new>{NAME})")


def _arrow_move(match: re.Match[str]) -> str:
    """ "Relocated Szeged → Győr" as "Relocated from Szeged to Győr"; in a text that speaks of a move, an arrow
    between two towns the world knows is a move ("Szeged → Győr, moved in May"), and one from a person to a town is
    theirs ("Bence → Győr (moved last week)")."""
    verb, _, place = match["old"].partition(" ")
    if _MOVE_WORD_RE.fullmatch(verb) and place:
        return f"{verb} from {place} to {match['new']}"
    if known_place(match["new"]):
        if known_place(match["old"]):
            return f"moved from {match['old']} to {match['new']}"
        if _a_person(match["old"]) and _person(match["old"]) == match["old"]:
            return f"{match['old']} moved to {match['new']}"
    return f"from {match['old']} to {match['new']}"


# a note's heading before its colon ("Call with N: she's fluent in …", "Notes for N: his manager is …"): no verb of
# its own
_HEADING_RE = re.compile(r"^(?P<heading>[^:;.!?]{3,60}):\s+(?=(?:he|she|his|her)\b)")


_MET_WITH_RE = re.compile(r"\b(?:with|w/)\s+(?:[A-Z][\w'’-]*\s+(?:and|&)\s+)?$")
_BULLET_RE = re.compile(r"^[ \t]*[-•*][ \t]+(?=[A-Za-z])")
# a note's first line standing alone as its heading ("Coffee chat w/ Dorka", "Interview debrief — Réka Tóth")
_HEADING_LINE_RE = re.compile(r"^\s*(?P<heading>[^\n.!?]{3,80}?)[ \t]*\n")


def _headed(text: str, heading: re.Match[str] | None = None) -> str:
    """The one person a note's heading names, whom the line's "he" or "she" then means."""
    heading = heading or _HEADING_RE.match(text)
    if heading is None or re.search(rf"\b{_VERBS}\b", heading["heading"]):
        return ""
    named = [
        m
        for m in re.finditer(NAME, heading["heading"])
        if _a_person(m.group(0))
        and _person(m.group(0)) == m.group(0)
        and m.group(0).casefold() not in _CALENDAR_SHORT | _CALENDAR
        # "Interview debrief — Réka Tóth": a heading's first word is capitalised as a heading's is, not as a name
        and not (m.start() == 0 and " " not in m.group(0) and re.match(r"\s+[a-z]", heading["heading"][m.end() :]))
    ]
    # "Lunch with Dorka": the one met with, where the heading says with whom
    met = [m for m in named if _MET_WITH_RE.search(heading["heading"], 0, m.start())]
    people = {_person(m.group(0)) for m in met or named} - {None, "I"}
    return people.pop() if len(people) == 1 else ""


# a part that says where its subject is, without the verb ("…, now at Brightwell")
_BEING_RE = re.compile(r"^(?=(?:now|still)\s+(?:at|in|with|under)\b)")


def _being(lead: str) -> str:
    return "am " if lead == "I" else "is "


def _role_head(role: str) -> str:
    """The noun a role is: the word before "of" ("head of data"), else the last word."""
    words = role.casefold().split()
    return words[words.index("of") - 1] if "of" in words[1:] else words[-1]


def _to_name(name: str, match: re.Match[str]) -> str:
    return f"{match['verb']} {name}"


def _as_name(name: str, match: re.Match[str]) -> str:
    """A pronoun and its contraction as the name: "she's" is "Noor is", "he's been" is "Piet has"."""
    return f"{name} has" if match["has"] else f"{name} is" if match["is"] else name


def _as_name_after(name: str, match: re.Match[str]) -> str:
    """A sentence's opening pronoun as the name, after the time word or the phrase before it ("Today she is" → "Today
    Zsófia is")."""
    return match["when"] + _as_name(name, match)


def _reported(match: re.Match[str]) -> str:
    return _as_name(match["name"], match)


@dataclass(frozen=True)
class _Pattern:
    attribute: str
    regex: re.Pattern[str]
    negated: bool = False
    history: bool = False  # states an earlier value only ("I lived in Boston until 2019")
    ended: bool = False  # states a value that ended when the statement dates ("I moved from Boston in May")
    confidence: float = 0.8
    check: Callable[[re.Match[str]], bool] | None = None
    after_negation: bool = False  # states the value that follows a negation ("no longer X; it's Y now")
    # a noun phrase that takes the value as given, whatever the clause does with it ("my manager Nandor wants …")
    presupposed: bool = False
    # the words without one of which the pattern cannot match, when they are not its attribute's usual words
    # ("we're in Szeged now" says nothing of living): the pattern is tried on a clause with one of them
    needs: tuple[str, ...] = ()


def _p(attribute: str, regex: str, **kwargs) -> _Pattern:
    return _Pattern(attribute, re.compile(regex), **kwargs)


def _title_ok(match: re.Match[str]) -> bool:
    words = match.group("value").casefold().split()
    head = _role_head(match.group("value"))
    if words[-2:] == ["product", "owner"]:
        return True
    not_roles = {"fan", "lot", "bit", "big", "owner", "on-call", "oncall", "turned"}  # "a sommelier turned tester"
    return head in v.ROLE_NOUNS and not not_roles & set(words)


# the words for whom one reports to ("as my line manager", "my team lead")
_RELATIONAL_ROLE_WORDS = r"(?:line\s+)?manager|boss|supervisor|team\s+lead(?:er)?|lead"
# a word for whom someone answers to or is close to, not a post they hold ("Zsófia's new partner")
_RELATIONAL_ROLES = frozenset(
    {"manager", "boss", "supervisor", "lead", "mentor", "buddy", "line manager", "partner", "assistant", "deputy"}
)


# the words of being, having and a plan's "to", which no name of a post or a project holds
_BEING_OR_HAVING = r"is|are|was|were|has|have|had|to"
# … nor, in a post, a verb of working, living or reporting ("Réka now reports directly to the CEO")
_VERB_IN_TITLE_RE = re.compile(
    rf"\b(?:{_BEING_OR_HAVING}|reports?|reporting|works?|working|lives?|living|moved?|joined)\b", re.IGNORECASE
)


def _a_function_led(function: str) -> bool:
    """What one heads where one works: a team, a department or a function ("the design team", "marketing", "sales
    engineering"), not an event or a shop ("a workshop", "a café")."""
    last = function.split()[-1].casefold()
    return last in _FUNCTIONS or bool(re.fullmatch(_TEAM_WORDS, last))


def _held_title_ok(match: re.Match[str]) -> bool:
    return _title_ok(match) and " ".join(match.group("value").casefold().split()) not in _RELATIONAL_ROLES


def _bare_title_ok(match: re.Match[str]) -> bool:
    """A title said without its article is a few words naming a job, no verb or word for a job among them."""
    words = set(match.group("value").casefold().split())
    return _title_ok(match) and not words & {"is", "are", "was", "were", "role", "job", "position", "title", "new"}


def _promoted_ok(match: re.Match[str]) -> bool:
    """Both sides of a promotion's arrow are titles."""
    return bool(_a_title(match["old"]) and _a_title(match["value"]))


def _working_as_ok(match: re.Match[str]) -> bool:
    """After "works at X as", a role noun or a word for someone who does a job ("a dispatcher", "a surveyor")."""
    head = _role_head(match.group("value"))
    if head in _NOT_JOBS:
        return False
    return _title_ok(match) or (len(head) > 4 and head.endswith(("er", "or", "ist", "ian", "ant")))


# words for what someone is to a place that are no job there ("a customer at Kestle", "a speaker at the summit")
_NOT_JOBS = frozenset(
    """customer customers user users speaker speakers visitor visitors passenger passengers subscriber subscribers
    shareholder shareholders stakeholder stakeholders volunteer volunteers attendee attendees regular regulars guest
    guests patient patients student students member members participant participants competitor competitors
    supporter supporters follower followers reader readers viewer viewers listener listeners player players
    better bigger older younger newer faster slower grad grads graduate graduates undergrad undergrads""".split()
)


# words no title holds: "promoted to the next level" names no role
_NOT_IN_TITLES = frozenset(
    """the a an my his her their our your its this that these those it me him them us you i some any all no not very
    really so just next level top first last same whole new old""".split()
)


# a verb a named person's statement goes on with, which no post's words hold ("elected Cllr Dorka Fehér lives …")
_A_NAMES_VERB_RE = re.compile(r"\b(?:lives|works|reports|speaks|living|working|reporting|speaking)\b", re.IGNORECASE)


def _named_title_ok(match: re.Match[str]) -> bool:
    """Where the words around say a title is given ("promoted to", "took over as", "appointed", "my title is"), any
    short run of plain words is one, its head a known role noun or not ("chief of staff", "scrum master")."""
    if _title_ok(match):
        return True
    if _A_NAMES_VERB_RE.search(match.group("value")) or _PREPOSITION_FIRST_RE.match(match.group("value")):
        return False  # "elected Cllr Dorka Fehér lives …", "elected for Pécs North": a name, a seat, not a post
    words = match.group("value").casefold().split()
    return 1 <= len(words) <= 5 and all(
        re.fullmatch(r"[a-z][a-z-]*", word) and word not in _NOT_IN_TITLES for word in words if word != "of"
    )


# what "named" follows when it gives a name rather than a post: something just introduced ("a dog named Bodri as a
# kid", "a man named Bence"), an animal
_NAMING_RE = re.compile(rf"(?:\b(?i:an?)\s+(?:[\w-]+\s+)?[\w-]+|\b{_PETS})\s*$")


def _appointed_title_ok(match: re.Match[str]) -> bool:
    """A title given by appointing, naming or hiring, not a name given to someone just introduced."""
    if match.group(0).startswith("named") and _NAMING_RE.search(match.string, 0, match.start()):
        return False
    return _named_title_ok(match)


# "has lived in Győr, Pápa and Zirc": the towns of a life, not the home now
# the towns after the first in a list of them ("…, Pápa and Zirc")
_MORE_TOWNS = rf"(?:,\s*{NAME})*,?\s+and\s+{NAME}"
_TOWNS_OF_A_LIFE_RE = re.compile(rf"(?<=lived\sin\s){NAME}{_MORE_TOWNS}")


# a line's label that says the line is about the writer's own post ("title change: analyst → senior analyst")
_OWN_TITLE_LABEL_RE = re.compile(r"(?i:(?:my\s+)?(?:new\s+)?title(?:\s+change)?|promoted|promotion)")


def _a_home(name: str) -> bool:
    """Whether a place moved to can be a home: not a business ("moved to Kestle Labs") nor a team or a function
    ("the exporter moved to Data Platform")."""
    last = name.split()[-1].casefold() if name.split() else ""
    return not _business_name(name) and last not in _FUNCTIONS and last not in _UNIT_WORDS


def _a_unit(name: str) -> bool:
    """Whether a name is a team's or a function's by its words ("Core Platform", "the Data team", "tisza-ops")."""
    last = name.split()[-1].casefold() if name.split() else ""
    return bool(re.fullmatch(_TEAM_WORDS, last)) or last in _UNIT_WORDS or bool(_IDENTIFIER_RE.fullmatch(name))


# what names a part of an organisation, not a town
_UNIT_WORDS = frozenset("platform core infra infrastructure ops team squad group department guild tribe".split())


_STARTS_LATER_RE = re.compile(r"(?:\s+[A-Z][\w'’-]*)*\s+(?:starts|begins|kicks\s+off)\b")


# what makes a pet one "has had" still one's own: since when, or for how long up to now
_STILL_HAD_RE = re.compile(
    r"[^.;!?]*?\b(?:since|for\s+(?:(?:about|almost|nearly|over|the\s+(?:last|past))\s+)?(?:\w+\s+)?"
    r"(?:years?|months?|weeks?|ages|a\s+while|a\s+decade)\b)"
)


def _pet_present(match: re.Match[str]) -> bool:
    """A pet said to have died or been given up is no pet now (the negated patterns read those)."""
    return not _PET_GONE_RE.search(match.string)


# "Bodri is Gergő's dog": the pet's name comes first, and the pattern that reads it gives the name, not "a dog"
_PET_NAMED_FIRST_RE = re.compile(rf"^(?P<name>{NAME})\s+(?:is|was)\s+$")


def _an_unnamed_pet(match: re.Match[str]) -> bool:
    named_first = _PET_NAMED_FIRST_RE.search(match.string[: match.start()])
    # ("This is Bence's dog": a dog shown, its name not said)
    return _pet_present(match) and not (named_first and named_first["name"] not in _NOT_A_NAME)


# a stay that is no home: "I'm in Szeged now for the conference"
_TRIP_RE = re.compile(
    r"\b(?:trip|visit\w*|holiday|vacation|conference|hotel|hostel|staying|stay|weekend|tour|festival|offsite|"
    r"business|layover|airport|flight|christmas|easter|half-term|the\s+holidays|itinerary|"
    r"for\s+(?:the|a|one|two|three)\s+(?:week|weeks|month|fortnight|summer))\b",
    re.IGNORECASE,
)


# what makes being at a business a visit, after its name: what for, or only today
_A_VISIT_RE = re.compile(
    r"\s*,?\s*(?:for\s+(?:a|an|the|our|my|their)\s+(?:[\w-]+\s+)?(?:workshop|meeting|training|demo|conference|interview|"
    r"visit|call|pitch|review|offsite|course|talk|tour|audit|appointment)\b|(?:today|tonight|this\s+(?:morning|afternoon|"
    r"evening|week))\b)",
    re.IGNORECASE,
)


def _no_trip(match: re.Match[str]) -> bool:
    return not _TRIP_RE.search(match.string)


_THING_NOUNS = v.OWNED_THING_NOUNS | frozenset(v.KIND_HEAD_NOUNS)


def _the_speakers_place(match: re.Match[str]) -> bool:
    """ "The new place in X" is the speaker's only when the clause is about no one else ("Apu says the new house in
    Zirc is ready": his)."""
    before = match.string[: match.start()]
    if _LEAVING_A_HOME_RE.search(before):
        return False  # "we sold our flat in Szeged": a home given up, not held
    if (match["mine"] or "").casefold() != "the":
        return True
    return not (_SOMEONE_ELSE_RE.search(before) or _SAYS_RE.search(before))


_SOMEONE_ELSE_RE = re.compile(r"\b(?:he|she|they|his|her|their)\b", re.IGNORECASE)
_LEAVING_A_HOME_RE = re.compile(
    r"\b(?:sold|selling|sell|left|leaving|moved\s+out\s+of|moving\s+out\s+of|gave\s+up|giving\s+up)\s+$", re.IGNORECASE
)
_SAYS_RE = re.compile(rf"\b{NAME}\s+(?:says|said|told|thinks|reckons|mentioned|wrote)\b")


# … nor, in a project's name, "will" or "be": "Kestle is scheduled to launch on …" is of Kestle
_A_VERB_IN_NAME_RE = re.compile(rf"\b(?:{_BEING_OR_HAVING}|will|be|been|being)\b", re.IGNORECASE)


# a phrase that starts with a preposition names no thing ("of the SMS gateway", of "ownership of the SMS gateway")
_PREPOSITION_FIRST_RE = re.compile(r"(?i:of|to|for|with|in|on|at|from|by)\b")


def _a_named_release(project: str) -> bool:
    """A project said as a thing, by its last word ("the Kestle app", "the Zirc release") or its version ("Zirc
    v3"), with no verb among its words."""
    words = project.split()
    last = words[-1].casefold() if words else ""
    return (
        len(words) > 1
        and not _A_VERB_IN_NAME_RE.search(project)
        and (last in _THING_NOUNS or last in _PROJECT_EVENTS or bool(re.fullmatch(r"v?\d+(?:\.\d+)*", last)))
    )


# the pieces of work a day is set for, by the noun that heads their name
_WORK_PIECES = frozenset(
    """project migration redesign module website site release launch beta alpha rollout cutover upgrade update
    submission build patch version feature refresh overhaul integration pilot milestone lock freeze ga go-live
    rebuild rewrite revamp deployment deploy""".split()
)


def _a_piece_of_work(project: str) -> bool:
    """A project said by its words, as a piece of work ("billing redesign", "the v4.2 release", "Beta"), not a
    person, a party or a trip whose day moved."""
    words = project.split()
    if not words or _A_VERB_IN_NAME_RE.search(project) or _EVENT_RE.search(project) or _TRIP_RE.search(project):
        return False
    if re.match(r"[a-z]+ing\s+(?:the|our|that|this)\b|(?:release|ship|launch)\s+[A-Z]", project):
        return False  # "confirming the Kestle integration …", "release Kestle 4 is …": a verb before the name
    last = words[-1].casefold()
    return last in _WORK_PIECES or last in _PROJECT_EVENTS or _a_named_release(project)


def _a_thing_by_its_words(name: str) -> bool:
    """A name whose last word is a common noun ("the billing migration", "the Zirc patch") or a version: no person is
    called so, though a project, too, may be called by a bare name."""
    words = name.split()
    return (
        len(words) > 1
        and not _A_VERB_IN_NAME_RE.search(name)
        and (words[-1][:1].islower() or words[-1][:1].isdigit() or _a_named_release(name))
    )


def _a_thing_handed(match: re.Match[str]) -> bool:
    """An arrow hands over a thing when what stands before it is one by its words ("the on-call spreadsheet", "a
    quillon-gateway"), not a name, a place or a title."""
    return _a_system_by_its_noun(match.group("system"))


# a thing's label before a colon, as a tracker's line opens ("Zirc exporter: …")
_THING_LABEL_BEFORE_RE = re.compile(r"^(?:[Tt]he\s+)?(?P<label>[\w'’ .-]{2,60}):\s*$")


def _after_a_things_label(match: re.Match[str]) -> bool:
    """Whether what stands before the match is a thing's label ("Zirc exporter: …"), so that the arrow after it runs
    from one owner to the next."""
    label = _THING_LABEL_BEFORE_RE.search(match.string, 0, match.start("system"))
    return bool(label) and _a_system_by_its_noun(label["label"])


def _a_named_system(match: re.Match[str]) -> bool:
    """A system by its noun that has a name of its own ("the Zirc exporter", "kestle-auth service"), not a task said by
    its noun alone ("the budget", "the weekly rota")."""
    system = match.group("system")
    return (
        _a_system_by_its_noun(system)
        and not _PREPOSITION_FIRST_RE.match(system)
        and any(word[:1].isupper() or _IDENTIFIER_RE.fullmatch(word) for word in system.split()[:-1])
    )


def _an_ownership_moved(match: re.Match[str]) -> bool:
    """A system by its noun moving to an owner: a named system, or one moved from an owner to another; and each owner a
    team by its words or its handle, or a person by their full name (not a platform, a cluster or a town)."""
    system = match["system"]
    if not _a_system_by_its_noun(system) or _PREPOSITION_FIRST_RE.match(system) or _A_VERB_IN_NAME_RE.search(system):
        return False
    if re.search(r"\b(?i:of|for)\s", system):
        return False  # "Ownership of the Zirc API moved to …": read by its own words, above
    named = any(word[:1].isupper() or _IDENTIFIER_RE.fullmatch(word) for word in system.split()[:-1])
    owners = [match["value"], *([match["old"]] if match["old"] else [])]
    return (named or bool(match["old"])) and all(_a_team_or_person(owner) for owner in owners)


# the words of a department that also name where a system runs ("moved to Core Platform" may be onto it)
_ALSO_WHERE_SYSTEMS_RUN = frozenset("platform infra infrastructure web mobile backend frontend devops".split())


def _a_team_or_person(name: str) -> bool:
    """Whether a name can only be a team (by its words or its handle) or a person named in full."""
    words = name.split()
    if re.fullmatch(_HANDLE, name) or re.search(rf"\s{_TEAM_WORDS}$", name):
        return True
    if any(word.casefold() in v.DEPARTMENT_NOUNS - _ALSO_WHERE_SYSTEMS_RUN for word in words):
        return True
    if any(word.casefold() in v.DEPARTMENT_NOUNS for word in words):
        return False  # ("Core Platform": a team, or what a system runs on)
    return len(words) > 1 and _person(name) == name and not _business_name(name) and not known_place(name)


def _a_system_by_its_noun(said: str) -> bool:
    """Whether words name a system by the noun they end in, or as its code names it."""
    words = said.split()
    last = words[-1].casefold() if words else ""
    # (or several of them, "the Zirc dashboards"; but "Tisza Systems", capitalised, is a name)
    plural = bool(words) and words[-1].islower() and last[:-1] in _THING_NOUNS
    return bool(words) and (bool(_IDENTIFIER_RE.fullmatch(words[-1])) or last in _THING_NOUNS or plural)


def _a_contacts_employer(match: re.Match[str]) -> bool:
    """Whom a contact is "from", or a business they are "at" (not "met N at Szeged", a town)."""
    return _org_ok(match) and (bool(match.group("from")) or _business_name(match.group("value")))


def _a_business(match: re.Match[str]) -> bool:
    """A value whose name says it is a business one works at ("Tisza Reinsurance", "Kestle.io", "Tisza & Vass"), not
    one a visitor is at ("at Szeged General Hospital with my mum", "at the Kestle Hotel")."""
    last = match.group("value").split()[-1].casefold()
    return _org_ok(match) and _business_name(match.group("value")) and last not in _VISITED


# businesses and institutions people are at as visitors, patients, guests or customers as often as at work
_VISITED = frozenset(
    """hospital hospitals clinic clinics hotel hotels hospitality stores supermarkets pharmacy dental beauty airlines
    airways university college school museum""".split()
)


# the last words of an organisation's name: what it does, its legal form, what kind of body it is
_BUSINESS_WORDS = BUSINESS_TAILS | COMPANY_SUFFIXES | ORG_WORDS


def _business_name(name: str) -> bool:
    last = name.split()[-1].casefold().strip(".,") if name.split() else ""
    return last in _BUSINESS_WORDS or bool(re.search(r"&|\.(?:io|com|ai|co)\b", name))


def _an_organisation(match: re.Match[str]) -> bool:
    """A value after "with" that names an organisation rather than a person ("with Nandor Vass now" is company kept):
    a business's name ("Kestle.io", "Harrow & Vale", "Tisza Analytics") or a role said beside it ("with Kestle as a
    designer")."""
    value = match.group("value")
    return _org_ok(match) and (_business_name(value) or " as " in match.string[match.end("value") :][:6])


_LEAVING_BEFORE_RE = re.compile(
    r"\b(?:quit|quitting|left|leaving|lost|losing|resigned|resigning|ended|ending|cleared|clearing)\s+$"
)


def _an_employer_not_a_town(match: re.Match[str]) -> bool:
    """An employer is named, and it is no town the world knows ("got hired at Kestle", not "at Szeged")."""
    return _org_ok(match) and not known_place(match["value"])


def _org_ok(match: re.Match[str]) -> bool:
    """An employer is named: not a pronoun's or a determiner's word, nor a day ("joins Thursday")."""
    words = match.group("value").split()
    return words[0] not in {"I", "My", "The", "Our"} and not all(
        word.casefold() in _CALENDAR_NAMES | _CALENDAR_SHORT for word in words
    )


# where in a town a home is, before its name: "in the centre of Szeged", "in downtown Pécs", "on the outskirts of"
_PART_OF_TOWN = (
    r"(?:(?:the\s+)?(?:(?:very\s+)?(?:centre|center|middle|heart|outskirts|suburbs|edge|old\s+town)|north|south|east|west|"
    r"northern|southern|eastern|western)(?:\s+(?:part|side|end))?\s+of\s+|downtown\s+|central\s+)?"
)


# a few words of when after a gerund's object ("Since joining Kestle last spring, I …"), not a verb that makes the
# gerund a subject ("Since joining Kestle was never the plan, …")
_WHEN_AFTER_GERUND = r"(?:\s+(?!(?:was|is|were|has|had|will|would|seemed|proved|turned|felt|became)\b)[\w'’-]+){0,3}"


_PATTERNS: tuple[_Pattern, ...] = (
    # --- where someone lives
    # (a note's terse "Lives Pécs", "lives Pécs, speaks Hungarian": the town without its "in")
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+lives\s+(?P<value>{NAME})(?=\s*(?:[,;.|]|$))",
        check=lambda match: match["value"].casefold() not in _NO_TOWN_WORDS,
        confidence=0.6,
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}(?:{_BEEN}?{_NOW}\s+(?:live|lives|living|reside|resides|residing|based(?:\s+out\s+of)?|settled)|"
        rf"(?:'ve|’ve|\s+have|\s+has){_NOW}\s+(?:lived|settled))(?:\s+now)?\s+(?:over\s+)?(?:in|out\s+of|on(?=\s+the\s+(?:outskirts|edge)\b))\s+"
        # ("in the centre of Szeged", "in downtown Pécs": a part of the town is the town)
        rf"{_PART_OF_TOWN}(?P<value>{NAME})"
        r"(?!,?\s+(?:until|till)\b)",
        check=lambda match: not _TOWNS_OF_A_LIFE_RE.match(match.string, match.start("value")),
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated|emigrated)(?:\s+(?:back(?:\s+home)?|home|house|over|out))?"
        rf"(?:\s+(?:from|out\s+of)\s+(?P<old>{NAME}))?(?:\s+back)?\s+to\s+(?P<value>{NAME})",
        # (a move from one to another is read after, by what the two are: "from Tarnóc Labs to Vashegy Robotics")
        check=lambda match: bool(match["old"]) or _a_home(match["value"]),
    ),
    # "Szeged → Pécs done, we moved in on Saturday": a move written as an arrow between two towns
    _p(
        v.LIVES_IN,
        rf"(?P<old>{NAME})\s*(?:→|->)\s*(?P<value>{NAME})\b(?=[^.;!?]*\b(?P<me>I|[Ww]e)\s+(?:(?:just|finally)\s+)?"
        r"(?:moved|relocated)\b)",
        check=lambda match: known_place(match["old"]) and known_place(match["value"]),
        needs=("→", "->"),
    ),
    # "Bence's retired to Szeged": one retires to a town to live there
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+retired\s+to\s+(?P<value>{NAME})",
        check=lambda match: known_place(match["value"]),
        needs=("retired",),
    ),
    # "we relocated to Eger from Győr last spring": the home before, after the new one
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated|emigrated)(?:\s+(?:back|over))?\s+to\s+(?P<value>{NAME})\s+from\s+"
        rf"(?P<old>{NAME})",
        check=lambda match: known_place(match["value"]) or known_place(match["old"]),  # not "to Kestle from Tisza Bio"
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Ww]e)(?:'ve|’ve|\s+have)?{_NOW}\s+(?:moved|relocated)(?:\s+(?:back(?:\s+home)?|home|house|over))?"
        rf"(?:\s+(?:from|out\s+of)\s+(?P<old>{NAME}))?\s+to\s+(?P<value>{NAME})",
        confidence=0.7,
    ),
    # "the commute from Szeged is long": where the speaker comes in from each day
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Mm]y|[Tt]he|[Oo]ur)\s+(?:daily\s+)?commute\s+from\s+(?P<value>{NAME})",
        confidence=0.6,
        presupposed=True,
    ),
    # "swapped Győr for Szeged in the spring": one town for another
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_HAVE}{_NOW}\s+(?:swapped|traded|exchanged)\s+(?P<old>{NAME})\s+for\s+(?P<value>{NAME})",
        check=lambda match: known_place(match["value"]) and known_place(match["old"]),
        needs=("swapped", "traded", "exchanged"),
    ),
    # "now calls Szeged home"
    _p(v.LIVES_IN, rf"\b{_WHO}{_NOW}\s+call(?:s|ed)?\s+(?P<value>{NAME})\s+home\b"),
    # "my Szeged flat has a balcony", "my neighbours in Szeged": a home said in passing, in a town the world knows
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<ours>[Mm]y|[Oo]ur)|(?P<who>{NAME})['’]s)\s+(?P<value>{NAME})\s+(?:flat|apartment|house|home|condo)\b",
        check=lambda match: known_place(match["value"]),
        confidence=0.6,
        presupposed=True,
        needs=("flat", "apartment", "house", "home", "condo"),
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?P<ours>[Mm]y|[Oo]ur)\s+(?:neighbou?rs|landlord|landlady|flatmates?|housemates?)\s+(?:in|back\s+in)\s+"
        rf"(?P<value>{NAME})",
        check=lambda match: known_place(match["value"]),
        confidence=0.6,
        presupposed=True,
        needs=("neighbo", "landl", "mate"),
    ),
    # "Greetings from Szeged, where I now live", "Eger, where Bence lives": the town a relative clause lives in
    _p(
        v.LIVES_IN,
        rf"\b(?P<value>{NAME}),?\s+where\s+(?:(?P<mine>[Ww]e)|{_WHO})(?:['’](?:m|re|s)|\s+(?:am|is|are))?{_NOW}\s+"
        r"(?:live|lives|living|settled)\b",
        check=lambda match: _a_home(match["value"]),
        needs=("where",),
    ),
    # "I commute into Budapest from Szeged": home is where one commutes from
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_NOW}\s+commutes?\s+(?:(?:in|into|to)\s+{NAME}\s+)?from\s+(?P<value>{NAME})",
        check=lambda match: known_place(match["value"]),
        confidence=0.6,
        needs=("commute",),
    ),
    # "Bence's home is in Eger", "we've made Szeged our home", "Bence is a Szeged local": where home is
    _p(
        v.LIVES_IN,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+home\s+is{_NOW}\s+(?:in\s+)?{_PART_OF_TOWN}(?P<value>{NAME})",
        check=lambda match: _a_home(match["value"]),
        needs=("home is",),
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_HAVE}{_NOW}\s+made\s+(?P<value>{NAME})\s+(?:my|our|his|her|their)\s+home\b",
        check=lambda match: _a_home(match["value"]),
        needs=("made",),
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+an?\s+(?:proud\s+|long-?time\s+)?(?P<value>{NAME})\s+(?:resident|local|native)\b"
        r"(?!\s+(?:of|by|in)\b)",
        # (a native of a town was born there: only one who still lives there is its local)
        check=lambda match: known_place(match["value"]) and not match.group(0).endswith("native"),
        needs=("resident", "local"),
    ),
    # "I'm Eger-based", "Bence is a Pécs-based designer": where one is based is where one lives
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?:an?\s+)?(?P<value>[{_UPPER}][\w'’]*(?:\s+[{_UPPER}][\w'’]*)?)-based\b"
        r"(?!\s+(?:company|firm|startup|start-up|business|agency|team|group|studio|bank))",
        check=lambda match: known_place(match["value"]),
        needs=("-based",),
    ),
    # "I'm still in Porto, same old flat": still there, so living there
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BE}\s+still\s+(?:living\s+|based\s+)?in\s+(?P<value>{NAME})"
        r"(?=\s*(?:[.,;!]|$)|\s+(?:lol|tho|though|haha)\b)",
        check=_no_trip,  # "I'm still in Frankfurt, the flight is delayed": a trip
        confidence=0.6,
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}(?:'s|’s|\s+has|'ve|’ve|\s+have){_NOW}\s+lived\s+in\s+"
        rf"(?P<towns>(?P<value>{NAME}){_MORE_TOWNS})",
        history=True,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+(?:lived|was\s+living|resided)\s+in\s+(?P<value>{NAME})", history=True),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:spent|lived)\s+(?:\w+\s+){{0,2}}(?:years|months|decades|a\s+decade|ages)\s+in\s+"
        rf"(?P<value>{NAME})",
        history=True,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+used\s+to\s+live\s+in\s+(?P<value>{NAME})", history=True),
    # the towns of a life told in order: "I used to live in Eger, then Pécs for ages, now Szeged", "Bence lived in Eger
    # until 2022, then in Pécs, and now he lives in Szeged" (towns the world knows: a bare name after
    # "then" or "now" could be anything)
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:used\s+to\s+live|lived|grew\s+up)\s+in\s+{NAME}[^.;!?]*?,\s+(?:and\s+)?then\s+(?:in\s+)?"
        rf"(?P<value>{NAME})",
        history=True,
        check=lambda match: known_place(match["value"]),
        needs=("then",),
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:used\s+to\s+live|lived|grew\s+up)\s+in\s+{NAME}[^.;!?]*?,\s+(?:and\s+|but\s+)?now\s+"
        r"(?:(?:he|she|they|I|we)(?:['’](?:s|re|m)|\s+is|\s+are|\s+am)?\s+(?:out|back|based|living|settled)?\s*)?(?:in\s+)?"
        rf"(?P<value>{NAME})(?=\s*(?:[.,;!]|$))",
        check=lambda match: known_place(match["value"]),
        needs=("now",),
    ),
    # "I used to live in Győr, now in Szeged": the home now, after the ones before
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}\s+(?:used\s+to\s+live|lived)\s+in\s+[^.;]*?,?\s+(?:and\s+|but\s+)?now\s+(?:(?:live|living)\s+)?in\s+"
        rf"(?P<value>{NAME})",
    ),
    # the household: "we are living now in Szeged", "we live in Győr"
    _p(
        v.LIVES_IN,
        rf"\b(?P<mine>[Ww]e)(?:'re|’re|\s+are|(?:'ve|’ve|\s+have)\s+been)?(?:\s+(?:now|still|currently|officially|finally))?\s+(?:live|living)"
        rf"(?:\s+now)?\s+in\s+(?P<value>{NAME})",
        confidence=0.7,
    ),
    # "moved back to Szeged after ten years in Győr": the home before
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated|came)\s+(?:back\s+)?to\s+{NAME}\s+after\s+(?:\w+\s+){{0,2}}"
        rf"(?:years?|months?|decades?)\s+in\s+(?P<value>{NAME})",
        history=True,
    ),
    _p(v.LIVES_IN, rf"\b{_WHO}\s+(?:works?|working)\s+remotely\s+from\s+(?P<value>{NAME})", confidence=0.6),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated)\s+(?:away\s+)?out\s+of\s+(?P<value>{NAME}){_NAME_ENDS}(?!\s+to\b)",
        negated=True,
    ),
    # (a home moved from is where one lived until then: a value that ended, said as the way here)
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:moved|relocated)\s+(?:away\s+|here\s+|over\s+)?from\s+(?P<value>{NAME}){_NAME_ENDS}"
        r"(?!\s+to\b)",
        ended=True,
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}(?:\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+lives?|{_BE}\s+no\s+longer\s+(?:living|based))"
        rf"\s+in\s+(?P<value>{NAME})",
        negated=True,
    ),
    # "she isn't living in Eger any more", "I'm not based in Pécs anymore"
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}(?:{_BE}\s+not|\s+(?:isn['’]t|aren['’]t))\s+(?:living|based)\s+in\s+(?P<value>{NAME})"
        r"(?=\s+(?:any\s*more|any\s+longer)\b)",
        needs=("any more", "anymore", "any longer"),
        negated=True,
    ),
    # "he has moved in with his girlfriend in Győr", "Dorka moved in with us in Szeged": a home shared from then
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+moved\s+in\s+with\s+(?:(?:my|his|her|their|our)\s+[a-z]+(?:\s+{NAME})?|me|us|{NAME})"
        rf"(?:\s+(?:here|there))?\s+in\s+(?P<value>{NAME})",
        needs=("moved in with",),
    ),
    # a home moved into: "we moved into a flat in Szeged at the weekend", "just moved into a tiny house in Tabán,
    # Budapest", "we've moved to a smaller place in Eger"
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_HAVE}{_NOW}\s+moved\s+(?:into|to)\s+(?:a|an|the|our|my|his|her|their)(?:\s+new)?"
        rf"{_DWELLING_WORDS}\s+(?:place|flat|apartment|house|home|condo|cottage|bungalow)\s+in\s+(?:{NAME},\s+)?"
        rf"(?P<value>{NAME})",
        needs=("moved into", *(f"moved to {word} " for word in ("a", "an", "the", "our", "my", "his", "her", "their"))),
    ),
    # a home had before, said in passing: "my old place in Szeged had a view of the valley"
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<ours>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:old|previous|former|last)\s+"
        rf"(?:place|flat|apartment|house|home|condo|cottage|bungalow)\s+in\s+(?P<value>{NAME})",
        history=True,
        confidence=0.6,
    ),
    # said in passing: "the new place in Denver has a garden", "we're renting a house in Leeds" (the speaker's home)
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Mm]y|[Oo]ur|[Tt]he)\s+new|(?P<ours>[Mm]y|[Oo]ur)(?:\s+new)?|(?P<who>{NAME})(?:'s|’s)\s+new)"
        rf"{_DWELLING_WORDS}\s+(?:place|flat|apartment|house|home|condo|cottage|bungalow)\s+in\s+(?P<value>{NAME})",
        confidence=0.6,
        check=_the_speakers_place,
    ),
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e|I)|(?P<who>{NAME}))(?:'re|’re|'m|’m|'s|’s|\s+are|\s+am|\s+is|(?:'ve|’ve|\s+have|\s+has)\s+been)"
        rf"\s+(?:now\s+|still\s+)?renting\s+"
        rf"(?:an?\s+(?:[a-z-]+\s+){{0,2}}?(?:place|flat|apartment|house|room|condo)\s+)?in\s+(?P<value>{NAME})",
        confidence=0.6,
        check=_no_trip,  # "renting a cottage in Whitby for Christmas": a stay
    ),
    # home again: "Dorka is back home in Eger", "we're back living in Zirc", "back at our place in Eger" — a line that
    # says it without a subject is the speaker's ("Back home in Eger the winters are long")
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BE}{_NOW}\s+{_BACK_HOME_IN}(?P<value>{NAME})",
        confidence=0.6,
    ),
    _p(
        v.LIVES_IN,
        rf"(?:^|\b(?:flights?|flying|flew|heading|headed|going|went|train|drive|driving)\s+)(?P<home>[Bb]ack)\s+"
        rf"{_BACK_HOME_IN}(?P<value>{NAME})",
        confidence=0.6,
        presupposed=True,  # "Back home in Eger I'd never get up at five": the wish is about the hour, not the home
        check=_no_trip,  # "back home in Eger for the weekend": a visit
    ),
    # "Bence is back in Pécs after three years in Vienna": a stay elsewhere over, home again (the stay, the home before)
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BE}{_NOW}\s+back\s+in\s+(?P<value>{NAME})\s+after\s+(?:(?:about|almost|nearly|over)\s+)?"
        rf"(?i:{_LONG_STAY})\s+(?:away\s+)?in\s+(?P<old>{NAME})",
        check=lambda match: known_place(match["value"]),
        needs=("back in",),
    ),
    # "we're staying put in Zirc": not moving, so living there
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BE}(?:\s+(?:definitely|still|just))?\s+staying\s+put\s+in\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    # "my partner and I rent a tiny house in Szeged", "we bought a house in Győr": the household's home
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e|I)|(?P<who>{NAME}){_COMPANY_OF})(?:\s+(?:now|finally|just|recently|also))?\s+(?:rent|rents|rented|bought|"
        rf"(?:have|has)\s+bought|own|owns)\s+an?{_DWELLING_WORDS}\s+(?:place|flat|apartment|house|condo|cottage|bungalow)\s+in\s+"
        rf"(?P<value>{NAME})",
        confidence=0.6,
        needs=("rent", "bought", " own "),
    ),
    # "home is still Zirc", "home is now Eger": the speaker's home
    _p(
        v.LIVES_IN,
        rf"(?:^|\b(?:but|and|so)\s+)(?P<home>[Hh]ome)\s+(?:is|['’]s)(?:\s+(?:still|now))?\s+(?P<value>{NAME})(?![\w'’-])",
        confidence=0.6,
    ),
    # "Zirc is home now", "Tarnóc has been home for three years": the speaker's home
    _p(
        v.LIVES_IN,
        rf"^(?P<value>{NAME})\s+(?:is|has\s+been|['’]s)\s+(?:now\s+)?(?:(?P<mine>my|our)\s+)?(?P<home>home)\b(?!\s+to\b)",
        confidence=0.6,
    ),
    # "Pécs was my home until 2024": the home before
    _p(
        v.LIVES_IN,
        rf"^(?P<value>{NAME})\s+(?:was|used\s+to\s+be)\s+(?:(?P<mine>my|our)\s+)?(?P<home>home)\b(?!\s+to\b)",
        confidence=0.6,
        history=True,
    ),
    # "since moving to Sopron I …": a change the speaker says in passing
    _p(
        v.LIVES_IN,
        rf"\b(?:[Ss]ince|[Aa]fter)\s+(?P<mine>moving|relocating)\s+to\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    # being somewhere now, as a lasting state: "we're in Szeged now", "he's in Győr these days" — not a trip
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BEEN}(?:\s+(?:now|still|finally))?\s+(?:out\s+|back\s+|settled\s+)?in\s+"
        rf"(?P<value>{NAME})\s+(?:now|these\s+days|nowadays|for\s+good|permanently|since)\b",
        check=_no_trip,
        confidence=0.6,
        needs=(" now", "these days", "nowadays", "for good", "permanently", "since"),
    ),
    # "we finally unpacked in Szeged", "unpacked the last box in Győr": moved in
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_HAVE}{_NOW}\s+unpacked(?:\s+(?:the\s+last\s+boxe?s?|everything))?\s+in\s+"
        rf"(?P<value>{NAME})",
        confidence=0.6,
        needs=("unpacked",),
    ),
    # "…, now in Szeged.": where the subject is now, said last
    _p(
        v.LIVES_IN,
        rf"\b(?:(?P<mine>[Ww]e)|{_WHO}){_BE}\s+now\s+(?:living\s+|based\s+|settled\s+)?in\s+(?P<value>{NAME})"
        rf"(?=\s*(?:[.,;!)]|$))",
        check=_no_trip,
        confidence=0.6,
        needs=(" now ",),
    ),
    # "Kestle Dental is where Dorka works now": the cleft of a home or an employer
    _p(v.LIVES_IN, rf"^(?P<value>{NAME})\s+is\s+where\s+{_WHO}{_NOW}\s+(?:lives?|living|settled|moved)\b"),
    _p(v.LIVES_IN, rf"^(?P<value>{NAME})\s+was\s+where\s+{_WHO}\s+(?:lived|grew\s+up)\b", history=True),
    # a chat's "home is Ghent now", "my home is in the centre of Eger": the speaker's home (a town, not a business)
    _p(
        v.LIVES_IN,
        rf"^(?:(?P<mine>[Mm]y|[Oo]ur)\s+)?(?P<home>[Hh]ome)\s+is\s+(?:now\s+)?(?:in\s+)?{_PART_OF_TOWN}(?P<value>{NAME})",
        confidence=0.6,
        check=lambda match: _a_home(match["value"]),
    ),
    # --- where someone works
    _p(
        v.WORKS_AT_ATTR,
        # ("I work in sales at Kestle": a department, in lower case, before the employer)
        rf"\b{_WHO}{_BEEN}?{_NOW}\s+(?:work|works|working)(?:\s+(?:remotely|full-time|part-time|freelance))?"
        rf"(?:\s+in\s+[a-z][\w&/-]*(?:\s+[a-z][\w&/-]*)?)?\s+(?:at|for)\s+"
        rf"{_THE}(?:(?:an?|the)\s+(?:[a-z][\w-]*\s+){{0,2}}?(?:company|firm|start-?up|agency|bank|studio|charity|business|"
        rf"consultancy|practice)\s+(?:called|named)\s+)?"
        rf"(?P<value>{NAME})",
        check=_org_ok,
    ),
    # "I freelance for Kestle", "she teaches at Tisza College", "he's interning at Zirc Labs": work done there
    _p(
        v.WORKS_AT_ATTR,
        # (not "consulted for Kestle in 2019": work done once)
        rf"\b{_WHO}{_BEEN}?{_NOW}\s+(?:(?:freelanc|consult|contract)(?:e|es|s|ing)?\s+for|"
        rf"(?:teach(?:es|ing)?|lectur(?:e|es|ing)|intern(?:s|ing)?)\s+at)\s+{_THE}(?P<value>{NAME})",
        check=_an_employer_not_a_town,
        confidence=0.6,
        needs=("freelanc", "consult", "contract", "teach", "lectur", "intern"),
    ),
    # "We at Tisza Analytics love data", "Here at Kestle Labs we ship", "I'm on the Kestle payroll": the speaker's
    _p(
        v.WORKS_AT_ATTR,
        rf"(?:\b(?P<mine>[Ww]e)|(?:^|(?<=[.!?]\s))(?P<ours>[Hh]ere))\s+at\s+{_THE}(?P<value>{NAME}),?\s+(?:we\s+)?[a-z]",
        check=_an_employer_not_a_town,
        confidence=0.6,
        needs=(" at ",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BE}{_NOW}\s+on\s+(?:the\s+)?(?P<value>{NAME})\s+payroll\b",
        check=_org_ok,
        needs=("payroll",),
    ),
    # "Since joining Kestle I've learned a lot": the join's, then the clause's subject
    _p(
        v.WORKS_AT_ATTR,
        rf"^(?:[Ee]ver\s+since|[Ss]ince|[Aa]fter)\s+joining\s+{_THE}(?P<value>{NAME}){_WHEN_AFTER_GERUND},?\s+(?P<me>I)\b",
        check=_an_employer_not_a_town,
        needs=("joining",),
    ),
    # "I switched from Kestle Labs to Tisza Analytics": one employer for another (businesses by their names)
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:switched|went|jumped|hopped)\s+(?:jobs?\s+)?from\s+{_THE}(?P<old>{NAME})\s+to\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=lambda match: _org_ok(match) and (_business_name(match["value"]) or _business_name(match["old"])),
        needs=("switched", "went", "jumped", "hopped"),
    ),
    # "I left Kestle for Tisza Analytics": the employer after the one left (which "left" ends, as it always does)
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:left|quit)\s+{_THE}(?P<left>{NAME})\s+for\s+{_THE}(?P<value>{NAME})",
        check=lambda match: _org_ok(match) and not known_place(match["value"]) and not known_place(match["left"]),
        needs=("left", "quit"),
    ),
    # "Kestle hired me as a designer", "I got hired at Kestle", "my employer is Kestle": a job taken
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<value>{NAME}){_HAVE}{_NOW}\s+hired\s+(?P<me>me)\b(?!\s+(?:to|for)\b)",
        check=_an_organisation,
        needs=("hired",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+got\s+hired\s+at\s+{_THE}(?P<value>{NAME})",
        check=_an_employer_not_a_town,
        needs=("hired",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:new\s+|current\s+)?employer(?:\s+is{_NOW}|,)\s+{_THE}"
        rf"(?P<value>{NAME})",
        check=_org_ok,
        needs=("employer",),
    ),
    # "I'm at Tisza Reinsurance", "staying put at Tisza & Vass": at a place of business (not "at the airport")
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:{_IS_NOW}{_NOW}|{_BE}?\s+(?:staying|staying\s+put|still))\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        # (not "at Kestle Labs for a workshop today": a visit)
        check=lambda match: _a_business(match) and not _A_VISIT_RE.match(match.string, match.end()),
        confidence=0.6,
        needs=(" at ", " with "),
    ),
    # "my team lead at Brightwell", "our team at Kestle Systems", "first paycheck from Quillon": the speaker's
    _p(
        v.WORKS_AT_ATTR,
        rf"(?:\b(?P<mine>[Mm]y|[Oo]ur)\s+(?:(?!{_FORMER_WORDS}\b)\w+\s+)?|^(?P<ours>[Ff]irst)\s+){_WORKPLACE_WORDS}\s+(?:at|from)\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
        presupposed=True,
        needs=(" at ", " from "),
    ),
    # "my old boss at Kestle", "my former colleagues at Kestle": where the speaker worked, until now
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+{_FORMER_WORDS}\s+{_WORKPLACE_WORDS}\s+(?:at|from)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
        presupposed=True,
        ended=True,
        needs=(" at ", " from "),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\s+(?:\w+\s+){{1,4}}?working\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:joined|rejoined|started\s+at|started\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)|"
        rf"started\s+working\s+(?:at|for)|took\s+a\s+(?:new\s+)?job\s+(?:at|with)|been\s+hired\s+by|was\s+hired\s+by|"
        rf"got\s+hired\s+by|(?:got|landed)\s+a\s+(?:new\s+)?job\s+(?:at|with)|been\s+with|been\s+at|been\s+employed\s+(?:by|at)|"
        rf"(?:is|am|are|was)\s+employed\s+(?:by|at))\s+{_THE}(?P<value>{NAME}){_NAME_ENDS}(?!\s+{_TEAM_WORDS}\b)"
        rf"(?:\s+from\s+(?P<old>{NAME}))?",
        # ("been at Leeds for two years" is a stay, not a job)
        check=lambda match: _org_ok(match) and not (" been at " in match.group(0) and known_place(match["value"])),
    ),
    # "Réka joined Kestle Health's Platform team": the named team's organisation is the employer ("joined Dorka's
    # team" is a person's team)
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:joined|rejoined)\s+(?P<value>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}?)"
        rf"(?:['’]s|(?<=s)['’])\s+"
        rf"(?P<team>(?:[\w&-]+\s+){{0,3}}?){_TEAM_WORDS}\b",
        check=lambda match: (
            _org_ok(match)
            and not known_place(match["value"])
            and (_business_name(match["value"]) or any(word[:1].isupper() for word in match["team"].split()))
        ),
        needs=("'", "’"),
    ),
    # "Réka, who heads marketing at Kestle", "Bence leads the design team at Tisza": one leads where one works
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_NOW}\s+(?:heads|leads|runs|manages|head|lead|run|manage)\s+(?:the\s+|our\s+|their\s+)?"
        rf"(?P<function>(?:[\w-]+\s+){{0,2}}?[\w-]+)\s+(?:at|for)\s+{_THE}(?P<value>{NAME}){_NAME_ENDS}(?!\s+{_TEAM_WORDS}\b)",
        check=lambda match: _org_ok(match) and _a_function_led(match["function"]),
        confidence=0.7,
        needs=("heads", "leads", "runs", "manages", "head ", "lead ", "run ", "manage "),
    ),
    # "Noor joins Kestle today as our data lead": an announcement's present is the day it is made; a join with a
    # day of its own, or under "when" or "if" (a clause before a comma), is not yet made
    _p(
        v.WORKS_AT_ATTR,
        rf"(?<![Ww]hen\s)(?<![Ii]f\s)(?<![Oo]nce\s)\b(?!(?:[Ww]hen|[Ii]f|[Oo]nce)\s){_WHO}\s+joins\s+{_THE}(?P<value>{NAME}){_NAME_ENDS}(?!\s+{_TEAM_WORDS}\b)"
        # (and from where: "joins Zirc Bank from Kestle as our new head of risk")
        rf"(?=(?:\s+from\s+{_THE}{NAME})?(?:\s+today\b|(?:\s+as\s+[^,.;!?]{{1,60}}?)?\s*(?:[.;!—–]|$)))",
        check=_org_ok,
        confidence=0.7,
        needs=("joins",),
    ),
    # "she joins us from Brightwell", "He comes to us from Tisza & Vass", "joined from Corvel Bank": the employer
    # before, whatever is said between of where to, when or as what ("joins Kestle today from …", "joined the Search
    # team from …", "joins as head of people from …"); a town come from is no employer
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:joined|joins|joining|came|comes|coming)"
        rf"(?:\s+(?:us|to\s+us|{_THE}{_TEAM_WORDS}|{_THE}{NAME}(?:\s+{_TEAM_WORDS})?))?"
        r"(?:\s+(?:today|this\s+week|this\s+month|last\s+week|last\s+month))?(?:\s+as\s+[^,.;:!?()]{1,60}?)?"
        rf"\s+from\s+{_THE}(?P<value>{NAME})",
        check=_an_employer_not_a_town,
        ended=True,
    ),
    # "I'm with Kestle.io now", "she's been with Harrow & Vale since May": with an organisation, not a person
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BEEN}{_NOW}\s+with\s+{_THE}(?P<value>{NAME})(?=\s+(?:now|these\s+days|nowadays|since)\b|,?\s+as\s+)",
        check=_an_organisation,
        confidence=0.6,
        needs=(" with ",),
    ),
    # "my new job at Brightwell", "the new job at Kestle is mostly meetings": the speaker's, or the named person's
    _p(
        v.WORKS_AT_ATTR,
        # (a job quit or left is the one before: "I quit my job at Kestle")
        r"(?<!quit\s)(?<!left\s)(?<!lost\s)(?<!leaving\s)(?<!quitting\s)"
        rf"(?:\b(?P<mine>[Mm]y)\s+|\b(?P<who>{NAME})(?:'s|’s)\s+|^(?P<ours>(?:[Tt]he\s+)?[Nn]ew)\s+)(?:new\s+)?"
        rf"(?:job|role|position|gig)(?:\s+as\s+(?:an?\s+)?[\w -]{{2,40}}?)?\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        # (a job that "starts Monday" is not yet held)
        check=lambda match: _org_ok(match) and not _STARTS_LATER_RE.match(match.string, match.end()),
        confidence=0.6,
        needs=("job", "role", "position", "gig"),
    ),
    # "started his residency at Szeged General Hospital", "I began my apprenticeship with Kestle": a post held there
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:started|began|begun|starts|begins)\s+(?:my|his|her|their)\s+(?:residency|"
        rf"apprenticeship|internship|traineeship|placement|fellowship|postdoc|secondment|rotation)\s+(?:at|with)\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=_org_ok,
        needs=(
            "residency",
            "apprentice",
            "internship",
            "traineeship",
            "placement",
            "fellowship",
            "postdoc",
            "secondment",
            "rotation",
        ),
    ),
    # "has worked at Brightwell since 2016": still there
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:'s|’s|\s+has|'ve|’ve|\s+have)\s+worked\s+(?:at|for)\s+{_THE}(?P<value>{NAME})(?=\s+since\b|"
        # ("has worked at Kestle for six years": a span up to now)
        rf"\s+for\s+(?:(?:about|almost|nearly|over|more\s+than|the\s+(?:last|past))\s+)?(?:[\w-]+\s+)?"
        r"(?:years?|months?|decades?|ages|a\s+(?:long\s+)?while|a\s+long\s+time)\s*(?:[.,;!]|$|now\b))",
        check=_org_ok,
    ),
    # "Dorka at Tisza Analytics reported it": a person named by where they work, as the subject of what they did
    _p(
        v.WORKS_AT_ATTR,
        rf"(?:^|(?<=[(,;:—–]\s)|(?<=\()){_NOW}(?P<who>{NAME})\s+at\s+(?P<value>{NAME})\s+(?=(?:says|said|reported|mentioned|"
        r"confirmed|asked|wants|wrote|emailed|called|told|thinks|replied|flagged|noticed|raised)\b)",
        check=_an_employer_not_a_town,
        confidence=0.6,
        needs=(" at ",),
    ),
    # "my desk at Kestle Robotics", "The new job at Kestle is …": where the writer works
    _p(
        v.WORKS_AT_ATTR,
        rf"(?:^(?=The\s+new\s+(?:job|role)\b)|\b(?=[Mm]y\s))(?P<mine>[Mm]y|The)\s+(?:new\s+)?"
        rf"(?:desk|job|role|position|office\s+job)\s+at\s+{_THE}(?P<value>{NAME})",
        # (not one being left: "I quit my job at Kestle")
        check=lambda match: (
            _an_employer_not_a_town(match) and not _LEAVING_BEFORE_RE.search(match.string, 0, match.start())
        ),
        confidence=0.6,
        needs=(" at ",),
    ),
    # "I've joined a tiny startup called Kestle": the business joined, by its name
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+joined\s+an?\s+(?:[\w-]+\s+){{0,2}}?(?:startup|start-up|company|firm|agency|studio|"
        rf"business|consultancy|charity|lab|practice)\s+(?:called|named)\s+(?P<value>{NAME})",
        check=_an_employer_not_a_town,
        needs=("joined",),
    ),
    # "Bence's first week at Kestle went well": his first week there; "two weeks into Kestle Robotics and …": mine
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<who>{NAME})['’]s\s+(?:first|second|third)\s+(?:day|week|month)\s+at\s+{_THE}(?P<value>{NAME})",
        check=_an_employer_not_a_town,
        confidence=0.6,
        needs=("first", "second", "third"),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"^(?P<mine>(?:a|one|two|three|four|five|six|\d+|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?))\s+into\s+"
        rf"(?P<value>{NAME})\b(?!\s+(?:project|migration|rollout|launch|release|sprint)\b)",
        check=_an_employer_not_a_town,
        confidence=0.6,
        needs=(" into ",),
    ),
    # "my first week at Kestle", "day three at Zirc Analytics", "a Quorum employee", "our contact at Kestle"
    _p(
        v.WORKS_AT_ATTR,
        rf"(?:\b(?P<mine>[Mm]y)\s+|^)(?P<ours>(?i:(?:first|second|third|last)\s+(?:day|week|month|year)|"
        rf"(?:day|week|month)\s+(?:one|two|three|four|five|six|seven|\d+)))\s+at\s+{_THE}(?P<value>{NAME})",
        # (a last day that is today is a job left, below; a first day today, one begun)
        check=lambda match: (
            _org_ok(match)
            and not (
                match["ours"].casefold().startswith("last")
                and (
                    re.search(r"(?i:today|yesterday)\s*(?:is|was|['’]s)\s+$", match.string[: match.start()])
                    or re.match(r"\s+was\b", match.string[match.end() :])  # "my last day at Kestle was Friday"
                )
            )
        ),
        confidence=0.6,
    ),
    # "I work in Kestle Insurance since March", as a learner says it: "in" a business, never a town or a department
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:{_BE})?{_NOW}\s+(?:work|works|working)\s+in\s+{_THE}(?P<value>{NAME})",
        check=lambda match: _org_ok(match) and _business_name(match["value"]) and not known_place(match["value"]),
        confidence=0.6,
    ),
    # "I'm employed by Kestle": the contracted "am" the perfect's list above does not take
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}(?:'m|’m|'s|’s|'re|’re){_NOW}\s+employed\s+(?:by|at)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    # "back when I was at Kestle we shipped weekly": an employer before, not a town
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?i:when)\s+{_WHO}\s+(?:was|worked)\s+(?:at|with|for)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_an_employer_not_a_town,
        needs=("when",),
    ),
    _p(v.WORKS_AT_ATTR, rf"^(?P<value>{NAME})\s+is\s+where\s+{_WHO}{_NOW}\s+(?:works?|working)\b", check=_org_ok),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BEEN}{_NOW}\s+an?\s+(?P<value>{NAME})\s+(?:employee|staffer|hire)\b",
        check=_org_ok,
        confidence=0.7,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BE}\s+(?:our|their|the|a|an|my)\s+(?:[\w-]+\s+){{0,2}}?(?:contact|liaison|rep|person)\s+(?:at|from)\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.6,
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
    # said in passing: "Work at Kestle is hectic lately" (the speaker's work)
    _p(
        v.WORKS_AT_ATTR,
        rf"^(?P<mine>[Ww]ork)\s+at\s+{_THE}(?P<value>{NAME})\s+(?:is|has\s+been|was)\b",
        check=_org_ok,
        confidence=0.6,
    ),
    # "joined Kestle as a copywriter after five years at Brightwell": the employer before
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\b[^.;]*?\bafter\s+(?:\w+\s+){{0,2}}(?:years?|months?|decades?)\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
        needs=(" after ",),
    ),
    # "she previously led infrastructure at Brightwell": where someone was before
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:previously|formerly)\s+(?:\w+\s+){{1,4}}?(?:at|for|with)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
        needs=("previously", "formerly"),
    ),
    # "as of today I'm at Kestle": a change of job, said as being there
    _p(
        v.WORKS_AT_ATTR,
        rf"(?i:as\s+of\s+(?:today|this\s+week|this\s+month|\w+day)|from\s+today|starting\s+today),?\s+{_WHO}{_BE}"
        rf"(?:\s+now)?\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        check=_org_ok,
        confidence=0.7,
        needs=("as of", "from today", "starting today"),
    ),
    # a contact's note: "Spoke with Zsófia Ambrus at Kestle Analytics", "Call with Nandor from Brightwell"
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?:[Ss]poke|[Mm]et|[Cc]all(?:ed)?|[Mm]eeting|[Cc]hat(?:ted)?|[Ii]ntro)\s+(?:with\s+|to\s+)?(?P<who>{NAME})\s+"
        rf"(?:(?P<from>from)|at)\s+{_THE}(?P<value>{NAME})",
        check=_a_contacts_employer,
        confidence=0.6,
        needs=("spoke", "met ", "call", "meeting", "chat", "intro"),
    ),
    # "I spent four years at Quillon Telecom", "I was at Vashegy until 2021": an employer before
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:spent|worked)\s+(?:\w+\s+){{0,3}}(?:years|months|decades|a\s+decade)"
        # (doing what, or as what: "a decade building booking engines at", "eight years as a surveyor at")
        r"(?:\s+[a-z]+ing(?:\s+[a-z]+){0,2}|\s+as\s+an?\s+[a-z]+(?:\s+[a-z]+){0,2})?"
        rf"\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+was\s+(?:at|with)\s+{_THE}(?P<value>{NAME})(?=\s+(?:until|till|for|before)\b)",
        history=True,
        check=_org_ok,
    ),
    # "Kestle let Bence go": the employer ended it
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<value>{NAME})\s+(?:has\s+)?(?:let|laid)\s+(?:(?P<me>me)|(?P<who>{NAME}))\s+(?:go|off)\b",
        negated=True,
        check=_org_ok,
    ),
    # "I'm not at Kestle any more", "she's also not at Tisza Media anymore": an employer no longer
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BE}(?:\s+(?:also|just))?\s+(?:not|no\s+longer)\s+(?:at|with)\s+{_THE}(?P<value>{NAME})"
        r"(?=\s+(?:any\s*more|either|now)\b|\s*[.,;!—–-]|\s*$)",
        negated=True,
        after_negation=True,
        check=_org_ok,
    ),
    # "Nandor comes to Kestle from Tisza Bank": where he works now, and where before
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_NOW}\s+(?:comes|came)\s+to\s+{_THE}(?P<value>{NAME})\s+from\s+{_THE}(?P<old>{NAME})",
        check=_org_ok,
        needs=("comes to", "came to"),
    ),
    # "Noor is at Kestle these days", "I'm still at Quorum": being at an organisation as a lasting state
    _p(
        v.WORKS_AT_ATTR,
        # ("still at Kestle tho": a chat's "though" after it)
        rf"\b{_WHO}{_BE}(?:(?P<state>\s+(?:now|currently|still))(?:\s+\w+ly)?)?\s+at\s+{_THE}(?P<value>{NAME})"
        rf"(?=(?(state)\s*(?:[.,;!]|$|\s+(?:these\s+days|nowadays|now|since|tho|though)\b)|\s+(?:these\s+days|nowadays|"
        r"now|currently|at\s+the\s+moment)\b))",
        # (a town the world knows is where one is, not whom one works for: "still at Eger")
        check=_an_employer_not_a_town,
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
    # "I used to be a ferry engineer with Kestle Lines": a post held before, and where
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+used\s+to\s+be\s+(?:an?\s+|the\s+)?[\w&/ -]{{2,40}}?\s+(?:at|with|for)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
        needs=("used to be",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:quit|resigned\s+from|retired\s+from|stopped\s+working\s+(?:at|for)|"
        rf"been\s+laid\s+off\s+(?:from|by)|"
        rf"was\s+laid\s+off\s+(?:from|by)|got\s+laid\s+off\s+(?:from|by)|laid\s+off\s+from|quit\s+(?:my|his|her|their)\s+job\s+at|"
        # ("was let go from Kestle", "was made redundant at Kestle": a job ended by the employer)
        rf"(?:was|were|been|got)\s+(?:let\s+go|made\s+redundant|fired|sacked|dismissed)\s+(?:from|at|by)|"
        rf"left\s+(?:my|his|her|their)\s+job\s+at)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    # "Kestle let me go", "I parted ways with Kestle": a job ended, said from the employer's side or both
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<value>{NAME}){_HAVE}\s+(?:let\s+(?P<me>me)\s+go|laid\s+(?P<mine>me)\s+off)\b",
        negated=True,
        check=_a_business,
        needs=("let me go", "laid me off"),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+parted\s+ways\s+with\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_a_business,
        needs=("parted ways",),
    ),
    # "my last day at Kestle was Friday": a job left then
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?P<mine>[Mm]y)\s+last\s+(?:day|week|shift)\s+(?:at|with)\s+{_THE}(?P<value>{NAME})\s+was\b",
        negated=True,
        check=_org_ok,
        needs=("last day", "last week", "last shift"),
    ),
    # "today is my last day at Brightwell", "After six years at Kestle, today's my last day": a job left today
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?i:today\s+is|today['’]s|yesterday\s+was)\s+(?P<mine>my)\s+last\s+day\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
        needs=("last day",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"^(?:After|Following)\s+[^,]{{0,40}}?\s+(?:at|with)\s+{_THE}(?P<value>{NAME}),\s+"
        r"(?i:today\s+is|today['’]s|yesterday\s+was)\s+(?P<mine>my)\s+last\s+day\b",
        negated=True,
        check=_org_ok,
        needs=("last day",),
    ),
    # a bare "left X": X is an employer or a town, which the graph knows (graph.facts decides; no kind, no fact)
    _p(
        LEFT,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+(?P<value>{NAME})(?!\s+(?:to\s+join|for(?!\s+good))\b)(?=\s*(?:[.,;:!]|$|\s+(?:in|"
        r"last|this|on|after|yesterday|earlier|two|three|a\s+few|and|for\s+good)\b))",
        negated=True,
        check=_org_ok,
    ),
    # "…, goodbye Szeged!", "farewell, Kestle": the speaker taking leave of a town or an employer (which one, the
    # text or the graph says)
    _p(
        LEFT_EITHER,
        rf"(?:^|[,;—–-]\s*)(?P<mine>[Gg]oodbye|[Bb]ye(?:\s+bye)?|[Ff]arewell|[Ss]o\s+long),?\s+(?P<value>{NAME})\s*!",
        negated=True,
        check=_org_ok,
        needs=("goodbye", "bye", "farewell", "so long"),
    ),
    # "left Vanta to join Quorum": the employer left
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+{_THE}(?P<value>{NAME})\s+(?:to\s+join|for(?!\s+good))\b",
        negated=True,
        # ("left Auckland for Melbourne" is a move of home; "left a voicemail for the buyer at Kestle", a message left)
        check=lambda match: (
            _org_ok(match)
            and not (match.group(0).endswith("for") and known_place(match["value"]))
            and not _left_for_someone(match)
        ),
    ),
    # "has left Auckland for Melbourne": one town left for another
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+(?P<value>{NAME})\s+for\s+(?!good\b){NAME}",
        negated=True,
        check=lambda match: known_place(match["value"]),
        needs=("left",),
    ),
    _p(
        v.LIVES_IN,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+left\s+(?P<old_town>{NAME})\s+for\s+(?!good\b)(?P<value>{NAME})",
        check=lambda match: known_place(match["old_town"]),
        needs=("left",),
    ),
    # an org page's line, a post and who holds it: "Director of Platform: Dorka Vass (reports to …)"
    _p(
        v.JOB_TITLE,
        # (a post that heads something, not a part in a project: "Sprint sponsor:", "Scrum master:")
        r"^(?:[-•*]\s*)?(?P<value>(?:(?:Head|Chief|Director|VP|SVP|EVP|Vice\s+President)\b[\w&/ -]{0,40}?"
        rf"|C[A-Z]{{1,3}}O)):\s+(?P<who>{NAME})(?=\s*(?:\(|,|;|$))",
        check=lambda match: bool(_a_title(match["value"])) and " " in match["who"],
    ),
    # "Yesterday was my last shift at Kestle Bakery": a job ended (a last day still to come ends nothing yet)
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?:was|has\s+been)\s+(?P<mine>my)\s+(?:very\s+)?(?:final|last)\s+(?:day|shift)\s+(?:at|with)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
        needs=("last day", "final day", "last shift", "final shift"),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}\s+(?:no\s+longer|don't|doesn't|do\s+not|does\s+not)\s+works?\s+(?:at|for)\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_BE}\s+no\s+longer\s+(?:with|at|employed\s+(?:at|by)|working\s+(?:at|for|with|in))\s+{_THE}(?P<value>{NAME})",
        negated=True,
        check=_org_ok,
    ),
    # --- a job title
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}\s+used\s+to\s+be\s+(?:an?\s+|the\s+)?{_TITLE}",
        history=True,
        check=_title_ok,  # ("I used to be a bit shy": no post)
        needs=("used to be",),
    ),
    # "Ms. Vass was elected treasurer", "Bence was voted in as chair": an office held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:been\s+|was\s+|got\s+)?(?:elected|voted\s+in\s+as|re-?elected)\s+(?:an?\s+|the\s+|as\s+)?{_TITLE}",
        check=_named_title_ok,
        needs=("elected", "voted in"),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:been\s+|got\s+|was\s+|were\s+)?(?:promoted|demoted|bumped(?:\s+up)?)"
        # ("promoted to Director of Finance at Tisza Bank": the post, and where it is held)
        rf"(?:\s+from\s+(?:an?\s+|the\s+)?(?P<old>[\w -]{{2,40}}?)(?:\s+back)?)?\s+to\s+(?:an?\s+|the\s+)?{_TITLE}"
        rf"{_AT_ORG}",
        check=_named_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        # ("took over from N as", "replaced N as", "succeeded N as": the one before held it)
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:(?:took|taken|takes|take|taking)\s+over(?:\s+from\s+{NAME})?|replaced\s+{NAME}|"
        # ("stepped up as head of support", "she serves as treasurer": a post taken up, or held)
        rf"succeeded\s+{NAME}|stepped\s+up|steps\s+up|serves|serve|serving)\s+(?:(?:his|her|their|the|my)\s+)?"
        # (not "replaced Réka as my manager": whom one reports to, no post)
        rf"(?:(?:role|job|post|position)\s+)?as\s+(?!(?:my|his|her|their|our)\s+(?:{_RELATIONAL_ROLE_WORDS})\b)(?:an?\s+|the\s+)?"
        rf"{_TITLE}",
        check=_named_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        # (named or appointed to a post, not "N named hers Bodri": only in the passive)
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:(?:been|was|got|were)\s+(?:named|appointed)|(?:been\s+|was\s+|got\s+)?(?:hired(?:\s+by\s+{_THE}"
        rf"(?P<org>{NAME})(?:\s+[\w]+){{0,3}}?)?\s+as|(?:joined|joins|started|starts|came\s+on|comes\s+on)"
        rf"(?:\s+us)?(?:\s+{_THE}{NAME})?(?:\s+from\s+{_THE}{NAME})?"
        rf"(?:\s+(?:today|yesterday|(?:this|last)\s+\w+|on\s+\w+|from\s+today))?\s+as))\s+(?:an?\s+|the\s+|our\s+)?"
        rf"(?:new\s+)?{_TITLE}",
        check=_named_title_ok,
    ),
    # "has started as a trainee at Kestle Bank": the post taken up, and where
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:started|starts|began|begins|came\s+on|comes\s+on)\s+as\s+(?:an?\s+|the\s+|our\s+)?"
        rf"(?:new\s+)?{_TITLE}\s+(?:at|with)\s+{_THE}(?P<org>{NAME})",
        check=_named_title_ok,
        needs=(" as ",),
    ),
    # "in my role as head of support", "my new role as treasurer": the speaker's post, said in passing
    _p(
        v.JOB_TITLE,
        rf"(?:\b[Ii]n\s+(?P<mine>my)|\b(?P<ours>[Mm]y))\s+(?:new\s+|current\s+)?(?:role|job|position|post|capacity)\s+as\s+"
        rf"(?:an?\s+|the\s+)?{_TITLE}",
        check=_title_ok,
        presupposed=True,
        needs=(" as ",),
    ),
    # "I've been head of support since 2021": a post without its article, held since
    _p(
        v.JOB_TITLE,
        # (not "been my manager since Monday": whom one reports to, no post)
        rf"\b{_WHO}(?:'ve|’ve|\s+have|'s|’s|\s+has){_NOW}\s+been\s+(?:the\s+|our\s+)?(?!(?:my|his|her|their|your)\b)"
        rf"{_TITLE}(?=\s+since\b)",
        check=_title_ok,
        needs=("been",),
    ),
    # "congrats @Bence on the promo to staff engineer", "Congrats on becoming a senior analyst, Bence!": the post
    # a person is congratulated on reaching
    _p(
        v.JOB_TITLE,
        rf"\b(?i:congrats|congratulations)\s+(?:to\s+)?@?(?P<who>{NAME})\s+on\s+(?:the\s+|his\s+|her\s+|their\s+)?"
        rf"(?:promo|promotion|new\s+role|move|step\s+up)\s+(?:to|as)\s+(?:an?\s+|the\s+)?{_TITLE}",
        check=_named_title_ok,
        needs=("congrat",),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b(?i:congrats|congratulations)\s+on\s+(?:becoming|being\s+(?:made|named|promoted\s+to))\s+(?:an?\s+|the\s+)?"
        rf"{_TITLE},\s+@?(?P<who>{NAME})\b",
        check=_named_title_ok,
        needs=("congrat",),
    ),
    # "Bence here, new backend engineer": a chat's own introduction, and the post it gives
    _p(
        v.JOB_TITLE,
        rf"(?:^|[!.]\s+|👋\s*)(?P<who>{NAME})\s+here,\s+(?:the\s+|your\s+)?(?:new\s+)?{_TITLE}(?=\s*(?:[.,;!—–]|$))",
        check=_title_ok,
        needs=(" here,",),
    ),
    # "Kestle has appointed Noor as CFO", "announced the appointment of Dr. Noor Aziz as CFO": the one named holds it
    _p(
        v.JOB_TITLE,
        rf"\b(?:(?:has\s+|have\s+|had\s+)?(?:appointed|named|hired|promoted)|(?i:the\s+appointment\s+of))\s+"
        rf"(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s+)?(?P<who>{NAME})\s+(?:as|to)\s+(?:an?\s+|the\s+|our\s+|its\s+|their\s+)?"
        rf"(?:new\s+)?{_TITLE}",
        check=_appointed_title_ok,
        needs=("appoint", "named", "hired", "promoted"),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:{_HAVE}{_NOW}\s+(?:(?:been|was|got)\s+made|(?:been\s+|was\s+|got\s+)?(?:became|becomes))|"
        # ("became my manager": whom one reports to, no post)
        rf"(?:'ve|’ve|\s+have|'s|’s|\s+has){_NOW}\s+become)\s+(?!(?:my|his|her|their|your)\s+(?:new\s+)?(?:line\s+)?"
        rf"(?:manager|boss|supervisor)\b)(?:an?\s+|the\s+|our\s+)?{_TITLE}"
        rf"{_AT_ORG}",
        check=_title_ok,
    ),
    # a promotion's arrow: "Zsófia Ambrus: Senior Engineer → Staff Engineer", "N — title change: SRE II → senior SRE"
    _p(
        v.JOB_TITLE,
        rf"(?:^|[-•*]\s*)(?!{_OWN_TITLE_LABEL_RE.pattern}\b)(?P<who>{NAME})\s*(?::|\s[—–-])\s*"
        r"(?:(?i:title(?:\s+change)?|promoted|promotion)\s*:?\s*)?"
        rf"(?P<old>{_POST_WORDS})\s*(?:→|->)\s*(?P<value>{_POST_WORDS})\s*(?=[.;,()]|$)",
        check=_promoted_ok,
        needs=("→", "->"),
    ),
    # the speaker's own arrow: "new title: junior buyer → senior buyer"
    _p(
        v.JOB_TITLE,
        r"^(?P<mine>(?i:(?:my\s+)?(?:new\s+)?title(?:\s+change)?|promoted|promotion))\s*:\s*"
        rf"(?P<old>{_POST_WORDS})\s*(?:→|->)\s*(?P<value>{_POST_WORDS})\s*(?=[.;,()!]|$|\s+\W)",
        check=_promoted_ok,
        needs=("→", "->"),
    ),
    # "went from junior dev to senior dev in two years": a promotion said as a way travelled
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:went|got\s+promoted|was\s+promoted|moved\s+up)\s+from\s+(?:an?\s+)?"
        rf"(?P<old>{_POST_WORDS})\s+to\s+(?:an?\s+)?(?P<value>{_POST_WORDS})(?<!\.)"
        r"(?=\s*(?:[.;,!]|$)|\s+(?:in|at|after|within|last|this|over)\b)",
        check=_promoted_ok,
        needs=("went from", "promoted from", "moved up from"),
    ),
    # "I'm now a product owner, not a business analyst any more": a post no longer held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\b[^.;]*?\bnot\s+(?:an?\s+|the\s+)?"
        rf"(?P<value>{_POST_WORDS})\s+any\s*(?:more|longer)\b",
        negated=True,
        after_negation=True,
        check=_title_ok,
        needs=("any more", "anymore", "any longer"),
    ),
    # "resumed as Analytics Lead", "returns to her role as SRE manager", "picks up her role as Product Lead": a post
    # held again
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:resumed|resumes|returned\s+to|returns\s+to|picked\s+up|picks\s+up|is\s+back)\s+"
        rf"(?:(?:her|his|their|my)\s+(?:old\s+)?(?:role|post|job|position)\s+)?as\s+(?:an?\s+|the\s+|our\s+)?{_TITLE}"
        rf"{_AT_ORG}",
        check=_title_ok,
    ),
    # "First day as VP of Product at Kestle", "my first week at Kestle as a junior dev", "accepted the Head of Product
    # role at Brightwell": a post begun
    _p(
        v.JOB_TITLE,
        rf"(?:\b[Mm]y\s+(?P<mine>first)|^(?P<ours>[Ff]irst))\s+(?:day|week|month)\s+as\s+(?:an?\s+|the\s+|our\s+)?(?:new\s+)?"
        rf"{_TITLE}"
        rf"{_AT_ORG}",
        check=_title_ok,
        needs=("first",),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:accepted|taken|took\s+on|started\s+in)\s+the\s+(?P<value>{_TITLE_WORDS})\s+"
        rf"(?:role|post|position|job){_AT_ORG}",
        check=_title_ok,
        needs=(" role", " post", " position", " job"),
    ),
    # a note's "Nandor now CTO", "Zsófia now officially Staff Engineer": the verb left out
    _p(
        v.JOB_TITLE,
        rf"^(?P<who>{NAME})\s+now\s+(?:officially\s+)?(?:the\s+|our\s+|an?\s+)?(?:new\s+)?{_TITLE}",
        # (not a clause whose verb is there: "Réka now reports directly to the CEO")
        check=lambda match: _title_ok(match) and not _VERB_IN_TITLE_RE.search(match["value"]),
        needs=(" now ",),
    ),
    # "say hello to Nandor, our new Head of Sales at Kestle", "introducing Zsófia as our new CFO"
    _p(
        v.JOB_TITLE,
        rf"\b(?i:welcome|welcoming|say\s+hello\s+to|introducing)\s+(?P<who>{NAME})(?:,\s+|\s+as\s+)(?:our|the)\s+"
        rf"(?:new\s+)?{_TITLE}{_AT_ORG}",
        check=_title_ok,
        needs=("welcom", "hello", "introduc"),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b(?:[Tt]hey|[A-Z][\w'’-]+)\s+(?:made|named|appointed|promoted)\s+(?P<mine>me)\s+(?:to\s+)?(?:an?\s+|the\s+)?"
        rf"{_TITLE}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?:working\s+as\s+)?(?:an?|the|our|their)\s+{_TITLE}{_AT_ORG}",
        check=_title_ok,
        confidence=0.7,
    ),
    # "is now a hydrologist at Brightwell", "she's at Tisza Solar now, as a site engineer": a job word where it is held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?:working\s+as\s+)?an?\s+{_TITLE}\s+(?:at|for|with)\s+{_THE}(?P<org>{NAME})",
        check=_working_as_ok,
        confidence=0.7,
        needs=(" at ", " for ", " with "),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_BEEN}{_NOW}\s+(?:at|with)\s+{_THE}(?P<org>{NAME})(?:\s+now)?,?\s+(?:now\s+)?(?:working\s+)?as\s+"
        rf"(?:an?\s+|the\s+)?{_TITLE}",
        check=_working_as_ok,
        confidence=0.7,
        needs=(" as ",),
    ),
    # "Bence remains CTO", "she stays on as head of support", "is back from leave as platform lead", "returns to her
    # role as SRE manager": a post held still, or again
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_NOW}\s+(?:remains|stays(?:\s+on)?\s+as|continues\s+as|(?:is\s+|['’]s\s+)?(?:back|returns|returned|"
        rf"is\s+returning)(?:\s+from\s+[\w -]{{1,30}}?)?\s+(?:to\s+(?:her|his|their)\s+(?:role|post|job)\s+)?as)\s+"
        rf"(?:an?\s+|the\s+|our\s+)?{_TITLE}",
        check=_title_ok,
        needs=("remains", "stays", "continues as", "back", "return"),
    ),
    # "served as CTO of Kestle until 2022": a post held before, and where
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}\s+(?:served|worked)\s+as\s+(?:an?\s+|the\s+)?(?P<value>[\w -]{{2,40}}?)\s+(?:of|at|for)\s+{_THE}"
        rf"(?P<org>{NAME})",
        check=_title_ok,
        history=True,
        needs=("served as", "worked as"),
    ),
    # "now I am driver for Kestle Haulage": a title without its article, where it is held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?!(?:an?|the|our|their|my|at|in|on|with|for|from|now|still|here|there|back|off|out|"
        rf"not|also|just|very|so|really|going|working|living|moving|based|\w+ed)\b){_TITLE}\s+(?:at|for|with)\s+{_THE}"
        rf"(?P<org>{NAME})",
        check=_bare_title_ok,
        confidence=0.6,
        needs=(" at ", " for ", " with "),
    ),
    # "I've started a new position as Staff Engineer at Kestle", "started my new role as head of growth at Quillon":
    # a post taken up, and where
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_TAKEN_UP}\s+(?:a|my|the|her|his|their)\s+(?:new\s+)?(?:job|role|position|post)\s+as\s+"
        rf"(?:an?\s+|the\s+)?{_TITLE}{_AT_ORG}",
        check=_working_as_ok,
        needs=(" as ",),
    ),
    _p(
        v.WORKS_AT_ATTR,
        rf"\b{_WHO}{_TAKEN_UP}\s+(?:a|my|the|her|his|their)\s+(?:new\s+)?(?:job|role|position|post)\s+(?:at|with)\s+"
        rf"{_THE}(?P<value>{NAME})",
        check=_org_ok,
    ),
    # "took a job with Kestle as a geologist", "started at Quillon in January as head brewer": the post and where
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_HAVE}{_NOW}\s+(?:(?:took|taken|started|starting|began)\s+(?:a|my|the)\s+(?:new\s+)?(?:job|role|position|post)\s+"
        rf"(?:at|with)|started\s+(?:at|with)|"
        rf"joined|joins|starts\s+(?:at|with))\s+{_THE}(?P<org>{NAME})(?:\s+(?:in|on|last|this)\s+(?:the\s+)?\w+)?,?\s+as\s+"
        rf"(?:an?\s+|the\s+|our\s+|their\s+)?(?:new\s+|first\s+)?{_TITLE}",
        check=_working_as_ok,
        needs=(" as ",),
    ),
    # "she's Brightwell's head of procurement", "Kestle's new CTO, Nandor Vass, …": a title at a named organisation
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?P<org>{NAME})(?:'s|’s|(?<=s)'|(?<=s)’)\s+(?:new\s+)?{_TITLE}",
        check=_held_title_ok,
        confidence=0.7,
        needs=("'s ", "’s "),
    ),
    _p(
        v.JOB_TITLE,
        rf"\b(?P<org>{NAME})(?:'s|’s)\s+(?:new\s+)?(?P<value>(?:[a-z][\w-]*\s+){{0,3}}?[\w-]+),\s+(?P<who>{NAME}),",
        check=_held_title_ok,
        confidence=0.7,
    ),
    # "Your shift manager is Zsófia Ambrus", "Our new CFO is Nandor Vass": the title a named person holds ("your
    # manager is Nandor" says whom you report to, not a title)
    _p(
        v.JOB_TITLE,
        rf"\b(?:[Yy]our|[Oo]ur|[Tt]heir|[Tt]he)\s+(?:new\s+)?(?P<value>(?:[\w-]+\s+){{0,3}}?[\w-]+)\s+is{_NOW}\s+"
        rf"(?P<who>{NAME})(?=\s*(?:[.,;:!)]|$|\s+(?:and|who|from|now|since)\b))",
        check=_held_title_ok,
        confidence=0.7,
        needs=(" is ",),
    ),
    # "Our CFO Nandor Vass wants the numbers by Thursday": a title before a name, said in passing
    _p(
        v.JOB_TITLE,
        rf"\b(?:[Oo]ur|[Tt]heir)\s+(?:new\s+)?(?P<value>(?:[a-z][\w-]*\s+){{0,2}}?(?:[A-Z]{{2,5}}|[a-z][\w-]*))\s+"
        rf"(?P<who>{NAME})(?=\s+[a-z])",
        check=_held_title_ok,
        confidence=0.6,
        presupposed=True,
    ),
    # "reports to the site director, Nandor Vass": the title before the name
    _p(
        v.JOB_TITLE,
        rf"\b(?:[Tt]he|[Oo]ur|[Tt]heir|[Yy]our)\s+(?:new\s+)?(?P<value>(?:[a-z][\w-]*\s+){{0,3}}?[\w-]+),\s+"
        rf"(?P<who>{NAME})(?=\s*(?:[.,;:!)]|$|\s+and\b))",
        check=_title_ok,
        confidence=0.7,
    ),
    # "Zsófia is head of legal", "Nandor is now director of sales": a post of a department, without its article
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:\s+is|\s+was|['’]s\s+now|\s+has\s+been){_NOW}\s+"
        rf"(?P<value>(?:head|director|vp|chief|manager|lead)\s+of\s+(?:[\w-]+\s+){{0,2}}?[\w-]+)"
        rf"{_TITLE_END}",
        check=_title_ok,
        confidence=0.7,
        needs=(" of ",),
    ),
    # "Nandor, who is now principal engineer": a role said to be held now
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}\s+now\s+(?!(?:an?|the|our|their|my|at|in|on|with|for)\b){_TITLE}{_AT_ORG}",
        check=_title_ok,
        confidence=0.7,
    ),
    # "I used to be a data engineer; now I'm head of support": "now" before the subject, the post without its article
    _p(
        v.JOB_TITLE,
        rf"(?:^|[;,—–]\s*|\b(?:and|but)\s+)[Nn]ow,?\s+{_WHO}{_IS_NOW}\s+(?!(?:an?|the|our|their|my|at|in|on|with|for)\b)"
        rf"{_TITLE}{_AT_ORG}",
        check=_title_ok,
        confidence=0.7,
        needs=("now",),
    ),
    # "Today she is VP of Sales at Brightwell": a title as written on a card, where it is held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?P<value>(?:[A-Z][\w-]*\s+){{0,3}}[A-Z][\w-]*(?:\s+of\s+[A-Z][\w-]*)?)"
        rf"\s+(?:at|of|for)\s+{_THE}(?P<org>{NAME})",
        check=_title_ok,
        confidence=0.7,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:{_IS_NOW}{_NOW}\s+working|{_NOW}\s+(?:work|works))\s+as\s+(?:an?\s+|the\s+)?{_TITLE}{_AT_ORG}",
        check=_title_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:{_BEEN}?{_NOW}\s+(?:work|works|working|employed)|(?:'s|’s|\s+has|'ve|’ve|\s+have)\s+worked)\s+"
        rf"(?:at|for|by)\s+{_THE}(?P<org>{NAME})(?:\s+since\s+\S+)?\s+as\s+"
        rf"(?:an?\s+|the\s+)?{_TITLE}",
        check=_working_as_ok,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:new\s+)?(?:job\s+title|title|role|job|position)\s+is{_NOW}\s+"
        rf"(?:an?\s+)?{_TITLE}{_AT_ORG}",
        check=_named_title_ok,
    ),
    # "Tisza & Vass hired Bálint as a senior associate": the title, and where it is held
    _p(
        v.JOB_TITLE,
        rf"\b{_THE}(?P<org>{NAME})\s+(?:has\s+)?(?:hired|took\s+on|has\s+taken\s+on|brought\s+on|onboarded)\s+"
        rf"(?P<who>{NAME})(?:\s+[\w]+){{0,2}}?\s+as\s+(?:an?\s+|the\s+|our\s+)?{_TITLE}",
        check=_named_title_ok,
    ),
    # "Being an engineering manager means a lot of meetings": the speaker's own job, said in passing
    _p(
        v.JOB_TITLE,
        rf"^(?P<mine>Being)\s+(?:an?|the)\s+(?P<value>{_TITLE_WORDS})\s+(?:means|is|has|makes|can)\b",
        check=_title_ok,
        confidence=0.6,
    ),
    # "Kestle's new CFO is Réka Tóth", "the new CFO at Kestle is Réka Tóth": a post and where it is held, announced
    _p(
        v.JOB_TITLE,
        rf"(?:\b(?P<org>{NAME})['’]s\s+|\b[Tt]he\s+)(?:new\s+|current\s+|incoming\s+)?{_TITLE_WORDS_NAMED}"
        rf"(?:\s+(?:at|of)\s+(?P<org2>{NAME}))?\s+is{_NOW}\s+(?P<who>{NAME})(?=\s*(?:[.,;!(]|$))",
        # (after a possessive, an office only an organisation has: "Dorka's favourite teacher" is no post at Dorka)
        check=lambda match: (
            _held_title_ok(match)
            and bool(match["org2"] or (match["org"] and _TITLE_FIRST_ANY_CASE_RE.match(match["value"])))
        ),
        confidence=0.7,
    ),
    # "As the new build engineer, Piet is …", "As a nurse, I see this a lot": the post is taken as given, whatever the
    # clause goes on to do ("… Piet will present")
    _p(
        v.JOB_TITLE,
        rf"^As\s+(?:(?:the|our|their|an?)\s+)?(?:new\s+)?{_TITLE}{_AT_ORG},\s+(?:(?P<me>{_ME})|(?P<who>{NAME}))\s+[a-z]",
        check=_title_ok,
        confidence=0.7,
        presupposed=True,
    ),
    _p(v.JOB_TITLE, rf"\b{_WHO}\s+was\s+(?:an?|the)\s+{_TITLE}{_AT_ORG}", check=_title_ok, history=True),
    # "I was CTO at Kestle until 2023": a post named without its article, where it was held
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}\s+was\s+{_TITLE}{_AT_ORG}",
        check=lambda match: _title_ok(match) and bool(match["org"]) and match["value"][:1].isupper(),
        history=True,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:{_HAVE}|{_BE}){_NOW}\s+(?:stepped\s+down|stepping\s+down|resigned|retired|quit)\s+as\s+"
        rf"(?:an?\s+|the\s+|our\s+)?{_TITLE}",
        check=_named_title_ok,
        negated=True,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}{_BE}\s+no\s+longer\s+(?:(?:an?|the|our)\s+)?{_TITLE}",
        check=_title_ok,
        negated=True,
    ),
    _p(
        v.JOB_TITLE,
        rf"\b{_WHO}(?:'s|’s)\s+(?:job\s+)?title\s+(?:changed|went|moved)\s+from\s+(?:an?\s+)?(?P<old>[\w -]{{2,40}}?)"
        rf"\s+to\s+(?:an?\s+)?{_TITLE}",
        check=_named_title_ok,
    ),
    # --- who someone reports to
    # "Réka switched from Bence to Dorka as her manager": a manager changed, and the one before
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_HAVE}\s+(?:switched|moved|changed|went)\s+from\s+(?P<old>{NAME})\s+to\s+(?P<value>{NAME})\s+as\s+"
        r"(?:his|her|their|my)\s+(?:line\s+)?(?:manager|boss|lead)\b",
        needs=("as her", "as his", "as my", "as their"),
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}(?:{_BE}?{_NOW}\s+(?:reports|report|reporting)|(?:'ve|’ve|\s+have|\s+has|'s|’s)(?:{_NOW}\s+been)?{_NOW}\s+"
        rf"(?:reported|reporting)|{_HAVE}{_NOW}\s+(?:started|began|begun|keeps?|kept|continues?\s+to)\s+"
        # ("I answer to Dorka": whom one answers to is one's manager)
        rf"(?:reporting|report)|{_BE}?{_NOW}\s+(?:answers|answer|answering)(?=\s+(?:directly\s+)?to\b))"
        rf"(?:\s+(?:directly|straight|day-to-day|formally|officially|functionally))?\s+(?:to|into)\s+"
        rf"{_PERSON_VALUE}(?:,?\s+(?:instead\s+of|not|rather\s+than)\s+(?:to\s+)?(?P<old>{NAME}|me\b))?",
    ),
    # "I'm one of Dorka's reports", "Bence is Dorka's direct report", "Dorka is who I report to": whose report one is
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_IS_NOW}{_NOW}\s+(?:one\s+of\s+)?(?P<value>{NAME})(?:'s|’s|(?<=s)'|(?<=s)’)\s+(?:direct\s+)?reports?\b",
        needs=("report",),
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"^(?P<value>{NAME})\s+is\s+(?:who|whom|the\s+one|the\s+person)\s+{_WHO}{_NOW}\s+(?:reports?|answers?)\s+to\b",
        needs=("report", "answer"),
    ),
    # "Dorka isn't my manager any more", "Dorka is no longer my boss": whom one no longer reports to
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+(?:is\s+no\s+longer|(?P<not>isn['’]t|is\s+not))\s+(?P<mine>my)\s+(?:{_RELATIONAL_ROLE_WORDS})\b",
        # ("isn't my manager" alone may be a correction: only "… any more" ends one)
        check=lambda match: (
            not match["not"] or bool(re.match(r"\s+any\s*(?:more|longer)\b", match.string[match.end() :]))
        ),
        negated=True,
        needs=("no longer my", "n't my", "not my"),
    ),
    # "Dorka replaced Réka as my manager": the new one, and the one before
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME}){_HAVE}\s+(?:replaced|succeeded|took\s+over\s+from)\s+(?P<old>{NAME})\s+as\s+(?P<mine>my)\s+"
        rf"(?:{_RELATIONAL_ROLE_WORDS})\b",
        needs=("as my",),
    ),
    # "Bálint reports to me", "Zsófia and Nandor report to me from today", "he moved under me": the speaker manages them
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<whom>{NAME}(?:(?:,\s+|\s+and\s+){NAME}){{0,4}}){_NOW}\s+(?:(?:now\s+)?(?:reports?|reporting)\s+"
        rf"(?:directly\s+)?to|moved\s+under|(?:is|are)\s+(?:now\s+)?under)\s+(?P<value>me)\b",
        needs=(" me",),
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}(?:{_HAVE}|{_BE}){_NOW}\s+(?:moved|(?:was|were|been|got)\s+moved|move|moves|sit|sits|works?|working|"
        rf"(?:is|are)\s+now|now)\s+under\s+(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}(?:\s+(?:formerly|previously|once|originally))?\s+(?:reported|used\s+to\s+report)\s+(?:directly\s+)?"
        rf"(?:to|into)\s+{_PERSON_VALUE}",
        history=True,
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_BEEN}{_NOW}\s+(?:managed|supervised|line-managed)\s+by\s+(?P<value>{NAME})",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<mine>[Mm]y)\s+(?:new\s+|actual\s+|direct\s+|current\s+)?(?:line\s+)?(?:manager|boss|supervisor)"
        rf"(?:\s+at\s+{_THE}{NAME})?,\s+(?P<value>{NAME}),",
        presupposed=True,  # "My boss, Nandor, wants the deck by Friday": his wish hedges nothing about who he is
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<mine>[Mm]y)\s+(?:new\s+|current\s+)?(?:line\s+)?(?:manager|boss|supervisor|team\s+lead(?:er)?)"
        rf"{_MANAGER_NAMED}(?P<value>{NAME})",
    ),
    # "Dorka's got a new manager — Bálint", "I have a new boss: Réka Tóth"
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?:(?P<me>{_ME})(?:['’]ve|\s+have)|(?P<who>{NAME})(?:['’]s|\s+has))(?:\s+(?:finally|just|now))?(?:\s+got)?"
        r"\s+a\s+new\s+(?:line\s+)?"
        rf"(?:manager|boss|supervisor)\s*(?:[:—–,]|\s+(?:called|named))\s*(?P<value>{NAME})",
    ),
    # a chat drops its "my": "new manager is Nandor", "boss (Zsófia) wants it by Friday"
    _p(
        v.REPORTS_TO_ATTR,
        rf"^(?P<mine>[Nn]ew\s+(?:line\s+)?(?:manager|boss|supervisor))\s+is{_NOW}\s+(?P<value>{NAME})",
        confidence=0.6,
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"(?:^|\b[Mm]y\s+)(?P<mine>(?:[Nn]ew\s+)?(?:[Mm]anager|[Bb]oss|[Ss]upervisor))\s*\((?P<value>{NAME})\)",
        confidence=0.6,
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+is{_NOW}\s+(?P<mine>my)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)(?!['’]s)",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+is{_NOW}\s+(?P<who>{NAME})(?:'s|’s)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|"
        r"supervisor)",
    ),
    # "my manager Nandor wants it by Friday", "Zsófia's boss Nandor is out", "boss (Nandor) wants …": the
    # manager is given, whatever is said of them
    _p(
        v.REPORTS_TO_ATTR,
        rf"(?<![\w'’-])(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))?\s*(?<![Oo]ld\s)(?<![Ff]ormer\s)(?:new\s+)?"
        rf"(?:line\s+)?(?:manager|boss|supervisor)(?!['’]s)\s*\(?(?P<value>{NAME})\)?(?=\s+[a-z]|[,.!;)]|$)",
        presupposed=True,
        confidence=0.7,
        check=lambda match: bool(match["mine"] or match["who"] or match.start() == 0),
    ),
    # "my former manager, Nandor, sent a card", "Zsófia's old boss Nandor retired": whom one reported to before
    _p(
        v.REPORTS_TO_ATTR,
        rf"(?<![\w'’-])(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:former|old|previous|ex-?)\s*(?:line\s+)?"
        rf"(?:manager|boss|supervisor)(?!['’]s),?\s+\(?(?P<value>{NAME})\)?(?=\s+[a-z]|[,.!;)]|$)",
        presupposed=True,
        history=True,
        needs=("former", "old", "previous", "ex"),
    ),
    # "in my previous job at Kestle …", "Bence's old employer, Kestle, …": where one worked before
    _p(
        v.WORKS_AT_ATTR,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:previous|old|last|former)\s+(?:job|role|position|"
        rf"employer|company|workplace)(?:\s+(?:at|with)|,)\s+{_THE}(?P<value>{NAME})",
        history=True,
        check=_org_ok,
        needs=("previous", "old", "last", "former"),
    ),
    # "Zsófia's manager changed from Nandor to Ambrus"
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:line\s+)?(?:manager|boss|supervisor)\s+(?:changed|went|"
        rf"switched)\s+from\s+(?P<old>{NAME})\s+to\s+(?P<value>{NAME})",
    ),
    # "Nandor's been my manager since Monday", "Nandor was my manager until last year"
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})(?:['’]s\s+been|\s+has\s+been)\s+(?P<mine>my)\s+(?:line\s+)?(?:manager|boss|supervisor)",
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME})\s+was\s+(?P<mine>my)\s+(?:line\s+)?(?:manager|boss|supervisor)(?!['’]s)",
        history=True,
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor|team\s+lead(?:er)?)"
        rf"(?:{_MANAGER_NAMED}|,\s+)"
        rf"(?P<value>{NAME})",
    ),
    # "Piet manages Noor and Omar": each of them reports to Piet
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME}){_NOW}\s+(?:manages|supervises|line-manages)\s+(?P<whom>{NAME}(?:(?:,\s*|,?\s+and\s+)"
        rf"{NAME})*)(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|after|these|nowadays)\b))",
    ),
    # "Dorka manages me", "Dorka became my manager in May": the speaker reports to Dorka
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b(?P<value>{NAME}){_NOW}\s+(?:(?:manages|supervises|line-manages)\s+(?P<me>me)\b"
        rf"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|these|nowadays)\b))|(?:became|has\s+become|is\s+now)\s+(?P<mine>my)\s+"
        r"(?:new\s+)?(?:line\s+)?(?:manager|boss|supervisor)\b)",
        needs=(" me", "my "),
    ),
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}\s+(?:(?:no\s+longer|doesn't|don't|does\s+not|do\s+not)\s+reports?|(?:has\s+)?stopped\s+reporting)\s+to\s+"
        rf"(?:(?P<me_value>me)\b|(?P<value>{NAME}))",
        negated=True,
    ),
    _p(v.REPORTS_TO_ATTR, rf"\b{_WHO}{_BE}\s+no\s+longer\s+under\s+(?P<value>{NAME})", negated=True),
    # "I'm no longer reporting to Dorka", "Bence isn't reporting to Dorka any more"
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}(?:{_BE}\s+(?:no\s+longer|not)|\s+(?:isn['’]t|aren['’]t))\s+reporting\s+(?:directly\s+)?to\s+"
        rf"(?:(?P<me_value>me)\b|(?P<value>{NAME}))",
        negated=True,
    ),
    # "I'm under Zsófia now instead of Nandor"
    _p(
        v.REPORTS_TO_ATTR,
        rf"\b{_WHO}{_BE}{_NOW}\s+under\s+(?P<value>{NAME})(?:\s+now)?(?:,?\s+(?:instead\s+of|rather\s+than)\s+(?P<old>{NAME}))?",
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
        # ("Responsibility for the Zirc exporter passed to Tisza": who answers for it owns it)
        rf"\b(?:[Oo]wnership\s+of|[Rr]esponsibility\s+for)\s+(?:the\s+)?(?P<system>{_THING})\s+(?:has\s+)?(?:moved|moves|passed|passes|"
        rf"went|goes|was\s+(?:moved|transferred|handed\s+over|passed|given)|is\s+moving|transferred|transfers|shifted|"
        rf"shifts)"
        rf"(?:\s+from\s+(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?\s+to\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        # (a thing "was run by" someone once, a job or a drill, is not theirs: only what "is run by" them)
        # ("the Zirc dashboard (Kestle) is maintained by Tisza Ops": what the bracket says of it aside)
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})(?:\s*\([^()]{{1,40}}\))?"
        rf"(?:(?:\s+(?:is|was|are|were)|['’]s|\s+(?:has|have){_NOW}\s+been)(?:\s+(?:both|all))?|:){_NOW}\s+"
        r"(?:owned|maintained|looked\s+after|"
        # ("owned and operated by", "built and maintained by": what someone keeps is theirs)
        rf"(?<!\bwas\s)(?<!\bwere\s)run|(?:built|designed|developed|written)\s+and\s+(?:maintained|run|owned))"
        # ("maintained by me since April", "maintained by Réka and me": the speaker, too)
        rf"(?:\s+and\s+(?:operated|maintained|run|supported))?\s+by\s+(?:(?P<me_value>me)\b|{_OWNER}"
        r"(?:\s+and\s+(?P<and_me>me)\b)?)"
        # "… owned by the Messaging team rather than Core Services", "…, not Payments as it used to be"
        rf"(?:,?\s+(?:rather\s+than|instead\s+of|not)\s+(?:by\s+)?(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+|[Oo]ur\s+)?(?P<system>{_ARTICLELESS_THING})\s+(?:now\s+)?belongs?\s+to\s+{_OWNER}",
    ),
    # "the Zirc exporter belonged to Tisza Ops": whose it was
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+|[Oo]ur\s+)?(?P<system>{_ARTICLELESS_THING})\s+belonged\s+to\s+{_OWNER}",
        history=True,
        needs=("belonged",),
    ),
    # "the export cron is officially mine", "the data checks are mine now": the speaker's
    _p(
        v.OWNED_BY,
        rf"(?:^|\b[Tt]he\s+|\b[Oo]ur\s+)(?P<system>{_THING})\s+(?:is|are)\s+(?:now\s+|officially\s+|all\s+)*(?P<me_value>mine)\b",
        needs=("mine",),
    ),
    # a handover's arrow: "ingest pipeline → Nandor (from Zsófia)", "kestle-auth → Tisza Security" (a thing)
    _p(
        v.OWNED_BY,
        rf"(?:^|[;:]\s*)(?:[Tt]he\s+)?(?P<system>{_THING})\s*(?:→|->)\s*{_OWNER}(?:\s*\((?:from|was)\s+(?P<old>{NAME})\))?"
        rf"(?=\s*(?:[.,;!(]|$))",
        # (after a thing's label the arrow runs from one owner to the next: read below)
        check=lambda match: _a_thing_handed(match) and not _after_a_things_label(match),
        needs=("→", "->"),
    ),
    # "Zirc exporter: Vashegy Platform → Tisza Ops": a thing's label, then its owner before and after
    _p(
        v.OWNED_BY,
        rf"^(?:[Tt]he\s+)?(?P<system>{_THING}):\s*(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})\s*(?:→|->)\s*{_OWNER}"
        rf"(?=\s*(?:[.,;!(]|$))",
        check=lambda match: _a_system_by_its_noun(match["system"]),
        needs=("→", "->"),
    ),
    # a tracker's or a summary's line: "Quillon owned by Search Quality"
    _p(
        v.OWNED_BY,
        # ("The billing service — owned by Tisza Ops": a list's line, its dash before the owner)
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<system>{_THING})(?<!\bis)(?<!\bare)(?<!\bwas)(?<!\bwere)(?<!\bbeen)(?<!\bnow)(?<!\bboth)"
        rf"(?<!\ball)(?:\s+|\s+[—–-]\s+)(?:owned|maintained)\s+by\s+{_OWNER}(?=\s*(?:[.,;!]|$|\s+now\b))",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:(?P<me>{_ME})|{_OWNER}){_BEEN}{_NOW}\s+the\s+(?:(?:new|sole|only|main|primary|current|official)\s+)?"
        r"(?:owners?|maintainers?|DRI)\s+(?:of|for)\s+(?:the\s+)?"
        rf"(?P<system>{_THING})(?=\s*(?:[.,;!]|$|\s+(?:now|since|as|so|these)\b))",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+is{_NOW}\s+{_OWNER}(?:'s|’s|(?<=s)'|(?<=s)’)\s+(?:responsibility|baby|call)\b",
    ),
    _p(
        v.OWNED_BY,
        # ("I'm responsible for the Zirc pipeline": the speaker's, as a named owner's would be)
        rf"\b(?:(?P<me>{_ME})(?:['’]m|\s+am)|{_OWNER}\s+(?:is|are)){_NOW}\s+"
        r"(?:responsible\s+for|(?P<charge>in\s+charge\s+of|on\s+the\s+hook\s+for))\s+"
        rf"(?:the\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|as|after)\b))",
        # a person "in charge of" an office, a shift or an account runs it: only a system by its words, or a team's
        check=lambda match: (
            not match["charge"] or _a_thing_handed(match) or re.search(_TEAM_WORDS, match["value"] or "")
        ),
    ),
    _p(
        v.OWNED_BY,
        # ("has owned" it since, but not "owned" it once)
        # ("she's had the payout scheduler since spring": had, and has)
        # ("@dorka owns …": a handle has no word's edge before it)
        rf"(?:\b|(?<![\w@#])(?=[@#]))(?:(?P<me>{_ME})|{_OWNER}){_HAVE}{_NOW}\s+(?:owns|own|(?<=\bhas\s)owned|(?<=\bhave\s)owned|"
        rf"(?<=['’]ve\s)owned|"
        r"(?:(?<=\bhas\s)|(?<=\bhave\s)|(?<=['’]ve\s)|(?<=['’]s\s))(?P<had>had)(?=\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,3}\s+since\b)|"
        rf"co-owns?|took\s+over|taken\s+over|takes\s+over|inherited|"
        # ("owns and runs the Zirc exporter", "builds and maintains it": both of what an owner does)
        rf"(?:owns?|builds?|built|maintains?|runs?)\s+and\s+(?:runs?|maintains?|operates?|owns?|supports?)|"
        rf"maintains?|looks?\s+after|runs|run|"
        # ("has been looking after Zirc since January": kept, so still theirs)
        rf"(?:(?<=\shas\s)|(?<=\shave\s)|(?<=['’]ve\s)|(?<=['’]s\s))been\s+(?:looking\s+after|maintaining|owning))\s+"
        rf"(?:ownership\s+of\s+)?(?:both\s+)?(?:the\s+|our\s+|their\s+)?(?P<system>{_THING})"
        # ("took over the Zirc exporter from me": the speaker's before)
        rf"(?:\s+from\s+(?:the\s+)?(?P<old>me\b|us\b|{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?"
        rf"(?P<more>(?:,\s+(?:the\s+)?{_THING}){{1,5}}(?=,?\s+and\s))?"
        # ("…, and if it breaks": a clause of its own, no second thing)
        rf"(?:,?\s+and\s+(?:the\s+)?(?!(?:if|when|unless|it|they|he|she|we|I|you|so|then)\b)(?P<also>{_THING}))?"
        # ("I own the Zirc dashboards (since the reorg)": an aside after it; "… from N yesterday": when)
        r"(?=\s*(?:[.,;!(]|$|\s+(?:as|on|in|since|last|this|now|these|nowadays|and|outright|officially|fully|entirely|"
        r"jointly|when|after|once|following|end\s+to\s+end|top\s+to\s+bottom|yesterday|today|recently|earlier|"
        r"effective|personally|alone|myself|ourselves|themselves|himself|herself)\b))",
        # (what one "has had since" is a thing by its words: "I've had Bodri since she was a puppy" is a pet)
        check=lambda match: (
            not match["had"]
            or bool(_system_name(match["system"], owner="") and not match["system"].split()[-1][:1].isupper())
        ),
    ),
    # "the Zirc exporter is managed by Tisza Ops", "Tisza Ops handles the Zirc exporter": a named system is its keeper's
    # (a person, a team or an office "managed by" someone is led by them; a budget or the rota one manages is a task)
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+|[Oo]ur\s+)?(?P<system>{_ARTICLELESS_THING})(?:\s+(?:is|are)|['’]s|\s+(?:has|have){_NOW}\s+been){_NOW}\s+"
        rf"(?:managed|handled|supported|operated)\s+by\s+{_OWNER}",
        check=_a_named_system,
        needs=("managed by", "handled by", "supported by", "operated by"),
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_NOW}\s+(?:manages|handles|supports|operates|(?<=s\s)(?:manage|handle|support|operate))\s+"
        rf"(?:the\s+|our\s+|their\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|these|nowadays|for\s+us|end\s+to\s+end)\b))",
        check=_a_named_system,
        needs=("manage", "handle", "support", "operate"),
    ),
    # "Tisza Ops picked up the Zirc exporter", "has custody of", "is now on point for": a named system come to a keeper
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_HAVE}{_NOW}\s+(?:picked\s+up|adopted|(?:has|have)\s+custody\s+of|(?:is|are){_NOW}\s+(?:on\s+point\s+for|"
        # ("Tisza Ops is accountable for …", "are the custodians of …", "stewards …", "runs point on …")
        r"accountable\s+for|the\s+(?:custodians?|stewards?)\s+of)|stewards?|runs?\s+point\s+on)"
        rf"\s+(?:the\s+|our\s+|their\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|in|after|last|this|these)\b))",
        check=_a_named_system,
        needs=("picked up", "adopted", "custody", "on point", "accountable", "custodian", "steward", "point on"),
    ),
    # "Tisza Ops (owners of the Zirc exporter)", "Tisza Ops, the Zirc exporter's owners,", "the Zirc exporter's owners,
    # Tisza Ops,": an owner said beside its name
    _p(
        v.OWNED_BY,
        # (as a bracket is read apart: "Tisza Ops owners of the Zirc exporter")
        rf"\b{_OWNER}\s*(?:,|\(|\s)\s*(?:the\s+)?(?:owners?|maintainers?)\s+of\s+(?:the\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[,)]|\.?$))",
        needs=("owners of", "owner of", "maintainers of", "maintainer of"),
    ),
    _p(
        v.OWNED_BY,
        # (as an apposition is read apart: "Tisza Ops is the Zirc exporter's owners")
        rf"\b{_OWNER}(?:,|\s+(?:is|are))\s+(?:the\s+)?(?P<system>{_THING})['’]s\s+(?:owners?|maintainers?)(?=\s*(?:,|\.?$))",
        needs=("'s owner", "’s owner", "'s maintainer", "’s maintainer"),
    ),
    _p(
        v.OWNED_BY,
        rf"(?:^|\b[Tt]he\s+)(?P<system>{_THING})['’]s\s+(?:owners?|maintainers?),\s+{_OWNER},",
        needs=("owners,", "owner,", "maintainers,", "maintainer,"),
    ),
    # "Tisza Ops gave up the Zirc exporter", "handed off", "dropped": a named system no longer its keeper's
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_HAVE}{_NOW}\s+(?:gave\s+up|handed\s+off|dropped|offloaded)\s+(?:the\s+|our\s+|their\s+)?(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:to|in|last|this|after|when)\b))",
        check=_a_named_system,
        negated=True,
        needs=("gave up", "handed off", "dropped", "offloaded"),
    ),
    # "Tisza Ops is the team behind the Zirc exporter", "the Zirc exporter owner is Tisza Ops": its team
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}\s+(?:is|are){_NOW}\s+the\s+(?:team|people|folks|group|squad|crew)\s+behind\s+(?:the\s+|our\s+)?"
        rf"(?P<system>{_THING})(?=\s*(?:[.,;!]|$|\s+(?:now|since)\b))",
        check=_a_thing_handed,
        needs=("behind",),
    ),
    _p(
        v.OWNED_BY,
        rf"(?:^|\b[Tt]he\s+|\b[Oo]ur\s+)(?P<system>{_ARTICLELESS_THING})['’]?s?\s+owner\s+is{_NOW}\s+{_OWNER}",
        # (a thing of two words or more by its noun: "the product owner is Dorka" names a post)
        check=lambda match: len(match["system"].split()) > 1 and _a_thing_handed(match),
        needs=(" owner is",),
    ),
    # "N used to own the Zirc API": whose it was
    _p(
        v.OWNED_BY,
        rf"\b(?:(?P<me>{_ME})|{_OWNER})\s+used\s+to\s+(?:own|maintain|run|look\s+after)\s+(?:the\s+|our\s+)?"
        rf"(?P<system>{_THING})(?=\s*(?:[.,;!(]|$|\s+(?:before|until|till|but|and|in|at)\b))",
        history=True,
    ),
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}{_HAVE}{_NOW}\s+took\s+(?:the\s+)?(?P<system>{_THING})\s+over\b",
    ),
    # "the wasm bindings went from me to Dorka": hers now, the speaker's before
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:went|moved|passed)\s+(?:over\s+)?from\s+(?P<old>me)\s+to\s+"
        rf"{_OWNER}",
        needs=("from me",),
    ),
    # a line's thing, then its owner: "Handover — zirc-gateway: owner is now the Tisza team (was the Kestle team)"
    _p(
        v.OWNED_BY,
        rf"(?:^|[—–]\s*)(?:[Tt]he\s+)?(?P<system>{_THING}):\s+(?:the\s+)?(?:owner|owning\s+team)\s+is(?:\s+now)?\s+"
        rf"{_OWNER}(?:\s*\((?:was|previously|formerly)\s+(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?)\))?",
        needs=("owner",),
    ),
    # "Freya handed the search gateway to Omar": Omar owns it (who handed it is not said to have owned it: a lead may
    # hand on what their team kept)
    _p(
        v.OWNED_BY,
        # ("we handed …", "he's handed …": the new owner whoever handed it)
        # ("Dorka's handed": Dorka has)
        # ("I've passed the checklist on to Dorka": handed on)
        rf"\b(?:the\s+)?(?P<giver>{NAME}(?<!['’]s)(?:\s+{_TEAM_WORDS})?|{_HANDLE}|(?i:we|he|she|they)){_HAVE}\s+"
        rf"(?:handed|passed|(?P<gave>gave|transferred))\s+(?:over\s+|on\s+)?(?:the\s+)?(?P<system>{_THING})\s+(?:over\s+|on\s+)?to\s+"
        rf"(?:(?P<me_value>me)\b|{_OWNER})",
        # (what one "gave" someone is theirs only when it is a named system: "gave the kids to Dorka" is not)
        check=lambda match: not match["gave"] or _a_named_system(match),
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:(?P<me>{_ME})(?:['’]m|\s+am)\s+no\s+longer\s+(?:responsible\s+for|in\s+charge\s+of|the\s+owner\s+of)|{_OWNER}\s+"
        rf"(?:no\s+longer|doesn't|don't|does\s+not|do\s+not)\s+{_KEEPS})\s+(?:the\s+)?"
        rf"(?P<system>{_THING})"
        r"(?=\s*(?:[.,;!—–]|$)|\s+any\s*more\b)",
        negated=True,
    ),
    # "Kestle dashboard now maintained by the Tisza team": a release note's or a headline's passive, without its "is"
    _p(
        v.OWNED_BY,
        rf"(?:^|[—–:]\s+)(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:now|currently)\s+(?:owned|maintained|run)\s+by\s+{_OWNER}"
        r"(?=\s*(?:[.,;!]|$))",
    ),
    # "Dorka isn't the owner of the Zirc repo any more"
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}\s+(?:isn['’]t|is\s+not|is\s+no\s+longer)\s+(?:the\s+)?(?:owner\s+of|responsible\s+for|in\s+charge\s+of)\s+"
        rf"(?:the\s+)?(?P<system>{_THING})(?=\s*(?:[.,;!]|$)|\s+any\s*more\b)",
        negated=True,
    ),
    # "the Zirc pipeline is no longer owned by Tisza", "Zirc isn't maintained by Tisza any more"
    _p(
        v.OWNED_BY,
        rf"^(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:(?:is|are)\s+(?:now\s+)?(?i:no\s+longer|not)|isn['’]t|aren['’]t)\s+"
        rf"(?:owned|maintained|run)\s+by\s+{_OWNER}(?=\s*(?:[.,;!]|$)|\s+(?:any\s*more|now)\b)",
        negated=True,
        check=lambda match: not re.match(r"\s*(?:yet|but)\b", match.string[match.end() :]),
    ),
    # "This change moves ownership of /zirc/export from @dorka to @tisza-ops", "we handed ownership of Zirc to Tisza"
    _p(
        v.OWNED_BY,
        r"\b(?:moves|moved|transfers|transferred|hands|handed|passes|passed|gives|gave)\s+ownership\s+of\s+(?:the\s+)?"
        rf"(?P<system>{_THING}|/[\w/.-]+)(?:\s+from\s+(?:the\s+)?(?P<old>{NAME}|@[\w-]+))?\s+to\s+(?:the\s+)?"
        rf"(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?|@[\w-]+)",
        needs=("ownership",),
    ),
    # "the Zirc exporter sits with the Tisza team now", "the Kestle dashboards are now with Tisza": a thing by its words
    # (a person who "sits with" a team sits beside it)
    _p(
        v.OWNED_BY,
        # ("the Zirc exporter lives with Tisza Ops now": where a thing is kept)
        rf"\b(?:[Tt]he\s+)?(?P<system>{_ARTICLELESS_THING})\s+(?:now\s+)?(?:sits|sit|is|are|has\s+sat|have\s+sat|stays|stay|"
        r"lives|live|"
        # ("the Zirc exporter falls under Tisza Ops": what a team's remit covers)
        r"remains|remain|falls|fall)\s+"
        # ("the retry middleware is under Core Platform": a thing under a team is its)
        rf"(?:now\s+)?(?:with|(?P<under>under))\s+{_OWNER}"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|as\s+of)\b))",
        # (what sits "under" a person is a team they lead: only under a team is a thing owned)
        check=lambda match: (
            _a_thing_handed(match)
            and not _PREPOSITION_FIRST_RE.match(match["system"])
            and (not match["under"] or _a_unit(match["value"]))
        ),
        needs=(
            "sits with",
            "sit with",
            "falls under",
            "fall under",
            "sat with",
            "is with",
            "are with",
            "now with",
            "stays with",
            "stay with",
            "remains with",
            "remain with",
            "is under",
            "are under",
            "sits under",
            "now under",
            "lives with",
            "live with",
        ),
    ),
    # "the Zirc exporter moved under the Tisza team" in a reorg: a thing by its words (a person who moves under
    # someone reports to them)
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_ARTICLELESS_THING})\s+(?:has\s+|have\s+)?(?:now\s+)?(?:moved|moves|went|goes|"
        rf"was\s+moved|were\s+moved)\s+under\s+{_OWNER}"
        r"(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|as\s+of|in|on|last|this)\b))",
        check=lambda match: _a_thing_handed(match) and not _PREPOSITION_FIRST_RE.match(match["system"]),
        needs=("under",),
    ),
    # "Tisza is the owning team for Zirc", "Tisza Ops are the maintainers of the Zirc exporter"
    _p(
        v.OWNED_BY,
        rf"\b{_OWNER}\s+(?:is|are){_NOW}\s+(?:the\s+)?(?:owning\s+team|owners|maintainers)\s+(?:for|of)\s+"
        rf"(?:the\s+)?(?P<system>{_THING})(?=\s*(?:[.,;!]|$|\s+(?:now|since|from|as\s+of)\b))",
        needs=("owning team", "owners", "maintainers"),
    ),
    # "ownership of the SMS relay is with Kestle Infra now"
    _p(
        v.OWNED_BY,
        rf"\b[Oo]wnership\s+of\s+(?:the\s+)?(?P<system>{_THING})\s+(?:is|sits|lies|now\s+sits)\s+with\s+{_OWNER}",
    ),
    # "the payment matcher is Tisza Ops's now", "The rota sync has been Dorka's since 2023"
    _p(
        v.OWNED_BY,
        # ("Zirc and Kestle are both Tisza Ops' now", "it's Tisza Systems' now")
        rf"\b(?:[Tt]he\s+)?(?P<system>{_ARTICLELESS_THING})\s+(?:is|are|has\s+been|have\s+been)(?:\s+(?:both|all))?{_NOW}\s+"
        rf"{_OWNER}"
        r"(?:'s|’s|(?<=s)'|(?<=s)’)(?=\s*(?:[.,;!]|$|\s+(?:now|since|these\s+days|from|as\s+of|ever\s+since)\b|\s+[—–]\s))",
    ),
    # "Zirc is on Dorka's plate now": on one's plate is one's to look after
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:is|are|has\s+been|have\s+been){_NOW}\s+on\s+{_OWNER}(?:'s|’s)\s+plate\b",
        needs=("plate",),
    ),
    # "the Quillon pipeline was transferred from Tisza team to Zsófia", "Quillon has been handed to Tisza team",
    # "Quillon ownership transferred from Risk to Tisza team"
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})(?:\s+(?P<ownership>ownership))?(?:\s+(?:was|has\s+been|is|got))?{_NOW}\s+"
        rf"(?:transferred|handed(?:\s+over)?|reassigned|passed(?:\s+over)?|given|(?(ownership)(?:moved|moves|went|shifted)))"
        rf"(?:\s+from\s+(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?\s+to\s+{_OWNER}",
    ),
    # a change's own words, its doer left out ("Transfers the zirc-worker from web-core to messaging", "Handing the
    # Zirc exporter to Tisza", "hand zirc-flags over to kestle-tools"); a system by its code name "went from" one owner
    # to another ("zirc-api went from Team Tisza to Kestle Ops")
    _p(
        v.OWNED_BY,
        rf"(?:^|[:;]\s*)(?i:transfers?|transferred|transferring|moves|moving|hands?|handing|handed|passes|passing)\s+"
        rf"(?:ownership\s+of\s+)?(?:the\s+)?(?P<system>{_THING})\s+(?:over\s+)?(?:from\s+(?:the\s+)?"
        rf"(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})\s+)?to\s+"
        # (a team named in brackets after whose it is: "to Dorka's team (Risk)")
        rf"(?:{NAME}['’]s\s+{_TEAM_WORDS}\s+\((?={NAME}\)))?{_OWNER}",
        needs=("transfer", "moves", "moving", "hand", "passes", "passing"),
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?P<system>{_HANDLE})\s+"
        rf"(?:went|moved)\s+from\s+(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})\s+to\s+{_OWNER}",
        needs=("went from", "moved from"),
    ),
    # a system said by its noun that moves to a team or a person ("the Zirc exporter moved from Data Eng to Tisza
    # Ops", "the Kestle SDK goes to Growth", "the alerting rules went to the SRE guild"): its ownership moved; but
    # not one that moves to a platform, a cluster or a town ("the Zirc service moved to Kubernetes")
    _p(
        v.OWNED_BY,
        rf"(?:^|(?<=[\s:;,(]))(?:[Tt]he\s+)?(?P<system>{_THING})\s+(?:(?:has|have|was|were|got|is|are)\s+)?(?:now\s+)?"
        rf"(?:moved|moves|moving|went|goes|gone)(?:\s+over)?"
        rf"(?:\s+from\s+(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?\s+to\s+{_OWNER}",
        check=lambda match: _an_ownership_moved(match),
        needs=("moved", "moves", "moving", "went", "goes", "gone"),
    ),
    # "Quillon's owner, Tisza team,", "the owner is the Tisza team", "Owner of Quillon: Tisza team"
    _p(
        v.OWNED_BY,
        # ("the Zirc exporter's new owner is Tisza Ops": a name and its thing's noun)
        rf"\b(?P<system>{NAME}(?:\s+[a-z][\w-]*){{0,2}}?)(?:'s|’s)\s+(?:(?:new|current|sole|only|main|official)\s+)?"
        rf"(?:owner|owning\s+team|maintainers?)(?:,|\s+is{_NOW})\s+{_OWNER}",
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?P<system>{NAME})\s*\((?:owned|maintained|run)\s+by\s+{_OWNER}\)",
    ),
    # "the billing service (owner: Tisza Ops)", "zirc-sync (maintainers: Dorka)": a thing and its owner's label
    _p(
        v.OWNED_BY,
        rf"(?:^|(?<=\n)|(?<=\b[Tt]he\s)|(?<=\b[Oo]ur\s)|\b(?=[{_UPPER}]))(?P<system>(?:[\w'’-]+\s+){{0,2}}?[\w'’-]+)\s*\("
        rf"(?i:owners?|maintainers?|owning\s+team)\s*:\s*{_OWNER}\)",
        needs=("owner", "maintainer", "owning"),
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?P<system>{NAME}),\s+the\s+owner\s+is{_NOW}\s+{_OWNER}",
    ),
    # "The owner of the snapshot job is Tisza Infra", "Current owner for Zirc is still Dorka": the thing, then its owner
    _p(
        v.OWNED_BY,
        r"(?:^|(?<=[\s,;:(]))(?:[Tt]he\s+)?(?:(?:new|current|sole|only|main|official)\s+)?(?:[Oo]wner|[Oo]wning\s+team|"
        r"[Mm]aintainer)(?:\s+of\s+record)?\s+(?:of|for)\s+(?:the\s+)?"
        rf"(?P<system>{_THING})\s+is{_NOW}\s+{_OWNER}(?=\s*(?:[.,;!)]|$|\s+(?:now|since|from|as|these)\b))",
        needs=("owner", "owning", "maintainer"),
    ),
    # a thing moved to a team is the team's: "the Kestle gateway has moved over to the Tisza squad" (a thing by its
    # words, to a team by its words: a person who moved to a team, a service moved to a cloud, is not read here)
    _p(
        v.OWNED_BY,
        rf"\b(?!(?:of|for)\s)(?:[Tt]he\s+)?(?P<system>{_THING}){_NOW}\s+(?:has\s+|was\s+|got\s+)?(?:moved|went|transferred)"
        rf"(?:\s+over)?\s+to\s+(?:the\s+)?(?P<value>{NAME}\s+{_TEAM_WORDS})"
        r"(?=\s*(?:[.,;!]|$|\s+(?:on|in|last|this|as|from|since|today|yesterday|too|now)\b))",
        check=_a_thing_handed,
        needs=("moved", "went", "transferred"),
    ),
    # "Ownership of the ledger store: Tisza Data team"
    _p(
        v.OWNED_BY,
        rf"\b(?:[Oo]wnership|(?P<holder>[Oo]wner|[Mm]aintainer))\s+of\s+(?:the\s+)?(?P<system>{_THING}):\s+{_OWNER}",
        confidence=0.7,
        # a system by its name or its words, not a piece of work ("follow-ups", a phrasal verb's noun) or "the
        # affected service"
        check=lambda match: (
            not match["holder"]
            or (
                bool(re.match(rf"[{_UPPER}]", match["system"]) or _a_thing_handed(match))
                and not re.match(r"[a-z]+ed\b", match["system"])
                and not re.search(r"-(?:ups?|ins?|offs?|outs?|downs?|overs?)$", match["system"])
            )
        ),
    ),
    # "Bence took ownership of the ledger store", "the Zirc cache, owned by the Tisza team, …", "Zirc has a new
    # owner: the Kestle team"
    _p(
        v.OWNED_BY,
        rf"\b(?:(?P<me>{_ME})|{_OWNER}){_HAVE}{_NOW}\s+(?:took|takes|taken|taking)\s+(?:over\s+)?ownership\s+of\s+"
        rf"(?:the\s+)?(?P<system>{_THING})(?=\s*(?:[.,;!]|$|\s+(?:from|in|on|last|this|as|since|today|yesterday)\b))",
        # a system by its name or its words, not "ownership of the mess"
        check=lambda match: match["system"][:1].isupper() or _a_thing_handed(match),
        needs=("ownership",),
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING}),\s+(?:owned|maintained)\s+by\s+{_OWNER},",
        needs=("owned by", "maintained by"),
    ),
    _p(
        v.OWNED_BY,
        rf"\b(?:[Tt]he\s+)?(?P<system>{_THING})\s+has\s+a\s+new\s+(?:owner|maintainer)[:,]?\s+{_OWNER}"
        r"(?=\s*(?:[.,;!]|$))",
        needs=("new owner", "new maintainer"),
    ),
    # --- when a project is due: "The Orion launch slipped to 14 March"
    _p(
        v.DUE_DATE,
        # ("Go-live for Zirc is 6 April": a launch or go-live is itself a day)
        r"^(?:[Tt]he\s+)?(?:[Dd]eadline|(?:[Ll]aunch|[Rr]elease|[Gg]o-live|[Ss]hip|[Cc]utover)\s+da(?:te|y)|[Dd]ue\s+date|"
        r"[Gg]o-?live|[Gg]o\s+live|[Ll]aunch|[Cc]utover|"
        # ("New date for Kestle: 19 May": a day set anew is a day set)
        r"[Tt]arget\s+date|ETA|[Tt]arget|(?:[Nn]ew|[Rr]evised|[Uu]pdated)\s+(?:date|deadline|target))\s+for\s+"
        # ("Target date for the Kestle migration: 3 June": a card's line)
        rf"(?:the\s+)?(?P<project>{_THING})(?:\s+(?:is|was\s+moved\s+to|moved\s+to|is\s+now)\s+|\s*:\s*)(?:now\s+)?(?:on\s+)?"
        r"(?P<date>.+)",
    ),
    # "We finally have a date for the Zirc app: 2 November!": a day set, said as news
    _p(
        v.DUE_DATE,
        r"\b(?:have|has|got|set|there['’]s|there\s+is)\s+(?:a|the)\s+(?:new\s+|final\s+|firm\s+|confirmed\s+)?"
        rf"(?:launch\s+|release\s+|go-live\s+)?date\s+for\s+(?:the\s+|our\s+)?(?P<project>{_THING})\s*[:—–]\s*(?P<date>.+)",
        check=lambda match: not _A_VERB_IN_NAME_RE.search(match["project"]) and not _EVENT_RE.search(match["project"]),
        needs=("date for",),
    ),
    # a cutover is a milestone of its own ("the Tarnóc cutover is due"), not the project's launch
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING}(?:\s+cutover)?)(?:'s|’s)?\s+(?:launch|release|go-live|go\s+live|deadline|"
        r"due\s+date|ship\s+date|launch\s+date|release\s+date|delivery\s+date)\s+(?:has\s+|had\s+|is\s+|was\s+)?"
        r"(?:now\s+|been\s+)?(?:slipped|slips|moved|moves|pushed(?:\s+back|\s+out)?|brought\s+forward|set|scheduled|"
        r"planned|fixed|confirmed|rescheduled|delayed|due|locked(?:\s+in)?)?\s*(?:to|for|on|at|from)?\s+(?P<date>.+)",
        # (not "the Zirc launch was on 3 March and it went fine": a launch that has happened is due no more)
        check=lambda match: (
            not _A_VERB_IN_NAME_RE.search(match["project"])
            and not re.match(r"\s*(?:\S+\s+){1,2}?(?:was|were)\s+(?:on|in)\s", match.string[match.end("project") :])
        ),
    ),
    # "the Zirc delivery date is 9 May": a project's date, named as one
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})(?:'s|’s)?\s+(?:due|delivery|launch|release|ship|go-live|target|"
        r"completion)\s+date\s+(?:is|was\s+moved\s+to|is\s+now|has\s+moved\s+to)\s+(?:now\s+)?(?:on\s+)?(?P<date>.+)",
        check=lambda match: not _A_VERB_IN_NAME_RE.search(match["project"]) and not _EVENT_RE.search(match["project"]),
        needs=("date",),
    ),
    _p(
        v.DUE_DATE,
        # ("the 25.03 release": a release by its number first)
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>(?:\d+(?:\.\d+)+\s+)?{_THING}(?:\.\d+)*)\s+(?:now\s+)?(?:launches|ships|"
        # ("Zirc Web 5.0 follows on 16 Sept": the next release's day)
        r"goes\s+live|is\s+going\s+live|(?P<follows>follows)(?=\s+(?:on|in)\s)|"
        r"is\s+due|are\s+due|"
        # ("goes GA on 10 May", "is on track for 14 October", "goes to the app store on the 21st": a release's day)
        r"goes\s+GA|is\s+going\s+GA|is\s+(?:still\s+)?on\s+track\s+for|goes\s+to\s+(?:the\s+)?(?:app\s+)?store|"
        r"is\s+launching|is\s+shipping|will\s+launch|will\s+ship|will\s+go\s+live|(?P<modal>(?:must|has\s+to|needs\s+to|"
        r"should)\s+(?:be\s+)?(?:done|finished|completed?|shipped|live|delivered|ready|out))|"
        # ("Zirc 4.2 is on 2 June", "… is going out on 9 November": of a release, as people are on leave and go out)
        r"(?P<release>is(?:\s+(?:now|still))?(?:\s+on\b)?(?=\s+(?:the\s+)?\d|\s+[A-Z][a-z]+day\b|\s+[A-Z][a-z]{2}\s+\d)|"
        r"is\s+going\s+out|goes\s+out|is\s+rolling\s+out|rolls\s+out))\s+(?:on|in|by|at)?\s*"
        r"(?P<date>.+)",
        # "Mák is due for her booster on …": an errand; "Ilona should be done by Friday": a person has work to finish,
        # so what must be ready by a day is a thing by its words
        check=lambda match: (
            # ("…; code freeze is Monday": another thing's day after the phrase)
            not _EVENT_RE.search(_DUE_PHRASE_END_RE.split(match["date"], maxsplit=1)[0])
            and (not match["modal"] or _a_thing_by_its_words(match["project"]))
            and (not match["follows"] or _a_named_release(match["project"]))  # ("Bence follows on Monday")
            and (not match["release"] or _a_named_release(match["project"]))
            # ("Zirc go-live is Sunday 2 Nov": the pattern that names the go-live reads Zirc's day)
            and not (
                match["release"]
                and (
                    re.search(r"\s(?i:go-?live|launch|release|deadline|ga)$", match["project"])
                    or _A_DAY_S_HEADING_RE.match(match["project"])
                )
            )
        ),
    ),
    # the day first, then what it is for: "We've locked 24 Feb for the Zirc beta", "set 3 May as the Kestle launch date"
    _p(
        v.DUE_DATE,
        r"\b(?:locked(?:\s+in)?|set|picked|pencilled\s+in|penciled\s+in|agreed(?:\s+on)?|fixed|confirmed|targeting|"
        r"aiming\s+(?:for|at))\s+"
        r"(?P<date>(?:\w+\s+){0,2}?\d{1,2}(?:st|nd|rd|th)?(?:\s+\w+)?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th))\s+(?:for|as)\s+"
        rf"(?:the\s+|our\s+)?(?P<project>[{_UPPER}][\w'’-]*(?:\s+[\w'’-]+(?:\.\d+)*){{0,3}}?)"
        r"(?:\s+(?:launch|release|go-?live|deadline)(?:\s+date)?)?(?=\s*(?:[.,;!]|$))",
        check=lambda match: not _EVENT_RE.search(match["project"]),
        needs=("locked", "set ", "picked", "pencil", "agreed", "fixed", "confirmed", "targeting", "aiming"),
    ),
    # the day first, then whose date it is: "March 28 is the new Zirc launch date", "Friday is the Kestle deadline"
    _p(
        v.DUE_DATE,
        r"^(?P<date>(?:[A-Z][a-z]+\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Z][a-z]+|"
        r"(?:[Tt]he\s+)?\d{1,2}(?:st|nd|rd|th)|[A-Z][a-z]+day))\s+is\s+(?:now\s+)?the\s+(?:new\s+|revised\s+|final\s+)?"
        rf"(?P<project>{_THING})(?:'s|’s)?\s+(?:(?:launch|release|go-live|due|ship|delivery|target)\s+date|deadline)\b",
        check=lambda match: not _EVENT_RE.search(match["project"]),
        needs=("date", "deadline"),
    ),
    # a release yet to be made, or a day aimed at: of a thing by its words or its version ("the Kestle app will be
    # released on …", "Kestle v3 is slated for …"), since a person, too, is released (from hospital) or aims at a day
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})\s+(?:(?:will|is\s+going\s+to|is\s+to)\s+be\s+(?:released|launched|"
        r"shipped|rolled\s+out)|is\s+(?:now\s+)?(?:slated\s+for|targeting|targeted\s+for))\s+(?:on\s+|for\s+)?(?P<date>.+)",
        check=lambda match: _a_named_release(match["project"]),
        needs=("be released", "be launched", "be shipped", "be rolled out", "slated", "targeting", "targeted"),
    ),
    # a piece of work by its words, its day set or moved: "billing redesign slipped to 9 June", "the ledger migration
    # is scheduled for 24 March", "The v4.2 release is now pinned to 18 September", "Beta is locked for 12 Feb"
    _p(
        v.DUE_DATE,
        rf"^(?:[-•*]\s+)?(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})\s+(?:has\s+|had\s+|is\s+|was\s+|['’]s\s+)?"
        r"(?:(?:now|been|again)\s+)*(?:slipped|pushed(?:\s+back|\s+out)?|delayed|moved|rescheduled|scheduled|set|fixed|"
        r"locked(?:\s+in)?|pinned|planned|bumped)(?:\s+again)?\s+(?:to|for|until|till)\s+"
        # (a day, not "moved to the Integrations team on Monday")
        r"(?P<date>(?:the\s+)?\d.*|[A-Z][a-z]{2,8}\.?\s+\d.*|(?:next\s+|this\s+)?(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b.*|"
        r"tomorrow\b.*)",
        check=lambda match: _a_piece_of_work(match["project"]),
        needs=(
            "slipped",
            "pushed",
            "delayed",
            "moved",
            "scheduled",
            "set ",
            "fixed",
            "locked",
            "pinned",
            "planned",
            "bumped",
        ),
    ),
    _p(
        v.DUE_DATE,
        rf"^(?:[Tt]he\s+|[Oo]ur\s+)?(?P<project>{_THING})\s+(?:has\s+)?(?:slipped|was\s+delayed|moved|was\s+pushed)"
        r"(?:\s+again)?[;,:]?\s+(?:the\s+)?new\s+(?:date|deadline)\s+is\s+(?P<date>.+)",
    ),
    # --- pets and languages: many at once
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e))(?:{_HAVE}|(?P<be>{_BE})){_NOW}\s+(?(be)|(?:got|adopted|have|has|rescued|own|owns|keep|"
        # ("has had a dog named Bodri since 2020": had, and has; not "I've had a dog before")
        rf"(?:(?<=\shas\s)|(?<=\shave\s)|(?<=['’]ve\s))(?P<had>had)|"
        # ("brought home a kitten called Bodri", "I'm the proud owner of a corgi": a pet come to stay)
        rf"keeps|lives\s+with|live\s+with|share|shares|brought\s+home))"
        rf"(?(be)(?:the\s+)?(?:proud\s+|happy\s+|new\s+)?owners?\s+of)\s+{_COUNT}\s+(?:new\s+)?(?:[\w-]+\s+){{0,4}}?"
        # ("two dogs and a parrot": a pet of each kind; "two mangalica pigs": a breed, then its kind)
        rf"(?P<kind>{_PETS}(?:\s+{_PETS})?)(?:(?:,\s+|\s+and\s+|,\s+and\s+){_COUNT}\s+(?P<kind2>{_PETS})(?![\w-]))?"
        # ("… two rescue greyhounds last weekend, Bodri and Mák": the names after when they came)
        rf"(?:\s+now)?(?:\s+(?:last|this)\s+(?:week|weekend|month|year|spring|summer|autumn|fall|winter)(?=,))?"
        # ("three cats: Mák, Bors and Pötty", "two dogs — Bodri and Pötty": the names after a colon or a dash; "one dog,
        # name is Bodri")
        rf"(?:(?:,|:|\s[—–-])?\s+(?:called|named|(?:(?:his|her|its|their)\s+)?names?\s+(?:is|are))?\s*(?!I\b|I['’])"
        rf"(?P<value>{_PET_NAME_LIST}))?(?![\w-])",
        check=lambda match: (
            _pet_present(match) and (not match["had"] or _STILL_HAD_RE.match(match.string, match.end()))
        ),
    ),
    # "I live in Eger with a very fluffy cat called Bodri": a household's pet, said with where it lives
    _p(
        v.HAS_PET,
        rf"\b(?:(?P<me>I)|(?P<ours>[Ww]e))\s+live\b[^.;!?]{{0,40}}?\bwith\s+(?:(?:my|our)\s+[a-z]+\s+and\s+)?"
        rf"(?:{_COUNT}|my|our)\s+(?:[\w-]+\s+){{0,3}}?(?P<kind>{_PETS})(?:,?\s+(?:called|named)?\s*(?!I\b|I['’])"
        rf"(?P<value>{_PET_NAME_LIST}))?(?![\w-])",
        check=_pet_present,
        needs=(" live ",),
    ),
    # "Omar's hedgehog is called Pin", "Noor's corn snake escaped again"
    _p(
        v.HAS_PET,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+(?:[\w-]+\s+)??(?P<kind>{_PETS})(?:(?:,?\s+(?:called|named)|\s+(?:is|are)\s+"
        rf"(?:called|named))\s+(?P<value>{_PET_NAME_LIST}))?(?=\s*(?:[.,;!]|$|\s+(?:is|was|has|had|escaped|died|loves|hates|keeps|got|just|"
        # ("N's tortoise in for a check-up": a vet's note)
        # ("N's cat knocked his laptop off the desk": what the pet did)
        r"and|who|called|named|in|needs|turned|came|ate|ran|bit|does|did|still|always|never|also|[a-z]{3,}ed)\b))"
        r"(?!,\s+[A-Z])",
        confidence=0.7,
        check=_an_unnamed_pet,
    ),
    _p(
        v.HAS_PET,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PETS})(?:\s+(?:is|are)\s+(?:called|named)\s+"
        rf"(?P<value>{_PET_NAME_LIST}))?(?=\s*(?:[.,;!]|$|\s+(?:is|was|has|escaped|"
        r"loves|hates|keeps|just|and|who)\b))(?!,\s+[A-Z])",
        confidence=0.6,
        check=_an_unnamed_pet,
    ),
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_HAVE}\s+(?:(?:had\s+to\s+)?(?:rehome[d]?|give\s+up|gave\s+up|put\s+down|(?P<gave>gave)))\s+"
        # ("we gave our budgie Csipi to my nephew": its name, where it went after it)
        # ("rehomed our rabbit Bodri last week": its name, where the clause goes on after it)
        rf"(?:my|our|his|her|their)\s+(?:[\w-]+\s+)??(?P<kind>{_PETS})(?:(?:,\s+|\s+(?={NAME}(?:\s+(?:to|away|last|this|"
        rf"yesterday|in|on|after|because)\b|\s*(?:[.,;:!—–]|$))))"
        rf"(?P<value>{NAME}))?(?(value)|(?!\s+to\b)(?:\s+away)?)",
        # (a pet one "gave" a bath is still one's own: only one given away, or to someone)
        check=lambda match: (
            not match["gave"]
            or re.match(r"\s*(?:away|to)\b", match.string[match.end() :]) is not None
            or match.group(0).endswith("away")
        ),
        negated=True,
    ),
    # "I'm a dog mum to Bodri": the pet's own person
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_IS_NOW}{_NOW}\s+(?:an?\s+|the\s+)?(?:proud\s+)?(?P<kind>{_PET_KINDS})\s+"
        rf"(?:mum|mom|mummy|mommy|dad|daddy|parent|owner)\s+(?:to|of)\s+(?P<value>{NAME})",
        check=_pet_present,
        needs=("mum", "mom", "dad", "parent", "owner"),
    ),
    # "we adopted Bodri from the shelter": a pet by its name, by where it came from
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_HAVE}{_NOW}\s+(?:adopted|rescued)\s+(?P<value>{NAME})\s+from\s+(?:a|an|the|our|my)\s+"
        r"(?:[\w-]+\s+){0,2}?(?:shelter|rescue|pound|breeder|sanctuary)\b",
        check=_pet_present,
        needs=("adopted", "rescued"),
    ),
    # "we had to put Bodri down": a pet put to sleep, by its name
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_HAVE}\s+(?:had\s+to\s+)?put\s+(?P<value>{NAME})\s+down\b",
        negated=True,
        needs=(" down",),
    ),
    # "we had to rehome Bodri": a pet given up by its name
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_HAVE}\s+(?:had\s+to\s+)?(?:rehome[d]?|gave\s+up)\s+(?P<value>{NAME})\b"
        rf"(?!\s+(?:to|on|for)\b)",
        negated=True,
        check=lambda match: not re.fullmatch(_PETS, match["value"], re.IGNORECASE),
        needs=("rehome", "gave up"),
    ),
    # "I live in Szeged with my partner and two cats, Mák and Bors", "shares his flat with a parrot called Kiwi":
    # the pets a home is shared with
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_NOW}\s+(?:live|lives|living|share|shares|sharing)\b[^.;:!?]{{0,60}}?\bwith\s+"
        rf"(?:(?:my|our|his|her|their)\s+[\w-]+\s+and\s+)?(?:(?:my|our|his|her|their)\s+)?{_COUNT}?\s*"
        rf"(?:[\w-]+\s+)??(?P<kind>{_PETS})(?:,?\s+(?:called|named)?\s*(?P<value>{_PET_NAME_LIST}))?(?![\w-])",
        check=_pet_present,
        confidence=0.7,
    ),
    # "Bors the vizsla approves", at the head of a clause in the speaker's own words: the household's pet
    _p(
        v.HAS_PET,
        # (not a verb the sentence opens with, "Saw the cutest pug", "Walking the dog before work", nor a pet said
        # to be someone's)
        rf"^(?!(?:Saw|Met|Found|Spotted|Watched|Fed|Walked|Meet|Petted|Love|Loved)\b|[A-Z][a-z]{{2,}}ing\b)"
        rf"(?P<value>{NAME})\s+(?P<mine>the)\s+"
        rf"(?:[\w-]+\s+)??(?P<kind>{_PET_KINDS})\b"
        r"(?!\s+(?:is\s+owned\s+by|belongs\s+to|of)\b|\s+(?:is|was)\s+(?:my|our|his|her|their|\w+['’]s?)\s)",
        check=_pet_present,
        confidence=0.6,
    ),
    # "our new kitten arrived today": a pet one has just got, named or not (its name may come after)
    _p(
        v.HAS_PET,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+new\s+(?:[\w-]+\s+)?(?P<kind>{_PETS})(?!\s+(?:is|was)\s+(?:called|named)\b)"
        r"(?=\s*(?:[.,;:!)]|$)|\s+(?:is|was|has|arrived|came|just|finally|loves|hates|and|who|sleeps|likes)\b)",
        check=_pet_present,
        confidence=0.7,
    ),
    # "I've had Bodri since she was a puppy"
    _p(
        v.HAS_PET,
        rf"\b{_WHO}(?:['’]ve|\s+have|['’]s|\s+has)\s+had\s+(?P<value>{NAME})\s+since\s+(?:she|he|it|they)\s+(?:was|were)\s+"
        rf"(?:an?\s+)?(?:tiny\s+|little\s+|young\s+)?(?P<kind>{_PETS})\b",
        check=_pet_present,
    ),
    # "we lost our old cat Mák last week": a pet that died
    _p(
        v.HAS_PET,
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e)){_HAVE}{_NOW}\s+lost\s+(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?(?P<kind>{_PET_KINDS})"
        # (not one that went missing somewhere: "lost her dog Bodri in the park")
        rf"(?!(?:,?\s+{NAME})?\s+(?:in|at|near|while|during|on\s+(?:the|a|our|my|his|her))\b)(?:,?\s+(?P<value>{NAME}))?",
        negated=True,
    ),
    # "our parrot Pici supposedly whistles the doorbell": a pet named as one's own is had, whatever the clause goes on
    # to say
    _p(
        v.HAS_PET,
        rf"\b(?P<mine>[Mm]y|[Oo]ur)\s+(?:\w+\s+)??(?P<kind>{_PETS})(?:\s[—–-])?\s+(?P<value>{_PET_NAME_LIST})",
        presupposed=True,
    ),
    # "my dog's name is Bodri", "my cat name is Cirmi", "Zsófia's parrot is named Kiwi"
    _p(
        v.HAS_PET,
        rf"\b(?:(?P<mine>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:\w+\s+)??(?P<kind>{_PET_KINDS})(?:'s|’s)?\s+name\s+is\s+"
        rf"(?P<value>{NAME})",
        check=_pet_present,
    ),
    # "Bodri is Gergő's dog", "Mák is our cat": a pet named, then whose it is
    _p(
        v.HAS_PET,
        rf"^(?P<value>{NAME})\s+(?:is|was)\s+(?:(?P<mine>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:[\w-]+\s+)??"
        rf"(?P<kind>{_PET_KINDS})(?=\s*(?:[.,;!]|$)|\s+(?:and|who|by)\b)",
        # ("This is Bence's dog": a dog shown, its name not said)
        check=lambda match: _pet_present(match) and match["value"] not in _NOT_A_NAME,
    ),
    # "Bodri the beagle belongs to Gergő", "The office dog, Bodri, is owned by Gergő": a pet is had by its owner
    _p(
        v.HAS_PET,
        rf"\b(?P<value>{NAME})\s+the\s+(?:\w+\s+)??(?P<kind>{_PET_KINDS})\s+(?:is\s+owned\s+by|belongs\s+to)\s+(?P<who>{NAME})",
        check=_pet_present,
    ),
    _p(
        v.HAS_PET,
        rf"\b[Tt]he\s+(?:\w+\s+)??(?P<kind>{_PET_KINDS}),\s+(?P<value>{NAME}),\s+(?:is\s+owned\s+by|belongs\s+to)\s+"
        rf"(?P<who>{NAME})",
        check=_pet_present,
    ),
    # "Réka's cat Mák sits in on every call", "I've had Bodri, my basset hound, since 2019"
    _p(
        v.HAS_PET,
        rf"\b(?P<who>{NAME})(?:'s|’s)\s+(?:\w+\s+)??(?P<kind>{_PET_KINDS})\s+(?P<value>{NAME})",
        check=_pet_present,
        presupposed=True,
    ),
    _p(
        v.HAS_PET,
        rf"\b{_WHO}{_HAVE}\s+(?:had|have|got|adopted|rescued)\s+(?P<value>{NAME}),\s+(?:my|our|his|her|their)\s+"
        rf"(?:[\w-]+\s+)??(?P<kind>{_PETS})\b",
        check=_pet_present,
    ),
    _p(
        v.HAS_PET,
        # ("we had a dog called Bodri as kids": a pet of the household's past)
        rf"\b(?:{_WHO}|(?P<ours>[Ww]e))\s+(?:used\s+to\s+have|had)\s+{_COUNT}\s+(?:[\w-]+\s+)??(?P<kind>{_PETS})"
        # (not "had a cat sit on my keyboard": a pet's name, or the pet's clause ended)
        rf"(?:,?\s+(?:called|named)\s+(?P<value>{NAME})|(?=\s*(?:[.,;!]|$)|\s+(?:as|when|growing|for|until|back|"
        r"before|in|and|but|who|that)\b))",
        history=True,
    ),
    _p(
        v.HAS_PET,
        rf"\b(?:(?P<mine>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:\w+\s+)??(?P<kind>{_PET_KINDS})(?:(?:,\s+|\s+)"
        rf"(?P<value>{NAME}),?)?\s+(?:(?:has\s+|just\s+)?passed\s+away|died|"
        r"(?:was\s+|has\s+been\s+|got\s+)?(?:rehomed|put\s+(?:down|to\s+sleep)))",
        negated=True,
    ),
    # a pet named, then whose it is between commas or in brackets: "Bodri, Dorka's therapy dog, is back on the ward",
    # "Mák (my Norwegian elkhound) is still …"; gone when the sentence says it died ("Bodri, Dorka's old cat, passed
    # away on Sunday")
    _p(
        v.HAS_PET,
        rf"(?P<value>{NAME})(?:,\s+|\s+\()(?:(?P<mine>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:[\w-]+\s+){{0,2}}?"
        rf"(?P<kind>{_PET_KINDS})(?:,|\))(?!\s+(?:has\s+|just\s+)?(?:passed\s+away|died)\b)",
        check=lambda match: _pet_present(match) and match["value"] not in _NOT_A_NAME,
        confidence=0.7,
    ),
    _p(
        v.HAS_PET,
        rf"(?P<value>{NAME})(?:,\s+|\s+\()(?:(?P<mine>[Mm]y|[Oo]ur)|(?P<who>{NAME})(?:'s|’s))\s+(?:[\w-]+\s+){{0,2}}?"
        rf"(?P<kind>{_PET_KINDS})(?:,|\))\s+(?:(?:has\s+|just\s+)?passed\s+away|died)\b",
        check=lambda match: match["value"] not in _NOT_A_NAME,
        negated=True,
    ),
    # "This week I'm cat-sitting Pogácsa for Dorka": the one it is done for has the pet
    _p(
        v.HAS_PET,
        rf"\b(?:dog|cat|pet|puppy|bunny|rabbit)[- ]?sitting\s+(?P<value>{NAME})\s+for\s+(?P<whom>{NAME})",
        needs=("sitting",),
    ),
    _p(
        v.SPEAKS,
        # ("speaks three languages (Hungarian, Slovak and Romani)")
        # ("has spoken Hungarian since childhood": spoken, and still)
        rf"\b{_WHO}{_NOW}(?:\s+do|\s+does|\s+has|\s+have|['’]ve)?{_NOW}\s+(?:speak|speaks|(?<=\shas\s)spoken|"
        rf"(?<=\shave\s)spoken|(?<=['’]ve\s)spoken)\s+"
        rf"(?:\w+\s+languages?(?::\s*|\s*\(|\s+))?{_OPEN_SPOKEN_LIST}",
    ),
    # ("conversational in Hungarian", "I get by in Hungarian", "she knows Hungarian": spoken well enough to use)
    _p(
        v.SPEAKS,
        rf"\b{_WHO}(?:(?:'m|’m|\s+am|\s+is|'s|’s){_NOW}\s+(?:fluent|conversational|proficient)\s+in|"
        rf"{_NOW}\s+(?:gets?\s+by|gets?\s+along)\s+in|{_NOW}\s+(?:know|knows)(?=\s+{_LANGUAGES}\b))\s+{_OPEN_SPOKEN_LIST}",
    ),
    # "prefers calls in Italian": a language someone asks to be spoken to in
    _p(
        v.SPEAKS,
        rf"\b{_WHO}{_NOW}\s+(?:prefers?|likes?)\s+(?:(?:phone\s+)?calls|e-?mails|meetings|messages|to\s+(?:talk|chat|speak|"
        rf"be\s+contacted|be\s+called))\s+in\s+{_OPEN_SPOKEN_LIST}",
        needs=("prefer", "like"),
    ),
    _p(v.SPEAKS, rf"\b{_WHO}\s+grew\s+up\s+speaking\s+{_OPEN_SPOKEN_LIST}"),
    # "at home we speak Hungarian": a household's language is its speaker's
    _p(
        v.SPEAKS,
        rf"^(?:(?:[Aa]t\s+home|[Ii]n\s+our\s+(?:house|family|home)),?\s+)(?P<ours>we)\s+(?:all\s+|both\s+|mostly\s+)?speak\s+"
        rf"{_OPEN_SPOKEN_LIST}",
    ),
    # "Two cats, Mák and Bodri, and one very patient husband.": a chat's answer naming its speaker's pets
    _p(
        v.HAS_PET,
        rf"^(?P<mine>(?i:{_COUNT}))\s+(?:[\w-]+\s+)?(?P<kind>{_PETS}),?\s+(?P<value>{_PET_NAME_LIST})"
        r"(?=\s*(?:[.!]|$)|,\s+and\s+[^.!?]*[.!]?\s*$)",
        check=lambda match: (
            not re.search(r"\b(?:is|are|was|were|has|have|had|[a-z]+ed)\b", match.string[match.end() :])
        ),
    ),
    # "speaks Hungarian and Slovak, not Czech": the one said not to be spoken
    _p(
        v.SPEAKS,
        rf"\b{_WHO}{_NOW}\s+(?:speak|speaks)\s+[^.;]*?,\s*(?:but\s+)?not\s+(?P<value>{_LANGUAGE_WORD})\b",
        negated=True,
        after_negation=True,
    ),
    # "Bence did the intro in Japanese", "Dorka ran the whole call in Spanish": a known language someone spoke
    # something out loud in, and so speaks
    _p(
        v.SPEAKS,
        rf"\b{_WHO}{_NOW}\s+(?:did|gave|ran|handled|led|hosted|presented|delivered|chaired|answered|pitched|"
        r"interviewed|interpreted)\s+(?:\w+\s+){0,5}?in\s+"
        rf"(?P<value>{_LANGUAGES}(?:\s+(?:and\s+then\s+)?switched\s+to\s+{_LANGUAGES})?)\b",
        needs=(" in ",),
    ),
    # "Dorka talks to her nan in Slovak": a known language someone talks in
    _p(
        v.SPEAKS,
        rf"\b{_WHO}{_NOW}\s+(?:talks?|chats?|writes?|texts?|speaks?)\s+(?:to|with)\s+(?:[\w'’]+\s+){{1,3}}?in\s+"
        rf"(?P<value>{_LANGUAGES})\b",
        confidence=0.7,
    ),
    # a language learned is spoken ("Learned Esperanto in lockdown"): the known languages only ("learned Python")
    _p(v.SPEAKS, rf"\b{_WHO}{_HAVE}\s+(?:learned|learnt|picked\s+up)\s+(?P<value>{_LANGUAGES})\b", confidence=0.7),
    _p(v.SPEAKS, rf"\b{_WHO}\s+can\s+(?:hold\s+a\s+conversation|get\s+by|converse)\s+in\s+{_OPEN_SPOKEN_LIST}"),
    _p(v.SPEAKS, rf"\b{_WHO}\s+used\s+to\s+speak\s+{_OPEN_SPOKEN_LIST}", history=True),
    # "my languages are Czech and Slovak" (and "Czech and Slovak are my languages", said so by ``_fluent``)
    _p(
        v.SPEAKS,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:(?:working|spoken|main)\s+)?languages\s+are\s+"
        rf"(?P<value>{_LANGUAGES}(?:(?:,\s*|,?\s+and\s+){_LANGUAGES})*)",
        needs=("language",),
    ),
    # "Vera spoke Czech, Polish and German": languages listed in the past tense are what she spoke, not a
    # conversation ("I spoke French to the waiter" is one)
    _p(
        v.SPEAKS,
        rf"\b{_WHO}\s+spoke\s+(?P<value>{_LANGUAGES}(?:(?:,\s*|,?\s+and\s+){_LANGUAGES})+)(?![\w'’])(?!\s+(?:to|with)\b)",
        history=True,
        needs=("spoke",),
    ),
    _p(
        v.SPEAKS,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\s+an?\s+(?:native|fluent)\s+(?P<value>{_LANGUAGE_WORD})\s+speaker",
    ),
    # "I'm a Finnish + Swedish speaker", "Noor is an Irish speaker": known languages, since "a keynote speaker" is not
    _p(
        v.SPEAKS,
        rf"\b{_WHO}(?:'m|’m|\s+am|\s+is|'s|’s)\s+(?:an?\s+)?(?P<value>{_LANGUAGES}(?:\s*(?:\+|,|/|and)\s*{_LANGUAGES})*)"
        r"\s+speaker\b",
        needs=("speaker",),
    ),
    # "Basque is my first language", "Omar's mother tongue is Farsi"
    _p(
        v.SPEAKS,
        rf"^(?P<value>{_LANGUAGE_WORD})(?:\s+is|'s|’s)\s+(?:(?P<mine>my)|(?P<who>{NAME})(?:'s|’s))\s+(?:first|native|mother)\s+"
        r"(?:language|tongue)",
    ),
    _p(
        v.SPEAKS,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?:first|native|mother)\s+(?:language|tongue)\s+is\s+"
        rf"(?P<value>{_LANGUAGE_WORD})",
    ),
    _p(
        v.SPEAKS,
        rf"\b(?:(?P<mine>[Mm]y)|(?P<who>{NAME})(?:'s|’s))\s+(?P<value>{_ANY_CASE_LANGUAGE})\s+is\s+(?:\w+\s+)?(?:fluent|good|"
        r"excellent|great|perfect|decent|native|solid|"
        r"conversational|passable|basic|rusty|ok|okay|business-level|business|professional|intermediate|advanced)",
    ),
    _p(
        v.SPEAKS,
        rf"\b{_WHO}(?:\s+(?:still|really|actually|even|honestly|just))?\s+(?:no\s+longer|don['’]?t|doesn['’]?t|do\s+not|"
        rf"does\s+not|can['’]?t|cannot)\s+(?:really\s+|actually\s+)?speaks?\s+"
        rf"(?:a\s+word\s+of\s+)?"
        rf"{_OPEN_SPOKEN_LIST}",
        negated=True,
    ),
)

# "will" and "going to" state a plan; a due date is stated by a plan ("The Orion launch will be on 14 March")
_PLANS_STATE = frozenset({v.DUE_DATE})
_PLAN_WORDS = re.compile(
    r"\b(?:will|going\s+to|gonna|planned|plan|plans|scheduled|'ll|’ll|must|has\s+to|needs\s+to|should)\b",
    re.IGNORECASE,
)


# a text that says it is make-believe: a role-play, a joke for the first of April, a story's chapter, a song's words
_MAKE_BELIEVE_RE = re.compile(
    r"\b(?:role-?play(?:ing)?|april\s+fools?['’]?(?:\s+day)?|chapter\s+\d+\s+draft|draft\s+of\s+(?:my|a|the)\s+"
    r"(?:novel|story|screenplay)|fan\s*fic(?:tion)?|lyrics|sing-?along)\b",
    re.IGNORECASE,
)
# a year of study after a graduate's name ("Noor Aziz (BSc '09)", "('11)"): says nothing of now, and its apostrophe
# would be read as a quotation; blanked, so that spans still index the text
_CLASS_YEAR_RE = re.compile(
    # ("Dorka Vass '04 now lives in …": the year of a class after a name, bare; the name kept, "in '19" a year)
    rf"[ \t]*\((?:[A-Z][\w.]*\s+)?['’‘]\d{{2}}\)|(?P<named>\b[{_UPPER}][\w'’-]*)[ \t]+['’‘]\d{{2}}(?=[\s,:;.])"
)


# when or how someone works, said between the verb and the employer ("works nights at Kestle Hospital", "works
# part-time for Zirc"): where they work, whatever the hours
_WORKS_WHEN_RE = re.compile(
    r"\b(?:works?|working|worked)(?P<when>\s+(?:nights|weekends|days|evenings|mornings|shifts|part[- ]time|"
    r"full[- ]time|remotely|freelance)(?:\s+(?:and|&)\s+(?:nights|weekends|days|evenings|mornings))?)"
    r"(?=\s+(?:at|for)\s+[A-Z])",
    re.IGNORECASE,
)
# an adverb that changes nothing of what the verb after it states ("I currently live in Eger", "Zirc is mostly run by
# Tisza Ops", "she's proudly been working at Kestle"): blanked, so that every reader sees the plain verb and spans
# still index the text. Hedges ("probably", "supposedly") are no such adverb: they make the statement no statement.
_NEUTRAL_ADVERB_RE = re.compile(
    r"(?<=\w)(?P<adverb>\s+(?:currently|presently|mostly|mainly|primarily|largely|happily|proudly|really|"
    r"basically|permanently))(?=\s+(?:been|liv(?:e|es|ing|ed)|work(?:s|ing|ed)?|report(?:s|ing|ed)?|speak(?:s|ing)?|"
    r"own(?:s|ing|ed)?|run(?:s|ning)?|maintain(?:s|ing|ed)?|lead(?:s|ing)?|led|head(?:s|ing|ed)?|manag(?:e|es|ing|ed)|"
    r"look(?:s|ing|ed)?|based|employed|due|scheduled|planned|set|slated|ha(?:ve|s|ving)|got)\b)",
    re.IGNORECASE,
)


# a chat's line as exported, its time and its way of naming the voice ("[10:02] Dorka Vass: …", "Dorka Vass (10:02): …",
# "<Dorka Vass> …", "Dorka Vass wrote: …", a header "Dorka Vass — 10:02" over the message): read as "Dorka Vass: …",
# the time and the verb blanked (the header's line break too), so that spans still index the text
_CHAT_LINE_RE = re.compile(
    rf"^(?P<before>[ \t]*\[?\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:[ \t]?[AaPp][Mm])?\]?[ \t]+)(?={NAME}[ \t]*:)"
    rf"|^[ \t]*(?P<open><)(?P<handle>{NAME}|[a-z][\w.-]{{1,24}})>[ \t]"
    rf"|^[ \t]*{NAME}(?P<after>[ \t]*(?:[(\[]\d{{1,2}}:\d{{2}}(?:[ \t]?[AaPp][Mm])?[)\]]|[ \t]+(?:wrote|writes)))"
    rf"(?=[ \t]*:)"
    rf"|^[ \t]*{NAME}(?P<header>[ \t]+(?:[—–-][ \t]+)?\d{{1,2}}:\d{{2}}(?:[ \t]?[AaPp][Mm])?[ \t]*\n)(?=[ \t]*\S)",
    re.MULTILINE,
)


def _chat_line(line: re.Match[str]) -> str:
    """A chat's exported line as "Name: …", of the same length."""
    if line["before"]:
        return " " * len(line["before"])
    if line["open"]:
        return f" {line['handle']}: "
    start = line.start("after") if line["after"] else line.start("header")
    kept = line.string[line.start() : start]
    return f"{kept}:{' ' * (line.end() - start - 1)}"


# a run of characters without a space too long to be a word (a URL's, a pasted blob's), or of spaces too long to be
# a gap between words: read as one plain word of the same length, so that spans still index the text and no pattern
# starts a scan to the run's end at each of its characters
_OVERLONG_RUN_RE = re.compile(r"\S{100,}|[ \t]{100,}")


def _defused(run: re.Match[str]) -> str:
    """A run too long to be a word or a gap as one plain word of its length (a gap keeps a space at each end)."""
    width = len(run.group(0))
    return f" {'x' * (width - 2)} " if run.group(0)[0] in " \t" else "x" * width


# Markdown's marks around words: a code quote ("`zirc-cli`"), bold ("**Dorka Vass**", "__Zirc__")
_MARKED_UP_RE = re.compile(
    r"`(?P<code>[^`\n]{1,80})`(?P<kind>[ \t]+[a-z]+\b)?|(?P<mark>\*\*|__)(?P<strong>[^*_\n]{1,80})(?P=mark)"
)


def _unmarked(marked: re.Match[str]) -> str:
    """Words without their Markdown marks; a name in code quotes is the thing's name, the noun after it its kind ("the
    `zirc-sync` worker" is zirc-sync)."""
    if not marked["code"]:
        return marked["strong"]
    kind = marked["kind"] or ""
    return marked["code"] if kind.strip() in _THING_NOUNS else f"{marked['code']}{kind}"


def extract_facts(text: str, *, speaker: str | None, reference: datetime | date) -> list[StatedFact]:
    """The facts ``text`` states, in order. ``speaker``: who "I" is (None: nobody, so a first-person statement states
    nothing); ``reference``: when it was said (relative dates are read against it; a fact without a date of its own
    holds from then). Never raises; at most :data:`MAX_FACTS`."""
    if not isinstance(text, str) or not text.strip() or _MAKE_BELIEVE_RE.search(text):
        return []
    try:
        said = text[:MAX_TEXT_CHARS]
        said = _OVERLONG_RUN_RE.sub(_defused, said)
        if "|" in said:
            said = _RECORD_KIND_RE.sub(_record_named, said)  # "SERVICE | zirc-api | owner: …": the record is zirc-api's
        if "=" in said and len(_KEYED_FIELD_RE.findall(said)) > 1:
            said = _KEYED_FIELD_RE.sub(_keyed_field, said)  # "name=Bence Vass; title=…": a record's lines
        if ";" in said or ", " in said:
            said = _records_on_lines(said)  # "Bence Vass; title: …; city: …": the same
        if ":" in said or ">" in said:
            said = _CHAT_LINE_RE.sub(_chat_line, said)
        if " - " in said or "—" in said or "–" in said:
            said = _DASHED_FIELD_RE.sub(_dashed_field, said)
        if _SAID_BEFORE_RE.search(said) and _CORRECTION_RE.search(said):
            said = _SAID_BEFORE_RE.sub(_retracted, said)  # "we said N works at X. That isn't so …"
        if ":" in said:
            said = _NOTICE_LABEL_RE.sub(_unlabelled, said)  # "New recruit: Bence Vass, 31, works at …"
        if _GREETING_WORD_RE.search(said):
            said = _GREETING_RE.sub(lambda m: " " * len(m.group(0)), said)  # "Hi Dorka, …": the addressee is "you"
        if "`" in said or "**" in said or "__" in said:
            # a README's "`zirc-sync` is owned by …", a profile's "**Réka Tóth** — …": the words, without their marks
            said = _MARKED_UP_RE.sub(_unmarked, said)
        if "ly " in said:
            said = _NEUTRAL_ADVERB_RE.sub(lambda m: " " * len(m["adverb"]), said)
        if "ork" in said:
            said = _WORKS_WHEN_RE.sub(lambda m: m.group(0)[: m.start("when") - m.start()] + " " * len(m["when"]), said)
        if "(" in said or "'" in said or "’" in said or "‘" in said:
            said = _CLASS_YEAR_RE.sub(lambda m: (m["named"] or "").ljust(len(m.group(0))), said)
        return list(islice(_facts(said, speaker, _day(reference)), MAX_FACTS))
    except Exception:  # noqa: BLE001 - extraction enriches a memory; bad input must never fail indexing
        return []


# what the writer said before, in a text that corrects it ("An erratum: we wrote that the Zirc API is Tisza's. It
# isn't — …", "we said N works at X; that isn't so"): the claim corrected states nothing
_SAID_BEFORE_RE = re.compile(
    # (not "a correction to what I wrote above: …", which goes on with what holds)
    r"\b(?:we|I)\s+(?:had\s+|have\s+)?(?:said|wrote|reported|stated|announced|listed|printed|claimed)\s+(?:that\s+)?"
    r"(?!(?:earlier|before|previously|yesterday|last\s+\w+|above)?\s*[:—–-])(?P<claim>[^.!?\n:]+)",
    re.IGNORECASE,
)
_CORRECTION_RE = re.compile(
    r"\b(?:correction|corrected|correcting|clarify|clarification|erratum|errata|in\s+error|mistakenly|wrongly|"
    r"(?:it|he|she|they|this|that)\s+(?:does|do|is|are|was|were)n['’]?t\b|not\s+(?:true|correct|right))",
    re.IGNORECASE,
)


def _retracted(said: re.Match[str]) -> str:
    """The claim taken back, blanked; the words that say it was said, kept (offsets unchanged)."""
    return said.group(0)[: said.start("claim") - said.start()] + " " * len(said["claim"])


# a notice's label before the person it is about, said with an aside ("New recruit: Bence Vass, 31, …", "STAFF
# PROFILE: Dorka Fehér (Security) …"): the label names no one, and the person after it is whom the rest is about
_NOTICE_LABEL_RE = re.compile(
    rf"^[ \t]*(?P<label>[{_UPPER}][a-z]+(?:[ \t]+[a-z][\w'’-]*){{1,3}}"
    rf"|[{_UPPER}]{{2,}}(?:[ \t]+[{_UPPER}]{{2,}}){{0,3}})"
    rf"[ \t]*:[ \t]+(?={NAME}[ \t]*[,(])",
    re.MULTILINE,
)


def _unlabelled(label: re.Match[str]) -> str:
    """A notice's label blanked when it says the notice is about a person ("New recruit", "Staff profile"), not a
    record's field ("Main contact: …", "Zirc owner: …") nor a status ("Status: Red (was Amber)")."""
    words = label["label"].casefold().split()
    if _FIELD_OF.get(words[-1]) or _FIELD_OF.get(" ".join(words)) or not set(words) & _NOTICE_OF_A_PERSON:
        return label.group(0)
    return " " * len(label.group(0))


_NOTICE_OF_A_PERSON = frozenset(
    "profile spotlight welcome intro introduction recruit hire starter joiner newcomer".split()
)


# a greeting that opens a text or a line, with whom it greets ("Hi Mrs Fehér —", "Hello all,", "Dear Bence and
# Dorka,"): the one greeted is the reader, whom the rest calls "you", not the subject of what follows; nor is a
# later "he" or "she" them
_GREETING_WORDS = r"^[ \t]*(?:Hi|Hiya|Hello|Hey|Dear|Morning|Good\s+(?:morning|afternoon|evening))"
_GREETING_WORD_RE = re.compile(rf"{_GREETING_WORDS}\b", re.MULTILINE)
_GREETING_RE = re.compile(
    # (the greeted by name, or as a group: "all", "team", "parents", "fellow members"; but a greeting alone before a
    # name and its post, "Hi! Ilona, head of data at …", opens a self-introduction, and is left to it)
    rf"{_GREETING_WORDS}(?:[ \t]+(?:y['’]all|[a-z]+(?:[ \t]+[a-z]+)?|{NAME}(?:[ \t]*(?:,|&|and)[ \t]*{NAME})*)"
    rf"|(?![ \t]*!+[ \t]*{NAME},))"
    r"[ \t]*(?:[,!:]+|[ \t][—–-])[ \t]*",
    re.MULTILINE,
)


# a record's field as an export or a log writes it, a key and its value joined by "=" and the fields by ";", "|" or
# "," ("name=Bence Vass; title=Data Engineer; languages=Hungarian,English")
_KEYED_FIELD_RE = re.compile(r"(?:^|(?<=\n)|[ \t]?[;|,&][ \t]*)(?P<key>[A-Za-z][A-Za-z _-]{0,24}?)[ \t]*=[ \t]*(?=\S)")


# the kind of record a line is, in capitals before the name of what it is about ("ROOM | Pécs-4F | owner: …")
_RECORD_KIND_RE = re.compile(r"^[A-Z]{2,}(?:[ _][A-Z]{2,})?[ \t]*\|[ \t]*(?=\S)", re.MULTILINE)
# a labelled field later on the line ("| owner: Facilities", "| owner_team=Tisza Ops"), as a record has and a status
# table's row ("AMBER | Zirc export | due 27 Feb") has not
_LABELLED_FIELD_RE = re.compile(r"\|[ \t]*[A-Za-z][\w -]{0,24}[:=]")


def _record_named(kind: re.Match[str]) -> str:
    """A record's line without its kind, when the line is a record's."""
    line_ends = kind.string.find("\n", kind.end()) % (len(kind.string) + 1)
    return "" if _LABELLED_FIELD_RE.search(kind.string, kind.end(), line_ends) else kind[0]


# a record written on one line, its fields apart by ";" or ",": "Bence Vass; title: Data Engineer; city: Szeged"
_RECORD_KEY_RE = re.compile(r"[;,][ \t]*[A-Za-z][A-Za-z _-]{1,24}:[ \t]")
_RECORD_PARTS_RE = re.compile(r"[ \t]*;[ \t]*|[ \t]*,[ \t]*(?=[A-Za-z][A-Za-z _-]{1,24}:[ \t])")


def _records_on_lines(text: str) -> str:
    """Each one-line record as a record's lines, headed by the person it is of ("Row: Bence Vass; title: …" is "Name:
    Bence Vass\ntitle: …"); a line that is no record, or whose head names no one, as it is."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if len(line) > 600 or len(_RECORD_KEY_RE.findall(line)) < 2:
            continue
        head, *fields = _RECORD_PARTS_RE.split(line.strip().rstrip(". "))
        label, _, value = head.rpartition(":")
        name = value.strip()
        if not (_NAME_RE.fullmatch(name) and _person(name) == name and len(name.split()) > 1):
            continue
        if label and (_FIELD_OF.get(_label(label)[0]) or _label(label)[0] in _THING_FIELDS):
            continue
        lines[index] = "\n".join([f"Name: {name}", *(field for field in fields if field)])
    return "\n".join(lines)


def _keyed_field(field: re.Match[str]) -> str:
    """A keyed field as a line of its own under its label ("; title=" is "\ntitle: ")."""
    opens = field.start() == 0 or field.string[field.start() - 1] == "\n"
    return f"{'' if opens else chr(10)}{field['key'].replace('_', ' ')}: "


# what a voice note says between its words ("I speak, uh, Hungarian", "he, he's reporting"), and the adverb a learner
# puts between a verb and its object ("living now in Szeged", "reporting now to Nandor")
_FILLER_RE = re.compile(
    # "can't believe I moved to Győr a year ago": wonder, which asserts what it wonders at
    r"(?:,\s*)?(?<![\w-])(?:u+m+|u+h+|uhm|erm|er|hmm+|ahh?)(?![\w-])(?:\s*,)?|^(?:I\s+)?(?:can['’]?t|cannot)\s+believe\s+(?:that\s+)?"
    # a spoken "like" or "y'know" between commas ("since, like, June")
    r"|,\s*(?:like|y['’]know|you\s+know|I\s+mean)\s*,(?=\s)",
    re.IGNORECASE,
)
# a word said twice over a comma or a filler taken out ("the, the portal", "Dorka's, uh, Dorka's parrot")
_REPEATED_RE = re.compile(r"\b([\w'’]+)(?:(?:,\s*|\s{2,})\1\b)+")
_ADVERB_ORDER_RE = re.compile(
    r"\b(liv(?:e|es|ing)|work(?:s|ing)?|report(?:s|ing)?|based|staying)\s+(?:now|currently|still)\s+(in|at|to|for|with)\b",
    re.IGNORECASE,
)
# a learner's English as a native writer puts it: "I am not more working for Kestle", "I live in Eger since two
# years", "we are moved to Eger", "working in Kestle from last year"
_LEARNER = (
    # (each with a word it cannot match without, so that a sentence pays only for the rewrites it may need)
    (
        "not",
        re.compile(r"\bnot\s+(?:more|anymore|any\s+more)\s+(?=(?:working|living|reporting|speaking)\b)", re.I),
        "no longer ",
    ),
    (
        "since",
        re.compile(rf"\bsince\s+((?i:{_HOW_MANY})\s+(?:days?|weeks?|months?|years?))\b(?!\s+ago)", re.I),
        r"since \1 ago",
    ),
    ("moved", re.compile(r"\b(?:am|are|is)\s+moved\s+(?=to\s+[A-Z])"), "moved "),
    ("last", re.compile(r"\bfrom\s+(?=last\s+(?:year|month|week)\b)", re.I), "since "),
    # "I work by Kestle already three years": since then
    ("already", re.compile(rf"\balready\s+((?i:{_HOW_MANY})\s+(?:months?|years?))\b", re.I), r"since \1 ago"),
    # "working by Kestle like crane operator": at Kestle, as one
    (" by ", re.compile(r"\b(work(?:ing|s|ed)?)\s+by\s+(?=[A-Z])"), r"\1 at "),
    ("like", re.compile(rf"(\b(?:at|for)\s+{NAME})\s+like\s+(?=(?:an?\s+)?[a-z])"), r"\1 as "),
    # "I work like data engineer": as one
    ("like", re.compile(r"\b(work(?:ing|s|ed)?)\s+like\s+(?=(?:an?\s+)?[a-z])"), r"\1 as "),
    # "My colleague Bence he lives in Eger": the name, its pronoun said again
    (
        "he ",
        re.compile(rf"^(?:(?:[Mm]y|[Oo]ur)\s+[a-z]+\s+)?(?P<name>{NAME})\s+(?:he|she)\s+(?=[a-z])"),
        lambda m: f"{m.group(0)[: m.end('name')]} " if _person(m["name"]) else m.group(0),
    ),
    # "I am work at Kestle", "he is live in Eger": the plain verb
    ("work", re.compile(r"\b(?:am|is|are)\s+(?=work\s+(?:at|in|for|as)\b)"), ""),
    ("live", re.compile(r"\b(?:am|is|are)\s+(?=live\s+in\b)"), ""),
    # "I have dog, his name is Bodri": a dog
    ("ha", re.compile(rf"\b(ha(?:ve|s))\s+(?={_PET_KINDS}\b)"), r"\1 a "),
    # "Tisza Ops is owner of Zirc": the owner
    ("owner of", re.compile(r"\b(is|are)\s+(owners?|maintainers?)\s+of\s+(?=[A-Z])"), r"\1 the \2 of "),
)
_LEARNER_RE = re.compile(
    r"\b(?:not\s+(?:more|anymore|any\s+more)|since\s+\w+\s+(?:days?|weeks?|months?|years?)|moved\s+to|from\s+last|"
    r"work(?:ing|s|ed)?\s+by|like|already\s+\w+\s+(?:months?|years?)|(?:am|is|are)\s+(?:work|live)|"
    r"(?:is|are)\s+(?:owners?|maintainers?)\s+of)\b|[A-Za-z]\s+(?:he|she)\s+[a-z]"
    rf"|\bha(?:ve|s)\s+{_PET_KINDS}\b",
    re.I,
)
# "Bence is data engineer", "I'm team lead at Kestle": a post a learner says without its article
_POST_WITHOUT_ITS_ARTICLE_RE = re.compile(
    r"\b(?P<be>is|am|was|['’]m)\s+(?P<post>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)(?=\s*(?:[.,;!]|$)|\s+(?:at|in|for)\s+[A-Z])"
)
# the words after "is" that say something else than a post said without its article
_NO_POST_OPENS = frozenset(
    "a an the my our your his her their its this that one no not now still also just only very so too in at on "
    "being going".split()
)
# the words a post is said with that take no article before it ("is head of data", "is team lead")
_POST_WITHOUT_ARTICLE = frozenset(
    {"head", "chief", "lead", "director", "president", "founder", "ceo", "cto", "cfo", "coo"}
)


def _post_with_article(said: re.Match[str]) -> str:
    """A post a learner says without its article, with it: "Bence is data engineer" as "Bence is a data engineer"
    (only a post: "is home", "is fine" stay as they are)."""
    post = said["post"]
    words = post.split()
    if words[0] in _NO_POST_OPENS or words[0].endswith("ed"):  # ("was elected treasurer", "is your manager")
        return said.group(0)
    if words[0] in _POST_WITHOUT_ARTICLE or _role_head(post) not in v.ROLE_NOUNS or words[-1] in _NOT_IN_TITLES:
        return said.group(0)
    return f"{said['be']} {'an' if post[0] in 'aeiou' else 'a'} {post}"


_MOVED_TO_FROM_RE = re.compile(
    rf"\b(?P<verb>moved|relocated)\s+to\s+(?P<new>{NAME})\s+from\s+(?P<old>{NAME})(?![\w'’-])"
)
# a list of languages said to be someone's, written the other way round: "Czech and Slovak are my languages"
_FRONTED_LANGUAGES_RE = re.compile(
    rf"(?P<list>{_LANGUAGES}(?:(?:,\s*|,?\s+and\s+){_LANGUAGES})*)\s+(?:are|is)\s+(?P<whose>[Mm]y|{NAME}(?:'s|’s))\s+"
    r"(?P<kind>(?:(?:working|spoken|main)\s+)?languages?)\b"
)
# a sentence that opens on a verb said of someone else ("Speaks Hungarian."): of the person just named
_THIRD_PERSON_VERB_RE = re.compile(
    r"^(?:Speaks|Lives|Works|Reports|Owns|Manages|Moved|Joined|Relocated|Has(?=\s+(?:a|an|two|three|four)\s))\b"
)
# the same on a note's bulleted line, which need not capitalise it ("- speaks Hungarian")
_LISTED_THIRD_PERSON_RE = re.compile(_THIRD_PERSON_VERB_RE.pattern, re.IGNORECASE)


# a picture a chat writes among its words (an emoji, with its joiners, skin tones and variation selectors); an
# eye-roll is not one of them, as it says the words around it are not meant
_PICTURE_RE = re.compile(
    r"[ \t]*(?!🙄)[\U0001F000-\U0001FAFF\u2600-\u27BF][\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]*"
)


# a word that joins what follows to what went before ("went live on Monday 🚀 and Kestle 2.1 is due …")
_JOINED_RE = re.compile(r"(?:and|but|or|so|then|with|because)\b")


def _picture_as_written(picture: re.Match[str]) -> str:
    """A picture as the sentence would be written without it: a dash between the words it stands between ("Day 5
    at Kestle ☕ my manager is …": two statements), else nothing ("our new sphynx 🐱", "🎉 we shipped")."""
    before = picture.string[: picture.start()].rstrip()
    after = picture.string[picture.end() :].lstrip()
    if before and after and before[-1] not in ".!?:;,—–-" and after[0].isalnum() and not _JOINED_RE.match(after):
        return " — "
    return " " if before and after[:1].isalnum() else ""


# an animal's picture after a name, as people caption their own pets ("Lazy morning with Bodri 🐕 and Mák 🐈")
_PET_PICTURES = {
    "🐕": "dog", "🐶": "dog", "🐩": "dog", "🦮": "dog", "🐈": "cat", "🐱": "cat", "🐇": "rabbit", "🐰": "rabbit",
    "🐹": "hamster", "🦜": "parrot", "🦎": "lizard", "🐴": "horse", "🐎": "horse", "🐁": "mouse", "🐀": "rat",
}  # fmt: skip
_PET_PICTURE_RE = re.compile(
    rf"(?<![\w'’-])(?<!RIP\s)(?!RIP\b)(?P<name>{NAME})(?<!['’]s)[ \t]*"
    rf"(?P<picture>{'|'.join(_PET_PICTURES)})[\uFE0F\u200D\u2B1B]*"
)
# what stands before a pet's name when the words have said whose and what it is ("his dog Bodri 🐕", "a kitten named
# Mák 🐈"), or that the writer only minds it ("minding a neighbour's cat — say hi to Mák 🐱")
_PET_SAID_RE = re.compile(rf"(?:\b(?:{_PETS}|named|called)\s+$)|\b(?i:sitting|sitter|minding)\b")


def _pet_pictured(pictured: re.Match[str]) -> str:
    """A name captioned with an animal's picture, as the writer's pet of that kind: "Bodri 🐕" is "Bodri (my dog)"."""
    if _PET_SAID_RE.search(pictured.string[: pictured.start()]):
        return pictured["name"]
    return f"{pictured['name']} (my {_PET_PICTURES[pictured['picture']]})"


# an adverb of what held before, between a subject and its verb ("I previously lived in Eger", "Zirc was formerly
# maintained by Tisza Ops", "Bence once worked at Kestle"): said after what it qualifies, where the readers of
# "used to" and "previously" look for it ("I lived in Eger previously")
_HISTORY_ADVERB_RE = re.compile(
    r"(?<=\w)(?P<adverb>\s+(?:previously|formerly|once))(?P<verb>(?:\s+(?:was|were|been))?\s+(?:lived|owned|belonged|"
    r"spoke|had|ran|maintained|managed|looked|based|employed)\b)"
    r"(?P<said>[^,;:.!?()\n—–]*?)(?=\s*(?:[,;:.!?()\n—–]|$)|\s+(?:but|while|whereas|so)\s)",
    re.IGNORECASE,
)

# … or after "was" ("Bence was formerly head of support", "Zirc was once Tisza's")
_HISTORY_AFTER_BE_RE = re.compile(
    r"(?:(?<=\bwas)|(?<=\bwere))(?P<adverb>\s+(?:previously|formerly|once))(?P<verb>)"
    r"(?P<said>\s+[\w'’][^,;:.!?()\n—–]*?)(?=\s*(?:[,;:.!?()\n—–]|$)|\s+(?:but|while|whereas|so)\s)",
    re.IGNORECASE,
)

# names between dashes, or after one dash to the sentence's end ("… — Mák, Bors and Pötty — …")
_NAMES_BETWEEN_DASHES_RE = re.compile(
    rf"(?<=\w)\s+[—–-]\s+(?P<names>{_PET_NAME_LIST})(?:\s*(?P<close>[—–-])\s+(?=[a-z])|(?=\s*(?:[.,;!]|$)))"
)
_PET_KINDS_RE = re.compile(rf"\b{_PETS}\b")


def _names_of_pets(dashed: re.Match[str]) -> str:
    """Names between dashes after the pets they name ("our three cats — Mák, Bors and Pötty — …"), as after a comma;
    any other dash as it was."""
    words = dashed.string[: dashed.start()].split()[-3:]
    if not any(_PET_KINDS_RE.fullmatch(" ".join(words[at:])) for at in range(len(words))):
        return dashed.group(0)
    return f", {dashed['names']}{', ' if dashed['close'] else ''}"


def _history_said_after(said: re.Match[str]) -> str:
    """The adverb of what held before moved after the words it qualifies ("once" as "formerly": after them, it
    would say how often)."""
    adverb = re.sub(r"(?i)\bonce$", "formerly", said["adverb"])
    return f"{said['verb']}{said['said']}{adverb}"


def _fluent(sentence: str) -> str:
    """A sentence as it would be written: without fillers and stutters, a verb next to its preposition."""
    said = _FILLER_RE.sub(" ", sentence)
    if _PICTURE_RE.search(said):
        said = _PET_PICTURE_RE.sub(_pet_pictured, said)
        said = _PICTURE_RE.sub(_picture_as_written, said)
    said = _REPEATED_RE.sub(r"\1", said)
    said = _ADVERB_ORDER_RE.sub(r"\1 \2", said)
    if "called" in said or "named" in said:  # "my cat's called Socks": is called
        said = re.sub(r"(?<=[a-z])['’]s\s+(?=(?:called|named)\b)", " is ", said)
    if _LEARNER_RE.search(said):
        folded = said.casefold()
        for cue, learned, written in _LEARNER:
            if cue in folded:
                said = learned.sub(written, said)
    if " is " in said or " am " in said or " was " in said or "m " in said:
        said = _POST_WITHOUT_ITS_ARTICLE_RE.sub(_post_with_article, said)
    if _ANY_SHORTHAND_RE.search(said):
        for shorthand, written in _SHORTHAND:
            said = shorthand.sub(written, said)
    if "previously" in said or "formerly" in said or "once " in said:
        said = _HISTORY_ADVERB_RE.sub(_history_said_after, said)
        said = _HISTORY_AFTER_BE_RE.sub(_history_said_after, said)
        # ("Bence once worked at Kestle": the readers of work and posts take "previously" where it stands)
        said = re.sub(r"(?i)\bonce(?=\s+(?:worked|reported|led|headed|served|taught)\b)", "previously", said)
    if "—" in said or "–" in said or " - " in said:
        # "our three cats — Mák, Bors and Pötty — …": the names the dash brings in, as after a comma
        said = _NAMES_BETWEEN_DASHES_RE.sub(_names_of_pets, said)
    if "-based " in said or "-speaking " in said:
        said = _compounds_said_apart(said)
    if "retired " in said:  # "a retired judge": a former one
        said = re.sub(r"\b(a|an|the|our)\s+retired\s+(?=[a-z])", r"\1 former ", said)
    # "moved to Eger from Győr": from Győr to Eger
    if " from " in said and ("moved to" in said or "relocated to" in said):
        said = _MOVED_TO_FROM_RE.sub(r"\g<verb> from \g<old> to \g<new>", said)
    if "language" in said:
        said = _FRONTED_LANGUAGES_RE.sub(lambda m: f"{m['whose']} languages are {m['list']}", said)
    return re.sub(r"[ \t]{2,}", " ", said) if said != sentence else sentence


# a note's shorthand for the words the readers know ("now rpts to Zsófia", "mgr: Nandor", "PM @ Kestle")
_SHORTHAND = (
    (re.compile(r"\brpts\b"), "reports"),
    (re.compile(r"\brpt\b"), "report"),
    (re.compile(r"\bmgr\b"), "manager"),
    (re.compile(r"\bw/(?=\s*[A-Za-z])"), "with "),
    (re.compile(r"(?<=\s)@(?=\s)"), "at"),
    (re.compile(r"\beff\.(?=\s)"), "effective"),
    (re.compile(r"\((?:prev|prev\.|previously)\s+"), "(was "),
    # a company's "& Co." or "Inc." inside a sentence ends its name, not the sentence
    (re.compile(r"\b(Co|Inc|Ltd|Corp|Bros)\.(?=,?\s+[a-z])"), r"\1"),
)
_ANY_SHORTHAND_RE = re.compile(r"\brpts?\b|\bmgr\b|w/|\s@\s|\beff\.|\(prev|\b(?:Co|Inc|Ltd|Corp|Bros)\.")


# "Standup — Zsófia: first week at Brightwell", "@Nandor: moved into the new place", "Ownership: Tisza owns Quillon":
# a note's line opens with whom it is about, or with a label
_LINE_LABEL_RE = re.compile(
    rf"^\s*(?:[^:\n]{{0,40}}?\s[—–-]\s+)?[-•*]?\s*@?(?P<label>{NAME}|[A-Za-z][\w -]{{0,24}}?)\s*:\s+"
    # "Zsófia — left Kestle Pharma in June, now at Brightwell": a directory's or a tracker's line about a person (an
    # aside between, "Zsófia (ex-Kestle) — speaks Czech", is read as a card of its own)
    rf"|^\s*[-•*]?\s*@?(?P<dashed>{NAME})\.?(?:\s*\([^()\n]{{1,60}}\))?\s+[—–-]\s+(?=[a-z])"
)
# a line that opens with the milestone of the thing its label names ("Zirc: GA moved to 9 April")
_MILESTONE_FIRST_RE = re.compile(r"(?:the\s+)?(?:GA|[Ll]aunch|[Rr]elease|[Gg]o-?live)\b(?!\s+(?:of|for)\b)")
_FIRST_PERSON_RE = re.compile(r"\b(?:I|my|me|I['’]m|I['’]ve)\b")


_MONTH_LABEL_RE = re.compile(
    r"(?i:"
    + "|".join(sorted(_CALENDAR_NAMES - {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}))
    + r")(?:\s+\d{4})?"
)


@lru_cache(maxsize=1024)
def _a_voice(label: str) -> bool:
    """Whether a line's label names who speaks on it (a person, a chat handle), not a field or a section."""
    words = label.split()
    if not words or words[-1].casefold() in _SECTION_WORDS | _NOT_HANDLES:
        return False
    field = _label(label)[0]
    if _FIELD_OF.get(field) or field in _PERSON_FIELDS | _THING_FIELDS or words[-1].casefold() in _PERSON_FIELDS:
        return False
    if label.islower():
        return bool(_HANDLE_RE.fullmatch(label))
    return bool(re.fullmatch(NAME, label)) and _person(label) == label and _a_person(label)


# a chat's handle as people type it: one lower-case word ("zsofi")
_HANDLE_RE = re.compile(r"[^\W\d_][\w'’-]{1,24}")


# a clause in the writer's own voice after a label ("Day job: I'm a pharmacist at …"): a heading's sentence, no field
_OWN_CLAUSE_RE = re.compile(r"(?:I['’]m|I\s+am|I['’]ve|I\s+(?:have|work|live|run|own|report|speak)|my\s)\b")


def _labelled_line(sentence: str, speaker: str | None) -> tuple[str, str | None]:
    """A note's line without its label, and who "I" is in it: the person it opens with when what follows is said in
    their own voice ("Nandor: moved to Szeged over the weekend"), else the speaker."""
    label = _LINE_LABEL_RE.match(sentence)
    if label is None:
        return sentence, speaker
    said = sentence[label.end() :]
    if _MONTH_LABEL_RE.fullmatch(label["label"] or ""):
        # a timeline's line ("September: joined Kestle"): what it says happened then
        return f"In {label['label']}, {said[:1].lower() if said[:2] != 'I ' else 'I'}{said[1:]}", speaker
    if label["dashed"]:
        who = _person(label["dashed"])
        # (an aside between the name and the dash is kept for what it says: "Zsófia (ex-Kestle) — speaks Czech")
        aside = f"{bracket.group(0)} " if (bracket := re.search(r"\([^()\n]{1,60}\)", label.group(0))) else ""
        if who and _THIRD_PERSON_LINE_RE.match(said):
            return f"I {aside}{said}", who
        if who and _BEING_OR_HAVING_LINE_RE.match(said):
            return f"{who} {aside}{said}", speaker  # "Zsófia — is head of support; has a dog named Bodri": said of her
        own_voice = _DROPPED_I_RE.match(said) or _DROPPED_I_AM_RE.match(said)
        return (said, who) if who and own_voice else (sentence, speaker)
    field = _label(label["label"])[0]
    if re.fullmatch(r"(?i:remind\s+me|quick\s+question|question)", label["label"] or ""):
        return sentence, speaker  # "remind me: is Kestle due on the 21st?": a question, asked whole
    if _OWN_TITLE_LABEL_RE.fullmatch(label["label"] or ""):
        return sentence, speaker  # "title change: analyst → senior analyst": the speaker's own post, read whole
    if _IDENTIFIER_RE.fullmatch(label["label"]) or (
        label["label"].split()[-1].casefold() in _THING_NOUNS
        and not _FIELD_OF.get(field)
        and field not in _THING_FIELDS
    ):
        # "quillon-ingest: Tisza took it over", "Zirc dashboard: Tisza took it over": the line is about the system
        return sentence, speaker
    if field in _PERSON_FIELDS and _LISTED_AFTER_NAME_RE.match(said):
        return said, speaker  # "Contact: N, lives in Győr, speaks Czech": what the line lists is said of N
    if _FIELD_OF.get(field) or field in _PERSON_FIELDS | _THING_FIELDS:
        if _OWN_CLAUSE_RE.match(said):
            return said, speaker  # "Day job: I'm a pharmacist at …": the writer's sentence under a heading
        return "", speaker  # a record's field ("Target date: moved to 9 May"): read as a record, not as a sentence
    who = _person(label["label"])
    sentence_of_its_own = re.match(rf"(?!I\b)(?:{NAME})(?:\s+and\s+(?:{NAME}))?\s+(?:now\s+)?[a-z]", said)
    third_person = _THIRD_PERSON_LINE_RE.match(said)
    if third_person:
        said = f"I {said}"  # "Nandor: doesnt speak Czech": in the person's own voice
    own_voice = (
        third_person
        or _DROPPED_I_RE.match(said)
        or _DROPPED_I_AM_RE.match(_INTERJECTION_RE.sub("", said.strip()))
        or _FIRST_PERSON_RE.search(said)
        or re.match(r"(?:first|last)\s", said)
        # ("Dorka Vass: we adopted a puppy"): a person's household, in their voice
        or (re.match(r"[Ww]e\b", said) and _a_voice(label["label"]))
    )
    last = label["label"].split()[-1].casefold()
    # a chat's handle as people type it ("zsofi: moved to Győr last weekend"): one lower-case word that heads no
    # section, before a line in its own voice
    handle = label["label"].islower() and _a_voice(label["label"]) and bool(own_voice)
    # (a label that runs on as a phrase before a line about someone, "Answer in thread: yes, Bence is …", names no one;
    # "Ownership of the ledger:" names what its line is about)
    phrase = (
        re.search(r"\s(?:in|on|for|from|with|to|the|and)\s+(?!my\b|our\b)[a-z]", label["label"]) is not None
        and not re.match(r"[\w-]+\s+of\s", label["label"])
        and _ABOUT_SOMEONE_RE.match(said) is not None
    )
    section = last in _SECTION_WORDS or (label["label"].islower() and not handle) or bool(sentence_of_its_own) or phrase
    if handle:
        return said, label["label"]
    if who and own_voice and not section and re.fullmatch(NAME, who) and not who.isupper():
        return said, who
    # a status line's thing, by a bullet or a report's word after it ("- Zirc: GA moved …", "Zirc update: GA …"), not
    # a voice in a chat ("Bence: launch moved to 9 April" is Bence speaking)
    named = re.sub(r"\s+(?i:update|status|news)$", "", label["label"])
    listed = named != label["label"] or re.match(r"\s*[-•*]", sentence)
    if listed and _MILESTONE_FIRST_RE.match(said) and re.fullmatch(NAME, named) and not _a_title(named):
        return f"{named} {said}", speaker  # "Zirc update: GA pushed to 6 October": Zirc's GA
    # under a section's heading the line reads on its own; a name before the colon is what the line is about
    # ("Kestle: slipped to 9 May")
    return (said if section else sentence), speaker


# what someone is for a meeting, a release or an incident, not a post they hold
_DUTIES = frozenset(
    {"chair", "host", "scribe", "facilitator", "note-taker", "notetaker", "moderator", "timekeeper", "presenter",
     "release captain", "incident commander", "incident lead", "on call", "on-call"}
)  # fmt: skip
# a line that goes on about someone by name, after a word of assent ("yes, Bence is …")
_ABOUT_SOMEONE_RE = re.compile(rf"(?:(?i:yes|no|ok|okay|so|well),?\s+)?{NAME}")
# lower-case labels of a line that are no one's handle
_NOT_HANDLES = frozenset(
    "q a re ps edit tldr eta todo done me you us them lol ok okay btw fyi edit2 update personal private work".split()
)
# the headings of a note's sections, which name nobody ("Update:", "Decision:", "Next steps:")
_SECTION_WORDS = frozenset(
    """note notes update updates news decision decisions action actions status summary context background agenda next
    people systems dates ownership risks risk blockers blocker done todo wins highlights lowlights minutes attendees
    re subject fyi reminder heads psa question answer q a recap roundup digest log handover handoff reply replies
    draft correction announcement announcements kickoff feedback intro introduction memo transcript excerpt clip
    onboarding offboarding check-in thread ad mid-year year-end mid-month follow-up wrap-up catch-up sign-off
    kick-off""".split()
)


def _day(reference: datetime | date) -> date:
    return reference.date() if isinstance(reference, datetime) else reference


# a word stem each attribute's patterns need: a clause without any is not read against them (most are not)
_NEEDS: dict[str, tuple[str, ...]] = {
    v.LIVES_IN: ("live", "living", "commute", "moved", "moving", "reloc", "based", "settled", "resid", "emigrat",
                 "new ", "renting", "spent", "remote", "home", "still in", "house", "flat", "apartment", "condo",
                 "cottage", "bungalow", "place", "staying put"),
    LEFT: ("left",),
    v.WORKS_AT_ATTR: ("work", "join", "start", "hired", "left", "quit", "resign", "retired", "laid off", "job",
                      "team at", "been with", "been at", "day at", "week at", "month at", "year at", "employee",
                      "staffer", "hire", "contact", "liaison", "rep ", "person ", " at ", "let ", "laid", "to us from",
                      "paycheck", "payslip", "employed", "not with", "longer with"),
    v.JOB_TITLE: ("promoted", "demoted", "bumped", "took over", "taken over", "named", "appointed", "made", "hired as",
                  "became", " a ",
                  " an ", " the ", " our ", " as ", "title"),
    v.REPORTS_TO_ATTR: ("report", "manager", "boss", "supervisor", "manages", "supervises", "under ", "managed",
                        "supervised", "answer", "team lead"),
    v.OWNED_BY: ("own", "took ", "takes ", "take over", "taken over", "inherited", "maintain", "belong", "'s now",
                 "transferr", "reassign", "passed", "given",
                 "’s now", "'s since", "’s since", "responsib", "handed", "look",
                 "runs", "run by", "in charge", "on the hook", "dri ", "s' now", "s’ now", "'s baby", "’s baby",
                 "'s call", "’s call", "sits with", "under ", "has had", "have had", "'ve had", "’ve had", "'s had",
                 "’s had", "gave", "' baby", "’ baby", "owners,", "owners of", "maintainers of"),
    v.DUE_DATE: ("launch", "release", "go-live", "go live", "deadline", "cutover", "due", "ship", "goes live",
                 "going live", "done by", "finished by", "complete", "delivered by", "ready by", "live by", "slip",
                 "new date", "pulled", "land", "goes out", "locked",
                 "target", " ga ", "on track", "pushed", "delayed", "forward", "set for", "scheduled", "planned for",
                 "slated", "be released", "be launched", "be shipped", "bumped", "bumping", "bumps", "eta for",
                 "out by", "aiming", "going out", "rolling out", "rolls out", "rollout", "roll-out", " is on ",
                 "delivery date", "→", "->", "migration", "upgrade", "beta", "to the store", "to the app store",
                 "follows on", "follows in", "date for"),
    v.HAS_PET: tuple(sorted({form.split()[-1][:5] for kind in v.PET_KINDS for form in (kind, _plural(kind))})),
    v.SPEAKS: ("speak", "fluent", "language", "tongue", "conversation", "get by in", "rusty", "learn", "picked up",
               "talk", "chat", "write", "text"),
}  # fmt: skip


# a field's heading before a day, which names no release of its own ("Deadline for Zirc v2 is 12 February")
_A_DAY_S_HEADING_RE = re.compile(r"(?i:deadline|target|due|(?:launch|release|go-?live)\s+(?:date|for))\b")
_RELEASE_IS_A_DAY_RE = re.compile(
    r"\b(?:v\d+|\d+(?:\.\d+)+|[A-Z]\w*\s+v?\d+)\s+is\s+(?:(?:now|still)\s+)?(?:the\s+\d{1,2}(?:st|nd|rd|th)\b|[A-Z][a-z]+day\b)"
)
# a thing moved to a day, not to a place: what is moved is a schedule's (an "it" goes back to a thing named before)
_MOVED_TO_A_DAY_RE = re.compile(
    r"(?<!\bit )(?<!\bIt )\b(?:moved|moves|shifted|shifts)\s+(?:back\s+|out\s+|up\s+|forward\s+)?"
    r"(?:from\s+[\w ]{1,20}?\s+)?to\s+(?:the\s+)?"
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\b|(?i:{'|'.join(sorted(_CALENDAR_SHORT | {'may'}))})[a-z]*\.?\s+\d|"
    r"(?i:mon|tues|wednes|thurs|fri|satur|sun)day\b)"
)


def _any_word_re(words) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b")


_LANGUAGE_WORDS = frozenset(word for language in v.LANGUAGES for word in language.split())
_WORD_RE = re.compile(r"[^\W\d_]+")
_ROLE_WORD_RE = _any_word_re(v.ROLE_NOUNS)
# a thing said to be someone's, with nothing after the possessive but when ("… is Dorka's from today", "… are
# Tisza's — they set it up")
_POSSESSED_RE = re.compile(
    r"\b(?:is|are|been)\s+(?:(?:now|officially|still|all)\s+)*[\w&' -]+?(?:'s|’s|(?<=s)'|(?<=s)’)"
    r"(?=\s*(?:[.,;!]|$)|\s+(?:now|since|from|as\s+of|ever\s+since)\b|\s+[—–]\s)"
)


def _facts(text: str, speaker: str | None, today: date) -> Iterator[StatedFact]:
    """What the text's sentences state, then what its layout states (a record's fields, a signature's lines), each
    fact once."""
    seen: set[tuple[str, str, str, bool]] = set()
    found, kept = [], []
    if speaker is None and "\n" in text:
        speaker = _signer(text)  # a signed e-mail is its signer's, whoever passed it on
    for said, who in (voice for voices in _voices(text, speaker) for voice in _quoted_apart(*voices)):
        found += _sentences_facts(said, who, today)
        if ":" in said or "\n" in said or "owner" in said:
            found += chain(_record_facts(said, who, today), _signature_facts(said, today))
        if ("report" in said or "mgr" in said) and ("—" in said or "|" in said or "–" in said):
            found += _managers_in_a_line(said, today)  # "Bence Vass — Senior Accountant — reports to Dorka Szabó"
    if ":" in text and _SCHEDULE_LIST_RE.search(text):
        found = [*found, *_scheduled(text, today)]
    if " to " in text and _A_MOVE_RE.search(text):
        found = _systems_moved(text, found, today)
    if "passed away" in text or "died" in text or "with us" in text:
        found = _pets_mourned(text, speaker, found, today)
    if "the " in text.casefold() and _THE_PET_RE.search(text):
        found = _household_pets(text, speaker, found, today)
    if any(word in text for word in _PET_RECORD_WORDS) and (record := _pet_record(text, today)):
        # a vet's or a sitter's record: its owner has the animals it names, and owns no system
        owner, pets = record
        found = [fact for fact in found if not (fact.attribute == v.OWNED_BY and fact.value == owner)] + pets
        if _OWNER_FIELD_LABEL_RE.search(text):  # its fields read again with the owner's as the record's name field
            found += _field_facts(_OWNER_FIELD_LABEL_RE.sub("Name:", text, count=1), None, today, None)
    if any(fact.attribute == v.OWNED_BY for fact in found) and (
        pets := _pets_named(text) | _pets_by_the_talk(text, found)
    ):
        # "Meet Pixel, the office cat — she belongs to Réka": a pet is had, not owned as a system
        found = [
            replace(fact, subject=fact.value, attribute=v.HAS_PET, value=fact.subject)
            if fact.attribute == v.OWNED_BY and fact.subject in pets
            else fact
            for fact in found
        ]
    if (resume := _resume(text)) is not None:
        _, start, end = resume  # a résumé's posts, read by its reader only (not "Kestle — Tester" as Kestle's post)
        found = [fact for fact in found if not start <= fact.span[0] < end or fact.subject == resume[0]]
    sentences = _Sentences(text)
    for fact in found:
        read = [fact]
        if fact.attribute in (LEFT, LEFT_EITHER):
            read = [_left_by_the_text(fact, sentences, found)]
        elif fact.attribute == v.LIVES_IN and "from" in text:
            read = [_a_move_between_employers(fact, sentences)]
        elif fact.attribute == v.HAS_PET and not fact.negated and _UNNAMED_PET_RE.fullmatch(fact.value):
            read = _pets_named_later(fact, text)
        if fact.attribute == v.JOB_TITLE:
            read = [replace(fact, value=post) for fact in read if (post := _a_post(fact.value))]
        for fact in read:
            if fact.attribute == v.DUE_DATE and _A_DATE_S_LABEL_RE.fullmatch(fact.subject):
                continue  # "- Release date: 19 Aug" under a plan: the label of a day, no project
            if speaker and fact.subject != speaker and _introduced_as(fact.subject, speaker, text):
                fact = replace(fact, subject=speaker)  # "I'm Ilona, the newest SRE", said by Ilona Kádár
            key = (fact.subject.casefold(), fact.attribute, fact.value.casefold(), fact.negated)
            if key not in seen:
                seen.add(key)
                kept.append(fact)
    yield from _closed_by_later(_one_project(kept, rename=False))


# a line that lists what falls due when, under a label of dates ("Timeline: Zirc beta 2 March; Kestle audit — 16 March")
_SCHEDULE_LIST_RE = re.compile(
    r"(?im)^[ \t]*(?:[-•*][ \t]*)?(?:key[ \t]+dates|dates|(?:launch|release|delivery)[ \t]+"
    r"(?:calendar|schedule|dates|plan)|timeline|milestones|schedule)\b[^:\n]{0,20}:[ \t]*(?P<items>[^\n]+)"
)
_MAX_SCHEDULED = 24  # items a text's lists of dates are read for, in all


def _scheduled(text: str, today: date) -> list[StatedFact]:
    """The projects a list of dates names, each with the one day that ends its item ("Zirc beta 2 March", "Kestle
    audit — 16 March"); an item whose day is hedged or to be decided ("Tisza launch — TBC") names none."""
    facts, read = [], 0
    for listed in _SCHEDULE_LIST_RE.finditer(text):
        items = listed["items"]
        for item in re.split(r"\s*;\s*", items, maxsplit=_MAX_SCHEDULED):
            read += 1
            if read > _MAX_SCHEDULED:
                return facts
            item = item.strip(" .")
            if not item or _NOT_ASSERTED.search(item) or re.search(r"\b(?:TBD|TBC|tbd)\b", item):
                continue
            days = [m for m in tag_dates(item, reference=today) if not m.ambiguous and m.start == m.end]
            if len(days) != 1 or days[0].span[1] < len(item) or not re.search(r"\d", days[0].text):
                continue
            project = _project_name(item[: days[0].span[0]].strip(" —–:-"))
            if not project:
                continue
            day = _ahead(days[0].start, days[0].text, today)
            at = listed.start("items") + items.find(item)
            facts.append(
                StatedFact(project, v.DUE_DATE, day.isoformat(), today, None, False, 0.7, (at, at + len(item)))
            )
    return facts


_A_DATE_S_LABEL_RE = re.compile(
    r"(?i:(?:new\s+|revised\s+|target\s+)?(?:release|launch|due|target|go-?live|ship|delivery|completion)\s+date|deadline|eta)"
)


# a name the text says is a pet's: "Pixel, the office cat", "Bodri the beagle", "Mák (our cat)"
_PET_NAMED_RE = re.compile(
    rf"(?P<name>{NAME})(?:,\s+|\s+\(|\s+(?=the\s))(?:the|our|my|a|an|his|her|their)\s+(?:[\w-]+\s+){{0,2}}?{_PET_KINDS}\b"
)


# what is said of animals: their kinds, their vets and walks, an office that lets them in
_PET_TALK_RE = re.compile(
    r"\b(?:dogs?|cats?|pupp(?:y|ies)|kittens?|vets?|kennel|leash|walkies|treats|dog-friendly|pet-friendly)\b",
    re.IGNORECASE,
)


def _pets_by_the_talk(text: str, found: list[StatedFact]) -> set[str]:
    """The names a text about animals says someone owns that name no system ("bring-your-dog Thursday: Bodri is
    Réka's", "Mák's owner, Réka, asks for no treats before the vet"): a bare name, no system's words."""
    if not _PET_TALK_RE.search(text):
        return set()
    return {
        fact.subject
        for fact in found
        if fact.attribute == v.OWNED_BY
        and re.fullmatch(rf"[{_UPPER}][a-zà-öø-ÿ'’]+", fact.subject)
        and not _named_as_a_system(text, fact.subject)
    }


def _pets_named(text: str) -> set[str]:
    return {name for match in _PET_NAMED_RE.finditer(text) if (name := _person(match["name"]))}


# a household's pet by its kind, in a text about the writer's household: "…, and the dog, Bodri, sleeps on the balcony",
# "The kids adore the new flat, Bodri the dog is still sulking"
_HOUSEHOLD_PET_RE = re.compile(
    rf"\b[Tt]he\s+(?P<kind>{_PET_KINDS}),\s+(?P<name>{NAME}),|(?<![\w'’-])(?P<named>{NAME})\s+the\s+{_PET_KINDS}\b"
)
_THE_PET_RE = re.compile(rf"\b[Tt]he\s+{_PET_KINDS}\b")
_HOUSEHOLD_RE = re.compile(r"\b(?i:we|we['’](?:re|ve|ll)|our|us|kids|still\s+got|still\s+have)\b")
# whose else an animal in the writer's story may be: a neighbour's, a friend's, one met or minded
_NOT_A_KEEPERS_PET_RE = re.compile(
    r"['’]s\b|\b(?i:neighbou?rs?|friends?|sitting|sitter|met|saw|seen|spotted|stray|lost|found)\b"
)


def _household_pets(text: str, speaker: str | None, found: list[StatedFact], today: date) -> list[StatedFact]:
    """``found`` with the pets a writer names by their kind alone in a sentence about their household ("we", "our",
    "the kids"), when the sentence gives the animal to no one else."""
    if not speaker or not speaker.strip():
        return found
    had = {fact.value for fact in found if fact.attribute == v.HAS_PET}
    for pet in _HOUSEHOLD_PET_RE.finditer(text):
        name = _person(pet["name"] or pet["named"])
        start = max(text.rfind(end, 0, pet.start()) for end in ".!?\n") + 1
        stop = min((at for end in ".!?\n" if (at := text.find(end, pet.end())) >= 0), default=len(text))
        sentence = text[start:stop]
        if not name or name in had or _person(name) != name or not _HOUSEHOLD_RE.search(sentence):
            continue
        if _NOT_A_KEEPERS_PET_RE.search(text, start, pet.start()):
            continue
        since = _record_since(text[pet.end() : stop], today)  # "… Mák the tortoise since 2009"
        found = [*found, StatedFact(speaker.strip(), v.HAS_PET, name, since, None, False, 0.6, pet.span())]
        had.add(name)
    return found


# --- a pet's record: an owner's field and the animals the record names ------------------------------------------

# "Owner: Réka Tóth", "owner Ilona Kiss", "Owner (Bence Vass)"
_PET_OWNER_RE = re.compile(
    rf"(?<![\w-])(?P<label>[Oo]wner|OWNER|Client|Customer)(?:\s*:\s*|\s+\(\s*|\s+)(?P<owner>{NAME})"
    # ("Intake: Réka Tóth — … Pets: Mák (cat)": whom a record with a pets' field is of)
    rf"|^(?:Intake|Profile|New\s+profile|New\s+client)\s*:\s*(?P<profiled>{NAME})(?=[\s\S]*\b(?i:pets?|dogs?|cats?|animals?)\s*:)"
    # ("Employee: Bence Vass / Dog: Bodri (vizsla)": a keeper's field of a pets' record)
    rf"|(?m:^)(?:Employee|Policyholder|Member|Guardian|Keeper|Handler)\s*:\s*(?P<keeper>{NAME})"
    r"(?=[\s\S]*\b(?i:pets?|dogs?|cats?|animals?|insured\s+animal)\s*:)"
)
_OWNER_FIELD_LABEL_RE = re.compile(r"(?<![\w-])(?:[Oo]wner|OWNER)\s*:")
# an animal named with what it is: "Bodri (border collie, 6y)", "Mák, 15y tabby", "Pötyi, rabbit", "two dogs
# (Bodri, Bundás)"
_AGE = r"(?:\d{1,2}\s*(?:y|yo|yrs?|years?(?:\s+old)?|m|mo|months?)\b,?\s*)"
_RECORDED_PET_RES = (
    re.compile(rf"(?P<name>{NAME})\s*\((?P<what>[^()]{{1,60}})\)"),
    re.compile(rf"(?P<name>{NAME}),\s+{_AGE}?(?P<what>(?:[\w/-]+\s+){{0,3}}?{_PETS})\b"),
    re.compile(
        rf"(?:\b(?:an?|one|two|three|four|\d)\s+)?(?P<what>{_PETS})\s*"
        rf"\((?P<names>{NAME}(?:,\s*{NAME})*(?:,?\s+and\s+{NAME})?)\)"
    ),
)
_PET_RECORD_WORDS = ("wner", "OWNER", "Client", "Customer", "Intake", "rofile", "Employee", "olicyholder", "Keeper")
# the words a record's fields are labelled with, which name no animal
_RECORD_WORDS = frozenset(
    "Patient Pet Pets Animal Animals Owner Owners Intake Recheck Presenting History Notes Plan Euthanasia Speaks "
    "Lives Today Client Dogs Cats Employee Policyholder Insured Vaccinations".split()
)


def _pet_record(text: str, today: date) -> tuple[str, list[StatedFact]] | None:
    """The owner a pet's record names and each animal it names as theirs (no longer, when the record says one died),
    when it names exactly one owner and at least one animal by a pet's kind."""
    # (a record's next field after a full stop is no part of the name: "Owner: Bence Vass. Presenting: …")
    owners = {
        _person(re.split(r"\.\s", match["owner"] or match["profiled"] or match["keeper"])[0])
        for match in _PET_OWNER_RE.finditer(text)
    } - {None}
    if len(owners) != 1:
        return None
    (owner,) = owners
    names: dict[str, tuple[int, int]] = {}
    for regex in _RECORDED_PET_RES:
        for match in regex.finditer(text):
            if not re.search(_PETS, match["what"]):
                continue
            listed = _listed(match["names"]) if "names" in regex.groupindex else [match["name"]]
            for name in listed:
                name = _person(name) or ""
                if name and name != owner and name.split()[0] not in _RECORD_WORDS and _a_person(name):
                    names.setdefault(name, match.span())
    if not names:
        return None
    gone = bool(_PET_GONE_RE.search(text))
    return owner, [
        StatedFact(owner, v.HAS_PET, name, None if gone else today, None, gone, 0.7, span)
        for name, span in names.items()
    ]


def _a_post(title: str) -> str:
    """A title as a post's name: without the purpose a change of post was made for ("stepped down as data lead to
    focus on …"), and none where a relative clause was read as one ("who runs support")."""
    if title.split()[0] in {"who", "which", "that", "whose"}:
        return ""
    return re.sub(r"\s+to\s+(?!the\b|an?\b|our\b|his\b|her\b)[a-z]+\b.*$", "", title)


def _introduced_as(name: str, speaker: str, text: str) -> bool:
    """Whether ``name`` is the speaker's own first or last name, given where the text introduces its speaker by it."""
    parts = speaker.split()
    if len(parts) < 2 or name not in (parts[0], parts[-1]):
        return False
    # "I'm Ilona, …", or a card of one's own ("Hej! Ilona, CTO at Kestle."), where no one else of that name is
    # named in full
    return re.search(
        rf"\b(?:I['’]m|I\s+am|[Mm]y\s+name\s+is|[Tt]his\s+is|[Ii]t['’]s)\s+{re.escape(name)}\b", text
    ) is not None or (
        re.search(rf"(?:^|[.!?]\s+){re.escape(name)},\s", text) is not None
        and re.search(rf"\b{re.escape(name)}\s+(?!{re.escape(parts[-1])}\b)[{_UPPER}]", text) is None
    )


_FUNCTIONAL = frozenset(attribute.value for attribute in v.ATTRIBUTES if attribute.functional)


def _closed_by_later(facts: list[StatedFact]) -> list[StatedFact]:
    """One value at a time: where a text gives a subject two current values of an attribute that holds one, from
    different days ("I've owned zirc-flags since 2021; from today the Tisza team owns it"), each holds until the
    next one began, as the store would close it had they been said apart."""
    began: dict[tuple[str, str], list[date]] = {}
    for fact in facts:
        if fact.attribute in _FUNCTIONAL and not fact.negated and fact.valid_until is None and fact.valid_from:
            began.setdefault((fact.subject.casefold(), fact.attribute), []).append(fact.valid_from)
    closed = []
    for fact in facts:
        days = began.get((fact.subject.casefold(), fact.attribute), ())
        later = [day for day in days if fact.valid_from and day > fact.valid_from]
        if later and not fact.negated and fact.valid_until is None:
            fact = replace(fact, valid_until=min(later))
        closed.append(fact)
    return closed


_PERSON_VALUED = frozenset({v.REPORTS_TO_ATTR, v.OWNED_BY})
_FORMER_RE = re.compile(r"(?:former|ex-|ex\s|previous|one-time|erstwhile)\s*")

# a pet had but not named, and its name said straight after: "We got a kitten! Her name is Mák", "… a puppy. The
# puppy is called Bodri"
_UNNAMED_PET_RE = re.compile(rf"(?:(?:a|an|the|one|two|three|\d+)\s+)?(?:[\w-]+\s+)?{_PETS}", re.IGNORECASE)
_NAMED_LATER_RE = re.compile(
    # (no name between, though a pronoun may open a sentence: "We got a puppy! She's a vizsla and we named her Bodri")
    rf"(?:[^A-Z]|\b(?:She|He|It|We|They|I)\b){{0,50}}?(?:\b(?:[Hh]is|[Hh]er|[Ii]ts|[Tt]heir)\s+name(?:['’]s|\s+is)|\b(?:[Hh]e|[Ss]he|[Ii]t)(?:['’]s|\s+is)\s+"
    rf"(?:called|named)|\b[Tt]he\s+(?:\w+\s+)?{_PETS}\s+is\s+(?:called|named)"
    # "… and we named her Bodri"
    rf"|\b(?:[Ww]e|I)(?:['’]ve|\s+have)?\s+(?:named|called)\s+(?:her|him|it))\s+(?P<value>{NAME})"
)


def _pets_named_later(fact: StatedFact, text: str) -> list[StatedFact]:
    """A pet had but not named, with the name the text gives it straight after, nobody else named between; pets of a
    kind named right after it, in brackets or a list ("two cats (Bogyó and Cirmi)", "… cats, named them A and B"),
    one each."""
    one = fact.value.split()[-1]
    kind = re.compile(rf"\b(?:{re.escape(_plural(one))}|{re.escape(one)}s?)\b", re.IGNORECASE).search(
        text, max(fact.span[0] - 4, 0)
    )
    listed = _PETS_LISTED_AFTER_RE.match(text, kind.end()) if kind else None
    if listed:
        names = [name for name in map(_person, _listed(next(filter(None, listed.groups())))) if name]
        if names:
            return [replace(fact, value=name) for name in names]
    later = _NAMED_LATER_RE.match(text, kind.end()) if kind else None
    name = re.split(r"[.!?]\s", later["value"])[0] if later else ""
    return [replace(fact, value=name) if name and _person(name) == name else fact]


# the names given to pets of a kind right after it: "(Bogyó and Cirmi)", "…, named them Mák and Pötty", "— Bodri",
# ", Füles,"
_PET_NAMES = rf"{NAME}(?:,\s*{NAME})*(?:,?\s+(?:and|&)\s+{NAME})?"
_PETS_LISTED_AFTER_RE = re.compile(
    rf"\s*\((?P<bracket>{_PET_NAMES})\)|[^.!?;()A-Z]{{0,25}}?,?\s+(?:named|called)\s+(?:them|her|him|it)\s+(?P<named>{_PET_NAMES})"
    rf"|(?:\s+(?:now|too|also|as\s+well))*\s+[—–]\s+(?P<dash>{NAME})(?=\s*(?:[,.!]|$))|,\s+(?P<apposed>{NAME}),"
)


# an e-mail's quoted reply: its lines after ">", and the line that says whose they are ("On Mon, N wrote:")
_QUOTED_RE = re.compile(r"^[ \t]*((?:>[ \t]?)+)", re.MULTILINE)
_WROTE_RE = re.compile(rf"(?:^|,\s*)(?P<name>{NAME})\s*(?:<[^>\n]*>|\([^)\n]*\))?\s+(?:wrote|said|writes):\s*$")


def _voices(text: str, speaker: str | None) -> list[tuple[str, str | None]]:
    """The text as the voices it holds, each the same length as the text (what is not theirs blanked, so spans keep
    their places): the writer's own lines, and each quoted reply in the voice of whoever the line above it says wrote
    it — nobody's, when no line says. A quoted "I" is never the writer."""
    if ">" not in text:
        return [(text, speaker)]
    lines = text.splitlines(keepends=True)
    quoted = [_QUOTED_RE.match(line) for line in lines]
    if not any(quoted):
        return [(text, speaker)]
    whose: dict[int, str | None] = {0: speaker}
    voice_of: list[tuple[int, str | None] | None] = []
    bares = []
    previous, attributed = 0, False
    for line, marks in zip(lines, quoted, strict=True):
        depth = marks.group(1).count(">") if marks else 0
        bare = f"{' ' * marks.end()}{line[marks.end() :]}" if marks else line
        bares.append(bare)
        wrote = _WROTE_RE.search(bare.strip())
        if depth > previous and not attributed:
            whose[depth] = None  # a reply quoted with no line saying whose: nobody's
        previous, attributed = depth, bool(wrote)
        if wrote:  # whose the next depth's lines are; the line itself says nothing of anyone
            whose[depth + 1] = _person(wrote["name"])
            if depth:  # a quoted thread often quotes the attribution with what it attributes, at one depth
                whose[depth] = whose[depth + 1]
            voice_of.append(None)
        else:
            voice_of.append((depth, whose.get(depth)))
    voices = []
    for voice in dict.fromkeys(voice for voice in voice_of if voice is not None):
        kept = (
            bare if at == voice else _BLANK_RE.sub(" ", line)
            for line, bare, at in zip(lines, bares, voice_of, strict=True)
        )
        voices.append(("".join(kept), voice[1]))
    return voices


_BLANK_RE = re.compile(r"[^\n]")
# words in quotation marks: a song's line, a character's, an ad's, someone unnamed's ("'I moved to Pécs and I live on
# the moon'"); an apostrophe inside a word ("I'd") is no quotation mark
_QUOTED_PASSAGE_RE = re.compile(
    r"(?:^|(?<=[\s:(—–-]))(?P<open>[\"“‘'])(?P<body>(?:[^\"“”‘’'\n]|(?<=\w)['’](?=\w)){12,}?)(?<=\S)[\"”’']"
    r"(?=[\s.,;:!?)—–-]|$)"
)
_FIRST_PERSON_WORDS_RE = re.compile(r"\b(?:I|my|me)\b")
_TELLER_RE = re.compile(
    rf"(?P<name>{NAME})\s+(?:said|says|told\s+(?:me|us|them)|wrote|writes|added|replied|explained|texted)\s*[,:]?\s*$"
)


def _quoted_apart(text: str, speaker: str | None) -> list[tuple[str, str | None]]:
    """The text, and apart from it the passages in quotation marks that speak in the first person: such an "I" is
    a song's, a character's or someone unnamed's, never the writer's, so those passages are read as nobody's (each
    voice the same length as the text, what is not its own blanked)."""
    if not any(mark in text for mark in "\"“‘'"):
        return [(text, speaker)]
    quoted = [m for m in _QUOTED_PASSAGE_RE.finditer(text) if _FIRST_PERSON_WORDS_RE.search(m["body"])]
    if not quoted:
        return [(text, speaker)]
    own, at = [], 0
    voices: dict[str | None, list[tuple[int, int]]] = {}
    for passage in quoted:
        own += [text[at : passage.start()], _BLANK_RE.sub(" ", passage.group(0))]
        at = passage.end()
        # 'Noor told me: "I moved to Eger"': the "I" of a quotation its teller is named before is theirs
        teller = _TELLER_RE.search(text, max(0, passage.start() - 80), passage.start())
        voices.setdefault(_person(teller["name"]) if teller else None, []).append(passage.span())
    own.append(text[at:])
    blank = _BLANK_RE.sub(" ", text)
    theirs = []
    for who, spans in voices.items():
        kept, at = [], 0
        for start, end in spans:
            kept += [blank[at:start], text[start:end]]
            at = end
        theirs.append(("".join([*kept, blank[at:]]), who))
    return [("".join(own), speaker), *theirs]


_EMPLOYER_CUE_RE = re.compile(
    r"\b(?:job|jobs|work|worked|working|notice|employer|employers|colleagues?|boss|company|firm|redundan\w*|contract|"
    r"quit|resign\w*|career|startup|office|shift|desk|hired|hiring|freelance|unemployed|payroll|role|position|"
    r"joined|join|promot\w*|last\s+day|farewell|leaving\s+do|start(?:ing|s)?\s+at)\b",
    re.IGNORECASE,
)
# the words of a home (a move's own words aside)
_HOME_WORDS = (
    r"city|town|village|country|flat|house|apartment|home|rent|lease|landlord|neighbourhood|neighborhood|for\s+good|"
    r"emigrat\w*|lived|living|removals?|movers|boxes|keys"
)
_HOME_CUE_RE = re.compile(rf"\b(?:moved|move|moving|relocat\w*|{_HOME_WORDS})\b", re.IGNORECASE)
# a home, said without a move's words, as a sentence about a move between two names would say it
_DWELLING_CUE_RE = re.compile(
    rf"\b(?:{_HOME_WORDS}|weather|sea|beach|mountains|commute|garden|neighbou?rs|nearer|closer\s+to|address|postcode|"
    r"post\s+code|zip\s+code|unpack\w*|boxes|removal\s+van)\b",
    re.IGNORECASE,
)


def _a_move_between_employers(fact: StatedFact, sentences: _Sentences) -> StatedFact:
    """ "Nandor moved from Brightwell to Kestle": a move between two names the world knows as no place, in a sentence
    that says nothing of a home, is a change of job."""
    sentence = sentences.of(fact)
    moved = re.search(rf"\bfrom\s+(?P<old>{NAME})\s+to\s+(?P<new>{NAME})", sentence) or _MOVED_TO_FROM_RE.search(
        sentence
    )
    if not moved or fact.value not in {moved["old"], moved["new"]} or _DWELLING_CUE_RE.search(sentence):
        return fact
    if re.search(r"\b[Ww]e(?:['’]ve|\s+have|\s+just|\s+finally)*\s+moved\b", sentence):
        return fact  # a household's move: a home, whatever the towns' names
    if known_place(moved["old"]) or known_place(moved["new"]):
        return fact
    # the job named apart from the move ("moved from A to B for the job at Kestle", "… and started at Kestle"): the
    # move is of home; so is one whose text speaks of a home and of no job ("I'll send you the new address")
    employer = _EMPLOYER_AT_RE.search(sentence, moved.end())
    if employer and employer["employer"] not in {moved["old"], moved["new"]}:
        return fact
    if _DWELLING_CUE_RE.search(sentences.text) and not _EMPLOYER_CUE_RE.search(sentences.text):
        return fact
    return replace(fact, attribute=v.WORKS_AT_ATTR)


# an employer named after a job's words: "for the job at Kestle", "started as a trainee at Kestle", "joined Kestle"
_EMPLOYER_AT_RE = re.compile(
    rf"\b(?:(?:job|role|position|post|work(?:ing)?|started|starting)\b"
    rf"[^.;!?]{{0,40}}?\s(?:at|with|for)|joined)\s+(?:the\s+)?(?P<employer>{NAME})"
)


class _Sentences:
    """A text's sentences, split once (on first need) and found by where a fact was read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._spans: list[tuple[int, int]] | None = None
        self._named_as: dict[str, tuple[bool, bool]] = {}  # how the text names a word elsewhere, read once per word

    def named_as(self, named: str) -> tuple[bool, bool]:
        """Whether the text names ``named`` as an employer ("at Kestle", "joined Kestle") and as a town ("in Tata")."""
        if named not in self._named_as:
            word = re.escape(named)
            at = re.search(
                rf"\b(?:at|joined|job\s+with|work(?:s|ed|ing)?\s+(?:for|with))\s+(?:the\s+)?{word}\b", self.text
            )
            in_ = re.search(rf"\b(?:in|to|live[sd]?\s+near)\s+{word}\b", self.text)
            self._named_as[named] = (bool(at), bool(in_))
        return self._named_as[named]

    @cached_property
    def cues(self) -> tuple[bool, bool]:
        """Whether the whole text speaks of a job, and of a home."""
        return _job_or_home(self.text)

    def of(self, fact: StatedFact) -> str:
        if self._spans is None:
            self._spans = [said.span() for said in _SENTENCE_RE.finditer(self.text)]
        index = bisect_right(self._spans, (fact.span[0], len(self.text) + 1)) - 1
        if index >= 0 and self._spans[index][0] <= fact.span[0] < self._spans[index][1]:
            return self.text[self._spans[index][0] : self._spans[index][1]]
        return self.text


def _job_or_home(said: str) -> tuple[bool, bool]:
    """Whether words speak of a job, and of a home."""
    return bool(_EMPLOYER_CUE_RE.search(said)), bool(_HOME_CUE_RE.search(said))


def _left_by_cues(fact: StatedFact, employer: bool, home: bool) -> StatedFact | None:
    """A bare "left X" read by the words around it: a job's or a home's, or either when both are spoken of."""
    if employer != home:
        return replace(fact, attribute=v.WORKS_AT_ATTR if employer else v.LIVES_IN)
    return replace(fact, attribute=LEFT_EITHER) if employer else None


def _left_by_the_text(fact: StatedFact, sentences: _Sentences, found: list[StatedFact]) -> StatedFact:
    """A bare "left X" read by what the text itself says X is: the attribute another of its facts gives X, else an
    organisation's name ("Rooiberg Wines", "Kettle.io", "Tisza & Vass"), else the words of its sentence (a job, a
    notice, colleagues; a move, a flat, "for good") — one and not the other — or failing those, the words of the whole
    text. Otherwise it stays the graph's to read,
    by what it knows X to be."""
    value = fact.value.casefold()
    held = {other.attribute for other in found if other.value.casefold() == value} & {v.WORKS_AT_ATTR, v.LIVES_IN}
    if len(held) == 1:
        return replace(fact, attribute=held.pop())
    if _business_name(fact.value):
        return replace(fact, attribute=v.WORKS_AT_ATTR)
    if known_place(fact.value):
        return replace(fact, attribute=v.LIVES_IN)  # "left Szeged": a city the world knows
    # how the text names X elsewhere: "still at Kestle?" is an employer, "back in Tata" a town
    at, in_ = sentences.named_as(fact.value.split()[0])
    if at != in_:
        return replace(fact, attribute=v.WORKS_AT_ATTR if at else v.LIVES_IN)
    # the words of its sentence, else of the whole text ("Career update: I joined Kestle. Left Tisza after a long run.")
    # (both: the text speaks of a job and a home, and which X was it does not say)
    return _left_by_cues(fact, *_job_or_home(sentences.of(fact))) or _left_by_cues(fact, *sentences.cues) or fact


# a name moved to a team or a function: "Zirclog moved to Kestle Core on Friday", "Zirc went over to the Data squad" —
# a system's new owner where the text speaks of the name as a system, a person's new team or home where it does not
_MOVED_TO = r"(?:moved|went|transferred|migrated)(?:\s+over)?\s+to\b"
_MOVED_OVER_RE = re.compile(
    rf"(?<![\w'’-])(?<!\bof\s)(?<!\bfor\s)(?P<thing>{NAME})(?:\s+(?:has|had|was|got|just|now|finally|also))*\s+"
    rf"{_MOVED_TO}\s+(?:the\s+)?(?P<owner>{NAME}(?:\s+{_TEAM_WORDS})?)(?P<rest>[^.;!?\n]*)"
)
_A_MOVE_RE = re.compile(rf"\b{_MOVED_TO}")
# two things by their words moved to one owner together: "the tile renderer and the font cache both moved to Tisza"
_THINGS_MOVED_RE = re.compile(
    r"\b[Tt]he\s+(?P<thing>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)\s+and\s+(?:the\s+)?(?P<other>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)"
    # ("were moved": "were", then the move)
    rf"(?:\s+(?:both|all|have|had|were|got|just|now|finally|also))*\s+{_MOVED_TO}\s+(?:the\s+)?"
    rf"(?P<owner>{NAME}(?:\s+{_TEAM_WORDS})?)(?P<rest>[^.;!?\n]*)"
)
# what is said of systems a team runs: who is paged or ticketed for them, whose they are
_OPERATIONS_RE = re.compile(
    r"\b(?i:own|owns|owned|owner|owners|ownership|tickets?|alerts?|paging|pager|on-?call|runbooks?|rota|escalations?)\b"
)
# how a text speaks of a name as a person's: their team, manager or family, their reporting, joining, living or speaking
_NAMED_AS_A_PERSON = (
    r"(?:['’]s\s+(?:team|squad|manager|boss|wife|husband|partner|family)\b|\s+(?:reports|joined|lives|speaks)\b)"
)


def _named_as_a_system(text: str, name: str) -> bool:
    """Whether the text speaks of ``name`` as a system: by a system's noun after it ("the Zirc exporter", "Zirc
    alerts"), as what is owned, taken over or handed on ("who owns Zirc", "took Zirc over")."""
    named = re.escape(name)
    nouns = (m["noun"].casefold() for m in re.finditer(rf"\b{named}\s+(?P<noun>[a-z][\w-]*)", text))
    return any(noun in _THING_NOUNS or noun.rstrip("s") in _THING_NOUNS for noun in nouns) or bool(
        re.search(
            rf"\b(?i:owns?|owned|owning|owner\s+of|ownership\s+of|took\s+over|taking\s+over|handed(?:\s+over)?|"
            rf"maintains?)\s+(?:the\s+)?{named}\b|\b{named}\s+(?:is|was|are)\s+(?:\w+\s+)?(?:owned|maintained)\b",
            text,
        )
    )


def _named_as_a_person(text: str, name: str) -> bool:
    return bool(re.search(rf"\b{re.escape(name)}{_NAMED_AS_A_PERSON}", text))


def _systems_moved(text: str, found: list[StatedFact], today: date) -> list[StatedFact]:
    """``found`` with a system moved to a team read as the team's: a name the text speaks of as a system, or one
    word moved to a team by its words in a text about owning and running systems ("Zirc went to the Data team;
    who owns the alerts now?"), or things by their words moved together ("the tile renderer and the font cache both
    moved to Tisza"). A name the text speaks of as a person's, or a town the world knows, is no system."""
    voices = _chat_voices(text)
    # whether the text speaks of a name as a system (True), as a person's (False), or neither (None), found once
    systems: dict[str, bool | None] = {}
    for moved in islice(_MOVED_OVER_RE.finditer(text), MAX_FACTS):
        thing, owner = _person(moved["thing"]), _team_name(moved["owner"].rstrip("."))
        if not thing or thing == "I" or not owner or known_place(owner) or thing in voices or known_place(thing):
            continue
        before = text[max(0, moved.start() - 200) : moved.start()]  # (a window: the text may be long)
        if re.search(rf"\b(?:{_RELATION}|my|our|his|her|their)\s+$", before, re.IGNORECASE):
            continue  # "my brother Bence moved to …": a person, by whom they are to someone
        sentence = before[max(before.rfind(end) for end in ".!?\n") + 1 :] + text[moved.start() : moved.end()]
        team = _a_unit(moved["owner"])
        if thing not in systems:
            systems[thing] = not _named_as_a_person(text, thing) and (
                _a_system_by_its_noun(thing) or _named_as_a_system(text, thing) or None
            )
        if systems[thing] is False:
            continue  # a person's name, by how the text speaks of them
        system = (
            systems[thing]
            or (" " not in thing and _OPERATIONS_RE.search(sentence))
            or (" " not in thing and team and _OPERATIONS_RE.search(text))
        )
        if not system:
            continue
        if re.search(r"\b(?:and|but)\s+(?:now\s+)?(?:owns|reports|leads|works|is|has)\b", moved["rest"]):
            continue  # "Bence went to the Billing team and now owns the exporter": a person, doing what people do
        found = _owned_after_a_move(found, thing, moved, today)
    for moved in _THINGS_MOVED_RE.finditer(text) if " and " in text else ():
        things = [moved["thing"], moved["other"]]
        if known_place(moved["owner"]) or not all(map(_a_system_by_its_noun, things)):
            continue
        for thing in things:
            found = _owned_after_a_move(found, thing, moved, today)
    return found


def _owned_after_a_move(found: list[StatedFact], thing: str, moved: re.Match[str], today: date) -> list[StatedFact]:
    """``found`` with ``thing`` owned by the owner it moved to (dated as the move), in the place of a home read from
    the same words; as it was when another statement already gives the thing an owner."""
    if any(fact.attribute == v.OWNED_BY and fact.subject == thing for fact in found):
        return found
    said = _sentence_facts(_owned_as_said(thing, moved["owner"], moved["rest"]), None, today)
    return [fact for fact in found if not (fact.attribute == v.LIVES_IN and fact.subject == thing)] + [
        replace(fact, span=moved.span()) for fact in said if fact.attribute == v.OWNED_BY
    ]


# a name the writer mourns ("Mák passed away on Sunday", "RIP Bodri"), and the short life that says it was a pet's
# ("she was only 3", "twelve years old", "12 good years"): a person's death is told with a relation or a long life
_MOURNED_RE = re.compile(
    rf"(?:^|(?<=[.!?:—–-]\s)|(?<=\bRIP\s))(?P<name>{NAME})(?:\s+(?:has|just|sadly|finally))*\s+"
    r"(?P<gone>passed\s+away|died|(?:is|was)\s+(?:no|not)\s+(?:longer|more)\s+with\s+us)\b(?P<rest>[^.!?\n]*)"
)
# "RIP Kókusz — he died this morning": the name mourned, then told of by a pronoun
_RIP_RE = re.compile(
    rf"\bRIP\s+(?P<name>{NAME})[^\w.!?\n]{{0,8}}(?:he|she)(?:\s+(?:has|just|sadly|finally))*\s+"
    r"(?P<gone>passed\s+away|died)\b(?P<rest>[^.!?\n]*)"
)
_MOURNED_PEOPLE = r"grandmother|grandfather|colleague|teacher|classmate|student|pupil|child"
_AGE_WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen".split()
_SHORT_LIFE_RE = re.compile(
    rf"\b(?:(?:was|aged|at)\s+(?:only\s+|just\s+)?(?P<at>\d{{1,2}}|{'|'.join(_AGE_WORDS)})\b(?!\s*(?:%|am|pm|:))"
    rf"|(?P<years>\d{{1,2}}|{'|'.join(_AGE_WORDS)})\s+(?:good\s+|happy\s+|wonderful\s+)?years(?:\s+old)?\b"
    r"|\bold\s+(?:boy|girl)\b)",
    re.IGNORECASE,
)


def _pets_mourned(text: str, speaker: str | None, found: list[StatedFact], today: date) -> list[StatedFact]:
    """``found`` with the pets the writer mourns by name alone: a name said to have died in a text that tells of a
    short life, of no one the text calls a relation or a person's."""
    if not speaker or not speaker.strip():
        return found
    for mourned in chain(_MOURNED_RE.finditer(text), _RIP_RE.finditer(text) if "RIP" in text else ()):
        name = _person(mourned["name"])
        life = _SHORT_LIFE_RE.search(text, mourned.start())
        if not name or life is None or life.start() - mourned.end() > 120 or _KIN_WORD_RE.fullmatch(name):
            continue
        age = life["at"] or life["years"]
        if age and (int(age) if age.isdigit() else _AGE_WORDS.index(age.casefold()) + 1) > 20:
            continue
        if re.search(rf"\b(?:{_RELATION}|{_MOURNED_PEOPLE})\s*,?\s+{re.escape(name)}", text, re.IGNORECASE):
            continue  # "my classmate Bence died, he was 17": a person
        days = _dates(mourned["rest"], today)
        when = days[0] if days and days[0] <= today else today
        found = [*found, StatedFact(speaker.strip(), v.HAS_PET, name, when, None, True, 0.6, mourned.span("name"))]
    return found


def left_unread(fact: StatedFact) -> StatedFact | None:
    """A bare "left X" that neither its text nor the graph reads, as the end of X as the subject's employer: a town
    the world knows was read as a home by its text already, and what else one leaves by a bare name is nearly always a
    job. Where only the graph can say which (``LEFT_EITHER``), nothing is read."""
    return (
        replace(fact, attribute=v.WORKS_AT_ATTR, confidence=min(fact.confidence, 0.6))
        if fact.attribute == LEFT
        else None
    )


# a catalogue's line: a thing, a dash (or a colon before an owner's field), and what is said of it in fragments
# ("Zirc exporter — Owner: Tisza team", "Kestle (reporting) — maintained by N until 2024; now owned by T",
# "Zirc sync job — Tisza took it over from Bodri Ops")
_CATALOGUE_LINE_RE = re.compile(
    # (a thing's name holds no verb: "Zirc is theirs now: Tisza took it over" is a sentence, not a line about "Zirc is
    # ours now")
    rf"^\s*(?P<thing>[A-Za-z][\w.&'’/-]*(?:\s+(?!{_BEING_OR_HAVING}\b)[\w.&'’/-]+){{0,4}}?)(?:\s*\([^()]{{1,40}}\))?"
    rf"(?:\s+[—–|-]\s+|\s*:\s+(?={_OWNER_LABEL}))(?P<rest>.+)$"
)
_OWNER_FIELD_RE = re.compile(rf"^{_OWNER_LABEL}\s*(?P<owner>[^()]+?)\s*(?:\((?P<aside>[^()]*)\))?$")
_PASSIVE_OWNED_RE = re.compile(
    r"^(?:(?:now|currently|still|archived|deprecated),?\s+)*(?P<said>(?:no\s+longer\s+)?(?:owned|maintained|run|managed)\s+by\b.*)$"
)
_OWNERSHIP_MOVED_RE = re.compile(r"^(?i:ownership|responsibility)\s+(?=(?:moved|passed|went|was\s+transferred)\b)")
# the aside after an owner that says whose it was ("Owner: N (transferred from P in May 2024)", "(was P until Jan)")
_WAS_OWNED_RE = re.compile(
    r"^(?:(?P<moved>transferred|moved|handed\s+over|taken\s+over)\s+from|was)\s+(?P<old>.+?)"
    r"(?P<when>\s+(?:in|on|since|until|till)\s+.+)?$",
    re.IGNORECASE,
)
_THING_OBJECT_IT_RE = re.compile(
    r"\b(?P<verb>took|taken|takes|owns|own|looks\s+after|look\s+after|maintains|runs|inherited|picked)\s+it"
    r"(?P<over>\s+(?:over|up))?\b"
)


# a fragment that only names a thing: a few words, the first capitalised, none a verb's
_A_THING_ALONE_RE = re.compile(
    r"[A-Z][\w.&'’/-]*(?:\s+(?!(?:is|are|was|were|has|have|had|now|moved|owned|maintained|run|took)\b)[\w.&'’/-]+){0,4}"
    r"(?:\s*\([^()]{1,40}\))?"
)


# a catalogue's fragment that gives its thing's day ("ETA 30 June", "new target: 15 July", "launch target 7 October")
_DUE_FIELD_RE = re.compile(
    r"(?i:eta|due(?:\s+date)?|deadline|(?:new\s+|launch\s+|release\s+|target\s+)?(?:target|date)(?:\s+date)?)\s*:?\s+"
    r"(?P<day>(?=[^;|]*(?:\d|\b(?i:mon|tue|wed|thu|fri|sat|sun)))[^;|:]{1,30})"
)


def _catalogue_line(said: str) -> str:
    """A catalogue's line as sentences about its thing, each fragment after the dash said of it ("Zirc exporter —
    Owner: Tisza team" is "The Zirc exporter is owned by Tisza team."); a line that is no catalogue's, as it
    is."""
    # ("Handover: Kestle dashboards — owner: Tisza": the note's label, then its catalogue's line)
    if (label := re.match(r"\s*(?P<label>[A-Z][\w-]*):\s+(?=[^:]*\s[—–|]\s)", said)) and label["label"] in _NOT_A_NAME:
        said = said[label.end() :]
    line = _CATALOGUE_LINE_RE.match(said) if re.search(r"[—–|:]| - ", said) else None
    if line is None or line["thing"].split()[0] in _NOT_A_NAME or _EVENT_RE.search(line["thing"]):
        return said  # ("Offsite — owner: Dorka": who runs an event owns no system)
    thing, rest = line["thing"], line["rest"]
    if inner := re.match(r"(?P<thing>[\w.-]+(?:\s+[\w.-]+){0,3}):\s+(?P<rest>.+)$", rest):
        if not _OWNER_FIELD_RE.match(rest.rstrip(".! ")):  # "Recap — zirc-sync: owned by …": the line is zirc-sync's
            thing, rest = inner["thing"], inner["rest"]
    if quoted := re.search(r"['‘\"“](?P<name>[^'’\"”]{3,60})['’\"”]", thing):
        thing = quoted["name"]  # "Story Z-12 'Kestle invoice rework'": the thing by its name
    # "Zirc resumed — new target …": the thing, not what befell it
    thing = re.split(r"\s+(?=[a-z]+ed\b)", thing, maxsplit=1)[0]
    sentences: list[str] = []
    fragments = re.split(
        r"\s*[;|]\s*|\s+[—–]\s+|,\s+(?=(?:now|currently|still|no\s+longer|owned|maintained|run|eta|due|deadline|"
        r"(?:new\s+|launch\s+|release\s+)?target)\b)",
        rest,
    )
    for index, fragment in enumerate(fragments):
        fragment = fragment.strip().rstrip(".!")
        if index == 0 and len(fragments) > 1 and _A_THING_ALONE_RE.fullmatch(fragment):
            # "Service catalogue — Payroll exporter | Owner: Tisza": the line's thing is the one its fields follow
            thing = re.sub(r"\s*\([^()]*\)$", "", fragment)
            continue
        if field := _OWNER_FIELD_RE.match(fragment):
            owner, aside = field["owner"], (field["aside"] or "").strip()
            was = _WAS_OWNED_RE.match(aside)
            if not _NO_VALUE.search(owner):
                if was and was["moved"]:
                    sentences.append(f"Ownership of the {thing} moved from {was['old']} to {owner}{was['when'] or ''}")
                    continue
                sentences.append(f"The {thing} is owned by {owner}")
            if was and not was["moved"]:
                sentences.append(f"The {thing} was owned by {was['old']}{was['when'] or ''}")
        elif passive := _PASSIVE_OWNED_RE.match(fragment):
            sentences.append(f"The {thing} is {passive['said']}")
        elif due := _DUE_FIELD_RE.fullmatch(fragment):
            # "Zirc rewrite — ETA 30 June"; "Ship Kestle Maps — due 6 April": what is to be shipped
            done = thing.split(maxsplit=1)
            sentences.append(f"The {done[-1] if done[0] in _DELIVERY_VERBS else thing} is due {due['day']}")
        elif _OWNERSHIP_MOVED_RE.match(fragment):
            sentences.append(f"Ownership of the {thing} {fragment.split(None, 1)[1]}")
        elif (it := _THING_OBJECT_IT_RE.search(fragment)) and re.match(r"[A-Z@]", fragment) and it.start() > 0:
            # "Tisza team took it over": the fragment's own subject took the thing ("Dorka — took it over": a
            # voice's line, whose "it" is something else)
            sentences.append(
                _THING_OBJECT_IT_RE.sub(
                    lambda m, thing=thing: f"{m['verb']}{m['over'] or ''} the {thing}", fragment, count=1
                )
            )
    return "; ".join(sentences) + "." if sentences else said


# the last sentences read: where each stands, what it says, and the thing a fact of it is about
_Earlier = list[tuple[int, str, str]]


# a later clause of a sentence, of the writer's own or another's, that names whom its subject reports to or works under
_OTHER_CLAUSE_PERSON_RE = re.compile(
    r"(?:,\s*(?:so|and|but|then)|;|\s+(?:so|but))\s+(?:(?:now|then)\s+)?(?:I|we|[A-Z][\w'’-]+)"
    r"(?:['’]m|\s+(?:now|also|still|am|is|are))*\s+"
    r"(?:report(?:s|ed|ing)?\s+(?:directly\s+)?to|answer(?:s|ed)?\s+to|(?:sit|sits|work|works|working)\s+under"
    rf"|(?:work|works|working)\s+(?:with|for))\s+(?P<other>{NAME})"
)


def _patterns_read(
    clause: str, wanted: set[str], present: set[str], speaker: str | None, today: date
) -> list[StatedFact]:
    """The facts the patterns read in a clause: those of the attributes its words call for."""
    read: list[StatedFact] = []
    for pattern in _PATTERNS:
        if not (present.intersection(pattern.needs) if pattern.needs else pattern.attribute in wanted):
            continue
        for match in pattern.regex.finditer(clause):
            read.extend(_facts_of(pattern, match, clause, 0, speaker, today))
    return read


# a clause that says its one statement holds no longer: "no longer", or a negation with "any more" or "now" at its end
# ("Dorka's not my manager now", "we don't have Bodri anymore"); not a correction ("Dorka isn't my manager, Réka
# is"), nor a clause that goes on to another statement
_NO_LONGER_RE = re.compile(r"\bno\s+longer\b\s*", re.IGNORECASE)
_NOT_ANY_MORE_RE = re.compile(
    r"^(?P<before>.*?)\b(?P<not>is\s+not|isn['’]t|are\s+not|aren['’]t|am\s+not|(?<=['’][sm])\s+not|doesn['’]t|don['’]t|"
    r"does\s+not|do\s+not)\b\s*(?P<after>.*?)\s*,?\s*\b(?:any\s*more|now|these\s+days)\s*[.!]*\s*$",
    re.IGNORECASE,
)
_ENDS_NOW_RE = re.compile(r"\b(?:any\s*more|now|these\s+days)\s*[.!]*\s*$")
_ANOTHER_STATEMENT_RE = re.compile(r"[;]|\s+but\s|,\s+(?:now|instead)\b|\s+(?:and|but)\s+now\b", re.IGNORECASE)


def _said_to_hold_no_longer(clause: str) -> str:
    """The clause without the negation that says its statement holds no longer ("Bence isn't at Kestle any more":
    "Bence is at Kestle"), or "" when it says no such thing."""
    folded = clause.casefold()
    if "longer" not in folded and not (
        ("not" in folded or "n't" in folded or "n’t" in folded) and _ENDS_NOW_RE.search(folded)
    ):
        return ""
    if _ANOTHER_STATEMENT_RE.search(clause):
        return ""
    if _NO_LONGER_RE.search(clause):
        return _NO_LONGER_RE.sub("", clause)
    if (said := _NOT_ANY_MORE_RE.match(clause)) is None:
        return ""
    negation = said["not"].casefold()
    after = said["after"]
    if negation.startswith("does"):
        after = re.sub(r"^(\w+?)(?<!s)\b", r"\1s", after)  # "doesn't work for": "works for"
    elif negation.startswith(("is", "are", "am")):
        after = f"{negation.split()[0].split('n')[0]} {after}"  # "isn't at Kestle": "is at Kestle"
    before = re.sub(r"['’]s\s*$", " is", said["before"])  # "Dorka's not my manager now": Dorka is
    return re.sub(r"\s{2,}", " ", f"{before} {after}").strip()


# a sentence that opens with two people, and one that goes on about them by "they"
_PAIR_OPENING_RE = re.compile(rf"^(?P<first>{NAME})\s+(?:and|&)\s+(?P<second>{NAME})\s+(?=[a-z])")
_THEY_OPENING_RE = re.compile(r"^They\s+(?:both\s+)?(?=[a-z])")


def _sentences_facts(text: str, speaker: str | None, today: date) -> Iterator[StatedFact]:
    named = ""  # the person the last sentence opened with: whom a sentence opening "She …" is about
    pair = ""  # the two people the last sentence opened with: whom a sentence opening "They …" is about
    asked_of = ""  # a name the last sentence asked about alone ("Réka?"): whom a subjectless answer is about
    label, line_ends = "", -1  # a chat line's label, to the line's end ("zsofi: thanks! still at Brightwell")
    # the last two sentences, with the thing a fact of theirs is about: what a later "it" owned or spoken goes back to
    earlier: _Earlier = []
    voices = _chat_voices(text)
    headed = 0  # where the heading that names whom the note is about ends
    towns_named: list[tuple[int, str]] | None = None
    if "\n" in text and (heading := _HEADING_LINE_RE.match(text)) and not re.search(r":\s", heading["heading"]):
        named = _headed(text, heading)  # the one person a note's heading names is whom its lines go on about
        headed = heading.end() if named else 0
    for index, sentence in enumerate(_SENTENCE_RE.finditer(text)):
        if _TABLE_ROW_RE.match(sentence.group(0)):
            continue  # a table's row is read under its header's labels, not as a sentence
        before = named
        written = _fluent(sentence.group(0))
        if sentence.start() > line_ends:
            asked_of = ""  # a name asked about holds for the rest of its line only
            line_ends = text.find("\n", sentence.start()) % (len(text) + 1)
            labelled = _LINE_LABEL_RE.match(written)
            label = (
                labelled.group(0)
                # ("Lead: Bence Vass, VP Ops at Kestle.": a field that names whom the note is about, not a voice)
                if labelled
                and _a_voice(labelled["label"] or "")
                and ":" in labelled.group(0)
                and not _card_head(written)
                else ""
            )
        elif label and not _LINE_LABEL_RE.match(written):
            written = f"{label}{written.strip()}"  # a later sentence of the line: the same voice's
        catalogued = _catalogue_line(written)
        said, who = (catalogued, speaker) if catalogued != written else _labelled_line(written, speaker)
        if said == written and (voiced := _LINE_LABEL_RE.match(written)) and voiced["label"] in voices:
            said = written[voiced.end() :]  # "Dorka: pushed to the 21st": a voice in a chat, not what the line is about
        if bulleted := _BULLET_RE.match(said):
            said = said[bulleted.end() :]  # "- she moved to Zirc": a note's line, said as the line says it
        stripped = said.strip()
        field = _LINE_LABEL_RE.match(written) if not stripped else None
        if field and _label(field["label"] or "")[0] in _PERSON_FIELDS:  # "Contact: Réka Tóth": whom the card is of
            card = _NAME_RE.match(written[field.end() :])
            named = _person(card[0]) or named if card else named
        # "Before she moved into sales, Zsófia was a nurse.", "Anyway, my cousin Dorka sold her car."
        leads = {0, *(found.end() for found in (lead.match(stripped) for lead in _LEADS) if found)}
        opener = next(filter(None, (_OPENING_SUBJECT_RE.match(stripped[at:]) for at in sorted(leads))), None)
        # "Yesterday we met Bálint", "Our guide was a man called Bence": whom the sentence brings in, below
        # ("Recruiter notes — call with Réka Tóth": a heading's first word, capitalised as a heading's is)
        if sentence.start() < headed:
            opener = None
        if "speaker" in stripped.casefold() and (speaker_of := _SPEAKER_FRAGMENT_RE.match(stripped)):
            # "Contact: Bence Vass. Finnish + Swedish speaker.": the one the note is about, else the speaker
            spoken = stripped[speaker_of.end() :]
            if spoken.split()[0].casefold() not in _LANGUAGE_SET:
                spoken = f"{spoken[:1].lower()}{spoken[1:]}"  # "Native Finnish speaker": a native Finnish speaker
            said = f"{named or 'I'} {'is' if named else 'am'} a {spoken}"
        elif (
            opener
            and _person(opener["name"]) == opener["name"] != "I"
            and _a_person(opener["name"])
            and not _business_name(opener["name"])  # "Tisza Analytics hired him.": the one hired is still the one
            and not (named and _THIRD_PERSON_VERB_RE.match(stripped))  # "Joined us in 2021.": a card's verb, no name
        ):
            # "Zsófia Ambrus … Ambrus grew up in Győr": the person named in full is still the one
            named = named if named and set(opener["name"].split()) < set(named.split()) else opener["name"]
            if named != before and before and _BACK_TO_RE.search(stripped, opener.end()):
                named = ""  # "Dorka is his manager. She …": either of two people
            if (later := _OTHER_CLAUSE_PERSON_RE.search(stripped, opener.end())) and _a_person(later["other"]):
                # "Ilona retired, so now I report to Bence. He is …": the one the writer's own clause turned to last
                named = later["other"]
        elif pair and (they := _THEY_OPENING_RE.match(stripped)):
            said = f"{pair} both {stripped[they.end() :]}"  # "Bence and Dorka married in May. They live in Eger."
        elif named and _SENTENCE_PRONOUN_RE.match(stripped):
            said = _SENTENCE_PRONOUN_RE.sub(partial(_as_name_after, named), stripped, count=1)
        elif named and (opening := _POSSESSIVE_OPENER_RE.match(stripped)):  # "Her manager is Nandor": the named's
            said = f"{opening['when']}{named}'s {stripped[opening.end() :]}"
        elif named and (_LISTED_THIRD_PERSON_RE if bulleted else _THIRD_PERSON_VERB_RE).match(stripped):
            said = f"{named} {stripped[:1].lower()}{stripped[1:]}"  # "Met at the fair. Speaks Hungarian."
        else:
            # "Zsófia? She's been at …", "Please welcome Nandor, … He comes to us from …": the one person the sentence
            # asks about or greets, thanks, meets, is whom a later "he" / "she" goes back to
            # ("Look who turned up at the launch: Bálint.")
            topic = _topic(stripped) or _greeted(said)
            name = topic and topic["name"]
            if name and _person(name) == name and _a_person(name):
                named = name
            elif named and _someone_else(stripped[max(leads) :], named):
                named = ""  # "I met Dorka and Ilona. She …", "His sister called. She …": not the one before
        two = _PAIR_OPENING_RE.match(stripped)
        pair = (
            f"{two['first']} and {two['second']}"
            if two and all(_a_person(name) and not _business_name(name) for name in (two["first"], two["second"]))
            else ""
        )
        lowered = f"{stripped[:1].lower()}{stripped[1:]}"
        if asked_of and said.strip() == stripped and (_DROPPED_I_AM_RE.match(lowered) or _DROPPED_I_RE.match(lowered)):
            # "Réka? still at Kestle, running the night desk": the one just asked about, not the writer; "Cand: Réka
            # Tóth, nurse. Left St Anne's in March.": the one a note's heading names
            said = f"{asked_of} {'is ' if _DROPPED_I_AM_RE.match(lowered) else ''}{lowered}"
        asked_of = (
            name[1]
            if (name := re.fullmatch(rf"({NAME})\s*\?+", stripped) or _card_head(stripped))
            and _person(name[1]) == name[1]
            else ""
        )
        if before and (under := _REPORTS_TO_PRONOUN_RE.search(said)):
            # "Réka takes over as director. Bence now reports to her.", "Réka is our new EM. I report to her": to the
            # one the sentence before was about, when no one else is named before the pronoun
            others = {_person(m.group(0)) for m in _NAME_RE.finditer(said, 0, under.start())} - {None, named, "I"}
            if not others:
                said = f"{said[: under.start()]}{_to_name(before, under)}{said[under.end() :]}"
        if " here" in said and (here := _LIVE_HERE_RE.search(said)):
            # "Greetings from Szeged! I live here now": here is the one town the text named before it
            as_written = _LIVE_HERE_RE.search(written)
            if towns_named is None:  # (the towns the whole text names, found once)
                towns_named = [(m.start(), m.group(0)) for m in _NAME_RE.finditer(text) if known_place(m.group(0))]
            towns = {town for at, town in towns_named if at < sentence.start()} | {
                m.group(0)
                for m in _NAME_RE.finditer(written, 0, as_written.start("here") if as_written else 0)
                if known_place(m.group(0))
            }
            if len(towns) == 1:
                # ("Pécs has been great since we moved here in April": moved to it)
                into = "to" if here["moved"] else "in"
                said = f"{said[: here.start('here')]}{into} {towns.pop()}{said[here.end('here') :]}"
        cards = _own_cards(_apposed_cards(said, today), said, who)
        named = next((card.subject for card in cards), named)
        pronoun = "it" in said or "It" in said or "they" in said or "They" in said or "them" in said
        if pronoun and _SPEAK_IT_RE.search(said):
            said = _language_named(said, next(filter(None, (_last_language(s) for _, s, _ in reversed(earlier))), ""))
        if pronoun and (changed := _manager_changed(said, earlier, index)):
            said = _IT_IS_NAME_RE.sub(f"{changed} is ", said, count=1)
        facts = _sentence_facts(said, who, today)
        if pronoun:
            facts = _things_named(said, facts, earlier, index, who, today)
        if "ew " in said and (new_day := _NEW_DAY_RE.search(said)):
            facts = _new_day(said, new_day, facts, earlier, who, today)
        if " now " in said and (days := _DAY_SEQUENCE_RE.search(said)):
            facts = _days_in_turn(said, days, facts, today)
        facts = _handed_on(said, facts, who, today)
        if "theirs" in said:
            facts = _theirs(said, facts, who, today)
        facts = _gapped_owners(said, facts, who, today)
        facts = _more_pets(said, facts)
        if not facts and earlier and earlier[-1][0] == index - 1 and (asked := _asked_owner(earlier[-1][1])):
            facts = _owner_answered(said, asked, who, today)
        if not facts and earlier and earlier[-1][0] == index - 1 and earlier[-1][2] and ":" in written:
            facts = _owner_field(written, earlier[-1][2], who, today)
        if not facts and sentence.start() and "\n" in text[max(0, sentence.start() - 2) : sentence.start() + 1]:
            # a line of its own, in reply to the line before it
            asked = _asked_line(text, sentence.start(), voices)
            facts = (
                _day_answered(said, asked, who, today)
                or _speaker_answered(said, asked, who, today)
                or _whereabouts_answered(written, asked, who, today)  # (its voice, named on the line as written)
            )
        if facts and any(fact.valid_from == today for fact in facts):
            facts = _dated_by_the_change(said, facts, today)
        facts = _named_as_people_and_things(said, facts)
        if facts and "(" in said:
            facts = _owner_before(said, facts, today)
        subject = next((fact.subject for fact in reversed(facts) if fact.attribute in _THING_ATTRIBUTES), "")
        earlier = [*earlier[-1:], (index, said, subject)]
        stated = [*facts, *(_named_as_people_and_things(said, tuple(cards)) if cards else ())]
        for fact in stated:
            if fact.attribute == v.JOB_TITLE and _a_longer_post(fact, stated):
                continue  # "our new Curator of Textiles": the post in full, not also its head alone
            yield replace(fact, span=(fact.span[0] + sentence.start(), fact.span[1] + sentence.start()))


# a post of a business, as an apposition says it: "…, founder of Kestle Robotics, …"
_POST_AT_RE = re.compile(rf"\b(?P<post>[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,3}}?)\s+of\s+(?P<org>{NAME})")
# what a chat line opens with before the thing it is about: "yo the Zirc exporter is owned by …"
_CHAT_OPENER_RE = re.compile(
    r"^(?:(?:yo|hey|ok|okay|so|btw|fyi|fwiw|imo|imho|tbh|iirc|afaik|lol|lmao|ngl|um|uh|oh|also|and|but)\s+)+(?:the\s+)?",
    re.IGNORECASE,
)
_OF_A_PERSON = frozenset({v.LIVES_IN, v.WORKS_AT_ATTR, v.JOB_TITLE, v.REPORTS_TO_ATTR, v.SPEAKS, v.HAS_PET})
_HE_OR_SHE_RE = re.compile(r"\b(?i:he|she)\b")
# a pet that went to someone else's home, said after its name: "Mák got adopted by a family in Pécs", "Bodri has
# officially been adopted by Dorka"
_ADOPTED_AWAY_RE = re.compile(
    r"\W{0,3}\s*(?:(?:got|was|has|have|['’]s)\s+(?:(?:officially|finally|just|now|been)\s+)*adopted\b(?!\s+(?:from|out\s+of|at|in|as)\b)"
    r"|(?:found|went\s+to)\s+(?:a|her|his|their)\s+(?:new\s+|forever\s+)?(?:home|family))",
    re.IGNORECASE,
)


def _a_thing_named(said: str, fact: StatedFact) -> StatedFact | None:
    """A thing's fact as its name is written, or None when the name is no thing's: an article alone ("The new
    platform …"), or what a preposition governs ("the migration to Zirc is set for …", "drafts back to Dorka
    by …"); a chat's opener is no part of it ("yo the Zirc exporter …")."""
    subject = fact.subject
    if subject in _NOT_A_NAME or (
        fact.attribute == v.DUE_DATE and re.search(rf"\b(?:to|into|onto|from)\s+{re.escape(subject)}\b", said)
    ):
        return None
    if (opener := _CHAT_OPENER_RE.match(subject)) and opener.end() < len(subject):
        return replace(fact, subject=subject[opener.end() :])
    if (
        fact.attribute == v.OWNED_BY
        and not any(word[:1].isupper() for word in subject.split()[1:])
        and (
            named := re.search(
                rf"(?P<opens>^|[.!?:]\s+)?\b{re.escape(subject)}\s*\((?P<name>{_BRACKETED_NAME})\)", said
            )
        )
        # (a capital of a sentence's or an acronym's, not a name's own: "HR portal (Zirc)", not "Kestle app (Zirc)")
        and (subject[:1].islower() or named["opens"] is not None or subject.split()[0].isupper())
    ):
        return replace(fact, subject=named["name"])  # "the rota tool (Zirc)": the tool is Zirc
    return fact


# a thing's own name in brackets after the words that say what it is: a name, or a site's address
_BRACKETED_NAME = rf"[{_UPPER}][\w.-]*(?:\s+[{_UPPER}][\w.-]*)?|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{{2,}}"


_NOT_MINE_RE = re.compile(r"\b(?i:not|isn['’]t|ain['’]t)\s+(?:my|our)\s+(?:[\w-]+\s+)?(?=[\w-]+\b)")


def _a_person_named(said: str, fact: StatedFact, facts: tuple[StatedFact, ...], things: list[str]) -> StatedFact | None:
    """A person's fact as their name is written, or None when the name is no one's: a day or a month ("20–27 Oct
    with their parrot Csőr"), somebody's unnamed relative ("Bence's grandma speaks …"), a thing the sentence says is
    owned or due (its "he" or "she" is the person who owns it: "S is owned by Dorka now, and she speaks …"); nor is
    a month a home, nor a pet said to have gone to another home still had."""
    subject = fact.subject
    folded = subject.casefold().rstrip(".")
    if (folded in _CALENDAR_NAMES or folded in _CALENDAR_SHORT) and re.search(
        rf"\d\s*{re.escape(subject)}\b|\b{re.escape(subject)}\s+\d", said
    ):
        return None  # a month written with its day, not someone named June or Jun
    if subject in _NOT_A_NAME or subject.endswith(("'", "’", "'s", "’s")):
        return None
    if _WORK_KEY_RE.fullmatch(subject):
        return None  # "ZRC-81 | new starter N reports to M": the change's key, no one
    if " " not in subject and folded in _BY_THEIR_PART:
        return None  # "Tenant's cat got out", "Tenant lives in Pécs": a party unnamed, capitalised as it opens
    if fact.attribute == v.HAS_PET and re.match(r"an?\s", fact.value) and _NOT_MINE_RE.search(said):
        return None  # "Not my tortoise, I promise": disowned
    if " " not in subject and any(f"{folded} {joint} {folded}" in said.casefold() for joint in ("to", "by", "after")):
        return None  # "Day to day I report to …": an idiom's word, no one's name
    if (
        fact.attribute == v.SPEAKS
        and not fact.negated
        and re.search(rf"\b(?i:not|nor|no)\s+{re.escape(fact.value)}\b", said)
    ):
        return None  # "Bence speaks Japanese, not Korean"
    if fact.attribute == v.LIVES_IN and fact.value.casefold() in _CALENDAR_NAMES:
        return None
    if fact.attribute == v.HAS_PET and not fact.negated and fact.value in said:
        if _ADOPTED_AWAY_RE.match(said, said.find(fact.value) + len(fact.value)):
            return None
    if len(subject.split()) > 2 and re.search(rf"\b(?i:the)\s+{re.escape(subject)}", said):
        fact = replace(fact, subject=subject.split(maxsplit=1)[1])  # "At the AGM Dorka Fehér was elected …"
    if fact.attribute != v.JOB_TITLE and " " in subject and _a_title(subject):
        # "Bence Vass, Director of Sales, who reports to …": the post stands beside the one it is of
        holder = re.search(rf"(?P<name>{NAME}),\s+{re.escape(subject)},", said)
        return replace(fact, subject=holder["name"]) if holder and _person(holder["name"]) == holder["name"] else None
    if (
        things
        and any(thing == subject or thing.startswith(f"{subject} ") for thing in things)
        and _HE_OR_SHE_RE.search(said)
    ):
        owners = {
            other.value
            for other in facts
            if other.attribute == v.OWNED_BY
            and other.subject.startswith(subject)
            and not (other.negated or other.valid_until)
            and _a_person(other.value)
            and not _business_name(other.value)
        }
        if len(owners) != 1:
            return None
        return replace(fact, subject=owners.pop())
    if subject.isupper() and len(subject) <= 4 and " " not in subject:
        return None  # "OOO (dentist)", "WFH": a status written as a chat writes it, no one's name
    return fact


def _named_as_people_and_things(said: str, facts: tuple[StatedFact, ...]) -> tuple[StatedFact, ...]:
    """A sentence's facts whose subjects can be what they are said to be (above); a pet read by its kind inside the
    words that name it, which name no other kind, is the named pet ("Bodri, Dorka's therapy dog, …": Bodri, not also
    "a dog"; but "a dog and a cat named Mák" are two)."""
    named_pets = [fact for fact in facts if fact.attribute == v.HAS_PET and not re.match(r"an?\s", fact.value)]
    things = [fact.subject for fact in facts if fact.attribute in _THING_ATTRIBUTES]
    kept = []
    for fact in facts:
        if (
            fact.attribute == v.HAS_PET
            and re.match(r"an?\s", fact.value)
            and any(
                pet.subject == fact.subject
                and pet.span[0] <= fact.span[0]
                and fact.span[1] <= pet.span[1]
                and len(_PET_KINDS_RE.findall(said, pet.span[0], pet.span[1])) == 1
                for pet in named_pets
            )
        ):
            continue
        if fact.attribute in _THING_ATTRIBUTES:
            fact = _a_thing_named(said, fact)
        elif fact.attribute in _OF_A_PERSON:
            fact = _a_person_named(said, fact, facts, things)
        if fact is not None and fact.attribute == v.JOB_TITLE and (held_at := _POST_AT_RE.search(said)):
            # "Bence Vass, founder of Kestle Robotics,": the post, and the business it is held at
            post = held_at["post"]
            if (
                f"{post} of {held_at['org']}".casefold() == fact.value
                and _business_name(held_at["org"])
                and _a_title(post)
            ):
                kept.append(replace(fact, attribute=v.WORKS_AT_ATTR, value=held_at["org"]))
                fact = replace(fact, value=post.casefold())
        if fact is not None:
            kept.append(fact)
    return tuple(kept)


def _a_longer_post(fact: StatedFact, facts: Sequence[StatedFact]) -> bool:
    """Whether the sentence gives the same person a post that is this one said in full, of a field of one word
    ("curator of textiles"); not of a business ("co-founder of Sun Microsystems": a post, and where it is held)."""
    return any(
        other.attribute == v.JOB_TITLE
        and other.subject == fact.subject
        and other.negated == fact.negated
        and re.fullmatch(rf"{re.escape(fact.value)} of [\w-]+", other.value) is not None
        for other in facts
    )


# the owner a thing had before the one a sentence names, said in brackets beside it: "(was Bence's)", "(was Kestle
# Ops until January)", "(previously Kestle Ops)" (one who "handed it over" is not said to have owned it)
_OWNED_BEFORE_RE = re.compile(
    rf"\((?:was|previously|formerly)(?:\s+owned\s+by)?\s+(?:the\s+)?(?P<old>{NAME})(?:['’]s)?"
    r"(?:\s+until\s+(?P<until>[^);]+))?\s*[);]"
)


def _owner_before(said: str, facts: tuple[StatedFact, ...], today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with the owner its one thing had before, when it names one beside the owner it has now:
    ended when the new one began (or on the day it says)."""
    owned = [fact for fact in facts if fact.attribute == v.OWNED_BY and not (fact.negated or fact.valid_until)]
    if len({(fact.subject, fact.value) for fact in owned}) != 1:
        return facts
    now = owned[0]
    before = _OWNED_BEFORE_RE.search(said)
    old = _person(re.sub(r"['’]s?$", "", before["old"])) if before else None
    if not old or old == now.value or old in _NOT_A_NAME or any(fact.value == old for fact in facts):
        return facts
    until = now.valid_from or today
    if before["until"]:
        # (the end of an owner who was: a day gone, whichever tense the word "until" suggests)
        ends = [mention for mention in _clause_dates(f"was in {before['until']}", today) if mention.start <= today]
        until = ends[0].start if ends else until
    return (*facts, replace(now, value=old, valid_from=None, valid_until=until, confidence=min(now.confidence, 0.7)))


# the change that began a value, said beside the statement with its own day: "…, who started in January", "… and
# started this Monday", "(handover completed 3 May)", "— Bence handed it over yesterday", "; Tisza Ops handed it over
# yesterday", "As of 1 July, …"
_CHANGE_DATED_RE = re.compile(
    r"(?:^|\(|,\s*|\band\s+|\s[—–-]\s+|;\s+|\bwho\s+)(?:"
    # the one the statement is about, by a pronoun or by nothing ("… and started last Monday", "(she started Monday)")
    r"(?:(?:he|she|they|I|we)\s+)?(?:has\s+|had\s+|just\s+|officially\s+)?(?P<began>started|began|joined|arrived|"
    r"moved\s+(?:in|over)|got\s+promoted|was\s+(?:promoted|hired|appointed|made))"
    # ("… and she's been there since 2019": how long what was just said has held)
    r"|(?:he|she|they|I|we)(?:['’]s|['’]ve|\s+has|\s+have)\s+been\s+(?:there|here|with\s+(?:us|them|it))\s+since"
    # the thing, by its pronoun, taken or handed over by anyone ("; Tisza Ops handed it over yesterday")
    r"|(?:[\w'’]+\s+){0,3}?(?:has\s+|had\s+|just\s+)?(?:took|handed)\s+(?:it|them|this|that)\s+over"
    r"|(?:handover|handoff|transfer|move)\s+(?:was\s+)?(?:completed|done)|effective|eff\.|as\s+of)"
    r"(?![\w-])(?P<when>[^.;!?()]*)",
    re.IGNORECASE,
)
# how long a value has held, said with it: "I've had Bodri for six years now", "has been with us a year",
# "two months already"
_HELD_FOR_RE = re.compile(
    r"\b(?:for|been\s+with\s+(?:us|me|them|him|her)(?:\s+for)?)\s+(?:the\s+(?:past|last)\s+)?"
    rf"(?P<long>{_HOW_MANY}\s+(?:years?|months?|weeks?))(?:\s+now)?"
    rf"|\b(?P<long2>{_HOW_MANY}\s+(?:years?|months?|weeks?))\s+(?:already|now)\b",
    re.IGNORECASE,
)
_BEGUN_ATTRIBUTES = frozenset({v.LIVES_IN, v.WORKS_AT_ATTR, v.JOB_TITLE, v.REPORTS_TO_ATTR, v.OWNED_BY, v.HAS_PET})
_HAS_HELD_RE = re.compile(
    r"(?:['’]ve|['’]s|\bhave|\bhas)\s+(?:\w+\s+)?(?:had|been|lived|worked|owned|run|led)\b|"
    r"\b(?:already|now)\b",
    re.IGNORECASE,
)


def _dated_by_the_change(said: str, facts: tuple[StatedFact, ...], today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with no day of their own, dated by the change the sentence says began them ("Dorka is our
    new head of support, who started in January") or by how long it says they have held ("I've had Bodri for six
    years now"); a day still to come, or a sentence that says two such days, dates nothing."""
    began = None
    undated = {(fact.subject, fact.attribute, fact.value) for fact in facts if fact.valid_from == today}
    for change in _CHANGE_DATED_RE.finditer(said):
        # (read with its verb, whose tense says which January: the one gone)
        mentions = [m for m in _clause_dates(change.group(0), today) if m.start <= today]
        if len(mentions) == 1:
            if began is not None or (
                change["began"]  # (not "As of 1 July, …", a day said first that dates every statement after it)
                and any(
                    fact.valid_from == mentions[0].start and (fact.subject, fact.attribute, fact.value) not in undated
                    for fact in facts
                )
            ):
                # two changes, each with its day, or a change with a statement of its own ("… and joined Kestle in
                # May"): which began which is not said
                return facts
            began = mentions[0].start, change.start()
    if began is None and (held := _HELD_FOR_RE.search(said)) and _HAS_HELD_RE.search(said):
        # (held that long: begun that long ago, as the calendar reads it)
        ago = [m for m in _clause_dates(f"{held['long'] or held['long2']} ago", today) if m.start <= today]
        if ago:
            began = ago[0].start, held.start()
    if began is None:
        return facts
    day, at = began
    return tuple(
        replace(fact, valid_from=day)
        if fact.valid_from == today
        and fact.valid_until is None
        and not fact.negated
        and fact.attribute in _BEGUN_ATTRIBUTES
        and (at == 0 or fact.span[0] < at)
        else fact
        for fact in facts
    )


# a manager said to have changed, and the "it's N" that names the new one: "My boss changed again. It's Bálint now
# instead of Réka", "Dorka's manager changed twice; currently it's Bálint"
_MANAGER_CHANGED_RE = re.compile(
    rf"\b(?P<whose>[Mm]y|{NAME}['’]s)\s+(?:line\s+)?(?P<role>manager|boss|supervisor)\s+(?:has\s+|just\s+)?"
    r"(?:changed|switched)\b"
)
_IT_IS_NAME_RE = re.compile(rf"\b[Ii]t(?:['’]s|\s+is)(?:\s+(?:now|currently))?\s+(?={NAME})")


def _manager_changed(said: str, earlier: _Earlier, index: int) -> str:
    """The manager an "it's N" of the sentence names, when the sentence, or the one before, says whose manager
    changed ("my manager"); else nothing."""
    named = _IT_IS_NAME_RE.search(said)
    if named is None or said[named.end() :].split()[0].casefold().strip(".,!") in _CALENDAR_NAMES:
        return ""  # "it's Monday": a day, no one
    before = [said[: named.start()], *(earlier[-1][1:2] if earlier and earlier[-1][0] == index - 1 else [])]
    changed = next(filter(None, map(_MANAGER_CHANGED_RE.search, before)), None)
    return f"{changed['whose']} {changed['role']}" if changed else ""


def _chat_voices(text: str) -> frozenset[str]:
    """The names a chat's lines open with, when the text is a chat: two voices or more, one of them speaking twice or
    more ("Dorka: …\nBence: …\nDorka: …"), or under a channel's name ("#launches"). A status list names each thing
    once ("Kestle: …\nQuillon: …")."""
    if text.count("\n") < 2:
        return frozenset()
    labels = [
        m["label"] for m in map(_LINE_LABEL_RE.match, text.splitlines()) if m and m["label"] and _a_voice(m["label"])
    ]
    channel = text.lstrip().startswith("#") and not text.lstrip().startswith("# ")
    if len(set(labels)) < 2 or (len(labels) == len(set(labels)) and not channel):
        return frozenset()
    return frozenset(labels)


def _things_named(
    said: str, facts: tuple[StatedFact, ...], earlier: _Earlier, index: int, who: str | None, today: date
) -> tuple[StatedFact, ...]:
    """A sentence's facts with those its "it" of a thing's owner or day states once the "it" is named as the thing its
    sentence, or the two before it, named."""
    if _OWNED_PRONOUN_RE.search(said) and _thing_pronouns(said) == said:
        own = next((fact.subject for fact in facts if fact.attribute in _THING_ATTRIBUTES), "")
        if thing := own or _earlier_thing(earlier, index):
            facts = _also(facts, _thing_pronouns(said, thing), who, today)
    if dated := _DATED_PRONOUN_RE.search(said):
        days = (fact.subject for fact in facts if fact.attribute == v.DUE_DATE and fact.span[1] <= dated.start())
        thing = _thing_mentioned(said[: dated.start()]) or next(days, "")
        if thing := thing or _earlier_thing(earlier, index, mentioned_first=True):
            facts = _also(facts, _dated_pronoun(said, dated, thing), who, today)
    elif (now := _NOW_A_DAY_RE.search(said)) and _SCHEDULE_RE.search(said, 0, now.start()):
        # "the Zirc cutover got pushed once more — it's now Thursday the 13th": the day it was moved to
        if thing := _thing_mentioned(said[: now.start()]) or _earlier_thing(earlier, index, mentioned_first=True):
            facts = _also(facts, f"{said[: now.start()]}{thing} is due {said[now.end() :]}", who, today)
    return facts


# "it's now" a day, after a word of schedule: the day a thing named before has now
_NOW_A_DAY_RE = re.compile(
    r"\b[Ii]t(?:['’]s|\s+is)\s+now\s+(?=(?:on\s+)?(?:the\s+)?(?:\d|[A-Z][a-z]+day\b|"
    rf"{_MONTH_WORDS}\s+\d))"
)


# where a thing went once its owner gave it up: "Kestle no longer owns the zone files — they went to Tisza", "…
# anymore; that's on Tisza now", "…, the Tisza team took it back"
_GONE_TO = rf"(?:the\s+)?(?P<GROUP>{NAME}(?:\s+{_TEAM_WORDS})?)"
_TAKEN_ON = r"\s+(?:took|has\s+taken|have\s+taken|picked)\s+(?:it|them)\s+(?:over|back|up)\b"
_HANDED_ON_RE = re.compile(
    r"(?:[,;:]|\s[—–-])\s*(?:(?i:and|so|now)\s+)?(?:"
    r"(?i:it|they|that)(?:(?:['’]s|\s+is|\s+are)(?:\s+now)?\s+(?:on|with)|(?:\s+(?:has|have)(?:\s+been)?)?"
    r"(?:\s+(?:now|all))?\s+(?:went|moved|passed|gone|goes)(?:\s+over)?\s+to)\s+"
    rf"{_GONE_TO.replace('GROUP', 'owner')}(?:['’]s\s+(?:thing|job|baby|problem|call))?"
    rf"|(?i:it|that)(?:['’]s|\s+is)(?:\s+now)?\s+{_GONE_TO.replace('GROUP', 'theirs')}['’]s\b"
    rf"|{_GONE_TO.replace('GROUP', 'taker')}{_TAKEN_ON}"
    # ("I don't own the Zirc exporter any more, Réka does")
    rf"|{_GONE_TO.replace('GROUP', 'doer')}\s+does(?:\s+now)?(?=\s*(?:[.,;!—–]|$)))"
    r"(?P<rest>[^,;.!?]*)"
)


def _handed_on(said: str, facts: tuple[StatedFact, ...], who: str | None, today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with the owner it names for a thing whose owner it says gave it up, read as the statement it
    stands for."""
    given_up = [fact for fact in facts if fact.attribute == v.OWNED_BY and fact.negated]
    went = _HANDED_ON_RE.search(said, given_up[-1].span[0]) if given_up else None
    owner = went and (went["owner"] or went["theirs"] or went["taker"] or went["doer"])
    if not owner or owner.casefold() in _PRONOUNS or _person(owner) != owner:
        return facts
    return _also(facts, _owned_as_said(given_up[-1].subject, owner, went["rest"]), who, today)


# a thing said to be "theirs", the owners named before it: "Sending this to Tisza Ops since zirc-export is theirs",
# "Réka or Bence, Zirc's theirs"
_DOCUMENT_WORDS = frozenset("runbook runbooks playbook playbooks doc docs readme wiki".split())
_THEIRS_RE = re.compile(r"(?:\s+is|['’]s)\s+(?:now\s+|all\s+)?theirs\b")


def _theirs(said: str, facts: tuple[StatedFact, ...], who: str | None, today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with the owners a thing "is theirs" goes back to: the team or people named last before it
    (two joined by "or" or "and" both)."""
    theirs = _THEIRS_RE.search(said)
    if theirs is None:
        return facts
    # the thing: the words of the clause before "is theirs" ("… since zirc-export is theirs")
    said_of = re.split(r"[,;:]\s*|\s+(?:since|because|as|so|and|but|now\s+that)\s+", said[: theirs.start()])
    thing = re.sub(r"^(?:[Tt]he|[Oo]ur)\s+", "", said_of[-1].strip())
    named = [m for m in _NAME_RE.finditer(said, 0, theirs.start() - len(thing)) if _person(m.group(0)) == m.group(0)]
    if not thing or not named or thing.split()[-1].casefold() in _DOCUMENT_WORDS:
        return facts  # ("…; its runbook is theirs as well": a system's papers, said with it)
    owners = [named[-1]]
    if len(named) > 1 and re.fullmatch(r",?\s+(?:or|and)\s+", said[named[-2].end() : named[-1].start()]):
        owners.insert(0, named[-2])
    for owner in owners:
        team = re.match(rf"\s+{_TEAM_WORDS}\b", said[owner.end() :])
        if owner.group(0).casefold() not in _PRONOUNS:
            facts = _also(
                facts, _owned_as_said(thing, owner.group(0) + (team.group(0) if team else ""), ""), who, today
            )
    return facts


# a second thing and owner after a statement of ownership, its verb left out: "the wiki is owned by Kestle Docs and
# the tracker by Tisza Ops", "the wiki belongs to Kestle Docs, and the tracker to Tisza Ops", "I handed the wiki to
# Réka and the tracker to Bence"
_GAPPED_OWNER_RE = re.compile(
    # ("…, the status page by Tisza, and the on-call bot by Bence": each thing of the list by its owner)
    r"[^,;]*?(?:,\s+(?:and\s+)?|\s+and\s+)(?!(?:before|after|since|when|while|until|because|as|so|then|but)\b)"
    r"(?P<thing>(?:the\s+)?(?:(?!(?:is|are|was|were|went|goes|go|has|have|had|got|gets|moves|sits|"
    r"belongs|\w+ed)\b)[\w'’.&-]+\s+){1,4}?)(?:by|to)\s+"
    rf"(?:the\s+)?(?P<owner>{NAME}(?:\s+{_TEAM_WORDS})?)(?P<rest>[^,;.!?]*)"
)
_MAX_GAPPED = 8  # things one statement of ownership goes on to list
_GAPPED_VERB_RE = re.compile(r"\b(?:owned|maintained|run)\s+by|\bbelongs?\s+to\b|\b(?:handed|gave|passed)\b")


def _gapped_owners(said: str, facts: tuple[StatedFact, ...], who: str | None, today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with the owner of a second thing its statement of ownership goes on to name without the
    verb, read as the statement it stands for."""
    owned = [fact for fact in facts if fact.attribute == v.OWNED_BY and not fact.negated and fact.valid_until is None]
    if not owned or " and " not in said:
        return facts
    start, end = _span_in(said, owned[-1])
    if not _GAPPED_VERB_RE.search(said, start, end):
        return facts
    # "Dorka handed the wiki to Réka and the tracker to Bence": both were Dorka's
    handed = [fact for fact in facts if fact.subject == owned[-1].subject and fact.valid_until and not fact.negated]
    for _ in range(_MAX_GAPPED):
        second = _GAPPED_OWNER_RE.match(said, end)
        if second is None or _person(second["owner"]) != second["owner"]:
            break
        thing = second["thing"].strip()
        facts = _also(facts, _owned_as_said(thing, second["owner"], second["rest"]), who, today)
        named = _system_name(thing, owner=second["owner"])
        facts = (*facts, *(replace(fact, subject=named) for fact in handed[-1:] if named))
        end = second.end()
    return facts


def _span_in(said: str, fact: StatedFact) -> tuple[int, int]:
    """Where a fact's statement stands in its sentence: its span, or, where it was read from a clause the sentence was
    rewritten into ("as Dorka leaves on Friday, she has handed …"), its clause as written, to its value."""
    start, end = fact.span
    if fact.value in said[start:end] or fact.subject not in said:
        return start, end
    named = said.find(fact.subject)
    start = max(said.rfind(",", 0, named), said.rfind(";", 0, named)) + 1  # the clause, with its verb
    at = said.find(fact.value, named)
    return (start, at + len(fact.value)) if at >= 0 else (start, end)


# another pet after a pet had: "… a greyhound named Bodri and a very grumpy rabbit, Mák", "…, and a parrot called Pici"
_MORE_PETS_RE = re.compile(
    rf"[^.;!?]*?,?\s+and\s+(?:a|an)\s+(?:[\w-]+\s+){{0,3}}?(?P<kind>{_PET_KINDS})(?:,\s+|\s+(?:called|named)\s+)"
    rf"(?P<value>{NAME})"
)


def _more_pets(said: str, facts: tuple[StatedFact, ...]) -> tuple[StatedFact, ...]:
    """A sentence's facts with the named pet it lists after a pet it says someone has."""
    had = [fact for fact in facts if fact.attribute == v.HAS_PET and not fact.negated and fact.valid_until is None]
    more = _MORE_PETS_RE.match(said, had[-1].span[1]) if had and " and " in said else None
    if more is None or _person(more["value"]) != more["value"] or any(f.value == more["value"] for f in had):
        return facts
    return (*facts, replace(had[-1], value=more["value"], span=more.span("value")))


def _owned_as_said(thing: str, owner: str, rest: str) -> str:
    """An ownership a text gives by its shape (an answer, an owner after a giving up, a second owner without its verb)
    as the plain statement the patterns read, with the words after it that date it ("…, since March")."""
    return f"{thing} is owned by {owner}{rest}."


def _also(facts: tuple[StatedFact, ...], said: str, who: str | None, today: date) -> tuple[StatedFact, ...]:
    """``facts`` and those of ``said`` (the sentence with its "it" named) not among them."""
    read = {(fact.subject, fact.attribute, fact.value) for fact in facts}
    more = _sentence_facts(said, who, today)
    return (*facts, *(fact for fact in more if (fact.subject, fact.attribute, fact.value) not in read))


# "I speak it", "he speaks it fluently", "can't speak it": a language named before
_SPEAK_IT_RE = re.compile(r"\b(?i:speaks?|speaking|spoke)\s+it\b")
_CAPITALISED_RE = re.compile(r"\b[A-Z][^\W\d_]+")


def _last_language(said: str, end: int | None = None) -> str:
    """The last known language a sentence names (up to ``end``), as written."""
    named = [m.group(0) for m in _CAPITALISED_RE.finditer(said, 0, len(said) if end is None else end)]
    for at in range(len(named) - 1, -1, -1):
        if named[at].casefold() in _LANGUAGE_WORDS:
            pairs = (" ".join(named[at - 1 : at + 1]) if at else "", " ".join(named[at : at + 2]))
            return next((two for two in pairs if two.casefold() in _LANGUAGE_SET), named[at])  # "Haitian Creole"
    return ""


def _language_named(said: str, earlier: str) -> str:
    """The sentence with the "it" that is spoken named as the language before it in the sentence, else ``earlier``
    ("My grandmother taught me Slovak, and I still speak it" speaks Slovak)."""
    spoken = _SPEAK_IT_RE.search(said)
    language = _last_language(said, spoken.start()) or earlier
    if not language:
        return said
    return f"{said[: spoken.end() - 2]}{language}{said[spoken.end() :]}"


# a question of who owns a thing, which the next line answers ("who looks after Quillon nowadays?" — "the Tisza squad")
_ASKED_OWNER_RE = re.compile(
    r"\b(?i:who)(?:['’]s|\s+is|\s+now)?\s+(?i:owns?|has|runs?|maintains?|looks\s+after|taking\s+over|picking\s+up|"
    r"in\s+charge\s+of|responsible\s+for)\s+(?:the\s+)?(?P<thing>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)"
    r"(?:\s+(?i:now|these\s+days|nowadays|today|currently|then))?\s*\?"
)
# a line that answers it with an owner alone: "Tisza Ops.", "the Tisza squad, since April", "Nandor does.", "Réka's
# team, Tisza Ops", and in a chat, after the voice's name ("Dorka: Tisza Ops, since March")
_OWNER_ANSWER_RE = re.compile(
    rf"^\s*(?:{NAME}:\s+)?(?:(?:{NAME}['’]s|[Mm]y|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er)\s+{_TEAM_WORDS},\s+)?(?:[Tt]he\s+)?"
    rf"(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?)(?:\s+(?:does|do))?"
    r"(?P<since>,?\s+(?:since|as\s+of|from)\s+[^.;!?—–]+)?\s*(?:[.!;—–]|$)"
)


# a day given as the new one, the project it is of said before ("Zirc slipped again — new date 3 March", "… moving
# up. New date is Feb 10")
_NEW_DAY_RE = re.compile(
    r"(?:^\s*|[—–:;,(]\s*|\s-\s*)(?:(?:the|a|our)\s+)?[Nn]ew\s+(?:(?:due|target|release|launch|go-?live)\s+)?"
    r"(?:date|day|target|deadline|ETA|go-?live)\s*(?:is\s+(?:now\s+)?|:\s*|=\s*|[—–-]\s*)?(?=\S)"
)


def _new_day(
    said: str, new_day: re.Match[str], facts: tuple[StatedFact, ...], earlier: _Earlier, who: str | None, today: date
) -> tuple[StatedFact, ...]:
    """A sentence's facts with the day its "new date …" gives the project named before it: in the sentence, else in
    the one before it, the project nearest the word of schedule said of it ("Kestle 2.0 GA is moving up", "we
    missed the deadline for the Zirc API")."""
    before = [said[: new_day.start()], *(text for _, text, _ in earlier[-1:])]
    for text in before:
        if (schedule := _SCHEDULE_RE.search(text)) and (projects := _projects(text, [])):
            _, project = min(projects, key=lambda named: abs(named[0] - schedule.start()))
            return _also(facts, f"{project} is now due {said[new_day.end() :]}", who, today)
    # a line's thing with its new date after a dash: "Rolled over: Zirc SSO — new due date 12 Dec (was 28 Nov)"
    labelled = re.fullmatch(r"\s*(?:[A-Za-z][\w -]{0,20}:\s+)?(?P<thing>[^—–:;,.]{2,40}?)\s*", before[0])
    if (
        labelled
        and _projects(labelled["thing"], [])
        and not re.search(r"\s(?:for|of|in|on|with|to)\s", labelled["thing"])
    ):
        project = re.sub(r"^(?:[Tt]he|[Oo]ur)\s+", "", labelled["thing"])
        return _also(facts, f"{project} is now due {said[new_day.end() :]}", who, today)
    return facts


# the days a project had in turn, the last one now: "originally 1 October, then 15 October, now 29 October", "was 3
# May, then the 10th, and now it's the 24th"
_DAY_SEQUENCE_RE = re.compile(
    r"\b(?i:originally|initially|first|was(?:\s+originally)?)\s+(?P<first>[^,;]{3,30}?),\s+"
    r"(?P<then>(?:(?:and\s+)?then\s+[^,;]{3,30}?,\s+)+)(?:and\s+)?now\s+(?:it['’]s\s+|it\s+is\s+)?(?P<now>[^,;.!?]{3,30})"
)


def _days_in_turn(said: str, days: re.Match[str], facts: tuple[StatedFact, ...], today: date) -> tuple[StatedFact, ...]:
    """A sentence's facts with the days its project had in turn: the last, said with "now", is its day; the ones
    before, days it had (in the place of the first read as its day now)."""
    projects = _projects(said[: days.start()], [])
    now = _due_day(days["now"], today)
    if not projects or now is None:
        return facts
    project = _project_name(projects[-1][1]) or projects[-1][1]
    earlier = [days["first"], *re.findall(r"then\s+([^,;]+?),\s+", days["then"])]
    had = [day for said_day in earlier if (day := _due_day(said_day, today)) and day != now]
    kept = [fact for fact in facts if not (fact.attribute == v.DUE_DATE and fact.subject == project)]
    span = days.span()
    return (
        *kept,
        StatedFact(project, v.DUE_DATE, now.isoformat(), today, None, False, 0.7, span),
        *(StatedFact(project, v.DUE_DATE, day.isoformat(), None, today, False, 0.63, span) for day in had),
    )


# "it" as what a day is set for: "it's slipped to the 20th", "it ships Friday", "it was pushed to May"
_DATED_PRONOUN_RE = re.compile(
    r"\b(?P<pron>[Ii]t)(?P<aux>['’]s|\s+is|\s+was|\s+has|\s+had|\s+got)?(?P<verb>(?:\s+(?:now|just|also|been|officially))*"
    r"\s+(?:moved|moves|pushed|slipped|slips|shifted|delayed|postponed|due|ships|shipping|launch(?:es|ing)|"
    r"scheduled|set|planned|targeting|going\s+live|goes\s+live|brought\s+forward)\b)"
)


def _dated_pronoun(said: str, dated: re.Match[str], thing: str) -> str:
    """The sentence with the "it" whose day it sets named as ``thing``."""
    aux = dated["aux"] or ""
    if aux in {"'s", "’s"}:  # "it's moved": has moved; "it's due": is due
        aux = (
            " has" if re.match(r"\s+(?:now\s+|just\s+)*(?:moved|pushed|slipped|shifted|been)", dated["verb"]) else " is"
        )
    return f"{said[: dated.start()]}{thing}{aux}{said[dated.end('aux') if dated['aux'] else dated.end('pron') :]}"


# an answer that says the day asked about holds ("yep", "still", "confirmed"), or that it moved ("pushed to …", "…
# now"), or that it does not ("nope" alone says nothing of the new one)
_AFFIRMED_RE = re.compile(r"^\W*(?i:y(?:es|ep|up|eah)|still|confirmed|correct|it\s+is|that['’]s\s+right|right)\b")
_DAY_MOVED_RE = re.compile(r"\b(?i:pushed|moved|slipped|delayed|bumped|postponed|brought\s+forward|now)\b")


def _voice_of(line: str, voices: frozenset[str] = frozenset()) -> re.Match[str] | None:
    """The label a line opens with when it names who speaks on it (one of a chat's ``voices``, or a person's name)."""
    voiced = _LINE_LABEL_RE.match(line)
    return voiced if voiced and voiced["label"] and (voiced["label"] in voices or _a_voice(voiced["label"])) else None


def _asked_line(text: str, start: int, voices: frozenset[str]) -> str:
    """The line before the one starting at ``start``, without its voice's name."""
    line = text[:start].rstrip().rsplit("\n", 1)[-1]
    voiced = _voice_of(line, voices)
    return line[voiced.end() :] if voiced else line


def _day_answered(said: str, asked: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """The day a line gives in answer to a question about a project's day ("is the Zirc cutover still on for the
    28th?" — "no, pushed to 6 March"; "when's the Kestle 2.0 target?" — "8 October, agreed with sales"), read as the
    statement it stands for; an answer that only affirms gives the day the question named."""
    if _HEDGED.search(said) or "?" not in asked:
        return ()  # "maybe, depends on the security review": no day said
    asked = asked[: asked.rindex("?") + 1]  # the question, not what its line goes on to say
    asked_days = [m for m in tag_dates(asked, reference=today) if not m.ambiguous]
    scheduled = _SCHEDULE_RE.search(asked) or re.search(r"\b(?i:on\s+for)\b", asked)
    if not scheduled and not (asked_days and re.search(r"\b(?i:still)\b", asked)):
        return ()  # "is Réka still a paralegal?" asks of no day
    projects = _projects(asked, asked_days)
    if not projects:
        return ()
    project = projects[-1][1]
    answer_days = [m for m in tag_dates(said, reference=today) if not m.ambiguous]
    if answer_days:
        moved = asked_days and _DAY_MOVED_RE.search(said)
        if moved:
            return _sentence_facts(
                f"{project} moved from {asked_days[-1].text} to {answer_days[-1].text}.", speaker, today
            )
        return _sentence_facts(f"{project} is due {answer_days[-1].text}.", speaker, today)
    if asked_days and _AFFIRMED_RE.match(said):
        return _sentence_facts(f"{project} is due {asked_days[-1].text}.", speaker, today)
    return ()


# a question of where the one asked lives or works ("where do you live now?", "who are you working for these days?"),
# and the line that answers it by a place or an employer first ("in Szeged", "Szeged, moved in March", "still Kestle")
_YOU_NOW = r"\s+(?:do|are)\s+(?:you|u)\s+(?:(?:now|currently)\s+)?"
_ASKED_HOME_RE = re.compile(rf"\b(?i:where){_YOU_NOW}(?:live|living|based)\b[^?]*\?")
_ASKED_EMPLOYER_RE = re.compile(
    rf"\b(?i:where){_YOU_NOW}(?:work|working)\b[^?]*\?|\b(?i:who){_YOU_NOW}(?:work|working)\s+for\b[^?]*\?"
)
_ANSWERING_PLACE_RE = re.compile(
    rf"^\W*(?:(?i:still|now|just)\s+)?(?:(?i:in|at|for|with)\s+)?(?:the\s+)?(?P<value>{NAME}){_NAME_ENDS}"
    r"(?P<rest>(?:\s*[,;—–-]\s*[^?]*)?)\s*[.!]?\s*$"
)


def _whereabouts_answered(said: str, asked: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """Where a line says its voice lives or works, in answer to the question on the line before ("where do you live
    now?" — "Szeged, moved in March"; "who are you working for?" — "still Kestle"), read as the statement it stands
    for; a hedged answer, or one that is a question, says nothing."""
    if voiced := _voice_of(said):
        said, speaker = said[voiced.end() :], _person(voiced["label"])  # "Bence: in Szeged": Bence's answer
    answer = _ANSWERING_PLACE_RE.match(said)
    if answer is None or not speaker or _HEDGED.search(said):
        return ()
    if _ASKED_HOME_RE.search(asked):
        return _sentence_facts(f"I live in {answer['value']}{answer['rest']}", speaker, today)
    if _ASKED_EMPLOYER_RE.search(asked):
        return _sentence_facts(f"I work at {answer['value']}{answer['rest']}", speaker, today)
    return ()


# a question of who speaks a language or whom someone reports to, and the line that answers it by a name, or "I do"
_ASKED_SPEAKER_RE = re.compile(
    rf"\b(?i:does\s+anyone(?:\s+here)?|anyone(?:\s+here)?|who(?:\s+here)?)\s+speaks?\s+(?P<language>{_ANY_CASE_LANGUAGE})\b"
)
_ASKED_MANAGER_RE = re.compile(rf"\b(?i:who)\s+(?:does|do)\s+(?P<who>{NAME})\s+(?:now\s+)?report\s+to\b")
_ANSWERING_NAME_RE = re.compile(
    rf"^\W*(?:(?P<me>I\s+do|me|I\s+can)\b|(?:(?i:still|now|it['’]s)\s+)?(?P<name>{NAME})(?:\s+(?:does|can))?\s*(?:[.!,]|$))"
)


def _speaker_answered(said: str, asked: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """What a line says in answer to who speaks a language ("who speaks Slovak?" — "I do") or whom someone reports
    to ("so who does Ilona report to now?" — "Réka, same as before"), read as the statement it stands for."""
    answer = _ANSWERING_NAME_RE.match(said)
    if answer is None or _HEDGED.search(said):
        return ()
    name = speaker if answer["me"] else _person(answer["name"])
    if not name or name.casefold() in _PRONOUNS:
        return ()
    if spoken := _ASKED_SPEAKER_RE.search(asked):
        languages = _known_languages(spoken["language"])
        return tuple(
            StatedFact(name, v.SPEAKS, language, today, None, False, 0.6, answer.span()) for language in languages
        )
    if (managed := _ASKED_MANAGER_RE.search(asked)) and not answer["me"] and (who := _person(managed["who"])):
        return _sentence_facts(f"{who} reports to {name}.", speaker, today)
    return ()


def _asked_owner(said: str) -> str:
    """The thing a sentence asks who owns, if it does."""
    asked = _ASKED_OWNER_RE.search(said) if "?" in said else None
    if asked is None or asked["thing"].casefold() in _PRONOUNS:
        return ""
    return _system_name(asked["thing"], owner="", named=True)


def _earlier_thing(earlier: _Earlier, index: int, *, mentioned_first: bool = False) -> str:
    """The thing the last two sentences asked who owns, stated a fact of, or named, the latest first; a day's "it"
    goes back to the thing as it was named ("the Kestle release"), which a due date's subject shortens."""
    for at, said, subject in reversed(earlier):
        if index - at > 2:
            continue
        named = (_thing_mentioned(said), subject) if mentioned_first else (subject, _thing_mentioned(said))
        if thing := _asked_owner(said) or named[0] or named[1]:
            return thing
    return ""


def _owner_answered(said: str, thing: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """The owner a line names in answer to who owns ``thing``, read as the statement it stands for."""
    answer = _OWNER_ANSWER_RE.match(said)
    if answer is None or answer["value"].casefold() in _PRONOUNS or _person(answer["value"]) != answer["value"]:
        return ()
    return _sentence_facts(_owned_as_said(thing, answer["value"], answer["since"] or ""), speaker, today)


# an owner's field of its own after the sentence that names the thing ("Zirc v2 GA on 14 May. Owner: Tisza squad.")
_OWNER_OF_THE_LAST_RE = re.compile(
    rf"^\s*(?:{_OWNER_LABEL}|(?i:owned|maintained)\s+by\s*:)\s*{_OWNER}"
    r"\s*(?:\([^()]{1,40}\))?\s*[.!]?\s*$"
)
_NO_ONE_YET = frozenset({"tbd", "tbc", "n/a", "na", "none", "nobody", "unassigned", "unknown", "vacant"})


def _owner_field(said: str, thing: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """The owner an owner's field names, of the thing the sentence before it is about."""
    field = _OWNER_OF_THE_LAST_RE.match(said)
    if field is None or field["value"].casefold() in _NO_ONE_YET | _PRONOUNS or " of " in thing:
        return ()
    thing = re.sub(r"\s+v?\d+(?:\.\d+)+$", "", thing)  # "Zirc 2.9.0 (due …). Maintainers: …": Zirc's
    return _sentence_facts(_owned_as_said(thing, field["value"], ""), speaker, today)


def _thing_mentioned(said: str) -> str:
    """The last thing a sentence names by a thing's words ("the Quillon pipeline", "kestle-sync")."""
    things = [m for mentions in _THING_MENTIONS for m in mentions.finditer(said)]
    if not things:
        return ""
    return re.sub(r"^(?i:the|our|my|their|its)\s+", "", max(things, key=lambda m: (m.end(), -m.start())).group(0))


# a move "there" from somewhere, to a town named before it
# (from somewhere: "moved there in May" alone restates a move the sentence said, which dates it)
_LIVE_HERE_RE = re.compile(
    r"\b(?:live|lives|lived|living|based|settled|(?P<moved>moved|relocated))(?:\s+(?:now|still))?\s+(?P<here>here)\b"
    # (not "here in Szeged", which names the town itself; but "moved here in April" is a time)
    r"(?!\s+(?:in|to|from)\s+(?!(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|spring|summer|autumn|fall|winter)\b)(?-i:[A-Z]))",
    re.IGNORECASE,
)
_MOVED_THERE_RE = re.compile(r"\b(?:moved|relocated|moving|relocating)\s+(?P<there>there)(?=\s+from\b)")


# the post a statement of where someone works says they hold there: "… at Kestle as their first designer", "…
# since three years as backend developer"
_AS_POST_RE = re.compile(
    r"\bas\s+(?!of\b|well\b|soon\b|long\b|much\b|far\b|usual\b|if\b|though\b|a\s+result\b)"
    r"(?:(?:an?|the|their|our|its)\s+)?(?:(?:first|new|only|sole|founding)\s+)?"
    rf"{_TITLE}"
)


def _post_held_there(clause: str, read: Sequence[StatedFact]) -> StatedFact | None:
    """The post an "as …" names in a clause that said where someone works now and no post of theirs (the last one
    it names), held since the same day."""
    jobs = [fact for fact in read if fact.attribute == v.WORKS_AT_ATTR and not fact.negated and not fact.valid_until]
    if len(jobs) != 1 or any(fact.attribute == v.JOB_TITLE for fact in read):
        return None
    # ("first as a support engineer, now as a solutions architect": the last one said)
    held = next(reversed(list(_AS_POST_RE.finditer(clause))), None)
    if held is None or not _title_ok(held) or not (post := _a_post(held["value"].lower())):
        return None
    job = jobs[0]
    return replace(job, attribute=v.JOB_TITLE, value=post, confidence=min(job.confidence, 0.7))


# the languages someone speaks instead of one they do not, said after it: "…, only Turkish and English", "…,
# portuguese only"
_SPOKEN_INSTEAD_RE = re.compile(
    rf"[,;]\s*(?:(?:only|just)\s+(?P<list>{_ANY_CASE_LANGUAGE}(?:\s*(?:,|and|&|\+)\s*{_ANY_CASE_LANGUAGE})*)|"
    rf"(?P<alone>{_ANY_CASE_LANGUAGE})\s+only)\b"
)


def _spoken_instead(said: str, facts: list[StatedFact]) -> list[StatedFact]:
    """A sentence's facts with the languages it says someone who does not speak one speaks instead, after it (one
    the denial's list ran on to is spoken: "doesnt speak spanish, portuguese only")."""
    denied = [fact for fact in facts if fact.attribute == v.SPEAKS and fact.negated]
    if len({fact.subject for fact in denied}) != 1 or (instead := _SPOKEN_INSTEAD_RE.search(said)) is None:
        return facts
    spoken = {language.casefold(): language for language in _known_languages(instead["list"] or instead["alone"])}
    kept = [fact for fact in facts if not (fact.attribute == v.SPEAKS and fact.value.casefold() in spoken)]
    return kept + [
        replace(denied[0], value=language.title() if language.islower() else language, negated=False)
        for language in spoken.values()
    ]


# the post held before the one a clause states, said after it: "…; previously VP Ops", ", formerly a data analyst"
_POST_BEFORE_RE = re.compile(
    rf"(?:[;,(]|\s[—–])\s*(?:previously|formerly)\s*,?\s+(?:(?:an?|the)\s+)?{_TITLE_WORDS_NAMED}(?:\s+there)?"
    r"\s*(?:[.;,)]|$)"
)


def _post_held_before(said: str, read: Sequence[StatedFact]) -> StatedFact | None:
    """The post a sentence that states someone's post says they held before it, ended when the new one began."""
    posts = [fact for fact in read if fact.attribute == v.JOB_TITLE and not fact.negated and not fact.valid_until]
    if len({fact.subject for fact in posts}) != 1 or (before := _POST_BEFORE_RE.search(said)) is None:
        return None
    value = before["value"]
    if not (_a_title(value) or _POST_BEFORE_NAME_RE.fullmatch(value.split()[0])) or not (
        post := _a_post(value.lower())
    ):
        return None
    now = posts[0]
    return replace(now, value=post, valid_from=None, valid_until=now.valid_from, confidence=min(now.confidence, 0.63))


# a promise to record what follows: "I'll remember that …", "I will keep in mind that …", "I'll note that …"
_RECORDING_FRAME_RE = re.compile(
    r"\bI(?:['’]ll|\s+will)\s+(?:remember|note(?:\s+down)?|keep\s+in\s+mind|make\s+a\s+note|save|record|log)\s+"
    r"(?:down\s+)?that\s+"
)


@lru_cache(maxsize=4096)
def _sentence_facts(said: str, speaker: str | None, today: date) -> tuple[StatedFact, ...]:
    """The facts one sentence states (spans within it); cached, as chats repeat their sentences."""
    if said.rstrip().endswith("?") and _CONFIRMING_RE.search(said):
        return ()
    said = _TAG_QUESTION_RE.sub(".", said)  # "I live in Ghent, remember?" asserts
    if "ll " in said or " will " in said:
        # "I'll make a note that Bence keeps a gecko": the "will" is the recording's; what it records is said now
        said = _RECORDING_FRAME_RE.sub("", said)
    # "Zsófia relocated to Győr, so can we move the sync?": the statement before the question still asserts
    asked = _QUESTION_AFTER_RE.search(said) if said.rstrip().endswith("?") else None
    if asked:
        said = f"{said[: asked.start()]}."
    if (
        len(said) > _MAX_SENTENCE_CHARS
        or said.rstrip().endswith("?")
        or _ASKS_RE.match(said.strip())
        or _CHECKED_RE.search(said)
    ):
        return ()
    facts: list[StatedFact] = []
    said = _thing_pronouns(said)
    if " there" in said and (there := _MOVED_THERE_RE.search(said)):
        # "my brother Bence in Eger; he moved there from Szeged in 2021": there is the town named before it
        towns = [m.group(0) for m in _NAME_RE.finditer(said, 0, there.start("there")) if known_place(m.group(0))]
        if towns:
            said = f"{said[: there.start('there')]}to {towns[-1]}{said[there.end('there') :]}"
    clauses = _clauses(said)
    opener = said.find(clauses[0][:24]) if clauses and clauses[0][:24] else -1
    if opener > 0:
        # what a noun phrase takes as given holds in an opener the clauses drop, too ("In my 1:1 with my manager,
        # Bence, we agreed …")
        dropped = said[:opener]
        folded = dropped.casefold()
        for pattern in _PRESUPPOSED:
            if any(stem in folded for stem in _NEEDS.get(pattern.attribute, ())):
                for match in pattern.regex.finditer(said):
                    if match.start() < opener:
                        facts.extend(_facts_of(pattern, match, said, 0, speaker, today))
    for clause in clauses:
        folded = f" {clause.casefold()} "
        wanted = {attribute for attribute, stems in _NEEDS.items() if any(stem in folded for stem in stems)}
        if _ROLE_WORD_RE.search(folded):  # "is Chief Data Officer at Brightwell": a role names itself
            wanted.add(v.JOB_TITLE)
        if not _LANGUAGE_WORDS.isdisjoint(_WORD_RE.findall(folded)):  # "my Hungarian is good now": a language named
            wanted.add(v.SPEAKS)
        if ("'" in clause or "’" in clause) and _POSSESSED_RE.search(clause):  # "the tracker is Dorka's from today"
            wanted.add(v.OWNED_BY)
        if " is " in folded and _RELEASE_IS_A_DAY_RE.search(clause):  # "Kestle v2 is Friday": its day
            wanted.add(v.DUE_DATE)
        if " to " in folded and _MOVED_TO_A_DAY_RE.search(clause):  # "Kestle moved to 9 Oct": a day, no place
            wanted.add(v.DUE_DATE)
        found = len(facts)
        present = {stem for stem in _PATTERN_NEEDS if stem in folded}
        facts.extend(_patterns_read(clause, wanted, present, speaker, today))
        ended = "" if any(fact.negated for fact in facts[found:]) else _said_to_hold_no_longer(clause)
        if ended:
            # "Bence isn't at Kestle any more", "the launch is no longer 6 April": what the clause says without its
            # negation, ended (never read as holding)
            unsaid = f" {ended.casefold()} "
            present = {stem for stem in _PATTERN_NEEDS if stem in unsaid}
            # ("so I no longer have a dog": which one, the pet said before it names; a kind alone ends nothing)
            facts[found:] = [
                fact
                for fact in _patterns_read(ended, wanted, present, speaker, today)
                if not (fact.attribute == v.HAS_PET and re.match(r"an?\s", fact.value))
            ]
        read = facts[found:]
        if " as " in folded and (held := _post_held_there(clause, read)):
            facts.append(held)  # "Started at Kestle two weeks ago as their first data protection officer"
        if v.DUE_DATE in wanted and (rest := _after_other_statements(clause, read)):
            # "Tisza took over Zirc in January; Zirc 3.0 is due 18 March": the part after the other statement
            at = len(clause) - len(rest)
            dated = {_project_key(fact.subject) for fact in read if fact.attribute == v.DUE_DATE}
            facts.extend(
                replace(fact, span=(fact.span[0] + at, fact.span[1] + at))
                for fact in _due_dates(rest, today)
                if _project_key(fact.subject) not in dated
            )
        elif v.DUE_DATE in wanted and all(fact.attribute == v.DUE_DATE for fact in read):
            # a clause that said whose S is now dates that, not a launch; one that dated a project may date another
            # ("Kestle ships on 2 May, and Quillon on 16 May")
            dated = {_project_key(fact.subject) for fact in read}
            facts.extend(
                fact
                for fact in _due_dates(clause, today)
                # (a day it was, "slipped from 4 May", dates it before the day a pattern read)
                if _project_key(fact.subject) not in dated or fact.valid_until is not None
            )
        if ended:
            facts[found:] = [
                replace(fact, negated=True) for fact in facts[found:] if not fact.negated and fact.valid_until is None
            ]
    if "only" in said or "just" in said:
        facts = _spoken_instead(said, facts)  # "I don't speak Kazakh, only Turkish and English"
    if ("previously" in said or "formerly" in said) and (before := _post_held_before(said, facts)):
        facts.append(before)  # "promoted to COO in May; previously VP Ops"
    if not _LANGUAGE_WORDS.isdisjoint(_WORD_RE.findall(said.casefold())):
        if not any(fact.attribute == v.SPEAKS for fact in facts):
            facts.extend(_languages_spoken(_REPORTED_RE.sub(_reported, said.strip()), speaker, today))
        read = {fact.value.casefold() for fact in facts if fact.attribute == v.SPEAKS}
        facts.extend(fact for fact in _languages_used(said, speaker, today) if fact.value.casefold() not in read)
    if "after" in said.casefold():
        facts.extend(_homes_before(said, facts))
    if "wne" in said or " by " in said or "belong" in said:
        facts.extend(_owner_of_the_dated(said, facts, today))
    if "moved" in said or "relocated" in said:
        facts = _homes_dated_by_the_move(said, facts, today)
    if " not " in said and any(fact.attribute == v.SPEAKS for fact in facts):
        # "I speak Hungarian, Slovak and English, Czech not yet": a language listed with "not yet" is not spoken
        facts = [
            fact
            for fact in facts
            if fact.attribute != v.SPEAKS
            or not re.search(rf"\b{re.escape(fact.value)}\s+not\s+(?:yet|really|so\s+much|much)\b", said, re.I)
        ]
    if (no_pet := _NO_PET_NOW_RE.search(said)) and any(fact.attribute == v.HAS_PET for fact in facts):
        # "Our dog Bodri went to my parents' farm, so I no longer have a dog": the pet named before is no longer had
        facts = [
            replace(fact, negated=True, valid_from=today)
            if fact.attribute == v.HAS_PET and not fact.negated and 0 <= said.find(fact.value) < no_pet.start()
            else fact
            for fact in facts
        ]
    return tuple(_one_owner(_one_project(facts)))


# the writer's household left without a pet of a kind, after the one it had: "…, so I no longer have a dog", "…, so no
# more cats for us"
_NO_PET_NOW_RE = re.compile(
    rf"[,;—–]\s*(?:so|and)\s+(?:(?:I|we)\s+(?:no\s+longer|don['’]t|do\s+not)\s+have\s+(?:a|an|any)\s+{_PETS}|"
    rf"no\s+more\s+{_PETS}\s+for\s+(?:me|us))\b"
)


# the move said after a home, with when it was and nowhere else: "Réka's in Szeged now — she moved last month",
# "Fresh start: I'm in Szeged now, moved in December"
_MOVE_DATED_RE = re.compile(
    r"(?:^|[,;—–]\s*|\s(?:and|so)\s+)(?:(?:he|she|they|I|we)(?:['’]s|['’]ve|\s+has|\s+have)?\s+)?(?:just\s+)?"
    r"(?:moved|relocated)(?:\s+(?:in|here|there|over|back))?\s+(?P<when>(?:last|this|in|on|a|an|one|two|three|four|\d)"
    r"[^,;.!?]{0,30})",
    re.IGNORECASE,
)


def _homes_dated_by_the_move(said: str, facts: list[StatedFact], today: date) -> list[StatedFact]:
    """A sentence's facts with the one home it gives now dated by the move it goes on to tell, when that move names
    no other place."""
    homes = [f for f in facts if f.attribute == v.LIVES_IN and not f.negated and f.valid_until is None]
    moved = _MOVE_DATED_RE.search(said, homes[0].span[1]) if len(homes) == 1 and homes[0].valid_from == today else None
    # (a move is past: "in December" said in September is the December before)
    said_days = _dates(moved["when"], today) if moved else []
    yearless = moved is not None and not re.search(r"\d{4}", moved["when"])
    days = [
        day if day <= today else _next_month_day(day, -12) or day.replace(year=day.year - 1, day=28)  # (29 February)
        for day in said_days
        if day <= today or yearless
    ]
    if not days or re.match(r"\s*(?:to|from|into)\b", moved["when"]):
        return facts
    return [replace(f, valid_from=days[0]) if f is homes[0] else f for f in facts]


# whose a dated piece of work is, said after its day: "Kestle import due 30 Sep, owned by Bence", "… due 2 March
# (owner: Tisza)", "Next: Zirc log cleanup, due 3 March, owner Dorka Szabó"
_OWNER_AFTER_RE = re.compile(
    r"(?:,|\(|;|\s+and\b)\s*(?:(?:and\s+)?(?:is\s+)?(?:owned|run|maintained|led)\s+by|belongs\s+to|(?i:owners?)"
    r"(?:\s+(?:is\s+)?now)?\s*:?)\s+"
    rf"(?:(?:the|their|our)\s+[\w -]{{2,30}}?,\s+)?(?:the\s+)?(?P<owner>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})"
    # ("(owner now Growth, was Réka)": whose it was)
    rf"(?:,\s+(?:was|previously|formerly)\s+(?:the\s+)?(?P<was>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE}))?"
)


def _owner_of_the_dated(said: str, facts: list[StatedFact], today: date) -> list[StatedFact]:
    """The owner a sentence names after the one piece of work it dates, as that work's owner."""
    dated = {fact.subject for fact in facts if fact.attribute == v.DUE_DATE and fact.valid_until is None}
    owned = {fact.subject for fact in facts if fact.attribute == v.OWNED_BY}
    if len(dated) != 1 or dated & owned or not (after := _OWNER_AFTER_RE.search(said)):
        return []
    owner = " ".join(_without_a_post_before((_person(after["owner"]) or "").split()))
    (project,) = dated
    if not owner or owner.casefold() == project.casefold():
        return []
    owners = [StatedFact(project, v.OWNED_BY, _team_name(owner), today, None, False, 0.7, after.span())]
    if after["was"] and (was := _person(after["was"])) and was.casefold() != owner.casefold():
        owners.append(StatedFact(project, v.OWNED_BY, _team_name(was), None, today, False, 0.63, after.span()))
    return owners


# "after six years in Győr", "after years in Zirc": where a home said in the same sentence came after
_AFTER_TIME_IN_RE = re.compile(
    rf"\b[Aa]fter\s+(?:(?:{_HOW_MANY}|several|many|some|almost|nearly|over|about)\s+)*(?:years?|months?|decades?|ages)"
    rf"\s+(?:living\s+)?in\s+(?P<place>{NAME})"
)


def _homes_before(said: str, facts: list[StatedFact]) -> list[StatedFact]:
    """The home a sentence says its subject had before the one it says they have now ("Szeged has been home since
    spring, after a decade in Győr"): the earlier home, closed when the new one began."""
    homes = [fact for fact in facts if fact.attribute == v.LIVES_IN and not fact.negated and fact.valid_until is None]
    if len({fact.subject for fact in homes}) != 1:
        return []  # no home said now, or two people's: whose the earlier one was, the sentence does not say
    now = homes[0]
    known = {fact.value.casefold() for fact in facts if fact.attribute == v.LIVES_IN}
    return [
        StatedFact(now.subject, v.LIVES_IN, before["place"], None, now.valid_from, False, 0.7, before.span("place"))
        for before in _AFTER_TIME_IN_RE.finditer(said)
        if before["place"].casefold() not in known and _person(before["place"]) == before["place"]
    ]


# a thing a sentence names before an "it" or "them" its ownership goes on with: "the onboarding bot was built by N,
# but Tisza owns it now", "we don't own Quillon anymore, the Kestle team took it back", "I wrote most of the
# quillon-indexer, but it's owned by N"
_THING_HEAD_WORDS = "|".join(
    sorted({noun for noun in [*v.KIND_HEAD_NOUNS, *v.OWNED_THING_NOUNS] if noun.isalpha()}, key=len, reverse=True)
)
_THING_MENTIONS = (
    re.compile(rf"\b(?i:the|our|my|their|its)\s+(?:[\w.&-]+\s+){{0,3}}(?i:{_THING_HEAD_WORDS})s?\b"),
    # a piece of work with a day: "the Kestle release", "the Quillon migration"
    re.compile(
        r"\b(?i:the|our|their)\s+[A-Z][\w.&-]*(?:\s+[\w.&-]+){0,2}?\s+(?i:release|launch|migration|rollout|"
        r"cutover|project|beta|deadline|upgrade)\b"
    ),
    re.compile(r"\b[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+\b"),
    # a thing a note's line is labelled with: "• Zirc dashboard: Tisza took it over"
    re.compile(rf"(?:^|(?<=[•*-]\s))[A-Z][\w.&-]*(?:\s+[\w.&-]+){{0,3}}?\s+(?i:{_THING_HEAD_WORDS})(?=\s*:)"),
    re.compile(
        rf"(?<=\s)(?:(?<=own\s)|(?<=owns\s)|(?<=wrote\s)|(?<=built\s)|(?<=runs\s)|(?<=created\s)|(?<=maintains\s)|"
        rf"(?<=inherited\s)){NAME}"
    ),
    # a name said to be someone's, or whom to ask about: "Zirc is theirs now: Tisza took it over", "Réka is your contact
    # for Zirc — Tisza took it over last week"
    re.compile(
        rf"(?<![\w'’-])(?!(?:PSA|FYI|BTW|NB)\b){NAME}(?=\s+(?:is|are)\s+(?:now\s+)?(?:ours|theirs|yours|mine)\b)"
        rf"|(?<=\scontact\sfor\s){NAME}|(?<=\saccess\sto\s){NAME}"
        # ("Zirc's owner changed — it moved to Tisza Ops": the thing whose owner the sentence speaks of)
        rf"|(?<![\w'’-]){NAME}(?=['’]s\s+(?:new\s+|old\s+)?(?:owners?|ownership|maintainers?)\b)"
    ),
)
_OWNED_PRONOUN_RE = re.compile(
    r"\b(?i:owns?|owned|took|takes|taken|handed|passed|gave|maintains?|inherited)\s+(?P<pron>it|them)\b"
    r"(?=\s+(?:over|back|on|up|now|from|to|off|since|as|in|too|today|yesterday|last|this|end)\b|\s*(?:[.,;!)—–]|$))"
    r"|\b(?P<subj>[Ii]t|[Tt]hey|[Tt]hat)(?:['’]s\s+been|['’]s|\s+is|\s+are|\s+was|\s+were|\s+has\s+been)?(?:\s+now)?\s+"
    r"(?=(?:owned|maintained)\s+by\b|belongs?\s+to\b|went\s+to\b|moved\s+to\b|under\s+(?:the\s+)?[A-Z]|"
    # ("…, it's been Tisza Ops's since spring": whose it is)
    rf"{NAME}(?:['’]s|(?<=s)['’])(?=\s*(?:[.,;!]|$)|\s+(?:now|since|from|as\s+of)\b))"
)


def _thing_pronouns(said: str, earlier: str = "") -> str:
    """The sentence with the "it" of a thing's ownership named as the thing it names in an earlier part, else as
    ``earlier``, the thing the sentences before it were about ("The Quillon cutover is due in May. Tisza owns it.")."""
    pronoun = _OWNED_PRONOUN_RE.search(said) if re.search(r"\b(?:it|them|they)\b", said, re.IGNORECASE) else None
    if pronoun is None:
        return said
    start, end = pronoun.span("pron") if pronoun["pron"] else pronoun.span("subj")
    things = [
        m
        for mentions in _THING_MENTIONS
        for m in mentions.finditer(said, 0, start)
        if re.search(r"[,;:—–]|\bbut\b|\band\s+now\b", said[m.end() : start])
        # ("Zirc is the rewrite of our billing service, and it's owned by …": what a thing is "of" is not it)
        and not re.search(r"\bof\s+$", said[max(0, m.start() - 4) : m.start()])
    ]
    if things:
        last = max(things, key=lambda m: (m.end(), -m.start()))
        named = re.match(rf"\s*\((?P<name>{NAME})\)", said[last.end() :])  # "the vendor portal (Quillon)": its name
        thing = named["name"] if named else re.sub(r"^The\b", "the", last.group(0))
    elif earlier:
        thing = earlier
    else:
        return said
    if pronoun["subj"] and said[end : end + 2] in {"'s", "’s"}:  # "it's owned by": the thing is; "it's been": has
        has = re.match(r"\s+been\b", said[end + 2 :])
        return f"{said[:start]}{thing} {'has' if has else 'is'}{said[end + 2 :]}"
    return f"{said[:start]}{thing}{said[end:]}"


# a clause that names known languages and says they are spoken in words no pattern reads ("I am speaking Hungarian
# and Slovak", "speaks French only", "switches between Czech and Slovak", "Romani is what we speak at home", "a
# Finnish + Swedish speaker"); one that learns, wishes, hedges or denies says nothing here
_SPOKEN_CUE_RE = re.compile(
    r"\b(?:speak|speaks|speaking|spoke|spoken|fluent|bilingual|trilingual|switch(?:es|ing)?\s+between|mother\s+tongue|"
    r"first\s+language|speaker)\b",
    re.IGNORECASE,
)
_NOT_SPOKEN_RE = re.compile(
    r"\b(?:learn\w*|study\w*|studied|lessons?|class(?:es)?|course|practi[cs]\w*|improv\w*|want\w*|wish\w*|hop(?:e|es|ing)|"
    r"would|plan\w*|going\s+to|gonna|will|understand\w*|read|reads|might|maybe|probably|try\w*|translat\w*|"
    r"not|never|no\s+longer|can['’]?t|cannot|don['’]?t|doesn['’]?t|dont|doesnt|won['’]?t|if|unless|whether|confirm|"
    r"check|ask|resolution|goal|aim|should|must|need\s+to|have\s+to|you|your|you['’]re)\b|['’]d\b",
    re.IGNORECASE,
)
_LIST_WORDS = frozenset("and or & + / also some a bit of little basic decent fluent conversational".split())


def _languages_spoken(clause: str, speaker: str | None, today: date) -> list[StatedFact]:
    """The known languages a clause says its subject speaks, in its part with the word of speaking and the list
    straight after it; its subject the person it opens with, or the speaker for "I" or a household's "we"."""
    said = clause.strip().rstrip(".!")
    if _NOT_SPOKEN_RE.search(said) or not _SPOKEN_CUE_RE.search(said):
        return []
    lead = _LEAD_RE.match(said)
    lead_name = lead.group(0) if lead and not re.match(r"\s*:", said[lead.end() :]) else ""  # "Noted: …" is a label
    cue = _SPOKEN_CUE_RE.search(said)
    between = said[len(lead_name) : cue.start()] if cue else ""
    if any(_a_person(m.group(0)) and m.group(0).casefold() not in _LANGUAGE_SET for m in re.finditer(NAME, between)):
        return []  # "Nandor to check whether Zsófia speaks …": someone else's speaking
    if re.search(rf"\b(?i:my|our|his|her|their)\s+{_RELATION}\b", between):
        return []  # "my dad speaks Czech with my aunties, but I …": a relative's speaking, whom the text does not name
    if re.search(r"\b(?i:she|he|they)\b", between):
        return []  # "welcome @dorka! she speaks Dutch, so she's our favourite": someone the clause has not named
    if lead_name in {"I", "i"} or (
        (not lead_name or lead_name.casefold() in _LANGUAGE_SET) and re.search(r"\b(?:I|we|my|our)\b", said)
    ):
        who = speaker
    elif (
        lead_name and _person(lead_name) == lead_name and _a_person(lead_name) and not _SPOKEN_CUE_RE.search(lead_name)
    ):
        # (not "German-speaking customers": a kind of people, no one named)
        who = lead_name if lead_name.casefold() not in _LANGUAGE_SET else None
    else:
        who = None
    if not who:
        return []
    parts = re.split(r"\s*(?:[,;]|\s[—–-]\s)\s*", said)
    cued = next((index for index, part in enumerate(parts) if _SPOKEN_CUE_RE.search(part)), None)
    if cued is None:
        return []
    spoken = _known_languages(parts[cued])
    for part in parts[cued + 1 :]:
        words = re.findall(r"[\w&+/]+", part)
        if not words or not all(word.casefold() in _LIST_WORDS or word.casefold() in _LANGUAGE_SET for word in words):
            break
        spoken += _known_languages(part)
    return [StatedFact(who, v.SPEAKS, language, today, None, False, 0.6, (0, len(clause))) for language in spoken]


_PATTERN_NEEDS = frozenset(stem for pattern in _PATTERNS for stem in pattern.needs)
_PRESUPPOSED = tuple(pattern for pattern in _PATTERNS if pattern.presupposed and not pattern.needs)


def _project_key(project: str) -> str:
    """A project by its first word ("Kestle's go-live", "the Kestle release" and "Kestle" are one)."""
    return re.sub(r"['’]s?$", "", project.split()[0]).casefold() if project.split() else ""


def _one_project(facts: list[StatedFact], *, rename: bool = True) -> list[StatedFact]:
    """One due date per project a sentence names: "the Kestle release" read once as "Kestle" and once whole is the
    project's, "Kestle" (the graph's entity; the release is its event). Across a text's sentences (``rename``
    False) only the same day read twice is dropped: another sentence's "the Kestle launch" keeps its words."""
    dated = {(fact.subject, fact.value) for fact in facts if fact.attribute == v.DUE_DATE}
    named = {subject for subject, _ in dated}
    kept = []
    for fact in facts:
        shorter = [other for other in named if other != fact.subject and fact.subject.startswith(f"{other} ")]
        if fact.attribute != v.DUE_DATE or not shorter:
            kept.append(fact)
        elif any((other, fact.value) in dated for other in shorter):
            continue
        elif rename and fact.subject[len(min(shorter, key=len)) + 1 :].casefold() in _PROJECT_EVENTS:
            kept.append(replace(fact, subject=min(shorter, key=len)))  # the day it was, of the same project
        else:
            kept.append(fact)  # "the Kestle beta": a milestone of its own
    return kept


def _one_owner(facts: list[StatedFact]) -> list[StatedFact]:
    """A thing's owner named, then described ("owned by Tisza Data; Nandor's team has it since May"): the description is
    the same owner, not a second one."""

    def current(fact: StatedFact) -> bool:
        return fact.attribute == v.OWNED_BY and not fact.negated and fact.valid_until is None

    named = {fact.subject for fact in facts if current(fact) and not fact.value.endswith(("'s", "’s"))}
    return [
        fact for fact in facts if not (current(fact) and fact.value.endswith(("'s", "’s")) and fact.subject in named)
    ]


# the words after a project's name that name its day, not another project ("the Kestle release", "Kestle GA")
_PROJECT_EVENTS = frozenset(
    {"release", "launch", "ga", "go-live", "golive", "rollout", "deadline", "ship date", "migration"}
)


# --- due dates said any other way: a project's name, a word of schedule, and a day -----------------------------------

_SCHEDULE_RE = re.compile(
    r"\b(?:launch(?:es|ing)?|release(?:s)?|ship(?:s|ping)?|GA|go-?live|goes\s+live|deadline|due|target|cutover|"
    # (a cat that "slipped out" is no schedule)
    r"(?:slipped|slips|slipping)(?!\s+(?:out|away|off|through|past|on|up|in|into)\b)|pushed|delayed|brought\s+forward|"
    r"pulled\s+(?:in|forward)|land(?:s|ing)?|goes\s+out|locked\s+(?:in\s+)?for|moved|on\s+track\s+for|"
    # a day "bumped" to is slipped to (not one "bumped into")
    r"bump(?:s|ed|ing)(?!\s+into)|"
    r"set\s+for|scheduled\s+for|"
    # ("Kestle must be ready by 6 April", "has to be finished by …": a deadline)
    r"be\s+(?:ready|done|finished|complete|completed|delivered|live)\s+by|"
    r"planned\s+for)\b"
    # a piece of work that happens on a day ("the Kestle upgrade happens on Friday"), unlike a party or a meeting
    r"|\b(?:migration|rollout|roll-out|cutover|upgrade|switchover)\s+(?:[\w'’-]+\s+){0,5}?(?:happens|takes\s+place)\b"
    # a piece of work that "is" a day ("the Kestle data migration is now on 9 June")
    r"|\b(?:migration|rollout|roll-out|cutover|upgrade|beta|launch|release|GA|go-?live)\s+(?:is|are)\s+"
    r"(?:now\s+|still\s+)?(?=(?:on\s+)?(?:the\s+)?\d|(?:on\s+)?[A-Z][a-z]+\s+\d|(?:on\s+)?[A-Z]?[a-z]+day\b)"
    # a day a list's arrow points to ("Kestle beta → 4 Jun")
    r"|(?:→|->)(?=\s*(?:\d|(?:the\s+)?\d|[A-Z][a-z]{2}))"
)
# a launch that already happened, a deadline missed: no due date
_NO_DUE_RE = re.compile(
    r"\b(?:launched|shipped|released|went\s+(?:live|out|smoothly|well|fine|great|ok|okay|off|\w+ly|ga)|missed|happened|"
    r"took\s+place|done|rolled\s+out|wrapped\s+up|(?:was|were|got)\s+(?:completed|finished|delivered|deployed)|"
    r"was\s+on\s+(?!track))\b",
    re.IGNORECASE,
)
# an event on the project's day ("the launch party is on 5 May", "the retro for the Orion launch is on 5 May"): the
# day is the event's, unless the event is named in a part of the sentence of its own, before a colon or semicolon
# ("the Orion retro: with the launch now on 5 May, QA starts earlier")
_EVENT_RE = re.compile(
    r"\b(?:party|parties|meeting|demo|review|retro|offsite|dinner|drinks|stand-?up|call|celebration|lunch|workshop|"
    r"kick-?off|freeze|appointment|renewal|passport|visa|exam|interview|birthday|wedding|dentist|doctor|check-?up|"
    r"all-?hands|town\s*hall|hackathon|summit|webinar|conference|one-on-one|vacation|holiday|sprint\s+planning|"
    r"planning\s+session|presentation|keynote|walkthrough|briefing|ceremony|reception|meetup|booster|vaccinations?|"
    r"vaccine|jab|grooming|haircut|drill|rehearsal|dry\s+run|game\s+day|salary|rent|payday|paycheck|concert|gala|recital|"
    r"festival)\b",
    re.IGNORECASE,
)
# a name after these is a person's ("owner Zsófia Ambrus", "page Nandor")
_NAMED_AS_PERSON_RE = re.compile(
    r"\b(?i:owner|owners|owned\s+by|lead|assignee|assigned\s+to|contact|page|ping|ask)\s*:?\s*$"
)
# a name after these is a place or an organisation, not the project a day is set for
# (a journey's end, "from Győr to Pécs", is where too)
_PLACED_BEFORE_RE = re.compile(
    rf"\b(?:in|at|from|near|across|throughout)\s+(?:the\s+)?$|\bfrom\s+[{_UPPER}][\w'’-]*(?:\s+[{_UPPER}][\w'’-]*)*\s+to\s+$"
)
_RELEASE_WORDS = frozenset({"Release", "Sprint", "Milestone", "Build", "Version", "Drop", "Wave", "Phase"})
_NOT_PROJECTS = frozenset(
    {"GA", "QA", "ETA", "EOD", "EOW", "EOM", "COB", "PM", "AM", "UTC", "Q1", "Q2", "Q3", "Q4", "ASAP", "TBD", "TBC"}
)


# what a plan's line says is to be done to a project, before its name
_DELIVERY_VERBS = frozenset({"Ship", "Deliver", "Finish", "Complete", "Retire", "Migrate"})


def _opens_its_line(text: str, at: int) -> bool:
    """Whether ``at`` is where its line's words begin, past a list's number or bullet."""
    start = text.rfind("\n", 0, at) + 1
    return re.fullmatch(r"[ \t]*(?:\d{1,2}[.)]|[-•*])?[ \t]*", text[start:at]) is not None


# a bracketed aside without a day in it ("(Tisza)", "(owned by Tisza)")
_ASIDE_RE = re.compile(r"\((?![^()]*\d)[^()]{1,40}\)")


def _after_other_statements(clause: str, read: Sequence[StatedFact]) -> str:
    """The part of a clause after the statements of other attributes read in it, from the next semicolon or comma
    on ("…; Zirc 3.0 is due 18 March", "…, and the Kestle v2 launch moved to Thursday"); "" when none was read or
    nothing follows them."""
    ends = [fact.span[1] for fact in read if fact.attribute != v.DUE_DATE]
    if not ends:
        return ""
    apart = _PART_APART_RE.search(clause, max(ends))
    return clause[apart.end() :] if apart else ""


# a schedule's verb whose object is a pronoun
_SHIP_IT_RE = re.compile(r"\s+(?:it|them|this|that)\b(?!\s+(?:is|was|has|had)\b)")


# where a clause goes on with another statement: a semicolon, a comma (with "and"), or "and" alone
_PART_APART_RE = re.compile(r"\s*;\s*|,\s+(?:and\s+|but\s+)?|\s+and\s+")


def _due_dates(clause: str, today: date) -> list[StatedFact]:
    """What a clause says is due when no pattern read it: each project it names (a capitalised name that is no
    person's opening word, date or acronym of schedule) with the last day it gives before the next project
    ("Lyre ships on 4 March and Quill on 18 March"), when a word of schedule says so and nothing says it is
    an event, a hedge or already past. "From 5 May to 19 May" also states the earlier day, as a past value."""
    if "(" in clause:  # "the Kestle launch (Tisza) slipped to …": an aside names no project; offsets kept
        clause = _ASIDE_RE.sub(lambda aside: " " * len(aside.group(0)), clause)
    schedule = _SCHEDULE_RE.search(clause)
    if schedule is None or _SHIP_IT_RE.match(clause, schedule.end()):
        return []  # ("ship it Friday", "launch them on Monday": what is due is said by a pronoun, no project)
    # "Kestle was planned to ship on Friday, but it has slipped to the 3rd": the plan that failed is the day it had
    superseded = _PLAN_OVERTAKEN_RE.search(clause)
    if superseded:
        clause = clause[: superseded.start()] + " " * len(superseded.group(0)) + clause[superseded.end() :]
    # "Zirc 2.0 is due on 4 May, so no leave that week I suppose": what follows "so" is its consequence, no hedge of it
    consequence = _CONSEQUENCE_RE.search(clause)
    if _NOT_ASSERTED.search(_PLAN_WORDS.sub(" ", clause[: consequence.start()] if consequence else clause)):
        return []
    done = [match.start() for match in _NO_DUE_RE.finditer(clause)]
    mentions = [
        m for m in _clause_dates(clause, today) if not m.ambiguous and (m.start == m.end or _SPAN_TO.search(m.text))
    ]
    mentions = _not_when_said(mentions)
    if not mentions:
        return []
    facts = []
    projects = _projects(clause, mentions)
    voiced = projects and re.match(
        r"\s*:\s*(?P<reply>(?i:yes|yeah|yep|no|nope|ok|okay|so|well|right|sure|hi|thanks)\b)?",
        clause[projects[0][0] + len(projects[0][1]) :],
    )
    if voiced and (len(projects) > 1 or voiced["reply"]):
        # "Dorka: heads up, Kestle 4.2 slipped to 6 March", "Dorka: yes, go-live is the 14th": a voice's label
        projects = projects[1:]
    for index, (start, project) in enumerate(projects):
        end = projects[index + 1][0] if index + 1 < len(projects) else len(clause)
        if any((index == 0 or start <= at) and at < end for at in done):
            # "Zirc 3 shipped in March and Zirc 3.1 is due on 20 May": what already happened is the first one's
            continue
        if stop := _DUE_PHRASE_END_RE.search(clause, start, end):
            end = stop.start()  # "Kestle 3 is Friday, please merge by Wednesday": Friday
        days = [m for m in mentions if start < m.span[0] < end]
        # "now due 10 Feb, it was 24 Feb": a day said as the one it had is not the one it has
        had = [m for m in days if _HAD_DAY_RE.search(clause, 0, m.span[0])]
        had = had if len(had) < len(days) else []
        days = [m for m in days if m not in had]
        if not days or schedule.start() > days[-1].span[0]:
            continue
        last = days[-1]
        said_apart = [m.end() for m in _APART_RE.finditer(clause, 0, _last_schedule(clause, last.span[0]))]
        # (an event said in an opener before the project is not the project: "Per our call, the Kestle migration is
        # scheduled for Saturday"; one said with it is: "Meeting with Kestle on Monday")
        opened = clause.rfind(", ", 0, start) + 1
        if _EVENT_RE.search(clause, max(said_apart[-1] if said_apart else 0, opened), last.span[0]):
            continue
        span = (start, last.span[1])
        new, old = _ahead(last.end, last.text, today), None
        rather = len(days) > 1 and _RATHER_RE.search(clause, days[-2].span[1], last.span[0])
        # "Monday → Wednesday", "planned for 2 May but now it's 16 May": from the one day to the other
        onwards = len(days) > 1 and (
            _ARROW_RE.fullmatch(clause, days[-2].span[1], last.span[0])
            or (superseded and superseded.end() <= days[-2].span[0])
        )
        if last.start == last.end and (
            re.search(r"\bfrom\s+(?:the\s+)?$", clause[: last.span[0]]) or re.match(r"(?i:from)\b", last.text)
        ):
            # "due on 20 May (it slipped from 6 May)": the day after "from" is the one it was; alone, only that
            old = new
            if len(days) > 1:
                new = _ahead(days[-2].end, days[-2].text, today)
                old = _before_the_day(old, new)
                if (nth := re.search(r"\b(\d{1,2})(?:st|nd|rd|th)$", last.text)) and int(nth[1]) < new.day:
                    old = new.replace(day=int(nth[1]))  # "to 9 Oct (from the 2nd)": the 2nd of that month
                facts.append(StatedFact(project, v.DUE_DATE, new.isoformat(), today, None, False, 0.7, span))
            facts.append(StatedFact(project, v.DUE_DATE, old.isoformat(), None, today, False, 0.63, span))
            continue
        if rather:
            # "now on 6 October rather than 29 September": the day before "rather than" is the new one; "Thursday,
            # not Friday" corrects a day that never held
            new, old = _ahead(days[-2].end, days[-2].text, today), new
            facts.append(StatedFact(project, v.DUE_DATE, new.isoformat(), today, None, False, 0.7, span))
            if rather.group(0).casefold() != "not":
                facts.append(StatedFact(project, v.DUE_DATE, old.isoformat(), None, today, False, 0.63, span))
            continue
        if last.start != last.end:  # "from 5 May to 19 May", read as one span
            old = _before_the_day(_ahead(last.start, last.text, today), new)
        elif onwards or (len(days) > 1 and re.search(r"\bfrom\b", clause[start : last.span[0]])):
            was = days[-2] if onwards else days[0]
            if not (superseded and not re.search(r"\d", was.text)):  # ("was supposed to ship Monday": which one?)
                old = _before_the_day(_ahead(was.start, was.text, today), new)
        if old is None and had:
            old = _before_the_day(_ahead(had[-1].start, had[-1].text, today), new)
        facts.append(StatedFact(project, v.DUE_DATE, new.isoformat(), today, None, False, 0.7, span))
        if old is not None and old != new:
            facts.append(StatedFact(project, v.DUE_DATE, old.isoformat(), None, today, False, 0.63, span))
    return facts


# the words before a day that say it is the one a project had ("it was 24 Feb", "originally 1 July")
_HAD_DAY_RE = re.compile(
    r"\b(?:it\s+was|was|previously|originally|formerly|had\s+been)\s+(?:(?:on|for)\s+)?(?:the\s+)?$", re.IGNORECASE
)


_APART_RE = re.compile(r"[:;]")
# a plan a later day overtook: "was planned to go live on 2 May but …", "were meant to land on the 4th; now …"
_PLAN_OVERTAKEN_RE = re.compile(
    r"\b(?:was|were|had\s+been)\s+(?:supposed|meant|due|planned|scheduled)\s+to\b(?=[^;]*?(?:\bbut\b|\bnow\b|;))",
    re.IGNORECASE,
)
# one day to the next in a list's shorthand ("Monday → Wednesday", "3 May -> 17 May")
_ARROW_RE = re.compile(r"\s*(?:→|->)\s*")
# a bracket that says the day it was moved from ("20 May (it slipped from 6 May)"): no day it is due
_WAS_FROM_RE = re.compile(r"\s*\([^()]*?\bfrom\b")
_ANOTHER_PROJECT_RE = re.compile(r",?\s+and\s+(?=[A-Z]|(?:his|her|their|my|our|the)\s)|;")
_RATHER_RE = re.compile(rf"\b(?:{_RATHER_WORDS})\b|\(\s*was\b", re.IGNORECASE)


def _last_schedule(clause: str, before: int) -> int:
    """Where the last word of schedule before ``before`` starts."""
    return max((m.start() for m in _SCHEDULE_RE.finditer(clause, 0, before)), default=0)


_SPAN_TO = re.compile(r"\s(?:to|until|till)\s|[–-]")


_QUARTER_RE = re.compile(r"Q[1-4]")
_NEXT_WORD_RE = re.compile(r"\s+([a-z][\w-]*)")
# the pieces of work a quarter or a year names ("the Q1 campaign", "the Q3 report")
_PERIODIC_WORK = frozenset("campaign report review plan roadmap budget audit survey newsletter okrs goals".split())


def _projects(clause: str, mentions: list) -> list[tuple[int, str]]:
    """The projects a clause names, with where each starts: its capitalised names outside its dates, and the
    lower-case words a name heads before the clause's verb ("the Quill data migration is …")."""
    projects = []
    if (numbered := _RELEASE_NUMBER_RE.match(clause)) and not any(m.span[0] < numbered.end() for m in mentions):
        projects.append((numbered.start("number"), numbered["number"]))  # "3.1 is slipping to 9 May"
    coded = (m for m in _CODE_NAME_RE.finditer(clause) if not _AFTER_A_NAME_RE.search(clause, 0, m.start()))
    named = [*re.finditer(NAME, clause), *coded]
    for match in sorted(named, key=lambda found: found.start()):
        if any(m.span[0] <= match.start() < m.span[1] for m in mentions):
            continue
        words = (_person(match.group(0)) or "").split()
        if words and words[-1] in _RELEASE_WORDS and (numbered := _VERSION_RE.match(clause, match.end())):
            # "Release 7.2 slipped to 9 June": the release by its number
            projects.append((match.start(), f"{' '.join(words)}{numbered.group(0)}"))
            continue
        while words and (words[0] in _NOT_PROJECTS or words[0].casefold() in _CALENDAR_NAMES):
            words.pop(0)
        if len(words) > 1 and words[0] in _DELIVERY_VERBS and _opens_its_line(clause, match.start()):
            words.pop(0)  # a plan's line "1. Ship Kestle Maps — due 6 April": the project, not the verb to do
        # ("the Zirc Q1 campaign": a quarter inside a name, before the noun that ends it, is part of it)
        noun = _NEXT_WORD_RE.match(clause, match.end())
        inside = len(words) > 1 and noun is not None and noun[1] in _THING_NOUNS | _WORK_PIECES | _PERIODIC_WORK
        while words and (words[-1] in _NOT_PROJECTS or words[-1].casefold() in _CALENDAR_NAMES):
            if inside and _QUARTER_RE.fullmatch(words[-1]):
                break
            words.pop()
        if not words or (len(words) == 1 and words[0] in _NOT_PROJECTS) or words[0] in {"I", "We"}:
            continue
        if len(words) == 1 and words[0].isupper() and words[0].casefold() in _ADVERBS:
            continue  # "Zirc was pushed back AGAIN": a word shouted, no project
        if len(words) == 1 and (
            words[0].casefold() in _SECTION_WORDS | _NO_PROJECT or words[0].casefold() in _CALENDAR_SHORT
        ):
            continue  # "Handover: the Kestle flow ships Thursday", "(joined Mon)", "Green, cutover …": a label, a day
        if _NAMED_AS_PERSON_RE.search(clause, 0, match.start()):
            continue  # "owner Zsófia Ambrus, launch target 7 October": the owner is no project
        if _PLACED_BEFORE_RE.search(clause, 0, match.start()):
            continue  # "the app goes live in Vashegy on 2 May": where, not what
        if words[0] in {"Project", "Projects", "Programme", "Program", "Operation"} and len(words) > 1:
            words = words[1:]  # "Project Tarnóc": Tarnóc
        name = " ".join(words)
        possessive = re.search(r"['’]s?$", name)
        version = _VERSION_RE.match(clause, match.end())
        if version and not possessive:
            name += version.group(0)
        tail = None if possessive else _PROJECT_TAIL.match(clause, version.end() if version else match.end())
        if tail and _EVENT_RE.search(tail.group(0)):
            tail = None  # "the Atlas kickoff is …": an event of the project, not a project of its own
        name = name[: possessive.start()] if possessive else name + (tail.group(0) if tail else "")
        name = re.sub(r"\s+(?i:go-?live)$", "", name)  # "the Zirc go-live is …": Zirc's day
        start = match.start()
        lead = _LOWER_LEAD_RE.search(clause, 0, start)
        if lead and (_SCHEDULE_RE.search(lead["lead"]) or re.search(r"(?:ed|ing)\s", lead["lead"])):
            lead = None  # "pushed Zirc GA to …", "bumping Kestle 1.2 …", "release Tisza 4 …": a verb, no name
        if lead and words[0] == match.group(0).split()[0]:
            # "Risks: billing CSV rewrite slipped …", "Blocked on: iOS 19 SDK bump due …": the words before the
            # capitalised ones, from a label's colon or the line's start, are the name's too
            name, start = f"{lead['lead']}{name}", lead.start("lead")
        elif school_year := _SCHOOL_YEAR_RE.search(clause, 0, start):
            name, start = f"{school_year.group(0)}{name}", school_year.start()  # "the Year 3 Vikings project"
        projects.append((start, _project_name(name) or name))
    return projects


# a school's year group before the name of its class's piece of work
_SCHOOL_YEAR_RE = re.compile(r"\bYear\s+\d{1,2}\s+$")
# lower-case words before a capitalised name that begin at a line's start or after a label, a bullet or "the"
_LOWER_LEAD_RE = re.compile(
    r"(?:^|[:—–•*]\s+|(?<![\w-])-\s+|\b(?:the|our)\s+)"
    rf"(?P<lead>(?:(?!(?:{'|'.join(sorted(FUNCTION_WORDS))})\b)(?:[a-z][a-z-]*|[a-z]+[A-Z][\w-]*|\d+)\s+){{1,2}})$"
)


# a thing by the name its code gives it, with its release ("zirc-ui 5.0", "kestle_router v2", "tisza 2.0"); not a
# thing of a name ("Kestle app 2.0")
_CODE_NAME_RE = re.compile(
    # (not a word before a day written with dots: "agreed for 2.12.2025")
    r"(?<![\w@/.'’-])(?:[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?=\s+v?\d+\b)|[a-z][a-z0-9]{2,}(?=\s+v?\d+\.\d)"
    r"(?!\s+\d{1,2}\.\d{1,2}\.\d{4}\b)"
    # a release by its number alone ("v3.2 got pushed to the 14th")
    r"|v\d+(?:\.\d+)+(?=\s+(?:is|was|has|got|slipped|slips|slipping|ships|moved|pushed|due)\b))(?![\w-])"
)
_AFTER_A_NAME_RE = re.compile(rf"[{_UPPER}][\w'’-]*\s+$")
# "Kestle 2.0", "Kestle v3", "Kestle 2" (not "Kestle 3 weeks late")
# a release by its number alone, opening the clause, before a verb of schedule ("3.1 is slipping to 9 May",
# "2.0 pushed to Friday"): a project's release in a project's own channel
_RELEASE_NUMBER_RE = re.compile(
    r"^\s*(?P<number>v?\d+\.\d+(?:\.\d+)?)\s+(?=(?:is\s+|has\s+|was\s+|now\s+|got\s+)*(?:slip\w*|push\w*|delay\w*|"
    r"mov\w*|ship\w*|land\w*|release\w*|due|scheduled|planned|set|goes\s+out|bump\w*)\b)"
)
_VERSION_RE = re.compile(
    r"\s+(?>v\d+(?:\.\d+)*|\d+(?:\.\d+)*)\b(?!\s*(?:%|(?:days?|weeks?|months?|years?|hours?|times|people)\b))"
)
# the lower-case words a project's name goes on with, up to its verb, its colon or the dash of a status line ("Kestle
# mobile — due 7 May", "Kestle offline mode pinned: …"), and a version after them ("Kestle app 5.0 — target …")
_PROJECT_TAIL = re.compile(
    r"(?:\s+(?!(?:is|was|has|have|had|been|got|gets|be|being|will|would|should|must|can|could|may|might|shall|now|"
    r"again|also|just|due|on|for|to|remains|stays|still|"
    r"looks|seems|keeps|needs|goes|\w+ed)\b)[a-z][\w-]*){1,3}"
    r"(?:\s+v?\d+(?:\.\d+)*\b)?(?:\s+(?:launch|release|GA)(?=\s))?"
    r"(?=\s*:|\s+[—–]\s|\s*(?:→|->)|,\s+(?:due|target|eta|deadline)\b|\s+(?:is|was|has|got|slipped|ships|launches|GA|goes\s+live|"
    r"pushed|moved|delayed|lands|pinned|locked|on\s+track|set\s+for|scheduled|planned|targeted|due|now|still|slips|"
    r"slipping|moves|moving|shifted|shifting|launching|landing|agreed|confirmed|fixed)\b"
    # ("Zirc checkout (ships 3 Apr)": its day in brackets after its words)
    r"|\s*\((?=(?:ships|launches|lands|due|eta|target|go-live|goes\s+live)\b))"
)


def _next_month_day(day: date, months: int) -> date | None:
    month = day.month - 1 + months
    try:
        return day.replace(year=day.year + month // 12, month=month % 12 + 1)
    except ValueError:  # the 31st of a shorter month
        return None


def _before_the_day(was: date, day: date) -> date:
    """The day a project had before it moved to ``day``: a day read ahead that falls a year after the new one is the
    year before ("slipped from 9 Mar to 23 Mar", said on 16 March: the 9th just gone), a weekday read ahead after the
    new one the week before."""
    if was > day and was.year > day.year:
        try:
            return was.replace(year=was.year - 1)
        except ValueError:  # 29 February
            return was
    if day < was < day + timedelta(days=7):
        return was - timedelta(days=7)  # "Monday → Wednesday", said on a Monday: today, not next week's
    return was


def _ahead(day: date, said: str, today: date) -> date:
    """A day a plan names without its year or week is the next such day ("on Friday", "to 3 March")."""
    if day == today and re.fullmatch(r"(?i:(?:on|by)\s+)?[A-Za-z]+day", said.strip()) and said.strip()[-5:] != "today":
        return day + timedelta(days=7)  # "it's due Friday", said on a Friday: the next one
    if day >= today or re.search(r"\b\d{4}\b|\blast\b|\bago\b", said):
        return day
    parts = [part for part in _SPAN_TO.split(said.strip()) if part.strip()]  # "Tuesday to Thursday": both days
    if parts and all(re.fullmatch(r"(?:(?:on|from|by)\s+)?[A-Za-z]+day", part.strip()) for part in parts):
        while day < today:
            day += timedelta(days=7)
        return day
    weekday = re.fullmatch(
        r"(?:(?:on|by|from|to|until)\s+)?((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)",
        said.strip(),
        re.IGNORECASE,
    )
    if weekday:
        # "to the 23rd": the next month that has that day; "Wed the 17th", "Monday 21st": the next one that falls on
        # that weekday
        for months in range(1, 25):
            later = _next_month_day(day, months)
            if later is not None and later >= today and (not weekday[1] or later.weekday() == day.weekday()):
                return later
        return day
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day


def _asserted(pattern: _Pattern, clause: str, start: int, end: int) -> bool:
    """The clause asserts, rather than wishes, plans, supposes or hedges; nothing before the match negates it. A hedge
    anywhere in the clause hedges it ("I live in Szeged, I think"); a wish or a plan counts up to the statement's own
    end, the next comma or "and" / "but" after the match ("I live in Szeged, and my cat will attend every call")."""
    before = clause[:start]
    if pattern.attribute in _PLANS_STATE:
        return not _NOT_ASSERTED.search(_PLAN_WORDS.sub(" ", clause))
    clause = _NAMED_LIKE_A_VERB_RE.sub("", clause)  # "Will Ames moved to Leeds": a name, not a plan
    # "I live in Eger, so if you visit, call me": what follows "so" after the statement is its consequence
    consequence = _CONSEQUENCE_RE.search(clause, end) or _LATER_CONDITION_RE.search(clause, end)
    # "I speak Czech, happy to translate if the client calls": the condition of what a later clause offers
    offered = _OFFERED_IF_RE.search(clause, end)
    if (
        offered
        and not _HEDGED.search(offered["offer"])
        and (consequence is None or offered.start() < consequence.start())
    ):
        consequence = offered
    hedged_part = clause[: consequence.start()] if consequence else clause
    # "I report to Dorka now; payroll will catch up, I think": a sentence of its own after a semicolon
    hedged_part = hedged_part[: hedged_part.find(";", end) % (len(hedged_part) + 1)]
    if _MAY_RE.search(hedged_part) or _HEDGED.search(hedged_part):
        return False
    own = _STATEMENT_END.search(clause, end)
    said = clause[: own.start() if own else len(clause)]
    if pattern.negated and pattern.attribute == v.SPEAKS:  # "I can't speak a word of Slovak" says one doesn't
        said = re.sub(r"\b(?:can't|can’t|cannot|can\s+not)\b", " ", said, flags=re.IGNORECASE)
    if _ASSUMED_RE.search(before):
        return False  # "Dorka assumes I speak Slovak": what others suppose, not what is
    if pattern.attribute not in _WHERE_ONE_IS:
        # "for the Marrakech trip, Bence speaks Darija": a visit hedges where one lives or works, not what one speaks
        said = _VISIT_WORDS_RE.sub(" ", said)
    # "Not much to say, I'm the new office manager", "don't worry — Bence speaks it": its own clause
    negating = re.split(r",\s|\s[—–]\s", before)[-1]
    return not _NOT_ASSERTED.search(said) and not re.search(r"\b(?:not|never|n't)\b", negating, re.IGNORECASE)


_WHERE_ONE_IS = frozenset({v.LIVES_IN, v.WORKS_AT_ATTR})
_VISIT_WORDS_RE = re.compile(rf"\b(?:{_VISIT_WORDS})\b", re.IGNORECASE)


# a name that is also a modal verb or a hedge, written as a name: before another name, or opening the clause
_NAMED_LIKE_A_VERB_RE = re.compile(r"\b(?:Will|May|Hope|Faith|Trust)(?=\s+[A-Z])")
# words that hedge a whole clause wherever they stand in it
_HEDGED = re.compile(
    # "one of maybe fifteen thousand": a number guessed at, the statement around it still asserted
    r"\b(?:(?:maybe|perhaps|probably)(?!\s+(?:\d|a\s+(?:dozen|hundred|thousand|few)|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a\s+hundred|half)\b)|supposedly|"
    r"apparently|rumou?r(?:ed)?|think|thinks|guess|believe|reckon|not\s+sure|potentially|possibly|tentatively|"
    rf"unsure|heard|seems?|if|unless|whether|pretty\s+sure|{_DONT_HOLD_ME}|iirc|afaik|yeah\s+right|oh\s+sure|jk|as\s+if)\b"
    r"|🙄|/s\b",
    re.IGNORECASE,
)
_ASSUMED_RE = re.compile(r"\b(?:assumes?|assumed|assuming|presumes?|presumed)\b", re.IGNORECASE)
_STATEMENT_END = re.compile(r"[,;]\s|\s[—–]\s|\s+(?:and|but)\s")
_CONSEQUENCE_RE = re.compile(r"[,;]\s*(?:so|which\s+means|that\s+means)\s", re.IGNORECASE)
# a condition after the statement with a consequence of its own: "Réka owns the checklist, and if it breaks, page
# Bence" (the condition is the paging's, not the owning's)
_OFFERED_IF_RE = re.compile(
    r"[,;]\s+(?!(?:if|unless|whether)\b)(?P<offer>[^\w,;.!?]*\w[^,;.!?]*?)\s(?:if|unless|whether)\b", re.IGNORECASE
)
_LATER_CONDITION_RE = re.compile(r"[,;]\s*(?:(?:and|but|so)\s+)?(?:if|unless)\s[^,;.!?]+,\s", re.IGNORECASE)


# a change said in the present, as a plan is ("passes to", "is moving to")
_YET_TO_COME_RE = re.compile(r"\b(?:passes|moves|transfers|shifts|goes|(?:is|are)\s+(?:moving|passing|transferring))\b")


def _a_day_to_come(clause: str, today: date) -> bool:
    """Whether the clause dates what it says after the day it was said, other than as the day a change took effect
    from ("as of 1 April")."""
    return any(
        mention.start > today and not _FROM_DAY_RE.search(clause, 0, mention.span[0])
        for mention in _clause_dates(clause, today)
    )


# a possessive that makes the one named only the way to someone else ("Bence's deputy", "Dorka's manager's manager")
_POSSESSED_AFTER_RE = re.compile(r"(?:['’]s?)(?:\s+[a-z]|\s*$)")


def _facts_of(
    pattern: _Pattern, match: re.Match[str], clause: str, offset: int, speaker: str | None, today: date
) -> list[StatedFact]:
    """The facts one match states: its value, an earlier value it names ("from X to Y", "instead of X", "took over S
    from X"), the employer a title is held at, and one fact a subject or value when it names several."""
    if not (pattern.after_negation or pattern.presupposed) and not _asserted(
        pattern, clause, match.start(), match.end()
    ):
        return []
    if pattern.presupposed and (supposed := _SUPPOSED_RE.search(clause, 0, match.start())):
        # "If I ever get a dog, my dog Bodri will be spoiled": a world supposed, not this one; but "if anyone spots a
        # stranger feeding our cat Mák" supposes a visit, and the cat is had
        if pattern.attribute != v.HAS_PET or _GETTING_RE.search(clause, supposed.start(), match.start()):
            return []
    if pattern.check is not None and not pattern.check(match):
        return []
    if pattern.attribute == v.OWNED_BY and _YET_TO_COME_RE.search(match.group(0)) and _a_day_to_come(clause, today):
        return []  # "ownership of Zirc passes to Tisza on 1 April", said in March: a handover yet to be made
    if pattern.attribute == v.HAS_PET and not pattern.negated and _PET_GONE_RE.search(clause):
        return []  # "our dog Rex passed away": a pet no longer had
    groups = match.groupdict()
    # "reports to Elodie, not Ambrose": the words naming the old value after the new one negate nothing
    after = groups.get("old") and groups.get("value") and match.start("old") > match.end("value")
    said = match.group(0)[: match.end("value") - match.start()] if after else match.group(0)
    if pattern.attribute == v.DUE_DATE and groups.get("date"):
        # "due the 19th and we will not make it": what the clause goes on to say negates no day
        day_said = re.split(r"[,;]|\s+(?:and|but|so)\s+", groups["date"], maxsplit=1)[0]
        said = said[: match.start("date") - match.start()] + day_said
    negated_inside = re.search(r"\b(?:not|n't|never|no\s+longer)\b", said, re.IGNORECASE)
    if not pattern.negated and not pattern.after_negation and negated_inside:
        return []
    subjects = _subjects(pattern.attribute, match, speaker)
    values = _values(pattern.attribute, match, speaker, today)
    if pattern.attribute == v.REPORTS_TO_ATTR and groups.get("value") == "me":
        values = [speaker.strip()] if speaker and speaker.strip() else []  # "reports to me": to the speaker
    if groups.get("and_me") and speaker and speaker.strip():
        values = [*values, speaker.strip()]  # "maintained by Réka and me": both
    if pattern.attribute in _PERSON_VALUED:
        if pattern.attribute == v.REPORTS_TO_ATTR and (
            _POSSESSED_AFTER_RE.search(groups.get("value") or "") or _POSSESSED_AFTER_RE.match(clause, match.end())
        ):
            return []  # "reports to Bence's deputy", "is Dorka's manager's manager": someone else, unnamed
        # "my manager (I …)" names no manager; "IT", a department, is one
        values = [
            said for said in values if said.casefold() not in _PRONOUNS_AS_NAMES or (len(said) > 1 and said.isupper())
        ]
    if pattern.attribute == v.JOB_TITLE:
        # "stepping down as head of legal": a post being left, not one held
        # (nor "a new grad": no post at all)
        values = [
            _post_only(value, match.group(0))
            for value in values
            if value.split()[0].casefold() not in _NO_POST_YET and _role_head(value) not in _NOT_JOBS
        ]
        named = _ORG_IN_POST_RE.search(groups.get("value") or "")
        # (a name of two words or more: "an Analytics engineer" works in analytics)
        if named and len(named["org"].split()) > 1 and _business_name(named["org"]) and not groups.get("org"):
            # "a Tisza Analytics engineer": the post, and the organisation named before it is where it is held
            within = f"{named['org'].casefold()} "
            values = [" ".join(value.replace(within, "", 1).split()) for value in values]
            groups = {**groups, "org": named["org"]}
        org = (groups.get("org") or "").strip()
        if org and _a_function(org) and re.search(rf"\bof\s+(?:the\s+)?{re.escape(org)}", match.group(0)):
            # "VP of Engineering": the function the post heads, not where it is held
            values = [f"{value} of {org.casefold()}" for value in values]
            groups = {**groups, "org": None}
    if not subjects or not values:
        return []
    since, until = _interval(pattern, match, clause, today)
    if pattern.ended:  # the day the statement gives is when the value ended, not when it began
        since, until = None, min(since or today, today)
    if pattern.attribute == v.JOB_TITLE and (former := _FORMER_RE.match(values[0])):
        # "the former head chef at Vashegy Bistro": a post held before, and where
        values = [values[0][former.end() :]]
        since, until = None, until or today
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
        corrected = (
            after
            and pattern.attribute in _CONTRASTED
            and _a_correction(clause, match.string[match.end("value") : match.start("old")])
        )  # "Zirc is owned by Tisza, not Kestle": a correction, no owner before
        old = None if corrected else _earlier(pattern.attribute, {**groups, "said": match.group(0)}, speaker, today)
        old = old or _contrasted(pattern, clause, match)
        if old and pattern.attribute == v.DUE_DATE and values:  # "slipped from 9 Mar to 23 Mar": the 9th before it
            old = _before_the_day(date.fromisoformat(old), date.fromisoformat(values[0])).isoformat()
        if old and old.casefold() not in {value.casefold() for value in values}:
            ended = since if since and since <= today else today
            facts.append(
                StatedFact(subject, pattern.attribute, old, None, ended, False, pattern.confidence * 0.9, span)
            )
        held_at = groups.get("org") or groups.get("org2")  # (where a post is held, before it or after it)
        if held_at and pattern.attribute == v.JOB_TITLE:
            held_from = None if (pattern.history and not since) else since  # "served as CTO of X until 2022": ended
            facts.append(StatedFact(subject, v.WORKS_AT_ATTR, held_at.strip(), held_from, until, False, 0.7, span))
    return facts


# an organisation's name inside a post written in lower case ("a senior Tisza Analytics engineer")
# ("an ex-Tisza Analytics engineer": the former one's)
_ORG_IN_POST_RE = re.compile(rf"(?:^|(?<=\s)|(?<=\bex-))(?P<org>{NAME})\s+(?=[a-z][\w-]*$|[a-z][\w-]*\s+[a-z][\w-]*$)")


# what a supposition about having a pet says: "if I ever get a dog", "if we adopted one"
_GETTING_RE = re.compile(
    r"\b(?:get|gets|got|getting|adopt\w*|have|had|buy|bought|rescue\w*|owned|own|take\s+in)\b", re.I
)
_SUPPOSED_RE = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|would|wish|someday|one\s+day)\b|\b(?:I|we)['’]d\b", re.IGNORECASE
)
# the value a statement sets its new one against, after it: "These days I report to Dorka, not Bálint", "… rather
# than to Bálint", "…, before it was Bálint"
# "now" said after a value, before what it is set against
_NOWADAYS = r"(?:\s+(?:now|these\s+days|nowadays))?"
_CONTRAST_TAIL_RE = re.compile(
    rf"{_NOWADAYS}\s*,?\s*(?:{_RATHER_WORDS}|before\s+(?:it|that)\s+was)"
    rf"\s+(?:to\s+|at\s+|in\s+|with\s+|under\s+)?(?P<old>{NAME}|{_HANDLE})(?=\s*(?:[.,;!)]|$|\s+any\s*more\b))"
)
# the same said as what held before, after a break: "…; previously it was with Team Zirc", ", formerly at Zirc",
# "; before that he lived in Pécs" — by the preposition the attribute takes its value with, so that a renamed
# company ("Kestle, formerly Zirc Labs") or a value of another attribute ("at Kestle now, previously in Pécs") is not
# read as the one before
_EARLIER_TAIL_RE = re.compile(
    rf"{_NOWADAYS}\s*[,;]\s*(?i:previously|formerly|before\s+that|until\s+then)\s*,?\s+"
    r"(?:(?P<who>it|this|that|they|he|she|I|we)\s+(?:was|were|sat|lived|worked|reported|belonged)\s+)?"
    rf"(?:(?P<by>[a-z]+)\s+)?(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})(?=\s*(?:[.,;!)]|$))"
)
# the values one holds at a time that a statement may set against the one before, each by the prepositions it takes
_EARLIER_BY: dict[str, frozenset[str]] = {
    v.LIVES_IN: frozenset({"in"}),
    v.WORKS_AT_ATTR: frozenset({"at", "with", "for"}),
    v.REPORTS_TO_ATTR: frozenset({"to", "under"}),
    v.OWNED_BY: frozenset({"with", "by"}),
}
_CONTRASTED = frozenset(_EARLIER_BY)


def _a_correction(clause: str, between: str) -> bool:
    """Whether the words between a value and another ("…, not X") correct it rather than tell what it was before: a
    "not", in a clause that tells no change."""
    return bool(re.match(r"\W*not\b", between)) and not _CHANGED_RE.search(clause)


# what says a value changed, so that "not X" after it is the value before ("I report to Réka now, not Bence")
_CHANGED_RE = re.compile(
    r"\b(?:now|these\s+days|nowadays|since|as\s+of|(?:from|starting)\s+(?:today|tomorrow|this|next|\w+day)|effective|"
    r"any\s*more|"
    r"moved|switched|changed|new|joined|took\s+over|used\s+to|it\s+was|before)\b",
    re.IGNORECASE,
)


def _contrasted(pattern: _Pattern, clause: str, match: re.Match[str]) -> str:
    """The earlier value a statement of a new one names after it, for a value one holds at a time."""
    if pattern.attribute not in _CONTRASTED or pattern.negated or pattern.history:
        return ""
    contrast = _CONTRAST_TAIL_RE.match(clause, match.end())
    if contrast is None:
        earlier = _EARLIER_TAIL_RE.match(clause, match.end())
        if (
            earlier is None
            # a pronoun's verb alone ("it was Team Zirc") needs no preposition; with one, only the attribute's own
            or not (earlier["by"] in _EARLIER_BY[pattern.attribute] or (earlier["who"] and earlier["by"] is None))
            # ("Bence lives in Eger; previously I lived in Pécs": someone else's before)
            or (earlier["who"] in ("I", "we")) != bool(match.groupdict().get("me"))
        ):
            return ""
        contrast = earlier
    if re.search(r"['’]s?$", contrast["old"]):
        return ""  # "Tisza Ops' responsibility, not Kestle's": whose it is, corrected; no one it was before
    if _a_correction(clause, clause[match.end() : contrast.end()]):
        return ""  # "I live in Eger, not Pécs!": a correction, no value before — unless the clause tells a change
    if re.fullmatch(_HANDLE, contrast["old"]):
        return contrast["old"] if pattern.attribute == v.OWNED_BY else ""  # a team by its handle owns things only
    return _person(contrast["old"]) or ""


def _a_function(name: str) -> bool:
    """Whether a name after a title's "of" is a function the post heads ("Engineering", "Protein Engineering")."""
    return name.split()[-1].casefold() in _FUNCTIONS


def _post_only(title: str, said: str) -> str:
    """A title without the organisation it is held at ("CTO of Redmarrow" is a CTO); a function it heads stays
    ("VP of Engineering")."""
    written = re.search(rf"(?i:{re.escape(title)})", said)
    head, of, org = (written.group(0) if written else "").partition(" of ")
    if of and re.fullmatch(NAME, org) and not _a_function(org):
        return head.casefold()
    return title


_TITLE_FIRST_RE = re.compile(
    r"(?:VP|SVP|EVP|AVP|Head|Chief|Director|Dir|Lead|Manager|Principal|Senior|Sr|Staff|C[A-Z]O|CISO)\b"
)
_TITLE_FIRST_ANY_CASE_RE = re.compile(_TITLE_FIRST_RE.pattern, re.IGNORECASE)  # "Kestle's head of sales is N"
_PRONOUNS_AS_NAMES = frozenset("i me he she him her they them we us you it".split())
# the first word of a post being taken or left, not held ("stepping down as CTO", "moving into sales")
_NO_POST_YET = frozenset(
    "stepping moving working leaving joining starting becoming taking going coming staying being getting looking "
    "trying covering filling made named appointed promoted hired sr jr snr"
    # ("Bodri is the real lead designer": a joke, no post)
    " real".split()
)
# capitalised words that open a clause without naming anyone
_NOT_A_NAME = frozenset(
    "He She They We You It This That There Then Now So And But Also Our My Your His Her Their The A An Everyone "
    "Nobody Someone Somebody Everybody Anyone Anything Everything Something Nothing Who What When Where Which Since "
    "After Before While Because Once If "
    "Though Although Noted Note Yes No Well Oh Still Just Today Yesterday Tomorrow Last Next Finally Apparently "
    "Luckily Sadly Honestly Anyway Meanwhile Recently Lately Both Everyone's I've I'm I'd I'll I’ve I’m I’d "
    "I’ll He's She's It's We're They're You're He’s She’s It’s We’re They’re You’re He'd She'd They'd We've "
    "They've That's That’s There's There’s Here's Here’s What's What’s Who's Who’s Let's Let’s "
    "TIL FYI PSA IMO IMHO BTW TBH NGL AFAIK IIRC FWIW ICYMI PS NB Re Fwd Hi Hello Hey Dear Met Meet Call "
    "Called Spoke Emailed Pinged Asked Told Thanks Thank Welcome Welcomed Congrats Congratulations Please Ownership "
    "Quick Was Were Is Are Been Got Did Does Do Getting Having Being Going Making Taking Looking Working Moving "
    "Starting Joining Leaving Coming Trying Feeling Running Living Spending Heading Planning Settling Back In On At By "
    "From During Until Till As Welcoming Introducing Several Many Most Some All Few Each Every Half Anybody For With "
    "Without About Regarding Following Like Unlike Here Even Only Maybe Perhaps Sometimes Usually Otherwise Instead "
    "Overall Basically Actually Interviewed Hired Visited Saw Heard Watched Reviewed Discussed Talked Chatted Caught "
    "Ran Bumped Went Had Took Made Sent Booked Signed Shipped Fixed Deployed Merged Wrote Move Keep Use Add Make Ask "
    "Send Based Given Sure Year Reorg First Second Third Fourth Firstly Secondly Thirdly Lastly Currently Presently "
    "Formerly Previously Originally Happy Glad Excited Thrilled Proud Sad Sorry Lovely Born Raised Bred Big Great "
    "Huge Good Confirmed Agreed Decided These Those Nowadays Later Soon Whatever Whoever However Never Always "
    # the words a note's heading opens with ("Onboarding buddy notes for N: …", "Handover — …")
    "Onboarding Offboarding Handover Handoff Recruiting Hiring Staffing Scheduling Pairing Mentoring Coaching "
    "Interviewing Interview Notes Update Updates Reminder Recap Summary Agenda Minutes Status Retro Retrospective "
    "Standup Changelog Announcement Action Actions Decision Decisions Todo Heads-up Heads-down "
    # the parties a ticket or a note speaks of, capitalised as a sentence opens ("Customer asked N again")
    "Customer Customers Client Clients Caller User Users Fwiw Btw Fyi Imo Imho Tbh Ngl Afaik Iirc Tldr "
    # the words a notice or a profile opens with before the one it is about ("Condolences to N —", "Staff profile: N"),
    # and a profile's or a résumé's sections ("Current: analyst @ Kestle", "EXPERIENCE", "Hobbies: …")
    "Condolences Farewell Personal Staff Current Hobbies Interests About Bio Profile PROFILE Experience EXPERIENCE "
    "Summary SUMMARY Education EDUCATION Skills SKILLS Why How Bilingual Trilingual Fluent "
    # an assistant's or a bot's line in a pasted chat speaks for no one ("Assistant: you now report to Inês")
    "Assistant Bot "
    # the words a sentence opens with before the one it names ("Newly elected …", "Family is still in …")
    "Newly Family Parents Kids Folks Guys".split()
)
_NOT_A_NAME_WORDS = "|".join(sorted(map(re.escape, _NOT_A_NAME), key=len, reverse=True))


def _person(name: str | None) -> str | None:
    """A name as written, without the clause-opening words before it ("Since Ana" is Ana); None when nothing is
    left or the first word is no name."""
    words = (name or "").split()
    # "Since Ana", "Cousin Efa", "Mr. Zsófia Ambrus": the words before a name that are no part of it ("Dr. Nwosu",
    # a surname with its honorific, is how the person is named)
    while (
        words
        and (
            words[0] in _NOT_A_NAME
            or words[0].casefold() in _CALENDAR
            or _RELATIVE_TITLE_RE.fullmatch(words[0])
            or (_HONORIFIC_RE.fullmatch(words[0]) and len(words) > 2)
            or (_POST_BEFORE_NAME_RE.fullmatch(words[0]) and len(words) > 1)  # "reports to CFO Bence Vass": Bence Vass
            # "our TA Mr Vass": a post before the honorific the name is said with
            or (len(words) > 2 and _HONORIFIC_RE.fullmatch(words[1]) and not _HONORIFIC_RE.fullmatch(words[0]))
            # "Volunteer Bence Vass", "Pt Dorka Fehér": a part or a post before a name in full
            or (len(words) > 2 and words[0].casefold() in _BY_THEIR_PART and words[1][:1].isupper())
            # ("Harpist Dorka Fehér", "Violist Bence Vass": a player's part, said as a post before the name)
            or (len(words) > 2 and re.fullmatch(r"[A-Z][a-z]{2,}ist", words[0]) and words[1][:1].isupper())
        )
    ):
        words.pop(0)
    words = _without_a_post_before(words)
    if words and words[0] in {"of", "de", "van", "von", "&"}:
        return None  # "Ownership of Quillon": a thing's name, not a person's
    if len(words) == 1 and _KIN_WORD_RE.fullmatch(re.sub(r"['’]s$", "", words[0])):
        return None  # "Dad's dog", "Dad's got a heeler": whose, but no one named
    if len(words) == 1 and words[0].casefold() in _CALENDAR_NAMES and (name or "").split()[0] in _DATING_WORDS:
        return None  # "In May", "Since May": a month, where a preposition puts it
    return " ".join(words) or None


# who a person is to a record, written before their name ("Owner Réka Tóth", "Tenant Bence Vass")
_PARTY_WORDS = frozenset({"owner", "patient", "tenant", "landlord", "member", "guardian", "applicant"})


def _without_a_post_before(words: list[str]) -> list[str]:
    """A full name without the capitalised post or party written before it ("Rota Coordinator Bence Vass", "Owner
    Réka Tóth": Bence Vass, Réka Tóth); the words as they are when no first and last name would remain."""
    if len(words) < 3 or not all(word[:1].isupper() for word in words):
        return words
    posts = [at for at, word in enumerate(words[:-2]) if word.casefold() in v.ROLE_NOUNS | _PARTY_WORDS]
    return words[posts[-1] + 1 :] if posts else words


# a post's letters before a name ("CFO Bence Vass", "VP Dorka Tóth")
_POST_BEFORE_NAME_RE = re.compile(r"C[A-Z]{1,2}O|S?VP|EVP|GM")
# an organisation by the word its registration ends in: no person, whatever it is said to do
_COMPANY_SUFFIX_RE = re.compile(r"\s(?:Ltd|Inc|GmbH|LLC|plc|PLC|Corp|AG|BV|Pty|SA|S\.A\.|Kft|Zrt|Oy|AB|AS)\.?$")
# a relative called by what they are to the speaker, not by a name
_KIN_WORD_RE = re.compile(
    r"(?:Mum|Mom|Mam|Mama|Mother|Dad|Papa|Father|Grandma|Grandpa|Grandad|Granddad|Granny|Gran|Nan|Nana|Auntie|Oma|Opa|"
    r"Abuela|Abuelo|Nonna|Nonno|Lolo|Tita|Tito|Appa|Amma|Babcia|Dziadek|Dede|Nene|Yiayia|Papou)"
)
_DATING_WORDS = frozenset("In On Since By From During Until Till Before After".split())
# a relation or an honorific before a name ("Cousin Efa", "Uncle Rhodri", "Mr. Zsófia Ambrus")
_RELATIVE_TITLE_RE = re.compile(r"(?:Cousin|Uncle|Aunt|Auntie|Grandma|Grandpa|Granny|Nana)")
_HONORIFIC_RE = re.compile(r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Cllr|Councillor|Rev|Revd|Fr|Sr|Sir|Dame|Capt|Sgt|Hon)\.?")


def _subjects(attribute: str, match: re.Match[str], speaker: str | None) -> list[str]:
    subjects = _named_subjects(attribute, match, speaker)
    if attribute in _THING_ATTRIBUTES:
        return subjects
    # "the Quillon API moved from Fulfilment to Warehouse Tech": a system has no home, employer or manager; "flat 3B"
    # is nobody
    # ("Bence Vass — Principal Engineer at Kestle, based in Eger": a post is no one's name)
    return [
        re.sub(r"(?<=\w)['’][sd]$", "", subject)  # "Zsófia's Czech is good", "he said he'd moved": Zsófia, he
        for subject in subjects
        if _a_person(subject) and not (attribute != v.JOB_TITLE and _POST_NAME_RE.fullmatch(subject))
    ]


# a post written as a name: "Principal Engineer", "Head of Sales"
_POST_NAME_RE = re.compile(
    r"(?:(?:Senior|Principal|Staff|Lead|Chief|Head|Junior|Associate|Managing|Executive|Vice)\s+)+"
    r"(?:[A-Z][a-z]+\s+){0,2}(?:Engineer|Designer|Manager|Director|Officer|Scientist|Analyst|Architect|Consultant|"
    r"President|Editor|Producer|Counsel|Partner)|Head\s+of\s+[A-Z][\w ]+"
)


def _a_person(name: str) -> bool:
    """Whether a subject a pattern read can be a person's name."""
    last = name.split()[-1].casefold()
    return last not in v.KIND_HEAD_NOUNS and last not in _THING_WORDS and not name[:1].isdigit()


# the nouns of things a person is not ("the Runbook lives in the wiki")
_THING_WORDS = frozenset(
    "runbook runbooks playbook doc docs readme wiki dashboard dashboards repo spreadsheet checklist hq headquarters "
    "office offices branch campus".split()
)


# a possessive inside an institution's name: "Children's Hospital", "St Mary's School", "Women's Institute"
_POSSESSIVE_INSTITUTION_RE = re.compile(
    r"['’]s\s+(?:Hospital|Clinic|School|College|Academy|Church|Home|Hospice|Institute|Trust|Centre|Center|University|"
    r"Primary|Secondary|Infirmary|Surgery|Cathedral|Office|Department|Bureau)\b"
)


# a thing's name in brackets after its words: "the deploy bot (Zirc)"
_CALLED_IN_BRACKETS_RE = re.compile(rf"\s*\((?P<name>[{_UPPER}][\w-]+(?:\s+[{_UPPER}][\w-]+)?)\)")


# the things a plural statement is about before its last, just before it ("the invoice renderer and the ", "the
# renderer, the font cache and ")
_THINGS_BEFORE_THE_LAST_RE = re.compile(
    rf"(?:^|(?<=[:;,]\s))(?:[Tt]he\s+)?(?P<things>{_THING}(?:,\s+(?:the\s+)?{_THING}){{0,4}}),?\s+and\s+(?:the\s+)?$"
)
_PLURAL_COPULA_RE = re.compile(r"\s+(?:are|were|have\s+been)\b")


def _owned_beside(match: re.Match[str], system: str) -> list[str]:
    """The things a plural statement of ownership names before the one its pattern read, listed up to its "and"."""
    if not _PLURAL_COPULA_RE.match(match.string, match.end("system")):
        return []
    second = match.start("system") + len(re.match(r"(?:and\s+)?(?:the\s+)?", system).group(0))
    if " and " not in match.string[: second + 1]:
        return []
    before = _THINGS_BEFORE_THE_LAST_RE.search(match.string, 0, second)
    return re.split(r",\s+(?:the\s+)?", before["things"]) if before else []


def _named_subjects(attribute: str, match: re.Match[str], speaker: str | None) -> list[str]:
    groups = match.groupdict()
    if attribute == v.OWNED_BY:
        owner = groups.get("value") or ""
        # "ownership of", "owned by", "is Tisza's now": anything is owned (the "now" may stand after the match)
        named = bool(_OWNERSHIP_RE.search(match.string[match.start() : match.end() + 6]))
        listed = [part for part in re.split(r"\s*,\s*(?:the\s+)?", groups.get("more") or "") if part]
        system = groups["system"]
        if system and (before := _owned_beside(match, system)):
            listed = [*before, *listed]  # "the invoice renderer and the PDF cache are owned by …": both
        if system and (called := _CALLED_IN_BRACKETS_RE.match(match.string, match.end("system"))):
            if not any(word[:1].isupper() for word in system.split()[1:]) and (
                not system[:1].isupper() or _opens_its_line(match.string, match.start("system"))
            ):
                system = called["name"]  # "I own the deploy bot (Zirc)", "Rota tool (Zirc) is …": by its name
        systems = [
            _system_name(system, owner=owner, named=named),
            *(_system_name(part, owner=owner, named=named) for part in listed),
            _system_name(groups.get("also") or "", owner=owner, named=named),
        ]
        return [system for system in systems if system]
    if attribute == v.DUE_DATE:
        project = _project_name(groups["project"])
        return [project] if project else []
    if groups.get("whom"):  # "Piet manages Noor and Omar"
        return [name for name in map(_person, _listed(groups["whom"])) if name]
    if groups.get("me") or groups.get("mine") or groups.get("ours") or groups.get("home"):
        return [speaker.strip()] if speaker and speaker.strip() else []
    who = groups.get("who")
    if who and re.sub(r"['’](?:ve|d)$", "", who.strip()) == "We" and "ours" in match.re.groupindex:
        return [speaker.strip()] if speaker and speaker.strip() else []  # "We had to rehome our collie": the household
    if who and _GOVERNED_BY_A_PREPOSITION_RE.search(match.string, 0, match.start("who")):
        return []  # "Responsibility for Zirc moved to Tisza", "my aunt in Pécs has a dog": not who moved, or whose
    if who and _COMPANY_SUFFIX_RE.search(who.strip()) and attribute != v.WORKS_AT_ATTR:
        return []  # "Kestle Ltd: … reports to N": an organisation reports to no one, lives nowhere
    if who:
        words = who.split()
        if words and words[0] in {"Since", "After", "When", "Once"} and len(words) > 1 and words[1] == "I":
            return [speaker.strip()] if speaker and speaker.strip() else []
        person = _person(who)
        if person == "I":  # "Since March I've been …"
            return [speaker.strip()] if speaker and speaker.strip() else []
        return [person] if person else []
    return []


# a name that is the object of a preposition is not the subject of the verb after it ("Responsibility for Zirc moved
# to …", "my aunt in Pécs has a dog"); narrower than _PLACED_RE, since after "with" or "at" alone the name may still be
# whom the clause is about ("Spoke with N at Kestle, he moved to …")
_GOVERNED_BY_A_PREPOSITION_RE = re.compile(
    rf"\b(?:(?i:for|of|about|regarding|concerning)|(?:{_RELATION})\s+(?:in|from|near))\s+(?:the\s+)?$"
)


def _a_pet_of_kind(kind: str) -> str:
    """An unnamed pet as its kind names one ("two dogs": "a dog", "puppies": "a puppy")."""
    kind = " ".join(kind.split())
    return f"a {_PET_PLURALS.get(kind.casefold()) or re.sub(r's$', '', kind)}"


def _listed(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*[/&+]\s*", text) if part.strip()]


def _values(attribute: str, match: re.Match[str], speaker: str | None, today: date) -> list[str]:
    groups = match.groupdict()
    if attribute == v.DUE_DATE:  # "on 13 May instead of 9 May": the day before "instead of"; "…, and Quillon on 16 May"
        day = _due_day(_RATHER_RE.split(_ANOTHER_PROJECT_RE.split(_WAS_FROM_RE.split(groups["date"])[0])[0])[0], today)
        return [day.isoformat()] if day else []
    if attribute == v.SPEAKS:
        spoken = (re.search(rf"{_LANGUAGE_WORD}|{_ANY_CASE_LANGUAGE}\b", part) for part in _listed(groups["value"]))
        words = (language.group(0) for language in spoken if language)
        return [word if word[:1].isupper() else word.title() for word in words if _a_language(word)]
    if attribute == v.HAS_PET:
        if groups.get("value"):
            # "Meet Bodri, our new puppy": the name without the word that opens the sentence
            names = [re.sub(rf"^(?:{_NOT_A_NAME_WORDS})\s+(?=\S)", "", name) for name in _listed(groups["value"])]
            names = [name for name in names if name not in {"I", "me"}]  # "my rabbit Pamacs and I": the speaker
            if groups.get("kind2"):  # "a dog and a cat named Pogi": the names are the second kind's
                names.append(_a_pet_of_kind(groups["kind"]))
            return names
        return [_a_pet_of_kind(groups[group]) for group in ("kind", "kind2") if groups.get(group)]
    if attribute == v.JOB_TITLE:
        title = " ".join(groups["value"].split())
        # "CFO of Tisza Mills": the post, and where it is held; not "VP of Sales", "Head of Data"
        held_at = re.search(r"\s+of\s+(?P<org>[A-Z].+\s(?P<last>.+))$", title)
        # ("CTO of Kestle Health": a chief's post is of an organisation, whatever its name's words)
        chief = re.match(r"C[A-Z]{1,2}O\s", title)
        if held_at and (chief or (_business_name(held_at["org"]) and held_at["last"].casefold() not in _FUNCTIONS)):
            title = title[: held_at.start()]
        return [
            re.sub(
                # ("a Pécs-based designer": where one is based is no part of the post)
                r"^(?:(?:new|newest|latest|current|currently|permanent|their|our|his|her|its|my|the|an?|first|"
                r"\S+-based)\s+)+",
                "",
                title.casefold(),
            )
        ]
    if (attribute == v.OWNED_BY and groups.get("me")) or groups.get("me_value"):  # "no longer reports to me"
        return [speaker.strip()] if speaker and speaker.strip() else []
    if attribute == v.OWNED_BY and (groups.get("value") or "").strip() == "I":  # "I don't own S any more"
        return [speaker.strip()] if speaker and speaker.strip() else []
    if groups.get("towns"):  # "has lived in Győr, Pápa and Zirc": each
        return [town for town in map(_person, _listed(groups["towns"])) if town]
    value = (groups.get("value") or "").strip()
    if _PLACEHOLDER_RE.fullmatch(value):
        return []  # "Quillon dashboard → TBD": nobody yet
    if attribute == v.OWNED_BY:
        # ("And Réka runs our Kestle registry": Réka)
        # (only where the owner opens the statement: "owned by Customer Success" is a team's whole name)
        opening = match.start("value") == match.start()
        value = _team_name(re.sub(rf"^(?:{_NOT_A_NAME_WORDS})\s+(?=[{_UPPER}])", "", value) if opening else value)
        value = " ".join(_without_a_post_before(value.split()))  # "owned by Rota Coordinator Bence Vass"
        called = _CALLED_IN_BRACKETS_RE.match(match.string, match.end("value"))
        if called and re.search(r"['’]s$", value):
            value = called["name"]  # "owned by Réka's team (Tisza)": the team by its name, not by whose it is
    elif attribute == v.WORKS_AT_ATTR:
        # "works at Kestle's Polish arm": Kestle; but an institution's name holds its possessive ("St Anne's Hospital")
        if not _POSSESSIVE_INSTITUTION_RE.search(value):
            value = re.sub(r"['’]s(?:\s.*)?$", "", value)  # ("joined Kestle's design team": Kestle)
    else:
        value = _person(value) or ""
    if not value or value in _NOT_A_NAME or value.casefold().rstrip(".") in _CALENDAR_SHORT:
        return []  # "moved to Thurs": a day, not a place
    return [value]


def _a_language(word: str) -> bool:
    """A capitalised word after a verb of speaking that can be a language: not a name's opening word, a day or a
    month ("speaks Monday"), nor a pronoun."""
    return word not in _NOT_A_NAME and word.casefold() not in _CALENDAR_NAMES


def _earlier(attribute: str, groups: dict, speaker: str | None, today: date) -> str | None:
    """The earlier value a statement of change names: "moved from Boston to Denver", "reports to Noor instead of
    Piet", "took over the billing service from Piet", "handed S to T" (the hander), "changed from analyst"."""
    old = groups.get("old")
    if old == "me":  # "now reports to Noor rather than to me"
        return speaker.strip() if speaker and speaker.strip() else None
    if not old:
        changed = re.search(r"\bfrom\b(?P<was>.+?)\bto\b", groups.get("said") or "")
        rather = _RATHER_RE.search(groups.get("date") or "")
        if rather and rather.group(0).casefold() == "not":
            rather = None  # "Thursday, not Friday": a correction, the other day never held
        if attribute == v.DUE_DATE and (changed or rather):  # "moved from 30 June to 15 July", "… instead of 9 May"
            days = _dates(changed["was"], today) if changed else []
            later = [] if changed else _dates(groups["date"][rather.end() :], today)
            day = days[0] if days else later[0] if later else None
            return _ahead(day, groups["date"], today).isoformat() if day else None
        return None
    if attribute == v.JOB_TITLE:
        return " ".join(old.casefold().split())
    if re.fullmatch(r"(?:I|me)(?:['’](?:ve|m|d))?", old.strip()):
        return speaker.strip() if speaker and speaker.strip() else None
    if old.strip() in _NOT_A_NAME or old.strip() in {"we", "us", "he", "she", "they"}:
        return None  # "we handed Zirc over to Tisza": whoever "we" are, the text does not name them
    return _team_name(old) if attribute == v.OWNED_BY else _person(old)


def _team_name(value: str) -> str:
    """A team named as the graph names it: "the Payments team" is the entity "Payments"."""
    return re.sub(rf"^[Tt]he\s+|\s+{_TEAM_WORDS}$", "", value.strip())


def _dates(text: str, today: date) -> list[date]:
    return [mention.start for mention in tag_dates(text, reference=today) if not mention.ambiguous]


# where a due date's phrase ends and the sentence goes on to ask or tell something else
_DUE_PHRASE_END_RE = re.compile(
    r"[,;]\s+(?=(?:please|pls|so|then|we|you|they|I|merge|ship|send|make|let['’]?s|get|code|freeze)\b)"
    # "…; the team offsite is the 12th": another thing's day
    r"|;\s+(?=(?:the|our|an?|this|that)\s)"
    # "…, and docs must be final by the 10th": another thing's day
    r"|[,;]?\s+and\s+(?=(?:the\s+|our\s+)?[a-z][\w-]*\s+(?:must|should|need|needs|has\s+to|have\s+to)\b)"
    # "…, QA signs off Wednesday": another doer's part and its day
    r"|,\s+(?=[A-Z][\w-]*\s+(?:signs?|reviews?|tests?|starts?|begins?|needs?|wants?|will|must|should|can)\b)"
)


def _due_day(text: str, today: date) -> date | None:
    """The day a project is due: the last date the phrase gives ("moved from 30 June to 15 July" is 15 July; "at the
    end of the quarter, on 30 September" is 30 September), the next such day when it names no year."""
    text = _DUE_PHRASE_END_RE.split(text, maxsplit=1)[0]  # "is Friday, please merge by Wednesday": Friday
    mentions = [m for m in tag_dates(text, reference=today) if not m.ambiguous]
    mentions = _not_when_said(mentions)
    if not mentions or (mentions[-1].start != mentions[-1].end and not _SPAN_TO.search(mentions[-1].text)):
        return None  # "sometime in June": a month, a quarter, a season is no day a project is due
    last = mentions[-1]
    if last.start != last.end:  # "slipped from Monday to Wednesday": the day it moved to
        return _ahead(last.end, _SPAN_TO.split(last.text)[-1], today)
    return _ahead(last.start, last.text, today)


_SAID_NOW_RE = re.compile(r"(?i:today|tonight|now|this\s+(?:morning|afternoon|evening)|yesterday)")


def _not_when_said(mentions: list) -> list:
    """A phrase's day mentions without those of its saying ("9 Oct, agreed with sales today": when it was said is not
    when it is due), unless they are all it has."""
    return [mention for mention in mentions if not _SAID_NOW_RE.fullmatch(mention.text)] or mentions


# words that start no owned thing ("took over it all", "owns his …"), and, alone, name none ("the role", "the team")
# a system named the way code names it: lower case words joined by hyphens, underscores or dots
_IDENTIFIER_RE = re.compile(r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+")
# pieces of work a person is assigned, not systems a team owns
_WORK_ITEMS = frozenset(
    {"ticket", "issue", "bug", "task", "story", "epic", "incident", "pr", "jira", "card", "request"}
)
_PRONOUNS = frozenset(
    {"it", "this", "that", "which", "he", "she", "they", "we", "you", "i", "her", "his", "their", "my", "our", "as",
     "over", "all", "everything"}
)  # fmt: skip
_NOT_THINGS = _PRONOUNS | {"role", "job", "team", "one"}
# words that count things of a kind rather than name one
_SOME_OF_A_KIND = frozenset("a an some several many few couple any no each every two three four".split())
_CLAIMED_RE = re.compile(r"\b[A-Z][\w-]*\s+(?:says|said|thinks|claims|reckons)\s")  # (not "the claims-intake API")
_PET_HEADS = frozenset(kind.split()[-1] for kind in v.PET_KINDS)


# (and a thing said to have become someone's: "the ledger is officially Kestle Core's now")
_OWNERSHIP_RE = re.compile(
    r"\b(?:ownership|owned\s+by|owners?\s+of|maintained\s+by|belongs\s+to)\b|(?<=\w)['’]s\s+(?:now|since)\b",
    re.IGNORECASE,
)


_COPULAS = frozenset("is are was were been be has have had".split())


# what a clause opens with before the thing it names: a joining word ("And the Quillon macros are …"), a time
# ("from today, Quillon", "since yesterday the Quillon API"), or a time before "the" ("since Monday the …")
_TIME_BEFORE_THING_RE = re.compile(
    r"^(?:(?:and|but|so|also|plus)\s+"
    r"|(?:(?:from|as\s+of|since)\s+)?(?:today|now|currently|tomorrow|this\s+(?:morning|afternoon|week)|yesterday),?\s+"
    r"|(?:(?:since|as\s+of|from|starting)\s+)?(?:(?:this|last|on)\s+)?(?:morning|afternoon|evening|week|month|weekend|"
    + "|".join(sorted(_CALENDAR_NAMES))
    + r")(?:\s+\d{1,2}(?:st|nd|rd|th)?)?,?\s+(?=the\s)"
    # ("Since April 1 the Zirc project is owned by …": the rest of a day the pattern did not take)
    r"|\d{1,2}(?:st|nd|rd|th)?,?\s+(?=the\s))*",
    re.IGNORECASE,
)


def _system_name(raw: str, *, owner: str, named: bool = False) -> str:
    """The system a statement of ownership is about: a name ("Ledger") or a phrase ending in a system's head noun
    ("the billing service"), or anything a team owns ("the Payments team owns billing") or the words say is owned
    (``named``: "ownership of the translation memory moved to …"); anything else ("as head of design", "a dog") is no
    system."""
    said = _TIME_BEFORE_THING_RE.sub("", raw.strip())
    said = re.sub(r"(?<=\w)['’]s$", "", said)  # "Zirc's run by Tisza Ops": Zirc is
    said = re.sub(r"^(?:for|of|about)\s+", "", said, flags=re.I)  # "responsibility for the Kestle API": the API
    # "owns Quillon from here on", "… going forward"
    said = re.sub(r"\s+(?:from\s+(?:here|now|today)(?:\s+on)?|going\s+forward)$", "", said, flags=re.I)
    said = re.sub(r"\s+(?:at|in)\s+(?:work|home|the\s+office)$", "", said)  # "I own the build servers at work"
    # "owns the Zirc checklist from now on", read up to the time it names: no name ends in a preposition
    said = re.sub(r"\s+(?:from|to|at|in|on|for|with|by|of|as)$", "", said, flags=re.I)
    if re.search(rf"\s(?:at|in)\s+{NAME}$", said):
        return ""  # "N, who runs support at Kestle": a function headed where one works, no system
    # "Zsófia wrote the runbook but tisza-auth is owned by …": the clause after the last conjunction is about it
    said = re.split(r"\s+(?:but|so|while|whereas|although|though|yet)\s+", said)[-1]
    if re.search(r"\s(?:but|and|or|so|while|whereas|yet)$", said):
        return ""  # "the service sits in our monorepo but is owned by …": what a clause says, no name
    # "the deploy scripts she maintained now belong to …": the thing, without who had it
    said = re.sub(r"\s+(?:that\s+|which\s+)?(?:he|she|they|I|we)\s+(?:owned|ran|built|maintained|kept)$", "", said)
    # ("Its config store is owned by Tisza", "the city's parking app": the thing, by its words)
    # ("our payroll pipeline", "their billing service": the thing, whosever it was called)
    words = re.sub(
        r"^(?:[Tt]he\s+|[Ii]ts\s+|[Oo]ur\s+|[Tt]heir\s+|(?:[Tt]he\s+)?[a-z]+['’]s\s+(?=[a-z]))+", "", said
    ).split()
    while words and (words[-1].casefold() in _ADVERBS or words[-1].casefold() in _COPULAS):
        words.pop()  # "Quillon is now officially owned by …": Quillon
    if not words or words[0].casefold() in _PRONOUNS or (len(words) == 1 and words[0].casefold() in _NOT_THINGS):
        return ""
    if words[0].casefold() in _SOME_OF_A_KIND or _CLAIMED_RE.search(" ".join(words)):
        return ""  # "a few dashboards": which, the statement does not say; "Ops says the stack": a claim
    if all(word.casefold().strip(".,") in _CALENDAR_NAMES | _CALENDAR_SHORT for word in words):
        return ""  # "Bence takes over Monday": the day a duty passes, no system
    if len(words) == 1 and words[0].casefold() in v.KIND_HEAD_NOUNS:
        return ""  # "the service belongs to SRE": which service, the statement does not say
    if words[0].casefold() in _WORK_ITEMS:
        return ""  # "Ticket QUIL-42 was reassigned to Nandor": a piece of work assigned, not a system owned
    named_for = re.search(r"\s(?:for|of)\s+(?:the\s+)?(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)$", " ".join(words))
    if named_for and words[0][:1].isupper():  # "Escalation path for Quillon: owned by …": Quillon is
        words = named_for["name"].split()
    if _IDENTIFIER_RE.fullmatch(words[-1]) and all(word.islower() for word in words):
        return words[-1]  # "quillon-gateway", "the legacy kestle_sync": a system named as its code names it
    if (
        len(words) == 2
        and words[0][:1].isupper()
        and words[0].casefold() in v.KIND_HEAD_NOUNS
        and _IDENTIFIER_RE.fullmatch(words[1])
    ):
        return words[1]  # "Pipeline kestle-sync", "Service zirc-api": a label's kind, then its code name
    head = words[-1].casefold()
    if head in _NOT_THINGS and head not in v.OWNED_THING_NOUNS or head in _PET_HEADS:
        return ""  # a pet is had, not owned as a system ("Pickles the tortoise is owned by Marguerite")
    if re.fullmatch(_TEAM_WORDS, head):
        return ""  # "N runs the Zirc platform group": a group is led, not owned
    # ("the Zirc dashboards", "the Kestle bindings": a thing's noun in the plural names things of that kind)
    heads = {head, head[:-1]} if head.endswith("s") and len(head) > 3 else {head}
    if any(noun in v.KIND_HEAD_NOUNS or noun in v.OWNED_THING_NOUNS for noun in heads) or words[0][:1].isupper():
        return " ".join(words)
    if (
        len(head) > 4
        and head.endswith(("er", "or"))
        and head not in v.ROLE_NOUNS
        and not re.fullmatch(_RELATION, head)
        and (len(words) > 1 or raw.strip()[:4].lower() == "the ")
    ):
        return " ".join(words)  # "the fraud scorer", "currency converter": a thing named by what it does
    if named or re.search(rf"\s{_TEAM_WORDS}$", owner.strip()):
        return " ".join(words)
    return ""


def _project_name(raw: str) -> str:
    """A project as a due date names it: a name or a few words ("Orion", "Q3 report", "billing migration")."""
    words = raw.strip().split()
    if not words or " ".join(words).casefold() in {"the", "a", "an", "this", "that", "it"}:
        return ""
    while words and words[-1].casefold() in _ADVERBS:  # "Kestle v2 now ships …"
        words.pop()
    if len(words) > 1 and words[-1].casefold() in _SCHEDULE_VERB_WORDS:
        words.pop()  # "**Z24.19 ships:** Tuesday": a heading's verb, no part of the name
    if len(words) > 2 and [word.casefold() for word in words[-2:]] in (["target", "date"], ["target", "day"]):
        words.pop()  # "Kestle target date: 30 September": Kestle's day
    if len(words) > 1 and words[-1].casefold() in {"target", "targets", "eta"}:
        words.pop()  # "Kestle target GA: 30 September": Kestle's day
    if len(words) > 1 and re.search(r"['’]s$", words[0]):  # "Zsófia's Kestle rollout": the project, not whose it is
        words.pop(0)
    elif len(words) == 1:
        words[0] = re.sub(r"['’]s$", "", words[0])  # "Kestle's launch slipped to …": Kestle
    if len(words) > 1 and words[0] in {"project", "programme", "program"} and words[1][:1].isupper():
        words.pop(0)  # "our project Tisza": Tisza
    if len(words) > 1 and words[0] == "new":
        words.pop(0)  # "the new intranet project": the project, however new
    if (
        len(words) > 1
        and words[0].casefold() in {"your", "my", "our", "their", "his", "her"}
        and words[1][:1].isupper()
    ):
        words.pop(0)  # "your Zirc portal launch is due …": whose it is is no part of its name
    if len(words) > 2 and words[0].casefold() in {"launch", "release", "rollout", "delivery"} and words[1] == "of":
        words = words[2:]  # "Launch of the Zirc app is slipping to …": the Zirc app
    if any(word in _SPEAKERS_WORDS for word in words):
        return ""  # "the rewrite I'm stuck with": which one, only the speaker knows
    if not words or words[0].casefold() in _NOT_THINGS:
        return ""
    if words[0] in _NOT_A_NAME and not (words[0] == "Year" and len(words) > 2 and words[1].isdigit()):
        return ""  # (but a school year's project is named by its year: "the Year 3 Vikings project")
    if _EVENT_RE.search(" ".join(words)):
        return ""  # "the launch party", "Zsófia's passport renewal": an event or an errand, no project
    if " ".join(words).casefold() in _NO_PROJECT:
        return ""  # "Changelog: …", "Amber, go-live 3 May", "GA release is …": a heading, a status, a stage
    return " ".join(words)


_SCHEDULE_VERB_WORDS = frozenset({"ships", "launches", "lands", "releases"})
_SPEAKERS_WORDS = frozenset({"I", "I'm", "I’m", "I've", "I’ve", "we're", "we’re", "we", "you", "you're", "you’re"})
# what a status line or a release note says before a day that names no project: a heading, a status, a stage
_NO_PROJECT = frozenset(
    """changelog status update release notes green amber red yellow rag ga rc beta alpha release launch cutover
    go-live milestone target eta pls plz please btw imo tbh""".split()
) | {"release notes", "status update", "ga release"}


# words that go with a statement's verb, not with the name before it ("Kestle now ships", "Quillon itself is owned")
_ADVERBS = frozenset(
    "now still again finally officially currently itself also too just yesterday today tonight tomorrow recently "
    "lately earlier anyway anyhow though either".split()
)


@lru_cache(maxsize=256)
def _clause_dates(clause: str, today: date) -> tuple:
    """The clause's date mentions, read once for all the matches in it; "since the May reorganisation" is since May
    (the article blanked, so that every mention keeps its place in the clause)."""
    if "the " in clause:
        clause = _MONTH_AS_NOUN_RE.sub(lambda m: " " * len(m.group(0)), clause)
    return tuple(tag_dates(clause, reference=today))


_MONTH_AS_NOUN_RE = re.compile(
    r"(?:(?<=\bsince )|(?<=\bafter )|(?<=\bbefore )|(?<=\bfrom )|(?<=\buntil )|(?<=\bin ))the "
    rf"(?=(?i:{'|'.join(sorted(_MONTH_NAMES))}) [a-z]+)"
)


_FROM_DAY_RE = re.compile(r"\b(?:as\s+of|from|starting(?:\s+on)?|effective)\s*$", re.IGNORECASE)


def _nearest(mention, today: date):
    """A day a change takes effect on, said without its year ("effective 1 July"), is the one nearest the day it
    was said, coming or gone — not a year back because the sentence is in the perfect ("has been promoted")."""
    if re.search(r"\b\d{4}\b", mention.text) or mention.start != mention.end:
        return mention
    days = [day for day in (_next_month_day(mention.start, months) for months in (-12, 0, 12)) if day is not None]
    nearest = min(days, key=lambda day: abs((day - today).days))
    if nearest == mention.start or (nearest - today).days > 62:
        return mention  # not a day soon to come: the tense's reading stands
    return replace(mention, start=nearest, end=nearest)


# a clause of its own after what a sentence says used to be: its time is not the used-to's
_SUBORDINATE_RE = re.compile(r"\b(?:before|after|when|since|until|till|because|while|once)\s+(?:I|we|he|she|they)\b")


# where a clause's statements part, for what "used to", "previously" or "until" says of one of them; after a
# statement, also where a statement of its own follows it ("… and previously taught in Eger", "… (Zirc had it until
# 2023)", "…, not Zirc as it used to be")
_STATEMENTS_PART_RE = re.compile(r"[;,]\s|\s[—–]\s|\s+but\s")
_STATEMENT_AFTER_RE = re.compile(rf"{_STATEMENT_END.pattern}|\s\(|\s+as\s+(?:it|they|he|she|we|I)\b")


def _of_another_statement(clause: str, said_before: re.Match[str], match: re.Match[str]) -> bool:
    """Whether a clause's word of what held before is said of another of its statements than ``match``: "Bence
    lives in Eger now; previously in Pécs", "Zirc used to be ours, but Tisza has it now" (not
    "Previously, I worked at Kestle")."""
    if said_before.start() >= match.end():
        return bool(_STATEMENT_AFTER_RE.search(clause, match.end(), said_before.start()))
    between = clause[said_before.end() : match.start()].lstrip(" ,")
    return bool(_STATEMENTS_PART_RE.search(between))


def _interval(pattern: _Pattern, match: re.Match[str], clause: str, today: date) -> tuple[date | None, date | None]:
    """(valid_from, valid_until) of the fact: a date the clause gives (the start of "last month", "since 2021"), else
    the day it was said; a statement about the past ends at the date after "until", else (a "used to") the day it
    was said."""
    if pattern.attribute == v.DUE_DATE:
        return today, None
    mentions = _clause_dates(clause, today)
    # a day said after a semicolon belongs to the statement there ("S is owned by T; the patch ships on 9 July")
    own_start = clause.rfind(";", 0, match.start()) + 1
    own_end = clause.find(";", match.end()) % (len(clause) + 1)
    mentions = tuple(mention for mention in mentions if own_start <= mention.span[0] < own_end)
    if begun := max((end.end() for end in _STATEMENT_END.finditer(clause, 0, match.start())), default=0):
        # another statement before this one in the clause: this one's own date, the first said after it ("My
        # contract at Kestle began last week, and we moved into a flat in Zirc on Saturday"), else the first said in
        # its own part of the clause ("I moved over the weekend, and since today I report to Réka")
        for start in (match.start(), begun):
            own = [mention for mention in mentions if mention.span[0] >= start]
            if own and len(own) < len(mentions):
                mentions = own
                break
    until_at = _UNTIL_RE.search(clause)
    if until_at and _of_another_statement(clause, until_at, match):
        until_at = None  # "I worked in Tallinn until last year, now I live in Tartu": the end of the first
    until = since = None
    for mention in mentions:
        spans_until = until_at is not None and mention.span[0] < until_at.start() < mention.span[1]
        if spans_until and mention.start < mention.end:
            since, until = since or mention, until or mention.end  # "from 2015 until 2021": both ends, one mention
        elif until_at is not None and mention.span[1] > until_at.end():
            until = until or mention.end
        elif since is None and (mention.start <= today or _FROM_DAY_RE.search(clause, 0, mention.span[0])):
            since = mention  # a day to come counts when it is when the value starts ("as of 1 July I live …")
            if _FROM_DAY_RE.search(clause, 0, mention.span[0]):
                since = _nearest(since, today)
    said_before = _HISTORY_RE.search(clause)
    if said_before and _of_another_statement(clause, said_before, match):
        said_before = None
    if said_before and not pattern.history and re.search(r"\bnow\b", clause[said_before.end() : match.end()]):
        said_before = None  # "I used to live in Zirc, now in Kőszeg": the value after "now" holds now
    if said_before and _SUBORDINATE_RE.search(clause, said_before.end(), match.end()):
        said_before = None  # "We used to have a cat before we moved to Eger": the move is not what used to be
    if pattern.history or said_before or (until is not None and until < today):
        # ("S was maintained by N until 2024": a value that ended on a day already past)
        if until is None:
            # "I lived in Boston in 2015": over that period; "I used to live in Boston": until it was said
            until = since.end if since is not None and since.end < today else today
        start = since.start if since is not None and since.start < until else None
        return start, until
    return (since.start if since is not None else today), None


# --- records: the "Label: value" fields of a directory entry, a CRM card, a service catalogue or a tracker ---------

# A field: a label of a few words, a colon, and its value up to the next separator or the next label. What a label
# names comes from the vocabulary (``Attribute.fields``); whom the record is about, from its subject field, else its
# heading, else — for a record about oneself — the speaker.
_FIELD_RE = re.compile(
    r"(?:^|(?<=[\n|•·;])|(?<=[.!]\s))[ \t]*(?:[^:\n]{0,40}?\s[—–]\s+)?[*_-]*[ \t]*"
    # ("Owner ........ Bence Vass": a form's dotted leader in the place of the colon)
    r"(?P<label>[A-Za-z][A-Za-z &/'’-]{0,30}?)(?:[ \t]*\((?P<note>[^()\n:]{1,40})\))?[*_]*"
    r"(?:[ \t]*:|[ \t]+\.{3,})[ \t]*"
    r"(?P<value>(?:\([^()\n]*\)|[^\n|•·;(])*?)[ \t]*(?=[\n|•·;]|$|\s+[A-Z][A-Za-z &/'’-]{0,30}?:\s)",
)
_FIELD_OF: dict[str, str] = {
    label: attribute.value for attribute in v.ATTRIBUTES for label in attribute.fields.split("|") if label
}
# the fields that say whom or what a record is about, by the kind of subject they name
_PERSON_FIELDS = frozenset(
    {"name", "full name", "employee", "person", "member", "contact", "staff", "colleague", "who", "profile",
     "candidate", "applicant", "new hire", "hire", "joiner", "new joiner", "starter", "new starter", "guest",
     "interviewee", "nominee", "client", "new client", "customer", "new customer", "patient", "tenant",
     "new tenant", "intake", "resident", "visitor", "caller"}
)  # fmt: skip
# the fields that give a person's post and employer together, as a card does ("Currently: data analyst at Kestle",
# "Previously: nurse @ St Anne's"); "previously" and its kin say the card held before
_CARD_FIELDS = frozenset({"current", "currently", "now", "today"})
_EARLIER_CARD_FIELDS = frozenset({"previously", "formerly", "before", "prior"})
_POST_ATTRIBUTES = frozenset({v.WORKS_AT_ATTR, v.JOB_TITLE, v.REPORTS_TO_ATTR})
# the labels of a thing's record that say who owns or when it is due
_OWNED_FIELDS = frozenset(label for label, attribute in _FIELD_OF.items() if attribute in (v.OWNED_BY, v.DUE_DATE))
_THING_FIELDS = frozenset(
    {"service", "system", "component", "repo", "repository", "app", "application", "project", "release", "product",
     "item", "workstream", "feature", "deliverable",
     "milestone", "initiative", "epic", "programme", "program", "module", "pipeline", "library",
     "package"}
)  # fmt: skip
_THING_ATTRIBUTES = frozenset({v.OWNED_BY, v.DUE_DATE})
# a team's "Owns: Quillon, Kestle": the heading owns what the field lists
_OWNS_FIELDS = frozenset(v.ATTRIBUTES_BY_VALUE[v.OWNED_BY].value_verbs.split()) | {"responsible for", "owned systems"}
# a label's words that make its value an earlier one ("Previous employer"), or say nothing of it ("New manager",
# "Primary contact")
_EARLIER_LABEL = re.compile(r"^(?:previous|former|prior|old|ex|past|from)[\s-]+")
_PLAIN_LABEL = re.compile(
    r"^(?:(?:their|our|your|his|her|my|current|new|present|primary|main|key|direct|official|to)\s+)+"
)
# a value that is no value: not decided, not filled in, or held for now only
# what a post is head of, not an organisation ("Head of Protein Engineering", "VP of Data Science")
_FUNCTIONS = v.DEPARTMENT_NOUNS | frozenset(
    """engineering science sciences research design media health security search ads advertising commerce retail
    enterprise consumer cloud ai ml privacy policy safety trust innovation architecture sustainability manufacturing
    chain development relations experience insights culture growth partnerships strategy quality communications
    comms reliability digital collections learning education outreach curation conservation""".split()
)
# a value that says there is none yet
_PLACEHOLDER_RE = re.compile(r"(?:tbd|tbc|tba|n/?a|none|nobody|no\s+one|unknown|vacant|unassigned)\.?", re.IGNORECASE)
_NO_VALUE = re.compile(
    r"^(?:tbd|tbc|tba|n/?a|none|nobody|no\s+one|unknown|pending|vacant|open|unassigned|\?+|-+|—|…|\.\.\.)\b|"
    r"\b(?:acting|interim|temporary|tbd|tbc|maybe|probably|hopefully|if)\b",
    re.IGNORECASE,
)
# an entry of someone who has not started: none of its fields holds yet
_NOT_YET = re.compile(
    r"\b(?:not\s+(?:yet\s+)?started|offer(?:ed)?|starts|starting|joining|incoming|awaiting\s+(?:start|their\s+first))\b",
    re.IGNORECASE,
)
_WAS_RE = re.compile(
    r"^\s*(?:was|previously|formerly|(?:transferred|moved|handed\s+over|taken\s+over)\s+from)\s+(?P<old>.+)$",
    re.IGNORECASE,
)
_UNTIL_VALUE = re.compile(r"\b(?:until|till|to|left)\b(?P<when>[^()]*)", re.IGNORECASE)
_BRACKETS_RE = re.compile(r"\s*\(([^()]*)\)\s*")
_LABEL_OF_RE = re.compile(r"^(?P<field>[A-Za-z][A-Za-z -]*?)\s+(?:of|for)\s+(?:the\s+)?(?P<subject>[A-Z][\w&' -]*)$")
# the pieces of work an owner's label may name first, which name no system ("Action owner: N", "Retro owner: N")
_WORK_LABELS = _WORK_ITEMS | frozenset(
    """postmortem post-mortem action page meeting review retro doc document decision item follow-up followup
    escalation report comms communication rollout change risk""".split()
)
_NAME_RE = re.compile(NAME)
_HEADING_PARTS = re.compile(r"\s+[—–-]\s+|:\s+|\s+[|·•›»>]\s+")


def _thing_label(label: str) -> dict[str, str] | None:
    """A label that names a system before its owner's field ("Kestle DRI", "Zirc exporter owner"): the system and
    the field. Not "Payments team", whose field names who is in the team, nor a piece of work's or a bare kind's
    ("Service owner")."""
    words = label.split()
    if not words or not words[0][:1].isupper():
        return None
    for cut in range(1, min(len(words), 4)):
        field = " ".join(words[cut:])
        if field.casefold() == "team" or _FIELD_OF.get(_label(field)[0]) != v.OWNED_BY:
            continue
        thing = [word.casefold() for word in words[:cut]]
        if (
            thing[-1] in _WORK_LABELS
            or (cut == 1 and thing[0] in v.KIND_HEAD_NOUNS)
            or FUNCTION_WORDS.intersection(thing)  # "Zirc has a new owner:" is a sentence, not a label
        ):
            return None
        return {"subject": " ".join(words[:cut]), "field": field}
    return None


def _record_facts(text: str, speaker: str | None, today: date) -> Iterator[StatedFact]:
    """The facts a text states by its layout: a résumé's posts, a table's rows, a schedule's lines, a record's
    fields, a status line's owner."""
    resume = _resume(text)  # whose résumé, read once for its posts and for its fields
    yield from _resume_facts(text, resume, today)
    if ("CODEOWNERS" in text or ("@" in text and _code_owners_only(text))) and not _PROPOSED_RE.search(text):
        # (a proposal for the file states no owner yet; lines that are all a path and its handles are the file's)
        yield from _code_owners(text, today)
    yield from _table_facts(text, today)
    yield from _schedule_facts(text, today)
    yield from _field_facts(text, speaker, today, resume)
    yield from _status_owners(text, today)
    yield from _owners_moved(text, today)
    yield from _speakers_listed(text, today)
    if "├" in text or "└" in text:
        yield from _org_tree(text, today)
    if "eport" in text:
        yield from _reports_listed(text, today)
    if "→" in text or "->" in text:
        yield from _managers_listed(text, today)


# an org chart drawn as a tree: "Réka Tóth — VP Data" / "├── Bence Vass — Head of Analytics" / "│   └── Ilona Kiss"
_TREE_LINE_RE = re.compile(r"^(?P<indent>[ \t│|]*)(?P<branch>[├└]─+|[|`+]--+)?[ \t]*(?P<rest>\S[^\n]*)$", re.MULTILINE)


def _org_tree(text: str, today: date) -> Iterator[StatedFact]:
    """Each person a tree of people draws under another reports to them: the nearest line above at a shallower
    branch; a line without a branch is a root again."""
    above: list[tuple[int, str]] = []
    for line in _TREE_LINE_RE.finditer(text):
        named = _NAME_RE.match(line["rest"])
        who = _person(named[0]) if named else None
        if not who or not _a_person(who) or _a_title(who):
            above = [] if not line["branch"] else above
            continue
        depth = len(line["indent"].expandtabs(4)) if line["branch"] else -1
        while above and above[-1][0] >= depth:
            above.pop()
        if line["branch"] and above:
            yield StatedFact(who, v.REPORTS_TO_ATTR, above[-1][1], today, None, False, 0.7, line.span("rest"))
        elif not line["branch"] and (card := re.match(r"\s*[—–-]\s+(?P<post>[^—–|\n]+)$", line["rest"][named.end() :])):
            yield from _card_facts(who, [card["post"].strip()], today, line.span("rest"))  # the root's own post
        above.append((depth, who))


# an org chart's line of those under one manager: "Reporting to Réka: Bence Vass (Controller), Dorka Szabó"
_REPORTS_LINE_RE = re.compile(
    rf"^[ \t]*[-•*]?[ \t]*(?i:reporting\s+to|reports\s+to|direct\s+reports\s+(?:of|to))[ \t]+(?P<manager>{NAME})[ \t]*:"
    r"[ \t]*(?P<reports>[^\n]+)$",
    re.MULTILINE,
)


def _reports_listed(text: str, today: date) -> Iterator[StatedFact]:
    """Each person an org chart's line lists under a manager reports to them (a post in brackets is the person's)."""
    for line in _REPORTS_LINE_RE.finditer(text):
        manager = _person(line["manager"])
        for said in re.split(r"\s*(?:,|;|\band\b)\s*(?![^()]*\))", line["reports"]):
            name = _NAME_RE.match(said.strip())
            who = _person(name[0]) if name else None
            if manager and who and who != manager and _a_person(who) and not _a_title(who):
                yield StatedFact(who, v.REPORTS_TO_ATTR, manager, today, None, False, 0.7, line.span("reports"))


# a roster's line under a language: "Slovak: Réka Tóth", "Romani: Réka Tóth, Bence Vass"
_LANGUAGE_ROSTER_RE = re.compile(
    # (the indent and the bullet read once: a line of spaces is not tried at each of its splits)
    rf"^[ \t]*+(?:[-•*][ \t]*+)?(?P<language>{_ANY_CASE_LANGUAGE})[ \t]*:[ \t]*"
    rf"(?P<names>{NAME}(?:[ \t]*(?:,|&|and)[ \t]*{NAME})*)"
    r"[ \t]*$",
    re.MULTILINE,
)


def _speakers_listed(text: str, today: date) -> Iterator[StatedFact]:
    """Who speaks each language a roster lists them under (an interpreters' rota, a team's language list); a line
    that names no one ("Czech: vacant") says nothing."""
    for line in _LANGUAGE_ROSTER_RE.finditer(text) if "\n" in text else ():
        language = _known_languages(line["language"])
        for name in re.findall(NAME, line["names"]):
            if language and (who := _person(name)) and _a_person(who) and not _a_title(who):
                yield StatedFact(who, v.SPEAKS, language[0], today, None, False, 0.7, line.span("names"))


_PROPOSED_RE = re.compile(r"\b(?i:proposal|proposed|proposing|suggestion|suggested|draft)\b")


# --- a CODEOWNERS file: a path, then who owns it ("services/billing/  @acme/billing-core  Réka Tóth") -------------

_CODE_OWNERS_LINE_RE = re.compile(
    r"^[ \t]*(?P<path>[\w.*/-]*[/*.][\w.*/-]*)[ \t]+(?P<owners>[^#\n]*[^\s#])", re.MULTILINE
)


# a line that is a path and the handles that own it ("/services/zirc/  @tisza-ops")
_PATH_AND_HANDLES_RE = re.compile(r"[^\s/]*/\S*(?:[ \t]+@[\w/-]+)+")


def _code_owners_only(text: str) -> bool:
    """Whether every line of a text is a path and the handles that own it, or a comment: a CODEOWNERS file."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    paths = [line for line in lines if not line.startswith("#")]
    return bool(paths) and all(_PATH_AND_HANDLES_RE.fullmatch(line) for line in paths)


def _code_owners(text: str, today: date) -> Iterator[StatedFact]:
    """Each path's owners in a CODEOWNERS file: handles, team names, or a person's name written out."""
    for line in _CODE_OWNERS_LINE_RE.finditer(text):
        for owner in re.findall(rf"{_HANDLE}|{NAME}|[a-z][\w-]{{2,}}", line["owners"]):
            yield StatedFact(line["path"], v.OWNED_BY, owner, today, None, False, 0.7, line.span())


# --- a résumé: a name on its first line, then a section of the posts held, one a line ------------------------------

_EXPERIENCE_RE = re.compile(
    r"^[ \t#*]*(?:(?:work|professional|relevant)\s+)?(?:experience|employment(?:\s+history)?|career(?:\s+history)?)"
    r"[ \t*]*:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_LANGUAGES_SECTION_RE = re.compile(r"^[ \t#*]*languages[ \t*]*\n[ \t]*(?P<list>[^\n]+)", re.IGNORECASE | re.MULTILINE)
# the years of a post ("(2019–2022)", "2022 – present")
_POST_YEARS_RE = re.compile(
    r"\(?\s*(?P<start>(?:19|20)\d{2})\s*(?:[–-]|to)\s*(?P<end>(?:19|20)\d{2}|present|now|today|current)\s*\)?",
    re.IGNORECASE,
)


def _resume(text: str) -> tuple[str, int, int] | None:
    """Whose résumé the text is and where its section of posts runs, when it is one: its first line a name (as a
    résumé writes it, perhaps in capitals) and a section headed "Experience" or the like."""
    section = _EXPERIENCE_RE.search(text) if "\n" in text else None
    first = text.strip().split("\n", 1)[0].strip(" \t#*")
    if section is None or not 1 < len(first.split()) <= 4:
        return None
    if not _NAME_RE.fullmatch(first.title() if first.isupper() else first) or _a_title(first):
        return None
    end = re.search(r"\n[ \t]*(?:\n|[^\n:]*:|[A-Z][A-Za-z ]{2,30}[ \t]*\n)", text[section.end() :] + "\n")
    return first, section.end(), section.end() + (end.start() if end else len(text))


def _resume_facts(text: str, found: tuple[str, int, int] | None, today: date) -> Iterator[StatedFact]:
    """A résumé's posts: each line's employer and title ("Kestle — Senior Tester (2022–present)", "Tester, Vashegy
    Bank (2019–2022)"), held over the years the line gives (to the present: still held)."""
    if found is None:
        return
    owner, start, end = found
    for line in re.finditer(r"[^\n]+", text[start:end]):
        years = _POST_YEARS_RE.search(line.group(0))
        said = _POST_YEARS_RE.sub(" ", line.group(0)).strip(" \t•*-")
        parts = [part.strip(" ,") for part in re.split(r"\s+[—–|·-]\s+|,\s+|\s+(?:at|@)\s+", said) if part.strip(" ,")]
        title = next((title for part in parts if (title := _a_title(part))), None)
        org = next((part for part in parts if _NAME_RE.fullmatch(part) and not _a_title(part)), None)
        if org is None:
            continue
        since = date(int(years["start"]), 1, 1) if years else None
        ended = years is not None and years["end"][:1].isdigit()
        until = date(int(years["end"]), 12, 31) if ended else None
        span = (start + line.start(), start + line.end())
        for attribute, value in ((v.WORKS_AT_ATTR, org), (v.JOB_TITLE, title)):
            if value:
                yield StatedFact(owner, attribute, value, since or (None if ended else today), until, False, 0.7, span)
    # a section of its own for languages ("LANGUAGES\nCzech (native), English (fluent)")
    if spoken := _LANGUAGES_SECTION_RE.search(text):
        for language in _known_languages(spoken["list"]):
            yield StatedFact(owner, v.SPEAKS, language, today, None, False, 0.7, spoken.span("list"))


# a list of ownership moves under a heading or label that says so ("Ownership changes:\n- zirc-api: Kestle → Tisza
# Ops", "Owners: Zirc → Tisza Ops. Quillon → TBD.", "Handovers done:", a line of its own "Q3 — current ownership"):
# each thing's new owner, and the one before when its line names it; a thing may be written as code (`zirc-proto`)
_OWNERS_HEADING_RE = re.compile(r"\b(?i:owners?|ownership|handovers?|hand-?offs?)\b[^\n:]*(?::|(?=\n))")
_OWNER_MOVE_RE = re.compile(
    rf"(?:^|(?<=\n)|(?<=[:.;,]\s))[ \t]*(?:[-•*][ \t]+)?(?:[Tt]he\s+)?`?(?P<system>{_THING})`?[ \t]*"
    rf"(?::[ \t]*(?:the\s+)?(?P<old>{NAME}(?:\s+{_TEAM_WORDS})?)[ \t]*)?(?:→|->)[ \t]*(?:the\s+)?"
    rf"(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?)(?=[ \t]*(?:[.;,(]|$))",
    re.MULTILINE,
)


# a line of a list under an owners' heading: a thing, a dash or a colon, its owner ("Zirc login — Identity team")
_OWNER_LINE_RE = re.compile(
    rf"^[ \t]*(?:[-•*][ \t]+)?(?:[Tt]he\s+)?`?(?P<system>{_THING})`?(?:[ \t]+[—–-]|[ \t]*:)[ \t]*(?:the\s+)?(?P<old>)"
    rf"(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?|{_HANDLE})[ \t.]*$",
    re.MULTILINE,
)


# a person's full name: two or three capitalised words, none of them an acronym ("Réka Tóth", not "Zirc SDK")
_FULL_NAME_RE = re.compile(rf"[{_UPPER}][\w'’-]*[^\W\d{_UPPER}](?:\s+[{_UPPER}][\w'’-]*[^\W\d{_UPPER}]){{1,2}}")


def _owners_moved(text: str, today: date) -> Iterator[StatedFact]:
    """The owners a list of ownership moves gives, read only after a heading or a label that names ownership; a
    heading on a line of its own ("Ownership, as of today:") lists a thing and its owner a line."""
    heading = _OWNERS_HEADING_RE.search(text) if "→" in text or "->" in text or "\n" in text else None
    if heading is None:
        return
    lines = list(_OWNER_MOVE_RE.finditer(text, heading.end() - 1)) if "→" in text or "->" in text else []
    if text[heading.end() :].lstrip(":").startswith("\n"):
        lines += _OWNER_LINE_RE.finditer(text, heading.end())
    for line in lines:
        system = _system_name(line["system"], owner=line["value"], named=True)
        if _FULL_NAME_RE.fullmatch(system) and _a_person(system):
            continue  # "Réka Tóth → Bence Kádár": a person's duty handed on, no thing ("Zirc mobile SDK" is a thing)
        if _a_title(system):
            continue  # "Outgoing consultant: Réka Tóth": who holds a post on the handover, no thing owned
        if not system or _NO_VALUE.search(line["value"]) or _person(line["value"]) != line["value"]:
            continue
        yield StatedFact(system, v.OWNED_BY, _team_name(line["value"]), today, None, False, 0.7, line.span())
        if line["old"] and _person(line["old"]) == line["old"]:
            yield StatedFact(system, v.OWNED_BY, _team_name(line["old"]), None, today, False, 0.63, line.span())


# a list of whom each person reports to under a heading that says so ("Line management changes:\n- Réka Tóth →
# Bence Vass (was Dorka Szabó)", "Org chart, person → manager:"): each person's manager, and the one before
_MANAGERS_HEADING_RE = re.compile(
    r"\b(?i:line\s+manage\w*|reporting\s+lines?|reports?\s+to|managers?|org\s+chart)\b[^\n]*(?::[ \t]*)?\n"
)
_MANAGER_LINE_RE = re.compile(
    rf"^[ \t]*(?:[-•*][ \t]+)?(?P<who>{NAME})[ \t]*(?:→|->)[ \t]*(?P<value>{NAME})"
    rf"(?:[ \t]*\((?:was|from|previously)[ \t]+(?P<old>{NAME})\))?[ \t.]*$",
    re.MULTILINE,
)


def _managers_listed(text: str, today: date) -> Iterator[StatedFact]:
    """The managers a list of people and their managers gives, read only after a heading that names managers or
    reporting lines; a line's names are people's, none a thing's or a team's."""
    heading = _MANAGERS_HEADING_RE.search(text)
    if heading is None:
        return
    for line in _MANAGER_LINE_RE.finditer(text, heading.end()):
        names = [line["who"], line["value"], *([line["old"]] if line["old"] else [])]
        if any(_person(name) != name or not _a_person(name) or _NO_VALUE.search(name) for name in names):
            continue
        yield StatedFact(line["who"], v.REPORTS_TO_ATTR, line["value"], today, None, False, 0.7, line.span())
        if line["old"]:
            yield StatedFact(line["who"], v.REPORTS_TO_ATTR, line["old"], None, today, False, 0.63, line.span())


# a directory's line: a person, then what is said of them between dashes or bars, one item their manager ("Bence
# Vass — Senior Accountant — reports to Dorka Szabó", "dir: Bence Vass | sr. accountant | mgr: Dorka Szabó")
_DIRECTORY_LINE_RE = re.compile(
    rf"^[ \t]*(?:[-•*][ \t]+)?(?:[\w ]{{1,30}}:[ \t]*)?(?P<who>{NAME})(?P<items>(?:[ \t]+[—–|][ \t]+[^—–|\n]+)+)$",
    re.MULTILINE,
)
# (a record's "Manager:" field is the record reader's, which knows when the record's job begins)
_MANAGER_ITEM_RE = re.compile(
    rf"^(?:reports?\s+(?:directly\s+)?to|(?i:mgr|reports\s+to)\s*:)\s*(?P<value>{NAME})\s*\.?$"
)


def _managers_in_a_line(text: str, today: date) -> Iterator[StatedFact]:
    """The manager a directory's line names among the items after the person it is about."""
    for line in _DIRECTORY_LINE_RE.finditer(text):
        who = line["who"]
        if _person(who) != who or not _a_person(who):
            continue
        for item in re.split(r"[ \t]+[—–|][ \t]+", line["items"].strip(" \t—–|")):
            if (manager := _MANAGER_ITEM_RE.match(item.strip())) and _person(manager["value"]) == manager["value"]:
                yield StatedFact(who, v.REPORTS_TO_ATTR, manager["value"], today, None, False, 0.7, line.span())


# a status line: a thing, a dash, and its items, one of them its owner ("Kestle portal — in review; owner Réka
# Tóth", "Zirc 5.0 — target 9 Oct; owner: Tisza Ops")
_STATUS_LINE_RE = re.compile(
    rf"(?:^|(?<=[\n.:;]\s)|(?<=\n))[ \t]*(?P<system>{NAME}(?:\s+[a-z][\w-]*)?(?:\s+v?\d+(?:\.\d+)*)?)\s+[—–]\s+"
    r"(?P<items>[^\n.—–]*(?:\.\d[^\n.—–]*)*)"
)
_STATUS_OWNER_RE = re.compile(
    rf"(?:^|[,;]\s*)(?:(?i:project|service)\s+)?(?i:owner)(?::\s*|\s+)(?P<value>{NAME}(?:\s+{_TEAM_WORDS})?)(?=\s*(?:[,;]|$))"
)


def _status_owners(text: str, today: date) -> Iterator[StatedFact]:
    """The owner a status line names among the items after its thing; "owner TBD" names none."""
    if "owner" not in text.casefold():
        return
    for line in _STATUS_LINE_RE.finditer(text):
        owner = _STATUS_OWNER_RE.search(line["items"])
        words = line["system"].split()
        if len(words) > 1 and words[1].islower() and words[1] not in _THING_NOUNS and words[1][:-1] not in _THING_NOUNS:
            words = words[:1]  # "Zirc resumed — …": Zirc, and what befell it
        system = _project_name(" ".join(words))
        if owner and system and not _NO_VALUE.search(owner["value"]) and _person(owner["value"]) == owner["value"]:
            yield StatedFact(system, v.OWNED_BY, _team_name(owner["value"]), today, None, False, 0.7, line.span())


# a schedule: a heading that says so, then a line per project and its day ("Release calendar\n- Kestle 1.4: Tue 9 Dec")
_SCHEDULE_HEADING_RE = re.compile(
    r"\b(?:roadmap|release|releases|timeline|milestones?|launch(?:es)?|calendar|schedule|deadlines?|dates)\b", re.I
)
_SCHEDULED_RE = re.compile(
    rf"^[ \t]*[-•*]?[ \t]*(?:Q[1-4]\s*:\s*)?(?P<project>{NAME}(?:\s+[a-z][\w-]*)?(?:\s+v?\d+(?:\.\d+)*)?"
    r"(?:\s+[a-z][\w-]*){0,2})"
    r"[ \t]*(?::|[—–-]|→|->)[ \t]*(?P<when>[^\n]+)$",
    re.MULTILINE,
)
# a schedule's line that gives the day it had before: "Kestle beta → 17 May (moved from 10 May)"
_SCHEDULED_BEFORE_RE = re.compile(r"\(\s*(?:moved|slipped|pushed)?\s*(?:from|was)\s+[^()]+\)\s*$", re.IGNORECASE)


def _schedule_facts(text: str, today: date) -> Iterator[StatedFact]:
    """The due dates a schedule lists: each line's project and the single day it gives, when the schedule's heading
    says it is one; a line that is an event ("Code freeze"), done, a month or undecided states none."""
    heading = text.lstrip().split("\n", 1)[0]
    if "\n" not in text.strip() or not _SCHEDULE_HEADING_RE.search(heading):
        return
    voices = _chat_voices(text)  # "#release-train\nDorka: …": a channel's chat, its lines' names its voices
    for line in _SCHEDULED_RE.finditer(text, len(text) - len(text.lstrip()) + len(heading)):
        if line["project"] in voices:
            continue
        project = _project_name(re.sub(r"\s+(?:GA|beta|launch|release)$", "", line["project"]))
        when = line["when"]
        if not project or _EVENT_RE.search(line["project"]) or _NO_DUE_RE.search(when) or _NO_VALUE.search(when):
            continue
        if "?" in when or len(when.split()) > 6:
            continue  # a line that asks, or says more than a day: a note's line, not the schedule's
        before = _SCHEDULED_BEFORE_RE.search(when)
        days = [m for m in tag_dates(when, reference=today) if not m.ambiguous and m.start == m.end]
        if len(days) == 1 or (len(days) == 2 and before and days[1].span[0] >= before.start()):
            day = _ahead(days[0].start, days[0].text, today)
            yield StatedFact(project, v.DUE_DATE, day.isoformat(), today, None, False, 0.7, line.span())
            if len(days) == 2:
                was = _before_the_day(_ahead(days[1].start, days[1].text, today), day)
                yield StatedFact(project, v.DUE_DATE, was.isoformat(), None, today, False, 0.63, line.span())


def _field_facts(
    text: str, speaker: str | None, today: date, resume: tuple[str, int, int] | None
) -> Iterator[StatedFact]:
    """The facts a record's fields state. A field is read only under a label the vocabulary gives an attribute, and
    only when the record says whom it is about: a line or an entry of its own with a name field, a heading that is a
    name, or (a record about oneself) the speaker when the text speaks in the first person."""
    fields = list(_FIELD_RE.finditer(text))
    if not fields:
        return
    heading = resume[0] if resume else _heading(text, fields[0].start())
    if heading is None and _label(fields[0]["label"])[0] in _REPORT_WORDS:  # "Postmortem: Zirc memory leak"
        heading = _reported_system(fields[0]["value"])
    labels = {_label(field["label"])[0] for field in fields}
    about_a_person = bool(labels & (_CARD_FIELDS | _EARLIER_CARD_FIELDS)) or any(
        _FIELD_OF.get(label) not in (None, *_THING_ATTRIBUTES) for label in labels
    )
    if heading is None and not about_a_person and labels & _OWNED_FIELDS and not labels & _PERSON_FIELDS:
        # "### Zirc exporter upgrade\nOwner: …\nTarget date: …": a section's title names what its fields are of
        heading = _section_title(text, fields[0].start())
    team_page = heading is None and not labels & _PERSON_FIELDS and _label(fields[0]["label"])[0] in _TEAM_PAGE_FIELDS
    if team_page:
        heading = _team_name(fields[0]["value"].strip()) or None  # "Team page: Tisza / Owns: …": the team's page
    line = _HEADING_LINE_RE.match(text)
    if heading is None and about_a_person and line and line.end() <= fields[0].start():
        # "Call notes — Réka Tóth (referred by Bence)", "Chat with Dorka": whom the notes are of (a lone word before
        # a noun is a thing's name: "Kickoff — Zirc billing pilot")
        named = _headed(text, line)
        if " " in named or re.search(rf"\b(?:with|w/)\s+{re.escape(named)}\b", line[0]):
            heading = named or None
    started, ended = _record_days(fields, today)
    # an entry of someone who has not started, or a change that takes effect later, states no post; a candidate's
    # card still says what they do now ("Currently: …", beside "offer pending")
    not_yet = about_a_person and bool(_NOT_YET.search(text) or (started and started > today))
    if not_yet and not labels & _CARD_FIELDS:
        return
    person = heading
    thing = None if about_a_person and not labels & _THING_FIELDS else heading
    if heading and about_a_person:  # the rest of the heading's line is the person's card ("| Head of Legal |")
        line = text[: fields[0].start()].strip().splitlines()[-1]
        rest = line.split(heading, 1)[-1].strip(" \t|·•—–-")
        if rest and ":" not in rest:
            yield from _card_facts(heading, [rest], today, (0, fields[0].start()))
    if person is None and speaker and speaker.strip() and re.search(r"\b(?:I|my|me|about\s+me)\b", text, re.I):
        person = speaker.strip()
    for field in fields:
        label, earlier = _label(field["label"])
        value = _BRACKETS_RE.sub(" ", field["value"]).strip(" \t.,*_")
        span = (field.start("value"), field.end("value"))
        if label in {"name", "id"} and not about_a_person and labels & _OWNED_FIELDS:
            thing = value if _IDENTIFIER_RE.fullmatch(value) else _project_name(value) or None
            continue  # a catalogue's entry ("- name: zirc-api / owner: tisza"): the name is the thing's
        if label in _PERSON_FIELDS:
            # "Contact: Zsófia Ambrus (Sales Lead, Brightwell)", "…: Zsófia Ambrus, Sales Director"
            person, beside = _beside_a_name(value, field["value"])
            for said in beside:
                yield from _card_facts(person, [said], today, span)
            continue
        if label in _MEMBER_FIELDS:
            yield from _members_managers(field, started or today)
            continue
        # a post written with its employer ("Role: data analyst at Kestle") is a card, as "Currently:" is
        posted = _FIELD_OF.get(label) == v.JOB_TITLE and re.search(r"\s(?:at|@)\s", value)
        if label in _CARD_FIELDS | _EARLIER_CARD_FIELDS or (posted and not not_yet):
            if person and value:
                line_end = text.find("\n", field.end()) % (len(text) + 1)
                said = f"{field['value']} {text[field.end() : line_end]}"  # "…; been there 3 yrs": since when
                yield from _card_field(person, value, said, label in _EARLIER_CARD_FIELDS, today, span)
            continue
        if field is fields[0] and label in _DOCUMENT_LABELS and not about_a_person:
            # "Runbook: zirc-worker / Owner: Tisza": the document is of the system it names first
            thing = value if _IDENTIFIER_RE.fullmatch(value) else _project_name(value) or None
            continue
        if label in _THING_FIELDS:
            thing = _project_name(value) or None
            for said in _BRACKETS_RE.findall(field["value"]):  # "Component: quillon-export (owner: Tisza)"
                inner = re.fullmatch(r"\s*(?P<label>[A-Za-z][A-Za-z -]{0,20}?)\s*:\s*(?P<value>.+)", said)
                attribute = _FIELD_OF.get(_label(inner["label"])[0]) if inner and thing else None
                for owner in _field_values(attribute, inner["value"], today) if attribute in _THING_ATTRIBUTES else ():
                    yield StatedFact(thing, attribute, owner, today, None, False, 0.7, span)
            continue
        if not value or _NO_VALUE.search(field["value"]):
            continue
        owner = person if about_a_person else heading
        if label in _OWNS_FIELDS and owner:
            for system in _listed(value):
                if _system_name(system, owner=owner, named=True):
                    yield StatedFact(
                        system, v.OWNED_BY, owner, _record_since(field["value"], today), None, False, 0.7, span
                    )
            continue
        holder = _NAME_RE.fullmatch(value)
        in_prose = text[: field.start("label")].rstrip(" \t*_-").endswith((".", "!"))
        if (
            holder
            and not in_prose  # "… on Friday. Incident lead: Nandor": a duty in running text, not a post
            and label.split()[-1] in v.ROLE_NOUNS
            and label not in _FIELD_OF
            and label not in _DUTIES  # "Incident commander: N": a duty for a day, no post
            and not _NO_VALUE.search(label)
            # ("Milestone: Alpha | Lead: Dorka": a record of a thing, its lead's field names no post)
            and _label(fields[0]["label"])[0] not in _THING_FIELDS
        ):  # "CFO: Zsófia Ambrus"
            yield StatedFact(
                holder[0], v.JOB_TITLE, label, _record_since(field["value"], today), None, False, 0.7, span
            )
            continue
        attribute = _FIELD_OF.get(label)
        if not_yet and attribute in _POST_ATTRIBUTES:
            continue
        of = None if attribute else _LABEL_OF_RE.match(field["label"].strip()) or _thing_label(field["label"])
        if of and _FIELD_OF.get(_label(of["field"])[0]) in _THING_ATTRIBUTES:
            attribute, thing = _FIELD_OF[_label(of["field"])[0]], _project_name(of["subject"]) or thing
        if attribute == v.OWNED_BY and label == "team" and (about_a_person or team_page):
            continue  # a person's "Team:" is where they sit, not what they own; a team page's, who is in it
        subject = thing if attribute in _THING_ATTRIBUTES else person
        if attribute is None or not subject:
            continue
        since, until = _record_interval(field["value"], earlier, today)
        if started and since == today:
            since = started  # "Start date: 3 March": the record's facts hold from then
        if started and earlier and until == today:
            until = started  # "From manager: N … Effective date: 3 March": N until then
        left = attribute == v.WORKS_AT_ATTR and ended is not None and ended <= today and not earlier
        values = _field_values(attribute, value, today)
        for said in values:
            if said.casefold() != subject.casefold():
                yield StatedFact(subject, attribute, said, today if left else since, until, left, 0.7, span)
        if attribute in _PERSON_VALUED and values:
            # "Reports to: Zsófia Ambrus, CFO", "Manager: Nandor (Head of Data)": the manager's post
            manager, beside = _beside_a_name(value, field["value"])
            for said in beside:
                if title := _a_title(said.strip()):
                    yield StatedFact(manager, v.JOB_TITLE, title, since, None, False, 0.6, span)
        remarks = [part for said in _BRACKETS_RE.findall(field["value"]) for part in re.split(r"\s*[;,]\s*", said)]
        was = next((m for m in map(_WAS_RE.match, remarks) if m), None)  # "(since 2023-11; previously Kestle)"
        # "slipped from 5 Feb to 11 Mar", "3 Mar → 14 Apr": the value before the change
        moved = _MOVED_VALUE_RE.search(value)
        before = (
            was["old"] if was else (moved["old"] or moved["arrowed"]) if moved and attribute == v.DUE_DATE else None
        )
        for said in _field_values(attribute, before, today) if before and values else ():
            if said not in values and said.casefold() != subject.casefold():
                yield StatedFact(subject, attribute, said, None, today, False, 0.63, span)
    if about_a_person and person and (started or ended) and v.WORKS_AT_ATTR not in map(_FIELD_OF.get, labels):
        yield from _form_employer(text[: fields[0].start()], person, started, ended, today)


def _card_field(
    person: str, value: str, raw: str, earlier: bool, today: date, span: tuple[int, int]
) -> Iterator[StatedFact]:
    """A "Currently: data analyst at Kestle (since 2021)" field: the person's post and employer, from the day it
    gives; a "Previously:" one's held until the record was written."""
    stay = _BEEN_THERE_RE.search(raw)
    days = _dates(_stay_began(stay), today) if stay else []
    since = days[0] if days else _record_since(raw, today)
    for fact in _card_facts(person, [value.split(";")[0]], today, span):
        if earlier:
            yield replace(fact, valid_from=None, valid_until=today)
        else:
            yield replace(fact, valid_from=since) if fact.valid_from == today else fact


def _beside_a_name(value: str, raw: str) -> tuple[str | None, list[str]]:
    """The person a field's value names first, and what the field says beside the name: its brackets, and the rest
    after it ("Zsófia Ambrus (Sales Lead, Brightwell)", "Zsófia Ambrus, CFO"); ``raw`` is the value with its
    brackets."""
    named = _NAME_RE.match(value)
    person = _person(named[0]) if named else None
    if not person:
        return None, []
    rest = value[named.end() :].lstrip(" ,—–-")
    return person, [*_BRACKETS_RE.findall(raw), *([rest] if rest else [])]


def _members_managers(field: re.Match[str], since: date) -> Iterator[StatedFact]:
    """ "Members (all report to N): A, B", "Members: A, B — all report to N": each member's manager."""
    manager = _ALL_REPORT_RE.search(f"{field['note'] or ''}; {field['value']}")
    members = _ALL_REPORT_RE.split(_BRACKETS_RE.sub(" ", field["value"]))[0]
    for member in _listed(members.strip(" \t.,—–-")) if manager else ():
        if (who := _person(member)) == member and who != manager["manager"]:
            span = (field.start("value"), field.end("value"))
            yield StatedFact(who, v.REPORTS_TO_ATTR, manager["manager"], since, None, False, 0.7, span)


def _form_employer(
    before: str, person: str, started: date | None, ended: date | None, today: date
) -> Iterator[StatedFact]:
    """ "ONBOARDING — Kestle / Name: … / Start date: …": the employer an HR form's heading names, joined on its start
    day or left by its last."""
    lines = before.strip().splitlines()
    for part in _HEADING_PARTS.split(lines[-1].strip(" \t*#_-—–:|")) if lines else ():
        employer = _NAME_RE.fullmatch(part.strip())
        if employer and part.strip().casefold() not in _FORM_WORDS and _person(employer[0]) != person:
            left = ended is not None and ended <= today
            since = started if started and started <= today and not left else today
            yield StatedFact(person, v.WORKS_AT_ATTR, employer[0], since, None, left, 0.6, (0, len(before)))
            return


# what an HR form's heading calls the form, beside the employer's name
_FORM_WORDS = frozenset(
    {"onboarding", "offboarding", "welcome pack", "new starter", "new starter form", "leaver", "leavers",
     "exit form", "offboarding checklist", "onboarding record", "onboarding checklist", "new hire", "new joiner"}
)  # fmt: skip
# the labels that name the team a page is about, when it opens with one ("Team page: Tisza")
_TEAM_PAGE_FIELDS = frozenset({"team page", "team", "squad", "team name", "squad page", "group"})
_MEMBER_FIELDS = frozenset({"members", "team members", "people", "membership"})
_ALL_REPORT_RE = re.compile(rf"[,;—–-]?\s*\b(?:all|both|each|everyone)\s+reports?\s+(?:in)?to\s+(?P<manager>{NAME})")
# the fields that date a record as a whole: an HR form's start (or a change's effective day) and its last day
_START_FIELDS = frozenset(
    {"start date", "start", "starting date", "first day", "effective date", "effective", "effective from",
     "joining date", "join date", "date joined", "joined"}
)  # fmt: skip
_END_FIELDS = frozenset(
    {"last working day", "last day", "final day", "leaving date", "last date", "end date", "exit date",
     "date of leaving", "final working day"}
)  # fmt: skip


def _record_days(fields: list[re.Match[str]], today: date) -> tuple[date | None, date | None]:
    """The day a record's facts start (an HR form's start or a change's effective day) and the day its employment
    ends (a leaver's last day), when its fields say."""
    started = ended = None
    for field in fields:
        label = _label(field["label"])[0]
        if label in _START_FIELDS | _END_FIELDS and (days := _dates(field["value"], today)):
            if label in _START_FIELDS:
                started = started or days[0]
            else:
                ended = ended or days[0]
    return started, ended


_MOVED_VALUE_RE = re.compile(r"(?:\bfrom\s+(?P<old>.+?)\s+to\b|^(?P<arrowed>[^→]+?)\s*(?:→|->))")


# a record's field written with a dash for its colon ("Location - Szeged", "- Manager — Dorka Fehér"): read as a field
# when its label is one the vocabulary names, so that a project's "Zirc launch — April 6" stays a statement
_DASHED_FIELD_RE = re.compile(
    r"(?m)^(?P<lead>[ \t]*(?:[-*•·][ \t]+)?)(?P<label>[A-Za-z][A-Za-z '’/&]{0,30}?)(?P<dash>[ \t]+[-—–][ \t]+)(?=\S)"
)


def _dashed_field(match: re.Match[str]) -> str:
    label = _label(match["label"])[0]
    if label not in _FIELD_OF and label not in _PERSON_FIELDS and label not in _THING_FIELDS:
        return match.group(0)
    return f"{match['lead']}{match['label']}:{' ' * (len(match['dash']) - 1)}"  # as long as it was: spans hold


@lru_cache(maxsize=4096)
def _label(raw: str) -> tuple[str, bool]:
    """A field's label as the vocabulary writes it, and whether it names an earlier value; "Epic status", "Project
    name" say what the record is about, as "Epic" and "Project" do."""
    label = " ".join(raw.casefold().replace("’", "'").split())
    earlier = _EARLIER_LABEL.match(label)
    label = _PLAIN_LABEL.sub("", _EARLIER_LABEL.sub("", label))
    first, _, rest = label.partition(" ")
    if first in _THING_FIELDS and rest in {"status", "name", "title", "summary", "update", "card", "entry", "record"}:
        return first, bool(earlier)
    return label, bool(earlier)


# a Markdown heading or a line in bold on its own: "### Zirc exporter upgrade", "**Kestle gateway**"
_SECTION_TITLE_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+(?P<hashed>[^\n#]{2,80}?)|\*\*(?P<bold>[^*\n]{2,80})\*\*)[ \t#]*$"
)


def _section_title(text: str, first_field: int) -> str | None:
    """What the heading line just before a record's first field names, when the line is a heading by its form (a
    kind of document before a colon left out: "# RFC: Zirc session store")."""
    before = text[:first_field].strip().splitlines()
    title = _SECTION_TITLE_RE.match(before[-1]) if before else None
    if title is None:
        return None
    said = (title["hashed"] or title["bold"]).strip(" *_")
    said = re.sub(r"^[\w -]{2,20}:\s+(?=\S)", "", said)  # "RFC: …", "Tech spec: …"
    said = _BRACKETS_RE.sub(" ", said).strip()
    if said.casefold() in _SECTION_WORDS | _HEADING_LABELS or not re.match(rf"[{_UPPER}]|[a-z0-9]+[-_.]", said):
        return None  # "## Notes": a part of the page, not what it is about
    return said if len(said.split()) <= 6 else None


# the words a page's heading says what it is with ("Profile — Réka Tóth", "Bio — …")
# what a document about one system or piece of work is, as its first field names it ("Runbook: zirc-worker")
_DOCUMENT_LABELS = frozenset(
    {"runbook", "playbook", "entry", "registry entry", "catalog entry", "catalogue entry", "spec", "tech spec",
     "design doc", "one-pager", "rfc", "adr", "prd", "brief"}
)  # fmt: skip
_HEADING_LABELS = frozenset(
    {"bio", "biography", "about", "card", "entry", "record", "page", "overview", "directory", "rfc", "adr", "prd",
     "spec", "proposal", "one-pager", "brief"}
)  # fmt: skip


def _heading(text: str, first_field: int) -> str | None:
    """The record's heading: of the parts of the line before its first field, the first that is a name and no title
    ("Zsófia Ambrus | Head of Legal |", "Team page — Tisza", "Weekly status — Quillon")."""
    before = text[:first_field].strip().splitlines()
    said = _BRACKETS_RE.sub(" ", before[-1]) if before else ""
    keyed = reported = False
    thing = None
    parts = _HEADING_PARTS.split(said.strip(" \t*#_-—–:|"))
    if re.search(r"\s[›»>]\s", said):
        parts.reverse()  # a breadcrumb ("Directory › People › Réka Tóth") ends with what the page is about
    for part in parts:
        part = part.strip(" \t*#_-—–:|")
        words = part.split()
        if words and words[0].casefold() in _REPORT_WORDS:
            reported = True  # "Postmortem — Zirc double billing", "Incident 4012: Zirc degraded": of the system named
            continue
        if reported:
            return _reported_system(part)
        if _WORK_KEY_RE.fullmatch(part) or (words and words[0].casefold() in _WORK_ITEMS | _NO_PROJECT):
            keyed = True  # "EPIC KES-1: Kestle migration", "Status — Quillon": what the key or the heading is of
            continue
        named = _NAME_RE.fullmatch(part)
        if len(words) == 1 and part.casefold() in _SECTION_WORDS | _PERSON_FIELDS | _HEADING_LABELS:
            continue  # "Profile — Dorka Vass", "Bio: …": what the page is, not whom
        if named and not _a_title(named[0]):
            return _person(named[0])
        if re.fullmatch(rf"{NAME}\s+{_TEAM_WORDS}", part):
            return part  # "Zirc Platform squad": a team's page
        if _IDENTIFIER_RE.fullmatch(part):
            return part  # "quillon-api", "Registry entry — kestle-db": a system as its code names it
        if (
            thing is None
            and re.match(rf"[{_UPPER}]", part)
            and 2 <= len(words) <= 4
            and words[-1].casefold() in _THING_NOUNS
        ):
            thing = (
                part  # "Kestle exporter", "Zirc billing service": a system by its name and what it is, if nothing else
            )
        if keyed and re.match(rf"[{_UPPER}]", part) and 1 <= len(words) <= 5:
            return part
    return thing


# what a report of something that went wrong is headed by, before the system it is about
_REPORT_WORDS = frozenset("postmortem post-mortem pir rca outage retro retrospective incident".split())


def _reported_system(said: str) -> str | None:
    """The system a report's heading names first, without what befell it ("Zirc memory leak" is of Zirc); a heading
    that names what went wrong first ("Search outage") names no system."""
    system = _NAME_RE.match(said)
    after = said[system.end() :].split() if system else []
    if system is None or _a_title(system[0]) or (after and after[0].casefold() in _REPORT_WORDS):
        return None
    return _person(system[0])


# a tracker's key for a piece of work ("KES-142", "EPIC KES-1")
_WORK_KEY_RE = re.compile(r"(?:(?i:epic|story|ticket|task|bug)\s+)?[A-Z][A-Z0-9]+-\d+")


def _record_interval(value: str, earlier: bool, today: date) -> tuple[date | None, date | None]:
    """A field's value holds from when it says, until when its brackets say ("Brightwell (until Jan 2025)") or —
    under an earlier value's label — until it was said."""
    ended = next(filter(None, map(_UNTIL_VALUE.search, _BRACKETS_RE.findall(value))), None)
    days = _dates(ended["when"], today) if ended else []
    if days and days[0] <= today:
        return None, days[0]
    return (None, today) if earlier else (_record_since(value, today), None)


def _record_since(value: str, today: date) -> date:
    """The day a field's value started, when the field says ("Szeged (since March 2024)"), else the day it was said."""
    said = re.search(r"\b(?:since|from|as\s+of|effective|started)\b[^()]*", value, re.IGNORECASE)
    days = _dates(said[0], today) if said else []
    return days[0] if days and days[0] <= today else today


def _field_values(attribute: str, value: str, today: date) -> list[str]:
    """The values a field gives its attribute: a name, a title, a day, languages, pets; none when the field's words
    are no such value."""
    if attribute == v.DUE_DATE:
        if _NO_DUE_RE.search(value):  # "Beta: done (shipped 8 Jul)"
            return []
        moved = re.search(r"\bfrom\b.+?\bto\b(?P<new>.+)$", value)  # "moved from 30 June to 14 July"
        day = _due_day(moved["new"] if moved else value, today)
        return [day.isoformat()] if day else []
    if attribute == v.SPEAKS:
        return _known_languages(value)
    if attribute == v.HAS_PET:
        pets = []
        value = re.split(r"\.\s+(?=[A-Z])", value)[0]  # "Pets: Mák (cat). Speaks Hungarian.": the list ends
        named = False
        for part in _listed(value):
            name = re.search(rf"\b(?!(?:{_PET_KINDS})\b)[A-Z][a-z]+\b", part)
            kind = re.search(rf"\b{_PET_KINDS}\b", part, re.IGNORECASE)
            if kind and not name and named:
                continue  # "Pet: Maszat, rabbit, 5y": what the pet just named is
            if name or kind:
                pets.append(name[0] if name else f"a {kind[0].casefold()}")
            named = bool(name)
        return pets
    if attribute == v.JOB_TITLE:
        title = _a_title(re.split(r"\s+(?:at|@)\s+|,\s*", value)[0])
        return [title] if title else []
    name = _NAME_RE.match(value)
    if attribute == v.OWNED_BY:
        team = re.match(rf"(?:the\s+)?(?P<team>[\w-]+(?:\s+[\w-]+)?)\s+{_TEAM_WORDS}\b", value, re.IGNORECASE)
        # "owner: team-tariff", "owner: @tax-compliance", a catalogue's "owner: payments"
        handle = _HANDLE_OWNER_RE.fullmatch(value.strip()) or re.fullmatch(r"[a-z][a-z0-9_]{2,30}", value.strip())
        if handle and handle[0] in _PRONOUNS | _PRONOUNS_AS_NAMES:
            handle = None
        owner = name[0] if name else team["team"] if team else handle[0] if handle else ""
        return [_team_name(owner)] if owner else []
    if not name or name.end() < len(value.split(",")[0].rstrip()):
        return []  # more than a name before any comma: not a value this field can be read from
    said = _person(name[0]) if attribute == v.REPORTS_TO_ATTR else name[0]
    return [said] if said and said not in _NOT_A_NAME else []


# an owner as a tool writes it: a handle ("@tax-compliance") or a team's code name ("team-tariff")
_HANDLE_OWNER_RE = re.compile(rf"@[\w-]+|{_CODE_NAME}")


# words no title holds: a pronoun, a verb, a joining word, or one that makes it someone else's or another time's
_NOT_A_TITLE = re.compile(
    r"\b(?:former|ex|previous|future|next|i|we|you|he|she|they|it|so|and|but|because|as|is|was|are|were|has|had|"
    r"have|says|said|used|did|does|got|promoted|joined|moved|left|became|interviewed|applied|applying|hired|offered|"
    r"for|candidate|turned|to)\b"
)


def _a_title(said: str) -> str | None:
    """``said`` as a job title (lower case), when it is one: a few words ending in a role ("Data Engineer II", "our
    new Chief People Officer")."""
    if re.match(r"(?:my|his|her|their|your)\s", said.strip(), re.IGNORECASE):
        return None  # "Nandor (my manager)": whose manager he is, not his title
    if re.match(r"(?:I|we|you|he|she|they)\s", said.strip(), re.IGNORECASE):
        return None  # "I am CTO at Kestle": a sentence with its subject, not a card's title
    # "our newly appointed Head of Ops": the title, without how it came
    said = re.sub(
        r"^(?:(?:a|an|the|our|new|newest|latest|currently|now|newly|recently|just|(?:appointed|promoted|named|hired))\s+)+",
        "",
        " ".join(said.split()),
        flags=re.I,
    )
    title = re.sub(r"\s+(?:[IVX]{1,4}|\d)$", "", said).casefold()
    if not title or len(title.split()) > 6 or _NO_VALUE.search(title) or _role_head(title) not in v.ROLE_NOUNS:
        return None
    if not re.fullmatch(r"[\w&/ -]+", title) or _NOT_A_TITLE.search(said):  # "Head of IT" is one
        return None
    return said.casefold()


_LANGUAGE_SET = frozenset(v.LANGUAGES)
_NO_TOWN_WORDS = _CALENDAR_NAMES | _LANGUAGE_SET  # ("lives Monday to Friday …", "lives Hungarian"): no town

# a language the speaker uses, said without "speak": "my Slovak is fine", "my Czech has got much better"; "Slovak at
# home, Czech at work"; "I don't speak Polish, only Slovak and Czech"
_MY_LANGUAGE_RE = re.compile(
    rf"\b[Mm]y\s+(?P<list>{_LANGUAGE_WORD}(?:\s+{_LANGUAGE_WORD})?)\s+(?:is|['’]s|has\s+(?:gotten|got|become))\s+"
    r"(?:\w+\s+)?(?:fine|good|great|better|decent|fluent|solid|ok|okay|native|excellent)\b"
)
_USED_IN_RE = re.compile(
    rf"^(?:and\s+)?(?P<list>{_LANGUAGE_WORD}(?:\s+{_LANGUAGE_WORD})?(?:\s*(?:,|and|&|\+)\s*{_LANGUAGE_WORD}){{0,3}})\s+"
    r"(?:at\s+(?:home|work|school)|with\s+(?:my|our|the)\s+[\w-]+|in\s+the\s+family)\b"
)
# a language the speaker works or is spoken to in: "I mostly use Croatian at work", "I can take calls in Urdu"
_WORKING_LANGUAGE_RE = re.compile(
    r"\b(?:I|we)\s+(?:(?:mostly|mainly|also|only|usually|can|could)\s+)*(?:use|write\s+in|work\s+in|teach\s+in|"
    r"facilitate\s+in|translate\s+(?:into|from)|take\s+(?:the\s+)?calls\s+in|do\s+(?:my\s+)?calls\s+in)\s+"
    rf"(?P<list>{_LANGUAGE_WORD}(?:\s*(?:,|and|&|\+)\s*{_LANGUAGE_WORD}){{0,3}})"
)
_ONLY_SPOKEN_RE = re.compile(
    r"\b(?:I|we)\s+(?:don['’]?t|do\s+not|can['’]?t|cannot)\s+speak\s+[\w-]+(?:\s*\([^)]*\))?\s*,?\s*"
    rf"(?:only|just|but\s+(?:I\s+do\s+)?(?:speak\s+)?)\s+(?P<list>{_LANGUAGE_WORD}(?:\s*(?:,|and|&|\+)\s*"
    rf"{_LANGUAGE_WORD}){{0,3}})"
)


def _languages_used(said: str, speaker: str | None, today: date) -> list[StatedFact]:
    """The known languages a sentence says the speaker uses, in words other than "speak"."""
    if not speaker or not speaker.strip() or _NOT_SPOKEN_RE.search(_ONLY_SPOKEN_RE.sub("", said)):
        return []
    parts = re.split(r"\s*[,;]\s*", said.strip())
    used = [m["list"] for m in map(_USED_IN_RE.match, parts) if m] if _USED_IN_RE.match(parts[0]) else []
    found = [*(m["list"] for m in _MY_LANGUAGE_RE.finditer(said)), *used]
    found += [m["list"] for m in _ONLY_SPOKEN_RE.finditer(said)]
    found += [m["list"] for m in _WORKING_LANGUAGE_RE.finditer(said)]
    spoken = dict.fromkeys(language for listed in found for language in _known_languages(listed))
    who, span = speaker.strip(), (0, len(said))
    return [StatedFact(who, v.SPEAKS, language, today, None, False, 0.6, span) for language in spoken]


def _known_languages(text: str) -> list[str]:
    """The languages of the vocabulary ``text`` names, as written, in order."""
    return [word for word in re.findall(r"[A-Za-z]+", text) if word.casefold() in _LANGUAGE_SET]


# a table: a header row of labels, then a row per entry ("Name | Role | Location")
_ROW_SPLIT = re.compile(r"\s*[|\t]\s*")
_CSV_SPLIT = re.compile(r"\s*,\s*")
_CSV_HEADER_RE = re.compile(r"\s*[A-Za-z_ ]{1,24}(?:,[A-Za-z_ ]{1,24}){2,}[ \t]*\n")


_TABLE_ROW_RE = re.compile(r"\s*\|[^\n]*\|[^\n]*\|\s*$")
# a table's column for when each row's thing is due, once the header has a column naming the things
_TABLE_DAY_LABELS = frozenset({"date", "target date", "target", "eta", "due", "ship date", "go-live date"})


def _table_facts(text: str, today: date) -> Iterator[StatedFact]:
    """The facts a table's rows state under its header's labels, each row of the person or thing its name column
    names."""
    header: list[str] | None = None
    # a table of pipes or tabs; else, comma-separated, when its first line is a header of labels ("id,name,city")
    split = _ROW_SPLIT if "|" in text or "\t" in text else _CSV_SPLIT if _CSV_HEADER_RE.match(text) else None
    if split is None:
        return
    for line in text.splitlines():
        cells = [cell.strip(' *_"') for cell in split.split(line.strip().strip("|"))]
        if len(cells) < 2 or all(re.fullmatch(r":?-+:?", cell) for cell in cells):
            continue
        labels = [_label(cell)[0] for cell in cells]
        # a header names whom or what its rows are about, or leads with a column of its own for it
        # ("volunteer,city,languages")
        about = any(label in _PERSON_FIELDS | _THING_FIELDS for label in labels) or (
            header is None and labels[0] not in _FIELD_OF and re.fullmatch(r"[a-z][a-z ]{2,20}", labels[0]) is not None
        )
        things_due = any(label in _THING_FIELDS for label in labels) and any(
            label in _TABLE_DAY_LABELS for label in labels
        )
        if about and (things_due or any(label in _FIELD_OF for label in labels)):
            header = labels
            continue
        if header is None or len(cells) != len(header):
            header = None  # a row of another shape ends the table
            continue
        named = next((i for i, label in enumerate(header) if label in _PERSON_FIELDS | _THING_FIELDS), 0)
        # a catalogue's "name | tier | owner": its rows name things, when all its labels are of things
        attributes = {_FIELD_OF[label] for label in header if label in _FIELD_OF}
        things = header[named] in _THING_FIELDS or (
            header[named] in {"name", "id"} and bool(attributes) and attributes <= _THING_ATTRIBUTES
        )
        # a thing's column names it as written ("Zirc auth", "zirc-api"); a person's, by a name
        if things and re.match(rf"[{_UPPER}]|{_IDENTIFIER_RE.pattern}", cells[named]):
            subject = _project_name(cells[named])
        else:
            subject = found[0] if (found := _NAME_RE.fullmatch(cells[named])) else ""
        if not subject:
            continue
        for label, cell in zip(header, cells, strict=True):
            attribute = _FIELD_OF.get(label) or (v.DUE_DATE if things and label in _TABLE_DAY_LABELS else None)
            if attribute is None or not cell or _NO_VALUE.search(cell):
                continue
            for said in _field_values(attribute, _BRACKETS_RE.sub(" ", cell).strip(), today):
                yield StatedFact(subject, attribute, said, today, None, False, 0.7, (0, 0))


# --- a signature or a card: a name line, then a title and an employer ---------------------------------------------

_SIGN_OFF_RE = re.compile(
    r"^[ \t]*(?:--+|—|–|(?:(?:best|kind|warm|many)\s+)?(?:regards|wishes|thanks|thank\s+you|cheers|best|sincerely|"
    r"warmly|yours(?:\s+(?:truly|sincerely))?|talk\s+soon|all\s+the\s+best|ta)\b[^\n]{0,12}"
    # a sign-off in any language: a word or two and a comma on a line of its own, a few lines from the end
    # ("Köszönöm,", "Groetjes,")
    r"|[^\W\d][\w'’]*(?:[ \t]+[^\W\d][\w'’]*)?,(?=[ \t]*\n\s*[^\W\d_][^\n]{0,60}(?:\n[^\n]*){0,4}$))[ \t]*\n",
    re.IGNORECASE | re.MULTILINE,
)


def _signer(text: str) -> str | None:
    """Who signed the text: the name on the line after its last sign-off, when nothing but a card follows."""
    sign_offs = list(_SIGN_OFF_RE.finditer(text))
    if not sign_offs:
        return None
    lines = [line.strip() for line in text[sign_offs[-1].end() :].splitlines() if line.strip()]
    writer = _NAME_RE.fullmatch(lines[0]) if lines else None
    if writer is None or not 1 <= len(writer[0].split()) <= 4 or _person(writer[0]) != writer[0]:
        return None
    return writer[0]


_CARD_PARTS = re.compile(r"\s+[|·•/]\s+|\s*,\s+|\s+(?:at|@)\s+|\s+[—–-]\s+")
_CARD_AT_RE = re.compile(
    rf"\b(?P<when>(?i:currently|now|formerly|previously|ex))\s+(?:at|with)\s+(?P<org>{NAME})"
    r"(?:\s+as\s+(?:an?\s+|the\s+)?(?P<title>[\w&/ -]{2,40}?))?(?=\s*(?:[,;.)]|$))"
)
_CARD_SPEAKS_RE = re.compile(r"^(?:speaks|fluent\s+in)\s|^[A-Z][a-z]+(?:\s*[+&/]\s*[A-Z][a-z]+)*\s+speaker$", re.I)
_FORMERLY_RE = re.compile(r"^(?:formerly|previously|ex|former(?:ly)?\s+(?:at|of|with))[\s-]+(?:at\s+|with\s+)?", re.I)


def _signature_facts(text: str, today: date) -> Iterator[StatedFact]:
    """A signature or a card states its writer's title and employer: "Best,\\nZsófia Ambrus\\nHead of Sales |
    Brightwell", or a text that opens "Zsófia Ambrus\\nPrincipal Architect\\nBrightwell"."""
    sign_offs = list(_SIGN_OFF_RE.finditer(text))
    start = sign_offs[-1].end() if sign_offs else 0
    # a message's last paragraph that opens with a name on a line of its own signs it, sign-off or not ("Thanks,
    # I'll look.\n\nZsófia Ambrus\nTester · Brightwell")
    apart = text.rstrip().rfind("\n\n")
    signed = not sign_offs and apart > 0 and _NAME_RE.fullmatch(text[apart:].strip().split("\n")[0].strip() or "-")
    if signed:
        start = apart
    lines = [line.strip() for line in text[start:].splitlines() if line.strip()][:5]
    if not lines or ":" in lines[0] or (len(lines) > 1 and ":" in lines[1]):
        return  # a record's fields, read as a record
    first = _CARD_PARTS.split(_BRACKETS_RE.sub(" ", lines[0]).strip())
    writer = _NAME_RE.fullmatch(first[0].strip())
    if writer is None or len(writer[0].split()) > 4 or _person(writer[0]) != writer[0]:
        return
    if len(first) > 1:  # "Zsófia Ambrus | Head of Sales | Brightwell"
        lines = [writer[0], " | ".join(first[1:]), *lines[1:]]
    elif not sign_offs and not signed and len(lines) < 3:
        return  # a text that opens with a name alone is a card only when it goes on as one
    yield from _card_facts(writer[0], lines[1:], today, (start, len(text)))


def _card_facts(who: str, lines: list[str], today: date, span: tuple[int, int]) -> Iterator[StatedFact]:
    """A card's title and employer: the first part that is a title, then the first name after it ("VP of Sales,
    Brightwell"; a line of its own: "Senior Sales Manager\\nBrightwell – Szeged Office"); "formerly X"
    is an employer before."""
    titled = employed = False
    for line in lines:
        if ":" in line:
            return  # the card's contact details begin
        for said in _CARD_AT_RE.finditer(line):  # "formerly at Corvel, now at Brightwell as Research Director"
            title = _a_title(said["title"]) if said["title"] else None
            earlier = said["when"].casefold() in {"formerly", "previously", "ex"}
            yield StatedFact(who, v.WORKS_AT_ATTR, said["org"], None if earlier else today, today if earlier else None,
                             False, 0.7, span)  # fmt: skip
            if title:
                titled = True
                yield StatedFact(who, v.JOB_TITLE, title, None if earlier else today, today if earlier else None,
                                 False, 0.7, span)  # fmt: skip
            employed = employed or not earlier
        # ("Kestle (Pécs)": where the office is, beside the employer's name)
        line = _BRACKETS_RE.sub(" ", _CARD_AT_RE.sub("", line))
        for part in (part.strip(" .") for part in _CARD_PARTS.split(line) if part.strip(" .")):
            spoken = _CARD_SPEAKS_RE.match(part)
            if spoken:  # "speaks Hungarian, Czech", "Hungarian + Czech speaker"
                for word in _known_languages(line[line.find(part) :]):
                    yield StatedFact(who, v.SPEAKS, word, today, None, False, 0.7, span)
                break
            formerly = _FORMERLY_RE.match(part)
            if formerly and (before := _a_title(part[formerly.end() :])):
                yield StatedFact(who, v.JOB_TITLE, before, None, today, False, 0.6, span)  # "previously COO"
                continue
            if formerly and _NAME_RE.fullmatch(part[formerly.end() :]):
                yield StatedFact(who, v.WORKS_AT_ATTR, part[formerly.end() :], None, today, False, 0.6, span)
                continue
            title = None if titled or part.casefold() in _DUTIES else _a_title(part)
            if title:
                titled = True
                yield StatedFact(who, v.JOB_TITLE, title, today, None, False, 0.7, span)
            elif (
                titled
                and not employed
                and _NAME_RE.fullmatch(part)
                and part not in _NOT_A_NAME
                and not known_place(part)
            ):
                employed = True
                if not all(word.casefold() in v.DEPARTMENT_NOUNS for word in part.split()):  # "…, Finance"
                    yield StatedFact(who, v.WORKS_AT_ATTR, part, today, None, False, 0.7, span)
            elif not titled:
                return  # a card's title comes first: words before it are no card ("Rex, he ate …, I'm at the vet")


# "Zsófia Ambrus, Sales Director at Brightwell, …", "Zsófia Ambrus (Sales Lead, Brightwell)", "Nandor —
# maintenance lead": a person's card said beside their name, whatever the sentence around it does
_APPOSED_CARD_RE = re.compile(
    rf"(?P<name>{NAME})(?:\s*\((?P<bracket>[^()]{{2,80}})\)|,\s+(?P<comma>[^,;()]{{2,60}}?(?:,\s+[^,;()]{{2,40}}?)?)"
    # ("…, CFO at Brightwell (customer).": a remark in brackets after the card)
    r"(?=\s*(?:\([^()]{1,40}\)\s*)?(?:[,.;!]|$))|\s+[—–]\s+(?P<dash>[^;—–()]{2,80}?)"
    # ("Ilona Kiss — QA analyst (Payments).": the team in brackets after the post)
    r"(?=\s*(?:\([A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,2}\)\s*)?(?:;|$|[—–]|\.(?:\s|$))))"
)


def _own_cards(cards: tuple[StatedFact, ...], sentence: str, speaker: str | None) -> tuple[StatedFact, ...]:
    """The cards, with the one a speaker gives of themselves by a name of theirs ("I'm Ilona, tester at Kestle") made
    the speaker's."""
    if not cards or not speaker:
        return cards
    names = set(speaker.split())
    return tuple(
        replace(card, subject=speaker)
        if set(card.subject.split()) <= names
        and re.search(rf"\b(?:I['’]m|I\s+am|[Mm]y\s+name\s+is|[Tt]his\s+is)\s+{re.escape(card.subject)}\b", sentence)
        else card
        for card in cards
    )


@lru_cache(maxsize=4096)
def _apposed_cards(sentence: str, today: date) -> tuple[StatedFact, ...]:
    """The title and employer a sentence's cards give the people they stand beside (cached, as sentences repeat)."""
    facts = []
    for match in _APPOSED_CARD_RE.finditer(sentence):
        who = _person(match["name"])
        if not who or who.isupper() or who.casefold() in _LANGUAGE_SET | _CALENDAR_NAMES:
            continue
        said = match["bracket"] or match["comma"] or match["dash"]
        after = _AFTER_PREPOSITION_RE.search(sentence, 0, match.start())
        # "Nandor from Brightwell, our integration partner": what a company is to us; but "spoke with Zsófia Ambrus,
        # CFO at Brightwell" is a person's card, written as one
        if after and not (after.group(0).startswith("with") and re.match(rf"[{_UPPER}]", said.strip())):
            continue
        # "lives in Győr, speaks Czech": a place, and the verbs after it its subject's
        if re.search(r"\b(?:in|into|near|via)\s+$", sentence[: match.start()]):
            continue
        facts += _card_facts(who, [said], today, match.span())
    return tuple(facts)
