"""Question types and the answer-type cues a sentence may hold — pure, no Django: a "when" question wants a date,
"who" a person, "where" a place, "how many / how much" a number, "how long / how often" a duration or frequency,
"what time" a time, "why" a reason."""

from __future__ import annotations

import re

from retrieval.text import MONTH_ABBREVIATIONS, MONTHS, STOPWORDS, WEEKDAYS, WORD_RE, word_stem

__all__ = ["question_type"]

# the calendar's words as regular-expression alternatives: month names, then their abbreviations; weekdays, one or
# many, then weekdays and weekends
MONTH_PATTERN = "|".join(MONTHS + MONTH_ABBREVIATIONS)
WEEKDAY_PATTERN = "|".join([*(f"{day}s?" for day in WEEKDAYS), "weekdays?", "weekends?"])
DATE_RE = re.compile(
    rf"\b(?:\d{{4}}-\d{{2}}-\d{{2}}|(?:19|20)\d{{2}}|(?:{MONTH_PATTERN})\b|(?:{WEEKDAY_PATTERN})\b|q[1-4]\b|"
    r"(?:next|last|this)\s+(?:year|quarter|month|week)|quarter|yesterday|tomorrow|today|spring|summer|autumn|fall|"
    r"winter|season|christmas|holidays?)",
    re.I,
)
TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})\s*(?:[ap]\.?m\.?)?|\b\d{1,2}\s*[ap]\.?m\b|\bnoon\b|\bmidnight\b", re.I)
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|dozen|half"
)
NUMBER_RE = re.compile(rf"[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:%|k\b|m\b|bn\b)?|\b(?:{_NUMBER_WORDS})\b", re.I)
DURATION_RE = re.compile(
    rf"\b(?:\d[\d,.]*|{_NUMBER_WORDS}|a|an|few|several)\s+(?:business\s+|working\s+|calendar\s+)?"
    r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|quarters?|years?|sessions?|seasons?)\b"
    r"|\b(?:every|each|per|once|twice|daily|weekly|monthly|quarterly|yearly|annually|hourly|nightly|biweekly)\b",
    re.I,
)
_PERSON_RE = re.compile(
    r"\b(?:dr|mr|mrs|ms|prof|chef)\.?\s+[A-Z][a-z]+"
    r"|\b[A-Z][a-z]+(?:\s+(?:de|van|von|da|del|di|le|la))?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b"
)
# Capitalised words that name events, periods or documents rather than people ("Demo Day", "Board Meeting").
_NOT_PERSON_WORDS = frozenset(
    {"day", "days", "meeting", "meetings", "board", "batch", "week", "winter", "summer", "spring", "autumn", "fall",
     "quarter", "series", "round", "demo", "annual", "conference", "summit", "review", "plan", "policy", "report",
     "update", "notes", "agenda", "release", "launch", "program", "programme", "project", "the", "our", "we", "this"}
)  # fmt: skip
_PLACE_RE = re.compile(
    r"\b(?:in|at|from|to|on)\s+(?:the\s+)?[A-Z][\w'’.-]+"
    r"|\b\d{1,5}\s+[A-Z][a-z]+(?:strasse|straße|street|st|road|rd|avenue|ave|lane|way|platz)\b"
    r"|\b[A-Z][a-z]+(?:strasse|straße|street|road|avenue|platz)\s+\d{1,5}\b"
    r"|\b(?:office|hall|room|floor|building|desk|warehouse|region|campus|site|board|wiki|channel|app|folder|"
    r"drive|repository|repo|vault)\b"
    r"|#[a-z][\w-]+|\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    re.I,
)
_PLACE_CAPITAL_RE = re.compile(r"\b(?:in|at|from|on)\s+(?:the\s+)?[A-Z]")
_REASON_RE = re.compile(
    r"\b(?:because|due\s+to|since|as\s+a\s+result|so\s+that|owing\s+to|caused\s+by|reason|in\s+order\s+to)\b", re.I
)

_TYPE_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "date": (DATE_RE,),
    "time": (TIME_RE,),
    "number": (NUMBER_RE,),
    "duration": (DURATION_RE,),
    "person": (_PERSON_RE,),
    "place": (_PLACE_RE,),
    "reason": (_REASON_RE,),
}


# "which firm …", "what is her favourite team": the noun right after the wh-word asks for a name of that kind
_ASKS_FOR_AGENT_RE = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:(?:the|our|your|their|his|her|its|my|\w+['’]s)\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:team|club|company|firm|organi[sz]ation|agency|vendor|supplier|provider)s?\b"
)


def question_type(question: str) -> str | None:
    """The answer type a question asks for: ``date`` (when, what/which day/month/year), ``time`` (what time),
    ``duration`` (how long/often/soon/fast), ``number`` (how many/much, what … cost/price/budget/quota),
    ``person`` (who, whom, whose; which team/company/firm …, "what is her favourite team"), ``place`` (where,
    which office/city/region), ``reason`` (why); else None."""
    q = " ".join(question.casefold().split())
    if re.search(r"\bwhat\s+time\b|\bwhen\s+does\s+\S+(?:\s+\S+)?\s+(?:open|close|start|end)\b", q):
        return "time"
    if re.search(r"\bhow\s+(?:long|often|soon|fast|quickly|frequently|far\s+ahead)\b", q):
        return "duration"
    if re.search(r"\bhow\s+(?:many|much|big|large|high|old)\b|\bwhat\s+(?:is|was|are)\s+(?:the|our)\s+"
                 r"(?:\w+\s+){0,2}(?:cost|price|budget|quota|limit|burn|rate|size|amount|fee)\b", q):  # fmt: skip
        return "number"
    if re.search(r"\b(?:when|(?:what|which)\s+(?:day|date|month|year|week|quarter)s?)\b", q):
        return "date"
    if re.search(r"\bwho(?:m|se)?\b", q) or _ASKS_FOR_AGENT_RE.search(q):
        return "person"
    if re.search(r"\bwhere\b|\bwhich\s+(?:office|city|country|region|warehouse|room|site|channel|app)\b", q):
        return "place"
    if re.search(r"\bwhy\b", q):
        return "reason"
    return None


def has_cue(kind: str | None, sentence: str, question_terms: frozenset[str]) -> bool:
    """Whether ``sentence`` holds a token of the asked type that is not one of the question's own words."""
    if kind is None:
        return False
    for pattern in _TYPE_PATTERNS[kind]:
        for match in pattern.finditer(sentence):
            raw_words = {w.casefold() for w in WORD_RE.findall(match.group(0))}
            if kind == "person" and raw_words & _NOT_PERSON_WORDS:
                continue
            words = {word_stem(w) for w in raw_words} - STOPWORDS
            if kind == "place" and not _PLACE_CAPITAL_RE.match(match.group(0)) and not words - question_terms:
                continue
            if not words or words - question_terms:
                return True
    return False
