"""JSON only, and strict: NUL bytes and lone surrogates anywhere in the document (keys included) are refused
before any view or service sees them; a document nested absurdly deep is malformed, not a crash."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from orgmemory.errors import ValidationFailed

MAX_DEPTH = 32


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.")
        check_json_strings(data)
        return data


def check_json_strings(data: Any) -> None:
    """Raise ValidationFailed (``nul_byte`` / ``invalid_encoding`` / ``too_deep``) for a bad string anywhere."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValidationFailed(
                f"the JSON document is nested deeper than {MAX_DEPTH} levels", code="too_deep", details={path: []}
            )
        if isinstance(value, str):
            _check_string(value, path or "body")
        elif isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                _check_string(key, child)
                stack.append((item, child, depth + 1))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                stack.append((item, f"{path}[{index}]", depth + 1))


def _check_string(value: str, path: str) -> None:
    if "\x00" in value:
        raise ValidationFailed(
            f"{path} contains a NUL byte", code="nul_byte", details={path: ["NUL bytes are not allowed"]}
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationFailed(
            f"{path} is not valid Unicode (lone surrogate)",
            code="invalid_encoding",
            details={path: ["not valid UTF-8"]},
        )
