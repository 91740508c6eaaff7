"""``owns`` and ``depends_on``: extraction measured on sentences written for it (tests/graph/data/
systems_sentences.jsonl: positives in varied wordings and hard negatives -- stakes, accounts, people depending on
people, possessives, other verbs). Pure: runs without Django (``-p no:django``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph import vocabulary as v
from graph.extraction import extract_links

SENTENCES = Path(__file__).parent / "data" / "systems_sentences.jsonl"
MEASURED = (v.OWNS, v.DEPENDS_ON)


def _cases() -> list[dict]:
    return [json.loads(line) for line in SENTENCES.read_text(encoding="utf-8").splitlines() if line.strip()]


def _scores(relationship: str) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of one relationship over the sentences."""
    tp = fp = fn = 0
    for case in _cases():
        gold = {tuple(edge) for edge in case["edges"] if edge[1] == relationship}
        found = {
            (link.subject.name, link.relationship, link.object.name)
            for link in extract_links(case["text"])
            if link.relationship == relationship
        }
        tp, fp, fn = tp + len(gold & found), fp + len(found - gold), fn + len(gold - found)
    return tp, fp, fn


def test_the_sentences_are_enough_and_mixed() -> None:
    cases = _cases()
    positives = [case for case in cases if any(edge[1] in MEASURED for edge in case["edges"])]

    assert len(cases) >= 40
    assert len(positives) >= 20 and len(cases) - len(positives) >= 15


@pytest.mark.parametrize("relationship", MEASURED)
def test_precision_and_recall_on_the_written_sentences(relationship: str) -> None:
    tp, fp, fn = _scores(relationship)

    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"{relationship}: precision {precision:.3f} ({tp}/{tp + fp}), recall {recall:.3f} ({tp}/{tp + fn})")
    assert precision >= 0.90
    assert recall >= 0.75


def _typed(text: str) -> list[tuple[str, str, str, str, str]]:
    return sorted(
        (link.subject.name, link.subject.kind, link.relationship, link.object.name, link.object.kind)
        for link in extract_links(text)
        if link.object is not None
    )


def test_an_owned_thing_is_a_system_and_its_owner_keeps_its_kind() -> None:
    assert _typed("The Platform team owns Kafka.") == [("Platform", v.UNKNOWN, v.OWNS, "Kafka", v.SYSTEM)]
    assert _typed("Kafka is owned by the Platform team.") == [("Platform", v.UNKNOWN, v.OWNS, "Kafka", v.SYSTEM)]


def test_both_ends_of_a_dependency_are_systems() -> None:
    assert _typed("The Billing service relies heavily on Postgres and Redis.") == [
        ("Billing", v.SYSTEM, v.DEPENDS_ON, "Postgres", v.SYSTEM),
        ("Billing", v.SYSTEM, v.DEPENDS_ON, "Redis", v.SYSTEM),
    ]


def test_companies_owning_companies_are_not_system_ownership() -> None:
    assert _typed("Initech Holdings owns Vandelay Industries outright.") == []
    assert _typed("Globex Inc depends on Acme Corp for half its revenue.") == []


def test_an_owned_name_that_modifies_another_noun_is_not_owned() -> None:
    assert _typed("Priya Nair owns the Acme account.") == []
    assert [t[3] for t in _typed("Priya Nair owns the Acme service.")] == ["Acme"]
