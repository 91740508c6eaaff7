"""Chunk embeddings cached on disk by text hash, so a benchmark corpus is embedded once and reused.

Layout: ``<root>/<model>/shard-<pid>-<time>-<n>.hashes.npy`` (``n × 16`` bytes: BLAKE2b-128 of the chunk
text) beside ``….vectors.npy`` (``n × dim`` float32), written whole and renamed into place (a killed run leaves
no half shard; the vectors file is renamed first, and a shard counts once its hashes file exists). Two
processes filling one cache write differently named shards. The model name is part of the path: vectors of
another embedder are never mixed in.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

SHARD_ROWS = 2048


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class EmbeddingCache:
    def __init__(self, root: Path, model_name: str) -> None:
        self.folder = Path(root) / re.sub(r"[^A-Za-z0-9._-]+", "_", model_name)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._index: dict[bytes, tuple[str, int]] = {}
        self._shards: dict[str, np.ndarray] = {}
        for hashes_file in sorted(self.folder.glob("shard-*.hashes.npy")):
            shard = hashes_file.name.removesuffix(".hashes.npy")
            # raw 16-byte rows (bytes() of a numpy "S16" item would drop trailing NUL bytes)
            raw = np.ascontiguousarray(np.load(hashes_file)).view(np.uint8).reshape(-1, 16)
            for row in range(raw.shape[0]):
                self._index.setdefault(raw[row].tobytes(), (shard, row))
        self._serial = 0

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, key: bytes) -> bool:
        return key in self._index

    def _vectors(self, shard: str) -> np.ndarray:
        if shard not in self._shards:
            self._shards[shard] = np.load(self.folder / f"{shard}.vectors.npy", mmap_mode="r")
        return self._shards[shard]

    def get(self, keys: Sequence[bytes]) -> np.ndarray:
        """The cached vectors of ``keys`` in order (all must be cached)."""
        rows = [self._index[key] for key in keys]
        out = None
        for i, (shard, row) in enumerate(rows):
            vector = self._vectors(shard)[row]
            if out is None:
                out = np.empty((len(rows), vector.shape[0]), dtype=np.float32)
            out[i] = vector
        return out if out is not None else np.empty((0, 0), dtype=np.float32)

    def add(self, keys: Sequence[bytes], vectors: np.ndarray) -> None:
        self._serial += 1
        shard = f"shard-{os.getpid()}-{time.time_ns()}-{self._serial:05d}"
        base = self.folder / shard
        for suffix, array in ((".vectors.npy", vectors), (".hashes.npy", np.frombuffer(b"".join(keys), dtype="S16"))):
            partial = base.with_name(base.name + suffix + ".partial")
            with open(partial, "wb") as handle:
                np.save(handle, np.ascontiguousarray(array))
            os.replace(partial, base.with_name(base.name + suffix))
        for row, key in enumerate(keys):
            self._index.setdefault(key, (shard, row))

    def fill(
        self,
        texts: Sequence[str],
        embed_slices: Callable[[Iterable[list[str]]], Iterable[np.ndarray]],
        *,
        progress: Callable[[int, int, float], None] | None = None,
    ) -> dict[str, float]:
        """Embed the texts not cached yet, in length order, in slices of ``SHARD_ROWS`` (the embedder then pads
        each of its batches to texts of nearly one length), and store them shard by shard. ``embed_slices`` maps
        the slices to their vectors in order (a generator, or a process pool's ``imap``). Returns counts, seconds
        and the rate."""
        missing: dict[bytes, str] = {}
        for text in texts:
            key = text_key(text)
            if key not in self._index and key not in missing:
                missing[key] = text
        ordered = sorted(missing.items(), key=lambda item: len(item[1]))
        started = time.perf_counter()
        done = 0
        parts = [ordered[start : start + SHARD_ROWS] for start in range(0, len(ordered), SHARD_ROWS)]
        for part, vectors in zip(parts, embed_slices([text for _, text in part] for part in parts), strict=True):
            self.add([key for key, _ in part], np.asarray(vectors, dtype=np.float32))
            done += len(part)
            if progress is not None:
                progress(done, len(ordered), time.perf_counter() - started)
        seconds = time.perf_counter() - started
        return {
            "texts": len(texts),
            "cached": len(texts) - len(missing),
            "embedded": len(ordered),
            "seconds": round(seconds, 1),
            "per_second": round(len(ordered) / seconds, 1) if ordered and seconds else 0.0,
        }
