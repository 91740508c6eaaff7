"""Worker processes that index committed memories while their writer goes on writing: a bulk import without a
broker embeds and links on every core instead of inline in its own process, one batch after the other.

Each worker is a fresh interpreter (``spawn``: a forked child would share the writer's database connection) that
sets Django up, loads the embedder once, and for each batch of ids runs what every write's hand-off runs
(:func:`memories.services.indexing.memories_index_now`: embedding, link extraction), on the writer's database. A
batch whose indexing fails leaves its memories pending or failed, where the sweeper finds them, as for any write.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from django.db import connections

from memories import indexing_worker

logger = logging.getLogger(__name__)


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class IndexingPool:
    """``workers`` processes indexing batches of committed memory ids; at most ``backlog`` batches wait for a worker
    (``submit`` then waits for one to finish, so a fast writer never queues the whole file). ``done`` is called with
    the number of memories of each finished batch (a progress bar)."""

    def __init__(self, workers: int, *, backlog: int | None = None, done: Callable[[int], None] | None = None):
        # the children connect where this process connects (a test database, another DATABASE_URL)
        databases = {alias: dict(connections[alias].settings_dict) for alias in connections}
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=indexing_worker.start,
            initargs=(databases,),
        )
        self._backlog = backlog if backlog is not None else 2 * workers
        self._running: set[Future] = set()
        self._done = done
        self.failed_batches = 0

    def submit(self, memory_ids: Sequence[int]) -> None:
        if not memory_ids:
            return
        while len(self._running) >= self._backlog:
            self._reap(wait(self._running, return_when=FIRST_COMPLETED).done)
        self._running.add(self._executor.submit(indexing_worker.index, sorted(set(memory_ids))))

    def finish(self) -> None:
        """Wait for every submitted batch, then stop the workers."""
        try:
            while self._running:
                self._reap(wait(self._running, return_when=FIRST_COMPLETED).done)
        finally:
            self._executor.shutdown(wait=True, cancel_futures=True)

    def abandon(self) -> None:
        """Stop without waiting for the batches not started (the sweeper indexes their memories later)."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _reap(self, finished: set[Future]) -> None:
        for future in finished:
            self._running.discard(future)
            try:
                count = future.result()
            except Exception as exc:  # the batch's memories stay pending: the sweeper retries them
                self.failed_batches += 1
                logger.warning(
                    "an indexing worker failed a batch (%s: %s); the sweeper will retry it", type(exc).__name__, exc
                )
                continue
            if self._done is not None:
                self._done(count)

    def __enter__(self) -> IndexingPool:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.finish()
        else:
            self.abandon()
