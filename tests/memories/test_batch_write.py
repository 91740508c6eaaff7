"""The batched write path (issue 10, item 2): one result per item in input order (created, deduplicated within the
batch and against stored rows, superseded, failed with its reason) through the service, the API, session ingest
and import; a fixed number of statements per batch whatever its size (one dedup query, one insert); the BM25
statistics right after a bulk write; dedup never crossing a tenant or leaving the scope; embeddings and links
written after the commit."""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from graph.models import EntityLink
from memories import textsim
from memories.models import IndexState, Member, Memory, MemoryChunk, Policy
from memories.services import api_key_create
from memories.services.memory import Author, memory_create, memory_create_batch
from memories.services.sessions import session_ingest
from orgmemory.errors import ContentTooLarge
from tests.api.conftest import error_of
from tests.retrieval.test_search_pipeline import recomputed, stored

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")
DEPLOYS = "The platform team deploys every Tuesday with Argo CD and Helm charts from the main branch."
DEPLOYS_NEAR = "The platform team deploys every Tuesday with Argo CD and Helm charts from the release branch."
DEPLOYS_NEARER = "The platform team deploys every Tuesday with Argo CD and Helm charts from the release branch today."


@pytest.fixture
def api(acme) -> APIClient:
    """An acme client with a real key (read, write)."""
    _, plain = api_key_create(tenant=acme, name="batch-key", permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


def agent(tenant, user_id):
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


def distinct_text(index: int) -> str:
    """Texts that share no words, so dedup never merges them."""
    return " ".join(f"w{index}x{position}" for position in range(6)) + "."


class TestOutcomesInOrder:
    def test_each_item_has_its_outcome_in_input_order(self, acme):
        stored_twin = memory_create(tenant=acme, author=ADMIN, content="Pagers rotate weekly.", scope="team:platform")
        near_target = memory_create(tenant=acme, author=ADMIN, content=DEPLOYS, scope="team:platform")
        items = [
            {"content": "Standups start at nine.", "scope": "team:platform"},
            {"content": "  standups START at nine. ", "scope": "team:platform"},  # the first, normalised
            {"content": "Pagers rotate weekly.", "scope": "team:platform"},  # a stored row
            {"content": DEPLOYS_NEAR, "scope": "team:platform"},  # supersedes a stored row
            {"content": "", "scope": "team:platform"},  # refused
            {"content": "Retros are on Fridays.", "scope": "team:nowhere"},  # refused
            {"content": "Retros are on Fridays.", "scope": "team:platform"},
        ]

        results = memory_create_batch(tenant=acme, author=ADMIN, items=items, partial=True)

        assert [result.outcome for result in results] == [
            "created",
            "deduplicated",
            "deduplicated",
            "superseded",
            "failed",
            "failed",
            "created",
        ]
        assert results[1].memory.pk == results[0].memory.pk
        assert results[2].memory.pk == stored_twin.memory.pk
        assert results[3].supersedes == near_target.memory.pk
        assert results[4].reason["code"] == "empty_content"
        assert results[5].reason == {"code": "unknown_scope", "message": "unknown scope 'team:nowhere'", "details": {}}
        near_target.memory.refresh_from_db()
        assert near_target.memory.superseded_by_id == results[3].memory.pk
        live = set(Memory.objects.live().filter(tenant=acme).values_list("content", flat=True))
        assert live == {"Standups start at nine.", "Pagers rotate weekly.", DEPLOYS_NEAR, "Retros are on Fridays."}

    def test_an_item_supersedes_an_earlier_item_of_the_same_batch(self, acme):
        items = [
            {"content": DEPLOYS_NEAR, "scope": "team:platform"},
            {"content": DEPLOYS_NEARER, "scope": "team:platform"},
        ]

        first, second = memory_create_batch(tenant=acme, author=ADMIN, items=items)

        assert (first.outcome, second.outcome, second.supersedes) == ("created", "superseded", first.memory.pk)
        assert Memory.objects.get(pk=first.memory.pk).superseded_by_id == second.memory.pk
        assert list(Memory.objects.live().filter(tenant=acme).values_list("pk", flat=True)) == [second.memory.pk]

    def test_the_same_text_again_after_its_twin_was_superseded_in_the_batch_is_stored_anew(self, acme):
        items = [{"content": text, "scope": "team:platform"} for text in (DEPLOYS_NEAR, DEPLOYS_NEARER, DEPLOYS_NEAR)]

        results = memory_create_batch(tenant=acme, author=ADMIN, items=items)

        assert [result.outcome for result in results] == ["created", "superseded", "superseded"]
        assert results[2].supersedes == results[1].memory.pk
        assert Memory.objects.live().get(tenant=acme).pk == results[2].memory.pk

    def test_a_resent_external_id_returns_the_first_memory(self, acme):
        first = memory_create(tenant=acme, author=ADMIN, content="A", scope="org:acme", external_id="x-1")
        items = [
            {"content": "B", "scope": "org:acme", "external_id": "x-1"},
            {"content": "C", "scope": "org:acme", "external_id": "x-2"},
            {"content": "D", "scope": "org:acme", "external_id": "x-2"},
        ]

        results = memory_create_batch(tenant=acme, author=ADMIN, items=items)

        assert [result.outcome for result in results] == ["deduplicated", "created", "deduplicated"]
        assert results[0].memory.pk == first.memory.pk
        assert results[2].memory.pk == results[1].memory.pk

    def test_all_or_nothing_by_default_naming_the_bad_item(self, acme):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=20)
        items = [{"content": "short one"}, {"content": "short two"}, {"content": "far longer than twenty bytes"}]

        with pytest.raises(ContentTooLarge) as excinfo:
            memory_create_batch(tenant=acme, author=agent(acme, "albert"), items=items)

        assert excinfo.value.message == "memories[2]: content is 28 bytes; the limit is 20"
        assert excinfo.value.details["index"] == 2
        assert Memory.objects.count() == 0


