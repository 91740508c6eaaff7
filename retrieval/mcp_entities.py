"""The knowledge graph for MCP clients that have nothing else: look entities up by name, name an entity by name or
id, and list the entities each search result mentions. Read-only, through the graph selectors the entities API
uses: an entity exists for a user only through links stated by memories visible to them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Q

from graph.extraction import normalize_entity_name
from graph.models import Entity
from graph.selectors import entities_visible, visible_links
from memories.models import Memory, Tenant
from orgmemory.errors import NotFound, ValidationFailed

MAX_NAME_CHARS = 200
DEFAULT_LIMIT = 10
MAX_LIMIT = 50
CANDIDATES_READ = 200  # matches read per look-up before ranking; a name matching more is a truncated answer


def _mentions(*, tenant: Tenant, chain_ids: Sequence[int], entity_ids: Sequence[int]) -> dict[int, int]:
    """Distinct visible memories linking to each entity (the stored count would include private ones)."""
    wanted = set(entity_ids)
    links = visible_links(tenant=tenant, chain_ids=chain_ids).filter(Q(subject_id__in=wanted) | Q(object_id__in=wanted))
    memories: dict[int, set[int]] = defaultdict(set)
    for subject_id, object_id, memory_id in links.values_list("subject_id", "object_id", "memory_id"):
        for entity_id in (subject_id, object_id):
            if entity_id in wanted:
                memories[entity_id].add(memory_id)
    return {entity_id: len(ids) for entity_id, ids in memories.items()}


def _clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValidationFailed("name must be a non-empty string", details={"name": ["This field is required."]})
    if len(name) > MAX_NAME_CHARS:
        raise ValidationFailed(
            f"name must be at most {MAX_NAME_CHARS} characters", details={"name": [f"at most {MAX_NAME_CHARS}"]}
        )
    return name.strip()


def entities_by_name(
    *, tenant: Tenant, chain_ids: Sequence[int], name: Any, limit: Any = DEFAULT_LIMIT
) -> dict[str, Any]:
    """``{"entities": [{id, name, kind, mentions}], "truncated"}``: the visible entities whose name or alias
    matches ``name`` (substring or typo-tolerant, as the entities API's ``q``), exact names first, then the most
    mentioned in what the caller can see."""
    name = _clean_name(name)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValidationFailed(f"limit must be an integer from 1 to {MAX_LIMIT}", details={"limit": [limit]})
    found = list(entities_visible(tenant=tenant, chain_ids=chain_ids, q=name)[: CANDIDATES_READ + 1])
    truncated = len(found) > CANDIDATES_READ
    found = found[:CANDIDATES_READ]
    mentions = _mentions(tenant=tenant, chain_ids=chain_ids, entity_ids=[entity.pk for entity in found])
    norm = normalize_entity_name(name)
    found.sort(key=lambda entity: (entity.norm != norm, -mentions.get(entity.pk, 0), entity.name, entity.pk))
    return {
        "entities": [
            {"id": entity.pk, "name": entity.name, "kind": entity.kind, "mentions": mentions.get(entity.pk, 0)}
            for entity in found[:limit]
        ],
        "truncated": truncated or len(found) > limit,
    }


def entity_id_for(*, tenant: Tenant, chain_ids: Sequence[int], user_id: str, entity: Any) -> int:
    """The id of the visible entity ``entity`` names: an id (an integer or its digits) as it is, a name when one
    visible entity has exactly that name (or alias), or the only visible match. 404 ``entity_not_found`` when
    nothing visible matches; 400 ``ambiguous_entity`` listing the candidates when several do."""
    if isinstance(entity, bool):
        raise ValidationFailed("entity must be a name or an id", details={"entity": [entity]})
    if isinstance(entity, int):
        return entity
    name = _clean_name(entity)
    if name.isdigit():
        return int(name)
    candidates = list(entities_visible(tenant=tenant, chain_ids=chain_ids, q=name)[:CANDIDATES_READ])
    norm = normalize_entity_name(name)
    exact = [candidate for candidate in candidates if candidate.norm == norm]
    if not exact:
        exact = list(
            Entity.objects.filter(pk__in=[c.pk for c in candidates], aliases__norm=norm).distinct().order_by("pk")
        )
    chosen = exact if exact else candidates
    if len(chosen) == 1:
        return chosen[0].pk
    if not chosen:
        raise NotFound(f"no entity named {name!r} visible to {user_id}", code="entity_not_found")
    listed = [{"id": c.pk, "name": c.name, "kind": c.kind} for c in chosen[:DEFAULT_LIMIT]]
    raise ValidationFailed(
        f"{len(chosen)} entities visible to {user_id} match {name!r}: "
        + "; ".join(f"{c['name']} ({c['kind']}) id {c['id']}" for c in listed)
        + ". Pass one of their ids.",
        code="ambiguous_entity",
        details={"candidates": listed},
    )


def results_with_entities(*, tenant: Tenant, data: dict[str, Any]) -> dict[str, Any]:
    """Each search result of ``data`` (``result_as_dict``) gains ``entities``: ``[{id, name, kind}]`` of what its
    memory links to, the ids that ``neighbours`` takes. The results are visible to the caller, so are their
    links (the selector checks each memory is live on the scopes it was found at)."""
    rows = data.get("results") or []
    if not rows:
        return data
    memory_ids = [row["id"] for row in rows]
    scopes = list(Memory.objects.filter(tenant=tenant, pk__in=memory_ids).values_list("scope_id", flat=True))
    links = (
        visible_links(tenant=tenant, chain_ids=sorted(set(scopes)))
        .filter(memory_id__in=memory_ids)
        .values_list(
            "memory_id", "subject_id", "subject__name", "subject__kind", "object_id", "object__name", "object__kind"
        )
        .order_by("memory_id", "pk")
    )
    mentioned: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    for memory_id, subject_id, subject_name, subject_kind, object_id, object_name, object_kind in links:
        mentioned[memory_id].setdefault(subject_id, {"id": subject_id, "name": subject_name, "kind": subject_kind})
        if object_id is not None:
            mentioned[memory_id].setdefault(object_id, {"id": object_id, "name": object_name, "kind": object_kind})
    for row in rows:
        row["entities"] = list(mentioned.get(row["id"], {}).values())
    return data
