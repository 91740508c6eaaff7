"""Access tracking for the recency and access boosts: returned memories get access_count + 1 and
last_accessed_at = now, written in batches off the request path."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Iterable

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

_FLUSH_EVERY_SECONDS = 1.0
_MAX_BATCH = 2000


def access_record(*, memory_ids: Iterable[int]) -> int:
    """Apply one batch of accesses (an id may repeat: each occurrence counts). Returns rows updated."""
    counts = Counter(memory_ids)
    if not counts:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE memories_memory m SET access_count = m.access_count + a.n, last_accessed_at = now()
            FROM unnest(%s::bigint[], %s::int[]) AS a(id, n) WHERE m.id = a.id
            """,
            [list(counts), list(counts.values())],
        )
        return cursor.rowcount


class _Recorder:
    """With no broker, a daemon thread batches accesses so the search response never waits for the write."""

    def __init__(self) -> None:
        self._queue: queue.Queue[list[int]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, ids: list[int]) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="orgmemory-access", daemon=True)
                self._thread.start()
        self._queue.put(ids)

    def _run(self) -> None:
        while True:
            items: list[list[int]] = [self._queue.get()]
            deadline = time.monotonic() + _FLUSH_EVERY_SECONDS
            while sum(map(len, items)) < _MAX_BATCH and (left := deadline - time.monotonic()) > 0:
                try:
                    items.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            try:
                access_record(memory_ids=[memory_id for item in items for memory_id in item])
            except Exception:  # tracking is best effort: never break the process over a counter
                logger.exception("recording accesses failed")
            finally:
                # at most one batch a second: reconnecting is cheap, and an idle thread then holds no connection
                connection.close()
                for _ in items:
                    self._queue.task_done()

    def wait(self, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks


_recorder = _Recorder()


def access_schedule(*, memory_ids: list[int]) -> None:
    """Record accesses asynchronously: a Celery task with a broker, else the in-process batching thread."""
    if not memory_ids:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _recorder.submit(list(memory_ids))
    else:
        from kombu.exceptions import OperationalError

        from memories.tasks import record_access

        try:
            record_access.delay(list(memory_ids))
        except OperationalError as exc:  # tracking is best effort: a broker outage must not fail the search
            logger.warning("could not queue %d accesses: %s", len(memory_ids), exc)


def access_flush(timeout: float = 10.0) -> bool:
    """Wait until the in-process recorder has written everything submitted so far (tests, shutdown)."""
    return _recorder.wait(timeout)
