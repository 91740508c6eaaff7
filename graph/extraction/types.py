"""The extractor's value types: plain frozen dataclasses, hashable, no Django."""

from __future__ import annotations

from dataclasses import dataclass

RELATIONSHIPS: tuple[str, ...] = (
    "founded",
    "invested_in",
    "advises",
    "partner_of",
    "competitor_of",
    "attended",
    "works_at",
    "acquired",
    "reports_to",
    "mentioned",
)
TYPED_RELATIONSHIPS: tuple[str, ...] = RELATIONSHIPS[:-1]
#: Relationships that read the same both ways ("A partners with B" = "B partners with A"): graph reads, the
#: relational walk and the answers match them on either side.
SYMMETRIC_RELATIONSHIPS: frozenset[str] = frozenset({"partner_of", "competitor_of"})
ENTITY_KINDS: tuple[str, ...] = ("person", "company", "org", "product", "place", "unknown")


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
