"""Log filters. Request logs name the method, the path and the status, never what identifies a person or what
they asked: query strings (``user_id``, ``q``, cursors) are dropped, and the id in ``/users/<id>`` and
``/sessions/<id>`` is masked. Bodies are never logged anywhere.

Every record also carries the id of the request it was logged for (``request_id``, the ``X-Request-ID`` the
response returns; ``-`` outside a request) and, while a trace is recorded, its ``trace_id``."""

from __future__ import annotations

import logging
import re
from contextvars import ContextVar

from opentelemetry import trace

_QUERY_STRING = re.compile(r"\?[^\s\"']*")
_ID_IN_PATH = re.compile(r"(/api/v\d+/(?:users|sessions)/)[^/\s\"'?]+")
MASK = "…"


def redact_request_line(text: str) -> str:
    """``GET /api/v1/users/albert?q=x HTTP/1.1`` → ``GET /api/v1/users/… HTTP/1.1``."""
    return _ID_IN_PATH.sub(rf"\g<1>{MASK}", _QUERY_STRING.sub("", text))


class RedactRequestDetails(logging.Filter):
    """For the loggers that name requests (``django.server``: runserver's access log; ``django.request``:
    4xx/5xx warnings): rewrite the message without query strings or ids in the path."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the formatter's business, not ours
            return True
        redacted = redact_request_line(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


NO_REQUEST = "-"
# Set by orgmemory.observability.middleware for the request being answered, cleared when its response is closed
# (after Django's own request logging and gunicorn's access log line).
current_request_id: ContextVar[str | None] = ContextVar("orgmemory_request_id", default=None)


class RequestIdFilter(logging.Filter):
    """On the handlers: ``record.request_id`` (and ``record.trace_id`` when a span is being recorded), so that
    every formatter, plain or JSON, can name them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get() or NO_REQUEST
        if not hasattr(record, "trace_id"):
            context = trace.get_current_span().get_span_context()
            record.trace_id = format(context.trace_id, "032x") if context.is_valid else None
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object per record: timestamp, level, logger, message, request_id, trace_id (null outside a
    trace), an exception's text, and the record's extra fields, except the request object Django attaches to its
    request warnings (its repr holds the query string)."""
    from pythonjsonlogger.core import RESERVED_ATTRS
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(
        ["levelname", "name", "message", "request_id", "trace_id"],
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp=True,
        reserved_attrs=[*RESERVED_ATTRS, "request", "server_time"],
    )
