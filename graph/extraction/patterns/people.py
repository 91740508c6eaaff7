"""Founding, employment roles and advising."""

from __future__ import annotations

from graph import vocabulary as v
from graph.extraction.patterns.fragments import (
    ADVERBS,
    AUX,
    ENT,
    FOUNDED_ACTIVE,
    FOUNDED_PASSIVE,
    FOUNDED_WEAK,
    FOUNDER_NOUN,
    LIST,
    NAME_ENDS,
    OBJ,
    OBJ_ONE,
    OBJ_ONE_D,
    PP,
    ROLE,
    ROLE_KEYWORDS,
    ROLE_PREP,
    ROLE_VERBS,
    SUBJ,
    SUBJ_LIST,
    WORD,
    Pattern,
    p,
)

PEOPLE: tuple[Pattern, ...] = (
    # --- founded -------------------------------------------------------------------------------------------
    p("founded_verb", "found", v.FOUNDED, rf"{SUBJ} {AUX}{FOUNDED_ACTIVE} {OBJ}", 0.9),
    p(
        "started",
        "start|incorporat|establish",
        v.FOUNDED,
        rf"{SUBJ} {AUX}{FOUNDED_WEAK} {OBJ}{NAME_ENDS}",
        0.8,
    ),
    p(
        "founded_by",
        " by ",
        v.FOUNDED,
        rf"{OBJ_ONE_D}(?: ,)?(?: which| that)?(?: (?:is|was|are|were|has been|had been|being)"
        rf"(?: (?:a|an|the|one of the)(?: {WORD}){{0,8}}?)?)?"
        rf"(?: originally| first| jointly| officially| formally)?"
        rf" {FOUNDED_PASSIVE}(?: {PP}){{0,2}} by {FOUNDER_NOUN}?{SUBJ_LIST}",
        0.9,
    ),
    p(
        "founded_by_bare",
        " by ",
        v.FOUNDED,
        rf"^(?:(?:the )?(?:company|startup|firm|business) )?(?:was )?{FOUNDED_PASSIVE}"
        rf"(?: {PP}){{0,2}} by {FOUNDER_NOUN}?{SUBJ_LIST}",
        0.8,
        object="owner",
        bullet_only=True,
    ),
    p(
        "self_founded",
        "found|start|incorporat|establish",
        v.FOUNDED,
        rf"^(?:{FOUNDED_ACTIVE}|{FOUNDED_WEAK}|officially {FOUNDED_WEAK}) {OBJ}{NAME_ENDS}",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "founder_compound",
        "founder",
        v.FOUNDED,
        rf"(?P<o>{ENT}) (?:'s )?(?:co-founders?|cofounders?|founders?) (?:, )?{SUBJ_LIST}",
        0.85,
    ),
    # --- roles: "X is a partner at Y", "X, CEO of Y", "Joined Y as CTO" -----------------------------------
    p(
        "role",
        ROLE_KEYWORDS,
        "role",
        rf"{SUBJ} {AUX}{ROLE_VERBS}{ADVERBS} (?:a |an |the |one of the |its |their )?"
        rf"{ROLE} {ROLE_PREP} {OBJ}",
        0.85,
    ),
    p(
        "role_apposition",
        ROLE_KEYWORDS,
        "role",
        rf"(?P<s>{ENT}) , (?:a |an |the |its |their )?{ROLE} {ROLE_PREP} {OBJ_ONE}(?! 's)",
        0.8,
    ),
    p(
        "role_possessive",
        ROLE_KEYWORDS,
        "role",
        rf"{SUBJ} (?:is|was|serves as|became) {OBJ_ONE} 's {ROLE}",
        0.8,
    ),
    p(
        "role_owner",
        ROLE_KEYWORDS,
        "role",
        rf"{SUBJ} {AUX}{ROLE_VERBS}{ADVERBS} (?:a |an |the |its |their )?{ROLE}"
        rf"(?! (?:at|of|for|with|to|behind|on) )(?! in (?:the )?<E)(?! 's)",
        0.75,
        object="owner",
    ),
    p(
        "self_role",
        ROLE_KEYWORDS,
        "role",
        rf"^(?:became|becomes|named|appointed|promoted to|hired as|returned as|"
        rf"started as|rejoined as) (?:a |an |the )?{ROLE} {ROLE_PREP} {OBJ}",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "joined",
        "join",
        "role",
        rf"{SUBJ} {AUX}(?:joined|joins|rejoined|rejoins|left {ENT} (?:to join|and joined)) {OBJ}"
        rf"(?! 's| (?:board|advisory|boards))(?: as (?:a |an |the |its )?{ROLE}|(?! as ))",
        0.8,
    ),
    p(
        "self_joined",
        "join",
        "role",
        rf"^(?:left {ENT} (?:to|and) )?(?:joined|joins|rejoined|rejoins|join) {OBJ}"
        rf"(?! 's| (?:board|advisory|boards))(?: as (?:a |an |the |its )?{ROLE}|(?! as ))",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "works",
        "work",
        v.WORKS_AT,
        rf"{SUBJ} {AUX}(?:works|worked|working|work) (?:full-time |part-time )?(?:at|for) {OBJ}",
        0.85,
    ),
    p(
        "hired",
        "hire|recruit|poach",
        "role",
        rf"{SUBJ} {AUX}(?:hired|hires|recruited|recruits|poached) (?P<h>{LIST})"
        rf"(?: as (?:a |an |the |its )?{ROLE})?",
        0.75,
    ),
    # --- advises -------------------------------------------------------------------------------------------
    p("advises_verb", "advis", v.ADVISES, rf"{SUBJ} {AUX}(?:advises|advised|advising|advise) {OBJ}", 0.85),
    p(
        "self_advises",
        "advis",
        v.ADVISES,
        rf"^(?:{WORD} ){{0,2}}?(?:advises|advised|advising) {OBJ}",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "advice_from",
        " from ",
        v.ADVISES,
        rf"(?:advisory support|advice|guidance|mentorship) (?:comes|came) from {SUBJ_LIST}",
        0.75,
        object="owner",
    ),
    p(
        "advisory_board_includes",
        "advis",
        v.ADVISES,
        rf"(?:(?P<o>{ENT}) 's )?(?:advisory board|advisors|advisers)"
        rf"(?: {WORD}){{0,2}}? (?:includes|included|including|features|comprises|consists of|:|with) "
        rf"{SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "joins_advisory_board",
        "advis",
        v.ADVISES,
        rf"{SUBJ} {AUX}(?:joined|joins|sits on|sat on|serves on|served on)"
        rf"(?: (?:the|its|their))?(?: (?P<o>{ENT})(?: 's)?)? advisory board(?! (?:of|at|for) <E)",
        0.8,
        object="owner",
    ),
    p(
        "self_joins_advisory_board",
        "advis",
        v.ADVISES,
        rf"^(?:joined|joins|sits on|serves on)(?: the)? {OBJ_ONE}(?: 's)? "
        rf"advisory board",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "advisory_role",
        "advis",
        v.ADVISES,
        rf"{SUBJ}(?: {WORD}| ,){{0,12}}? (?:advisory|advising) (?:role|roles|position|"
        rf"positions|engagement|engagements|relationship|relationships|contract|agreement|capacity|seat|"
        rf"work) "
        rf"(?:at|with|for|to) {OBJ}",
        0.75,
    ),
    p(
        "self_advisory_role",
        "advis",
        v.ADVISES,
        rf"^(?:{WORD} ){{0,4}}?(?:advisory|advising) (?:role|roles|position|"
        rf"engagement|relationship|contract|agreement|capacity|seat|work) (?:at|with|for|to) {OBJ}",
        0.75,
        subject="self_person",
        bullet_only=True,
    ),
)
