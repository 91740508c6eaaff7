"""Do two short statements contradict? Pure, zero-LLM, fast enough to run at write time over a handful of
candidates.

Two kinds of contradiction are recognised:

- **negation twins** — the same claim with opposite polarity ("We deploy on Fridays" / "We no longer deploy on
  Fridays"), exactly as :func:`memories.textsim.polarity_twins` defines it, so the write path, the admin queue and
  answering keep one definition;
- **the same statement with a different value** — one slot differs and both sides hold a value of the same type:
  a weekday, a number (with its unit, converted where the units are commensurable), an amount of money, a date, a
  time of day, a frequency ("daily" / "weekly"), an ordinal, an environment, a state word of one antonym group
  ("enabled" / "disabled"), or a name where the predicate takes one value ("Alice leads platform" / "Bea leads
  platform").

The statements are aligned token by token (values parsed into canonical tokens first, so "22 months" and
"twenty-two months", "2025-03-01" and "1 March 2025" compare equal); everything outside the one differing slot
must match, apart from function words. That is what keeps paraphrases, additions ("Tuesdays and Thursdays"),
different subjects (two differing slots, or a differing subject with a predicate that takes many), refinements
(a bound or an approximate value that the other value satisfies, a date inside the other) and unrelated facts
sharing words from being flagged. Longer memories are compared sentence by sentence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from memories.textsim import polarity_signature, polarity_twins, signatures_are_twins, suffix_stem

__all__ = ["Contradiction", "contradicting_pairs", "contradiction_between", "statements_contradict", "value_masked"]

MAX_SENTENCES = 12  # per side: bounds the sentence-pair comparisons of a long memory
PREFILTER_JACCARD = 0.4  # sentences whose value-masked words overlap less than this are not one statement
MAX_SENTENCE_CHARS = 400  # a longer sentence is no short statement: only the negation check applies to it
_MAX_CHARS = 4000  # per side: what is compared of a very long memory


@dataclass(frozen=True)
class Contradiction:
    """Why two statements contradict.

    ``kind`` is ``"negation"`` (polarity twins) or ``"value"``; ``slot`` names the value type (``weekday``,
    ``number``, ``money``, ``date``, ``time``, ``frequency``, ``ordinal``, ``environment``, ``quarter``, ``state``,
    ``name``; ``polarity`` for negation twins); ``values`` are the differing words as written (empty for negation
    twins); ``message`` says it in one sentence.
    """

    kind: str
    slot: str
    values: tuple[str, str]
    message: str


# --- vocabulary -------------------------------------------------------------------------------------------------

_WEEKDAYS = {
    name: index
    for index, names in enumerate(
        [("monday",), ("tuesday",), ("wednesday",), ("thursday",), ("friday",), ("saturday",), ("sunday",)]
    )
    for name in names
}
_WEEK_PARTS = {"weekday": "weekdays", "weekdays": "weekdays", "weekend": "weekends", "weekends": "weekends"}
_MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
# abbreviations and "may"/"march" only count as months when written with a capital ("We may deploy")
_AMBIGUOUS_MONTHS = frozenset({"may", "mar", "jan", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "apr", "feb"})
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12,
}  # fmt: skip
_MULTIPLIERS = {"hundred": 1e2, "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mm": 1e6, "mn": 1e6,
                "billion": 1e9, "bn": 1e9, "b": 1e9}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "last": -1,
}  # fmt: skip
# unit aliases → (canonical unit, dimension, factor to the dimension's base)
_UNITS: dict[str, tuple[str, str, float]] = {}
for _names, _canonical, _dimension, _factor in [
    (("ms", "millisecond", "milliseconds", "msec"), "millisecond", "time", 0.001),
    (("s", "sec", "secs", "second", "seconds"), "second", "time", 1.0),
    (("min", "mins", "minute", "minutes"), "minute", "time", 60.0),
    (("h", "hr", "hrs", "hour", "hours"), "hour", "time", 3600.0),
    (("day", "days"), "day", "time", 86400.0),
    (("week", "weeks", "wk", "wks"), "week", "time", 604800.0),
    (("month", "months", "mo", "mos"), "month", "time", 2629800.0),
    (("quarter", "quarters"), "quarter", "time", 7889400.0),
    (("year", "years", "yr", "yrs"), "year", "time", 31557600.0),
    (("kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"), "kilogram", "mass", 1000.0),
    (("g", "gram", "grams"), "gram", "mass", 1.0),
    (("lb", "lbs", "pound", "pounds"), "pound", "mass", 453.592),
    (("t", "tonne", "tonnes", "ton", "tons"), "tonne", "mass", 1e6),
    (("mm", "millimeter", "millimeters", "millimetre", "millimetres"), "millimeter", "length", 0.001),
    (("cm", "centimeter", "centimeters", "centimetre", "centimetres"), "centimeter", "length", 0.01),
    (("m", "meter", "meters", "metre", "metres"), "meter", "length", 1.0),
    (("km", "kilometer", "kilometers", "kilometre", "kilometres"), "kilometer", "length", 1000.0),
    (("mile", "miles"), "mile", "length", 1609.34),
    (("kb", "kib", "kilobyte", "kilobytes"), "kilobyte", "data", 1e3),
    (("mb", "mib", "megabyte", "megabytes"), "megabyte", "data", 1e6),
    (("gb", "gib", "gigabyte", "gigabytes"), "gigabyte", "data", 1e9),
    (("tb", "tib", "terabyte", "terabytes"), "terabyte", "data", 1e12),
    (("%", "percent", "per cent", "pct"), "percent", "percent", 1.0),
]:
    for _name in _names:
        _UNITS[_name] = (_canonical, _dimension, _factor)
# units so short that they are only units right after a number ("5 m", "10 s")
_BARE_UNITS_NEED_NUMBER = frozenset({"s", "h", "m", "g", "t", "mm", "mo", "mos", "b", "k"})
_FREQUENCIES = {
    "hourly": "hourly", "daily": "daily", "nightly": "daily", "weekly": "weekly", "biweekly": "biweekly",
    "fortnightly": "biweekly", "monthly": "monthly", "quarterly": "quarterly", "yearly": "yearly",
    "annually": "yearly", "annual": "yearly",
}  # fmt: skip
_ENVIRONMENTS = {
    "production": "production", "prod": "production", "staging": "staging", "stage": "staging",
    "development": "development", "dev": "development", "sandbox": "sandbox", "qa": "qa", "preview": "preview",
}  # fmt: skip
# antonym groups: word → (group, pole); two words of one group and different poles contradict
_STATES: dict[str, tuple[str, str]] = {}
for _group, _poles in {
    "enabled": {"enabled": "on", "disabled": "off", "on": "on", "off": "off", "active": "on", "inactive": "off",
                "activated": "on", "deactivated": "off", "true": "on", "false": "off"},
    "allowed": {"allowed": "yes", "permitted": "yes", "forbidden": "no", "prohibited": "no", "banned": "no",
                "disallowed": "no", "blocked": "no"},
    "required": {"required": "must", "mandatory": "must", "compulsory": "must", "optional": "may"},
    "visibility": {"public": "public", "private": "private", "internal": "private"},
    "open": {"open": "open", "closed": "closed", "opened": "open"},
    "order": {"before": "before", "after": "after", "prior": "before"},
    "extreme": {"minimum": "min", "maximum": "max", "earliest": "min", "latest": "max", "lowest": "min",
                "highest": "max"},
    "place": {"remote": "remote", "onsite": "onsite", "hybrid": "hybrid", "office": "onsite"},
    "sync": {"synchronous": "sync", "asynchronous": "async", "sync": "sync", "async": "async"},
}.items():  # fmt: skip
    for _word, _pole in _poles.items():
        _STATES[_word] = (_group, _pole)
# "on"/"off" are switch states only at the end of a clause ("the flag is on", "off in production"), not as
# prepositions ("deploy on Tuesdays")
_AFTER_ON_OFF = frozenset({"", "in", "for", "by", "at", "during", "until", "when", "and", "but", "again", "now"})
# bounds and approximations in front of a number: one side's bound that the other value satisfies is a
# refinement, not a contradiction
_LOWER = frozenset({"least", "over", "above", "more", "min", "exceeding", "upwards", "plus"})
_UPPER = frozenset({"most", "under", "below", "less", "fewer", "max", "within", "upto"})
_APPROX = frozenset({"about", "around", "approximately", "roughly", "nearly", "almost", "circa", "approx", "some"})
_QUALIFIERS = _LOWER | _UPPER | _APPROX | {"at", "than", "up", "to", "no"}
# Function words: their insertion or change never makes a different statement here.
_FILLERS = frozenset(
    """a an the this that these those our we us my your their its his her it they you i
    is are was were be been being am has have had do does did will would shall should can could
    now currently actually still also instead again then just presently nowadays going forward moving
    of on in at for to by from with as per each every all any
    and so""".split()
)
# Copulas: a name right after one is the predicate's single value ("the primary database is Postgres").
_COPULAS = frozenset({"is", "are", "was", "were", "remains", "becomes", "be"})
# Predicates taking one value for their subject ("X leads Y": Y has one lead) or, after "by"/"to", for their object.
_ROLE_VERBS = frozenset(
    {"leads", "lead", "led", "heads", "head", "headed", "manages", "managed", "owns", "owned", "runs", "run",
     "chairs", "chaired", "maintains", "maintained", "coordinates", "coordinated", "supervises", "supervised"}
)  # fmt: skip
_ROLE_NOUNS = frozenset(
    {"ceo", "cto", "cfo", "coo", "cpo", "cio", "ciso", "president", "chair", "chairperson", "lead", "head",
     "owner", "manager", "maintainer", "captain", "dri", "director", "principal", "coordinator", "contact",
     "responsible", "charge", "call", "steward", "approver", "sponsor", "champion"}
)  # fmt: skip
_PLACE_VERBS = frozenset({"headquartered", "based", "located", "hosted", "lives", "resides", "registered"})
_SINGLE_VALUE_MODIFIERS = frozenset({"primary", "default", "main", "official", "sole", "single", "only"})
# A number right after one of these is an identifier ("Room 4", "Sprint 12"), not a quantity.
_ID_NOUNS = frozenset(
    {"room", "ticket", "issue", "pr", "version", "v", "step", "rule", "item", "floor", "building", "gate",
     "line", "phase", "sprint", "team", "squad", "level", "tier", "batch", "bug", "incident", "case", "order",
     "invoice", "table", "region", "zone", "project", "release", "build", "cohort", "section", "chapter",
     "page", "episode", "week", "day", "lot", "unit", "desk", "bay", "track", "stage", "wave", "round"}
)  # fmt: skip
_NEGATORS = frozenset(
    {"not", "no", "never", "nor", "cannot", "stopped", "ceased", "dont", "doesnt", "didnt", "isnt", "arent",
     "wasnt", "werent", "wont", "cant", "couldnt", "shouldnt", "wouldnt", "hasnt", "havent", "hadnt", "longer"}
)  # fmt: skip

# --- tokens -----------------------------------------------------------------------------------------------------

_RAW_TOKEN_RE = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}"  # ISO date
    r"|\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?"  # 9:30, 4:00 pm
    r"|[$€£¥]\s?\d[\d,]*(?:\.\d+)?"  # money
    r"|#\d+"  # an identifier
    r"|\d+(?:st|nd|rd|th)\b"  # an ordinal
    r"|\d[\d,]*(?:\.\d+)?"  # a number (its unit is the next token)
    r"|%"
    r"|[^\W\d_]+(?:'[^\W\d_]+)*"  # a word (letters, inner apostrophes)
)
_SENTENCE_END_RE = re.compile(r"(?<=[.!?;])\s+|\n+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


@dataclass(frozen=True)
class _Token:
    key: str  # what alignment compares: canonical for values, a crude stem for words
    kind: str  # word | filler | number | money | unit | date | time | weekday | weekpart | frequency | ordinal |
    #            environment | quarter | state | name | id | negator
    raw: str  # as written
    value: object = None  # number: float; money: (currency, float); date: (y, m, d); unit: (dimension, factor)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def _fmt(value: float) -> str:
    return f"{value:.6g}"


def _raw_tokens(text: str) -> list[tuple[str, bool]]:
    """(lower-cased token, written with a capital) for each raw token."""
    folded = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    out = []
    for match in _RAW_TOKEN_RE.finditer(folded):
        token = match.group(0)
        out.append((token.casefold().replace("'", ""), token[:1].isupper()))
    return out


def _time_value(token: str, meridiem: str | None) -> int | None:
    match = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s?([ap])?\.?m?\.?", token)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    half = match.group(3) or (meridiem[0] if meridiem else None)
    if half == "p" and hour < 12:
        hour += 12
    if half == "a" and hour == 12:
        hour = 0
    if hour > 24 or minute > 59:
        return None
    return hour * 60 + minute


@lru_cache(maxsize=8192)
def _tokens(sentence: str) -> tuple[_Token, ...]:
    raw = _raw_tokens(sentence)
    tokens: list[_Token] = []
    i = 0
    n = len(raw)

    def month_at(j: int) -> int | None:
        if j >= n:
            return None
        word, capital = raw[j]
        if word in _MONTHS and (capital or word not in _AMBIGUOUS_MONTHS):
            return _MONTHS[word]
        return None

    def day_at(j: int) -> int | None:
        if j < n and raw[j][0].isdigit():
            value = _number(raw[j][0])
            # the range first: a run of digits reads as infinity, which int() refuses
            if value is not None and 1 <= value <= 31 and value == int(value) and "," not in raw[j][0]:
                return int(value)
        match = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", raw[j][0]) if j < n else None
        return int(match.group(1)) if match else None

    def year_at(j: int) -> int | None:
        if j < n and re.fullmatch(r"(19|20)\d{2}", raw[j][0]):
            return int(raw[j][0])
        return None

    def date_token(start: int, width: int, year, month, day) -> int:
        """Append the date spelt by the ``width`` words at ``start``; the index after them."""
        text = " ".join(t for t, _ in raw[start : start + width])
        tokens.append(_Token(f"date:{year}-{month}-{day}", "date", text, (year, month, day)))
        return start + width

    while i < n:
        word, capital = raw[i]
        nxt = raw[i + 1][0] if i + 1 < n else ""
        # dates: ISO; day month [year]; month day [year]; month year; a bare year
        if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", word):
            y, m, d = (int(part) for part in word.split("-"))
            tokens.append(_Token(f"date:{y}-{m}-{d}", "date", word, (y, m, d)))
            i += 1
            continue
        day = day_at(i)
        if day is not None and month_at(i + 1) is not None:
            month = month_at(i + 1)
            year = year_at(i + 2)
            width = 3 if year else 2
            i = date_token(i, width, year, month, day)
            continue
        month = month_at(i)
        if month is not None:
            day = day_at(i + 1)
            if day is not None:
                year = year_at(i + 2)
                width = 3 if year else 2
                i = date_token(i, width, year, month, day)
                continue
            year = year_at(i + 1)
            width = 2 if year else 1
            i = date_token(i, width, year, month, None)
            continue
        year = year_at(i)
        if year is not None and not (tokens and tokens[-1].kind == "money"):
            tokens.append(_Token(f"date:{year}-None-None", "date", word, (year, None, None)))
            i += 1
            continue
        # times of day
        if ":" in word or re.fullmatch(r"\d{1,2}[ap]m", word):
            value = _time_value(word, None)
            if value is not None:
                tokens.append(_Token(f"time:{value}", "time", word, value))
                i += 1
                continue
        if re.fullmatch(r"\d{1,2}", word) and nxt in ("am", "pm", "a", "p"):
            value = _time_value(word, nxt)
            if value is not None:
                skip = 2 + (1 if nxt in ("a", "p") and i + 2 < n and raw[i + 2][0] == "m" else 0)
                tokens.append(_Token(f"time:{value}", "time", f"{word} {nxt}", value))
                i += skip
                continue
        if word.startswith("#"):
            tokens.append(_Token(f"id:{word[1:]}", "id", word))
            i += 1
            continue
        # money and numbers (digits or number words), with a multiplier word merged in
        currency = None
        if word[:1] in "$€£¥":
            currency, digits = word[0], word[1:].strip()
            value = _number(digits)
        elif word[:1].isdigit():
            value = _number(word)
        elif word in _NUMBER_WORDS:
            value = float(_NUMBER_WORDS[word])
            j = i + 1
            while j < n and raw[j][0] in _NUMBER_WORDS and _NUMBER_WORDS[raw[j][0]] < 10 <= value:
                value += _NUMBER_WORDS[raw[j][0]]
                j += 1
            i = j - 1
        else:
            value = None
        if value is not None:
            j = i + 1
            if j < n and raw[j][0] in _MULTIPLIERS and (raw[j][0] not in ("m", "b", "k") or currency):
                value *= _MULTIPLIERS[raw[j][0]]
                j += 1
            raw_text = " ".join(t for t, _ in raw[i:j]) if currency is None else word
            if currency is None and j < n and raw[j][0] in ("usd", "eur", "gbp", "dollars", "euros", "pounds"):
                currency = {"usd": "$", "dollars": "$", "eur": "€", "euros": "€", "gbp": "£", "pounds": "£"}[raw[j][0]]
                j += 1
            if currency is not None:
                tokens.append(_Token(f"money:{currency}{_fmt(value)}", "money", raw_text, (currency, value)))
            elif tokens and tokens[-1].kind in ("word", "name") and tokens[-1].key in _ID_NOUNS:
                tokens.append(_Token(f"id:{_fmt(value)}", "id", raw_text))
            else:
                tokens.append(_Token(f"number:{_fmt(value)}", "number", raw_text, value))
            i = j
            continue
        after_number = bool(tokens) and tokens[-1].kind in ("number", "money")
        if word in _UNITS and (after_number or word not in _BARE_UNITS_NEED_NUMBER):
            canonical, dimension, factor = _UNITS[word]
            tokens.append(_Token(f"unit:{canonical}", "unit", word, (dimension, factor)))
            i += 1
            continue
        if re.fullmatch(r"\d+(st|nd|rd|th)", word) or word in _ORDINALS:
            value = _ORDINALS.get(word) or int(re.match(r"\d+", word).group(0))
            tokens.append(_Token(f"ordinal:{value}", "ordinal", word, value))
            i += 1
            continue
        base = word[:-1] if word.endswith("s") and word[:-1] in _WEEKDAYS else word
        if base in _WEEKDAYS:
            tokens.append(_Token(f"weekday:{_WEEKDAYS[base]}", "weekday", word, _WEEKDAYS[base]))
        elif word in _WEEK_PARTS:
            tokens.append(_Token(f"weekpart:{_WEEK_PARTS[word]}", "weekday", word, _WEEK_PARTS[word]))
        elif re.fullmatch(r"q[1-4]", word):
            tokens.append(_Token(f"quarter:{word}", "quarter", word))
        elif word in _FREQUENCIES:
            tokens.append(_Token(f"frequency:{_FREQUENCIES[word]}", "frequency", word))
        elif word in _ENVIRONMENTS:
            tokens.append(_Token(f"environment:{_ENVIRONMENTS[word]}", "environment", word))
        elif word in _STATES and (word not in ("on", "off") or nxt in _AFTER_ON_OFF):
            group, pole = _STATES[word]
            tokens.append(_Token(f"state:{group}:{pole}", "state", word, group))
        elif word in _NEGATORS or word.endswith("nt"):
            kind = "negator" if word in _NEGATORS or word in ("dont", "cant", "wont") else "word"
            tokens.append(_Token(word, kind, word))
        elif len(word) == 1 and capital and tokens and tokens[-1].kind in ("name", "word"):
            tokens.append(_Token(word, "name", word))  # "Team A", "Plan B"
        elif word in _FILLERS or word in _QUALIFIERS:
            tokens.append(_Token(word, "filler", word))
        elif capital or any(ch.isdigit() for ch in word):
            tokens.append(_Token(suffix_stem(word, shortest=3), "name", word))
        else:
            tokens.append(_Token(suffix_stem(word, shortest=3), "word", word))
        i += 1
    return tuple(tokens)


# --- comparing two sentences ------------------------------------------------------------------------------------

_NUMERIC = frozenset({"number", "money", "unit", "time"})


def _signature(side: list[_Token]) -> tuple[str, ...]:
    kinds: list[str] = []
    for token in side:
        if token.kind == "filler":
            continue
        if kinds and kinds[-1] == token.kind == "name":
            continue  # "Mia Brown" is one name
        kinds.append(token.kind)
    return tuple(kinds)


def _qualifier(tokens: tuple[_Token, ...], start: int) -> str | None:
    """The bound or approximation written just before ``tokens[start]``: lower, upper, approx or None."""
    for token in reversed(tokens[max(0, start - 3) : start]):
        if token.key in _APPROX:
            return "approx"
        if token.key in _LOWER:
            return "lower"
        if token.key in _UPPER:
            return "upper"
        if token.key == "up":  # "up to"
            return "upper"
        if token.key not in _QUALIFIERS:
            return None
    return None


def _first_value(tokens: tuple[_Token, ...], start: int, end: int) -> int:
    index = start
    while index < end and tokens[index].key in _QUALIFIERS:
        index += 1
    return index


def _magnitude(side: list[_Token], shared_unit: _Token | None) -> tuple[str, float] | None:
    """(dimension, value in the dimension's base unit) of a slot holding a number and maybe its unit."""
    numbers = [t for t in side if t.kind in ("number", "money")]
    units = [t for t in side if t.kind == "unit"] or ([shared_unit] if shared_unit is not None else [])
    if len(numbers) > 1 or len(units) > 1:
        return None
    if numbers and numbers[0].kind == "money":
        currency, value = numbers[0].value
        return f"money{currency}", value
    value = numbers[0].value if numbers else None
    if units:
        dimension, factor = units[0].value
        return dimension, (1.0 if value is None else value) * factor
    if value is None:
        return None
    return "count", value


def _compatible(qualifier: str | None, bound: float, value: float) -> bool:
    if qualifier == "lower":
        return value >= bound
    if qualifier == "upper":
        return value <= bound
    if qualifier == "approx":
        return abs(value - bound) <= 0.25 * max(abs(bound), abs(value))
    return False


def _dates_conflict(a: tuple, b: tuple) -> bool:
    return any(x is not None and y is not None and x != y for x, y in zip(a, b, strict=True))


def _single_valued_name(a: tuple[_Token, ...], start: int, end: int) -> bool:
    """Whether a differing name at ``a[start:end]`` is the single value of its predicate."""
    content_before = [t for t in a[:start] if t.kind not in ("filler",)]
    content_after = [t for t in a[end:] if t.kind not in ("filler",)]
    rest = {t.key for t in a[:start] + a[end:]} | {t.raw for t in a[:start] + a[end:]}
    subject = len(content_before) <= 1 and len(content_after) >= 2
    if subject:
        return bool(rest & (_ROLE_VERBS | _ROLE_NOUNS))
    # the object: right after a copula, after "by" or "reports to", after a role noun, or a place predicate
    previous = [t for t in a[:start] if t.key not in ("the", "a", "an", "our", "its", "their")]
    while previous and previous[-1].kind == "name":  # the rest of a longer name ("Team Falcon")
        previous.pop()
    if previous:
        last = previous[-1].raw
        if last in _COPULAS or last in _ROLE_NOUNS:
            return True
        if last == "by" and len(previous) >= 2:
            return True
        if last == "to" and len(previous) >= 2 and previous[-2].raw in ("reports", "report", "reporting"):
            return True
        if last in ("to", "in") and len(previous) >= 2 and previous[-2].raw in ("migrated", "switched", "moved"):
            return True
    return bool(rest & (_PLACE_VERBS | _SINGLE_VALUE_MODIFIERS))


_PERMISSIVE = frozenset({"may", "can", "might", "could"})


def _permissive(tokens: tuple[_Token, ...]) -> bool:
    return any(t.raw in _PERMISSIVE for t in tokens)


def _negated(tokens: tuple[_Token, ...]) -> bool:
    return any(t.kind == "negator" for t in tokens)


def _value_conflict(a: tuple[_Token, ...], b: tuple[_Token, ...]) -> tuple[str, str, str] | None:
    """``(slot type, value in a, value in b)`` when ``a`` and ``b`` are one statement with one differing value."""
    negated_a, negated_b = _negated(a), _negated(b)
    if negated_a != negated_b:
        return None  # a change of polarity is the negation check's business
    keys_a, keys_b = [t.key for t in a], [t.key for t in b]
    matcher = SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    slots: list[tuple[int, int, int, int]] = []
    matched_content = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            # a copula counts: "Our CRM is Salesforce" has the CRM and its "is" to hold on to
            matched_content += sum(1 for t in a[i1:i2] if t.kind not in ("filler", "negator") or t.key in _COPULAS)
            continue
        side_a, side_b = a[i1:i2], b[j1:j2]
        if all(t.kind == "filler" and t.key not in _LOWER | _UPPER | _APPROX for t in side_a + side_b):
            continue
        slots.append((i1, i2, j1, j2))
    if matched_content < 1 or not slots:
        return None
    if len(slots) > 1:
        # a qualifier change beside the value ("about two years" / "22 months") is still one slot
        merged = slots[0]
        for slot in slots[1:]:
            between = a[merged[1] : slot[0]]
            if any(t.kind != "filler" for t in between) or slot[0] - merged[1] > 2:
                return None
            merged = (merged[0], slot[1], merged[2], slot[3])
        slots = [merged]
    i1, i2, j1, j2 = slots[0]
    side_a = [t for t in a[i1:i2] if t.key not in _QUALIFIERS]
    side_b = [t for t in b[j1:j2] if t.key not in _QUALIFIERS]
    # the bound or approximation in front of each value, whether inside the slot ("up to 8" / "4") or before it
    qualifier_a = _qualifier(a, _first_value(a, i1, i2))
    qualifier_b = _qualifier(b, _first_value(b, j1, j2))
    if len(side_a) > 3 or len(side_b) > 3:
        return None
    raw_a = " ".join(t.raw for t in a[i1:i2]).strip()
    raw_b = " ".join(t.raw for t in b[j1:j2]).strip()
    if not side_a or not side_b:
        # only the bound changed around the same number: "above $500" / "below $500"
        if not side_a and not side_b and {qualifier_a, qualifier_b} == {"lower", "upper"}:
            return "number", raw_a, raw_b
        return None
    signature_a, signature_b = _signature(side_a), _signature(side_b)
    kinds = set(signature_a) | set(signature_b)
    numeric_a, numeric_b = set(signature_a) <= _NUMERIC, set(signature_b) <= _NUMERIC
    if negated_a and not kinds <= _NUMERIC:
        return None  # two negated statements with different non-numeric values can both hold
    if not kinds <= _NUMERIC and _permissive(a) and _permissive(b):
        return None  # "we may deploy on Fridays" and "... on Mondays" are two permissions, both can hold
    if numeric_a and numeric_b and {"number", "money", "unit"} & kinds and "time" not in kinds:
        after_a = a[i2] if i2 < len(a) and a[i2].kind == "unit" else None
        after_b = b[j2] if j2 < len(b) and b[j2].kind == "unit" else None
        magnitude_a, magnitude_b = _magnitude(side_a, after_a), _magnitude(side_b, after_b)
        if magnitude_a is None or magnitude_b is None or magnitude_a[0] != magnitude_b[0]:
            return None
        value_a, value_b = magnitude_a[1], magnitude_b[1]
        if abs(value_a - value_b) <= 1e-9 * max(abs(value_a), abs(value_b), 1.0):
            return None
        if qualifier_a != qualifier_b:
            if qualifier_a and not qualifier_b and _compatible(qualifier_a, value_a, value_b):
                return None
            if qualifier_b and not qualifier_a and _compatible(qualifier_b, value_b, value_a):
                return None
            if qualifier_a and qualifier_b:
                return None
        slot = "money" if magnitude_a[0].startswith("money") else "number"
        return slot, raw_a, raw_b
    if signature_a != signature_b or len(signature_a) != 1:
        return None
    kind = signature_a[0]
    first_a = next(t for t in side_a if t.kind != "filler")
    first_b = next(t for t in side_b if t.kind != "filler")
    if kind == "date":
        if qualifier_a != qualifier_b:
            return None
        return ("date", raw_a, raw_b) if _dates_conflict(first_a.value, first_b.value) else None
    if kind in ("weekday", "time", "frequency", "ordinal", "environment", "quarter"):
        return kind, raw_a, raw_b
    if kind == "state":
        return ("state", raw_a, raw_b) if first_a.value == first_b.value else None
    if kind in ("name", "id"):
        return ("name", raw_a, raw_b) if _single_valued_name(a, i1, i2) else None
    return None


def _sentences(text: str) -> list[str]:
    parts = [
        part.strip()
        for part in _SENTENCE_END_RE.split(text[:_MAX_CHARS])
        if part.strip() and len(part.strip()) <= MAX_SENTENCE_CHARS
    ]
    return parts[:MAX_SENTENCES]


def _prepared(text: str) -> tuple[tuple[tuple[_Token, ...], frozenset[str]], ...]:
    """Each compared sentence's tokens and its value-masked word set (the cheap pre-check). Cached per compared
    prefix: a write batch compares each new text with several candidates and each candidate with several new
    texts; the key is the at most ``_MAX_CHARS`` that are compared, so the cache holds at most 2,048 × 4,000
    characters of text however long the memories are."""
    return _prepared_prefix(text[:_MAX_CHARS])


@lru_cache(maxsize=2048)
def _prepared_prefix(text: str) -> tuple[tuple[tuple[_Token, ...], frozenset[str]], ...]:
    prepared = []
    for sentence in _sentences(text):
        tokens = _tokens(sentence)
        masked = frozenset(f"<{t.kind}>" if t.kind in _MASKED_KINDS else t.key for t in tokens)
        prepared.append((tokens, masked))
    return tuple(prepared)


def _first_value_conflict(
    a: Sequence[tuple[tuple[_Token, ...], frozenset[str]]], b: Sequence[tuple[tuple[_Token, ...], frozenset[str]]]
) -> Contradiction | None:
    for tokens_a, masked_a in a:
        for tokens_b, masked_b in b:
            # one statement with one differing value shares most of its value-masked words
            size_a, size_b = len(masked_a), len(masked_b)
            if not size_a or not size_b or min(size_a, size_b) < PREFILTER_JACCARD * max(size_a, size_b):
                continue
            shared = len(masked_a & masked_b)
            if shared < PREFILTER_JACCARD * (size_a + size_b - shared):
                continue
            conflict = _value_conflict(tokens_a, tokens_b)
            if conflict is not None:
                slot, value_a, value_b = conflict
                return Contradiction(
                    kind="value",
                    slot=slot,
                    values=(value_a, value_b),
                    message=f"the same statement with a different {slot}: {value_a!r} / {value_b!r}",
                )
    return None


def _titles_name_different_subjects(title_a: str, title_b: str) -> bool:
    """Titles that are one phrase with one differing value ("Team A deploys" / "Team B deploys") say that the
    statements are about different subjects or times."""
    if not title_a.strip() or not title_b.strip():
        return False
    a, b = _tokens(title_a), _tokens(title_b)
    if [t.key for t in a] == [t.key for t in b]:
        return False
    matcher = SequenceMatcher(None, [t.key for t in a], [t.key for t in b], autojunk=False)
    opcodes = matcher.get_opcodes()
    differing = [op for op in opcodes if op[0] != "equal"]
    if len(differing) != 1 or differing[0][0] != "replace":
        return False
    shared = [t for tag, i1, i2, _, _ in opcodes if tag == "equal" for t in a[i1:i2] if t.kind != "filler"]
    if not shared:
        return False  # two unrelated titles say nothing about the subjects
    _, i1, i2, j1, j2 = differing[0]
    valued = {"name", "id", "date", "number", "weekday", "quarter", "environment", "ordinal"}
    return any(t.kind in valued for t in a[i1:i2]) and any(t.kind in valued for t in b[j1:j2])


def _claims_differ_in_value(a: str, b: str) -> bool:
    """Whether two polarity twins, their negations removed, still differ in a value: "We deploy on Tuesdays" and
    "We no longer deploy on Fridays" are two claims, not one claim and its negation."""
    strip = lambda text: tuple(t for t in _tokens(" ".join(text.split())[:_MAX_CHARS]) if t.kind != "negator")  # noqa: E731
    return _value_conflict(strip(a), strip(b)) is not None


_NEGATION = Contradiction(
    kind="negation", slot="polarity", values=("", ""), message="one states what the other negates"
)


def contradiction_between(a: str, b: str, *, title_a: str = "", title_b: str = "") -> Contradiction | None:
    """Why ``a`` and ``b`` contradict, or ``None``.

    Contract: titles (optional) that differ in one value ("Team A deploy days" / "Team B deploy days") mean
    different subjects: ``None``. Otherwise negation twins (:func:`memories.textsim.polarity_twins` over the
    whole texts) give ``kind="negation"``; else the first pair of sentences (at most ``MAX_SENTENCES`` of each)
    that are one statement with one differing value gives ``kind="value"`` with its slot type and the two
    values as written. Symmetric up to the order of ``values``. Blank input → ``None``.
    """
    if not a.strip() or not b.strip() or _titles_name_different_subjects(title_a, title_b):
        return None
    if polarity_twins(a, b) and not _claims_differ_in_value(a, b):
        return _NEGATION
    return _first_value_conflict(_prepared(a), _prepared(b))


def statements_contradict(a: str, b: str, *, title_a: str = "", title_b: str = "") -> bool:
    """``contradiction_between(...) is not None``."""
    return contradiction_between(a, b, title_a=title_a, title_b=title_b) is not None


# Value kinds replaced by a placeholder in value_masked; names are kept, or every "X uses Y" of a busy scope would
# become one candidate of every other.
_MASKED_KINDS = frozenset(
    {"number", "money", "date", "time", "weekday", "frequency", "ordinal", "environment", "quarter", "state", "unit"}
)


def value_masked(text: str) -> str:
    """``text`` with every value (number and unit, money, date, time, weekday, frequency, ordinal, environment,
    quarter, state word) replaced by its type in angle brackets, words stemmed, function words kept:
    "Our runway is 22 months." and "Our runway is 14 weeks." both give "our runway is <number> <unit>".

    For the candidate search: two statements that differ only in a value mask to the same text, so MinHash bands
    over the masked text (:func:`memories.textsim.lsh_bands`) always bring them together, where bands over the
    plain text miss some of the short ones (one differing word in few is a low Jaccard)."""
    return _value_masked_prefix(text[:_MAX_CHARS])


@lru_cache(maxsize=2048)
def _value_masked_prefix(text: str) -> str:
    sentences = []
    for sentence in _SENTENCE_END_RE.split(text):
        words = [f"<{t.kind}>" if t.kind in _MASKED_KINDS else t.key for t in _tokens(sentence.strip())]
        if words:
            sentences.append(" ".join(words))
    return " ".join(sentences)


def contradicting_pairs(
    items: Sequence[tuple[int, str, str]], *, limit: int = 20
) -> list[tuple[int, int, Contradiction]]:
    """The contradicting pairs among the first ``limit`` of ``items`` (``(id, title, content)`` in ranking order; a
    repeated id counts once): ``(id_a, id_b, contradiction)`` with ``a`` ranked before ``b``, in order.

    For answering and recall over a result page, the same verdicts as :func:`contradiction_between` on each pair,
    computed cheaply: polarity signatures and value-masked sentence sets once per row, the full alignment only for
    sentence pairs sharing at least ``PREFILTER_JACCARD`` of their value-masked words."""
    chosen: list[tuple[int, str, str]] = []
    seen: set[int] = set()
    for item in items[:limit]:
        if item[0] not in seen:  # a memory listed twice (two chunks) is one memory
            seen.add(item[0])
            chosen.append(item)
    signatures = [polarity_signature(content) for _, _, content in chosen]
    prepared = [_prepared(content) for _, _, content in chosen]
    found: list[tuple[int, int, Contradiction]] = []
    for i, (id_a, title_a, _) in enumerate(chosen):
        for j in range(i + 1, len(chosen)):
            id_b, title_b, _ = chosen[j]
            if signatures_are_twins(signatures[i], signatures[j]) and not _claims_differ_in_value(
                chosen[i][2], chosen[j][2]
            ):
                contradiction: Contradiction | None = _NEGATION
            else:
                contradiction = _first_value_conflict(prepared[i], prepared[j])
            if contradiction is not None and not _titles_name_different_subjects(title_a, title_b):
                found.append((id_a, id_b, contradiction))
    return found
