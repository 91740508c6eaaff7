"""``GET /metrics``: the Prometheus exposition, for an API key with the ``admin`` permission (Bearer, as the API).
It lives with the memory store because what a scrape reads is the store's: its index backlog, its tenants' memories
and this process's embedder (``orgmemory.urls`` mounts it).

Besides what the processes record (``orgmemory.observability.metrics``), a scrape computes in the answering process:

- ``orgmemory_index_backlog{stage, state}``: memories whose embedding or link extraction is pending or failed
  (read from the partial index on unindexed memories, counted up to BACKLOG_COUNT_CAP);
- ``orgmemory_tenant_memories{tenant}``: memories per tenant, the TOP_TENANTS largest by slug and the rest summed
  as ``other`` (bounded cardinality, however many tenants), recomputed at most every TENANT_COUNTS_SECONDS;
- ``orgmemory_queue_depth{queue}`` / ``orgmemory_queue_up``: messages waiting on the Celery broker's queue (no
  broker: ``orgmemory_queue_inline 1``), probed with a bounded timeout;
- this process's embedder state, refreshed into ``orgmemory_embedder_processes``, and its name:
  ``orgmemory_embedder_info{name, model}`` (the configured embedder; ``model`` once loaded).

Tenant slugs are other tenants' business: with ``ORGMEMORY_METRICS_TENANTS`` (comma-separated slugs: the
operators' tenants) only admin keys of those tenants may scrape; unset (one organisation), any tenant-wide admin
key may. A key restricted to a subtree never may.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection
from django.http import HttpResponse
from django.urls import path
from drf_spectacular.utils import extend_schema
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from rest_framework.request import Request

import orgmemory
from memories.api.base import ApiView
from memories.embedding import embedder_status
from memories.models import Memory, Tenant
from orgmemory.env import env_list
from orgmemory.errors import PermissionDenied
from orgmemory.observability.metrics import embedder_state_record, exposition

logger = logging.getLogger(__name__)

BACKLOG_COUNT_CAP = 100_000
TOP_TENANTS = 10
TENANT_COUNTS_SECONDS = 30.0
QUEUE_PROBE_TIMEOUT_SECONDS = 1.0

_tenant_counts: dict[str, object] = {"at": 0.0, "rows": []}
_tenant_counts_lock = threading.Lock()


def scrape_cache_clear() -> None:
    with _tenant_counts_lock:
        _tenant_counts.update(at=0.0, rows=[])


def index_backlog() -> dict[tuple[str, str], int]:
    """``{(stage, state): count}`` for the memories not yet (or never) indexed; each count stops at the cap."""
    table = connection.ops.quote_name(Memory._meta.db_table)
    # the WHERE clause is the partial index memory_unindexed's condition, so only that index is read
    sql = f"""
        SELECT index_state, links_state, count(*) FROM (
            SELECT index_state, links_state FROM {table}
            WHERE index_state <> 'ready' OR links_state <> 'ready' LIMIT %s
        ) backlog GROUP BY 1, 2
    """
    counts = {(stage, state): 0 for stage in ("embedding", "links") for state in ("pending", "failed")}
    with connection.cursor() as cursor:
        cursor.execute(sql, [BACKLOG_COUNT_CAP])
        for index_state, links_state, count in cursor.fetchall():
            for stage, state in (("embedding", index_state), ("links", links_state)):
                if (stage, state) in counts:
                    counts[(stage, state)] += count
    return counts


def tenant_memory_counts(*, top: int | None = None) -> list[tuple[str, int]]:
    """``[(slug, memories)]`` for the ``top`` (default TOP_TENANTS) largest tenants, then ``("other", the rest)``
    when there is a rest."""
    top = TOP_TENANTS if top is None else top
    with _tenant_counts_lock:
        if time.monotonic() - float(_tenant_counts["at"]) < TENANT_COUNTS_SECONDS and _tenant_counts["rows"]:
            rows = list(_tenant_counts["rows"])
        else:
            memory = connection.ops.quote_name(Memory._meta.db_table)
            tenant = connection.ops.quote_name(Tenant._meta.db_table)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"""SELECT t.slug, coalesce(c.n, 0) FROM {tenant} t
                        LEFT JOIN (SELECT tenant_id, count(*) AS n FROM {memory} GROUP BY tenant_id) c
                        ON c.tenant_id = t.id ORDER BY 2 DESC, 1"""
                )
                rows = cursor.fetchall()
            _tenant_counts.update(at=time.monotonic(), rows=rows)
    named = [(slug, count) for slug, count in rows[:top]]
    if len(rows) > top:
        named.append(("other", sum(count for _, count in rows[top:])))
    return named


def queue_depth() -> dict[str, int] | None:
    """Messages waiting per queue on the broker, None when it does not answer in time; {} without a broker."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {}
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    try:
        with orgmemory.celery_app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=QUEUE_PROBE_TIMEOUT_SECONDS)
            declared = conn.default_channel.queue_declare(queue=queue, passive=True)
            return {queue: int(declared.message_count)}
    except Exception as exc:  # a broker that does not answer is a 0 in orgmemory_queue_up, not a failed scrape
        logger.warning("metrics: broker probe failed: %s: %s", type(exc).__name__, exc)
        return None


