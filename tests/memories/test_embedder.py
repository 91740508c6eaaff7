"""The ONNX embedders against the torch reference: a real export of the packaged all-MiniLM-L6-v2 (built once per
test session in a temporary folder), vectors, batch order, the cache and its rebuild, and no torch at serving.
The torch vectors need the `reference` extra (CI installs it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from memories.embedding import EmbedderUnavailable, embedder_override, make_embedder, onnx_cache
from memories.embedding.onnx_backend import OnnxEmbedder, _token_budget_batches, mean_pool_normalise
from memories.embedding.source import read_config, resolve_source

SENTENCES = [
    "Who founded Northwind Logistics?",
    "Database migrations run only in the Tuesday release window, after a dry run on staging.",
    "k8s",
    "Bea prefers short answers with links to the runbook.",
    "We no longer deploy on Fridays. " * 60,  # past max_seq_length: truncated exactly like sentence-transformers
    "Alice Smith owns the billing service since 3 March (ticket OPS-4821).",
]


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory) -> Path:
    """A real export of the packaged weights, paid once by the whole session."""
    root = tmp_path_factory.mktemp("models")
    onnx_cache.ensure_onnx_model(source=resolve_source(None), cache_root=root, variant="int8")
    return root


@pytest.fixture(scope="session")
def torch_vectors() -> np.ndarray:
    pytest.importorskip("sentence_transformers", reason="the torch reference: the reference extra (make reference)")
    from memories.embedding.torch_backend import SentenceTransformerEmbedder

    return np.array(SentenceTransformerEmbedder(None, threads=1).embed(SENTENCES))


@pytest.fixture(scope="session")
def int8(cache_root) -> OnnxEmbedder:
    return OnnxEmbedder(None, variant="int8", cache_root=cache_root, batch_size=4)


@pytest.fixture(scope="session")
def fp32(cache_root) -> OnnxEmbedder:
    return OnnxEmbedder(None, variant="fp32", cache_root=cache_root, batch_size=4)


def cosines(a, b) -> np.ndarray:
    return (np.asarray(a) * np.asarray(b)).sum(axis=1)


class TestVectors:
    def test_int8_is_close_to_torch(self, int8, torch_vectors):
        vectors = np.array(int8.embed(SENTENCES))

        assert vectors.shape == (len(SENTENCES), 384)
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        assert cosines(vectors, torch_vectors).min() >= 0.97

    def test_fp32_reproduces_torch(self, fp32, torch_vectors):
        assert cosines(fp32.embed(SENTENCES), torch_vectors).min() >= 0.9999

    def test_names_say_model_and_runtime(self, int8, fp32):
        assert (int8.name, fp32.name) == ("all-MiniLM-L6-v2/onnx-int8", "all-MiniLM-L6-v2/onnx-fp32")
        assert int8.dimensions == fp32.dimensions == 384

    def test_truncation_follows_sentence_transformers(self):
        assert read_config(resolve_source(None)).max_seq_length == 256  # tokenizer.json alone says 128

    def test_mean_pooling_ignores_padding(self):
        hidden = np.array([[[1.0, 0.0], [3.0, 0.0], [100.0, 100.0]]], dtype=np.float32)
        mask = np.array([[1, 1, 0]])

        assert np.allclose(mean_pool_normalise(hidden, mask), [[1.0, 0.0]])

    def test_empty_input(self, int8):
        assert int8.embed([]) == []


class TestBatchOrder:
    def test_sorted_batches_come_back_in_input_order(self, fp32):
        # batch_size 4 over 6 texts of very different lengths: sorting regroups them; the answer must not
        alone = np.array([fp32.embed([text])[0] for text in SENTENCES])
        together = np.array(fp32.embed(SENTENCES))
        shuffled = np.array(fp32.embed(SENTENCES[::-1]))[::-1]

        assert np.allclose(together, alone, atol=1e-5)
        assert np.allclose(shuffled, alone, atol=1e-5)

    def test_int8_keeps_each_text_in_its_row(self, int8):
        # dynamic int8 scales activations per batch, so vectors move slightly with their batch mates; each row
        # must still be its own text's vector
        alone = np.array([int8.embed([text])[0] for text in SENTENCES])
        together = np.array(int8.embed(SENTENCES))
        similarity = together @ alone.T

        assert list(similarity.argmax(axis=1)) == list(range(len(SENTENCES)))
        assert similarity.diagonal().min() >= 0.98


def test_token_budget_batches_cover_every_text_once_within_limits():
    lengths = np.array([300, 5, 12, 256, 7, 7, 40, 256, 3, 90])
    order = np.argsort(lengths, kind="stable")

    batches = list(_token_budget_batches(order, lengths, max_rows=3, max_tokens=100))

    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    assert [i for batch in batches for i in batch] == list(order)  # consecutive runs of the sorted order
    for batch in batches:
        assert len(batch) <= 3
        assert len(batch) == 1 or len(batch) * lengths[batch].max() <= 100  # a long text alone may exceed it
    assert [len(b) for b in batches] == [3, 2, 1, 1, 1, 1, 1]


class TestCache:
    def test_manifest_records_checksums_and_settings(self, cache_root):
        folder = onnx_cache.cache_folder(source=resolve_source(None), cache_root=cache_root)
        manifest = json.loads((folder / onnx_cache.MANIFEST_FILE).read_text())

        assert manifest["key"] == onnx_cache.cache_key(resolve_source(None))
        assert manifest["export_settings"] == onnx_cache.EXPORT_SETTINGS
        assert set(manifest["files"]) == {"model.onnx", "model_int8.onnx", "tokenizer.json"}
        assert not [p for p in cache_root.iterdir() if p.is_dir() and p != folder]  # no temp folders left

    def test_a_built_cache_is_reused_without_exporting(self, cache_root, monkeypatch):
        def no_export(**kwargs):
            raise AssertionError("exported again")

        monkeypatch.setattr(onnx_cache, "_export_in_child", no_export)
        model = onnx_cache.ensure_onnx_model(source=resolve_source(None), cache_root=cache_root, variant="int8")
        inode = model.stat().st_ino

        assert OnnxEmbedder(None, cache_root=cache_root).embed(["still here"])
        assert onnx_cache.ensure_onnx_model(source=resolve_source(None), cache_root=cache_root).stat().st_ino == inode

    def test_settings_are_part_of_the_key(self, monkeypatch):
        before = onnx_cache.cache_key(resolve_source(None))
        monkeypatch.setitem(onnx_cache.EXPORT_SETTINGS, "opset", 18)

        assert onnx_cache.cache_key(resolve_source(None)) != before

    def test_a_corrupted_cache_is_rebuilt_once_by_concurrent_starts(self, cache_root, tmp_path, monkeypatch):
        source = resolve_source(None)
        root = tmp_path / "models"
        shutil.copytree(cache_root, root)
        folder = onnx_cache.cache_folder(source=source, cache_root=root)
        model = folder / onnx_cache.INT8_FILE
        model.write_bytes(model.read_bytes()[: model.stat().st_size // 2])  # a truncated copy
        (root / f".{folder.name}.killed-build").mkdir()  # and the temporary folder of a build killed midway
        exports = []
        real_export = onnx_cache._export_in_child

        def counting_export(**kwargs):
            exports.append(kwargs["folder"])
            real_export(**kwargs)

        monkeypatch.setattr(onnx_cache, "_export_in_child", counting_export)
        results, errors = [], []

        def start():
            try:
                results.append(onnx_cache.ensure_onnx_model(source=source, cache_root=root, variant="int8"))
            except Exception as exc:  # surfaced by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=start) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert errors == []
        assert len(exports) == 1  # the others waited on the lock and found the rebuilt cache
        assert results == [model] * 3
        manifest = json.loads((folder / onnx_cache.MANIFEST_FILE).read_text())
        assert onnx_cache._file_sha256(model) == manifest["files"]["model_int8.onnx"]
        assert sorted(p.name for p in root.iterdir() if p.is_dir()) == [folder.name]
        assert OnnxEmbedder(None, cache_root=root).embed(["rebuilt"])


def test_serving_with_onnx_does_not_import_torch(cache_root):
    script = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from memories.embedding.onnx_backend import OnnxEmbedder\n"
        f"e = OnnxEmbedder(None, cache_root=Path({str(cache_root)!r}))\n"
        "e.embed(['hello'])\n"
        "print(json.dumps(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)

    assert json.loads(completed.stdout.strip().splitlines()[-1]) == []


def test_the_torch_embedder_without_torch_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as on a serving install
    with pytest.raises(EmbedderUnavailable, match=r"reference extra"):
        make_embedder("sentence-transformers")


def test_unknown_embedder_is_refused():
    with pytest.raises(EmbedderUnavailable, match="onnx-int8, onnx, sentence-transformers"):
        make_embedder("word2vec")


@pytest.mark.django_db
def test_switching_embedders_re_embeds_without_crashing(acme, fp32):
    from memories.models import IndexState, Memory, MemoryChunk, Scope
    from memories.services.indexing import memories_embed
    from memories.services.memory import Author, memory_create
    from memories.signals import indexing_deferred

    with indexing_deferred() as ids:
        result = memory_create(
            tenant=acme,
            author=Author(kind="import", label="test"),
            content="The Kafka cluster runs in Frankfurt.",
            scope=Scope.objects.get(tenant=acme, key="acme"),
        )
    memory_id = result.memory.pk
    assert sorted(ids) == [memory_id]

    memories_embed(memory_ids=[memory_id])  # the default embedder (onnx-int8)
    first = Memory.objects.get(pk=memory_id).embedding_model
    with embedder_override(fp32):
        outcome = memories_embed(memory_ids=[memory_id])
    memory = Memory.objects.get(pk=memory_id)

    assert first == "all-MiniLM-L6-v2/onnx-int8"
    assert outcome["embedded"] == 1
    assert (memory.index_state, memory.embedding_model) == (IndexState.READY, "all-MiniLM-L6-v2/onnx-fp32")
    assert MemoryChunk.objects.filter(memory_id=memory_id).count() == 1


@pytest.mark.django_db
def test_the_embedding_task_works_through_a_large_batch_in_slices(acme, monkeypatch):
    from memories import tasks
    from memories.models import IndexState, Memory, Scope
    from memories.services.memory import Author, memory_create_batch
    from memories.signals import indexing_deferred

    scope = Scope.objects.get(tenant=acme, key="acme")
    with indexing_deferred() as ids:
        memory_create_batch(
            tenant=acme,
            author=Author(kind="import", label="test"),
            items=[{"content": f"Service {name} is owned by team {name}.", "scope": scope} for name in "abcde"],
        )
    seen = []
    real = tasks.memories_embed
    monkeypatch.setattr(tasks, "EMBED_SLICE", 2)

    def spy(memory_ids):
        seen.append(memory_ids)
        return real(memory_ids=memory_ids)

    monkeypatch.setattr(tasks, "memories_embed", spy)

    totals = tasks.embed_memories(sorted(ids))

    assert [len(s) for s in seen] == [2, 2, 1]
    assert (totals["embedded"], totals["failed"], totals["chunks"]) == (5, 0, 5)
    assert set(Memory.objects.filter(pk__in=ids).values_list("index_state", flat=True)) == {IndexState.READY}
