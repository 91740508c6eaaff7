"""Zero-LLM, precision-first link extraction (ARCHITECTURE, "Knowledge graph"). Pure Python: no Django, no database.

Public API::

    from graph.extraction import EntityRef, Link, RELATIONSHIPS, extract_links, normalize_entity_name
"""

from graph.extraction.extract import extract_links
from graph.extraction.normalize import normalize_entity_name
from graph.extraction.selfref import split_title, title_entity, title_is_name
from graph.extraction.types import (
    ENTITY_KINDS,
    RELATIONSHIPS,
    SYMMETRIC_RELATIONSHIPS,
    TYPED_RELATIONSHIPS,
    EntityRef,
    Link,
)

__all__ = [
    "ENTITY_KINDS",
    "RELATIONSHIPS",
    "SYMMETRIC_RELATIONSHIPS",
    "TYPED_RELATIONSHIPS",
    "EntityRef",
    "Link",
    "extract_links",
    "normalize_entity_name",
    "split_title",
    "title_entity",
    "title_is_name",
]
