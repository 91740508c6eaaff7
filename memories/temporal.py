"""Dates in text, zero LLM: absolute and relative expressions normalised against a reference time.

``tag_dates`` finds the date expressions of a memory's content ("yesterday", "last Friday", "two weeks ago",
"on 14 June", "Q3 2024", "since January", "7/5/2025") and turns each into an inclusive range of calendar days
(a single day when start == end). ``query_window`` does the same for a question and returns the window it asks
about. The module is pure (no Django, no database), never raises on any input, and its work is bounded: the
text is scanned by a fixed set of linear regular expressions (no nested quantifiers), at most ``MAX_TEXT_CHARS``
characters are read and at most ``MAX_MENTIONS`` mentions are returned.

Conventions (chosen to match how people use the words, and written down so that tests can hold them):
- weeks run Monday to Sunday; "last week" is the previous Monday–Sunday, "this weekend" the Saturday–Sunday of the
  reference's week; "last Friday" is the latest Friday strictly before the reference day, "next Friday" the first
  one strictly after it, "this Friday" the Friday of the reference's week;
- "N days/weeks/months/years ago" and "in N …" are single days; "last month/year/quarter" are whole periods;
- an expression without a year ("in March", "on 14 June", a bare "Friday") takes the occurrence the sentence's
  tense points to (past cues: "went", "was", "-ed" …; future cues: "will", "going to", "plan" …), else the
  nearest one; questions lean to the past, since they mostly ask about what was said;
- "since X" runs from the start of X to the reference day; "from X to Y" and "between X and Y" join into one range;
- numeric day/month dates read an impossible month as the other order ("7/13" is 13 July); when both orders are
  possible the day comes first unless ``dayfirst=False``, and the mention is marked ``ambiguous``; a date written
  with dots and its full year ("6.4.2026") is day first, as everywhere dots separate a date.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MAX_TEXT_CHARS = 32 * 1024
MAX_MENTIONS = 64
_MIN_YEAR, _MAX_YEAR = 1900, 2199


@dataclass(frozen=True, slots=True)
class DateMention:
    """One date expression found in a text: its characters and the inclusive day range it names."""

    text: str
    span: tuple[int, int]
    start: date
    end: date
    ambiguous: bool = False

    @property
    def is_range(self) -> bool:
        return self.start != self.end

    def as_json(self) -> str | dict[str, str]:
        """An ISO date, or ``{"start", "end"}`` for a range (the shape stored as ``event_dates``)."""
        if self.start == self.end:
            return self.start.isoformat()
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


@dataclass(frozen=True, slots=True)
class DateWindow:
    """The inclusive day window a question asks about, with the expressions it came from."""

    start: date
    end: date
    text: str

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    def as_json(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


# --- vocabulary -------------------------------------------------------------------------------------------------

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
    "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
    "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2, "thursday": 3, "thu": 3,
    "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "a couple of": 2, "couple of": 2, "a couple": 2, "a few": 3, "few": 3, "several": 3,
}  # fmt: skip
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
# a day of the month in words, as it is said aloud ("the third of November", "July twenty-first")
_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_TEENS = ("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
          "eighteenth", "nineteenth", "twentieth")  # fmt: skip
_DAY_WORDS = {
    **{word: n for n, word in enumerate(_UNITS, start=1)},
    **{word: n for n, word in enumerate(_TEENS, start=10)},
    **{f"twenty{joint}{word}": 20 + n for n, word in enumerate(_UNITS, start=1) for joint in ("-", " ")},
    "thirtieth": 30, "thirty-first": 31, "thirty first": 31,
}  # fmt: skip
_DAY_WORD = "(?:" + "|".join(word.replace(" ", r"\s+") for word in sorted(_DAY_WORDS, key=len, reverse=True)) + ")"
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 2)}

_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)"
)  # a dot only after an abbreviation: "May." ends a sentence, and the words after it are not the mention's
_WEEKDAY = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|"
    r"sun(?:day)?)"
)
_NUM = (
    r"(?:\d{1,3}|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|few|several|an?|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)"
)
_UNIT = r"(?:days?|weeks?|fortnights?|months?|years?)"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:1[9]\d\d|2[01]\d\d)"
_FLAGS = re.IGNORECASE

_FUTURE_CUES = re.compile(
    # ("as planned", "as scheduled": how something went, not what is to come)
    r"\b(?:will|shall|won't|going\s+to|gonna|(?<!\bas\s)plan(?:s|ning|ned)?|hope|hoping|want(?:s)?\s+to|intend\w*|"
    r"upcoming|looking\s+forward|can't\s+wait|(?<!\bas\s)schedul\w+|book(?:ed|ing)?|coming\s+up|next|soon|until|"
    r"till)\b|'ll\b",
    _FLAGS,
)
_PAST_CUES = re.compile(
    r"\b(?:was|were|did|didn't|went|had|got|came|saw|met|made|took|gave|told|said|been|ago|last|yesterday|"
    r"earlier|already|spoke|ate|ran|wrote|left|bought|found|felt|thought|flew|drove|began|knew|sat|stood|lost|won|"
    r"paid|sent|spent|heard|kept|slept|brought|caught|taught|fell|broke|chose|forgot|grew|hit|hurt|put|read|rode|"
    r"sang|swam|threw|wore|became|quit|led|held|built|rose|sold|drew|fled|fought|sought|meant|dealt|shut|"
    r"stepped|oversaw|undertook|withdrew|\w{2,}ed)\b",
    _FLAGS,
)
_SENTENCE_END = re.compile(r"[.!?\n]")


# --- calendar arithmetic ----------------------------------------------------------------------------------------


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _valid_year(year: int) -> bool:
    return _MIN_YEAR <= year <= _MAX_YEAR


def _make_date(year: int, month: int, day: int) -> date | None:
    if not _valid_year(year) or not 1 <= month <= 12:
        return None
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return date(year, month, day)


def _number(text: str) -> int | None:
    words = " ".join(text.lower().split())
    if words.isdigit():
        return int(words)
    return _NUMBERS.get(words)


def _two_digit_year(text: str) -> int:
    value = int(text.lstrip("'"))
    return value + 2000 if value < 100 else value


# --- tense -------------------------------------------------------------------------------------------------------


def _tense(text: str, span: tuple[int, int], default: str | None) -> str | None:
    """ "past", "future" or ``default``, from cue words in the mention's sentence (bounded look around)."""
    left = text[max(0, span[0] - 80) : span[0]]
    boundaries = [b.end() for b in _SENTENCE_END.finditer(left)]
    if boundaries:
        left = left[boundaries[-1] :]
    right = text[span[1] : span[1] + 40]
    stop = _SENTENCE_END.search(right)
    if stop is not None:
        right = right[: stop.start()]
    around = f"{left} {right}"
    if _FUTURE_CUES.search(around):
        return "future"
    if _PAST_CUES.search(around):
        return "past"
    return default


