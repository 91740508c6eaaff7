"""Batch ids per connection and hand them to a callable once the transaction commits.

Each call registers a flush; the first flush to run after a commit takes the whole batch and the later ones find
it empty, so a bulk write becomes one task. Ids left behind by a rolled-back transaction ride along with the next
flush: the tasks skip rows that do not exist.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

from django.db import connections, transaction
from kombu.exceptions import OperationalError as KombuOperationalError

logger = logging.getLogger(__name__)

_deferred: dict[str, list[set[int]]] = {}


def queue_on_commit(*, key: str, item_id: int, using: str, flush: Callable[[list[int]], None]) -> None:
    stack = _deferred.get(key)
    if stack:
        stack[-1].add(item_id)
        return
    connection = connections[using]
    attr = f"_orgmemory_queue_{key}"
    queue = getattr(connection, attr, None)
    if queue is None:
        queue = set()
        setattr(connection, attr, queue)
    queue.add(item_id)
    transaction.on_commit(lambda: _flush(connection, attr, flush), using=using)


def _flush(connection, attr: str, flush: Callable[[list[int]], None]) -> None:
    ids = getattr(connection, attr, None)
    if ids:
        setattr(connection, attr, set())
        try:
            flush(sorted(ids))
        except KombuOperationalError as exc:
            # The write has committed: a broker outage must not turn it into an error. The rows stay pending and
            # the sweeper re-queues them once the broker is back.
            logger.warning("could not queue %d ids (%s): %s; left for the sweeper", len(ids), attr, exc)


@contextlib.contextmanager
def deferred(key: str) -> Iterator[set[int]]:
    """Collect the ids that would be queued under ``key`` instead of queueing them (bulk loads, benchmarks);
    the caller owns processing them."""
    collected: set[int] = set()
    _deferred.setdefault(key, []).append(collected)
    try:
        yield collected
    finally:
        _deferred[key].remove(collected)
