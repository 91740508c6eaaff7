"""The time fields of a write: ``valid_from`` / ``valid_until`` (when the memory is true), ``reference_time`` (the
"now" its relative dates refer to) and the event dates its content mentions, tagged against that reference.

Accepted values are ISO 8601 dates ("2025-05-07", the day's start in UTC) or datetimes (a naive one is UTC), as
strings or ``datetime``/``date`` objects; years 1900–2199 (what the tagger reads). Anything else is a 400
``invalid`` naming the field."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from django.db.backends.postgresql.psycopg_any import DateRange
from django.utils.dateparse import parse_date, parse_datetime

from memories import temporal
from orgmemory.errors import ValidationFailed

TIME_FIELDS = ("valid_from", "valid_until", "reference_time")
_MAX_CHARS = 64
_MIN_YEAR, _MAX_YEAR = 1900, 2199


def parse_moment(value: Any, *, field_name: str) -> datetime | None:
    """``value`` as an aware datetime (None for None or ""), or ValidationFailed naming ``field_name``."""
    if value is None or value == "":
        return None
    moment: datetime | None = None
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime.combine(value, time.min)
    elif isinstance(value, str) and len(value) <= _MAX_CHARS:
        text = value.strip()
        try:
            moment = parse_datetime(text)
            if moment is None:
                day = parse_date(text)
                moment = datetime.combine(day, time.min) if day is not None else None
        except (ValueError, OverflowError):
            moment = None
    if moment is None:
        raise ValidationFailed(
            f"{field_name} must be an ISO 8601 date or datetime",
            code="invalid",
            details={field_name: ["an ISO 8601 date or datetime, e.g. 2025-05-07 or 2025-05-07T09:30:00Z"]},
        )
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if not _MIN_YEAR <= moment.year <= _MAX_YEAR:
        raise ValidationFailed(
            f"{field_name} is out of range (years {_MIN_YEAR}–{_MAX_YEAR})",
            code="invalid",
            details={field_name: [f"a year between {_MIN_YEAR} and {_MAX_YEAR}"]},
        )
    return moment


def clean_time(raw: dict[str, Any]) -> dict[str, datetime | None]:
    """The write's time fields, parsed; ``valid_until`` must be after ``valid_from``."""
    cleaned = {name: parse_moment(raw.get(name), field_name=name) for name in TIME_FIELDS}
    start, end = cleaned["valid_from"], cleaned["valid_until"]
    if start is not None and end is not None and end <= start:
        raise ValidationFailed(
            "valid_until must be after valid_from",
            code="invalid",
            details={"valid_until": ["must be after valid_from"]},
        )
    return cleaned


def content_event_dates(content: str, reference: datetime) -> tuple[list, DateRange | None]:
    """The event dates of ``content`` against ``reference`` (the tagger's stored shape) and the span from the first
    to the last day they name (None without any)."""
    values = temporal.event_dates(content, reference=reference)
    days: list[date] = []
    for value in values:
        if isinstance(value, dict):
            days += [date.fromisoformat(value["start"]), date.fromisoformat(value["end"])]
        else:
            days.append(date.fromisoformat(value))
    return values, (DateRange(min(days), max(days), "[]") if days else None)
