"""Unit tests for relational planning (pure): entity linking, relation cues, directions, paths, hostile input.

The wordings here are the project's own — none is taken from the benchmark paraphrase files — so these tests
check the mechanism (lexicon + roles + types), not a list of phrasings.
"""

from __future__ import annotations

import pytest

from retrieval.relational_query import (
    INBOUND,
    MAX_HOPS,
    OUTBOUND,
    Ambiguity,
    Hop,
    link_mentions,
    mention_candidates,
    parse_relational_query,
    partial_candidates,
    tokenize,
)

ENTITIES = {
    "acme": [(1, "Acme", "company")],
    "sequoia capital": [(2, "Sequoia Capital", "company")],
    "alice smith": [(3, "Alice Smith", "person")],
    "bob lee": [(4, "Bob Lee", "person")],
    "board meeting q1": [(5, "Board Meeting Q1", "event")],
    "demo day w24": [(6, "Demo Day W24", "event")],
    "data": [(7, "Data", "unknown")],
    "vector": [(8, "Vector", "company")],
    "beta": [(9, "Beta", "company")],
}


def plan(text: str):
    return parse_relational_query(text, ENTITIES)


def hops(text: str) -> tuple[str, list[tuple[str, str]]]:
    result = plan(text)
    assert result is not None, text
    return result.seeds[0].name, [(hop.relationship, hop.direction) for hop in result.hops]


@pytest.mark.parametrize(
    ("text", "seed", "expected"),
    [
        # founded
        ("Who founded Acme?", "Acme", [("founded", INBOUND)]),
        ("who started acme", "Acme", [("founded", INBOUND)]),
        ("Acme's founders", "Acme", [("founded", INBOUND)]),
        ("List the co-founders of Acme", "Acme", [("founded", INBOUND)]),
        ("What did Alice Smith create?", "Alice Smith", [("founded", OUTBOUND)]),
        ("Which startups has Alice Smith launched so far?", "Alice Smith", [("founded", OUTBOUND)]),
        # invested_in, both sides (a company can invest and be invested in: the words decide)
        ("Who backed Acme?", "Acme", [("invested_in", INBOUND)]),
        ("Who holds a stake in Acme?", "Acme", [("invested_in", INBOUND)]),
        ("Acme's backers", "Acme", [("invested_in", INBOUND)]),
        ("Which shareholders does Acme have?", "Acme", [("invested_in", INBOUND)]),
        ("Who put money into Acme?", "Acme", [("invested_in", INBOUND)]),
        ("Which companies did Sequoia Capital back?", "Sequoia Capital", [("invested_in", OUTBOUND)]),
        ("Show me Sequoia Capital's portfolio", "Sequoia Capital", [("invested_in", OUTBOUND)]),
        ("startups funded by Sequoia Capital", "Sequoia Capital", [("invested_in", OUTBOUND)]),
        ("Was Acme financed by Sequoia Capital?", "Acme", [("invested_in", INBOUND)]),
        ("What has Alice Smith invested in?", "Alice Smith", [("invested_in", OUTBOUND)]),
        # works_at
        ("Where does Bob Lee work?", "Bob Lee", [("works_at", OUTBOUND)]),
        ("Who is on Acme's payroll?", "Acme", [("works_at", INBOUND)]),
        ("Which engineers does Acme employ?", "Acme", [("works_at", INBOUND)]),
        ("Who is part of Acme?", "Acme", [("works_at", INBOUND)]),
        ("Who are the people at Acme?", "Acme", [("works_at", INBOUND)]),
        ("Who is Bob Lee's employer?", "Bob Lee", [("works_at", OUTBOUND)]),
        # advises
        ("Who gives guidance to Acme?", "Acme", [("advises", INBOUND)]),
        ("Who coaches the Acme team?", "Acme", [("advises", INBOUND)]),
        ("Which companies does Alice Smith mentor?", "Alice Smith", [("advises", OUTBOUND)]),
        # an agent noun before "work with" names the relation; "work with" alone is still work
        ("Which advisors work with Acme?", "Acme", [("advises", INBOUND)]),
        ("Which consultants work with Acme these days?", "Acme", [("advises", INBOUND)]),
        ("Who works with Acme?", "Acme", [("works_at", INBOUND)]),
        # attended: a meeting's only typed edge is attendance, so a cue-less question about it walks that
        ("Who was at Demo Day W24?", "Demo Day W24", [("attended", INBOUND)]),
        ("Who showed up to Board Meeting Q1?", "Board Meeting Q1", [("attended", INBOUND)]),
        ("Who joined Board Meeting Q1?", "Board Meeting Q1", [("attended", INBOUND)]),
        ("Name everyone present at Board Meeting Q1", "Board Meeting Q1", [("attended", INBOUND)]),
        ("Which meetings did Alice Smith sit in on?", "Alice Smith", [("attended", OUTBOUND)]),
        ("Which meetings did Alice Smith attend?", "Alice Smith", [("attended", OUTBOUND)]),
    ],
)
def test_one_hop_in_many_wordings(text, seed, expected):
    assert hops(text) == (seed, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Who founded the companies that Alice Smith invested in?",
            [("invested_in", OUTBOUND), ("founded", INBOUND)],
        ),
        ("Who started the firms in Alice Smith's portfolio?", [("invested_in", OUTBOUND), ("founded", INBOUND)]),
        ("Which investors backed the company Bob Lee works at?", [("works_at", OUTBOUND), ("invested_in", INBOUND)]),
        (
            "Which investors work with the companies Alice Smith founded?",
            [("founded", OUTBOUND), ("invested_in", INBOUND)],
        ),
        ("Who funded Bob Lee's employer?", [("works_at", OUTBOUND), ("invested_in", INBOUND)]),
        ("Who advises companies founded by Alice Smith?", [("founded", OUTBOUND), ("advises", INBOUND)]),
        ("Which meetings did people from Acme attend?", [("works_at", INBOUND), ("attended", OUTBOUND)]),
        ("What events did Acme employees go to?", [("works_at", INBOUND), ("attended", OUTBOUND)]),
        (
            "Who advises the companies founded by people who attended Demo Day W24?",
            [("attended", INBOUND), ("founded", OUTBOUND), ("advises", INBOUND)],
        ),
    ],
)
def test_paths_walk_from_the_named_entity_outwards(text, expected):
    assert hops(text)[1] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Who was Bob Lee's manager back in January 2025?", [("reports_to", "outbound")]),
        ("Who is Bob Lee's manager at present?", [("reports_to", "outbound")]),
        ("Who backed Acme back in 2020?", [("invested_in", "inbound")]),
    ],
)
def test_a_phrase_that_says_when_asks_no_relation(text, expected):
    """ "back in", "at present" say when: their words are cues elsewhere ("backed", "present at"), not here."""
    assert hops(text)[1] == expected


