"""Graph reads. Tenant- and scope-filtered: an edge is visible only if the memory stating it is visible to the
caller (its scope is on the caller's chain, it is live). ``chain_ids`` is the caller's scope chain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.postgres.search import TrigramSimilarity
from django.db.models import Q, QuerySet

from graph.extraction import SYMMETRIC_RELATIONSHIPS, TYPED_RELATIONSHIPS, normalize_entity_name, split_title
from graph.models import Entity, EntityLink
from memories import visibility
from memories.models import Memory, Tenant
from orgmemory.db_routing import read_connection

NAME_MATCH_THRESHOLD = 0.5
# the admins' graph page (whole-tenant view)
MAX_NODES = 300  # a force layout stays readable (and fast) well below this; the response says when it cut
MAX_EDGES = 1500
HOP_ROWS = 5000  # links read per hop from the frontier; a hub with more is cut (and flagged truncated)
DEPTHS = (1, 2)


def visible_links(*, tenant: Tenant, chain_ids: Sequence[int]) -> QuerySet[EntityLink]:
    """Links of the tenant whose stating memory is live and on the caller's chain (the links' copy of the memory's
    scope first, so that an index reads only those; the memory's own scope decides)."""
    chain = list(chain_ids)
    return EntityLink.objects.filter(
        tenant=tenant,
        scope_id__in=chain,
        memory__scope_id__in=chain,
    ).filter(visibility.in_force_q(prefix="memory__"))


def entity_resolve_name(*, tenant: Tenant, name: str, limit: int = 5) -> list[Entity]:
    """Entities a free-text name refers to, best first: exact norm, then alias, then trigram similarity."""
    norm = normalize_entity_name(name)[:200]
    if not norm:
        return []
    # the name as written, then without a tagline ("Meta (Cybersecurity)" → "Meta"), as titles are stored
    short = normalize_entity_name(split_title(name)[0])[:200]
    for candidate in dict.fromkeys([norm, short]):
        exact = list(Entity.objects.filter(tenant=tenant, norm=candidate))
        if exact:
            return exact
        aliased = list(Entity.objects.filter(tenant=tenant, aliases__norm=candidate).distinct())
        if aliased:
            return aliased
    return list(
        Entity.objects.filter(tenant=tenant, norm__trigram_similar=norm)
        .annotate(similarity=TrigramSimilarity("norm", norm))
        .filter(similarity__gte=NAME_MATCH_THRESHOLD)
        .order_by("-similarity", "-mention_count", "id")[:limit]
    )


@dataclass(frozen=True)
class Neighbour:
    entity_id: int
    entity_name: str
    relationship: str
    direction: str  # "out": the entity is the subject; "in": it is the object
    memory_id: int
    confidence: float


def entity_neighbours(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    entity: Entity | int,
    relationship: str | None = None,
    direction: str = "both",
    limit: int = 200,
) -> list[Neighbour]:
    """Entities linked to ``entity`` by visible typed edges (optionally one relationship / direction)."""
    entity_id = entity.pk if isinstance(entity, Entity) else entity
    links = visible_links(tenant=tenant, chain_ids=chain_ids).filter(object__isnull=False)
    if relationship:
        links = links.filter(relationship=relationship)
    result: list[Neighbour] = []
    if direction in ("both", "out"):
        for link in links.filter(subject_id=entity_id).select_related("object").order_by("-confidence", "id")[:limit]:
            result.append(
                Neighbour(link.object_id, link.object.name, link.relationship, "out", link.memory_id, link.confidence)
            )
    if direction in ("both", "in"):
        for link in links.filter(object_id=entity_id).select_related("subject").order_by("-confidence", "id")[:limit]:
            result.append(
                Neighbour(link.subject_id, link.subject.name, link.relationship, "in", link.memory_id, link.confidence)
            )
    return result


