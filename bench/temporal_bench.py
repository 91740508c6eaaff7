"""Accuracy and speed of date taggers on the labelled expressions of tests/memories/temporal_expressions.json.

Run: ``python -m bench.temporal_bench`` (the libraries compared are optional: each one that imports is measured).

Each case holds one expression (or none) and the day or inclusive range it names against a reference time.
``strict`` counts a case right when the first date found is exactly the label (a range needs both ends; a text
without a date needs no date found). ``lenient`` also counts a single day inside a labelled range, which is the
most a tagger returning one datetime can do.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

CASES = Path(__file__).resolve().parent.parent / "tests" / "memories" / "temporal_expressions.json"

Found = tuple[date, date] | None


def _ours() -> Callable[[str, datetime], Found]:
    from memories.temporal import tag_dates

    def run(text: str, ref: datetime) -> Found:
        mentions = tag_dates(text, reference=ref)
        return (mentions[0].start, mentions[0].end) if mentions else None

    return run


def _dateparser() -> Callable[[str, datetime], Found]:
    from dateparser.search import search_dates

    def run(text: str, ref: datetime) -> Found:
        settings = {"RELATIVE_BASE": ref, "DATE_ORDER": "DMY", "PREFER_DATES_FROM": "current_period"}
        found = search_dates(text, languages=["en"], settings=settings)
        if not found:
            return None
        day = found[0][1].date()
        return day, day

    return run


def _parsedatetime() -> Callable[[str, datetime], Found]:
    import parsedatetime

    calendar = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)

    def run(text: str, ref: datetime) -> Found:
        found = calendar.nlp(text, sourceTime=ref)
        if not found:
            return None
        day = found[0][0].date()
        return day, day

    return run


def _dateutil() -> Callable[[str, datetime], Found]:
    from dateutil import parser

    def run(text: str, ref: datetime) -> Found:
        try:
            value = parser.parse(text, fuzzy=True, dayfirst=True, default=ref)
        except (ValueError, OverflowError, TypeError):
            return None
        day = value.date()
        if day == ref.date():
            return None  # fuzzy parsing returns the default when it found nothing it could use
        return day, day

    return run


def _ctparse() -> Callable[[str, datetime], Found]:
    from ctparse import ctparse
    from ctparse.types import Interval, Time

    def day_of(value) -> date | None:
        if value is None or value.year is None or value.month is None or value.day is None:
            return None
        return date(value.year, value.month, value.day)

    def run(text: str, ref: datetime) -> Found:
        result = ctparse(text, ts=ref, timeout=1.0)
        if result is None:
            return None
        resolution = result.resolution
        if isinstance(resolution, Interval):
            start, end = day_of(resolution.t_from), day_of(resolution.t_to)
            if start and end:
                return start, end
            return (start, start) if start else ((end, end) if end else None)
        if isinstance(resolution, Time):
            day = day_of(resolution)
            return (day, day) if day else None
        return None

    return run


TAGGERS: dict[str, Callable[[], Callable[[str, datetime], Found]]] = {
    "orgmemory (memories.temporal)": _ours,
    "dateparser search_dates": _dateparser,
    "parsedatetime nlp": _parsedatetime,
    "python-dateutil fuzzy": _dateutil,
    "ctparse": _ctparse,
}


def _expected(label) -> Found:
    if label is None:
        return None
    if isinstance(label, str):
        day = date.fromisoformat(label)
        return day, day
    return date.fromisoformat(label["start"]), date.fromisoformat(label["end"])


def _judge(found: Found, expected: Found) -> tuple[bool, bool]:
    if expected is None or found is None:
        return found == expected, found == expected
    strict = found == expected
    lenient = strict or (found[0] == found[1] and expected[0] <= found[0] <= expected[1])
    return strict, lenient


def measure(cases: list[dict], name: str, factory) -> dict:
    tagger = factory()
    by_category: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    strict_total = lenient_total = errors = 0
    started = time.perf_counter()
    for case in cases:
        ref = datetime.fromisoformat(case["reference"])
        try:
            found = tagger(case["text"], ref)
        except Exception:  # noqa: BLE001 - a library failing on an input counts as a wrong answer
            found, errors = None, errors + 1
        strict, lenient = _judge(found, _expected(case["expected"]))
        row = by_category[case["category"]]
        row[0] += strict
        row[1] += lenient
        row[2] += 1
        strict_total += strict
        lenient_total += lenient
    elapsed = time.perf_counter() - started
    return {
        "tagger": name,
        "cases": len(cases),
        "strict": strict_total / len(cases),
        "lenient": lenient_total / len(cases),
        "per_second": len(cases) / elapsed,
        "errors": errors,
        "by_category": {k: {"strict": v[0] / v[2], "lenient": v[1] / v[2], "n": v[2]} for k, v in by_category.items()},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cases = json.loads(args.cases.read_text())["cases"]
    results = []
    for name, factory in TAGGERS.items():
        try:
            results.append(measure(cases, name, factory))
        except ImportError as exc:
            results.append({"tagger": name, "skipped": f"not installed ({exc.name})"})
    if args.json:
        print(json.dumps(results, indent=2))
        return
    categories = sorted({c["category"] for c in cases})
    header = f"{'tagger':32} {'strict':>7} {'lenient':>8} {'expr/s':>9}  " + " ".join(f"{c[:9]:>9}" for c in categories)
    print(f"{len(cases)} labelled expressions ({CASES.name}); per-category figures are strict")
    print(header)
    for row in results:
        if "skipped" in row:
            print(f"{row['tagger']:32} {row['skipped']}")
            continue
        per = " ".join(f"{row['by_category'].get(c, {}).get('strict', 0):9.3f}" for c in categories)
        print(f"{row['tagger']:32} {row['strict']:7.3f} {row['lenient']:8.3f} {row['per_second']:9.0f}  {per}")


if __name__ == "__main__":
    main()
