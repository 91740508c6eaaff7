"""graph.vocabulary is the one home of relationships and entity kinds: every other list is a view of it.

Pure: runs without Django (``-p no:django``); the model's choices and constraints are in test_vocabulary_models.py.
"""

from __future__ import annotations

import dataclasses

import pytest

from graph import vocabulary as v
from graph.extraction import ENTITY_KINDS, RELATIONSHIPS, SYMMETRIC_RELATIONSHIPS, TYPED_RELATIONSHIPS


def test_extraction_lists_are_views_of_the_vocabulary() -> None:
    typed = tuple(r.value for r in v.RELATIONSHIPS if r.typed)

    assert TYPED_RELATIONSHIPS == typed
    assert RELATIONSHIPS == (*typed, v.MENTIONED)
    assert SYMMETRIC_RELATIONSHIPS == {r.value for r in v.RELATIONSHIPS if r.symmetric}
    assert ENTITY_KINDS == tuple(k.value for k in v.ENTITY_KINDS)
    assert v.EVENT in ENTITY_KINDS  # the extractor's list used to lack it


def test_planner_lexicon_signatures_and_follow_lists_come_from_the_vocabulary() -> None:
    from retrieval import relational_query as rq

    assert rq.RELATIONSHIPS == (*TYPED_RELATIONSHIPS, v.ABOUT)
    assert dict(rq.SIGNATURES) == {r.value: (r.subjects, r.objects) for r in v.RELATIONSHIPS if r.typed}
    assert rq.LEXICON["backers"] == (v.INVESTED_IN, v.AGENT)
    assert rq.LEXICON["manages"] == (v.REPORTS_TO, v.INVERSE_VERB)
    assert rq.LEXICON["folks"] == (v.MEMBER_OF, v.AGENT)
    expected_words = sum(len(words.split()) for r in v.RELATIONSHIPS for words in r.cues.values())
    expected_words += sum(len(words.split()) for words in v.MEMBERSHIP_CUES.values())
    assert len(rq.LEXICON) == expected_words  # no word asks for two relationships
    assert dict(rq.ALSO_FOLLOW) == {v.WORKS_AT: (v.FOUNDED,)}


def test_answer_sentences_come_from_the_vocabulary() -> None:
    from retrieval.synthesis import answers

    for relationship in v.RELATIONSHIPS:
        if not relationship.typed:
            assert relationship.value not in answers._VERBS
            continue
        assert answers._INBOUND_TEMPLATES[relationship.value] == relationship.inbound
        assert answers._OUTBOUND_TEMPLATES[relationship.value] == relationship.outbound
        assert answers._VERBS[relationship.value] == relationship.verb
        assert answers._INBOUND_PHRASES[relationship.value] == relationship.inbound_phrase
        for template in (relationship.inbound, relationship.outbound):
            assert template.format(anchor="A", items="B") != template  # both placeholders are used


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"subjects": frozenset({"sytem"})}, "unknown kind in its signature"),
        ({"cues": {"verbb": "owns"}}, "unknown cue role"),
        ({"also_follow": ("founded_by",)}, "also_follow names an unknown relationship"),
        ({"inbound": ""}, "needs answer sentences and a verb"),
        ({"refine_object": "compnay"}, "unknown refined kind"),
    ],
)
def test_a_typo_in_the_vocabulary_fails_at_import(change: dict, message: str) -> None:
    broken = dataclasses.replace(v.BY_VALUE[v.FOUNDED], **change)
    relationships = tuple(broken if r.value == v.FOUNDED else r for r in v.RELATIONSHIPS)

    with pytest.raises(ValueError, match=message):
        v.check(relationships, v.ENTITY_KINDS)


def test_duplicate_values_fail() -> None:
    with pytest.raises(ValueError, match="duplicate value"):
        v.check((*v.RELATIONSHIPS, v.BY_VALUE[v.ACQUIRED]), v.ENTITY_KINDS)


def test_graph_page_vocabulary_has_a_label_and_colour_for_every_value() -> None:
    page = v.as_json()

    assert set(page["relationships"]) == set(v.RELATIONSHIP_VALUES)
    assert set(page["kinds"]) == set(v.ENTITY_KIND_VALUES)
    assert page["relationships"][v.FOUNDED] == {"label": "founded", "colour": "#e67e22"}
    assert page["kinds"][v.EVENT] == {"label": "Event", "colour": "#6d4c41"}


def test_fits_takes_unknown_kinds_and_open_sides() -> None:
    assert v.fits(v.UNKNOWN, frozenset({v.PERSON}))
    assert v.fits(v.COMPANY, v.ANY_KIND)
    assert v.fits(v.PERSON, frozenset({v.PERSON}))
    assert not v.fits(v.COMPANY, frozenset({v.PERSON}))


def _kinds(text: str) -> dict[str, str]:
    from graph.extraction import extract_links

    kinds = {}
    for link in extract_links(text):
        for end in (link.subject, link.object):
            if end is not None:
                kinds[end.name] = end.kind
    return kinds


def test_a_head_noun_after_an_untyped_name_gives_it_the_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Yesterday the Orbit crew met the Nimbus people."
    assert _kinds(text) == {"Orbit": v.UNKNOWN, "Nimbus": v.UNKNOWN}

    monkeypatch.setattr(v, "KIND_HEAD_NOUNS", {"crew": v.ORG})

    assert _kinds(text) == {"Orbit": v.ORG, "Nimbus": v.UNKNOWN}
    assert _kinds("Yesterday the Acme Corp crew met Nimbus.")["Acme Corp"] == v.COMPANY  # a typed name keeps its kind


def test_a_strict_relationship_drops_ends_of_the_wrong_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    from graph.extraction import extract_links

    text = "Nimbus Labs acquired Orbit. Dana Reyes acquired Orbit."

    def acquirers() -> list[str]:
        return sorted(link.subject.name for link in extract_links(text) if link.relationship == v.ACQUIRED)

    assert acquirers() == ["Dana Reyes", "Nimbus Labs"]

    strict = dataclasses.replace(v.BY_VALUE[v.ACQUIRED], strict=True, subjects=frozenset({v.PERSON}))
    monkeypatch.setattr(v, "BY_VALUE", {**v.BY_VALUE, v.ACQUIRED: strict})

    assert acquirers() == ["Dana Reyes"]  # "Nimbus Labs" is a company by its suffix; an unknown kind still fits


def _first_mentions(text: str) -> list[tuple[str, bool]]:
    from graph.extraction.entities import find_mentions
    from graph.extraction.segment import ReferenceIndex, split_sentences, tokenize

    index = ReferenceIndex([])
    tokens = tokenize(text, split_sentences(text, index)[0], index)
    return [(m.name, m.weak) for m in find_mentions(text, tokens, capitalised_elsewhere=set(), self_words=set())]


def test_a_clause_opening_verb_form_is_a_name_when_a_head_noun_follows(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Routing crew met Nimbus Labs."
    assert _first_mentions(text) == [("Nimbus Labs", False)]  # "Routing ..." opening a clause reads as a verb form

    monkeypatch.setattr(v, "KIND_HEAD_NOUNS", {"crew": v.ORG})

    assert _first_mentions(text) == [("Routing", True), ("Nimbus Labs", False)]  # usable by patterns, not mentioned