def test_four_hops_keep_the_nearest_three_and_say_so():
    result = plan(
        "Who invested in the companies founded by the advisors of the firms where people who attended "
        "Demo Day W24 work?"
    )
    assert len(result.hops) == MAX_HOPS
    assert result.hops[0] == Hop("attended", INBOUND)
    assert result.truncated is True


def test_a_second_named_entity_becomes_the_target():
    result = plan("Did Alice Smith found Acme?")
    assert (result.seeds[0].name, result.target.name) == ("Alice Smith", "Acme")
    assert result.hops == (Hop("founded", OUTBOUND),)


def test_entities_joined_by_and_are_all_seeds():
    result = plan("Who founded Acme and Beta?")
    assert [m.name for m in result.seeds] == ["Acme", "Beta"]
    assert result.target is None


def test_a_tagline_after_a_dash_is_not_a_second_entity():
    result = plan("Who works at Acme - Data Infrastructure Startup?")
    assert (result.seeds[0].name, result.target) == ("Acme", None)
    assert result.hops == (Hop("works_at", INBOUND),)


def test_a_lower_case_common_word_is_not_a_name_in_a_capitalised_question():
    result = plan("How do we tune the vector index for Acme?")
    assert [m.name for m in result.seeds] == ["Acme"]
    assert result.is_about


def test_a_name_without_a_cue_is_an_about_plan_and_as_query_says_so():
    result = plan("Tell me about Bob Lee")
    assert result.is_about
    assert (result.as_query().relationship, result.as_query().seed) == ("about", "Bob Lee")