def entity_counterparts(
    *, tenant: Tenant, chain_ids: Sequence[int], entity_ids: Sequence[int], relationship: str, direction: str
) -> list[EntityLink]:
    """The visible typed edges answering a relational question, best first. ``direction="inbound"``: the
    entities are objects ("who founded X" → subjects); ``"outbound"``: they are subjects ("what did X found").
    ``partner_of`` / ``competitor_of`` are symmetric and match either side."""
    links = visible_links(tenant=tenant, chain_ids=chain_ids).filter(relationship=relationship, object__isnull=False)
    symmetric = relationship in SYMMETRIC_RELATIONSHIPS
    if symmetric:
        links = links.filter(Q(subject_id__in=entity_ids) | Q(object_id__in=entity_ids))
    elif direction == "inbound":
        links = links.filter(object_id__in=entity_ids)
    else:
        links = links.filter(subject_id__in=entity_ids)
    return list(links.select_related("subject", "object").order_by("-confidence", "memory_id", "id")[:500])


def memories_about(*, tenant: Tenant, chain_ids: Sequence[int], entity_ids: Sequence[int]) -> list[tuple[int, int]]:
    """(entity id, memory id) for visible memories that are *about* the entities (their title is the entity)."""
    return list(
        visible_links(tenant=tenant, chain_ids=chain_ids)
        .filter(relationship="about", subject_id__in=list(entity_ids))
        .order_by("memory_id")
        .values_list("subject_id", "memory_id")
    )


def memories_mentioning(*, tenant: Tenant, chain_ids: Sequence[int], entity: Entity | int) -> QuerySet[Memory]:
    entity_id = entity.pk if isinstance(entity, Entity) else entity
    link_memory_ids = (
        visible_links(tenant=tenant, chain_ids=chain_ids)
        .filter(Q(subject_id=entity_id) | Q(object_id=entity_id))
        .values("memory_id")
    )
    return Memory.objects.filter(tenant=tenant, pk__in=link_memory_ids).order_by("-created_at", "-id")


def entity_paths(
    *, tenant: Tenant, chain_ids: Sequence[int], source: Entity | int, target: Entity | int, max_hops: int = 2
) -> list[list[Neighbour]]:
    """Paths of 1 or 2 visible typed edges from ``source`` to ``target`` (either direction per hop)."""
    if not 1 <= max_hops <= 2:
        raise ValueError("max_hops must be 1 or 2")
    source_id = source.pk if isinstance(source, Entity) else source
    target_id = target.pk if isinstance(target, Entity) else target
    first = entity_neighbours(tenant=tenant, chain_ids=chain_ids, entity=source_id)
    paths = [[hop] for hop in first if hop.entity_id == target_id]
    if max_hops == 2:
        for hop in first:
            if hop.entity_id in (target_id, source_id):
                continue
            for second in entity_neighbours(tenant=tenant, chain_ids=chain_ids, entity=hop.entity_id):
                if second.entity_id == target_id:
                    paths.append([hop, second])
    return paths


def entities_visible(*, tenant: Tenant, chain_ids: Sequence[int], q: str = "") -> QuerySet[Entity]:
    """Entities with at least one visible link, optionally matching ``q`` (substring or trigram)."""
    visible = visible_links(tenant=tenant, chain_ids=chain_ids)
    ids = visible.values("subject_id").union(visible.filter(object__isnull=False).values("object_id"))
    entities = Entity.objects.filter(tenant=tenant, pk__in=ids)
    if q:
        norm = normalize_entity_name(q)[:200] or q.casefold()[:200]
        entities = entities.filter(Q(norm__contains=norm) | Q(norm__trigram_similar=norm) | Q(aliases__norm=norm))
    # by name: the stored mention_count counts memories the caller may not see
    return entities.distinct().order_by("name", "id")


# --- the admins' whole-tenant graph (not scope-filtered) ----------------------------------------------------


@dataclass(frozen=True)
class Subgraph:
    """Entities within ``depth`` hops of the centre (``distance`` per id) and every link among them."""

    distance: dict[int, int]
    entities: list[Entity]
    links: list[dict]
    truncated: bool