class ScrapeCollector(Collector):
    """The figures read at scrape time; a source that fails is left out of the scrape (and logged)."""

    def collect(self):
        embedder = embedder_status()
        family = GaugeMetricFamily(
            "orgmemory_embedder_info",
            "1, labelled with the configured embedder (ORGMEMORY_EMBEDDER) and the model it runs (once loaded).",
            labels=["name", "model"],
        )
        family.add_metric([embedder["name"], embedder.get("model", "")], 1)
        yield family
        try:
            backlog = index_backlog()
        except Exception:
            logger.exception("metrics: index backlog unavailable")
        else:
            family = GaugeMetricFamily(
                "orgmemory_index_backlog",
                f"Memories whose embedding or link extraction is pending or failed (each count stops at "
                f"{BACKLOG_COUNT_CAP}).",
                labels=["stage", "state"],
            )
            for (stage, state), count in sorted(backlog.items()):
                family.add_metric([stage, state], count)
            yield family
        try:
            tenants = tenant_memory_counts()
        except Exception:
            logger.exception("metrics: tenant counts unavailable")
        else:
            family = GaugeMetricFamily(
                "orgmemory_tenant_memories",
                f"Memories stored per tenant: the {TOP_TENANTS} largest by slug, the others summed as 'other'.",
                labels=["tenant"],
            )
            for slug, count in tenants:
                family.add_metric([slug], count)
            yield family
        if settings.CELERY_TASK_ALWAYS_EAGER:
            yield GaugeMetricFamily("orgmemory_queue_inline", "1: no broker, tasks run inline after commit.", value=1)
            return
        depth = queue_depth()
        yield GaugeMetricFamily(
            "orgmemory_queue_up", "1 when the broker answered the probe.", value=int(depth is not None)
        )
        if depth:
            family = GaugeMetricFamily("orgmemory_queue_depth", "Messages waiting on the broker.", labels=["queue"])
            for queue, count in depth.items():
                family.add_metric([queue], count)
            yield family


def _embedder_refresh() -> None:
    embedder_state_record(embedder_status()["status"])


class MetricsApi(ApiView):
    required_permission = "admin"
    http_method_names = ["get", "head"]

    @extend_schema(exclude=True)  # Prometheus's text format for operators, not an endpoint of the agents' API
    def get(self, request: Request) -> HttpResponse:
        if self.api_key.scope_id is not None:
            raise PermissionDenied("A key restricted to a subtree cannot read the metrics.", code="scope_restricted")
        operators = env_list("ORGMEMORY_METRICS_TENANTS", [])
        if operators and self.tenant.slug not in operators:
            raise PermissionDenied(
                "Only the operators' tenants (ORGMEMORY_METRICS_TENANTS) may read the metrics.",
                code="permission_missing",
            )
        body, content_type = exposition([ScrapeCollector()], before=_embedder_refresh)
        return HttpResponse(body, content_type=content_type)


urlpatterns = [path("", MetricsApi.as_view(), name="metrics")]  # mounted at /metrics by orgmemory.urls
