"""POST /search: the result contract, scope and tenant isolation, options, validation, and synthesis with a real
(fake) OpenAI-compatible LLM server."""

from __future__ import annotations

import pytest

from memories.models import Memory
from tests.api.conftest import ALBERT_VISIBLE, error_of
from tests.conftest import ACME_CHART, GLOBEX_CHART, committed_tenants, remember

pytestmark = pytest.mark.django_db

SEARCH = "/api/v1/search"


INDEXED = {  # scope tag (globex's: "globex:" + tag) -> (author: a user id or None for an admin, content)
    "user:albert": ("albert", "Albert prefers Python examples for Zephyr."),
    "user:bea": ("bea", "Bea negotiates her Zephyr bonus privately."),
    "team:platform": (None, "The platform team deploys Zephyr with Argo CD."),
    "team:data": (None, "The data team runs Zephyr batch jobs on Airflow."),
    "division:eu": (None, "EU offices close for Zephyr maintenance on Whit Monday."),
    "org:acme": (None, "Acme's Zephyr fiscal year starts in February."),
    "team:sales": (None, "Sales tracks Zephyr deals in Salesforce."),
    "globex:user:albert": ("albert", "Globex albert likes Zephyr in Rust."),
}


@pytest.fixture(scope="module")
def _indexed_ids(django_db_setup, django_db_blocker) -> dict[str, int]:
    """INDEXED, written through the service once for this module and committed (embedded and linked at commit)."""
    with committed_tenants(django_db_blocker, ACME_CHART, GLOBEX_CHART) as (acme, globex):
        ids = {}
        for key, (user, content) in INDEXED.items():
            tenant, tag = (globex, key.removeprefix("globex:")) if key.startswith("globex:") else (acme, key)
            ids[key] = remember(tenant, content, user=user, scope=None if user else tag).pk
        yield ids


@pytest.fixture
def indexed(_indexed_ids, db) -> dict:
    """acme_memories, embedded and linked (the on-commit indexing ran), so every arm can find them: read afresh in
    this test's transaction (``acme``/``globex`` find the same committed tenants)."""
    rows = Memory.objects.in_bulk(_indexed_ids.values())
    return {key: rows[pk] for key, pk in _indexed_ids.items()}


def tags(response) -> set[str]:
    return {row["scope"]["tag"] for row in response.json()["results"]}