def _pick_year(ref: date, month: int, day: int | None, tense: str | None) -> int:
    """The year of a month (or month and day) written without one, as the tense or nearness suggests."""
    candidates = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        if day is None:
            first, last = date(year, month, 1), _month_end(year, month)
        else:
            real = _make_date(year, month, min(day, calendar.monthrange(year, month)[1]))
            if real is None:
                continue
            first = last = real
        candidates.append((year, first, last))
    if tense == "past":
        past = [c for c in candidates if c[1] <= ref]
        if past:
            return past[-1][0]
    elif tense == "future":
        future = [c for c in candidates if c[2] >= ref]
        if future:
            return future[0][0]

    def distance(candidate: tuple[int, date, date]) -> int:
        _, first, last = candidate
        if first <= ref <= last:
            return 0
        return min(abs((first - ref).days), abs((last - ref).days))

    return min(candidates, key=distance)[0]


# --- patterns ------------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Context:
    text: str
    ref: date
    dayfirst: bool
    default_tense: str | None


_Result = tuple[date, date] | tuple[date, date, bool] | None
_Handler = Callable[[re.Match[str], _Context], _Result]
_PATTERNS: list[tuple[re.Pattern[str], _Handler]] = []


def _pattern(regex: str) -> Callable[[_Handler], _Handler]:
    compiled = re.compile(regex, _FLAGS)

    def register(handler: _Handler) -> _Handler:
        _PATTERNS.append((compiled, handler))
        return handler

    return register


def _month_of(token: str | None) -> int | None:
    if token is None:
        return None
    return _MONTHS.get(token.lower().rstrip("."))


def _month_word_ok(match: re.Match[str], group: str) -> bool:
    """ "may" and "mar" are words too: as a month they are written capitalised (or follow a day number)."""
    token = match.group(group)
    if token is None:
        return True
    low = token.lower().rstrip(".")
    if low in ("may", "mar", "march", "sat", "sun", "wed"):
        return token[0].isupper()
    return True


@_pattern(rf"\b({_YEAR})[-/.](\d{{1,2}})[-/.](\d{{1,2}})\b")
def _iso_date(m: re.Match[str], ctx: _Context) -> _Result:
    day = _make_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return (day, day) if day else None


@_pattern(rf"\b({_YEAR})-(0[1-9]|1[0-2])\b(?![-/.]\d)")
def _iso_month(m: re.Match[str], ctx: _Context) -> _Result:
    year, month = int(m.group(1)), int(m.group(2))
    return date(year, month, 1), _month_end(year, month)


