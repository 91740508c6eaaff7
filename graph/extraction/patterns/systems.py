"""Who owns a system, and what a system depends on (engineering organisations' own graph).

Both relationships are strict in the vocabulary: an end known to be of another kind (a company owning a company,
a team "depending" on a system) is dropped, and an unknown end becomes a system. The object of an ownership must
end its noun phrase ("owns Kafka", "owns the Billing service"): "owns the Acme account" or "owns the Berlin
offsite" name something else that Acme or Berlin only modifies.
"""

from __future__ import annotations

from graph import vocabulary as v
from graph.extraction.patterns.fragments import AUX, ENT, OBJ_ONE, SUBJ, SUBJ_LIST, WORD, Pattern, p

# "the Billing service", "the Kafka cluster": the noun that says a name is a system
_SYSTEM_NOUNS = "|".join(sorted(v.KINDS_BY_VALUE[v.SYSTEM].head_nouns.split(), key=len, reverse=True))
SYSTEM_NOUN = rf"(?: (?:{_SYSTEM_NOUNS}))?"
# "Kafka and Zookeeper", "the Ledger service and the Refunds API"
SYSTEMS_LIST = rf"(?:the )?(?P<o>{ENT}{SYSTEM_NOUN}(?: (?:, and|, &|,|and|&) (?:the )?{ENT}{SYSTEM_NOUN}){{0,15}})"
# "the Payments team", "the SRE squad": an owner named with the unit it is
TEAM_NOUN = r"(?: (?:team|teams|squad|squads|guild|tribe|crew|group|department|org))?"
# the phrase ends at the name (and its system noun): punctuation, a clause word or the end of the clause
_PHRASE_ENDS = (
    r"(?= ?(?:$|[,.;:)(\"]| (?:and|or|as|at|in|on|for|from|since|with|while|which|who|that|to|until|after|"
    r"before|during|today|now|too|also|end-to-end|alone|together)\b))"
)
# "depends heavily on", "relies entirely on"
_DEGREE = r"(?: (?:heavily|directly|entirely|critically|mostly|partly|fully|still|also|only|now))?"

OWNERSHIP: tuple[Pattern, ...] = (
    p(
        "owns_verb",
        "own",
        v.OWNS,
        rf"{SUBJ}{TEAM_NOUN} {AUX}(?:owns|owned|own|co-owns|co-owned|co-own)(?: and (?:runs|operates|maintains))? "
        rf"{SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.85,
    ),
    p(
        "maintains",
        "maintain",
        v.OWNS,
        rf"{SUBJ}{TEAM_NOUN} {AUX}(?:maintains|maintained|maintain) {SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.75,
    ),
    p(
        "owned_by",
        " by ",
        v.OWNS,
        rf"{OBJ_ONE}{SYSTEM_NOUN}(?: ,)?(?: which| that)?(?: (?:is|are|was|were|has been|have been|remains|"
        rf"is now|is still))? (?:owned|maintained|co-owned)(?: and (?:run|operated))? by (?:the )?{SUBJ_LIST}",
        0.85,
    ),
    p(
        "owner_of",
        "owner|maintainer",
        v.OWNS,
        rf"{SUBJ}{TEAM_NOUN} (?:is|are|was|were|remains|became|becomes) (?:the |an |a )?(?:{WORD} )?"
        rf"(?:owner|owners|owning team|maintainer|maintainers) of (?:the )?(?P<o>{ENT}){SYSTEM_NOUN}"
        rf"{_PHRASE_ENDS}",
        0.85,
    ),
    p(
        "owner_of_is",
        "owner|maintainer",
        v.OWNS,
        rf"(?:the )?(?:owner|owners|owning team|maintainer|maintainers) of (?:the )?(?P<o>{ENT}){SYSTEM_NOUN} "
        rf"(?:is|are|was|were|remains) (?:the )?{SUBJ_LIST}",
        0.8,
    ),
    p(
        "possessive_owner",
        "owner|maintainer",
        v.OWNS,
        rf"(?P<o>{ENT}){SYSTEM_NOUN} 's (?:owner|owners|owning team|maintainer|maintainers) "
        rf"(?:is|are|was|were|remains) (?:the )?{SUBJ_LIST}",
        0.8,
    ),
    p(
        "ownership_of",
        "ownership",
        v.OWNS,
        rf"ownership of (?:the )?(?P<o>{ENT}){SYSTEM_NOUN} (?:sits|lies|rests|is|moved|moves|passed|passes|went|"
        rf"goes) (?:with|to) (?:the )?{SUBJ_LIST}",
        0.8,
    ),
    p(
        "takes_ownership",
        "ownership",
        v.OWNS,
        rf"{SUBJ}{TEAM_NOUN} {AUX}(?:took|takes|taking|has taken|assumed|assumes|has|have|had) "
        rf"(?:over )?(?:full )?ownership of {SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.8,
    ),
)

DEPENDENCIES: tuple[Pattern, ...] = (
    p(
        "depends_verb",
        "depend|rel",
        v.DEPENDS_ON,
        rf"{SUBJ}{SYSTEM_NOUN} {AUX}(?:depends|depended|depend|relies|relied|rely){_DEGREE} (?:up)?on "
        rf"{SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.85,
    ),
    p(
        "dependent_on",
        "dependent|dependency",
        v.DEPENDS_ON,
        rf"{SUBJ}{SYSTEM_NOUN} (?:is|are|was|were|remains|stays) (?:still |fully |heavily )?dependent on "
        rf"{SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.85,
    ),
    p(
        "has_dependency_on",
        "dependenc",
        v.DEPENDS_ON,
        rf"{SUBJ}{SYSTEM_NOUN} {AUX}(?:has|have|had|takes|took|carries) (?:a |an )?(?:{WORD} )?"
        rf"dependency on {SYSTEMS_LIST}{_PHRASE_ENDS}",
        0.8,
    ),
    p(
        "dependency_of",
        "dependency",
        v.DEPENDS_ON,
        rf"(?P<o>{ENT}){SYSTEM_NOUN} (?:is|was|remains) (?:a |an |the )?(?:{WORD} )?dependency (?:of|for) "
        rf"(?:the )?{SUBJ_LIST}",
        0.8,
    ),
    p(
        "built_on",
        "built",
        v.DEPENDS_ON,
        rf"{SUBJ}{SYSTEM_NOUN} (?:is|are|was|were|has been) built on (?:top of )?{SYSTEMS_LIST}"
        rf"{_PHRASE_ENDS}",
        0.75,
    ),
)

SYSTEMS: tuple[Pattern, ...] = (*OWNERSHIP, *DEPENDENCIES)
