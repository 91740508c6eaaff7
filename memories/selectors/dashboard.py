"""The tenant dashboard's reads: one statement each, the tenant explicit, nothing written.

What each figure means:

- **memories per level and kind** — every row of the tenant, live (not superseded, not expired) and history apart;
- **index backlog** — memories whose embedding (``index_state``) or link extraction (``links_state``) is pending or
  failed; uses the ``memory_unindexed`` partial index (only such rows are in it);
- **writes per day** — memories created per UTC day over the last 30 days, history rows included (a write that
  superseded another is still a write); deleted and erased rows are gone and not counted;
- **knowledge gaps** — the most frequent searches (and recalls) that found nothing relevant, from
  ``curation.SearchGap`` (recorded by the search and recall APIs since roles and dashboards exist; bounded);
- **open contradictions** — see :mod:`memories.selectors.contradictions`;
- **stale entities** — entities of the tenant's graph that no live memory mentions any more (every memory that
  linked them is superseded or expired), or whose newest live mention is older than ``STALE_AFTER_DAYS``.
  An entity no link mentions at all does not exist (erasure and link deletion prune them).

The embedder and queue state is process state, not a query: :func:`runtime_state`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, date, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from memories.models import Tenant
from memories.selectors.contradictions import contradiction_open_count

logger = logging.getLogger(__name__)

WRITES_DAYS = 30
GAPS_SHOWN = 10
STALE_AFTER_DAYS = 180
STALE_SHOWN = 20
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
class KnowledgeGap:
    query: str
    searches: int
    members: int  # distinct members who asked it


@dataclass(frozen=True)
class StaleEntity:
    entity_id: int
    name: str
    kind: str
    live_mentions: int
    last_live_mention: object  # datetime | None (None: no live memory mentions it)


@dataclass(frozen=True)
class StaleEntities:
    total: int
    shown: list[StaleEntity] = field(default_factory=list)


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
    with connection.cursor() as cursor:
        cursor.execute(
            # counted per (scope, kind) first, then folded by level: the join sees a few hundred rows, not every
            # memory (a third faster at 100k memories)
            """
            SELECT s.level, c.kind, sum(c.live)::bigint, sum(c.history)::bigint
            FROM (
                SELECT scope_id, kind,
                       count(*) FILTER (WHERE superseded_by_id IS NULL
                                          AND (expires_at IS NULL OR expires_at > now())) AS live,
                       count(*) FILTER (WHERE superseded_by_id IS NOT NULL OR expires_at <= now()) AS history
                FROM memories_memory WHERE tenant_id = %s
                GROUP BY scope_id, kind
            ) c JOIN memories_scope s ON s.id = c.scope_id
            GROUP BY s.level, c.kind
            """,
            [tenant.pk],
        )
        rows = cursor.fetchall()
    order = {level: index for index, level in enumerate(tenant.levels or [])}
    rows.sort(key=lambda row: (order.get(row[0], len(order)), row[0], row[1]))
    return [LevelKindCount(level=level, kind=kind, live=live, history=history) for level, kind, live, history in rows]


def index_backlog(*, tenant: Tenant) -> IndexBacklog:
    """Pending and failed embeddings and link extractions of the tenant's memories."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT count(*) FILTER (WHERE index_state = 'pending'), count(*) FILTER (WHERE index_state = 'failed'),
                   count(*) FILTER (WHERE links_state = 'pending'), count(*) FILTER (WHERE links_state = 'failed')
            FROM memories_memory
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
            """
            SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*)
            FROM memories_memory
            WHERE tenant_id = %s AND created_at >= %s::date
            GROUP BY day
            """,
            [tenant.pk, first.isoformat()],
        )
        counts = dict(cursor.fetchall())
    return [
        DayCount(day=first + timedelta(days=n), count=counts.get(first + timedelta(days=n), 0)) for n in range(days)
    ]


def knowledge_gaps(*, tenant: Tenant, limit: int = GAPS_SHOWN) -> list[KnowledgeGap]:
    """The most frequent searches that found nothing relevant (most searches first, then most askers)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT query, sum(count), count(*) FROM curation_searchgap
            WHERE tenant_id = %s GROUP BY query ORDER BY sum(count) DESC, count(*) DESC, query LIMIT %s
            """,
            [tenant.pk, limit],
        )
        return [KnowledgeGap(query=query, searches=searches, members=members) for query, searches, members in cursor]


def open_contradictions(*, tenant: Tenant) -> int:
    return contradiction_open_count(tenant=tenant)


def stale_entities(*, tenant: Tenant, after_days: int = STALE_AFTER_DAYS, limit: int = STALE_SHOWN) -> StaleEntities:
    """Entities whose every mentioning memory is history (superseded or expired), or whose newest live mention is
    older than ``after_days``: their total and the ``limit`` most mentioned of them."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            WITH mentions AS (
                SELECT subject_id AS entity_id, memory_id FROM graph_entitylink WHERE tenant_id = %(tenant)s
                UNION ALL
                SELECT object_id, memory_id FROM graph_entitylink WHERE tenant_id = %(tenant)s AND object_id IS NOT NULL
            ), per_entity AS (
                SELECT mentions.entity_id,
                       count(*) FILTER (WHERE m.superseded_by_id IS NULL
                                          AND (m.expires_at IS NULL OR m.expires_at > now())) AS live_mentions,
                       max(m.created_at) FILTER (WHERE m.superseded_by_id IS NULL
                                                   AND (m.expires_at IS NULL OR m.expires_at > now())) AS last_live
                FROM mentions JOIN memories_memory m ON m.id = mentions.memory_id AND m.tenant_id = %(tenant)s
                GROUP BY mentions.entity_id
            ), stale AS (
                SELECT * FROM per_entity
                WHERE live_mentions = 0 OR last_live < now() - make_interval(days => %(days)s)
            )
            SELECT e.id, e.name, e.kind, stale.live_mentions, stale.last_live, count(*) OVER ()
            FROM stale JOIN graph_entity e ON e.id = stale.entity_id AND e.tenant_id = %(tenant)s
            ORDER BY e.mention_count DESC, e.name
            LIMIT %(limit)s
            """,
            {"tenant": tenant.pk, "days": after_days, "limit": limit},
        )
        rows = cursor.fetchall()
    total = rows[0][5] if rows else 0
    return StaleEntities(
        total=total,
        shown=[
            StaleEntity(entity_id=pk, name=name, kind=kind, live_mentions=live, last_live_mention=last)
            for pk, name, kind, live, last, _ in rows
        ],
    )


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