@_pattern(
    r"(?<![\w/.,-])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\w/]|[.,]\d|\s+of\b)|(?<![\w.,-])(\d{1,2})\.(\d{1,2})\.(\d{4})\b"
)
def _numeric(m: re.Match[str], ctx: _Context) -> _Result:
    if m.group(1) is not None:
        first, second, year_text = int(m.group(1)), int(m.group(2)), m.group(3)
    else:
        first, second, year_text = int(m.group(4)), int(m.group(5)), m.group(6)
    readings = []
    # a date written with dots and its full year ("6.4.2026") is day first wherever it is written so
    dotted = m.group(1) is None
    for day, month in (
        ((first, second), (second, first)) if ctx.dayfirst or dotted else ((second, first), (first, second))
    ):
        if 1 <= month <= 12 and 1 <= day <= 31 and (day, month) not in [(d, mo) for d, mo in readings]:
            readings.append((day, month))
    if not readings:
        return None
    day_n, month_n = readings[0]
    if year_text is not None:
        year = _two_digit_year(year_text)
    else:
        year = _pick_year(ctx.ref, month_n, day_n, _tense(ctx.text, m.span(), ctx.default_tense))
    found = _make_date(year, month_n, day_n)
    if found is None:
        return None
    return found, found, len(readings) > 1 and not dotted


@_pattern(
    rf"\b(?:the\s+)?(\d{{1,2}}){_ORD}\s*(?:-|–|to|until|till|through)\s*(?:the\s+)?(\d{{1,2}}){_ORD}(?:\s+of)?\s+"
    rf"(?P<m1>{_MONTH})(?:,?\s+({_YEAR}))?(?![\w])"
)
def _day_range_month(m: re.Match[str], ctx: _Context) -> _Result:
    return _day_span(ctx, m, int(m.group(1)), int(m.group(2)), _month_of(m.group("m1")), m.group(4))


@_pattern(
    rf"\b(?P<m1>{_MONTH})\s+(\d{{1,2}}){_ORD}\s*(?:-|–|to|until|through)\s*(\d{{1,2}}){_ORD}(?![\d:])(?:,?\s+({_YEAR}))?"
)
def _month_day_range(m: re.Match[str], ctx: _Context) -> _Result:
    if not _month_word_ok(m, "m1"):
        return None
    return _day_span(ctx, m, int(m.group(2)), int(m.group(3)), _month_of(m.group("m1")), m.group(4))


def _day_span(ctx: _Context, m: re.Match[str], first: int, last: int, month: int | None, year_text: str | None):
    if month is None or first > last:
        return None
    year = (
        int(year_text)
        if year_text
        else _pick_year(ctx.ref, month, first, _tense(ctx.text, m.span(), ctx.default_tense))
    )
    start, end = _make_date(year, month, first), _make_date(year, month, last)
    return (start, end) if start and end else None


@_pattern(rf"\b(?:the\s+)?(\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m1>{_MONTH})(?:,?\s+({_YEAR}|'\d\d))?(?![\w])")
def _day_month(m: re.Match[str], ctx: _Context) -> _Result:
    return _one_day(ctx, m, int(m.group(1)), _month_of(m.group("m1")), m.group(3))


@_pattern(
    rf"\b(?P<m1>{_MONTH})\s+(?:the\s+)?(\d{{1,2}}){_ORD}(?![\d:]|\s*(?:am|pm|%|hours?|minutes?)\b)(?:,?\s+({_YEAR}))?"
)
def _month_day(m: re.Match[str], ctx: _Context) -> _Result:
    if not _month_word_ok(m, "m1"):
        return None
    return _one_day(ctx, m, int(m.group(2)), _month_of(m.group("m1")), m.group(3))


def _day_word(text: str) -> int:
    return _DAY_WORDS[" ".join(text.lower().split())]


@_pattern(rf"\b(?:the\s+)?(?P<d>{_DAY_WORD})\s+of\s+(?P<m1>{_MONTH})(?:,?\s+({_YEAR}))?(?![\w])")
def _day_word_month(m: re.Match[str], ctx: _Context) -> _Result:
    return _one_day(ctx, m, _day_word(m.group("d")), _month_of(m.group("m1")), m.group(3))


# ("March the first thing …" is no day: a month's day in words stands at the end of its phrase)
@_pattern(rf"\b(?P<m1>{_MONTH})\s+(?:the\s+)?(?P<d>{_DAY_WORD})(?:,?\s+({_YEAR}))?(?=\s*(?:[.,;:!?)]|$))")
def _month_day_word(m: re.Match[str], ctx: _Context) -> _Result:
    if not _month_word_ok(m, "m1"):
        return None
    return _one_day(ctx, m, _day_word(m.group("d")), _month_of(m.group("m1")), m.group(3))


def _one_day(ctx: _Context, m: re.Match[str], day: int, month: int | None, year_text: str | None) -> _Result:
    if month is None:
        return None
    if year_text:
        year = _two_digit_year(year_text)
    else:
        year = _pick_year(ctx.ref, month, day, _tense(ctx.text, m.span(), ctx.default_tense))
    found = _make_date(year, month, day)
    return (found, found) if found else None


@_pattern(
    rf"\b(?:(early|mid|late|the\s+end\s+of|end\s+of|the\s+beginning\s+of|beginning\s+of|the\s+start\s+of|start\s+of)[\s-]+)?(?P<m1>{_MONTH}),?\s+({_YEAR})\b"
)
def _month_year(m: re.Match[str], ctx: _Context) -> _Result:
    if not _month_word_ok(m, "m1"):
        return None
    month = _month_of(m.group("m1"))
    if month is None:
        return None
    return _part_of_month(int(m.group(3)), month, m.group(1))


