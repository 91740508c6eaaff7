"""The reference embedder: sentence-transformers on torch (``ORGMEMORY_EMBEDDER=sentence-transformers``).

Imports torch, so a process that uses it carries torch's start-up time and memory; the default ONNX embedder
does not. Kept as the reference the ONNX vectors are tested against; installed with the ``reference`` extra."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from memories.embedding.source import model_display_name, resolve_source


class SentenceTransformerEmbedder:
    kind = "sentence-transformers"

    def __init__(self, model_path: str | None = None, *, threads: int = 1, batch_size: int = 32) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import torch
        from sentence_transformers import SentenceTransformer

        source = resolve_source(model_path)
        # torch's default OpenMP threads spin, so a query embedding slowed many times over whenever another process
        # used a core; one passive thread per process stays fast under contention (bench/HISTORY.md § Embedder).
        torch.set_num_threads(max(1, threads))
        self._model = SentenceTransformer(str(source), device="cpu", local_files_only=True)
        self.name = model_display_name(source)
        dimension = (
            getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        )
        self.dimensions = int(dimension())
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        # sentence-transformers already sorts each call by length and restores the order
        with self._lock:  # one forward pass at a time per process; torch threads are the parallelism
            vectors = self._model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return vectors.tolist()

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """MiniLM embeds questions as it embeds stored texts (it was trained without prefixes)."""
        return self.embed(texts)