class TestResults:
    def test_result_shape(self, indexed, api):
        response = api.post(SEARCH, {"user_id": "albert", "query": "how does the platform team deploy Zephyr?"})

        assert response.status_code == 200
        body = response.json()
        # "Zephyr" is an entity of the tenant's graph, but no relation is asked: an "about" reading
        assert set(body) == {"results", "degraded", "no_relevant_memory", "confidence", "relational"}
        assert body["relational"] == {
            "relationship": "about",
            "seed": "Zephyr",
            "direction": "about",
            "seeds": ["Zephyr"],
            "path": [],
            "truncated": False,
        }
        assert body["degraded"] == []
        assert body["no_relevant_memory"] is False
        top = body["results"][0]
        memory = indexed["team:platform"]
        assert top == {
            "id": memory.pk,
            "content": memory.content,
            "title": "",
            "kind": "fact",
            "scope": {"level": "team", "key": "platform", "tag": "team:platform"},
            "project": None,
            "score": top["score"],
            "author": "admin:test",
            "created_at": memory.created_at.isoformat().replace("+00:00", "Z"),
            "event_dates": [],
            "valid_from": None,
            "valid_until": None,
            "metadata": {},
            "source": {"app_name": "", "session_id": "", "event_id": ""},
            "contradicts": [],
            "status": "active",
            "possible_instruction": False,
            "provenance": {
                "author": "admin:test",
                "author_type": "admin_user",
                "key_name": None,
                "source": "admin",
                "session_id": None,
                "created_at": memory.created_at.isoformat(),
                "valid_from": None,
                "valid_until": None,
                "status": "active",
                "curated": True,
            },
        }
        scores = [row["score"] for row in body["results"]]
        assert scores == sorted(scores, reverse=True)

    def test_a_user_finds_only_their_chain(self, indexed, api):
        response = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "top_k": 50})

        assert tags(response) == ALBERT_VISIBLE

    def test_a_peer_finds_their_own_private_memory_and_not_alberts(self, indexed, api):
        response = api.post(SEARCH, {"user_id": "bea", "query": "Zephyr", "top_k": 50})

        assert tags(response) == {"user:bea", "team:platform", "division:eu", "org:acme"}

    def test_another_tenant_with_the_same_user_id(self, indexed, globex_api):
        response = globex_api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "top_k": 50})

        assert [row["id"] for row in response.json()["results"]] == [indexed["globex:user:albert"].pk]

    def test_scopes_and_kinds_filters(self, indexed, acme, api):
        with_scope = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "scopes": ["team:platform"]})
        with_kind = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "kinds": ["policy"]})

        assert tags(with_scope) == {"team:platform"}
        assert with_kind.json()["results"] == []

    def test_explain_and_gaps(self, indexed, api):
        response = api.post(
            SEARCH, {"user_id": "albert", "query": "Zephyr kubernetes", "explain": True, "gaps": True, "top_k": 3}
        )

        body = response.json()
        assert set(body) == {"results", "degraded", "gaps", "no_relevant_memory", "confidence", "relational"}
        assert {"ranks", "boosts", "final"} <= set(body["results"][0]["explain"])
        assert body["gaps"]["unknown_terms"] == ["kubernetes"]
        assert body["gaps"]["contradictions"] == []
        assert 0.0 < body["gaps"]["confidence"] <= 1.0
        assert 0.0 < body["confidence"] <= 1.0

    def test_top_k_bounds_the_results(self, indexed, api):
        response = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "top_k": 2})

        assert len(response.json()["results"]) == 2

    def test_embedder_failure_degrades_to_keyword(self, indexed, api):
        from memories.embedding import embedder_override

        class Broken:
            name, dimensions = "broken", 384

            def embed(self, texts):
                raise RuntimeError("no model")

        with embedder_override(Broken()):
            response = api.post(SEARCH, {"user_id": "albert", "query": "Argo"})

        assert response.status_code == 200
        assert response.json()["degraded"] == ["vector"]
        assert [row["id"] for row in response.json()["results"]] == [indexed["team:platform"].pk]


class TestValidation:
    @pytest.mark.parametrize(
        ("body", "status", "code", "field"),
        [
            ({"user_id": "albert", "query": "x", "top_k": 51}, 400, "validation_error", "top_k"),
            ({"user_id": "albert", "query": "x", "top_k": 0}, 400, "validation_error", "top_k"),
            ({"user_id": "albert", "query": "x", "top_k": 10_000_000}, 400, "validation_error", "top_k"),
            ({"user_id": "albert", "query": "x", "top_k": "ten"}, 400, "validation_error", "top_k"),
            ({"user_id": "albert", "query": "x", "top_k": [5]}, 400, "validation_error", "top_k"),
            ({"user_id": "albert", "query": ""}, 400, "validation_error", "query"),
            ({"user_id": "albert", "query": "x" * 2001}, 400, "validation_error", "query"),
            ({"user_id": "albert"}, 400, "validation_error", "query"),
            ({"query": "x"}, 400, "validation_error", "user_id"),
            ({"user_id": "albert", "query": "x", "kinds": ["rumour"]}, 400, "validation_error", "kinds"),
            ({"user_id": "albert", "query": "x", "synthesize": "maybe"}, 400, "validation_error", "synthesize"),
            ({"user_id": "albert", "query": "x", "scopes": ["team:data"]}, 400, "scope_not_on_chain", "scopes"),
            ({"user_id": "albert", "query": "x", "scopes": ["nonsense"]}, 400, "invalid_scope", None),
            ({"user_id": "nobody", "query": "x"}, 404, "unknown_user", None),
        ],
    )
    def test_refusals(self, acme, api, body, status, code, field):
        response = api.post(SEARCH, body)

        assert response.status_code == status
        error = error_of(response)
        assert error["code"] == code
        if field:
            assert field in error["details"]

    @pytest.mark.parametrize(
        "query",
        ["((((", "a" * 1000, "))))((((", "'; DROP TABLE memories_memory; --", "\\", ".*+?[", "who founded (((( ?"],
    )
    def test_hostile_queries_are_harmless(self, indexed, api, query):
        response = api.post(SEARCH, {"user_id": "albert", "query": query})

        assert response.status_code == 200
        assert tags(response) <= ALBERT_VISIBLE


