"""Read routing to streaming replicas (``DATABASE_REPLICA_URLS``), with read-your-writes per user.

Only the read API views that tolerate replication lag (search, recall, memory lists and reads, entity and
neighbour reads) are routed: :func:`read_routed` wraps their handlers, picks a database for the request and sets
it in a context variable for the request's duration; the ORM (through :class:`orgmemory.db_router.ReplicaRouter`)
and the raw-SQL selectors (through :func:`read_connection`) read from it. Everything else, writes included, and
every write a read makes (access tracking, search gaps) uses the primary.

A replica is used only when it is healthy: it answers, lags at most ``ORGMEMORY_REPLICA_MAX_LAG_MS``, and has
replayed past the last write of the user the request acts for. :func:`records_writes` wraps the write handlers:
after a successful write it stores the primary's WAL position (``pg_current_wal_insert_lsn()``) under (tenant, user) in
the shared cache, so that user reads from the primary until a replica's ``pg_last_wal_replay_lsn()`` has passed
it. The marker lives in the Django cache, which must be shared by every API process (Redis) when replicas are
configured; settings refuse replicas without ``ORGMEMORY_CACHE_URL`` outside the test suite.

A replica that fails mid-request is marked down for ``ORGMEMORY_REPLICA_RETRY_SECONDS`` and the read is run once
more on the primary, so no request fails because a replica died.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, InterfaceError, OperationalError, connections, transaction

logger = logging.getLogger(__name__)

PRIMARY = DEFAULT_DB_ALIAS
READ_HEADER = "X-OrgMemory-Read-From"
_MARKER_PREFIX = "orgmemory:ryw"

_read_alias: contextvars.ContextVar[str] = contextvars.ContextVar("orgmemory_read_alias", default=PRIMARY)


@dataclass(frozen=True)
class ReplicaStatus:
    """What one probe of a replica found: ``ok``, ``lagging`` or ``down``, its lag and replayed WAL position."""

    alias: str
    state: str
    lag_ms: float | None
    replay_lsn: int | None
    checked_at: float
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"status": self.state, "lag_ms": None if self.lag_ms is None else round(self.lag_ms, 1)}
        if self.error:
            body["error"] = self.error
        return body


_lock = threading.Lock()
_statuses: dict[str, ReplicaStatus] = {}
_reads: Counter[str] = Counter()  # reads per database in this process, and replica errors retried on the primary
_caught_up_at: dict[str, float] = {}  # when this process last saw each replica fully replayed and streaming


# --- what reads use -------------------------------------------------------------------------------------------


def current_read_alias() -> str:
    """The database the current request reads from (the primary outside a routed read)."""
    return _read_alias.get()


def read_connection():
    """The connection lag-tolerant raw-SQL reads use: the request's replica inside a routed read, else the primary."""
    return connections[_read_alias.get()]


def replica_aliases() -> list[str]:
    return list(getattr(settings, "ORGMEMORY_REPLICA_ALIASES", []))


# --- WAL positions ----------------------------------------------------------------------------------------------


def lsn_parse(text: str | None) -> int | None:
    """``'16/B374D848'`` → an integer that orders like the WAL position."""
    if not text:
        return None
    high, _, low = str(text).partition("/")
    return (int(high, 16) << 32) | int(low, 16)


def _marker_key(tenant_id: int, user_id: str) -> str:
    return f"{_MARKER_PREFIX}:{int(tenant_id)}:{user_id}"


def write_marker(tenant_id: int, user_id: str) -> int | None:
    """The WAL position the user's reads must see (their last write), or None."""
    value = cache.get(_marker_key(tenant_id, user_id))
    return int(value) if value is not None else None


def write_record(tenant_id: int, user_id: str) -> int | None:
    """Remember the primary's current WAL position as (tenant, user)'s last write; after the commit when inside a
    transaction. Returns the position recorded now (None when deferred to the commit or without replicas)."""
    if not replica_aliases():
        return None
    primary = connections[PRIMARY]
    if primary.in_atomic_block:
        transaction.on_commit(lambda: write_record(tenant_id, user_id), using=PRIMARY)
        return None
    with primary.cursor() as cursor:
        # the insert position, not pg_current_wal_lsn() (the write position): with synchronous_commit off the commit
        # record may still sit in the WAL buffers, behind the write position
        cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
        lsn = lsn_parse(cursor.fetchone()[0])
    # a marker only ever moves forward; two writes racing may keep the smaller, which the next write fixes
    key = _marker_key(tenant_id, user_id)
    previous = cache.get(key)
    if previous is None or int(previous) < lsn:
        cache.set(key, lsn, timeout=settings.ORGMEMORY_REPLICA_MARKER_SECONDS)
    return lsn


# --- replica health -----------------------------------------------------------------------------------------------

_PROBE_SQL = """
    SELECT pg_is_in_recovery(),
           COALESCE(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn())::text,
           pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn(),
           COALESCE((SELECT status = 'streaming' FROM pg_stat_wal_receiver LIMIT 1), false),
           EXTRACT(EPOCH FROM (clock_timestamp() - pg_last_xact_replay_timestamp())) * 1000
"""


