"""What text PostgreSQL can store — the one definition of the NUL / lone-surrogate checks that the JSON parser,
the write services and the search boxes apply. Pure: no Django."""

from __future__ import annotations

NUL_BYTE = "nul_byte"
INVALID_ENCODING = "invalid_encoding"


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as PostgreSQL text: ``"nul_byte"`` (it holds a NUL character, which text
    columns refuse) or ``"invalid_encoding"`` (a lone surrogate, which has no UTF-8 form); None when it can."""
    if "\x00" in value:
        return NUL_BYTE
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return INVALID_ENCODING
    return None


def text_storable(value: str) -> str:
    """``value`` without NULs and lone surrogates: for search boxes, which tolerate odd input instead of failing."""
    return value.replace("\x00", "").encode("utf-8", "ignore").decode("utf-8")