def _part_of_month(year: int, month: int, part: str | None) -> tuple[date, date]:
    first, last = date(year, month, 1), _month_end(year, month)
    word = (part or "").lower().split()[-1] if part else ""
    if word == "early":
        return first, date(year, month, 10)
    if word == "mid":
        return date(year, month, 11), date(year, month, 20)
    if word == "late" or word == "end":
        return date(year, month, 21), last
    if word in ("beginning", "start"):
        return first, date(year, month, 7)
    return first, last


@_pattern(
    rf"\b(?:between|from)\s+(?P<m1>{_MONTH})\s+(?:and|to|until|till|through|-|–)\s+(?P<m2>{_MONTH})(?:,?\s+({_YEAR}))?\b"
)
def _month_to_month(m: re.Match[str], ctx: _Context) -> _Result:
    if not (_month_word_ok(m, "m1") and _month_word_ok(m, "m2")):
        return None
    first, last = _month_of(m.group("m1")), _month_of(m.group("m2"))
    if first is None or last is None:
        return None
    if m.group(3):
        end_year = int(m.group(3))
    else:
        end_year = _pick_year(ctx.ref, last, None, _tense(ctx.text, m.span(), ctx.default_tense))
    start_year = end_year if first <= last else end_year - 1
    return date(start_year, first, 1), _month_end(end_year, last)


@_pattern(
    rf"\b(in|since|during|until|till|by|from|through|throughout|before|after|last|next|this|coming|past|early|mid|"
    rf"late|end\s+of|the\s+end\s+of|beginning\s+of|the\s+beginning\s+of|start\s+of|the\s+start\s+of|as\s+of|"
    rf"effective|starting)(?:\s+of)?[\s-]+(?P<m1>{_MONTH})(?![\w]|\s*\d|,\s*\d)"
)
def _month_alone(m: re.Match[str], ctx: _Context) -> _Result:
    if not _month_word_ok(m, "m1"):
        return None
    month = _month_of(m.group("m1"))
    if month is None:
        return None
    lead = " ".join(m.group(1).lower().split())
    ref = ctx.ref
    if lead == "last":
        year = ref.year if month < ref.month else ref.year - 1
    elif lead in ("next", "coming"):
        year = ref.year if month > ref.month else ref.year + 1
    elif lead == "this":
        year = ref.year
    elif lead == "since":
        year = ref.year if month <= ref.month else ref.year - 1
        return date(year, month, 1), max(ref, date(year, month, 1))
    else:
        year = _pick_year(ref, month, None, _tense(ctx.text, m.span(), ctx.default_tense))
    whole = ("in", "since", "last", "next", "this", "as of", "effective", "starting")  # the month, not a part of it
    return _part_of_month(year, month, lead if lead not in whole else None)


@_pattern(
    rf"\b(?:(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter|q([1-4])|([12])h|h([12])|"
    rf"(first|second)\s+half)(?:\s+(?:of\s+)?|\s*[/']\s*|\s+)?({_YEAR}|'\d\d|\d\d(?![\d\w]))?\b"
    rf"|\b({_YEAR})[\s-]*(q[1-4]|h[12])\b"
)
def _quarter(m: re.Match[str], ctx: _Context) -> _Result:
    if m.group(7):
        year = int(m.group(7))
        token = m.group(8).lower()
        quarter = int(token[1]) if token[0] == "q" else None
        half = int(token[1]) if token[0] == "h" else None
    else:
        quarter = _ORDINALS.get((m.group(1) or "").lower()) or (int(m.group(2)) if m.group(2) else None)
        half = int(m.group(3) or m.group(4)) if (m.group(3) or m.group(4)) else None
        if m.group(5):
            half = 1 if m.group(5).lower() == "first" else 2
        if m.group(6):
            year = _two_digit_year(m.group(6))
        else:
            if m.group(5) and not m.group(6):
                return None  # "the first half" of something, not of a year
            year = _period_year(ctx, m, quarter, half)
    if quarter:
        first_month = 3 * (quarter - 1) + 1
        return date(year, first_month, 1), _month_end(year, first_month + 2)
    if half:
        first_month = 1 if half == 1 else 7
        return date(year, first_month, 1), _month_end(year, first_month + 5)
    return None


def _period_year(ctx: _Context, m: re.Match[str], quarter: int | None, half: int | None) -> int:
    ref = ctx.ref
    current = (ref.month - 1) // 3 + 1 if quarter else (1 if ref.month <= 6 else 2)
    wanted = quarter or half or 1
    tense = _tense(ctx.text, m.span(), ctx.default_tense)
    if tense == "past" and wanted > current:
        return ref.year - 1
    if tense == "future" and wanted < current:
        return ref.year + 1
    return ref.year


