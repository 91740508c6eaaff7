"""The grammar, other-words and record variants (bench.fact_variants): every attribute varied, no variant written
twice, every control a statement of nothing, and the extractor reading the variants it reads today (a floor, so that a
change that loses a tense, an adverb's place, a wording or a field's separator shows here). No database."""

from __future__ import annotations

from collections import Counter

from bench.fact_statements import ATTRIBUTES
from bench.fact_variants import (
    REFERENCE,
    SPEAKER,
    change_variants,
    clause_variants,
    controls,
    name_variants,
    people_variants,
    person_variants,
    read,
    record_variants,
    said_by,
    thing_variants,
    word_variants,
)
from graph.extraction.facts import extract_facts

VARIANTS = [
    *person_variants(),
    *thing_variants(),
    *word_variants(),
    *record_variants(),
    *clause_variants(),
    *people_variants(),
    *change_variants(),
    *name_variants(),
]


def _two_facts() -> set[str]:
    texts = [variant.text for variant in [*people_variants(), *change_variants()]]
    return {text for text in texts if texts.count(text) == 2}


def test_every_attribute_is_varied_and_no_variant_is_written_twice():
    counts = Counter(variant.attribute for variant in VARIANTS)
    assert set(counts) == set(ATTRIBUTES)
    assert min(counts.values()) >= 20
    texts = [variant.text for variant in VARIANTS]
    # (a sentence that joins two facts is a variant of each)
    assert len(texts) == len(set(texts)) + sum(1 for _ in clause_variants()) // 2 + len(set(texts) & _two_facts())


def test_the_extractor_reads_the_variants_and_no_control():
    read_by = [
        (speaker, read(v, extract_facts(v.text, speaker=speaker, reference=REFERENCE))) for v, speaker in said_by()
    ]
    written = [got for speaker, got in read_by if speaker == SPEAKER]
    assert len(written) == len(VARIANTS) and sum(written) / len(written) >= 0.99
    words = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in word_variants()]
    assert {v.attribute for v in word_variants()} == set(ATTRIBUTES) and sum(words) / len(words) >= 0.97
    records = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in record_variants()]
    assert {v.attribute for v in record_variants()} == set(ATTRIBUTES) and sum(records) / len(records) >= 0.99
    joined = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in clause_variants()]
    assert sum(joined) / len(joined) >= 0.98
    people = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in people_variants()]
    assert all(people)
    changed = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in change_variants()]
    assert all(changed)
    named = [read(v, extract_facts(v.text, speaker=SPEAKER, reference=REFERENCE)) for v in name_variants()]
    assert all(named)
    assert all(got for speaker, got in read_by if speaker is None)  # every chat's line, its voice named by the line
    stated = [c.text for c in controls() if not read(c, extract_facts(c.text, speaker=SPEAKER, reference=REFERENCE))]
    assert stated == []


def test_a_value_before_is_read_only_as_ended_and_a_value_now_only_as_holding():
    before = next(v for v in change_variants() if v.ended)
    now = next(v for v in change_variants() if not v.ended)

    def fact(value, until):
        return type(
            "Fact",
            (),
            {
                "attribute": before.attribute,
                "negated": False,
                "value": value,
                "subject": before.subject,
                "valid_until": until,
            },
        )()

    assert read(before, [fact(before.value, REFERENCE)]) and not read(before, [fact(before.value, None)])
    assert read(now, [fact(now.value, None)])


def test_a_control_is_read_as_stating_nothing_only_when_nothing_of_its_attribute_is_extracted():
    control = next(controls())
    assert read(control, [])
    fact = type("Fact", (), {"attribute": control.attribute, "negated": False, "value": "x", "subject": "y"})()
    assert not read(control, [fact])
