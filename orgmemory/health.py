"""``GET /api/v1/health``: without a key a liveness answer that touches nothing (cheap for anyone to call); with
any valid key the detailed report (database, pgvector, embedder, queue), 200 while the database answers, else 503.
The broker probe is cached, so reports cannot be used to tie up workers on slow pings."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

import orgmemory
from memories.api.auth import ApiKeyAuthentication
from memories.api.base import PUBLIC, ApiView
from memories.api.throttling import ApiKeyRateThrottle
from memories.embedding import embedder_status
from orgmemory.api.serializers import ErrorSerializer
from orgmemory.db_routing import replica_aliases, routing_report

logger = logging.getLogger(__name__)

WORKER_PING_TIMEOUT_SECONDS = 1.0
QUEUE_STATUS_CACHE_SECONDS = 30
_QUEUE_CACHE_KEY = "orgmemory:health:queue"


def database_status() -> dict[str, Any]:
    """``{"status": "ok", "pgvector": "0.8.0"}`` or ``{"status": "down", "error": …}``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except Exception as exc:  # health reports the failure; it never raises it
        logger.warning("health: database check failed: %s", exc)
        return {"status": "down", "error": type(exc).__name__}
    return {"status": "ok", "pgvector": row[0] if row else None}


def queue_status() -> str:
    """``inline`` without a broker; else ``workers`` when a worker answered a ping within a second, or ``down``;
    the probe's answer is reused for QUEUE_STATUS_CACHE_SECONDS."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "inline"
    cached = cache.get(_QUEUE_CACHE_KEY)
    if cached is None:
        cached = _ping_workers()
        cache.set(_QUEUE_CACHE_KEY, cached, timeout=QUEUE_STATUS_CACHE_SECONDS)
    return cached


def _ping_workers() -> str:
    try:
        replies = orgmemory.celery_app.control.ping(timeout=WORKER_PING_TIMEOUT_SECONDS)
    except Exception as exc:  # an unreachable broker is "down", not an error page
        logger.warning("health: broker ping failed: %s", exc)
        return "down"
    return "workers" if replies else "down"


class HealthOutputSerializer(serializers.Serializer):
    """Without a key only ``status`` (always ``ok``) and ``version``; with a key the whole report."""

    status = serializers.ChoiceField(choices=["ok", "degraded", "down"])
    database = serializers.ChoiceField(choices=["ok", "down"], required=False)
    pgvector = serializers.CharField(allow_null=True, required=False, help_text="The vector extension's version.")
    embedder = serializers.DictField(
        required=False,
        help_text='{"status": "ok" | "not_loaded" | "degraded", "name": the configured embedder (ORGMEMORY_EMBEDDER), '
        '"model": the model it runs, once loaded}',
    )
    queue = serializers.ChoiceField(choices=["inline", "workers", "down"], required=False)
    replicas = serializers.DictField(
        required=False,
        help_text='Only with DATABASE_REPLICA_URLS: each replica\'s {"status": "ok" | "lagging" | "down", "lag_ms"}.',
    )
    reads = serializers.DictField(
        required=False, help_text="Only with replicas: this process's routed reads per database (and retries)."
    )
    version = serializers.CharField()


class HealthApi(ApiView):
    required_permission = PUBLIC  # anyone gets liveness; a key (with any permission) gets the report
    authentication_classes = [ApiKeyAuthentication]
    throttle_classes = [ApiKeyRateThrottle]  # counts keyed requests only; liveness costs nothing to answer

    @extend_schema(
        operation_id="health",
        tags=["health"],
        summary="Liveness and dependencies",
        description='Without a key: liveness only, `{"status": "ok", "version"}`, touching no dependency. '
        "With any valid key: the report, 200 while the database answers (`status` is `degraded` when the embedder "
        "failed to load, no worker answered the last ping, probed at most every 30 s, or no configured replica is "
        "usable), 503 when it does not. "
        "`embedder.status` is `not_loaded` until the first embedding in this process; `embedder.name` is the "
        "configured embedder (`ORGMEMORY_EMBEDDER`) and `embedder.model` the model it runs, once loaded. A bad "
        "key is a 401, and too "
        "many bad keys from one address a 429.",
        auth=[{}, {"ApiKey": []}],
        responses={
            200: OpenApiResponse(
                HealthOutputSerializer,
                examples=[
                    OpenApiExample(
                        "healthy",
                        value={
                            "status": "ok",
                            "database": "ok",
                            "pgvector": "0.8.0",
                            "embedder": {"status": "ok", "name": "onnx-int8", "model": "all-MiniLM-L6-v2/onnx-int8"},
                            "queue": "inline",
                            "version": "0.1.0",
                        },
                    ),
                    OpenApiExample("liveness (no key)", value={"status": "ok", "version": "0.1.0"}),
                ],
            ),
            503: OpenApiResponse(HealthOutputSerializer, description="The database does not answer (keyed report)."),
            401: OpenApiResponse(ErrorSerializer, description="A bad API key."),
            429: OpenApiResponse(ErrorSerializer, description="Too many requests (or bad keys from this address)."),
        },
    )
    def get(self, request: Request) -> Response:
        if self.api_key is None:
            return Response({"status": "ok", "version": orgmemory.__version__})
        database = database_status()
        # the load error may name files on the server: the public answer keeps only status, name and model
        embedder = {key: value for key, value in embedder_status().items() if key in ("status", "name", "model")}
        queue = queue_status()
        routing = routing_report() if replica_aliases() else None
        replicas_usable = routing is None or any(r["status"] == "ok" for r in routing["replicas"].values())
        if database["status"] != "ok":
            overall = "down"
        elif embedder["status"] == "degraded" or queue == "down" or not replicas_usable:
            overall = "degraded"
        else:
            overall = "ok"
        body = {
            "status": overall,
            "database": database["status"],
            "pgvector": database.get("pgvector"),
            "embedder": embedder,
            "queue": queue,
            "version": orgmemory.__version__,
        }
        if routing is not None:
            body.update(routing)  # reads fall back to the primary without a usable replica: degraded, not down
        code = status.HTTP_200_OK if database["status"] == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(body, status=code)
