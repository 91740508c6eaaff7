"""Input checks every write applies: text and metadata cleaning (UTF-8, NUL bytes, NFC, size), the kind, the
per-policy content size limit, and the normalised content hash that exact dedup keys on.

Each check raises a :class:`~orgmemory.errors.DomainError` subclass whose code and details the API and the admin
show as they are.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Any

from memories.models import MemoryKind
from orgmemory.errors import ContentTooLarge, ValidationFailed
from orgmemory.text import INVALID_ENCODING, NUL_BYTE, text_problem

TITLE_MAX_CHARS = 300
METADATA_MAX_BYTES = 16 * 1024
# How deep a memory's metadata may nest (``{}`` is one level), for every way in: REST (whose documents may be
# nested deeper by the width of a batch item's envelope, orgmemory.api.parsers.MAX_DEPTH), MCP, sessions, import
# and the admin. What one of them accepts, the others (and export → import) accept too.
METADATA_MAX_DEPTH = 28
SOURCE_FIELD_MAX = 256


def _clean_text(value: Any, *, field_name: str, required: bool) -> str:
    if value is None:
        value = ""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValidationFailed(
                f"{field_name} is not valid UTF-8 (byte {exc.start})",
                code="invalid_encoding",
                details={field_name: ["not valid UTF-8"]},
            )
    if not isinstance(value, str):
        raise ValidationFailed(f"{field_name} must be a string", details={field_name: ["must be a string"]})
    problem = text_problem(value)
    if problem == NUL_BYTE:
        raise ValidationFailed(
            f"{field_name} contains a NUL byte", code="nul_byte", details={field_name: ["contains a NUL byte"]}
        )
    if problem == INVALID_ENCODING:
        raise ValidationFailed(
            f"{field_name} contains characters that are not valid Unicode (lone surrogates)",
            code="invalid_encoding",
            details={field_name: ["not valid UTF-8"]},
        )
    value = unicodedata.normalize("NFC", value).strip()
    if required and not value:
        raise ValidationFailed(
            f"{field_name} is empty", code="empty_content", details={field_name: ["must not be empty or whitespace"]}
        )
    return value


def _clean_metadata(metadata: Any) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise ValidationFailed("metadata must be a JSON object", details={"metadata": ["must be an object"]})
    if _depth_over(metadata, METADATA_MAX_DEPTH):
        raise ValidationFailed(
            f"metadata is nested deeper than {METADATA_MAX_DEPTH} levels",
            code="too_deep",
            details={"metadata": [f"at most {METADATA_MAX_DEPTH} levels"]},
        )
    try:
        encoded = json.dumps(metadata, ensure_ascii=False)
    except (TypeError, ValueError):
        raise ValidationFailed("metadata must be JSON-serialisable", details={"metadata": ["not JSON"]})
    problem = _text_problem_in(metadata)
    if problem == NUL_BYTE:
        raise ValidationFailed("metadata contains a NUL byte", code="nul_byte", details={"metadata": ["NUL byte"]})
    if problem == INVALID_ENCODING:
        raise ValidationFailed(
            "metadata contains characters that are not valid Unicode (lone surrogates)",
            code="invalid_encoding",
            details={"metadata": ["not valid UTF-8"]},
        )
    if len(encoded.encode("utf-8", "surrogatepass")) > METADATA_MAX_BYTES:
        raise ContentTooLarge(
            f"metadata is larger than {METADATA_MAX_BYTES} bytes", details={"metadata": ["too large"]}
        )
    return metadata


def _depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests objects and arrays more than ``limit`` levels (``{}`` is one), without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _text_problem_in(value: Any) -> str | None:
    """The first text problem (NUL byte, lone surrogate) of a string anywhere in ``value``, keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return problem
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _clean_kind(kind: Any) -> str:
    if kind not in MemoryKind.values:
        raise ValidationFailed(
            f"kind must be one of {', '.join(MemoryKind.values)}", code="invalid_kind", details={"kind": [repr(kind)]}
        )
    return kind


def content_hash(content: str, *, speaker: str = "") -> str:
    """SHA-256 of the content with case and whitespace normalised: the key of exact dedup.

    A conversation turn's key includes who said it (``speaker``, the session event's author): the same words said by
    two people are two statements ("I run the Thursday book club" is true of each), so neither is dropped as the
    other's duplicate, at write or on a result page. Without a speaker the key is the text's alone."""
    normalised = " ".join(unicodedata.normalize("NFKC", content).casefold().split())
    who = " ".join(unicodedata.normalize("NFKC", speaker).casefold().split())
    keyed = f"{who}\x1f{normalised}" if who else normalised
    return hashlib.sha256(keyed.encode("utf-8")).hexdigest()


# the ADK author of the member's own turns: they speak as the member whose memory it is, as a note for them does
MEMBER_AUTHOR = "user"


def turn_speaker(session_id: str, metadata: dict[str, Any] | None) -> str:
    """Who said a session turn, when it is someone other than the member it is stored for — its event's author as
    given, case and spacing aside — else empty: the member's own turns (ADK's ``user``) are theirs as their notes
    are, and a memory written outside a conversation is nobody else's."""
    if not session_id or not isinstance(metadata, dict):
        return ""
    author = " ".join(unicodedata.normalize("NFKC", str(metadata.get("author") or "")).casefold().split())
    return "" if author == MEMBER_AUTHOR else author


def _check_size(content: str, policy: dict[str, Any]) -> None:
    limit = int(policy["max_content_bytes"])
    size = len(content.encode("utf-8"))
    if size > limit:
        raise ContentTooLarge(
            f"content is {size} bytes; the limit is {limit}", details={"content": [f"{size} > {limit} bytes"]}
        )
