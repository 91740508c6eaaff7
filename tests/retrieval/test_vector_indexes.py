"""The vector arm's per-scope HNSW indexes (retrieval/vector_indexes.py) on real PostgreSQL + pgvector: the sync
builds an index for a scope that reached the threshold and only for it, drops it when the scope shrinks, rebuilds
an invalid one, runs one at a time; the arm's statement uses the scope's index, finds what an exact scan finds, and
never crosses a tenant."""

import io
import json

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from memories.embedding import get_embedder
from memories.models import MemoryKind, Scope
from memories.services.memory import Author, memory_create
from retrieval import selectors
from retrieval.services import SearchOptions, search_memories
from retrieval.vector_indexes import _LOCK_KEY, index_name, indexes_present, vector_indexes_sync
from tests.conftest import remember

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")
TOPICS = [
    "The payments service retries card captures three times before paging the on-call engineer.",
    "Quarterly planning happens in the first week of January, April, July and October.",
    "The data warehouse refreshes its sales tables every night at two o'clock.",
    "New laptops are ordered through the IT portal and arrive within five working days.",
    "The mobile app supports offline mode for the field sales team since version 4.2.",
    "Travel above 500 euros needs the approval of a division head before booking.",
    "The design system lives in Figma; components are reviewed every second Thursday.",
    "Customer escalations go to the support lead, then to the head of customer success.",
]


@pytest.fixture
def org_heavy(acme, globex, django_capture_on_commit_callbacks):
    """Eight memories at org:acme and at org:globex (over a threshold of 6), two at team:platform, one at
    user:albert (under it), embedded."""
    with django_capture_on_commit_callbacks(execute=True):
        for topic in TOPICS:
            remember(acme, topic, scope="org:acme")
            remember(globex, "Globex: " + topic, scope="org:globex")
        remember(acme, "The platform team deploys on Tuesdays and Thursdays after the stand-up.", scope="team:platform")
        remember(acme, "The platform team's on-call rotation changes every Monday at nine.", scope="team:platform")
        remember(acme, "Albert prefers short answers with links to the runbook.", scope="user:albert")
    return acme


def scope_id(tenant, tag):
    level, key = tag.split(":")
    return Scope.objects.get(tenant=tenant, level=level, key=key).pk


def vector_statement(tenant, user_id, query):
    context = selectors.search_context(tenant=tenant, user_id=user_id, norms=[])
    return selectors.arm_statement(
        tenant=tenant,
        chain_ids=[node.scope_id for node in context.chain],
        kinds=list(MemoryKind.values),
        depth=30,
        query=None,
        vector=get_embedder().embed([query])[0],
    )


def vector_hits(tenant, user_id, query):
    result = search_memories(
        tenant=tenant, user_id=user_id, query=query, options=SearchOptions(top_k=30, arms=("vector",))
    )
    return [hit.memory.pk for hit in result.hits]


@override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6)
def test_sync_builds_an_index_for_each_scope_that_reached_the_threshold_and_only_those(org_heavy, globex):
    report = vector_indexes_sync(concurrently=False)

    built = {(row["scope"], row["chunks"]) for row in report.created}
    assert built == {(scope_id(org_heavy, "org:acme"), 8), (scope_id(globex, "org:globex"), 8)}
    assert indexes_present() == {scope_id(org_heavy, "org:acme"): True, scope_id(globex, "org:globex"): True}
    assert (report.scopes_indexed, report.chunks_indexed) == (2, 16)
    again = vector_indexes_sync(concurrently=False)
    assert (again.created, again.dropped, again.scopes_indexed) == ([], [], 2)


def test_the_arm_reads_a_large_scope_through_its_own_index_and_small_scopes_exactly(org_heavy):
    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6):
        vector_indexes_sync(concurrently=False)
    sql, params = vector_statement(org_heavy, "albert", "when does the warehouse refresh")

    with connection.cursor() as cursor:
        # a handful of rows: a sort of the scope's rows is as cheap as the index, so rule out the paths small tables
        # are planned with once analysed (the CI run did: the b-tree and a sort for all eight chunks)
        cursor.execute("ANALYZE memories_memorychunk")  # the same statistics whatever ran before
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert plan.count(f"Index Scan using {index_name(scope_id(org_heavy, 'org:acme'))}") == 1
    assert plan.count("chunk_hnsw_scope_") == 1
    # user:albert, team:platform and division:eu: their rows read by scope (then an exact sort by distance)
    for tag in ("user:albert", "team:platform", "division:eu"):
        assert f"scope_id = {scope_id(org_heavy, tag)})" in plan