def tenant_graph_around(
    *,
    tenant: Tenant,
    centre: Entity,
    depth: int,
    relationship: str = "",
    max_nodes: int = MAX_NODES,
    max_edges: int = MAX_EDGES,
) -> Subgraph:
    """The tenant's typed links around ``centre``, breadth first up to ``depth`` (1 or 2) hops in either direction
    (optionally only one ``relationship``), then every such link among the entities reached (the induced subgraph).
    Stronger links are followed first, so a cut (``truncated``) keeps the most confident neighbourhood. Not
    scope-filtered: this is the admins' whole-tenant view."""
    if depth not in DEPTHS:
        raise ValueError("depth must be 1 or 2")
    links = EntityLink.objects.filter(tenant=tenant, object__isnull=False)
    if relationship:
        links = links.filter(relationship=relationship)
    distance = {centre.pk: 0}
    frontier = [centre.pk]
    truncated = False
    for hop in range(1, depth + 1):
        if not frontier or truncated:
            break
        rows = list(
            links.filter(Q(subject_id__in=frontier) | Q(object_id__in=frontier))
            .order_by("-confidence", "id")
            .values_list("subject_id", "object_id")[:HOP_ROWS]
        )
        truncated = len(rows) == HOP_ROWS
        reached: list[int] = []
        for pair in rows:
            for entity_id in pair:
                if entity_id in distance:
                    continue
                if len(distance) >= max_nodes:
                    truncated = True
                    break
                distance[entity_id] = hop
                reached.append(entity_id)
        frontier = reached
    ids = list(distance)
    edges = list(
        links.filter(subject_id__in=ids, object_id__in=ids)
        .order_by("-confidence", "id")
        .values("id", "subject_id", "object_id", "relationship", "confidence", "memory_id")[: max_edges + 1]
    )
    if len(edges) > max_edges:
        truncated, edges = True, edges[:max_edges]
    entities = list(
        Entity.objects.filter(tenant=tenant, pk__in=ids).only("id", "name", "kind", "mention_count").order_by("id")
    )
    return Subgraph(distance=distance, entities=entities, links=edges, truncated=truncated)


# --- one user's typed neighbourhood (scope-filtered) --------------------------------------------------------

NEIGHBOURHOOD_PER_NODE = 50  # distinct edges kept per entity expanded
NEIGHBOURHOOD_MAX_EDGES = 200


@dataclass(frozen=True)
class NeighbourhoodEdge:
    """``subject —relationship→ object`` as stated by one or more visible memories (``memory_ids``, ascending)."""

    subject_id: int
    relationship: str
    object_id: int
    memory_ids: tuple[int, ...]
    confidence: float  # the highest of the stating links
    hop: int  # 1: touches the centre; 2: touches an entity one hop away


@dataclass(frozen=True)
class Neighbourhood:
    distance: dict[int, int]  # entity id → hops from the centre (the centre is 0)
    entities: dict[int, Entity]
    edges: list[NeighbourhoodEdge]
    truncated: bool


def entity_neighbourhood(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    entity_id: int,
    depth: int = 1,
    relationships: Sequence[str] = (),
    per_node: int = NEIGHBOURHOOD_PER_NODE,
    max_edges: int = NEIGHBOURHOOD_MAX_EDGES,
) -> Neighbourhood:
    """The typed edges around ``entity_id`` that the caller's chain may see, breadth first up to ``depth`` (1 or 2)
    hops in either direction, optionally only some ``relationships``. An edge is visible when a memory stating it is
    live and on the chain; it carries the ids of every such memory. Fan-out is bounded: at most ``per_node``
    edges per entity expanded and ``max_edges`` in all, strongest first (``truncated`` says when something was cut).
    One statement per hop plus one for the entities."""
    if depth not in DEPTHS:
        raise ValueError("depth must be 1 or 2")
    links = visible_links(tenant=tenant, chain_ids=chain_ids).filter(
        object__isnull=False, relationship__in=list(relationships) or list(TYPED_RELATIONSHIPS)
    )
    distance = {entity_id: 0}
    edges: dict[tuple[int, str, int], NeighbourhoodEdge] = {}
    frontier = [entity_id]
    truncated = False
    for hop in range(1, depth + 1):
        if not frontier:
            break
        # enough rows for every frontier node's share (a triple may be stated by several memories)
        limit = min(HOP_ROWS, len(frontier) * per_node * 4)
        rows = list(
            links.filter(Q(subject_id__in=frontier) | Q(object_id__in=frontier))
            .order_by("-confidence", "memory_id", "id")
            .values_list("subject_id", "relationship", "object_id", "memory_id", "confidence")[: limit + 1]
        )
        if len(rows) > limit:
            truncated, rows = True, rows[:limit]
        grouped: dict[tuple[int, str, int], list] = {}
        for subject_id, relationship, object_id, memory_id, confidence in rows:
            key = (subject_id, relationship, object_id)
            if key in edges:
                continue  # already found from the other end at an earlier hop
            entry = grouped.setdefault(key, [set(), confidence])
            entry[0].add(memory_id)
            entry[1] = max(entry[1], confidence)
        fan_out: dict[int, int] = {}
        reached: list[int] = []
        frontier_set = set(frontier)
        for (subject_id, relationship, object_id), (memory_ids, confidence) in grouped.items():
            if len(edges) >= max_edges:
                truncated = True
                break
            ends = [end for end in (subject_id, object_id) if end in frontier_set]
            if any(fan_out.get(end, 0) >= per_node for end in ends):
                truncated = True
                continue
            for end in ends:
                fan_out[end] = fan_out.get(end, 0) + 1
            edges[(subject_id, relationship, object_id)] = NeighbourhoodEdge(
                subject_id, relationship, object_id, tuple(sorted(memory_ids)), confidence, hop
            )
            for other in (subject_id, object_id):
                if other not in distance:
                    distance[other] = hop
                    reached.append(other)
        frontier = reached
    entities = {entity.pk: entity for entity in Entity.objects.filter(tenant=tenant, pk__in=list(distance))}
    return Neighbourhood(distance=distance, entities=entities, edges=list(edges.values()), truncated=truncated)


