"""Log filters. Request logs name the method, the path and the status, never what identifies a person or what
they asked: query strings (``user_id``, ``q``, cursors) are dropped, and the id in ``/users/<id>`` and
``/sessions/<id>`` is masked. Bodies are never logged anywhere."""

from __future__ import annotations

import logging
import re

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
