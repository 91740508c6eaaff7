"""One error hierarchy for the whole project. Each domain error carries a code and an HTTP status; the API's
exception handler renders ``{"error": {"code", "message", "details"}}`` from it."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details if details is not None else {}


class ValidationFailed(DomainError):
    code = "validation_error"
    status = 400


class ContentTooLarge(DomainError):
    code = "content_too_large"
    status = 413


class PermissionDenied(DomainError):
    code = "permission_denied"
    status = 403


class NotFound(DomainError):
    code = "not_found"
    status = 404


class Conflict(DomainError):
    code = "conflict"
    status = 409
