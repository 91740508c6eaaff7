"""Reading a folder of world pages (the world-v1 protocol's ``*.json`` files), for every benchmark that reads them:
the retrieval benchmark ingests their text, the extraction benchmark extracts from it and scores against their
``_facts``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_pages(directory: Path | str) -> list[dict[str, Any]]:
    """The pages of ``directory``: every ``*.json`` object with a ``slug`` and a ``compiled_truth``, sorted by slug;
    files whose name starts with ``_`` (the ledger) are not pages."""
    pages = []
    for path in sorted(Path(directory).glob("*.json")):
        if path.name.startswith("_"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "slug" in data and "compiled_truth" in data:
            pages.append(data)
    return sorted(pages, key=lambda page: page["slug"])


def timeline_text(page: dict[str, Any]) -> str:
    """The page's timeline as text (a few pages store it as a list of lines: joined by newlines)."""
    timeline = page.get("timeline") or ""
    if isinstance(timeline, list):
        timeline = "\n".join(str(line) for line in timeline)
    return timeline
