"""The memory store's figures on the tenant dashboard: one statement each, the tenant explicit, nothing written. The
dashboard's other figures are read by the apps that own their tables (knowledge gaps: ``memories.curation.selectors``;
stale entities: ``graph.selectors``) and composed by the page (``orgmemory.admin_site``).

What each figure means:

- **memories per level and kind** — every row of the tenant, live (not superseded, not expired) and history apart;
- **index backlog** — memories whose embedding (``index_state``) or link extraction (``links_state``) is pending or
  failed; uses the ``memory_unindexed`` partial index (only such rows are in it);
- **writes per day** — memories created per UTC day over the last 30 days, history rows included (a write that
  superseded another is still a write); deleted and erased rows are gone and not counted;
- **open contradictions** — see :mod:`memories.selectors.contradictions`;

The embedder and queue state is process state, not a query: :func:`runtime_state`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from memories import visibility
from memories.models import Memory, Scope, Tenant
from memories.selectors.contradictions import contradiction_open_count

logger = logging.getLogger(__name__)

WRITES_DAYS = 30
QUEUE_PROBE_TIMEOUT_SECONDS = 1.0
QUEUE_PROBE_CACHE_SECONDS = 15
_QUEUE_CACHE_KEY = "orgmemory:dashboard:queue"
# kombu's Redis transport keeps a queue as one list per priority step (0 is the bare name)
_REDIS_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


@dataclass(frozen=True)
class LevelKindCount:
    level: str
    kind: str
    live: int
    history: int  # superseded or expired


@dataclass(frozen=True)
class LevelTotal:
    level: str
    live: int
    history: int


@dataclass(frozen=True)
class IndexBacklog:
    embedding_pending: int
    embedding_failed: int
    links_pending: int
    links_failed: int

    @property
    def total(self) -> int:
        return self.embedding_pending + self.embedding_failed + self.links_pending + self.links_failed


@dataclass(frozen=True)
class DayCount:
    day: date
    count: int


@dataclass(frozen=True)
class RuntimeState:
    embedder_configured: str
    embedder_status: str  # ok | not_loaded | degraded (of this process)
    embedder_model: str
    embedder_error: str
    broker: str  # inline | configured
    queue_length: int | None  # messages waiting, when the broker answered
    queue_error: str


def memories_per_level_and_kind(*, tenant: Tenant) -> list[LevelKindCount]:
    """Counts per (level, kind), levels in the tenant's order (root first), kinds alphabetically."""
    in_force = visibility.in_force_sql("m")
    with connection.cursor() as cursor:
        cursor.execute(
            # counted per (scope, kind) first, then folded by level: the join sees a few hundred rows, not every
            # memory
            f"""
            SELECT s.level, c.kind, sum(c.live)::bigint, sum(c.history)::bigint
            FROM (
                SELECT scope_id, kind,
                       count(*) FILTER (WHERE {in_force}) AS live,
                       count(*) FILTER (WHERE NOT ({in_force})) AS history
                FROM {Memory._meta.db_table} m WHERE tenant_id = %s
                GROUP BY scope_id, kind
            ) c JOIN {Scope._meta.db_table} s ON s.id = c.scope_id
            GROUP BY s.level, c.kind
            """,
            [tenant.pk],
        )
        rows = cursor.fetchall()
    order = {level: index for index, level in enumerate(tenant.levels or [])}
    rows.sort(key=lambda row: (order.get(row[0], len(order)), row[0], row[1]))
    return [LevelKindCount(level=level, kind=kind, live=live, history=history) for level, kind, live, history in rows]


def level_totals(rows: list[LevelKindCount]) -> list[LevelTotal]:
    """The (level, kind) counts folded per level, in the order of ``rows`` (the tenant's level order)."""
    totals: dict[str, list[int]] = {}
    for row in rows:
        live_history = totals.setdefault(row.level, [0, 0])
        live_history[0] += row.live
        live_history[1] += row.history
    return [LevelTotal(level=level, live=live, history=history) for level, (live, history) in totals.items()]


def index_backlog(*, tenant: Tenant) -> IndexBacklog:
    """Pending and failed embeddings and link extractions of the tenant's memories."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(*) FILTER (WHERE index_state = 'pending'), count(*) FILTER (WHERE index_state = 'failed'),
                   count(*) FILTER (WHERE links_state = 'pending'), count(*) FILTER (WHERE links_state = 'failed')
            FROM {Memory._meta.db_table}
            WHERE tenant_id = %s AND (index_state <> 'ready' OR links_state <> 'ready')
            """,
            [tenant.pk],
        )
        pending, failed, links_pending, links_failed = cursor.fetchone()
    return IndexBacklog(
        embedding_pending=pending, embedding_failed=failed, links_pending=links_pending, links_failed=links_failed
    )


def writes_per_day(*, tenant: Tenant, days: int = WRITES_DAYS) -> list[DayCount]:
    """Memories created per UTC day, the last ``days`` days up to today, every day listed (zeros included)."""
    today = timezone.now().astimezone(UTC).date()
    first = today - timedelta(days=days - 1)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*)
            FROM {Memory._meta.db_table}
            WHERE tenant_id = %s AND created_at >= %s::date
            GROUP BY day
            """,
            [tenant.pk, first.isoformat()],
        )
        counts = dict(cursor.fetchall())
    return [
        DayCount(day=first + timedelta(days=n), count=counts.get(first + timedelta(days=n), 0)) for n in range(days)
    ]


def open_contradictions(*, tenant: Tenant) -> int:
    return contradiction_open_count(tenant=tenant)


# --- process state: the embedder of this process and the task queue ---------------------------------------------


def runtime_state() -> RuntimeState:
    """Which embedder is configured and whether this process has loaded it; whether tasks run inline or through a
    broker, and how many messages wait in the queue when the broker (Redis) answers within a second (cached for
    ``QUEUE_PROBE_CACHE_SECONDS`` so a reloaded page does not probe again)."""
    from memories.embedding import embedder_status

    status = embedder_status()
    inline = bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", True))
    length, error = (None, "") if inline else _queue_length()
    return RuntimeState(
        embedder_configured=str(getattr(settings, "ORGMEMORY_EMBEDDER", "")),
        embedder_status=status.get("status", "not_loaded"),
        embedder_model=status.get("model", ""),
        embedder_error=status.get("error", ""),
        broker="inline" if inline else "configured",
        queue_length=length,
        queue_error=error,
    )


def _queue_length() -> tuple[int | None, str]:
    cached = cache.get(_QUEUE_CACHE_KEY)
    if cached is not None:
        return tuple(cached)
    answer = _probe_queue()
    cache.set(_QUEUE_CACHE_KEY, list(answer), timeout=QUEUE_PROBE_CACHE_SECONDS)
    return answer


def _probe_queue() -> tuple[int | None, str]:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None, "queue length is read from Redis brokers only"
    import redis

    queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
    try:
        client = redis.Redis.from_url(
            url, socket_timeout=QUEUE_PROBE_TIMEOUT_SECONDS, socket_connect_timeout=QUEUE_PROBE_TIMEOUT_SECONDS
        )
        try:
            pipe = client.pipeline(transaction=False)
            for suffix in _REDIS_PRIORITY_SUFFIXES:
                pipe.llen(queue + suffix)
            return sum(pipe.execute()), ""
        finally:
            client.close()
    except Exception as exc:  # an unreachable broker is a state to show, not an error page
        logger.warning("dashboard: broker probe failed: %s", type(exc).__name__)
        return None, f"the broker did not answer ({type(exc).__name__})"
