"""JSON only, and strict: NUL bytes and lone surrogates anywhere in the document (keys included) are refused
before any view or service sees them; a document nested absurdly deep is malformed, not a crash."""

from __future__ import annotations

import codecs
import json
import math
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding

from orgmemory.errors import ValidationFailed
from orgmemory.text import INVALID_ENCODING, NUL_BYTE, text_problem

# How deep a request document may nest: a memory's metadata may nest memories.services.memory.METADATA_MAX_DEPTH
# levels, and a batch puts three more around it (body › memories › item); the write service enforces the metadata
# limit for every way in, this one bounds the parse.
MAX_DEPTH = 32


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        encoding = get_encoding(parser_context or {})
        try:
            # NaN/Infinity literals and numbers too large for a float (1e400) are refused: they would become inf,
            # which PostgreSQL's JSON refuses and no client can read back
            data = json.load(
                codecs.getreader(encoding)(stream), parse_constant=_refuse_constant, parse_float=_finite_float
            )
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.")
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise ParseError(f"JSON parse error - {exc}")
        check_json_strings(data)
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def check_json_strings(data: Any) -> None:
    """Raise ValidationFailed (``nul_byte`` / ``invalid_encoding`` / ``too_deep``) for a bad string anywhere."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            shown = shown_text(path)
            raise ValidationFailed(
                f"the JSON document is nested deeper than {MAX_DEPTH} levels", code="too_deep", details={shown: []}
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


def shown_text(text: str) -> str:
    """``text`` as an error message may quote it: lone surrogates and NUL bytes as escapes (a key that holds one
    names the place of the problem, and must not make the error itself unrenderable)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def _check_string(value: str, path: str) -> None:
    problem = text_problem(value)
    if problem:
        path = shown_text(path)
    if problem == NUL_BYTE:
        raise ValidationFailed(
            f"{path} contains a NUL byte", code="nul_byte", details={path: ["NUL bytes are not allowed"]}
        )
    if problem == INVALID_ENCODING:
        raise ValidationFailed(
            f"{path} is not valid Unicode (lone surrogate)",
            code="invalid_encoding",
            details={path: ["not valid UTF-8"]},
        )