# --- the tenant dashboard's graph figure --------------------------------------------------------------------------

STALE_AFTER_DAYS = 180
STALE_SHOWN = 20


@dataclass(frozen=True)
class StaleEntity:
    entity_id: int
    name: str
    kind: str
    live_mentions: int
    last_live_mention: object  # datetime | None (None: no live memory mentions it)


@dataclass(frozen=True)
class StaleEntities:
    total: int
    shown: tuple[StaleEntity, ...] = ()


def stale_entities(*, tenant: Tenant, after_days: int = STALE_AFTER_DAYS, limit: int = STALE_SHOWN) -> StaleEntities:
    """Entities of the tenant's graph that no live memory mentions any more (every memory that linked them is
    superseded or expired), or whose newest live mention is older than ``after_days``: their total and the ``limit``
    most mentioned of them, in one statement. An entity no link mentions at all does not exist (erasure and link
    deletion prune them). Not scope-filtered: the dashboard is the tenant admin's view of the whole tenant."""
    links, entities, memories = EntityLink._meta.db_table, Entity._meta.db_table, Memory._meta.db_table
    in_force = visibility.in_force_sql("m")
    with read_connection().cursor() as cursor:
        cursor.execute(
            f"""
            WITH mentions AS (
                SELECT subject_id AS entity_id, memory_id FROM {links} WHERE tenant_id = %(tenant)s
                UNION ALL
                SELECT object_id, memory_id FROM {links} WHERE tenant_id = %(tenant)s AND object_id IS NOT NULL
            ), per_entity AS (
                SELECT mentions.entity_id,
                       count(*) FILTER (WHERE {in_force}) AS live_mentions,
                       max(m.created_at) FILTER (WHERE {in_force}) AS last_live
                FROM mentions JOIN {memories} m ON m.id = mentions.memory_id AND m.tenant_id = %(tenant)s
                GROUP BY mentions.entity_id
            ), stale AS (
                SELECT * FROM per_entity
                WHERE live_mentions = 0 OR last_live < now() - make_interval(days => %(days)s)
            )
            SELECT e.id, e.name, e.kind, stale.live_mentions, stale.last_live, count(*) OVER ()
            FROM stale JOIN {entities} e ON e.id = stale.entity_id AND e.tenant_id = %(tenant)s
            ORDER BY e.mention_count DESC, e.name
            LIMIT %(limit)s
            """,
            {"tenant": tenant.pk, "days": after_days, "limit": limit},
        )
        rows = cursor.fetchall()
    return StaleEntities(
        total=rows[0][5] if rows else 0,
        shown=tuple(
            StaleEntity(entity_id=pk, name=name, kind=kind, live_mentions=live, last_live_mention=last)
            for pk, name, kind, live, last, _ in rows
        ),
    )