@_pattern(
    r"\b(?:(the\s+)?day\s+before\s+yesterday|(the\s+)?day\s+after\s+tomorrow|yesterday|today|tonight|tomorrow|"
    r"this\s+(?:morning|afternoon|evening)|last\s+night|tmrw|tmr)\b"
)
def _deictic(m: re.Match[str], ctx: _Context) -> _Result:
    word = " ".join(m.group(0).lower().split())
    if "before yesterday" in word:
        offset = -2
    elif "after tomorrow" in word:
        offset = 2
    elif word in ("yesterday", "last night"):
        offset = -1
    elif word in ("tomorrow", "tmrw", "tmr"):
        offset = 1
    else:
        offset = 0
    day = ctx.ref + timedelta(days=offset)
    return day, day


@_pattern(rf"\b({_NUM})\s+({_UNIT})\s+(ago|back|before|earlier|from\s+now|from\s+today|later|hence)\b")
def _ago(m: re.Match[str], ctx: _Context) -> _Result:
    count = _number(m.group(1))
    if count is None or count > 400:
        return None
    word = m.group(3).lower()
    if word in ("before", "earlier", "later"):
        return None  # relative to another event, not to the reference time
    sign = -1 if word in ("ago", "back") else 1
    day = _shift(ctx.ref, sign * count, m.group(2))
    return (day, day) if day else None


@_pattern(rf"\b(?:with)?in\s+({_NUM})\s+({_UNIT})(?:'?\s*time)?\b(?!\s+(?:ago|before|earlier))")
def _in_n(m: re.Match[str], ctx: _Context) -> _Result:
    if m.group(0).lower().startswith("within"):
        count = _number(m.group(1))
        end = _shift(ctx.ref, count, m.group(2)) if count is not None and count <= 400 else None
        return (ctx.ref, end) if end else None
    count = _number(m.group(1))
    if count is None or count > 400:
        return None
    day = _shift(ctx.ref, count, m.group(2))
    return (day, day) if day else None


def _shift(ref: date, count: int, unit: str) -> date | None:
    unit = unit.lower().rstrip("s")
    try:
        if unit == "day":
            return ref + timedelta(days=count)
        if unit == "week":
            return ref + timedelta(weeks=count)
        if unit == "fortnight":
            return ref + timedelta(weeks=2 * count)
        if unit == "month":
            return _add_months(ref, count)
        if unit == "year":
            return _add_months(ref, 12 * count)
    except (ValueError, OverflowError):
        return None
    return None


@_pattern(rf"\b(?:the\s+)?(?:past|last|previous|next|coming)\s+({_NUM})\s+({_UNIT})\b")
def _last_n(m: re.Match[str], ctx: _Context) -> _Result:
    count = _number(m.group(1))
    if count is None or count > 400 or count < 1:
        return None
    forward = any(w in m.group(0).lower() for w in ("next", "coming"))
    edge = _shift(ctx.ref, count if forward else -count, m.group(2))
    if edge is None:
        return None
    return (ctx.ref, edge) if forward else (edge, ctx.ref)


@_pattern(
    r"\b(last|this|next|the\s+past|past|the\s+coming|coming|previous|the\s+previous|following|the\s+following|"
    r"earlier\s+this|later\s+this|end\s+of\s+(?:the|this|last|next)|the\s+end\s+of\s+(?:the|this|last|next))\s+"
    r"(week|weekend|month|year|quarter|spring|summer|autumn|fall|winter)\b"
)
def _named_period(m: re.Match[str], ctx: _Context) -> _Result:
    lead = " ".join(m.group(1).lower().split()).removeprefix("the ")
    unit = m.group(2).lower()
    ref = ctx.ref
    if lead in ("this", "end of the", "end of this", "earlier this", "later this"):
        offset = 0
    elif lead in ("last", "past", "previous", "end of last"):
        offset = -1
    else:
        offset = 1
    period = _period(ref, unit, offset)
    if period is None:
        return None
    start, end = period
    if lead == "earlier this":
        end = max(start, min(end, ref - timedelta(days=1)))
    elif lead == "later this":
        start = min(end, max(start, ref + timedelta(days=1)))
    elif lead.startswith("end of"):
        start = max(start, end - timedelta(days=6 if unit in ("month", "quarter") else 0 if unit == "week" else 30))
        if unit == "week":
            start = end - timedelta(days=2)
    return start, end


@_pattern(r"\b(?:over|at|during)\s+the\s+weekend\b")
def _the_weekend(m: re.Match[str], ctx: _Context) -> _Result:
    """ "over the weekend": the one just gone (on a weekend, that one), or the coming one when said of the future."""
    ref = ctx.ref
    saturday = _week_start(ref) + timedelta(days=5)
    if _tense(ctx.text, m.span(), ctx.default_tense) == "future":
        return (saturday, saturday + timedelta(days=1)) if ref <= saturday + timedelta(days=1) else None
    if saturday > ref:
        saturday -= timedelta(weeks=1)
    return saturday, saturday + timedelta(days=1)