class TestApi:
    def test_a_batch_answers_each_item_in_order(self, acme, api):
        stored_twin = memory_create(
            tenant=acme, author=agent(acme, "albert"), content="Pagers rotate weekly.", scope="team:platform"
        )
        older = memory_create(tenant=acme, author=agent(acme, "albert"), content=DEPLOYS, scope="team:platform")

        response = api.post(
            "/api/v1/memories",
            {
                "user_id": "albert",
                "memories": [
                    {"content": "I prefer dark mode."},
                    {"content": "i prefer  dark mode."},
                    {"content": "Pagers rotate weekly.", "scope": "team:platform"},
                    {"content": DEPLOYS_NEAR, "scope": "team:platform"},
                ],
            },
        )

        assert response.status_code == 201
        body = response.json()
        assert (body["created"], body["deduplicated"]) == (2, 2)
        rows = body["memories"]
        assert [(row["created"], row["deduplicated"]) for row in rows] == [
            (True, False),
            (False, True),
            (False, True),
            (True, False),
        ]
        assert [row["id"] for row in rows[:3]] == [rows[0]["id"], rows[0]["id"], stored_twin.memory.pk]
        assert [row["supersedes"] for row in rows] == [None, None, None, older.memory.pk]
        assert [row["scope"]["tag"] for row in rows] == ["user:albert", "user:albert", "team:platform", "team:platform"]

    def test_a_refused_item_fails_the_batch_with_its_index_and_reason(self, acme, api):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=20)

        response = api.post(
            "/api/v1/memories",
            {"user_id": "albert", "memories": [{"content": "short"}, {"content": "far longer than twenty bytes"}]},
        )

        assert response.status_code == 413
        assert error_of(response) == {
            "code": "content_too_large",
            "message": "memories[1]: content is 28 bytes; the limit is 20",
            "details": {"index": 1, "content": ["28 > 20 bytes"]},
        }
        assert Memory.objects.count() == 0


class TestSessionIngest:
    def test_events_are_counted_and_listed_in_order(self, acme):
        albert = agent(acme, "albert")
        stored_twin = memory_create(tenant=acme, author=albert, content="Staging DB is pg-stg-2.")
        events = [
            {"id": "e1", "author": "user", "text": "Prod DB is pg-prod-1."},
            {"id": "e2", "author": "bot", "text": ""},  # no text: skipped, not listed
            {"id": "e3", "author": "user", "text": "prod db is PG-PROD-1."},  # the same text as e1
            {"id": "e4", "author": "user", "text": "Staging DB is pg-stg-2."},  # a stored row
            {"id": "e1", "author": "user", "text": "Prod DB is pg-prod-1."},  # e1 re-sent in the same call
        ]

        result = session_ingest(tenant=acme, author=albert, app_name="bot", session_id="s1", events=events)

        e1 = Memory.objects.get(tenant=acme, source_session="s1", source_event_id="e1")
        assert (result.created, result.skipped) == (1, 4)
        assert result.memory_ids == [e1.pk, e1.pk, stored_twin.memory.pk, e1.pk]
        assert e1.metadata == {"author": "user"}

    def test_a_bad_event_fails_the_call_with_its_index(self, acme, api):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=20)
        events = [{"id": "e1", "text": "short"}, {"id": "e2", "text": ""}, {"id": "e3", "text": "x" * 21}]

        response = api.post("/api/v1/sessions", {"user_id": "albert", "session_id": "s1", "events": events})

        assert response.status_code == 413
        assert error_of(response)["message"] == "events[2]: content is 21 bytes; the limit is 20"
        assert error_of(response)["details"]["index"] == 2
        assert Memory.objects.count() == 0


