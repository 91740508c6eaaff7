"""Scoring fact extraction against the labelled statement sets (tests/graph/fact_statements*.json): precision and
recall per attribute, under the matching the sets' rules give. Pure (no Django): the extractor tests and
``eval_fact_statements`` read it.

An extracted fact is right when a labelled fact of the statement matches it (subject, attribute, value after the
rules' normalisation, negation, and the dates where labelled), each labelled fact matched once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

SETS_DIR = Path(__file__).resolve().parent.parent / "tests" / "graph"
SET_NAMES = (
    "fact_statements.json",
    "fact_statements_more.json",
    "fact_statements_third.json",
    "fact_statements_fifth.json",
    "fact_statements_seventh.json",
    "fact_statements_eighth.json",
    "fact_statements_ninth.json",
    "fact_statements_eleventh.json",
    "fact_statements_twelfth.json",
    "fact_statements_thirteenth.json",
    "fact_statements_fifteenth.json",
    "fact_statements_seventeenth.json",
    "fact_statements_eighteenth.json",
    "fact_statements_nineteenth.json",
    "fact_statements_twentyfirst.json",
    "fact_statements_twentythird.json",
    "fact_statements_twentyfifth.json",
    "fact_statements_twentyseventh.json",
    "fact_statements_twentyninth.json",
    "fact_statements_thirtysecond.json",
    "fact_statements_thirtyfourth.json",
    "fact_statements_thirtysixth.json",
    "fact_statements_thirtyeighth.json",
)
# sets written to be read only as figures: the tests check their form, ``eval_fact_statements --half held`` scores
# them, once at the end of a step; their misses are not read to choose a change
HELD_BACK = (
    "fact_statements_fourth.json",
    "fact_statements_sixth.json",
    "fact_statements_tenth.json",
    "fact_statements_fourteenth.json",
    "fact_statements_sixteenth.json",
    "fact_statements_twentieth.json",
    "fact_statements_twentysecond.json",
    "fact_statements_twentyfourth.json",
    "fact_statements_twentysixth.json",
    "fact_statements_twentyeighth.json",
    "fact_statements_thirtieth.json",
    "fact_statements_thirtyfirst.json",
    "fact_statements_thirtythird.json",
    "fact_statements_thirtyfifth.json",
    "fact_statements_thirtyseventh.json",
)
ATTRIBUTES = ("lives_in", "works_at", "job_title", "reports_to", "owned_by", "due_date", "has_pet", "speaks")

_KIND_NOUNS = "team|squad|service|system|api|pipeline|launch|release|project|product|migration|deadline|date|ga"
_TRAILING_KIND = re.compile(rf"\s+(?:{_KIND_NOUNS})$")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
PARTIAL_DAY = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$")


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


_THING_SUBJECTS = frozenset({"owned_by", "due_date"})
_PERSON_VALUES = frozenset({"reports_to", "owned_by"})


def same_person(said: str, labelled: str, text: str) -> bool:
    """Two names of one person in a statement: equal under the rules' normalisation, or one the first or last name of
    the other as the statement writes it in full ("Kasia" and "Kasia Zielińska" in "Welcome Kasia Zielińska! Kasia
    speaks Polish") — the rules' "the name as written" allows either, and labellers chose both."""
    said, labelled = normalise(said), normalise(labelled)
    if said == labelled:
        return True
    short, full = sorted((said, labelled), key=len)
    words = full.split()
    return len(short.split()) == 1 and len(words) > 1 and short in {words[0], words[-1]} and full in text.casefold()


def fact_matches(label: dict, got: Any, text: str = "", said_on: date | None = None) -> bool:
    """``got`` (a StatedFact) is the labelled fact ``label`` of the statement ``text``, said on ``said_on``: a value
    labelled as holding (not past, not negated, no end) is not matched by one the extractor closed by then, which
    the facts layer would no longer give as current."""
    if got.attribute != label["attribute"] or bool(got.negated) != bool(label.get("negated", False)):
        return False
    person = got.attribute not in _THING_SUBJECTS
    if not (
        same_person(got.subject, label["subject"], text)
        if person
        else normalise(got.subject) == normalise(label["subject"])
    ):
        return False
    values = {normalise(label["value"]), *(normalise(v) for v in label.get("accept", ()))}
    if normalise(got.value) not in values and not (
        got.attribute in _PERSON_VALUES and same_person(got.value, label["value"], text)
    ):
        return False
    for key in ("valid_from", "valid_until"):
        if key in label and not (_iso(getattr(got, key)) or "").startswith(label[key]):
            return False
    until = getattr(got, "valid_until", None)
    if said_on is not None and until is not None and until <= said_on:
        if not (label.get("past") or label.get("negated") or "valid_until" in label):
            return False
    return not (label.get("past") and until is None)


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


def score_statement(
    score: Score, text: str, labels: Sequence[dict], extracted: Iterable[Any], said_on: date | None = None
) -> None:
    """Add one statement: each extracted fact (of the eight attributes) is matched to at most one labelled fact."""
    unmatched = list(labels)
    for label in labels:
        score.by_attribute[label["attribute"]].labelled += 1
    for got in extracted:
        if got.attribute not in score.by_attribute:
            score.out_of_scope += 1
            continue
        score.by_attribute[got.attribute].extracted += 1
        found = next((label for label in unmatched if fact_matches(label, got, text, said_on)), None)
        if found is None:
            score.wrong.append((text, got))
            continue
        unmatched.remove(found)
        score.by_attribute[got.attribute].right += 1
    score.misses.extend((text, label) for label in unmatched)


def table(score: Score, *, misses: bool = True) -> str:
    lines = [f"{'attribute':<12} {'labelled':>8} {'extracted':>9} {'right':>6} {'P':>6} {'R':>6}"]
    rows = [*score.by_attribute.items(), ("overall", score.overall)]
    for name, tally in rows:
        lines.append(
            f"{name:<12} {tally.labelled:>8} {tally.extracted:>9} {tally.right:>6} "
            f"{tally.precision:>6.3f} {tally.recall:>6.3f}"
        )
    lines.append(f"out of scope (other attributes, not scored): {score.out_of_scope}")
    if not misses:
        return "\n".join(lines)
    lines += [f"  wrong: {text!r} -> {got}" for text, got in score.wrong]
    lines += [f"  missed: {text!r} -> {label}" for text, label in score.misses]
    return "\n".join(lines)


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def statements(path: Path) -> list[dict]:
    return load(path)["statements"]


def score_set(rows: Sequence[dict]) -> Score:
    """Each statement through the extractor with its speaker and reference day (noon UTC), scored. A bare "left X"
    is scored as the facts layer reads it over a graph that knows nothing of X (``left_unread``)."""
    from graph.extraction.facts import LEFT, LEFT_EITHER, extract_facts, left_unread

    score = Score()
    for statement in rows:
        reference = datetime.combine(date.fromisoformat(statement["reference"]), time(12), tzinfo=UTC)
        said = extract_facts(statement["text"], speaker=statement["speaker"], reference=reference)
        facts = [
            read for fact in said if (read := left_unread(fact) if fact.attribute in (LEFT, LEFT_EITHER) else fact)
        ]
        score_statement(score, statement["text"], statement["facts"], facts, reference.date())
    return score
