"""Regex building blocks over clause skeletons, and the :class:`Pattern` type (see ``patterns/__init__``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.extraction.lexicon import DEPARTMENT_WORDS, ROLE_HEADS

ENT = r"<E\d{1,4}>"
LIST = rf"(?:both )?{ENT}(?: (?:, and|, &|,|and|&|as well as) {ENT}){{0,15}}"
WORD = r"[^\s<>,;:|()\"]{1,30}"  # one plain word: not an entity, not clause punctuation
PRONOUN = r"she|he|it|the company|the startup|the firm|the fund|the business"
DESCRIPTOR = r"the company|the startup|the firm|the fund|the business|the team|the meeting|the session|the call"
# a subject may carry a relative clause marker: "Alice, who founded Acme" / "Acme, which acquired Globex"
# ... or a short parenthetical: "Priya Raman (VP Sales) presented ..."
PAREN = r"(?: \((?: [^\s()<>]{1,30}){1,6} \))?"
SUBJ = rf"(?P<s>{LIST}|{PRONOUN}){PAREN}(?: , (?:who|which))?"
SUBJ_LIST = rf"(?P<s>{LIST})"
OBJ = rf"(?:the |its |their |his |her )?(?:(?P<o>{LIST})(?! 's)|(?P<od>{DESCRIPTOR}))"
OBJ_ONE = rf"(?:the )?(?P<o>{ENT})"
# a single object, or a descriptor of the text's own organisation ("The company was founded by ...")
OBJ_ONE_D = rf"(?:(?:the )?(?P<o>{ENT})|(?P<od>the company|the startup|the firm|the business|it))"
AUX = (
    r"(?:(?:has|have|had|is|'s|was|are|were|been|also|then|later|previously|recently|originally|first|once|"
    r"jointly|together|eventually|subsequently|reportedly|officially|formally|initially|quietly|publicly|"
    r"personally|successfully|went on to|[a-z]{2,20}ly) ){0,3}"
)
PP = (
    rf"(?:in|during|around|back in|on) (?:early |late |mid-|mid |the )?"
    rf"(?:\d{{4}}|{ENT}|[a-z]{{3,12}})(?: \d{{4}})?"
)
_HEADS = "|".join(sorted((re.escape(h) for h in ROLE_HEADS), key=len, reverse=True))
_DEPTS = "|".join(sorted((re.escape(d) for d in DEPARTMENT_WORDS), key=len, reverse=True))
# a role modifier is any plain word except one that lets the role reach across a clause ("vocal in investor")
_MODIFIER = (
    r"(?!(?:in|at|of|for|with|to|on|by|from|about|as|and|or|that|who|which|is|was|has|had|a|an|the|also|"
    r"no|not|never|nor)\b)"
    r"[a-z][a-z&'.-]{0,25}"
)
ROLE = (
    # greedy modifiers: the head is the last role noun ("lead angel investor" is an investor)
    rf"(?P<role>(?:{_MODIFIER} ){{0,4}}(?:{_HEADS})s?(?![a-z-])"
    rf"(?!(?: {_MODIFIER}){{0,2}} (?:{_HEADS})s?(?![a-z-]))"
    rf"(?: (?:of|for) (?:[a-z][a-z&-]{{0,25}} ){{0,2}}(?:{_DEPTS})(?: (?:and|&) (?:{_DEPTS}))?)?"
    # "founder and CEO"; "founder and driving force behind ..." only when a preposition follows
    rf"(?: and (?:(?:{_MODIFIER} ){{0,3}}?(?:{_HEADS})s?(?![a-z-])"
    rf"|(?:{_MODIFIER} ){{0,2}}{_MODIFIER}(?= (?:of|at|behind|for|with) )))?)"
)
ROLE_VERBS = (
    r"(?:is|'s|was|has been|had been|serves as|served as|serving as|works as|worked as|working as|became|"
    r"becomes|remains|remained|continues as|continued as|joined as|joins as|was named|was appointed|named|"
    r"appointed|was promoted to|promoted to|was hired as|hired as|elevated to|stepped in as|took over as|"
    r"came on as|came on board as|commits as|committed as|comes in as|came in as|announced as|started as|"
    r"returned as|returns as|signed on as|stays on as)"
)
ADVERBS = r"(?: (?:also|now|currently|still|already|previously|formerly|once|[a-z]{2,20}ly)){0,2}"
ROLE_PREP = r"(?P<prep>at|of|for|with|to|behind|in)"
FOUNDED_ACTIVE = r"(?:co-founded|cofounded|co-founds|cofounds|founded|founds)"
FOUNDED_WEAK = r"(?:started|starts|incorporated|incorporates|established|establishes)"
# "started/incorporated X" names a company only when X ends the phrase ("incorporated PLG elements" does not)
NAME_ENDS = (
    r"(?= ?(?:$|[,.;:)(\"]| (?:in|as|at|with|and|after|before|during|on|from|while|back|together|"
    r"alongside|to|under|when|which|who|that|out|'s)\b))"
)
FOUNDED_PASSIVE = r"(?:co-founded|cofounded|founded|started|incorporated|established|launched)"
FOUNDER_NOUN = r"(?:(?:its |their |the )?(?:co-founders?|cofounders?|founders?|founding ceo|serial entrepreneurs?) )"
# "...round in Acme" names the investee: the round is not the owner's
NOT_ROUND_OF = r"(?!(?: [^\s<>,;:|()\"]{1,30}){0,2} (?:in|into|for|of|at) (?:the )?<E)"
ROUND = r"(?:round|rounds|investment|investments|financing|raise|deal|series [a-z]|seed|pre-seed|extension)"
LEAD_VERB = r"(?:led|leads|co-led|co-leads|anchored|headed|closed|sourced and closed)"
# Verbs of taking part: on an event's own page, a person doing any of these was there.
PARTICIPATION = (
    r"(?:attended|attends|attend|was present|were present|was in attendance|were in attendance|"
    r"joined remotely|joined virtually|dialed in|dialled in|called in|participated|presented|chaired|"
    r"co-chaired|opened|facilitated|moderated|hosted|kicked off|asked|raised|noted|argued|pushed|pressed|"
    r"questioned|suggested|proposed|recommended|provided|offered|expressed|emphasized|emphasised|"
    r"highlighted|mentioned|explained|agreed|volunteered|abstained|demoed|demonstrated|pitched|handled|"
    r"fielded|followed up|came in|advocated|acknowledged|flagged|shared|summarized|summarised|responded|"
    r"countered|cautioned|voiced|stressed|praised|wondered|wrapped up|spoke|gave|delivered|updated|briefed|"
    r"outlined|described|focused|rounded out|stuck around|weighed in|chimed in|laid out|pointed out|"
    r"objected|challenged|probed|walked|jumped in|observed|seemed|came|"
    r"was (?:particularly |especially |more |very |clearly |visibly )?(?:interested|quiet|quieter|"
    r"skeptical|enthusiastic|impressed|curious|engaged|optimistic|cautious|supportive|critical)|"
    r"led (?:the )?(?:session|meeting|presentation|discussion|proceedings|pitch|demo|call|review|"
    r"conversation|q&a|investor contingent))"
)
EVENT_NOUN = (
    r"(?:meeting|one-on-one|1 : 1|sync|call|session|check-in|catch-up|conversation|chat|coffee|dinner|lunch|"
    r"discussion|review)"
)


@dataclass(frozen=True)
class Pattern:
    """One typed pattern; ``subject`` / ``object`` say where its ends come from (see ``patterns``)."""

    name: str
    relationship: str  # a relationship, or "role" (classified from the role phrase)
    regex: re.Pattern[str]
    confidence: float
    needs: re.Pattern[str]  # cheap pre-check: the skeleton must contain one of the pattern's keywords
    subject: str = "group"  # "group" | "self_person" | "owner"
    object: str = "group"  # "group" | "owner" | "self_event"
    bullet_only: bool = False  # headline-style subject-less entries only occur in timelines/lists


ROLE_KEYWORDS = rf"\b(?:{_HEADS})"


def p(
    name: str,
    needs: str,
    relationship: str,
    regex: str,
    confidence: float,
    *,
    subject: str = "group",
    object: str = "group",  # noqa: A002 - mirrors Pattern.object
    bullet_only: bool = False,
) -> Pattern:
    """A pattern; ``needs`` lists the literal words it cannot match without (a cheap pre-check that keeps
    extraction fast on ordinary text and on hostile input, where most clauses contain none of them)."""
    if not regex.startswith("^"):
        regex = r"(?<![^ ])" + regex  # matches start at a token: "it" is not the end of "credit"
    return Pattern(
        name,
        relationship,
        re.compile(regex),
        confidence,
        re.compile(needs),
        subject=subject,
        object=object,
        bullet_only=bullet_only,
    )
