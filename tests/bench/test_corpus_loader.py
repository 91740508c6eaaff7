"""The generated corpus and its bulk loader (``load_corpus``), at a size a test can afford: the generator is
deterministic; the COPY path stores what the write path and the embedding task would have stored (the same
weighted tsvector, the same chunk texts, the embedder's vectors), the triggers' BM25 statistics and postings agree
with a recomputation, the search finds what a benchmark question was drawn from, a second run embeds nothing and a
second load is refused, and other tenants are untouched."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection

from bench import corpus_loader
from bench.corpus.generator import benchmark_queries, chunk_texts, corpus_plan, memory_at
from memories.embedding import get_embedder
from memories.models import Memory, MemoryChunk, Tenant
from memories.services.indexing import chunk_texts_for
from memories.services.memory import Author, memory_create
from retrieval.services import SearchOptions, search_memories

pytestmark = pytest.mark.django_db

SIZE = 120
ADMIN = Author(kind="admin", label="curator")


@pytest.fixture
def plan():
    return corpus_plan(seed=5, size=SIZE, small_tenants=1, prefix="test-corpus")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """One embedding cache for the module: the corpus is embedded once (the first test asserts it), as on disk."""
    return tmp_path_factory.mktemp("corpus") / "embeddings"


@pytest.fixture
def loaded(plan, cache_dir, monkeypatch):
    monkeypatch.setattr(corpus_loader, "cache_root", lambda: cache_dir)
    embedded = corpus_loader.corpus_embed(plan, workers=1)
    return embedded, corpus_loader.corpus_load(plan, batch=50)  # several batches per tenant


def test_the_generator_is_deterministic_and_its_questions_come_from_visible_memories(plan):
    again = corpus_plan(seed=5, size=SIZE, small_tenants=1, prefix="test-corpus")
    assert [t.slug for t in plan.tenants] == [t.slug for t in again.tenants]
    assert plan.tenants[0].memories == SIZE
    assert [memory_at(plan, 0, i) for i in range(20)] == [memory_at(again, 0, i) for i in range(20)]
    queries = benchmark_queries(plan, count=12)
    assert queries == benchmark_queries(again, count=12)
    assert {q.kind for q in queries} >= {"keyword", "paraphrase"}
    tags = {s.tag for s in plan.tenants[0].scopes}
    assert all(memory_at(plan, 0, q.source).scope in tags for q in queries)


def test_the_load_stores_what_the_write_path_and_the_embedding_task_would(plan, loaded, acme):
    embedded, report = loaded
    tenant = Tenant.objects.get(slug=plan.tenants[0].slug)
    ids = list(report.tenants.values())
    memories = Memory.objects.filter(tenant_id__in=ids)

    assert embedded["texts"] == embedded["cached"] + embedded["embedded"] > SIZE  # every chunk text, embedded once
    assert report.memories + report.duplicates == sum(t.memories for t in plan.tenants)
    assert memories.count() == report.memories
    assert MemoryChunk.objects.filter(tenant_id__in=ids).count() == report.chunks
    assert report.links > 0 and report.entities > 0
    check = corpus_loader.bm25_statistics_check(ids)
    assert (check["corpus_rows_wrong"], check["term_rows_wrong"], check["posting_rows_wrong"]) == (0, 0, 0)
    assert check["documents"] == report.memories and check["lexemes"] > 300

    # the same generated memory through the write path, in another tenant: the same search vector
    sample = memory_at(plan, 0, 7)
    stored = memories.get(tenant=tenant, title=sample.title, content=sample.content)
    written = memory_create(
        tenant=acme,
        author=ADMIN,
        scope="org:acme",
        content=sample.content,
        title=sample.title,
    ).memory
    written.refresh_from_db()
    assert stored.search_vector == written.search_vector

    # the chunks: the embedding task's texts, in order, with the embedder's vectors
    chunks = list(MemoryChunk.objects.filter(memory=stored).order_by("ordinal"))
    assert [c.text for c in chunks] == chunk_texts_for(stored, {}) == chunk_texts(sample)
    # int8 activations are quantised per batch, so a text embedded in another batch differs in the third decimal;
    # another text's vector would be far off
    fresh = np.asarray(get_embedder().embed([c.text for c in chunks]))
    kept = np.asarray([c.embedding for c in chunks])
    assert np.all(np.sum(fresh * kept, axis=1) > 0.98), np.sum(fresh * kept, axis=1)
    other = np.asarray(get_embedder().embed([memory_at(plan, 0, 8).content]))[0]
    assert np.all(kept @ other < 0.9)
    assert {c.scope_id for c in chunks} == {stored.scope_id} and {c.tenant_id for c in chunks} == {tenant.pk}


def test_a_loaded_corpus_is_searchable_loaded_once_and_leaves_other_tenants_alone(plan, acme, cache_dir, monkeypatch):
    before = memory_create(tenant=acme, author=ADMIN, scope="org:acme", content="Acme deploys on Tuesdays.").memory

    def acme_postings():
        with connection.cursor() as cursor:
            cursor.execute("SELECT lexeme, memory_id FROM retrieval_posting WHERE tenant_id = %s ORDER BY 1", [acme.pk])
            return cursor.fetchall()

    acme_before = acme_postings()
    monkeypatch.setattr(corpus_loader, "cache_root", lambda: cache_dir)
    corpus_loader.corpus_embed(plan, workers=1)
    corpus_loader.corpus_load(plan, batch=50)
    tenant = Tenant.objects.get(slug=plan.tenants[0].slug)

    found = 0
    queries = [q for q in benchmark_queries(plan, count=16) if q.kind == "keyword"]
    for query in queries:
        result = search_memories(
            tenant=tenant, user_id=query.user_id, query=query.text, options=SearchOptions(track_access=False)
        )
        source = memory_at(plan, 0, query.source)
        found += any(hit.memory.content == source.content for hit in result.hits)
        assert {hit.memory.tenant_id for hit in result.hits} == {tenant.pk}
    assert len(queries) >= 3 and found >= len(queries) - 1, (found, len(queries))

    again = corpus_loader.corpus_embed(plan, workers=1)
    assert (again["cached"], again["embedded"]) == (again["texts"], 0)
    with pytest.raises(ValueError, match="exists"):
        corpus_loader.corpus_load(plan)
    assert list(Memory.objects.filter(tenant=acme).values_list("pk", flat=True)) == [before.pk]
    assert acme_postings() == acme_before and len(acme_before) >= 3
