"""``GET /api/v1/health``: no authentication; 200 while the database answers, else 503."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import connection
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

import orgmemory
from memories.embedding import embedder_status
from orgmemory.api.base import PUBLIC, ApiView

logger = logging.getLogger(__name__)

WORKER_PING_TIMEOUT_SECONDS = 1.0


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
    """``inline`` without a broker; else ``workers`` when a worker answers a ping within a second, or ``down``."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "inline"
    try:
        replies = orgmemory.celery_app.control.ping(timeout=WORKER_PING_TIMEOUT_SECONDS)
    except Exception as exc:  # an unreachable broker is "down", not an error page
        logger.warning("health: broker ping failed: %s", exc)
        return "down"
    return "workers" if replies else "down"


class HealthOutputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "down"])
    database = serializers.ChoiceField(choices=["ok", "down"])
    pgvector = serializers.CharField(allow_null=True, help_text="The vector extension's version.")
    embedder = serializers.DictField(help_text='{"status": "ok" | "not_loaded" | "degraded", …}')
    queue = serializers.ChoiceField(choices=["inline", "workers", "down"])
    version = serializers.CharField()


class HealthApi(ApiView):
    required_permission = PUBLIC
    authentication_classes: list = []
    throttle_classes: list = []

    @extend_schema(
        operation_id="health",
        tags=["health"],
        summary="Liveness and dependencies",
        description="No authentication. 200 while the database answers (`status` is `degraded` when the embedder "
        "failed to load or no worker answers), 503 when it does not. `embedder.status` is `not_loaded` until the "
        "first embedding in this process.",
        auth=[],
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
                            "embedder": {"status": "ok", "model": "all-MiniLM-L6-v2"},
                            "queue": "inline",
                            "version": "0.1.0",
                        },
                    )
                ],
            ),
            503: OpenApiResponse(HealthOutputSerializer, description="The database does not answer."),
        },
    )
    def get(self, request: Request) -> Response:
        database = database_status()
        # the load error may name files on the server: the public answer keeps only status and model
        embedder = {key: value for key, value in embedder_status().items() if key in ("status", "model")}
        queue = queue_status()
        if database["status"] != "ok":
            overall = "down"
        elif embedder["status"] == "degraded" or queue == "down":
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
        code = status.HTTP_200_OK if database["status"] == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(body, status=code)
