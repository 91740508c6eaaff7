"""The threads OrgMemory starts inside a serving process, all here: each has a name (``threading.enumerate()``,
py-spy, logs) and a documented stop. A WSGI/ASGI process starts them once through ``serving_threads_start``
(``orgmemory.wsgi`` / ``orgmemory.asgi``); management commands and Celery workers start none of them.

``orgmemory-sweeper`` (``inline_sweeper_start``)
    Only without a broker, where there is no Celery beat: every ``ORGMEMORY_SWEEP_AFTER_SECONDS`` it runs the
    tasks of ``CELERY_BEAT_SCHEDULE`` that are due (each at its own schedule), inline, by name — the memory store's
    ``memories.tasks.sweep_unindexed`` (embeddings), the graph's ``graph.tasks.sweep_unextracted`` (links) and the
    vector arm's ``retrieval.tasks.sync_vector_indexes`` — so a write whose indexing failed is retried, and a
    grown scope gets its HNSW index, as a worker's beat would. Stop: set the ``threading.Event`` it returns; it
    leaves its loop within one interval and closes its database connection. A daemon thread: it also ends with the
    process.
``orgmemory-embedder-warmup`` (``embedder_warm_up_start``)
    Loads the embedding model once at start-up, so the first search or write does not wait for it to load. Stop: it
    ends by itself after one embedding (a load failure only logs: search degrades and indexing retries).
``orgmemory-access`` (``access_recorder``)
    Only without a broker: batches the ids searches returned and writes their access counts at most once a second,
    off the request path (with a broker, ``memories.tasks.record_access`` does it on a worker). Started by the
    first ``access_schedule``. Stop: ``access_recorder.stop()`` writes what was submitted, then ends the thread
    (``access_flush`` only waits for the writes).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from kombu.exceptions import OperationalError

from memories.embedding import EmbedderUnavailable, get_embedder
from memories.services.access import access_record
from memories.tasks import record_access
from orgmemory.celery import app as celery_app

logger = logging.getLogger("orgmemory")

SWEEPER_THREAD = "orgmemory-sweeper"
WARMUP_THREAD = "orgmemory-embedder-warmup"
ACCESS_THREAD = "orgmemory-access"


def serving_threads_start() -> None:
    """What a serving process starts once: the embedder warm-up and, without a broker, the inline sweeper (and
    says where indexing tasks run)."""
    embedder_warm_up_start()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        inline_sweeper_start()
        logger.warning(
            "CELERY_BROKER_URL is not set: indexing tasks run inline after each commit "
            "(set CELERY_BROKER_URL=redis://… and start a worker to run them on Celery); this process sweeps "
            "unindexed memories every minute."
        )
    else:
        logger.info("Indexing tasks go to the Celery broker at %s.", _redact(settings.CELERY_BROKER_URL))


# --- orgmemory-embedder-warmup ----------------------------------------------------------------------------------


def embedder_warm_up_start() -> threading.Thread:
    """Load the embedding model in a daemon thread; returns the thread (it ends after one embedding)."""

    def load() -> None:
        try:
            get_embedder().embed(["warm-up"])
        except EmbedderUnavailable:
            pass

    thread = threading.Thread(target=load, name=WARMUP_THREAD, daemon=True)
    thread.start()
    return thread


# --- orgmemory-sweeper ------------------------------------------------------------------------------------------

_sweeper_stop: threading.Event | None = None


def beat_tasks_run_inline(entries: set[str] | None = None) -> dict[str, object]:
    """Run every task of ``CELERY_BEAT_SCHEDULE`` (or only ``entries``) once, in this thread (what beat would send
    to a worker); a task that fails is logged and the others still run. Returns each entry's result (None when it
    failed)."""
    celery_app.loader.import_default_modules()  # every app's tasks module, so each scheduled name resolves
    results: dict[str, object] = {}
    for entry, spec in settings.CELERY_BEAT_SCHEDULE.items():
        if entries is not None and entry not in entries:
            continue
        try:
            results[entry] = celery_app.tasks[spec["task"]]()
        except Exception:  # keep sweeping: one failing sweep (or a database blip) must not stop the others
            logger.exception("inline beat task %s failed", spec["task"])
            results[entry] = None
    return results


def inline_sweeper_start(*, interval_seconds: float | None = None) -> threading.Event | None:
    """Start the ``orgmemory-sweeper`` thread: every ``interval_seconds`` (default ORGMEMORY_SWEEP_AFTER_SECONDS)
    it runs the entries of the beat schedule that are due (each entry at most once per its own ``schedule``
    seconds, as beat would). Returns the event that stops it when set, or None if a sweeper already runs in this
    process."""
    global _sweeper_stop
    if _sweeper_stop is not None and not _sweeper_stop.is_set():
        return None
    stop = _sweeper_stop = threading.Event()
    interval = interval_seconds or settings.ORGMEMORY_SWEEP_AFTER_SECONDS

    last_run: dict[str, float] = {}

    def loop() -> None:
        while not stop.wait(interval):
            now = time.monotonic()
            due = {
                entry
                for entry, spec in settings.CELERY_BEAT_SCHEDULE.items()
                if now - last_run.get(entry, -float("inf")) >= float(spec["schedule"]) - interval / 2
            }
            last_run.update(dict.fromkeys(due, now))
            try:
                results = beat_tasks_run_inline(due)
                queued = {name: result for name, result in results.items() if result}
                if any(any(counts.values()) for counts in queued.values() if isinstance(counts, dict)):
                    logger.info("sweeper re-queued %s", queued)
            finally:
                connection.close()

    threading.Thread(target=loop, name=SWEEPER_THREAD, daemon=True).start()
    return stop


# --- orgmemory-access -------------------------------------------------------------------------------------------

_FLUSH_EVERY_SECONDS = 1.0
_MAX_BATCH = 2000
_STOP = None  # the queue item that ends the thread


class AccessRecorder:
    """Batches accesses in a daemon thread so the search response never waits for the write: at most one
    ``write`` per ``_FLUSH_EVERY_SECONDS`` (or per ``_MAX_BATCH`` ids), then the connection is closed (an idle
    thread holds none)."""

    def __init__(self, write: Callable[[list[int]], object]) -> None:
        self._write = write
        self._queue: queue.Queue[list[int] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, ids: list[int]) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=ACCESS_THREAD, daemon=True)
                self._thread.start()
        self._queue.put(ids)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            items: list[list[int] | None] = [first]
            stopping = first is _STOP
            deadline = time.monotonic() + _FLUSH_EVERY_SECONDS
            while not stopping and sum(map(len, items)) < _MAX_BATCH and (left := deadline - time.monotonic()) > 0:
                try:
                    item = self._queue.get(timeout=left)
                except queue.Empty:
                    break
                items.append(item)
                stopping = item is _STOP
            ids = [memory_id for item in items if item is not _STOP for memory_id in item]
            try:
                if ids:
                    self._write(ids)
            except Exception:  # tracking is best effort: never break the process over a counter
                logger.exception("recording accesses failed")
            finally:
                connection.close()
                for _ in items:
                    self._queue.task_done()

    def wait(self, timeout: float = 10.0) -> bool:
        """Wait until everything submitted so far is written; False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    def stop(self, timeout: float = 10.0) -> bool:
        """Write what was submitted, then end the thread (a later ``submit`` starts a new one)."""
        with self._lock:
            thread = self._thread
            if thread is None or not thread.is_alive():
                return True
            self._queue.put(_STOP)
        thread.join(timeout)
        return not thread.is_alive()


access_recorder = AccessRecorder(lambda ids: access_record(memory_ids=ids))


def access_schedule(*, memory_ids: list[int]) -> None:
    """Record accesses asynchronously: a Celery task with a broker, else the ``orgmemory-access`` thread."""
    if not memory_ids:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        access_recorder.submit(list(memory_ids))
        return
    try:
        record_access.delay(list(memory_ids))
    except OperationalError as exc:  # tracking is best effort: a broker outage must not fail the search
        logger.warning("could not queue %d accesses: %s", len(memory_ids), exc)


def access_flush(timeout: float = 10.0) -> bool:
    """Wait until the access recorder has written everything submitted so far (tests, benchmarks)."""
    return access_recorder.wait(timeout)


def _redact(url: str) -> str:
    head, sep, tail = url.rpartition("@")
    return f"{head.split('://')[0]}://***@{tail}" if sep else url