class TestImport:
    def test_each_line_has_its_outcome_and_a_refused_line_does_not_lose_the_others(self, acme, tmp_path):
        older = memory_create(tenant=acme, author=ADMIN, content=DEPLOYS, scope="team:platform")
        memory_create(tenant=acme, author=ADMIN, content="Pagers rotate weekly.", scope="team:platform")
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=120)
        lines = [
            {"scope": "team:platform", "content": "Standups start at nine.", "external_id": "i-1"},
            {"scope": "team:platform", "content": "standups start at NINE."},  # line 1's text
            {"scope": "team:platform", "content": "Pagers rotate weekly."},  # a stored row
            {"scope": "team:platform", "content": DEPLOYS_NEAR, "created_at": "2024-01-02T03:04:05Z"},
            {"scope": "team:platform", "content": "y" * 121},  # refused by the policy's size limit
            {"scope": "team:nowhere", "content": "Unknown scope."},  # refused by scope resolution
            {"user_id": "bea", "content": "Bea likes tea."},
        ]
        path = tmp_path / "memories.jsonl"
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        out = StringIO()

        call_command("import_memories", str(path), "--tenant", "acme", "--json", stdout=out)

        summary = json.loads(out.getvalue())
        assert {key: summary[key] for key in ("created", "deduplicated", "superseded", "failed", "written")} == {
            "created": 3,
            "deduplicated": 2,
            "superseded": 1,
            "failed": 2,
            "written": True,
        }
        assert summary["errors"] == [
            {"line": 5, "error": "content is 121 bytes; the limit is 120"},
            {"line": 6, "error": "unknown scope 'team:nowhere'"},
        ]
        newer = Memory.objects.get(tenant=acme, content=DEPLOYS_NEAR)
        assert Memory.objects.get(pk=older.memory.pk).superseded_by_id == newer.pk
        assert newer.created_at.isoformat() == "2024-01-02T03:04:05+00:00"
        bea = Memory.objects.get(tenant=acme, content="Bea likes tea.")
        assert (bea.scope.tag, bea.author_member.user_id) == ("user:bea", "bea")


class TestStatements:
    def _statements(self, acme, count: int, offset: int) -> list[str]:
        items = [{"content": distinct_text(offset + i), "scope": "team:platform"} for i in range(count)]
        memory_create_batch(tenant=acme, author=ADMIN, items=items[:1])  # scope and policy lookups cached by Django
        with CaptureQueriesContext(connection) as queries:
            results = memory_create_batch(tenant=acme, author=ADMIN, items=items[1:] + items[:1])
        assert [result.outcome for result in results] == ["created"] * (count - 1) + ["deduplicated"]
        return [query["sql"] for query in queries.captured_queries]

    def test_statement_count_does_not_grow_with_the_batch(self, acme):
        small = self._statements(acme, 3, 0)
        large = self._statements(acme, 60, 100)

        assert len(small) == len(large)
        dedup = [sql for sql in large if sql.lstrip().startswith("WITH item AS")]
        inserts = [sql for sql in large if sql.startswith('INSERT INTO "memories_memory"')]
        assert (len(dedup), len(inserts)) == (1, 1)

    def test_bm25_statistics_equal_a_recomputation_after_bulk_writes(self, acme):
        memory_create(tenant=acme, author=ADMIN, content=DEPLOYS, scope="team:platform")
        items = [
            {"content": f"Service {name} is owned by the {name} squad.", "scope": "team:platform"} for name in "abc"
        ]
        items += [
            {"content": DEPLOYS_NEAR, "scope": "team:platform"},
            {"content": DEPLOYS_NEARER, "scope": "team:platform"},
        ]
        items += [{"content": "Service a is owned by the a squad.", "scope": "team:platform"}]

        memory_create_batch(tenant=acme, author=ADMIN, items=items)
        memory_create_batch(tenant=acme, author=agent(acme, "albert"), items=[{"content": "Albert's own note."}])

        assert stored(acme) == recomputed(acme)
        assert stored(acme)[0][0] == 5  # the first DEPLOYS text and the middle one are history