def _period(ref: date, unit: str, offset: int) -> tuple[date, date] | None:
    if unit == "week":
        start = _week_start(ref) + timedelta(weeks=offset)
        return start, start + timedelta(days=6)
    if unit == "weekend":
        saturday = _week_start(ref) + timedelta(days=5, weeks=offset)
        return saturday, saturday + timedelta(days=1)
    if unit == "month":
        first = _add_months(ref.replace(day=1), offset)
        return first, _month_end(first.year, first.month)
    if unit == "year":
        year = ref.year + offset
        return (date(year, 1, 1), date(year, 12, 31)) if _valid_year(year) else None
    if unit == "quarter":
        first = _add_months(date(ref.year, 3 * ((ref.month - 1) // 3) + 1, 1), 3 * offset)
        return first, _month_end(_add_months(first, 2).year, _add_months(first, 2).month)
    if unit in _SEASONS:
        return _season(ref, unit, offset)
    return None


def _season_bounds(name: str, year: int) -> tuple[date, date]:
    """A season by the year it starts in (winter starts in December)."""
    first_month, last_month = _SEASONS[name]
    end_year = year + 1 if last_month < first_month else year
    return date(year, first_month, 1), _month_end(end_year, last_month)


def _season(ref: date, name: str, offset: int) -> tuple[date, date]:
    candidates = [_season_bounds(name, y) for y in range(ref.year - 2, ref.year + 2)]
    if offset < 0:
        return [c for c in candidates if c[1] < ref][-1]
    if offset > 0:
        return next(c for c in candidates if c[0] > ref)
    current = [c for c in candidates if c[0] <= ref <= c[1]]
    if current:
        return current[0]
    return next(c for c in candidates if c[0].year == ref.year)


@_pattern(
    rf"\b(?:(?:in|during|over|this\s+past|last|this|next|the)\s+)?(?:the\s+)?(spring|summer|autumn|fall|winter)"
    rf"(?:\s+(?:of\s+)?({_YEAR}))\b"
)
def _season_year(m: re.Match[str], ctx: _Context) -> _Result:
    return _season_bounds(m.group(1).lower(), int(m.group(2)))


# "from 2018 to 2022", "between 2018 and 2022", "2018–2022": the years from the first to the last
@_pattern(
    rf"\b(?:(?:from|between)\s+({_YEAR})\s*(?:-|–|—|to|until|till|through|and)\s*|({_YEAR})\s*[–—-]\s*)({_YEAR})\b(?![-/.]\d)"
)
def _year_range(m: re.Match[str], ctx: _Context) -> _Result:
    first, last = int(m.group(1) or m.group(2)), int(m.group(3))
    return (date(first, 1, 1), date(last, 12, 31)) if first <= last else None


@_pattern(rf"\b(in|during|since|throughout|for|of|by|until|before|after|early|late|mid)[\s-]+({_YEAR})\b(?![-/.]\d)")
def _year(m: re.Match[str], ctx: _Context) -> _Result:
    year = int(m.group(2))
    lead = m.group(1).lower()
    if lead == "early":
        return date(year, 1, 1), date(year, 4, 30)
    if lead == "mid":
        return date(year, 5, 1), date(year, 8, 31)
    if lead == "late":
        return date(year, 9, 1), date(year, 12, 31)
    if lead == "since" and year <= ctx.ref.year:
        return date(year, 1, 1), ctx.ref
    return date(year, 1, 1), date(year, 12, 31)


@_pattern(rf"\b(?:(last|this|next|coming|this\s+coming|this\s+past|past|on|by|until|since)\s+)?({_WEEKDAY})\b(?!s\b)")
def _weekday(m: re.Match[str], ctx: _Context) -> _Result:
    token = m.group(2)
    low = token.lower()
    if low in ("sat", "sun", "wed", "mon", "fri", "thu", "tue") and not token[0].isupper():
        return None
    if low in ("sat", "sun", "wed") and m.group(1) is None:
        return None  # "Sun" and "Sat" alone are names and words far more often than days
    weekday = _WEEKDAYS[low]
    lead = " ".join((m.group(1) or "").lower().split())
    ref = ctx.ref
    this_week = _week_start(ref) + timedelta(days=weekday)
    if lead in ("last", "this past", "past"):
        delta = (ref.weekday() - weekday) % 7 or 7
        day = ref - timedelta(days=delta)
    elif lead in ("next", "coming", "this coming"):
        delta = (weekday - ref.weekday()) % 7 or 7
        day = ref + timedelta(days=delta)
    elif lead == "this":
        day = this_week
    elif lead == "since":
        day = ref - timedelta(days=(ref.weekday() - weekday) % 7 or 7)
        return day, ref
    else:
        tense = _tense(ctx.text, m.span(), ctx.default_tense)
        if lead in ("by", "until"):
            tense = "future"
        if weekday == ref.weekday() and tense is None:
            day = ref
        elif tense == "past" or (tense is None and lead == "since"):
            day = ref - timedelta(days=(ref.weekday() - weekday) % 7 or 7)
        else:
            day = ref + timedelta(days=(weekday - ref.weekday()) % 7 or 7)
    return day, day


@_pattern(r"\b(?:the\s+)?(week|weekend|month|year)\s+before\s+last\b")
def _before_last(m: re.Match[str], ctx: _Context) -> _Result:
    return _period(ctx.ref, m.group(1).lower(), -2)


@_pattern(rf"\b({_WEEKDAY}),?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s*(?:of\s+)?{_MONTH})")
def _weekday_day_of_month(m: re.Match[str], ctx: _Context) -> _Result:
    """ "Monday the 13th": the 13th of the month, nearest the reference in the tense's direction, that is a Monday."""
    weekday, day, ref = _WEEKDAYS[m.group(1).lower()], int(m.group(2)), ctx.ref
    first = ref.replace(day=1)
    fits = [
        found
        for months in range(-12, 13)
        if (found := _make_date(*_add_months(first, months).timetuple()[:2], day)) and found.weekday() == weekday
    ]
    if not fits:
        return None
    tense = _tense(ctx.text, m.span(), ctx.default_tense)
    past, coming = [d for d in fits if d <= ref], [d for d in fits if d >= ref]
    if tense == "past" and past:
        found = past[-1]
    elif tense == "future" and coming:
        found = coming[0]
    else:
        found = min(fits, key=lambda d: abs((d - ref).days))
    return found, found


@_pattern(
    rf"\b(?:on|by|until|since|from|to)\s+the\s+(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s*(?:of\s+)?{_MONTH}|\s+(?:floor|time|place|row|century|anniversary|birthday|grade)\b)"
    # "it's due the 19th", "the deadline is the 13th now", a phrase that opens with it: a day of the month said as
    # what something is, where nothing follows it ("is the 13th person" counts, it dates nothing)
    rf"|(?:^|(?<=\bdue\s)|(?<=\bis\s)|(?<=['’]s\s)|(?<=\bnow\s)|(?<=\bstill\s))the\s+(\d{{1,2}})(?:st|nd|rd|th)"
    r"(?=\s*(?:[.,;:!?)—–]|$)|\s+(?:and|now|instead|not|then|but|so|again|at\s+the\s+latest)\b)"
)
def _day_of_month(m: re.Match[str], ctx: _Context) -> _Result:
    day = int(m.group(1) or m.group(2))
    ref = ctx.ref
    tense = _tense(ctx.text, m.span(), ctx.default_tense)
    this_month = _make_date(ref.year, ref.month, day)
    previous = _add_months(ref.replace(day=1), -1)
    following = _add_months(ref.replace(day=1), 1)
    before = this_month if this_month and this_month <= ref else _make_date(previous.year, previous.month, day)
    after = this_month if this_month and this_month >= ref else _make_date(following.year, following.month, day)
    if tense == "past":
        found = before
    elif tense == "future":
        found = after
    else:
        options = [d for d in (before, after) if d is not None]
        found = min(options, key=lambda d: abs((d - ref).days)) if options else None
    return (found, found) if found else None


@_pattern(r"\b(?:in|during|over|through)\s+(?:the\s+)?(spring|summer|autumn|fall|winter)\b(?!\s+(?:of\s+)?\d)")
def _season_alone(m: re.Match[str], ctx: _Context) -> _Result:
    name = m.group(1).lower()
    ref = ctx.ref
    tense = _tense(ctx.text, m.span(), ctx.default_tense)
    candidates = [_season_bounds(name, y) for y in range(ref.year - 2, ref.year + 2)]
    current = [c for c in candidates if c[0] <= ref <= c[1]]
    if current:
        return current[0]
    if tense == "past":
        return [c for c in candidates if c[1] < ref][-1]
    if tense == "future":
        return next(c for c in candidates if c[0] > ref)
    return min(candidates, key=lambda c: min(abs((c[0] - ref).days), abs((c[1] - ref).days)))


# --- the scan --------------------------------------------------------------------------------------------------

_SINCE = re.compile(r"\b(?:since|starting|from)\s+(?:the\s+)?$", _FLAGS)
_SINCE_ONLY = re.compile(r"\bsince\s+$", _FLAGS)
_JOINER = re.compile(r"^\s*(?:-|–|—|to|until|till|through|and)\s*$", _FLAGS)
_RANGE_LEAD = re.compile(r"\b(?:from|between)\s+(?:the\s+)?$", _FLAGS)
_NUMERIC_OR_ISO = re.compile(r"^\s*\d")


def _to_datetime_date(reference: datetime | date) -> date:
    if isinstance(reference, datetime):
        return reference.date()
    return reference


# every pattern needs one of these: most texts have none and skip the patterns altogether
_ANY_CUE = re.compile(
    r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|day|ago|tonight|"
    r"tomorrow|tmr|night|week|month|year|quarter|spring|summer|autumn|fall|winter|fortnight|morning|afternoon|"
    r"evening|\bq[1-4]|\bh[12]\b|half",
    _FLAGS,
)


def _scan(text: str, ref: date, dayfirst: bool, default_tense: str | None, limit: int) -> list[DateMention]:
    if not _ANY_CUE.search(text):
        return []
    ctx = _Context(text=text, ref=ref, dayfirst=dayfirst, default_tense=default_tense)
    found: list[tuple[int, int, date, date, bool]] = []
    for regex, handler in _PATTERNS:
        # matches come in text order, so a per-pattern cap keeps the earliest ones and bounds the work
        kept = 0
        for match in regex.finditer(text):
            if kept >= 2 * limit:
                break
            try:
                result = handler(match, ctx)
            except (ValueError, OverflowError, KeyError, IndexError):
                result = None
            if result is None:
                continue
            start, end = result[0], result[1]
            ambiguous = bool(result[2]) if len(result) > 2 else False
            if start is None or end is None or end < start:
                continue
            found.append((match.start(), match.end(), start, end, ambiguous))
            kept += 1
    # longest match wins where candidates overlap; ties go to the earlier pattern
    found.sort(key=lambda c: (c[0], -(c[1] - c[0])))
    chosen: list[tuple[int, int, date, date, bool]] = []
    for candidate in found:
        if chosen and candidate[0] < chosen[-1][1]:
            if candidate[1] - candidate[0] > chosen[-1][1] - chosen[-1][0]:
                chosen[-1] = candidate
            continue
        chosen.append(candidate)
    merged = _join_ranges(text, chosen, ref)
    return [
        DateMention(text=text[s:e], span=(s, e), start=start, end=end, ambiguous=amb)
        for s, e, start, end, amb in merged[:limit]
    ]


def _join_ranges(text: str, chosen: list[tuple[int, int, date, date, bool]], ref: date):
    out: list[tuple[int, int, date, date, bool]] = []
    for candidate in chosen:
        s, e, start, end, amb = candidate
        if out:
            ps, pe, pstart, pend, pamb = out[-1]
            between = text[pe:s]
            if len(between) <= 12 and _JOINER.match(between):
                lead = text[max(0, ps - 12) : ps]
                if (_RANGE_LEAD.search(lead) or between.strip() in ("-", "–", "—")) and pstart <= end:
                    out[-1] = (ps, e, pstart, max(pend, end), pamb or amb)
                    continue
            # "Friday, 14 June": the weekday names the same day as the date after it
            if len(between) <= 2 and between.strip() in ("", ",") and pstart == pend and start == end:
                if pstart == start or text[ps:pe].strip().lower().rstrip(",") in _WEEKDAYS:
                    out[-1] = (ps, e, start, end, amb)
                    continue
        lead = text[max(0, s - 12) : s]
        if _SINCE_ONLY.search(lead) and start <= ref:
            out.append((s - len(_SINCE_ONLY.search(lead).group(0)), e, start, max(ref, start), amb))
            continue
        out.append(candidate)
    return out


def tag_dates(
    text: str, *, reference: datetime | date, dayfirst: bool = True, limit: int = MAX_MENTIONS
) -> list[DateMention]:
    """Every date expression of ``text`` (at most ``limit``), normalised against ``reference``.

    Never raises: input that is not text, or a reference that is not a date, gives an empty list.
    """
    try:
        if not isinstance(text, str) or not text:
            return []
        if not isinstance(reference, (date, datetime)):
            return []
        return _scan(text[:MAX_TEXT_CHARS], _to_datetime_date(reference), dayfirst, None, max(0, int(limit)))
    except Exception:  # noqa: BLE001 - a tagger is an enrichment; bad input must never fail a write
        return []


def event_dates(text: str, *, reference: datetime | date, limit: int = MAX_MENTIONS) -> list[str | dict[str, str]]:
    """The distinct dates and ranges of ``text`` in the stored shape: ISO dates or ``{"start", "end"}``."""
    values: list[str | dict[str, str]] = []
    seen: set[tuple[date, date]] = set()
    for mention in tag_dates(text, reference=reference, limit=limit):
        key = (mention.start, mention.end)
        if key not in seen:
            seen.add(key)
            values.append(mention.as_json())
    return values


def query_window(text: str, *, as_of: datetime | date, dayfirst: bool = True) -> DateWindow | None:
    """The day window a question asks about ("what did we decide last week?"), relative to ``as_of``.

    Expressions without a year lean to the past unless the question's words point ahead. Several expressions
    give the window that spans them all. ``None`` when the question names no time. Never raises.
    """
    try:
        if not isinstance(text, str) or not text or not isinstance(as_of, (date, datetime)):
            return None
        mentions = _scan(text[:4096], _to_datetime_date(as_of), dayfirst, "past", 8)
    except Exception:  # noqa: BLE001 - a window is a ranking hint; a question must never fail on it
        return None
    if not mentions:
        return None
    return DateWindow(
        start=min(m.start for m in mentions),
        end=max(m.end for m in mentions),
        text=", ".join(m.text for m in mentions),
    )
