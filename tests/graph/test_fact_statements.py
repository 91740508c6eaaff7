"""Fact extraction against a labelled set: precision and recall per attribute (``graph.extraction.facts``).

Pure: runs without Django (``-p no:django``). tests/graph/fact_statements.json holds statements and non-statements,
each labelled with the facts a careful reader says it asserts — written from its "rules" (at the top of the file),
not from the extractor; tests/graph/fact_statements_more.json is a second such set, by another labeller, with its
own people, places and constructions (chat spelling, passives, reported speech, coordination). Each statement goes
through ``extract_facts`` with its speaker and reference day; an extracted fact is right when a labelled fact of the
statement matches it (subject, attribute, value after the rules' normalisation, negation, and the dates where
labelled), each labelled fact matched once.
Run with ``-s`` to see the table and the misses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

import pytest

SETS = (Path(__file__).parent / "fact_statements.json", Path(__file__).parent / "fact_statements_more.json")
ATTRIBUTES = ("lives_in", "works_at", "job_title", "reports_to", "owned_by", "due_date", "has_pet", "speaks")
FACT_KEYS = {"subject", "attribute", "value", "negated", "valid_from", "valid_until", "past", "accept"}
MIN_PRECISION, MIN_RECALL, MIN_ATTRIBUTE_PRECISION = 0.9, 0.7, 0.85
ATTRIBUTE_FLOOR = 10  # labelled facts an attribute needs before its own precision is asserted

_KIND_NOUNS = "team|squad|service|system|api|pipeline|launch|release|project|product|migration|deadline|date|ga"
_TRAILING_KIND = re.compile(rf"\s+(?:{_KIND_NOUNS})$")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_PARTIAL_DAY = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$")


def normalise(name: str) -> str:
    """A name as the rules compare it: case-folded, without a leading article, trailing punctuation, possessive or
    kind nouns ("the Payments team" → "payments", "Orion's GA" → "orion")."""
    text = re.sub(r"\s+", " ", str(name).casefold()).strip(" .,;:!?\"'()")
    text = _ARTICLE.sub("", text)
    previous = None
    while previous != text:
        previous = text
        text = _TRAILING_KIND.sub("", text).strip(' .,;:!?"()')
        text = _POSSESSIVE.sub("", text)
    return text


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, date) else str(value)


def fact_matches(label: dict, got: Any) -> bool:
    """``got`` (a StatedFact) is the labelled fact ``label``."""
    if got.attribute != label["attribute"] or bool(got.negated) != bool(label.get("negated", False)):
        return False
    if normalise(got.subject) != normalise(label["subject"]):
        return False
    values = {normalise(label["value"]), *(normalise(v) for v in label.get("accept", ()))}
    if normalise(got.value) not in values:
        return False
    for key in ("valid_from", "valid_until"):
        if key in label and not (_iso(getattr(got, key)) or "").startswith(label[key]):
            return False
    return not (label.get("past") and getattr(got, "valid_until", None) is None)


@dataclass
class Tally:
    labelled: int = 0
    extracted: int = 0
    right: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.extracted if self.extracted else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.labelled if self.labelled else 1.0


@dataclass
class Score:
    by_attribute: dict[str, Tally] = field(default_factory=lambda: {a: Tally() for a in ATTRIBUTES})
    misses: list[tuple[str, dict]] = field(default_factory=list)  # (text, labelled fact never extracted)
    wrong: list[tuple[str, Any]] = field(default_factory=list)  # (text, extracted fact no label matches)
    out_of_scope: int = 0  # extracted facts of other attributes: not scored

    @property
    def overall(self) -> Tally:
        total = Tally()
        for tally in self.by_attribute.values():
            total.labelled += tally.labelled
            total.extracted += tally.extracted
            total.right += tally.right
        return total


def score_statement(score: Score, text: str, labels: Sequence[dict], extracted: Iterable[Any]) -> None:
    """Add one statement: each extracted fact (of the eight attributes) is matched to at most one labelled fact."""
    unmatched = list(labels)
    for label in labels:
        score.by_attribute[label["attribute"]].labelled += 1
    for got in extracted:
        if got.attribute not in score.by_attribute:
            score.out_of_scope += 1
            continue
        score.by_attribute[got.attribute].extracted += 1
        found = next((label for label in unmatched if fact_matches(label, got)), None)
        if found is None:
            score.wrong.append((text, got))
            continue
        unmatched.remove(found)
        score.by_attribute[got.attribute].right += 1
    score.misses.extend((text, label) for label in unmatched)


def table(score: Score) -> str:
    lines = [f"{'attribute':<12} {'labelled':>8} {'extracted':>9} {'right':>6} {'P':>6} {'R':>6}"]
    rows = [*score.by_attribute.items(), ("overall", score.overall)]
    for name, tally in rows:
        lines.append(
            f"{name:<12} {tally.labelled:>8} {tally.extracted:>9} {tally.right:>6} "
            f"{tally.precision:>6.3f} {tally.recall:>6.3f}"
        )
    lines.append(f"out of scope (other attributes, not scored): {score.out_of_scope}")
    lines += [f"  wrong: {text!r} -> {got}" for text, got in score.wrong]
    lines += [f"  missed: {text!r} -> {label}" for text, label in score.misses]
    return "\n".join(lines)


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# --- the labelled set ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SETS, ids=lambda path: path.stem)
def test_the_labelled_set_is_well_formed_and_large_enough(path):
    data = _load(path)
    assert data["rules"] and all(isinstance(rule, str) for rule in data["rules"])
    statements = data["statements"]
    assert len(statements) >= 200
    assert sum(1 for s in statements if not s["facts"]) >= 80  # non-statements
    seen = set()
    counts = dict.fromkeys(ATTRIBUTES, 0)
    for statement in statements:
        assert set(statement) == {"text", "speaker", "reference", "facts"}, statement
        assert statement["text"].strip() and (statement["speaker"] is None or statement["speaker"].strip())
        date.fromisoformat(statement["reference"])
        key = (statement["text"], statement["speaker"])
        assert key not in seen, key
        seen.add(key)
        for fact in statement["facts"]:
            assert set(fact) <= FACT_KEYS and {"subject", "attribute", "value"} <= set(fact), fact
            assert fact["attribute"] in ATTRIBUTES, fact
            counts[fact["attribute"]] += 1
            for key in ("valid_from", "valid_until"):
                assert _PARTIAL_DAY.match(fact.get(key, "2000")), fact
            if fact["attribute"] == "due_date":
                date.fromisoformat(fact["value"])
            if fact["attribute"] == "job_title":
                assert fact["value"] == fact["value"].lower(), fact
            if statement["speaker"] is None:
                assert fact["subject"] in statement["text"], fact  # nobody's first person
    assert all(count >= 10 for count in counts.values()), counts


def test_the_matching_follows_the_rules():
    @dataclass
    class Got:
        subject: str
        attribute: str
        value: str
        valid_from: date | None = None
        valid_until: date | None = None
        negated: bool = False

    label = {"subject": "billing service", "attribute": "owned_by", "value": "Payments team"}
    assert fact_matches(label, Got("the Billing service", "owned_by", "the Payments team"))
    assert fact_matches(label, Got("Billing", "owned_by", "Payments"))
    assert not fact_matches(label, Got("Billing", "owned_by", "Growth"))
    assert not fact_matches(label, Got("Billing", "owned_by", "Payments", negated=True))
    dated = {"subject": "Dmitri", "attribute": "lives_in", "value": "Denver", "valid_from": "2025-08"}
    assert fact_matches(dated, Got("Dmitri", "lives_in", "Denver", valid_from=date(2025, 8, 1)))
    assert not fact_matches(dated, Got("Dmitri", "lives_in", "Denver", valid_from=date(2025, 9, 14)))
    past = {"subject": "Kofi", "attribute": "lives_in", "value": "Chicago", "past": True}
    assert not fact_matches(past, Got("Kofi", "lives_in", "Chicago"))
    assert fact_matches(past, Got("Kofi", "lives_in", "Chicago", valid_until=date(2025, 4, 3)))
    pet = {"subject": "Dmitri", "attribute": "has_pet", "value": "Biscuit", "accept": ["dog"]}
    assert fact_matches(pet, Got("Dmitri", "has_pet", "a dog"))
    assert normalise("Orion's GA") == normalise("the Orion launch") == "orion"

    score = Score()
    score_statement(score, "x", [label], [Got("Billing", "owned_by", "Payments"), Got("Billing", "owned_by", "Ops")])
    score_statement(score, "y", [dated], [Got("Dmitri", "likes", "Denver")])
    assert (score.by_attribute["owned_by"].right, score.by_attribute["owned_by"].extracted) == (1, 2)
    assert score.by_attribute["lives_in"].recall == 0.0 and score.out_of_scope == 1
    assert score.overall.precision == 0.5 and score.overall.recall == 0.5


# --- the extractor ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=SETS, ids=lambda path: path.stem)
def extracted(request) -> Score:
    from graph.extraction.facts import extract_facts

    score = Score()
    for statement in _load(request.param)["statements"]:
        reference = datetime.combine(date.fromisoformat(statement["reference"]), time(12), tzinfo=UTC)
        facts = extract_facts(statement["text"], speaker=statement["speaker"], reference=reference)
        score_statement(score, statement["text"], statement["facts"], facts)
    print("\n" + table(score))
    return score


def test_fact_extraction_precision_and_recall_overall(extracted):
    overall = extracted.overall
    assert overall.precision >= MIN_PRECISION, table(extracted)
    assert overall.recall >= MIN_RECALL, table(extracted)


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_fact_extraction_precision_per_attribute(extracted, attribute):
    tally = extracted.by_attribute[attribute]
    if tally.labelled >= ATTRIBUTE_FLOOR:
        assert tally.precision >= MIN_ATTRIBUTE_PRECISION, table(extracted)
