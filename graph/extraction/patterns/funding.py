"""Investment: active, passive, round-led-by and investor-list forms."""

from __future__ import annotations

from graph import vocabulary as v
from graph.extraction.patterns.fragments import (
    AUX,
    ENT,
    LEAD_VERB,
    NOT_ROUND_OF,
    OBJ,
    OBJ_ONE,
    OBJ_ONE_D,
    ROUND,
    SUBJ,
    SUBJ_LIST,
    WORD,
    Pattern,
    p,
)

FUNDING: tuple[Pattern, ...] = (
    # --- invested_in ---------------------------------------------------------------------------------------
    p(
        "invested",
        "invest",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}(?:invested|invests|reinvested|invest)(?: \$)?(?: {WORD}){{0,3}}? in {OBJ}",
        0.9,
    ),
    p(
        "backed",
        "back|fund|financ|bankroll",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}(?:backed|backs|funded|funds|financed|bankrolled) {OBJ}"
        rf"(?! (?:shares|stock))",
        0.8,
    ),
    p(
        "backed_by",
        " by ",
        v.INVESTED_IN,
        rf"{OBJ_ONE_D}(?: ,)?(?: which| that)?(?: (?:is|was|are|were|has been|had been|"
        rf"being))?(?: {WORD})? (?:backed|funded|financed) by {SUBJ_LIST}",
        0.85,
    ),
    p(
        "led_round_in",
        "led|lead|anchor|head|closed",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}{LEAD_VERB}(?: (?:the|a|an|its|their))?(?: {ENT} 's)?(?: \$)?"
        rf"(?: {WORD}){{0,4}}? {ROUND} (?:for|in|into|of|at) {OBJ}",
        0.85,
    ),
    p(
        "self_led_round_in",
        "le|particip|join",
        v.INVESTED_IN,
        rf"^(?:co-)?(?:{LEAD_VERB}|participated in|participates in|joined)"
        rf"(?: (?:the|a|an))?"
        rf"(?: \$)?(?: {WORD}){{0,4}}? {ROUND} (?:for|in|into|of|at) {OBJ}",
        0.8,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "led_possessive_round",
        "led|lead",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}(?:led|leads|co-led|co-leads)(?: the)? {OBJ_ONE}(?: 's)?"
        rf"(?: {WORD}){{0,3}}? {ROUND}{NOT_ROUND_OF}",
        0.85,
    ),
    p(
        "self_led_possessive_round",
        "led|lead",
        v.INVESTED_IN,
        rf"^(?:led|leads|co-led|co-leads)(?: the)? {OBJ_ONE}(?: 's)?"
        rf"(?: {WORD}){{0,3}}? {ROUND}{NOT_ROUND_OF}",
        0.8,
        subject="self_person",
        bullet_only=True,
    ),
    p(
        "led_round",
        "led|lead|anchor|head",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}(?:(?:commits|committed|agreed) to )?(?:led|leads|co-led|co-leads|"
        rf"lead|leading|co-leading|anchored|headed)(?: (?:the|a|an|its|their))?(?: \$)?(?: {WORD}){{0,3}}? "
        rf"(?:round|raise|financing|investment){NOT_ROUND_OF}",
        0.75,
        object="owner",
    ),
    p(
        "round_led_by",
        " by ",
        v.INVESTED_IN,
        rf"{ROUND}(?: {WORD}){{0,3}}?(?: ,)? (?:was |is )?(?:led|co-led|anchored) by {SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "participation_from",
        "participation",
        v.INVESTED_IN,
        rf"participation (?:from|by) {SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "with_participating",
        "with ",
        v.INVESTED_IN,
        rf"with {SUBJ_LIST} (?:participating|leading|co-leading|investing|"
        rf"as (?:the )?(?:lead|co-lead|anchor)(?: {WORD}){{0,2}}? investors?)",
        0.8,
        object="owner",
    ),
    p(
        "investors_including",
        "investor|backer|syndicate|funder|angels|cap table",
        v.INVESTED_IN,
        rf"(?:(?P<o>{ENT}) 's )?(?:investors?|backers|investor group|"
        rf"investor base|syndicate|funders|angels|cap table)(?: ,)?(?: which| who| that)? "
        rf"(?:include|includes|"
        rf"included|including|such as|are|were|:) {SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "funding_from",
        " from ",
        v.INVESTED_IN,
        rf"(?:funding|capital|backing|money|investment)(?: for (?:the company|{ENT}))?"
        rf" (?:came|comes) from {SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "raised_from",
        " from ",
        v.INVESTED_IN,
        rf"(?:raised|raises|raising|closed|closes|secured|secures)(?: {WORD}){{0,5}}? "
        rf"(?:round|funding|capital|financing|investment|money|seed|\$)(?: {WORD}){{0,4}}? from {SUBJ_LIST}",
        0.8,
        object="owner",
    ),
    p(
        "participated",
        "particip|took part|join",
        v.INVESTED_IN,
        rf"{SUBJ} {AUX}(?:participated in|participates in|took part in|joins|joined)"
        rf"(?: (?:the|a|an|its|their))?(?: {WORD}){{0,3}}? (?:round|raise|financing|extension)"
        rf"{NOT_ROUND_OF}",
        0.75,
        object="owner",
    ),
)
