"""Company-to-company relations, reporting lines and attendance."""

from __future__ import annotations

from graph import vocabulary as v
from graph.extraction.patterns.fragments import (
    AUX,
    ENT,
    EVENT_NOUN,
    OBJ,
    OBJ_ONE,
    OBJ_ONE_D,
    PAREN,
    PARTICIPATION,
    SUBJ,
    SUBJ_LIST,
    WORD,
    Pattern,
    p,
)

RELATIONS: tuple[Pattern, ...] = (
    # --- partner_of / competitor_of / acquired / reports_to ------------------------------------------------
    p(
        "partnered",
        "partner|team",
        v.PARTNER_OF,
        rf"{SUBJ} {AUX}(?:partnered|partners|partnering|teamed up|teams up|teaming up) "
        rf"with {OBJ}",
        0.85,
    ),
    p(
        "partnership_with",
        "partnership",
        v.PARTNER_OF,
        rf"{SUBJ} {AUX}(?:signed|announced|announces|formed|entered|struck|inked|"
        rf"launched|expanded|signs|forms|enters)(?: into)? (?:a |an |the |its |their )?(?:{WORD} ){{0,3}}?"
        rf"partnership with {OBJ}",
        0.8,
    ),
    p(
        "self_partnership",
        "partnership",
        v.PARTNER_OF,
        rf"^(?:partnered with|(?:signed|announced|formed|entered|struck|inked)"
        rf"(?: into)? (?:a |an |the )?(?:{WORD} ){{0,3}}?partnership with) {OBJ}",
        0.75,
        subject="owner",
        bullet_only=True,
    ),
    p(
        "competes",
        "compet",
        v.COMPETITOR_OF,
        rf"{SUBJ} {AUX}(?:competes|competed|competing|compete) (?:directly |head-on )?"
        rf"(?:with|against) {OBJ}",
        0.85,
    ),
    p("rivals", "rival", v.COMPETITOR_OF, rf"{SUBJ} {AUX}(?:rivals|rivaled|rivalled) {OBJ}", 0.8),
    p(
        "competitor_noun",
        "competitor|rival",
        v.COMPETITOR_OF,
        rf"{SUBJ} (?:is|was|remains) (?:a |an |the )?(?:{WORD} ){{0,2}}?"
        rf"(?:competitor|rival) (?:of|to) {OBJ}",
        0.85,
    ),
    p(
        "acquired_verb",
        "acqui|bought|buy|purchas|snapped",
        v.ACQUIRED,
        rf"{SUBJ} {AUX}(?:acquired|acquires|acquire|bought|buys|purchased|purchases|"
        rf"snapped up) {OBJ}(?! (?:shares|stock|stake|a stake))",
        0.9,
    ),
    p(
        "acquired_by",
        " by ",
        v.ACQUIRED,
        rf"{OBJ_ONE_D}(?: ,)?(?: which| that)?(?: (?:was|were|is|has been|had been|got|"
        rf"being))?(?: {WORD})? (?:acquired|bought|purchased|acquihired|acqui-hired) by {SUBJ_LIST}",
        0.9,
    ),
    p("acquisition_of", "acquisition", v.ACQUIRED, rf"(?P<s>{ENT}) 's acquisition of {OBJ_ONE}", 0.85),
    p("acquisition_by", "acquisition", v.ACQUIRED, rf"acquisition of {OBJ_ONE} by (?P<s>{ENT})", 0.85),
    p(
        "reports_verb",
        "report",
        v.REPORTS_TO,
        rf"{SUBJ} {AUX}(?:reports|reported|reporting) (?:directly )?to {OBJ}",
        0.85,
    ),
    p(
        "reporting_to",
        "report",
        v.REPORTS_TO,
        rf"^(?P<s>{ENT})(?: {WORD}| {ENT}| ,){{0,12}}? , reporting (?:directly )?to "
        rf"(?P<o>{ENT})",
        0.75,
    ),
    # --- attended ------------------------------------------------------------------------------------------
    p(
        "attended_verb",
        "attend|stud|graduat|educated|dropped out|enrolled",
        v.ATTENDED,
        rf"{SUBJ} {AUX}(?:attended|attends|attending|studied at|studies at|graduated from|"
        rf"graduates from|was educated at|dropped out of|enrolled at|enrolled in) {OBJ}",
        0.85,
    ),
    p(
        "attended_event",
        "",
        v.ATTENDED,
        rf"{SUBJ_LIST}{PAREN}(?: from (?:the )?(?:{ENT}|{WORD})(?: team)?)? {AUX}{PARTICIPATION}",
        0.7,
        object="self_event",
    ),
    p(
        "attendees_include",
        "attendee|participant|room|present|panel|audience|guest|member",
        v.ATTENDED,
        rf"(?:attendees|participants|attendee list|the room|those present|"
        rf"present|panel|audience|guests|board members present|members present)(?: {WORD}){{0,2}}? "
        rf"(?:included|"
        rf"includes|including|were|was|:|comprised|featured) {SUBJ_LIST}",
        0.75,
        object="self_event",
    ),
    p(
        "in_attendance",
        "with ",
        v.ATTENDED,
        rf"with {SUBJ_LIST} (?:in attendance|present|attending|participating)",
        0.75,
        object="self_event",
    ),
    p(
        "were_present",
        "present|attendance|there",
        v.ATTENDED,
        rf"{SUBJ_LIST} (?:were|was)(?: also| both| all){{0,2}} (?:present|in attendance|"
        rf"there)",
        0.75,
        object="self_event",
    ),
    p(
        "led_alongside",
        "alongside",
        v.ATTENDED,
        rf"(?:leading|led|presenting|presented|running|ran|chairing|chaired) (?:the )?"
        rf"(?:{WORD} ){{0,2}}?(?:presentation|session|pitch|evaluation|discussion|meeting|demo|q&a|call|"
        rf"review)"
        rf" alongside {SUBJ_LIST}",
        0.75,
        object="self_event",
    ),
    p(
        "with_leading",
        "with ",
        v.ATTENDED,
        rf"with {SUBJ_LIST} (?:leading|presenting|chairing|running|moderating|hosting) "
        rf"(?:the )?(?:{WORD} ){{0,2}}?(?:presentation|session|pitch|evaluation|discussion|meeting|demo|q&a|"
        rf"call|"
        rf"review|proceedings)",
        0.75,
        object="self_event",
    ),
    p(
        "led_by_event",
        " by ",
        v.ATTENDED,
        rf"(?:discussion|session|presentation|meeting|pitch|demo|q&a|call|conversation|"
        rf"review) (?:was )?(?:led|chaired|hosted|facilitated|moderated|run|presented) by {SUBJ_LIST}",
        0.75,
        object="self_event",
    ),
    p(
        "exchange_involved",
        "involved|with ",
        v.ATTENDED,
        rf"(?:exchange|discussion|conversation|debate|q&a) (?:involved|with) "
        rf"{SUBJ_LIST}",
        0.7,
        object="self_event",
    ),
    p("event_between", "between", v.ATTENDED, rf"{EVENT_NOUN} between {SUBJ_LIST}", 0.75, object="self_event"),
    p("joined_by", "joined by", v.ATTENDED, rf"joined by {SUBJ_LIST}", 0.7, object="self_event"),
)
