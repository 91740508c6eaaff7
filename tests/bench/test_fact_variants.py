"""The variants of bench.fact_variants: every attribute varied, no variant written twice, every control and near miss
a statement of nothing, and the extractor reading the variants it reads today, family by family (a floor, so that a
change that loses a tense, an adverb's place, a wording, a field's separator, a joined clause or a change shows
here). No database."""

from __future__ import annotations

from collections import Counter, defaultdict

from bench.fact_statements import ATTRIBUTES
from bench.fact_variants import (
    REFERENCE,
    SPEAKER,
    change_variants,
    controls,
    read,
    record_variants,
    said_by,
    word_variants,
    written,
)
from graph.extraction.facts import extract_facts

VARIANTS = list(written())
# the share of each family the extractor must read: what it reads today, less a variant or two where a family is large
FLOORS = {
    **{"grammar": 0.99, "words": 0.97, "records": 0.99, "clauses": 0.98, "people": 1.0, "changes": 1.0, "names": 1.0},
    **{"speech": 0.98, "learners": 0.8, "past": 0.9, "lists": 0.97, "discourse": 0.99, "phrases": 0.92},
}


def test_every_attribute_is_varied_and_no_variant_is_written_twice():
    counts = Counter(variant.attribute for variant in VARIANTS)
    assert set(counts) == set(ATTRIBUTES)
    assert min(counts.values()) >= 20
    assert {v.attribute for v in word_variants()} == {v.attribute for v in record_variants()} == set(ATTRIBUTES)
    # (a sentence that joins two facts is a variant of each: the fact, not the sentence, is written once)
    facts = [(v.text, v.attribute, v.subject, v.value, v.ended) for v in VARIANTS]
    assert len(facts) == len(set(facts))


def test_the_extractor_reads_the_variants_and_no_control():
    read_by = defaultdict(list)
    for variant, speaker in said_by():
        got = read(variant, extract_facts(variant.text, speaker=speaker, reference=REFERENCE))
        read_by[variant.family].append(got)
        if speaker is None:
            assert got, variant.text  # every chat's line, its voice named by the line
    assert set(read_by) == set(FLOORS)
    for family, floor in FLOORS.items():
        assert sum(read_by[family]) / len(read_by[family]) >= floor, family
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
