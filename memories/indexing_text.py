"""Pure helpers that prepare text for indexing: the text-search configuration, glossary expansion and overlapping
chunk windows."""

from __future__ import annotations

import re
from collections.abc import Mapping

#: The PostgreSQL text-search configuration of every stored ``search_vector`` and every query against it (writes,
#: list filters, delete-by-query, the admin, the keyword arm): one value, or stemming would not match.
TEXT_SEARCH_CONFIG = "english"
CHUNK_WORDS = 200
CHUNK_STRIDE = 150
_MAX_ACRONYM = 32


def expand_glossary(text: str, glossary: Mapping[str, str]) -> str:
    """Append each glossary expansion after its acronym: "k8s cluster" → "k8s (kubernetes) cluster".

    Case-insensitive, whole words only; the stored content is never changed, only the text that is indexed,
    embedded or searched. Entries longer than 32 characters are ignored (they are not acronyms). Never raises:
    a glossary that is not a mapping, or keys that are not non-empty strings, expand nothing.
    """
    if not text or not isinstance(glossary, Mapping):
        return text
    entries: dict[str, object] = {}
    for key, value in glossary.items():
        if isinstance(key, str) and key and len(key) <= _MAX_ACRONYM:
            entries.setdefault(key.casefold(), value)
    if not entries:
        return text
    # One group per key, and the expansion looked up by which group matched: re.IGNORECASE matches text whose
    # casefold() is no key ("aı" and "Aİ" match "ai"), so looking the matched text up again can miss.
    keys = sorted(entries, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(f"({re.escape(key)})" for key in keys) + r")(?![\w-])", re.IGNORECASE
    )
    return pattern.sub(lambda match: f"{match.group(0)} ({entries[keys[match.lastindex - 1]]})", text)


def chunk_windows(text: str, *, size: int = CHUNK_WORDS, stride: int = CHUNK_STRIDE) -> list[str]:
    """Overlapping windows of ``size`` words every ``stride`` words, covering the whole text.

    A text of at most ``size`` words is one window; the last window always reaches the end. Empty text → [].
    """
    if size < 1 or not 1 <= stride <= size:
        raise ValueError("need size >= 1 and 1 <= stride <= size")
    words = text.split()
    if not words:
        return []
    if len(words) <= size:
        return [" ".join(words)]
    windows = []
    start = 0
    while True:
        windows.append(" ".join(words[start : start + size]))
        if start + size >= len(words):
            return windows
        start += stride
