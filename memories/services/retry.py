"""Deadlock retry for the write services that run as one transaction of their own.

Two transactions that write the same texts at the same scope in opposite orders (two batches, two replays of a
session) wait on each other's uniquely indexed rows, and PostgreSQL aborts one of them. That transaction was all
or nothing, so running it again is safe and, the other having committed, finds its rows (deduplicated). Only at
the top level: inside a caller's transaction the whole outer transaction is lost, and the error goes up to it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection

logger = logging.getLogger(__name__)

ATTEMPTS = 3
_RETRYABLE = {"40P01", "40001"}  # deadlock_detected, serialization_failure

P = ParamSpec("P")
R = TypeVar("R")


def retried_on_deadlock(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` again (up to 3 times in all) when PostgreSQL aborted its transaction as a deadlock victim."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                retryable = getattr(exc.__cause__, "sqlstate", None) in _RETRYABLE
                if not retryable or connection.in_atomic_block or attempt == ATTEMPTS:
                    raise
                logger.info("%s was a deadlock victim; running it again (attempt %d)", func.__name__, attempt + 1)
        raise AssertionError("unreachable")

    return wrapper