def test_possessives_and_curly_apostrophes():
    tokens = tokenize("Who are Acme’s investors?")
    assert [(t.text, t.possessive) for t in tokens] == [
        ("Who", False),
        ("are", False),
        ("Acme", True),
        ("investors", False),
    ]
    assert "acme" in mention_candidates(tokens)


@pytest.mark.parametrize(
    "text",
    [
        "database migrations policy",
        "who is on call this weekend?",
        "",
        "?!?!",
        "the and of a",
    ],
)
def test_no_known_entity_means_no_plan(text):
    assert plan(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "(" * 2000,
        ".*" * 1000,
        "a" * 5000,
        "Acme " * 600,
        "\x00Acme\x00",
        "((a+)+)$ Acme founded by (?:x|y)*",
        "\ud800 Acme",
        "Who founded " + "the companies founded by " * 200 + "Acme?",
    ],
)
def test_hostile_input_never_raises_and_stays_bounded(text):
    result = plan(text)
    assert result is None or len(result.hops) <= MAX_HOPS
    assert len(tokenize(text)) <= 80


def test_non_strings_are_not_questions():
    assert parse_relational_query(None, ENTITIES) is None  # type: ignore[arg-type]
    assert parse_relational_query(42, ENTITIES) is None  # type: ignore[arg-type]


SYSTEMS = {
    "billing": [(20, "Billing", "system")],
    "kafka": [(21, "Kafka", "system")],
    "platform": [(22, "Platform", "unknown")],  # an owner the extractor could not type
    "payments": [(23, "Payments", "org")],
    "alice smith": [(3, "Alice Smith", "person")],
}


@pytest.mark.parametrize(
    ("text", "seed", "expected"),
    [
        ("which team owns the billing service?", "Billing", [("owns", INBOUND)]),
        ("Who owns Kafka?", "Kafka", [("owns", INBOUND)]),
        ("Who is the owner of Kafka?", "Kafka", [("owns", INBOUND)]),
        ("Kafka's maintainers", "Kafka", [("owns", INBOUND)]),
        ("what does the platform team own?", "Platform", [("owns", OUTBOUND)]),
        ("Which systems does Payments maintain?", "Payments", [("owns", OUTBOUND)]),
        ("What does Alice Smith own?", "Alice Smith", [("owns", OUTBOUND)]),
        ("what depends on Kafka?", "Kafka", [("depends_on", INBOUND)]),
        ("Which services rely on Kafka?", "Kafka", [("depends_on", INBOUND)]),
        ("Kafka's consumers", "Kafka", [("depends_on", INBOUND)]),
        ("what does billing depend on?", "Billing", [("depends_on", OUTBOUND)]),
        ("What are the dependencies of Billing?", "Billing", [("depends_on", OUTBOUND)]),
        # a path: what the Payments team's systems depend on
        ("What do the systems Payments owns depend on?", "Payments", [("owns", OUTBOUND), ("depends_on", OUTBOUND)]),
    ],
)
def test_ownership_and_dependency_questions_both_ways(text, seed, expected):
    result = parse_relational_query(text, SYSTEMS)

    assert result is not None, text
    assert (result.seeds[0].name, [(hop.relationship, hop.direction) for hop in result.hops]) == (seed, expected)


# --- partial names: the first words of a name, a first or last name ---------------------------------------------
# ``partial`` is what the context statement returns for partial_candidates: the caller's VISIBLE entities whose
# name starts with the words (or a person whose name ends with them), most mentioned first.
SEQUOIAS = {"sequoia": [(2, "Sequoia Capital", "company"), (20, "Sequoia Labs", "company")]}


def test_partial_candidates_are_short_capitalised_spans_earliest_first():
    text = "Which companies did Sequoia back with Alice in the Demo Day round?"
    tokens = tokenize(text)

    assert partial_candidates(text, tokens, mention_candidates(tokens)) == [
        "sequoia",
        "alice",
        "demo day",
        "demo",
        "day",
    ]
    lower = "what did sequoia back"
    lower_tokens = tokenize(lower)
    assert partial_candidates(lower, lower_tokens, mention_candidates(lower_tokens)) == ["sequoia back", "sequoia"]


def test_an_unambiguous_partial_name_links_the_whole_entity():
    result = parse_relational_query(
        "Who founded the companies Sequoia invested in?", {}, {"sequoia": [(2, "Sequoia Capital", "company")]}
    )

    assert [(m.name, m.entity_ids, m.start, m.end) for m in result.seeds] == [("Sequoia Capital", (2,), 4, 5)]
    assert result.hops == (Hop("invested_in", OUTBOUND), Hop("founded", INBOUND))
    assert result.ambiguous == ()


