"""The Prometheus metric families the processes record, and their exposition.

Under gunicorn every worker writes its samples to files in ``PROMETHEUS_MULTIPROC_DIR`` (``gunicorn_conf`` sets
it up); whichever worker answers a scrape aggregates every worker's files. Without that variable (runserver, the
test suite, one process) the samples live in this process's default registry.

Labels stay bounded: routes are URL patterns (``api/v1/memories/<int:memory_id>``), methods a fixed list, stages
the pipeline's names; nothing carries a tenant, a user, a query or an id.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.registry import Collector

# no *_created series: they double the exposition and Prometheus does not need them for rates
disable_created_metrics()

# Request latencies: most API calls take milliseconds; the tail buckets catch a cold embedder or a big import.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# Search stages: sub-millisecond pure passes up to the statements of a large tenant.
STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED_ROUTE = "<unmatched>"  # a 404 before any URL pattern matched: one series, whatever the path
EMBEDDER_STATES = ("ok", "not_loaded", "degraded")

HTTP_REQUESTS = Counter(
    "orgmemory_http_requests",
    "HTTP requests answered, by route pattern, method and status code.",
    ["route", "method", "status"],
)
HTTP_REQUEST_SECONDS = Histogram(
    "orgmemory_http_request_duration_seconds",
    "Time to answer an HTTP request (middleware to middleware), by route pattern and method.",
    ["route", "method"],
    buckets=REQUEST_BUCKETS,
)
SEARCH_STAGE_SECONDS = Histogram(
    "orgmemory_search_stage_duration_seconds",
    "Time spent in each stage of a search (context, embed, keyword+vector, relational, fuse, load, answer, total).",
    ["stage"],
    buckets=STAGE_BUCKETS,
)
SEARCH_DEGRADED = Counter(
    "orgmemory_search_degraded",
    "Searches answered without one of their arms (the embedder or the relational walk failed).",
    ["arm"],
)
# One series per state; under gunicorn the live workers' values are summed: how many workers are in each state.
EMBEDDER_WORKERS = Gauge(
    "orgmemory_embedder_processes",
    "Serving processes by embedder state: ok (loaded), not_loaded (not used yet), degraded (failed to load).",
    ["state"],
    multiprocess_mode="livesum",
)


def multiprocess_enabled() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def request_observe(*, route: str, method: str, status: int, seconds: float) -> None:
    method = method if method in METHODS else "other"
    HTTP_REQUESTS.labels(route=route, method=method, status=str(status)).inc()
    HTTP_REQUEST_SECONDS.labels(route=route, method=method).observe(seconds)


_stage_series: dict[str, Any] = {}  # the labelled child per stage: a search records about nine samples


def stage_observe(stage: str, seconds: float) -> None:
    series = _stage_series.get(stage)
    if series is None:
        series = _stage_series.setdefault(stage, SEARCH_STAGE_SECONDS.labels(stage=stage))
    series.observe(seconds)


def degraded_observe(arms: Iterable[str]) -> None:
    for arm in arms:
        SEARCH_DEGRADED.labels(arm=arm).inc()


def embedder_state_record(state: str) -> None:
    """This process's embedder state (one of EMBEDDER_STATES) as a 1 in its series and 0 in the others."""
    for name in EMBEDDER_STATES:
        EMBEDDER_WORKERS.labels(state=name).set(1 if name == state else 0)


class _Delegate(Collector):
    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self):
        yield from self.registry.collect()


def exposition(extra: Iterable[Collector] = (), *, before: Callable[[], None] | None = None) -> tuple[bytes, str]:
    """The text exposition of every process's samples plus ``extra`` collectors (computed now, in this process),
    and its content type."""
    if before is not None:
        before()
    registry = CollectorRegistry()
    if multiprocess_enabled():
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_Delegate(REGISTRY))
    for collector in extra:
        registry.register(collector)
    return generate_latest(registry), CONTENT_TYPE_LATEST
