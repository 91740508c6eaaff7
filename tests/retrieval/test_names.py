"""Names as people use them, on real PostgreSQL: a partial name or a first name links when it fits one of the
caller's visible entities, says which ones when it fits several, and never links (or names) an entity only
memories the caller cannot see mention; path answers end at the names they answer."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from memories.services.memory import Author, memory_create
from retrieval import selectors
from retrieval.relational_query import (
    link_mentions,
    mention_candidates,
    partial_candidates,
    partial_covers,
    tokenize,
)
from retrieval.services import SearchOptions, search_memories
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")
SEARCH = "/api/v1/search"

# (scope, title, content): every relation stated once; bea alone sees her private pages
PAGES = [
    ("org:acme", "Acme Robotics", "Acme Robotics builds warehouse robots in Lyon."),
    ("org:acme", "Beta Labs", "Beta Labs makes lab software for biotech teams."),
    ("org:acme", "Sequoia Capital", "Sequoia Capital invested in Acme Robotics and Beta Labs."),
    ("org:acme", "Alice Smith", "Alice Smith founded Acme Robotics in 2019."),
    ("org:acme", "Frank Ode", "Frank Ode founded Beta Labs after a decade in research."),
    ("org:acme", "Dan Brown", "Dan Brown works at Acme Robotics as an engineer."),
    ("user:bea", "Sequoia Labs", "Sequoia Labs invested in Beta Labs."),
    ("user:bea", "Gina Fox", "Gina Fox invested in Acme Robotics."),
]


@pytest.fixture
def world(acme, django_capture_on_commit_callbacks):
    pages = {}
    with django_capture_on_commit_callbacks(execute=True):
        for scope, title, content in PAGES:
            pages[title] = memory_create(tenant=acme, author=ADMIN, content=content, title=title, scope=scope).memory
    return pages


def search(tenant, query, user="albert"):
    return search_memories(
        tenant=tenant, user_id=user, query=query, options=SearchOptions(track_access=False, synthesize=True)
    )


def titles(result, k=10):
    return [hit.memory.title for hit in result.hits[:k]]


@pytest.fixture
def api(acme):
    key = ApiKeyFactory(tenant=acme, permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.plain}")
    return client


def test_the_readme_question_with_a_partial_name_gets_the_graph_answer_through_the_api(world, api):
    response = api.post(
        SEARCH,
        {"user_id": "albert", "query": "who founded the companies Sequoia invested in?", "synthesize": True},
        format="json",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["relational"]["seeds"] == ["Sequoia Capital"]
    assert [hop["relationship"] for hop in body["relational"]["path"]] == ["invested_in", "founded"]
    assert {row["title"] for row in body["results"][:2]} == {"Alice Smith", "Frank Ode"}
    text = body["answer"]["text"]
    assert text.startswith(("Alice Smith [", "Frank Ode ["))
    assert "via Sequoia Capital → invested in → " in text
    assert text.endswith("→ founded by → Alice Smith and Frank Ode.") or text.endswith(
        "→ founded by → Frank Ode and Alice Smith."
    )
    assert "…" not in text and "Sequoia Labs" not in text  # bea's private entity is no candidate for albert


def test_an_ambiguous_partial_name_says_which_visible_entities_it_could_be(acme, world):
    result = search(acme, "Who founded the companies Sequoia invested in?", user="bea")

    assert result.plan is None
    assert result.answer.text.startswith(
        "“Sequoia” could be Sequoia Capital or Sequoia Labs; name one to follow its links. "
    )


def test_a_first_name_links_the_person(acme, world):
    result = search(acme, "Where does Dan work?")

    assert [mention.name for mention in result.plan.seeds] == ["Dan Brown"]
    # where Dan works is an attribute the facts read: the memory stating it leads, the employer's page beside it
    assert "Acme Robotics" in titles(result, 2)
    assert "Acme Robotics" in result.answer.text


def test_a_name_only_a_private_memory_mentions_links_only_for_its_owner(acme, world):
    other = search(acme, "What did Gina invest in?", user="albert")
    owner = search(acme, "What did Gina invest in?", user="bea")

    assert other.plan is None and "Gina Fox" not in other.answer.text
    assert "Gina Fox" not in titles(other)
    assert [mention.name for mention in owner.plan.seeds] == ["Gina Fox"]
    assert "Acme Robotics" in owner.answer.text


def test_the_context_statement_returns_only_visible_candidates(acme, world):
    albert = selectors.search_context(tenant=acme, user_id="albert", norms=[], partials=["sequoia", "gina"])
    bea = selectors.search_context(tenant=acme, user_id="bea", norms=[], partials=["sequoia", "gina"])

    assert {norm: [ref.name for ref in refs] for norm, refs in albert.partial.items()} == {
        "sequoia": ["Sequoia Capital"]
    }
    assert sorted(ref.name for ref in bea.partial["sequoia"]) == ["Sequoia Capital", "Sequoia Labs"]
    assert [ref.name for ref in bea.partial["gina"]] == ["Gina Fox"]


def test_like_wildcards_in_a_partial_name_match_only_themselves(acme, world):
    context = selectors.search_context(tenant=acme, user_id="albert", norms=[], partials=["%", "s_quoia", "_"])

    assert context.partial == {}


def test_partial_names_keep_the_statement_budget(acme, world):
    search(acme, "warm up the connection and the embedder")
    with CaptureQueriesContext(connection) as captured:
        result = search(acme, "who founded the companies Sequoia invested in?")

    assert [mention.name for mention in result.plan.seeds] == ["Sequoia Capital"]
    assert len(captured.captured_queries) <= 4, [q["sql"][:80] for q in captured.captured_queries]


def test_partial_name_links_are_found_by_the_entity_whatever_the_statistics_say(acme, world):
    """The visibility check of a partial name's candidates reads the links of each candidate entity by the entity,
    never by the tenant alone: for a tenant the planner's statistics do not know yet (a new tenant beside a large
    one reads as one row until ANALYZE), a plan by tenant walked all its memories and scanned all its links for each
    (170 ms a question at 3k links). Index scans only, as the planner would choose on a large table."""
    norm = "sequoia"
    params = selectors.context_params(tenant_id=acme.pk, user_id="albert", partials=[norm])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN (COSTS OFF) " + selectors._CONTEXT_SQL, params)
        plan = [row[0] for row in cursor.fetchall()]

    # each scan of the links and the condition line under it
    conditions = [plan[i + 1] for i, line in enumerate(plan[:-1]) if "Scan" in line and "on graph_entitylink" in line]
    assert conditions, plan
    for condition in conditions:
        assert "subject_id" in condition or "object_id" in condition, "\n".join(plan)


def test_a_partial_name_inside_a_whole_name_is_not_looked_up(acme, world):
    """ "Alice Smith" is a whole name: its words are never read as partial names (link_mentions would take the whole
    name), while a partial name no whole name holds still is."""
    query = "Did Alice Smith meet Sequoia?"
    tokens = tokenize(query)
    spans = mention_candidates(tokens)
    partials = partial_candidates(query, tokens, spans)
    assert {"alice smith", "alice", "smith", "sequoia"} <= set(partials)

    context = selectors.search_context(
        tenant=acme,
        user_id="albert",
        norms=list(spans),
        partials=partials,
        partial_covers=partial_covers(partials, spans),
    )
    looked_up_all = selectors.search_context(tenant=acme, user_id="albert", norms=list(spans), partials=partials)

    assert "alice" in looked_up_all.partial  # the words of the whole name do have candidates ...
    assert set(context.partial) == {"sequoia"}  # ... but only the partial name no whole name holds is looked up
    assert [ref.name for ref in context.partial["sequoia"]] == ["Sequoia Capital"]
    # and the question's mentions are the same as with every partial name looked up
    mentions = [
        link_mentions(query, tokens, spans, index(found.entities), index(found.partial))[0]
        for found in (context, looked_up_all)
    ]
    assert mentions[0] == mentions[1]
    assert [mention.name for mention in mentions[0]] == ["Alice Smith", "Sequoia Capital"]


def index(refs_by_norm):
    return {norm: [(ref.entity_id, ref.name, ref.kind) for ref in refs] for norm, refs in refs_by_norm.items()}


def test_partial_covers_lists_the_spans_that_hold_every_place_of_a_partial_name():
    query = "Alice Smith and Alice"
    tokens = tokenize(query)
    spans = mention_candidates(tokens)

    names = ["alice smith", "smith", "alice"]

    covers = {name: set(found) for name, found in zip(names, partial_covers(names, spans), strict=True)}

    assert "alice smith" in covers["alice smith"] and "smith" not in covers["alice smith"]
    assert {"alice smith", "smith"} <= covers["smith"]
    assert "alice" in covers["alice"] and "alice smith" not in covers["alice"]  # its second place is outside it
