"""The extractor's value types: plain frozen dataclasses, hashable, no Django."""

from __future__ import annotations

from dataclasses import dataclass

from graph import vocabulary

#: What an extracted link can state, and what an entity can be: views of :mod:`graph.vocabulary`.
RELATIONSHIPS: tuple[str, ...] = vocabulary.EXTRACTED_RELATIONSHIPS
TYPED_RELATIONSHIPS: tuple[str, ...] = vocabulary.TYPED_RELATIONSHIPS
SYMMETRIC_RELATIONSHIPS: frozenset[str] = vocabulary.SYMMETRIC_RELATIONSHIPS
ENTITY_KINDS: tuple[str, ...] = vocabulary.ENTITY_KIND_VALUES


@dataclass(frozen=True)
class EntityRef:
    """An entity as written in the text.

    ``name`` is the cleaned display name ("Acme Corp"), ``norm`` its :func:`normalize_entity_name`, ``kind`` a
    best-effort guess (one of :data:`ENTITY_KINDS`) and ``target`` the link target of an explicit reference
    (``[Name](target)`` / ``[[target|Name]]``), else ``None``.
    """

    name: str
    norm: str
    kind: str
    target: str | None = None


@dataclass(frozen=True)
class Link:
    """One extracted statement ``subject --relationship--> object``.

    ``object`` is ``None`` only for ``"mentioned"`` (a bare mention of ``subject``). ``span`` is the character
    span in the input text of the match (or sentence) stating it; ``metadata`` holds hashable extras such as
    ``(("position", "CTO"),)``.
    """

    subject: EntityRef
    relationship: str
    object: EntityRef | None
    confidence: float
    span: tuple[int, int]
    metadata: tuple[tuple[str, str], ...] = ()
