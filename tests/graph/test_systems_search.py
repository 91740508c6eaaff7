"""End to end on real PostgreSQL: memories about who owns which system and what depends on what are written through
the write service (links extracted by the real indexing task), then questions in both directions are answered by
the relational arm from the typed edges, each name cited."""

from __future__ import annotations

import pytest

from graph import vocabulary as v
from graph.models import Entity, EntityLink
from memories.services.memory import Author, memory_create
from retrieval.relational_query import INBOUND, OUTBOUND
from retrieval.services import SearchOptions, search_memories

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")
STATEMENTS = (
    "The Payments team owns the Billing service and the Ledger service.",
    "Kafka is owned by the Platform team.",
    "The Billing service depends on Kafka and Postgres.",
    "Ledger relies heavily on Kafka.",
    "The cafeteria serves pasta on Mondays.",
)


@pytest.fixture
def systems(acme, django_capture_on_commit_callbacks):
    memories = {}
    for text in STATEMENTS:
        with django_capture_on_commit_callbacks(execute=True):
            memories[text] = memory_create(tenant=acme, author=ADMIN, content=text, scope="org:acme").memory
    return memories


def ask(acme, question: str):
    return search_memories(
        tenant=acme, user_id="albert", query=question, options=SearchOptions(top_k=5, synthesize=True, explain=True)
    )


def test_the_statements_are_typed_edges_between_systems(acme, systems):
    edges = {
        (link.subject.name, link.relationship, link.object.name)
        for link in EntityLink.objects.filter(tenant=acme, relationship__in=[v.OWNS, v.DEPENDS_ON])
    }

    assert edges == {
        ("Payments", v.OWNS, "Billing"),
        ("Payments", v.OWNS, "Ledger"),
        ("Platform", v.OWNS, "Kafka"),
        ("Billing", v.DEPENDS_ON, "Kafka"),
        ("Billing", v.DEPENDS_ON, "Postgres"),
        ("Ledger", v.DEPENDS_ON, "Kafka"),
    }
    kinds = dict(
        Entity.objects.filter(tenant=acme, name__in=["Billing", "Ledger", "Kafka"]).values_list("name", "kind")
    )
    assert kinds == {"Billing": v.SYSTEM, "Ledger": v.SYSTEM, "Kafka": v.SYSTEM}


@pytest.mark.parametrize(
    ("question", "relationship", "direction", "answer", "names"),
    [
        # a one-valued attribute: the fact the note states answers, with since when ("Billing service is owned by
        # Payments (since …) [1]"); the typed edge's answer is the same value
        ("which team owns the billing service?", v.OWNS, INBOUND, "Billing service is owned by Payments", []),
        ("what does the platform team own?", v.OWNS, OUTBOUND, "Platform owns Kafka [", ["Kafka"]),
        ("What does the Payments team own?", v.OWNS, OUTBOUND, "Payments owns ", ["Billing", "Ledger"]),
        ("what depends on Kafka?", v.DEPENDS_ON, INBOUND, "Depending on Kafka: ", ["Billing", "Ledger"]),
        ("what does billing depend on?", v.DEPENDS_ON, OUTBOUND, "Billing depends on ", ["Kafka", "Postgres"]),
    ],
)
def test_questions_are_answered_both_ways_from_the_edges(
    acme, systems, question, relationship, direction, answer, names
):
    result = ask(acme, question)

    assert (result.relational.relationship, result.relational.direction) == (relationship, direction)
    assert result.answer.used_llm is False
    assert result.answer.text.startswith(answer)
    for name in names:
        assert f"{name} [" in result.answer.text
    assert "cafeteria" not in result.answer.text
    cited = {memory_id for _, memory_id in result.answer.citations}
    assert cited and cited <= {hit.memory.pk for hit in result.hits}
    assert systems[STATEMENTS[4]].pk not in cited
