"""Validation of the identifiers agents send: user ids and scope keys (the pattern lives with the org-chart parser,
which is pure and the bottom of this app)."""

from __future__ import annotations

import re

from memories.orgchart import KEY_PATTERN
from orgmemory.errors import ValidationFailed

_KEY_RE = re.compile(KEY_PATTERN)


def validate_key(value: str, *, field: str) -> str:
    """A user id or scope key: 1–128 letters, digits and . _ @ + - (no spaces, no NUL)."""
    if not isinstance(value, str) or not _KEY_RE.match(value):
        raise ValidationFailed(
            f"{field} must be 1–128 characters of letters, digits and . _ @ + -", details={field: [repr(value)[:140]]}
        )
    return value
