"""memories.temporal: labelled expressions, the conventions spelt out, query windows, and hostile input."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memories.temporal import MAX_MENTIONS, DateWindow, event_dates, query_window, tag_dates

CASES = json.loads((Path(__file__).parent / "temporal_expressions.json").read_text())["cases"]
THURSDAY = datetime(2025, 5, 8, 10, 0)  # a Thursday


def _first(text: str, ref: datetime = THURSDAY):
    mentions = tag_dates(text, reference=ref)
    return mentions[0].as_json() if mentions else None


def test_the_fixture_is_large_and_varied():
    categories = {case["category"] for case in CASES}
    references = {case["reference"] for case in CASES}
    assert len(CASES) >= 200
    assert categories == {"absolute", "relative", "range", "ambiguous", "negative"}
    assert len(references) >= 5


def test_accuracy_on_the_labelled_expressions():
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong = []
    for case in CASES:
        got = _first(case["text"], datetime.fromisoformat(case["reference"]))
        right[case["category"]][1] += 1
        if got == case["expected"]:
            right[case["category"]][0] += 1
        else:
            wrong.append((case["reference"], case["text"], case["expected"], got))
    overall = sum(r[0] for r in right.values()) / len(CASES)
    assert overall >= 0.97, wrong
    for category, (hits, total) in right.items():
        assert hits / total >= 0.9, (category, wrong)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yesterday", "2025-05-07"),
        ("the day before yesterday", "2025-05-06"),
        ("last Friday", "2025-05-02"),
        ("next Monday", "2025-05-12"),
        ("this Friday", "2025-05-09"),
        ("two weeks ago", "2025-04-24"),
        ("in 3 days", "2025-05-11"),
        ("last week", {"start": "2025-04-28", "end": "2025-05-04"}),
        ("this weekend", {"start": "2025-05-10", "end": "2025-05-11"}),
        ("last month", {"start": "2025-04-01", "end": "2025-04-30"}),
        ("Q3 2024", {"start": "2024-07-01", "end": "2024-09-30"}),
        ("since January", {"start": "2025-01-01", "end": "2025-05-08"}),
        ("May 2025", {"start": "2025-05-01", "end": "2025-05-31"}),
        ("2025-05-07", "2025-05-07"),
        ("on 14 June", "2025-06-14"),
        ("I went there in March", {"start": "2025-03-01", "end": "2025-03-31"}),
        ("we will go there in March", {"start": "2026-03-01", "end": "2026-03-31"}),
        ("from 3 to 7 June 2024", {"start": "2024-06-03", "end": "2024-06-07"}),
        ("7/13", "2025-07-13"),
    ],
)
def test_conventions(text, expected):
    assert _first(text) == expected


def test_numeric_dates_read_day_first_and_say_when_they_are_ambiguous():
    [both] = tag_dates("see you 7/5", reference=THURSDAY)
    [month_first] = tag_dates("see you 7/5", reference=THURSDAY, dayfirst=False)
    [only_one] = tag_dates("see you 7/13", reference=THURSDAY)
    assert (both.start, both.ambiguous) == (date(2025, 5, 7), True)
    assert (month_first.start, month_first.ambiguous) == (date(2025, 7, 5), True)
    assert (only_one.start, only_one.ambiguous) == (date(2025, 7, 13), False)
    [dotted] = tag_dates("due on 6.4.2026", reference=THURSDAY, dayfirst=False)
    assert (dotted.start, dotted.ambiguous) == (date(2026, 4, 6), False)


def test_mentions_carry_their_span_and_several_are_found_in_order():
    text = "Yesterday I booked the flights; we fly on 14 June and come back two weeks later."
    mentions = tag_dates(text, reference=THURSDAY)
    assert [(m.text, m.as_json()) for m in mentions] == [("Yesterday", "2025-05-07"), ("14 June", "2025-06-14")]
    assert all(text[m.span[0] : m.span[1]] == m.text for m in mentions)


def test_an_aware_reference_uses_its_own_calendar_day():
    late_evening = datetime(2025, 5, 8, 23, 30, tzinfo=UTC)
    assert _first("yesterday", late_evening) == "2025-05-07"


def test_event_dates_are_distinct_in_the_stored_shape():
    text = "Last week, yes last week, and on 2025-05-07."
    assert event_dates(text, reference=THURSDAY) == [{"start": "2025-04-28", "end": "2025-05-04"}, "2025-05-07"]


@pytest.mark.parametrize(
    ("question", "window"),
    [
        ("what did we decide last week?", ("2025-04-28", "2025-05-04")),
        ("what happened in May 2025?", ("2025-05-01", "2025-05-31")),
        ("who was at the party on 14 June?", ("2024-06-14", "2024-06-14")),
        ("what shipped in Q3?", ("2024-07-01", "2024-09-30")),
        ("what is planned for next month?", ("2025-06-01", "2025-06-30")),
        ("what did Dana do between March and April?", ("2025-03-01", "2025-04-30")),
    ],
)
def test_query_windows_lean_to_the_past(question, window):
    found = query_window(question, as_of=THURSDAY)
    assert isinstance(found, DateWindow)
    assert (found.start.isoformat(), found.end.isoformat()) == window


def test_a_question_without_time_has_no_window():
    assert query_window("When did Dana go to the support group?", as_of=THURSDAY) is None
    assert query_window("May I ask who owns billing?", as_of=THURSDAY) is None


@pytest.mark.parametrize("bad", [None, 42, b"yesterday", ["yesterday"], ""])
def test_bad_text_gives_nothing(bad):
    assert tag_dates(bad, reference=THURSDAY) == []
    assert query_window(bad, as_of=THURSDAY) is None


def test_a_bad_reference_gives_nothing():
    assert tag_dates("yesterday", reference="2025-05-08") == []
    assert query_window("last week", as_of=None) is None


def test_long_content_full_of_dates_is_capped():
    text = "We met yesterday and again on 14 June, then last Friday. " * 700
    mentions = tag_dates(text, reference=THURSDAY)
    assert len(text) > 32 * 1024
    assert len(mentions) == MAX_MENTIONS
    assert mentions[0].as_json() == "2025-05-07"


@pytest.mark.parametrize(
    "hostile",
    ["1/" * 16000, "in " * 10000 + "March", "a couple of " * 3000 + "days ago", "2025-" * 6000, "Friday, " * 4000],
)
def test_hostile_repetitions_return(hostile):
    mentions = tag_dates(hostile, reference=THURSDAY)
    assert len(mentions) <= MAX_MENTIONS
    assert all(m.start <= m.end for m in mentions)


_PIECES = list("0123456789/.-– ,'") + [
    "May ", "June ", "Friday ", "last ", "next ", "since ", "the ", "1st ", "Q3 ", "ago ", "in ", "weeks ",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.sampled_from(_PIECES), max_size=40).map("".join),
    year=st.integers(min_value=1901, max_value=2198),
    day_of_year=st.integers(min_value=0, max_value=364),
)
def test_never_raises_and_spans_are_honest(text, year, day_of_year):
    reference = datetime(year, 1, 1) + timedelta(days=day_of_year)
    for mention in tag_dates(text, reference=reference):
        assert text[mention.span[0] : mention.span[1]] == mention.text
        assert mention.start <= mention.end
    query_window(text, as_of=reference)


def test_a_month_a_change_takes_effect_in_is_that_whole_month():
    for said in ("as of March", "effective March", "As of  March"):
        mention = tag_dates(f"She is our counsel {said}.", reference=THURSDAY)[0]
        assert (mention.start, mention.end) == (date(2025, 3, 1), date(2025, 3, 31))
    assert tag_dates("as of may", reference=THURSDAY) == []  # the verb, as everywhere


def test_over_the_weekend_is_the_one_just_gone_or_the_coming_one_when_said_of_the_future():
    monday = datetime(2025, 5, 12, 9, 0)
    gone = tag_dates("We moved over the weekend.", reference=monday)[0]
    assert (gone.start, gone.end) == (date(2025, 5, 10), date(2025, 5, 11))
    coming = tag_dates("We will paint the flat over the weekend.", reference=monday)[0]
    assert (coming.start, coming.end) == (date(2025, 5, 17), date(2025, 5, 18))


def test_a_day_of_the_month_said_in_words():
    assert _first("The Kestle release ships on the third of November.") == "2025-11-03"
    assert _first("It is on the twenty-first of July.") == "2025-07-21"
    assert _first("It was on the twenty-first of July.") == "2024-07-21"  # the tense picks the year, as for digits
    assert _first("Due June twenty first, 2026.") == "2026-06-21"
    assert _first("Payday is the thirty-first of May.") == "2025-05-31"
    # a month then "the first" of something else is the month alone
    assert _first("In March the first thing we did was hire.") == {"start": "2025-03-01", "end": "2025-03-31"}