def _probe(alias: str) -> ReplicaStatus:
    now = time.monotonic()
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(_PROBE_SQL)
            in_recovery, replay, caught_up, streaming, since_replay_ms = cursor.fetchone()
    except DatabaseError as exc:
        connections[alias].close()
        logger.warning("replica %s is down: %s", alias, exc)
        return ReplicaStatus(alias, "down", None, None, now, error=type(exc).__name__)
    if not in_recovery:
        lag_ms = 0.0  # a server that is not replaying (a promoted standby) is as current as itself
    elif caught_up and streaming:
        lag_ms = 0.0  # replayed everything the primary sent, and connected to it: current
        with _lock:
            _caught_up_at[alias] = now
    else:
        # the age of the last replayed commit overstates the lag after a quiet spell (the next commit has arrived,
        # the previous one is old); the replica holds at least what it held when last seen current, so the lag is
        # at most the time since then
        lag_ms = float(since_replay_ms) if since_replay_ms is not None else float("inf")
        with _lock:
            seen_current = _caught_up_at.get(alias)
        if streaming and seen_current is not None:
            lag_ms = min(lag_ms, (now - seen_current) * 1000)
    state = "ok" if lag_ms <= settings.ORGMEMORY_REPLICA_MAX_LAG_MS else "lagging"
    return ReplicaStatus(alias, state, lag_ms, lsn_parse(replay), now)


def replica_status(alias: str, *, fresh: bool = False) -> ReplicaStatus:
    """The replica's status, probed at most every ``ORGMEMORY_REPLICA_STATUS_TTL_MS`` (a down replica every
    ``ORGMEMORY_REPLICA_RETRY_SECONDS``, so a dead host costs no connection attempt per request)."""
    now = time.monotonic()
    with _lock:
        known = _statuses.get(alias)
    if known is not None and not fresh:
        ttl = (
            settings.ORGMEMORY_REPLICA_RETRY_SECONDS
            if known.state == "down"
            else settings.ORGMEMORY_REPLICA_STATUS_TTL_MS / 1000
        )
        if now - known.checked_at < ttl:
            return known
    status = _probe(alias)
    with _lock:
        _statuses[alias] = status
    return status


def replica_mark_down(alias: str, error: str) -> None:
    connections[alias].close()
    with _lock:
        _statuses[alias] = ReplicaStatus(alias, "down", None, None, time.monotonic(), error=error)


def choose_read_alias(tenant_id: int | None, user_id: str | None) -> str:
    """A usable replica for (tenant, user)'s read, else the primary. Usable: answers, lags at most the limit, and
    has replayed past the user's last write."""
    aliases = replica_aliases()
    if not aliases or tenant_id is None:
        return PRIMARY
    needed = write_marker(tenant_id, user_id) if user_id else None
    candidates = aliases[:]
    random.shuffle(candidates)  # spread reads over the replicas
    for alias in candidates:
        status = replica_status(alias)
        if status.state == "ok" and needed is not None and (status.replay_lsn or 0) < needed:
            status = replica_status(alias, fresh=True)  # the cached position may be a few ms old
        if status.state != "ok":
            continue
        if needed is None or (status.replay_lsn or 0) >= needed:
            return alias
    return PRIMARY


def routing_report() -> dict[str, Any]:
    """For health: each replica's status (probed now) and this process's reads per database."""
    replicas = {alias: replica_status(alias, fresh=True).as_dict() for alias in replica_aliases()}
    with _lock:
        reads = dict(_reads)
    return {"replicas": replicas, "reads": reads}


def _count(key: str) -> None:
    with _lock:
        _reads[key] += 1


# --- the view wrappers --------------------------------------------------------------------------------------------


def _request_user_id(request, kwargs: dict[str, Any]) -> str | None:
    value = kwargs.get("user_id") or request.query_params.get("user_id")
    data = getattr(request, "data", None)
    if not value and isinstance(data, dict):
        value = data.get("user_id")
        items = data.get("memories")
        if not value and isinstance(items, list) and items and isinstance(items[0], dict):
            value = items[0].get("user_id")  # a batch writes for one user
    return value if isinstance(value, str) and value else None


def _wrap_handlers(cls, methods: tuple[str, ...], make):
    for name in methods:
        handler = getattr(cls, name)
        setattr(cls, name, functools.wraps(handler)(make(handler)))
    return cls


def read_routed(*methods: str):
    """Class decorator: the named handlers (default ``get``) read from a usable replica when there is one."""
    methods = methods or ("get",)

    def make(handler):
        def routed(self, request, *args, **kwargs):
            tenant = getattr(self, "tenant", None)
            alias = choose_read_alias(getattr(tenant, "pk", None), _request_user_id(request, kwargs))
            if alias == PRIMARY:
                response = handler(self, request, *args, **kwargs)
                if replica_aliases():
                    _count(PRIMARY)
                    response[READ_HEADER] = "primary"
                return response
            token = _read_alias.set(alias)
            try:
                response = handler(self, request, *args, **kwargs)
            except DatabaseError as exc:
                # a replica that died (or cancelled the query for a replay conflict): the read once more on the primary
                logger.warning("read on %s failed (%s): retrying on the primary", alias, exc)
                if isinstance(exc, (OperationalError, InterfaceError)):
                    replica_mark_down(alias, type(exc).__name__)
                _count(f"{alias}:retried_on_primary")
                _read_alias.reset(token)
                token = None
                _count(PRIMARY)
                response = handler(self, request, *args, **kwargs)
                response[READ_HEADER] = "primary"
                return response
            finally:
                if token is not None:
                    _read_alias.reset(token)
            _count(alias)
            response[READ_HEADER] = alias
            return response

        return routed

    return lambda cls: _wrap_handlers(cls, methods, make)


def records_writes(*methods: str):
    """Class decorator: after a successful write by the named handlers, the user's reads wait for the replicas."""
    methods = methods or ("post",)

    def make(handler):
        def recording(self, request, *args, **kwargs):
            user_id = _request_user_id(request, kwargs)  # before the handler, which may consume the body's fields
            response = handler(self, request, *args, **kwargs)
            tenant = getattr(self, "tenant", None)
            if response.status_code < 400 and tenant is not None and user_id:
                write_record(tenant.pk, user_id)
            return response

        return recording

    return lambda cls: _wrap_handlers(cls, methods, make)
