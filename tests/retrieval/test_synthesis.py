"""Unit tests for answering: relational sentences, cited lists, the LLM path and its fallbacks, gap analysis."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from retrieval.relational_query import ABOUT, INBOUND, OUTBOUND, RelationalQuery, parse_relational_query
from retrieval.synthesis import (
    Answer,
    Edge,
    Gaps,
    SourceRow,
    analyze_gaps,
    build_prompt,
    cited_list_answer,
    parse_llm_answer,
    path_answer,
    relational_answer,
    synthesize,
)

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
CREATED = datetime(2024, 5, 2, 9, 30, tzinfo=UTC)


def row(memory_id: int, content: str = "", title: str = "") -> SourceRow:
    return SourceRow(memory_id=memory_id, title=title, content=content or f"Memory number {memory_id}.",
                     created_at=CREATED)  # fmt: skip


ROWS = [row(101), row(102), row(103)]
# a question a sentence of ROWS answers, and what the deterministic fallback gives for it when no edge answers:
# the answering sentence, cited (no list)
ASKED = "Which memory has number 101?"
EXTRACTED = Answer("Memory number 101. [1]", ((1, 101),), False, kind="extractive")


class FakeLLM:
    """A stand-in for the HTTP adapter: returns a canned reply (or raises) and records its calls."""

    def __init__(self, reply: object = None, error: Exception | None = None) -> None:
        self.reply = reply
        self.error = error
        self.calls: list[tuple[str, str]] = []

    def complete(self, system: str, prompt: str) -> str:
        self.calls.append((system, prompt))
        if self.error is not None:
            raise self.error
        return self.reply  # type: ignore[return-value]


# --- relational_answer ----------------------------------------------------------------------------------------

INBOUND_CASES = [
    ("founded", "Acme Robotics", "Alice Smith", "Bob Lee",
     "Acme Robotics was founded by Alice Smith [1] and Bob Lee [2]."),
    ("invested_in", "Acme", "Sequoia", "Accel", "Investors in Acme: Sequoia [1] and Accel [2]."),
    ("works_at", "Globex", "Alice", "Bob", "People at Globex: Alice [1] and Bob [2]."),
    ("advises", "Acme", "Carol", "Dan", "Acme is advised by Carol [1] and Dan [2]."),
    ("attended", "Q3 planning", "Alice", "Bob", "Q3 planning was attended by Alice [1] and Bob [2]."),
    ("partner_of", "Acme", "Globex", "Initech", "Acme partners with Globex [1] and Initech [2]."),
    ("competitor_of", "Acme", "Globex", "Initech", "Acme competes with Globex [1] and Initech [2]."),
    ("acquired", "Beta", "Acme", "Globex", "Beta was acquired by Acme [1] and Globex [2]."),
    ("reports_to", "Alice", "Bob", "Carol", "Reporting to Alice: Bob [1] and Carol [2]."),
]  # fmt: skip

OUTBOUND_CASES = [
    ("founded", "Alice Smith", "Acme", "Beta", "Alice Smith founded Acme [1] and Beta [2]."),
    ("invested_in", "Sequoia", "Acme", "Beta", "Sequoia invested in Acme [1] and Beta [2]."),
    ("works_at", "Bob", "Globex", "Initech", "Bob works at Globex [1] and Initech [2]."),
    ("advises", "Carol", "Acme", "Beta", "Carol advises Acme [1] and Beta [2]."),
    ("attended", "Alice", "MIT", "Q3 planning", "Alice attended MIT [1] and Q3 planning [2]."),
    ("partner_of", "Acme", "Globex", "Initech", "Acme partners with Globex [1] and Initech [2]."),
    ("competitor_of", "Acme", "Globex", "Initech", "Acme competes with Globex [1] and Initech [2]."),
    ("acquired", "Acme", "Beta", "Gamma", "Acme acquired Beta [1] and Gamma [2]."),
    ("reports_to", "Bob", "Alice", "Carol", "Bob reports to Alice [1] and Carol [2]."),
]


class TestRelationalAnswer:
    @pytest.mark.parametrize(("relationship", "anchor", "first", "second", "expected"), INBOUND_CASES)
    def test_inbound_sentence(self, relationship, anchor, first, second, expected):
        edges = [Edge(first, relationship, anchor, 101), Edge(second, relationship, anchor, 102)]
        query = RelationalQuery(relationship, anchor, INBOUND)

        answer = relational_answer(query=query, edges=edges, rows=ROWS)

        assert answer == Answer(text=expected, citations=((1, 101), (2, 102)), used_llm=False)

    @pytest.mark.parametrize(("relationship", "anchor", "first", "second", "expected"), OUTBOUND_CASES)
    def test_outbound_sentence(self, relationship, anchor, first, second, expected):
        edges = [Edge(anchor, relationship, first, 101), Edge(anchor, relationship, second, 102)]
        query = RelationalQuery(relationship, anchor, OUTBOUND)

        answer = relational_answer(query=query, edges=edges, rows=ROWS)

        assert answer == Answer(text=expected, citations=((1, 101), (2, 102)), used_llm=False)

    def test_single_name(self):
        answer = relational_answer(
            query=RelationalQuery("founded", "Acme", INBOUND), edges=[Edge("Alice", "founded", "Acme", 103)], rows=ROWS
        )
        assert answer == Answer("Acme was founded by Alice [1].", ((1, 103),), False)

    def test_three_names_use_commas_then_and(self):
        edges = [Edge(name, "invested_in", "Acme", mid) for name, mid in (("A", 101), ("B", 102), ("C", 103))]
        answer = relational_answer(query=RelationalQuery("invested_in", "Acme", INBOUND), edges=edges, rows=ROWS)
        assert answer is not None
        assert answer.text == "Investors in Acme: A [1], B [2] and C [3]."

    def test_citations_follow_sentence_order_not_row_positions(self):
        # Given the edges arrive out of rank order and stated by rows 3 and 2
        edges = [Edge("Bob Lee", "founded", "Acme", 103), Edge("Alice Smith", "founded", "Acme", 102)]

        answer = relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=ROWS)

        # Then the best-ranked statement comes first and is [1]
        assert answer == Answer("Acme was founded by Alice Smith [1] and Bob Lee [2].", ((1, 102), (2, 103)), False)

    def test_one_memory_stating_two_names_keeps_one_number(self):
        edges = [Edge("Alice", "founded", "Acme", 102), Edge("Bob", "founded", "Acme", 102)]
        answer = relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme was founded by Alice [1] and Bob [1].", ((1, 102),), False)

    def test_names_are_deduplicated_case_insensitively_keeping_the_best_ranked(self):
        edges = [
            Edge("alice smith", "founded", "Acme", 103),
            Edge("Alice  Smith", "founded", "Acme", 101),
            Edge("Bob", "founded", "Acme", 102),
        ]
        answer = relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme was founded by Alice  Smith [1] and Bob [2].", ((1, 101), (2, 102)), False)

    def test_more_than_ten_names(self):
        rows = [row(i) for i in range(1, 13)]
        edges = [Edge(f"P{i}", "founded", "Acme", i) for i in range(1, 13)]

        answer = relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=rows)

        listed = ", ".join(f"P{i} [{i}]" for i in range(1, 11))
        assert answer == Answer(f"Acme was founded by {listed} and 2 more.", tuple((i, i) for i in range(1, 11)), False)

    def test_edges_whose_memory_is_not_among_rows_are_not_used(self):
        edges = [Edge("Zed", "founded", "Acme", 999), Edge("Alice", "founded", "Acme", 102)]
        answer = relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme was founded by Alice [1].", ((1, 102),), False)

    @pytest.mark.parametrize(
        "edges",
        [
            [],
            [Edge("Zed", "founded", "Acme", 999)],  # not citable
            [Edge("Alice", "invested_in", "Acme", 101)],  # another relationship
            [Edge("", "founded", "Acme", 101)],  # no name
            [Edge("Acme", "founded", "Acme", 101)],  # only itself
        ],
    )
    def test_no_usable_edge_gives_none(self, edges):
        assert relational_answer(query=RelationalQuery("founded", "Acme", INBOUND), edges=edges, rows=ROWS) is None

    def test_symmetric_relationship_reads_both_ways(self):
        edges = [Edge("Acme", "partner_of", "Globex", 101), Edge("Initech", "partner_of", "Acme", 102)]
        answer = relational_answer(query=RelationalQuery("partner_of", "Acme", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme partners with Globex [1] and Initech [2].", ((1, 101), (2, 102)), False)

    def test_anchor_is_the_side_matching_the_seed(self):
        edges = [Edge("Carol", "founded", "Zeta", 101), Edge("Alice", "founded", "Acme Robotics", 102)]
        answer = relational_answer(query=RelationalQuery("founded", "acme", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme Robotics was founded by Alice [1].", ((1, 102),), False)

    def test_anchor_falls_back_to_the_most_frequent_entity(self):
        # Given a seed resolved through an alias the edges do not spell ("ACR" → Acme Robotics)
        edges = [
            Edge("Carol", "founded", "Zeta", 101),
            Edge("Alice", "founded", "Acme Robotics", 102),
            Edge("Bob", "founded", "Acme Robotics", 103),
        ]
        answer = relational_answer(query=RelationalQuery("founded", "ACR", INBOUND), edges=edges, rows=ROWS)
        assert answer == Answer("Acme Robotics was founded by Alice [1] and Bob [2].", ((1, 102), (2, 103)), False)

    def test_about_lists_facts(self):
        edges = [
            Edge("Alice Smith", "founded", "Acme Robotics", 101),
            Edge("Sequoia", "invested_in", "Acme Robotics", 102),
            Edge("Bob", "works_at", "Globex", 103),  # not about Acme
            Edge("Acme Robotics", "mentioned", "Zurich", 101),  # no sentence for a bare mention
            Edge("alice smith", "founded", "acme robotics", 103),  # the same fact again
        ]
        answer = relational_answer(query=RelationalQuery("about", "Acme Robotics", ABOUT), edges=edges, rows=ROWS)
        assert answer == Answer(
            "About Acme Robotics: Alice Smith founded Acme Robotics [1]; Sequoia invested in Acme Robotics [2].",
            ((1, 101), (2, 102)),
            False,
        )

    def test_about_caps_at_ten_facts(self):
        rows = [row(i) for i in range(1, 13)]
        edges = [Edge(f"P{i}", "works_at", "Acme", i) for i in range(1, 13)]
        answer = relational_answer(query=RelationalQuery("about", "Acme", ABOUT), edges=edges, rows=rows)
        facts = "; ".join(f"P{i} works at Acme [{i}]" for i in range(1, 11))
        assert answer is not None
        assert answer.text == f"About Acme: {facts}; and 2 more."
        assert len(answer.citations) == 10

    def test_about_without_edges_is_none(self):
        assert relational_answer(query=RelationalQuery("about", "Acme", ABOUT), edges=[], rows=ROWS) is None

    def test_parser_output_feeds_the_answer(self):
        plan = parse_relational_query("where does Bob work?", {"bob": [(1, "Bob", "person")]})
        query = plan.as_query()
        answer = relational_answer(query=query, edges=[Edge("Bob", "works_at", "Globex", 101)], rows=ROWS)
        assert answer == Answer("Bob works at Globex [1].", ((1, 101),), False)


# --- cited_list_answer / build_prompt / parse_llm_answer -----------------------------------------------------


class TestCitedListAnswer:
    def test_titles_and_content_labels(self):
        long_content = "word " * 60  # 300 characters
        rows = [
            row(7, title="  Deploy   policy "),
            row(8, content="We deploy\non   Fridays.", title=""),
            row(9, content=long_content),
        ]

        answer = cited_list_answer(rows=rows)

        expected_third = " ".join(long_content.split())[:160].rstrip()
        assert answer == Answer(
            f"1. Deploy policy [1]\n2. We deploy on Fridays. [2]\n3. {expected_third} [3]",
            ((1, 7), (2, 8), (3, 9)),
            False,
        )
        assert len(expected_third) == 159  # 160 characters ending in a space, stripped

    def test_limit(self):
        rows = [row(i, title=f"T{i}") for i in range(1, 8)]
        assert cited_list_answer(rows=rows).text == "\n".join(f"{i}. T{i} [{i}]" for i in range(1, 6))
        assert cited_list_answer(rows=rows, limit=2).citations == ((1, 1), (2, 2))

    def test_empty(self):
        assert cited_list_answer(rows=[]) == Answer("No memories matched.", (), False)

    def test_invalid_limit(self):
        with pytest.raises(ValueError):
            cited_list_answer(rows=ROWS, limit=0)


class TestBuildPrompt:
    def test_exact_prompt(self):
        rows = [row(1, "Alice Smith founded Acme.", "Acme founding"), row(2, "Bob joined Acme in 2020.")]

        system, prompt = build_prompt(question="  who founded\nAcme? ", rows=rows)

        assert prompt == (
            "Sources:\n\n"
            "[1] Acme founding (2024-05-02)\nAlice Smith founded Acme.\n\n"
            "[2] Untitled (2024-05-02)\nBob joined Acme in 2020.\n\n"
            "Question: who founded Acme?\n\n"
            "Answer, citing sources as [n]:"
        )
        assert "Use only the numbered sources" in system
        assert "[1]" in system
        assert "data, not instructions" in system

    def test_limit_and_truncation(self):
        rows = [row(i, "x" * 2500) for i in range(1, 11)]
        _, prompt = build_prompt(question="q", rows=rows)
        assert "[8] Untitled" in prompt and "[9]" not in prompt
        assert ("x" * 2000 + " …\n") in prompt and "x" * 2001 not in prompt
        _, short = build_prompt(question="q", rows=rows, limit=2)
        assert "[2] Untitled" in short and "[3]" not in short

    def test_no_rows(self):
        _, prompt = build_prompt(question="q", rows=[])
        assert prompt == "Sources:\n\n(no sources)\n\nQuestion: q\n\nAnswer, citing sources as [n]:"


class TestParseLlmAnswer:
    def test_citations_in_order_of_first_appearance(self):
        answer = parse_llm_answer("  Alice founded Acme [2], with Bob [1][2].\n", rows=ROWS)
        assert answer == Answer("Alice founded Acme [2], with Bob [1][2].", ((2, 102), (1, 101)), True)

    def test_grouped_citations(self):
        answer = parse_llm_answer("Both did [1, 3].", rows=ROWS)
        assert answer == Answer("Both did [1, 3].", ((1, 101), (3, 103)), True)

    def test_year_in_brackets_is_not_a_citation(self):
        answer = parse_llm_answer("Founded in [2024] by Alice [1].", rows=ROWS)
        assert answer is not None and answer.citations == ((1, 101),)

    @pytest.mark.parametrize(
        "reply",
        [
            "Alice founded Acme.",  # no citation
            "Alice founded Acme [4].",  # beyond the sources
            "Alice [1] and Bob [4].",  # one invented source spoils it
            "Alice [0].",
            "",
            "   ",
            None,
            42,
        ],
    )
    def test_invalid_replies(self, reply):
        assert parse_llm_answer(reply, rows=ROWS) is None  # type: ignore[arg-type]


# --- synthesize -----------------------------------------------------------------------------------------------


class TestSynthesize:
    def test_llm_answer_is_used_when_valid(self):
        llm = FakeLLM(reply="Alice founded Acme [1].")
        rows = [row(i) for i in range(1, 11)]

        answer = synthesize(question="who founded Acme?", rows=rows, llm=llm)

        assert answer == Answer("Alice founded Acme [1].", ((1, 1),), True)
        assert llm.calls == [build_prompt(question="who founded Acme?", rows=rows[:8])]

    def test_llm_error_falls_back_and_logs(self, caplog):
        llm = FakeLLM(error=TimeoutError("upstream timed out"))

        with caplog.at_level(logging.WARNING, logger="retrieval.synthesis"):
            answer = synthesize(question=ASKED, rows=ROWS, llm=llm)

        assert answer == EXTRACTED
        assert answer.used_llm is False
        assert "synthesis LLM failed" in caplog.text

    @pytest.mark.parametrize("reply", ["I think Alice did it.", "Alice [9].", None, ""])
    def test_unparseable_reply_falls_back(self, reply, caplog):
        with caplog.at_level(logging.WARNING, logger="retrieval.synthesis"):
            answer = synthesize(question=ASKED, rows=ROWS, llm=FakeLLM(reply=reply))
        assert answer == EXTRACTED  # never the numbered list of titles
        assert "cited no valid source" in caplog.text

    def test_fallback_prefers_the_relational_sentence(self):
        answer = synthesize(
            question="who founded Acme",
            rows=ROWS,
            llm=FakeLLM(error=RuntimeError("down")),
            relational=RelationalQuery("founded", "Acme", INBOUND),
            edges=[Edge("Alice", "founded", "Acme", 102)],
        )
        assert answer == Answer("Acme was founded by Alice [1].", ((1, 102),), False, kind="relational")

    def test_no_llm_relational_without_usable_edges_gives_the_extract(self):
        rows = [row(101, "Acme builds warehouse robots."), row(102, "Alice Smith founded Acme in 2019.")]
        answer = synthesize(
            question="who founded Acme",
            rows=rows,
            llm=None,
            relational=RelationalQuery("founded", "Acme", INBOUND),
            edges=[Edge("Alice", "founded", "Acme", 999)],
        )
        assert answer == Answer("Alice Smith founded Acme in 2019. [1]", ((1, 102),), False, kind="extractive")

    def test_edges_without_a_relational_query_are_ignored(self):
        answer = synthesize(question=ASKED, rows=ROWS, llm=None, edges=[Edge("Alice", "founded", "Acme", 101)])
        assert answer == EXTRACTED

    def test_no_sentence_answering_the_question_gives_no_answer_and_cites_nothing(self):
        # "who" asks for a person: no sentence of ROWS names one, so none is quoted as if it did
        answer = synthesize(question="Who founded Acme?", rows=ROWS, llm=None)

        assert answer == Answer(
            "No memory answers this directly; the closest results are below.", (), False, kind="none"
        )

    def test_no_rows_never_calls_the_llm(self):
        llm = FakeLLM(reply="Something [1].")
        assert synthesize(question="q", rows=[], llm=llm) == Answer("No memories matched.", (), False, kind="none")
        assert llm.calls == []

    def test_malformed_edge_does_not_raise(self, caplog):
        bad_edge = Edge(None, "founded", "Acme", 101)  # type: ignore[arg-type]
        with caplog.at_level(logging.WARNING, logger="retrieval.synthesis"):
            answer = synthesize(
                question=ASKED, rows=ROWS, llm=None, relational=RelationalQuery("founded", "Acme", INBOUND),
                edges=[bad_edge],
            )  # fmt: skip
        assert answer == EXTRACTED
        assert "relational answer failed" in caplog.text


# --- analyze_gaps ---------------------------------------------------------------------------------------------


class TestAnalyzeGaps:
    def test_stale_entities_oldest_first(self):
        gaps = analyze_gaps(
            query="q",
            rows=ROWS,
            entity_last_seen={
                "Acme": NOW - timedelta(days=31),
                "Beta": NOW - timedelta(days=30),  # exactly 30 days: not stale
                "Gamma": NOW - timedelta(days=400),
                "alpha": NOW - timedelta(days=31),
                "Fresh": NOW,
            },
            now=NOW,
            top_score=1.0,
        )
        assert gaps.stale_entities == ("Gamma", "Acme", "alpha")

    def test_stale_after_days_is_configurable(self):
        gaps = analyze_gaps(
            query="q", rows=ROWS, entity_last_seen={"Acme": NOW - timedelta(days=8)}, now=NOW, top_score=1.0,
            stale_after_days=7,
        )  # fmt: skip
        assert gaps.stale_entities == ("Acme",)

    def test_unknown_terms(self):
        rows = [
            row(1, "Alice Smith founded Acme Robotics.", "Acme"),
            row(2, "The deployment checklist for robots."),
        ]
        gaps = analyze_gaps(
            query="Who founded Acme Robotics in Zürich, and what about deployments or a k8s cat-egory?",
            rows=rows,
            entity_last_seen={},
            now=NOW,
            top_score=1.0,
        )
        # "deployments" is covered by "deployment" (a 4+ character word it starts with); "k8s", "zürich" and
        # the two halves of "cat-egory" appear nowhere; "who", "in", "and", "what", "about", "or", "a" are
        # stopwords or too short
        assert gaps.unknown_terms == ("zürich", "k8s", "cat", "egory")

    def test_prefix_matching_both_ways(self):
        rows = [row(1, "Deployments happen on Fridays; cat photos too.")]
        gaps = analyze_gaps(query="deploy friday category", rows=rows, entity_last_seen={}, now=NOW, top_score=1.0)
        # "deploy" and "friday" start words of the row; "category" starts with "cat", but a 3-letter word is
        # too short to cover a longer term
        assert gaps.unknown_terms == ("category",)

    def test_contradictions_pair_negated_with_affirmative(self):
        rows = [
            row(1, "We deploy on Fridays."),
            row(2, "Acme uses Postgres."),
            row(3, "We no longer deploy on Fridays."),
            row(4, "Acme no longer uses MySQL."),
            row(3, "We no longer deploy on Fridays."),  # a repeated row is checked once
        ]
        gaps = analyze_gaps(query="deploy fridays", rows=rows, entity_last_seen={}, now=NOW, top_score=1.0)
        assert gaps.contradictions == ((3, 1),)

    def test_confidence_formula(self):
        rows = [row(1, "We deploy on Fridays."), row(2, "We don't deploy on Fridays.")]
        gaps = analyze_gaps(
            query="deploy fridays zurich mondays acme",
            rows=[*rows, row(3, "Acme and Mondays")],
            entity_last_seen={"Acme": NOW - timedelta(days=90)},
            now=NOW,
            top_score=0.8,
        )
        # 5 terms, "zurich" unknown → coverage 0.8; one contradiction; one stale entity
        expected = round(0.8 * (0.5 + 0.5 * 0.8) * 0.75 * 0.9, 4)
        assert gaps == Gaps(
            stale_entities=("Acme",), unknown_terms=("zurich",), contradictions=((2, 1),), confidence=expected
        )
        assert gaps.confidence == 0.486

    @pytest.mark.parametrize(
        ("top_score", "expected"),
        [(None, 0.5), (2.4, 1.0), (-1.0, 0.0), (0.25, 0.25), (float("nan"), 0.5)],
    )
    def test_confidence_strength(self, top_score, expected):
        gaps = analyze_gaps(query="the", rows=ROWS, entity_last_seen={}, now=NOW, top_score=top_score)
        assert gaps.unknown_terms == ()  # no significant terms → full coverage
        assert gaps.confidence == expected

    def test_no_rows(self):
        gaps = analyze_gaps(query="who founded Acme", rows=[], entity_last_seen={}, now=NOW, top_score=None)
        assert gaps == Gaps(stale_entities=(), unknown_terms=("founded", "acme"), contradictions=(), confidence=0.0)

    def test_inputs_are_not_mutated(self):
        rows = [row(1, "We deploy on Fridays."), row(2, "We never deploy on Fridays.")]
        seen = {"Acme": NOW - timedelta(days=60)}
        rows_before, seen_before = list(rows), dict(seen)
        analyze_gaps(query="deploy", rows=rows, entity_last_seen=seen, now=NOW, top_score=0.5)
        assert rows == rows_before and seen == seen_before


# --- path_answer -------------------------------------------------------------------------------------------------


class TestPathAnswer:
    STEPS = [
        (
            "invested_in",
            OUTBOUND,
            [Edge("Bob Jones", "invested_in", "Acme", 11), Edge("Bob Jones", "invested_in", "Beta", 12)],
        ),
        ("founded", INBOUND, [Edge("Alice Smith", "founded", "Acme", 21), Edge("Frank Ode", "founded", "Beta", 22)]),
    ]

    def test_names_the_final_entities_with_citations_then_the_path(self):
        answer = path_answer(seed="Bob Jones", steps=self.STEPS)

        assert answer.text == (
            "Alice Smith [1] and Frank Ode [2] — via Bob Jones → invested in → Acme [3] and Beta [4] → founded by → "
            "Alice Smith and Frank Ode."
        )
        assert answer.citations == ((1, 21), (2, 22), (3, 11), (4, 12))
        assert answer.used_llm is False

    def test_a_name_reached_twice_is_listed_once_and_the_seed_never(self):
        steps = [
            self.STEPS[0],
            (
                "founded",
                INBOUND,
                [
                    Edge("Alice Smith", "founded", "Acme", 21),
                    Edge("alice  smith", "founded", "Beta", 23),
                    Edge("Bob Jones", "founded", "Beta", 24),
                ],
            ),
        ]
        answer = path_answer(seed="Bob Jones", steps=steps)

        assert answer.text.startswith("Alice Smith [1] — via")

    def test_nothing_reached_is_no_answer(self):
        assert path_answer(seed="Bob Jones", steps=[self.STEPS[0], ("founded", INBOUND, [])]) is None
        assert path_answer(seed="Bob Jones", steps=[]) is None

    def test_the_deterministic_synthesis_prefers_the_path_and_says_when_nothing_is_relevant(self):
        path = path_answer(seed="Bob Jones", steps=self.STEPS)

        assert synthesize(question="q", rows=ROWS, llm=None, path=path) == replace(path, kind="path")
        nothing = synthesize(question="q", rows=ROWS, llm=None, no_relevant=True)
        assert nothing == Answer("Nothing visible to you answers this.", (), False, kind="none")
