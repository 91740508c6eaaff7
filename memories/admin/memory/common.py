"""What every part of the memory admin shares: the field lists and the one-line summary of a
memory loaded from the head of its content only.
"""

from __future__ import annotations

from django.db.models.functions import Substr
from django.utils.text import Truncator

from memories.models import Memory

SUMMARY_CHARS = 80
SNIPPET_CHARS = 160  # the list's second line: enough to tell two memories with the same title apart

# What the list needs: the list never loads the search vector, the content (only its head, see
# MemoryChangeList) or any column added later.
LIST_FIELDS = [
    "id",
    "tenant",
    "scope",
    "kind",
    "title",
    "author",
    "created_at",
    "index_state",
    "warnings",
    "superseded_by",
    "expires_at",
]
EDITABLE_FIELDS = ["kind", "title", "content", "metadata"]
# when it is true and the "now" of its relative dates: set when it is written
TIME_FIELDS = ["valid_from", "valid_until", "reference_time"]
ADD_FIELDS = ["tenant", "scope", *EDITABLE_FIELDS, *TIME_FIELDS]


def _with_summary(queryset):
    """Rows with only the head of their content loaded (``content_head``), enough for a one-line summary."""
    return queryset.only(*LIST_FIELDS).annotate(content_head=Substr("content", 1, SUMMARY_CHARS * 4))


def _versions(queryset):
    """Rows for the history panel: enough for a dated one-line summary."""
    return queryset.only("id", "title", "superseded_by", "superseded_at", "created_at").annotate(
        content_head=Substr("content", 1, SUMMARY_CHARS * 4)
    )


def _snippet(memory: Memory) -> str:
    """The head of the content on one line, cut at a word near ``SNIPPET_CHARS``."""
    head = getattr(memory, "content_head", None)
    if head is None:
        head = memory.content[: SNIPPET_CHARS * 2]
    return Truncator(" ".join(head.split())).chars(SNIPPET_CHARS)


def _summary(memory: Memory) -> str:
    if memory.title:
        return Truncator(memory.title).chars(SUMMARY_CHARS)
    head = getattr(memory, "content_head", None)
    if head is None:
        head = memory.content[: SUMMARY_CHARS * 4]
    first_line = next((line.strip() for line in head.splitlines() if line.strip()), "")
    return Truncator(first_line).chars(SUMMARY_CHARS)
