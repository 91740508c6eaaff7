"""Every response carries ``X-Request-ID``: a sane incoming one is echoed, anything else is replaced by a new id.
The id is on ``request.request_id`` for logs and for the 500 body."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
_META_KEY = "HTTP_X_REQUEST_ID"
_SANE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")  # \Z: "$" would let a trailing newline through


def request_id_for(request: HttpRequest) -> str:
    incoming = request.META.get(_META_KEY, "")
    return incoming if _SANE.match(incoming) else uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.request_id = request_id_for(request)
        response = self.get_response(request)
        response[HEADER] = request.request_id
        return response