def test_the_scope_index_finds_what_an_exact_scan_finds(org_heavy):
    questions = ["how are card payments retried", "who approves expensive travel", "platform deploy days"]
    exact = {question: vector_hits(org_heavy, "albert", question) for question in questions}

    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6):
        assert vector_indexes_sync(concurrently=False).created

    assert {question: vector_hits(org_heavy, "albert", question) for question in questions} == exact
    assert len(exact["platform deploy days"]) == 8 + 2 + 1 + 0  # org, team, own memory; division:eu holds none


def test_an_indexed_scope_of_another_tenant_is_never_read(org_heavy, globex):
    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6):
        vector_indexes_sync(concurrently=False)

    acme_hits = search_memories(
        tenant=org_heavy, user_id="albert", query="Globex payments retries", options=SearchOptions(top_k=50)
    ).hits
    globex_hits = search_memories(
        tenant=globex, user_id="albert", query="payments retries", options=SearchOptions(top_k=50, arms=("vector",))
    ).hits

    assert acme_hits and {hit.memory.tenant_id for hit in acme_hits} == {org_heavy.pk}
    assert {hit.memory.scope.tag for hit in globex_hits} == {"org:globex"}


def test_sync_drops_the_index_of_a_scope_that_fell_below_half_the_threshold(org_heavy, globex):
    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6):
        vector_indexes_sync(concurrently=False)
    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=12):  # 8 chunks: over half of 12, kept
        assert vector_indexes_sync(concurrently=False).dropped == []
    with override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=20):  # 8 < 10: dropped
        report = vector_indexes_sync(concurrently=False)

    assert sorted(row["scope"] for row in report.dropped) == sorted(
        [scope_id(org_heavy, "org:acme"), scope_id(globex, "org:globex")]
    )
    assert indexes_present() == {}


@override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6)
def test_sync_rebuilds_an_index_an_interrupted_build_left_invalid(org_heavy):
    vector_indexes_sync(concurrently=False)
    org = scope_id(org_heavy, "org:acme")
    with connection.cursor() as cursor:  # what a failed CREATE INDEX CONCURRENTLY leaves behind
        cursor.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", [index_name(org)])
    assert indexes_present()[org] is False

    report = vector_indexes_sync(concurrently=False)

    assert report.dropped == [{"scope": org, "reason": "invalid (an interrupted build)"}]
    assert [row["scope"] for row in report.created] == [org]
    assert indexes_present()[org] is True


@override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6)
def test_one_sync_at_a_time(org_heavy):
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [_LOCK_KEY])
        report = vector_indexes_sync(concurrently=False)
        other.execute("SELECT pg_advisory_unlock(%s)", [_LOCK_KEY])

    assert report.skipped is True and report.created == [] and indexes_present() == {}
    assert vector_indexes_sync(concurrently=False).created


@pytest.mark.django_db(transaction=True)  # CREATE INDEX CONCURRENTLY cannot run inside a transaction
@override_settings(ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS=6)
def test_the_command_and_the_beat_task_build_concurrently_and_list_the_indexes(org_heavy, globex):
    from retrieval.tasks import sync_vector_indexes

    try:
        assert sync_vector_indexes() == {"vector_indexes_created": 2, "vector_indexes_dropped": 0}
        store_more = memory_create(
            tenant=org_heavy, author=ADMIN, content="The legal team reviews every vendor contract.", scope="org:acme"
        )
        assert store_more.created
        out = io.StringIO()
        call_command("vector_indexes", json=True, stdout=out)
        listing = json.loads(out.getvalue())
        assert (listing["created"], listing["threshold"]) == ([], 6)
        assert [(row["tenant"], row["scope"], row["valid"]) for row in listing["indexes"]] == [
            ("acme", "org:acme", True),
            ("globex", "org:globex", True),
        ]
        assert listing["indexes"][0]["chunks"] == 9  # the new memory's chunk went into the live index too
        text = io.StringIO()
        call_command("vector_indexes", stdout=text)
        assert "2 scope(s) with their own HNSW index (threshold 6 chunks), 17 chunks" in text.getvalue()
    finally:
        with connection.cursor() as cursor:  # a transactional test's flush empties the tables, not the catalog
            for scope in indexes_present():
                cursor.execute(f"DROP INDEX IF EXISTS {index_name(scope)}")