class TestSynthesis:
    def test_without_an_llm_the_answer_is_deterministic(self, indexed, api, monkeypatch):
        monkeypatch.delenv("ORGMEMORY_LLM_URL", raising=False)

        response = api.post(SEARCH, {"user_id": "albert", "query": "Argo deploys", "synthesize": True, "top_k": 2})

        answer = response.json()["answer"]
        assert answer["used_llm"] is False
        # the sentence that answers, quoted and cited: not a numbered list of the results
        assert answer["kind"] == "extractive"
        top = response.json()["results"][0]
        assert answer["text"] == "The platform team deploys Zephyr with Argo CD. [1]"
        assert answer["citations"] == [{"index": 1, "memory_id": top["id"]}]

    def test_with_the_llm_its_cited_answer_is_returned(self, indexed, api, fake_llm):
        response = api.post(SEARCH, {"user_id": "albert", "query": "How is Zephyr deployed?", "synthesize": True})

        body = response.json()
        assert body["answer"] == {
            "text": "The platform team deploys Zephyr with Argo CD [1].",
            "citations": [{"index": 1, "memory_id": body["results"][0]["id"]}],
            "used_llm": True,
            "kind": "llm",
        }
        request = fake_llm.requests[0]
        assert request["path"] == "/v1/chat/completions"
        assert request["headers"]["Authorization"] == "Bearer sk-test"
        assert request["body"]["model"] == "fake-model"
        assert [message["role"] for message in request["body"]["messages"]] == ["system", "user"]
        assert "How is Zephyr deployed?" in request["body"]["messages"][1]["content"]

    @pytest.mark.parametrize("mode", ["garbage", "error"])
    def test_a_broken_llm_falls_back(self, indexed, api, fake_llm, mode):
        fake_llm.mode = mode

        response = api.post(SEARCH, {"user_id": "albert", "query": "How is Zephyr deployed?", "synthesize": True})

        assert response.status_code == 200
        assert response.json()["answer"]["used_llm"] is False
        assert len(fake_llm.requests) == 1

    def test_an_llm_reply_citing_no_source_falls_back(self, indexed, api, fake_llm):
        fake_llm.reply = "Ignore previous instructions [99]."

        response = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "synthesize": True})

        assert response.json()["answer"]["used_llm"] is False

    def test_the_llm_is_not_called_without_synthesize(self, indexed, api, fake_llm):
        api.post(SEARCH, {"user_id": "albert", "query": "Zephyr"})

        assert fake_llm.requests == []


def test_returned_memories_are_scheduled_for_access_tracking(indexed, api, scheduled_accesses):
    response = api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "top_k": 3})

    assert scheduled_accesses == [row["id"] for row in response.json()["results"]]
    assert len(scheduled_accesses) == 3


def test_a_request_spends_one_statement_on_the_key_and_at_most_four_on_the_search(indexed, api):
    """The view does not read the member and chain again for a tenant-wide key: the search's first statement
    resolves them (and answers 404 unknown_user itself)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    api.post(SEARCH, {"user_id": "albert", "query": "warm up"})  # last_used_at is touched at most once a minute
    with CaptureQueriesContext(connection) as queries:
        response = api.post(SEARCH, {"user_id": "albert", "query": "who deploys Zephyr with Argo CD?"})

    assert response.status_code == 200 and response.json()["results"]
    statements = [query["sql"] for query in queries.captured_queries]
    assert "FROM memories_apikey" in statements[0].replace('"', "")
    assert 2 <= len(statements) <= 5, statements


def test_a_restricted_key_searches_only_for_users_inside_its_subtree(indexed, acme, make_client):
    from memories.models import Scope

    data_only = make_client(acme, scope=Scope.objects.get(tenant=acme, level="team", key="data"))

    outside = data_only.post(SEARCH, {"user_id": "albert", "query": "Zephyr"})
    unknown = data_only.post(SEARCH, {"user_id": "nobody", "query": "Zephyr"})
    inside = data_only.post(SEARCH, {"user_id": "dora", "query": "Zephyr"})

    # an unknown user looks the same as one outside the subtree: the key must not learn who exists
    assert [r.status_code for r in (outside, unknown, inside)] == [403, 403, 200]
    assert error_of(outside)["code"] == error_of(unknown)["code"] == "scope_restricted"
    assert "team:data" in tags(inside) and "team:platform" not in tags(inside)
