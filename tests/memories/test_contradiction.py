"""memories.contradiction: negation twins and the same statement with a different value, on exact cases and on
the labelled pairs of contradiction_pairs.json (both halves)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memories.contradiction import Contradiction, contradiction_between, statements_contradict, value_masked
from memories.textsim import lsh_bands

PAIRS = json.loads((Path(__file__).parent / "contradiction_pairs.json").read_text(encoding="utf-8"))["pairs"]


@pytest.mark.parametrize(
    ("a", "b", "slot", "values"),
    [
        ("We deploy on Tuesdays.", "We deploy on Thursdays.", "weekday", ("tuesdays", "thursdays")),
        ("Our runway is 22 months.", "Our runway is 14 months.", "number", ("22", "14")),
        ("Our runway is 22 months.", "Our runway is 22 weeks.", "number", ("months", "weeks")),
        ("The choir rehearses for 90 minutes.", "The choir rehearses for 2 hours.", "number",
         ("90 minutes", "2 hours")),
        ("Refunds under $50 need no approval.", "Refunds under $100 need no approval.", "money", ("$50", "$100")),
        ("The contract renews on 2025-03-01.", "The contract renews on 1 June 2025.", "date",
         ("2025-03-01", "1 june 2025")),
        ("Acme was founded in 2021.", "Acme was founded in 2019.", "date", ("2021", "2019")),
        ("The standup starts at 9:30.", "The standup starts at 10 am.", "time", ("9:30", "10 am")),
        ("Alice leads platform.", "Bea leads platform.", "name", ("alice", "bea")),
        ("The payments service is owned by Team Falcon.", "The payments service is owned by Team Heron.", "name",
         ("falcon", "heron")),
        ("Our CRM is Salesforce.", "Our CRM is HubSpot.", "name", ("salesforce", "hubspot")),
        ("Two-factor login is enabled.", "Two-factor login is disabled.", "state", ("enabled", "disabled")),
        ("Run the migration before the deploy.", "Run the migration after the deploy.", "state", ("before", "after")),
        ("Backups run daily.", "Backups run weekly.", "frequency", ("daily", "weekly")),
        ("Planning is on the first Monday.", "Planning is on the 3rd Monday.", "ordinal", ("first", "3rd")),
        ("Test migrations in staging first.", "Test migrations in production first.", "environment",
         ("staging", "production")),
    ],
)  # fmt: skip
def test_same_statement_with_a_different_value(a, b, slot, values):
    assert contradiction_between(a, b) == Contradiction(
        kind="value",
        slot=slot,
        values=values,
        message=f"the same statement with a different {slot}: {values[0]!r} / {values[1]!r}",
    )
    # symmetric up to the order of the values
    assert contradiction_between(b, a).values == (values[1], values[0])


def test_negation_twins_keep_the_textsim_definition():
    assert contradiction_between("We deploy on Fridays.", "We no longer deploy on Fridays.") == Contradiction(
        kind="negation", slot="polarity", values=("", ""), message="one states what the other negates"
    )
    assert contradiction_between("Acme uses Postgres.", "Acme no longer uses MySQL.") is None
    # textsim's twins by shingles, but two claims about different days: not one claim and its negation
    assert contradiction_between("We deploy on Tuesdays.", "We no longer deploy on Fridays.") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # paraphrases and the same value written differently
        ("We deploy on Tuesdays.", "We deploy on Tuesday."),
        ("Our runway is 22 months.", "Our runway is twenty-two months."),
        ("The contract renews on 2025-03-01.", "The contract renews on 1 March 2025."),
        ("Gross margin is 62%.", "Gross margin is 62 percent."),
        ("The seed round was $2.3M.", "The seed round was $2.3 million."),
        ("The studio closes at 8 pm.", "The studio closes at 8pm."),
        # additions
        ("We deploy on Tuesdays.", "We deploy on Tuesdays and Thursdays."),
        ("Alice leads platform.", "Alice leads platform and search."),
        # different subjects: two differing slots, or a subject whose predicate takes many values
        ("Team A deploys on Tuesdays.", "Team B deploys on Thursdays."),
        ("Team A deploys on Tuesdays.", "Team B deploys on Tuesdays."),
        ("Mia Brown founded Acme.", "Chris Jackson founded Acme."),
        ("Ticket #123 is fixed.", "Ticket #124 is fixed."),
        ("Sprint 12 ends on Friday.", "Sprint 13 ends on Friday."),
        # refinements a value satisfies
        ("Retention is at least 30 days.", "Retention is 90 days."),
        ("Each pod runs with up to 8 GB of memory.", "Each pod runs with 4 GB of memory."),
        ("Our runway is about two years.", "Our runway is 22 months."),
        ("Acme was founded in 2021.", "Acme was founded in June 2021."),
        ("The launch is in March.", "The launch is on March 14."),
        # non-single-valued predicates, permissions, both negated
        ("Acme invested in Beta.", "Acme invested in Gamma."),
        ("We may deploy on Fridays.", "We may deploy on Mondays."),
        ("We do not deploy on Fridays.", "We do not deploy on weekends."),
        # unrelated facts sharing words
        ("The cache TTL is 15 minutes.", "The standup lasts 15 minutes."),
        ("Gross margin is 62%.", "Churn is 6%."),
        ("", "We deploy on Fridays."),
    ],
)
def test_not_a_contradiction(a, b):
    assert contradiction_between(a, b) is None
    assert statements_contradict(b, a) is False


def test_titles_naming_different_subjects_veto_a_contradiction():
    a, b = "We deploy on Tuesdays.", "We deploy on Thursdays."
    assert contradiction_between(a, b, title_a="Deploy days", title_b="Deploy schedule").slot == "weekday"
    assert contradiction_between(a, b, title_a="Team A deploy days", title_b="Team B deploy days") is None
    # titles sharing nothing say nothing about the subjects
    assert contradiction_between(a, b, title_a="Deploys", title_b="Release Schedule").slot == "weekday"
    assert (
        contradiction_between(
            "We deploy on Fridays.", "We no longer deploy on Fridays.", title_a="Mobile 2024", title_b="Mobile 2025"
        )
        is None
    )


def test_longer_memories_are_compared_sentence_by_sentence():
    a = "Release notes go to the wiki. Releases ship on Wednesdays. Hotfixes can ship any day."
    b = "Hotfixes can ship any day. Releases ship on Fridays."
    assert contradiction_between(a, b).values == ("wednesdays", "fridays")


def _precision_recall(split: str) -> tuple[float, float]:
    tp = fp = fn = 0
    for pair in PAIRS:
        if pair["split"] != split:
            continue
        flagged = statements_contradict(
            pair["a"], pair["b"], title_a=pair.get("title_a", ""), title_b=pair.get("title_b", "")
        )
        tp += flagged and pair["contradicts"]
        fp += flagged and not pair["contradicts"]
        fn += not flagged and pair["contradicts"]
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


def test_the_labelled_set_has_the_promised_shape():
    contradicting = [p for p in PAIRS if p["contradicts"]]
    assert len(PAIRS) >= 150 and len(contradicting) >= 60 and len(PAIRS) - len(contradicting) >= 90
    assert len({p["id"] for p in PAIRS}) == len(PAIRS)
    assert len({p["type"] for p in contradicting}) >= 10
    assert {p["split"] for p in PAIRS} == {"dev", "held"}


@pytest.mark.parametrize("split", ["dev", "held"])
def test_precision_and_recall_on_each_half(split):
    precision, recall = _precision_recall(split)
    assert precision >= 0.9
    assert recall >= 0.7


def test_value_masked_text_brings_value_twins_into_one_candidate_band():
    a, b = "Our runway is 22 months.", "Our runway is 14 weeks."
    assert value_masked(a) == value_masked(b) == "our runway is <number> <unit>"
    assert set(lsh_bands(value_masked(a))) == set(lsh_bands(value_masked(b)))
    assert value_masked("We deploy on Tuesdays. Alice leads platform.") == "we deploy on <weekday> alic lead platform"
    assert value_masked("") == ""


def test_contradicting_pairs_over_a_result_page():
    from memories.contradiction import contradicting_pairs

    page = [
        (11, "Deploy days", "We deploy on Tuesdays."),
        (12, "Runway", "Our runway is 22 months."),
        (13, "Deploy schedule", "Releases notes go to the wiki. We deploy on Thursdays."),
        (14, "Friday rule", "We no longer deploy on Fridays."),
        (15, "Friday rule (old)", "We deploy on Fridays."),
        (16, "Team B deploy days", "Team B deploys on Mondays."),
        (11, "Deploy days", "We deploy on Tuesdays."),  # the same memory twice is no pair
    ]
    found = contradicting_pairs(page)
    assert [(a, b, c.kind, c.slot) for a, b, c in found] == [
        (11, 13, "value", "weekday"),
        (11, 15, "value", "weekday"),
        (13, 15, "value", "weekday"),
        (14, 15, "negation", "polarity"),
    ]
    assert contradicting_pairs(page, limit=1) == []


def test_the_per_text_caches_are_keyed_by_the_compared_prefix_only():
    from memories import contradiction

    statement = "Our runway is 22 months."
    padding = " The office plants were watered and the kitchen was tidied." * 200  # far past what is compared
    contradiction._prepared_prefix.cache_clear()
    contradiction._value_masked_prefix.cache_clear()

    verdict = contradiction_between(statement + padding, "Our runway is 14 months." + padding)
    masked = value_masked(statement + padding)

    assert verdict is not None and verdict.slot == "number"
    assert masked.startswith("our runway is <number> <unit>")
    keys = [len(key) for key in (statement + padding, "Our runway is 14 months." + padding)]
    assert all(length > contradiction._MAX_CHARS for length in keys)
    assert contradiction._prepared_prefix.cache_info().currsize == 2
    assert contradiction._value_masked_prefix.cache_info().currsize == 1
    assert contradiction._prepared(statement + padding) is contradiction._prepared(statement + padding[:5000])
