"""``ObservabilityMiddleware`` (right after ``RequestIdMiddleware``): counts and times every request by its route
pattern, method and status, and makes the request id visible to log records for as long as the request lasts."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

from orgmemory.logfilters import current_request_id
from orgmemory.observability import metrics


def _forget_request_id(**kwargs) -> None:
    current_request_id.set(None)


# The response's close (after Django's 4xx/5xx warnings and gunicorn's access line) ends the request's logging.
request_finished.connect(_forget_request_id, dispatch_uid="orgmemory.observability.request_id")


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/v1/memories/<int:memory_id>``), never the raw path: one series per
    route, whatever ids or junk the paths hold."""
    match = getattr(request, "resolver_match", None)
    return (match.route or match.view_name or metrics.UNMATCHED_ROUTE) if match is not None else metrics.UNMATCHED_ROUTE


class ObservabilityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        current_request_id.set(getattr(request, "request_id", None))
        started = time.perf_counter()
        response = self.get_response(request)  # the inner handlers turn exceptions into responses
        metrics.request_observe(
            route=route_of(request),
            method=request.method or "",
            status=response.status_code,
            seconds=time.perf_counter() - started,
        )
        return response