class TestIsolation:
    def test_the_same_text_in_another_tenant_or_off_the_scope_is_not_a_duplicate(self, acme, globex):
        text = "The quarterly planning offsite is in Lisbon."
        elsewhere = [
            memory_create(tenant=globex, author=ADMIN, content=text, scope="user:albert").memory.pk,  # other tenant
            memory_create(tenant=acme, author=ADMIN, content=text, scope="user:bea").memory.pk,  # a peer's scope
            memory_create(tenant=acme, author=ADMIN, content=text, scope="team:data").memory.pk,  # off the chain
            memory_create(tenant=acme, author=ADMIN, content=text, scope="team:platform").memory.pk,  # on the chain
        ]

        (result,) = memory_create_batch(tenant=acme, author=agent(acme, "albert"), items=[{"content": text}])

        assert result.outcome == "created"
        assert result.memory.pk not in elsewhere
        assert result.memory.scope.tag == "user:albert"
        assert Memory.objects.live().filter(content=text).count() == 5

    def test_a_near_duplicate_in_another_tenant_or_scope_is_not_superseded(self, acme, globex):
        memory_create(tenant=globex, author=ADMIN, content=DEPLOYS, scope="team:platform")
        memory_create(tenant=acme, author=ADMIN, content=DEPLOYS, scope="team:data")

        (result,) = memory_create_batch(
            tenant=acme, author=ADMIN, items=[{"content": DEPLOYS_NEAR, "scope": "team:platform"}]
        )

        assert (result.outcome, result.supersedes) == ("created", None)
        assert Memory.objects.live().count() == 3

    def test_a_resent_event_id_of_another_users_memory_is_a_miss_and_stored(self, acme):
        memory_create(
            tenant=acme, author=agent(acme, "bea"), content="Bea's note.", source_session="s", source_event_id="e"
        )

        results = memory_create_batch(
            tenant=acme,
            author=agent(acme, "albert"),
            items=[{"content": "Other.", "source_session": "s", "source_event_id": "e"}, {"content": "Mine."}],
            partial=True,
        )

        assert [result.outcome for result in results] == ["created", "created"]  # issue 24: as if the id were unused
        assert results[0].memory.scope.tag == "user:albert"


class TestIndexingAfterCommit:
    def test_embeddings_and_links_are_written_after_the_batch_commits(self, acme, django_capture_on_commit_callbacks):
        items = [
            {"content": "Alice Smith founded Nimbus Labs.", "scope": "team:platform"},
            {"content": "Bob Lee works at Nimbus Labs.", "scope": "team:platform"},
            {"content": "bob lee works at nimbus labs.", "scope": "team:platform"},  # deduplicated
        ]

        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            results = memory_create_batch(tenant=acme, author=ADMIN, items=items)

        ids = [result.memory.pk for result in results[:2]]
        assert len(callbacks) >= 2  # embedding and link extraction, each one task for the batch
        memories = Memory.objects.filter(pk__in=ids).order_by("pk")
        assert [(m.index_state, m.links_state) for m in memories] == [(IndexState.READY, IndexState.READY)] * 2
        assert sorted(MemoryChunk.objects.filter(memory_id__in=ids).values_list("memory_id", flat=True)) == ids
        edges = set(
            EntityLink.objects.filter(memory_id__in=ids)
            .exclude(relationship="mentioned")
            .values_list("subject__name", "relationship", "object__name")
        )
        assert edges == {("Alice Smith", "founded", "Nimbus Labs"), ("Bob Lee", "works_at", "Nimbus Labs")}


class TestMinHash:
    def test_the_64_bit_minhash_equals_the_integer_formula(self):
        rng = random.Random(3)
        values = [rng.getrandbits(64) for _ in range(500)] + [0, 1, 2**61 - 2, 2**61 - 1, 2**61, 2**63, 2**64 - 1]

        for start in range(0, len(values), 50):
            hashed = values[start : start + 50]
            expected = [min((a * h + b) % textsim._MERSENNE for h in hashed) for a, b in textsim._PERMUTATIONS]
            assert textsim._minima(hashed) == expected
