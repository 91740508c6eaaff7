"""The one exception handler of the API: every error is ``{"error": {"code", "message", "details"}}`` with the
right status, the transaction is rolled back, and anything unexpected is a logged 500 carrying the request id."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from orgmemory.api.middleware import request_id_for
from orgmemory.errors import DomainError

logger = logging.getLogger("orgmemory.api")

# DRF's exceptions by class: (status, code). Checked in order, subclasses first.
_DRF_CODES: list[tuple[type[Exception], str]] = [
    (exceptions.ParseError, "malformed_json"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
]


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The one error envelope of every JSON error OrgMemory sends (API, graph page, MCP over HTTP). Text that has
    no UTF-8 form (a lone surrogate quoted from the input) is escaped: the error must always render."""
    body = {"code": code, "message": message, "details": details if details is not None else {}}
    return {"error": _renderable(body)}


def _renderable(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if depth > 8:  # error details are shallow; anything deeper is shown as text
        return _renderable(repr(value))
    if isinstance(value, dict):
        return {_renderable(str(key)): _renderable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_renderable(item, depth + 1) for item in value]
    return value


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    set_rollback()
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
    if isinstance(exc, exceptions.ValidationError):
        return _validation_response(exc)
    if isinstance(exc, Http404):
        return Response(error_body("not_found", "Not found."), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoPermissionDenied):
        return Response(error_body("permission_denied", str(exc) or "Forbidden."), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.APIException):
        return _api_exception_response(exc)
    if isinstance(exc, OperationalError | InterfaceError):
        return _database_unavailable(exc, context)
    return _internal_error(exc, context)


# The database went away (stopped, restarted, connection killed) or aborted the statement (deadlock, cancel):
# nothing was written, and the same request will work once it is back, so say so with a retryable status.
DATABASE_RETRY_AFTER_SECONDS = 5


def _database_unavailable(exc: Exception, context: dict[str, Any]) -> Response:
    request = context.get("request")
    request_id = getattr(request, "request_id", None) if request is not None else None
    logger.warning(
        "database unavailable in %s (request_id=%s): %s", type(context.get("view")).__name__, request_id, exc
    )
    response = Response(
        error_body(
            "database_unavailable",
            "The database is unavailable; nothing was written. Retry the request.",
            {"request_id": request_id, "retry_after_seconds": DATABASE_RETRY_AFTER_SECONDS},
        ),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
    )
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
    return response


def _api_exception_response(exc: exceptions.APIException) -> Response:
    code = next((code for cls, code in _DRF_CODES if isinstance(exc, cls)), None)
    if code is None:
        code = exc.default_code if isinstance(exc.default_code, str) else "error"
    detail = exc.detail
    # AuthenticationFailed raised with our own code (invalid_api_key, …) keeps it
    if isinstance(exc, exceptions.AuthenticationFailed) and getattr(detail, "code", None) not in (None, code):
        code = detail.code
    response = Response(error_body(code, str(detail)), status=exc.status_code)
    if getattr(exc, "auth_header", None):
        response["WWW-Authenticate"] = exc.auth_header
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        response["Retry-After"] = str(max(1, int(exc.wait + 0.999)))
        response.data["error"]["details"] = {"retry_after_seconds": max(1, int(exc.wait + 0.999))}
    return response


def _validation_response(exc: exceptions.ValidationError) -> Response:
    details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    code = "nul_byte" if "null_characters_not_allowed" in _flat_codes(exc.get_codes()) else "validation_error"
    return Response(error_body(code, _summary(details), details), status=status.HTTP_400_BAD_REQUEST)


def _flat_codes(codes: Any) -> set[str]:
    if isinstance(codes, dict):
        return set().union(*(_flat_codes(value) for value in codes.values())) if codes else set()
    if isinstance(codes, list):
        return set().union(*(_flat_codes(value) for value in codes)) if codes else set()
    return {str(codes)}


def _summary(details: Any, path: str = "") -> str:
    """The first error as one readable sentence: ``memories[3].content: This field is required.``"""
    if isinstance(details, dict):
        for key, value in details.items():
            key = str(key)
            child = f"{path}[{key}]" if key.isdigit() else (f"{path}.{key}" if path else key)
            return _summary(value, child)
    elif isinstance(details, list):
        for index, item in enumerate(details):
            if isinstance(item, str):
                return f"{path}: {item}" if path and path != "non_field_errors" else str(item)
            if item:
                return _summary(item, f"{path}[{index}]")
    return "Invalid input."


def _internal_error(exc: Exception, context: dict[str, Any]) -> Response:
    request = context.get("request")
    request_id = getattr(request, "request_id", None) if request is not None else None
    if request_id is None and request is not None:
        request_id = request_id_for(request._request)
    logger.error(
        "unhandled %s in %s (request_id=%s)",
        type(exc).__name__,
        type(context.get("view")).__name__,
        request_id,
        exc_info=(type(exc), exc, exc.__traceback__),
    )
    return Response(
        error_body("internal_error", "Internal server error.", {"request_id": request_id}),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 handler (``handler400``): requests refused before any view — a missing or disallowed Host, a
    malformed body Django cannot read. Under ``/api/`` the error shape; elsewhere Django's own page."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("bad_request", "The request could not be read (bad headers or body)."), status=400
        )
    return defaults.bad_request(request, exception)