def test_an_ambiguous_partial_name_links_nothing_and_says_which_entities_it_could_be():
    text = "Who founded the companies Sequoia invested in?"
    tokens = tokenize(text)

    mentions, ambiguous = link_mentions(text, tokens, mention_candidates(tokens), {}, SEQUOIAS)

    assert mentions == []
    assert ambiguous == (Ambiguity(start=4, end=5, text="Sequoia", names=("Sequoia Capital", "Sequoia Labs")),)
    assert parse_relational_query(text, {}, SEQUOIAS) is None


def test_an_ambiguous_partial_name_rides_on_the_plan_of_another_mention():
    result = parse_relational_query("Did Sequoia invest in Acme?", ENTITIES, SEQUOIAS)

    assert [m.name for m in result.seeds] == ["Acme"]
    assert [(a.text, a.names) for a in result.ambiguous] == [("Sequoia", ("Sequoia Capital", "Sequoia Labs"))]


def test_a_whole_name_beats_a_partial_one_and_covers_its_words():
    result = parse_relational_query("Who backed Sequoia Capital?", ENTITIES, SEQUOIAS)

    assert [m.name for m in result.seeds] == ["Sequoia Capital"] and result.ambiguous == ()


def test_a_first_name_and_a_last_name_link_a_person():
    first = parse_relational_query("Where does Alice work?", {}, {"alice": [(3, "Alice Smith", "person")]})
    last = parse_relational_query("What did Smith found?", {}, {"smith": [(3, "Alice Smith", "person")]})

    assert [(m.name, m.entity_ids) for m in first.seeds] == [("Alice Smith", (3,))]
    assert first.hops == (Hop("works_at", OUTBOUND),)
    assert [(m.name, m.entity_ids) for m in last.seeds] == [("Alice Smith", (3,))]
    assert last.hops == (Hop("founded", OUTBOUND),)


def test_a_name_only_a_private_memory_mentions_does_not_link_for_another_user():
    # Gina Fox is known to the tenant (the exact-name index is tenant-wide) but only a memory private to someone
    # else mentions her, so the caller's visible partial index has no candidate for "Gina"
    exact = {**ENTITIES, "gina fox": [(30, "Gina Fox", "person")]}
    owner = parse_relational_query("What did Gina invest in?", exact, {"gina": [(30, "Gina Fox", "person")]})
    other = parse_relational_query("What did Gina invest in?", exact, {})

    assert [m.name for m in owner.seeds] == ["Gina Fox"]
    assert other is None


def test_more_candidates_than_are_listed_say_so():
    many = {"north": [(40 + i, f"North {name}", "company") for i, name in enumerate("ABCDEF")]}
    text = "Who backed North?"
    tokens = tokenize(text)

    _, ambiguous = link_mentions(text, tokens, mention_candidates(tokens), {}, many)

    assert ambiguous == (
        Ambiguity(start=2, end=3, text="North", names=tuple(f"North {n}" for n in "ABCDE"), more=True),
    )


def test_a_lower_case_word_is_no_partial_name_in_a_capitalised_question():
    result = parse_relational_query(
        "Who invested in the vector index?", {}, {"vector": [(8, "Vector Labs", "company")]}
    )

    assert result is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Which firms invested in Alice Smith's company?", [("works_at", OUTBOUND), ("invested_in", INBOUND)]),
        ("Who mentors Alice Smith's startups?", [("works_at", OUTBOUND), ("advises", INBOUND)]),
        ("Who founded Alice Smith's firm?", [("works_at", OUTBOUND), ("founded", INBOUND)]),
        ("Who funded Alice Smith's employer?", [("works_at", OUTBOUND), ("invested_in", INBOUND)]),
        ("Which companies did Acme's company invest in?", None),  # not a person: no implicit hop
    ],
)
def test_a_persons_company_is_the_organisation_they_belong_to(text, expected):
    result = plan(text)

    got = [(hop.relationship, hop.direction) for hop in result.hops]
    if expected is None:
        assert ("works_at", OUTBOUND) not in got
    else:
        assert got == expected
