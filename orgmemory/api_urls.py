"""``/api/v1/``: the agent-facing API (docs/ARCHITECTURE.md § API v1). Anything else under the prefix is a JSON 404."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

from graph.api import EntityDetailApi, EntityFactsApi, EntityListApi, EntityNeighboursApi
from memories.api import (
    MemoryCollectionApi,
    MemoryDeleteByQueryApi,
    MemoryDetailApi,
    SessionDeleteApi,
    SessionIngestApi,
    UserEraseApi,
)
from orgmemory.api.exceptions import error_body
from orgmemory.health import HealthApi
from retrieval.api import RecallApi, SearchApi

app_name = "api"


@csrf_exempt  # API clients carry no CSRF token; without this a POST here would get Django's HTML 403 page
def unknown_endpoint(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Every method on a path that names no endpoint: 404 ``not_found`` in the error shape."""
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}."), status=404)


urlpatterns = [
    path("memories", MemoryCollectionApi.as_view(), name="memories"),
    path("memories/delete-by-query", MemoryDeleteByQueryApi.as_view(), name="memories-delete-by-query"),
    path("memories/<int:memory_id>", MemoryDetailApi.as_view(), name="memory"),
    path("sessions", SessionIngestApi.as_view(), name="sessions"),
    path("sessions/<str:session_id>", SessionDeleteApi.as_view(), name="session"),
    path("search", SearchApi.as_view(), name="search"),
    path("recall", RecallApi.as_view(), name="recall"),
    path("users/<str:user_id>", UserEraseApi.as_view(), name="user"),
    path("entities", EntityListApi.as_view(), name="entities"),
    path("entities/<int:entity_id>", EntityDetailApi.as_view(), name="entity"),
    path("entities/<int:entity_id>/neighbours", EntityNeighboursApi.as_view(), name="entity-neighbours"),
    path("entities/<int:entity_id>/facts", EntityFactsApi.as_view(), name="entity-facts"),
    path("health", HealthApi.as_view(), name="health"),
    re_path(r"^(?P<rest>.*)$", unknown_endpoint),
]
