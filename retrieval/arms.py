"""The three retrieval arms. Visibility (tenant, the caller's scope chain, live rows) is enforced inside every
arm's SQL. Each returns memory ids best first, at most ``depth`` of them."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connection, transaction

from graph.selectors import entity_counterparts, entity_resolve_name, memories_about
from memories.models import Tenant
from retrieval.relational_query import RelationalQuery

logger = logging.getLogger(__name__)

TEXT_SEARCH_CONFIG = "english"
_TERM_RE = re.compile(r"[^\W_]{2,40}")
_MAX_TERMS = 32
_TRIGRAM_MIN_QUERY = 3
_TRIGRAM_MAX_QUERY = 200

_LIVE = """m.tenant_id = %(tenant)s AND m.scope_id = ANY(%(chain)s) AND m.superseded_by_id IS NULL
    AND (m.expires_at IS NULL OR m.expires_at > now()) AND m.kind = ANY(%(kinds)s)"""

_FTS_SQL = f"""
SELECT m.id FROM memories_memory m
WHERE {_LIVE} AND m.search_vector @@ %(tsq)s::tsquery
ORDER BY ts_rank_cd(m.search_vector, %(tsq)s::tsquery, 1) DESC, m.id
LIMIT %(depth)s
"""

# names and typos in titles: word similarity of the query within the title, served by the title's trigram GIN
# index through the <% operator (threshold pg_trgm.word_similarity_threshold, default 0.6). Contents are left to
# full text and vectors: word similarity over long texts costs ~0.5 ms a row and adds little.
_TRIGRAM_SQL = f"""
SELECT m.id FROM memories_memory m
WHERE {_LIVE} AND %(query)s <%% m.title
ORDER BY word_similarity(%(query)s, m.title) DESC, m.id
LIMIT %(depth)s
"""

# nearest chunks by cosine distance with iterative index scans (so the tenant/scope filter cannot starve the
# result), then max-pooled per memory (its best chunk) before the final LIMIT
_VECTOR_SQL = f"""
WITH nearest AS MATERIALIZED (
    SELECT c.memory_id, c.embedding <=> %(vector)s::vector AS distance
    FROM memories_memorychunk c
    WHERE c.tenant_id = %(tenant)s AND c.scope_id = ANY(%(chain)s)
    ORDER BY c.embedding <=> %(vector)s::vector
    LIMIT %(chunk_depth)s
)
SELECT n.memory_id, min(n.distance) AS distance
FROM nearest n JOIN memories_memory m ON m.id = n.memory_id
WHERE {_LIVE}
GROUP BY n.memory_id
ORDER BY distance, n.memory_id
LIMIT %(depth)s
"""


def _params(tenant: Tenant, chain_ids: Sequence[int], kinds: Sequence[str], depth: int, **extra) -> dict:
    return {"tenant": tenant.pk, "chain": list(chain_ids), "kinds": list(kinds), "depth": depth, **extra}


def _fetch_ids(sql: str, params: dict) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def _tsquery(query: str, *, any_term: bool) -> str | None:
    """websearch_to_tsquery's AND form, or an OR of the query's terms (built from plain word characters, so
    no user input reaches to_tsquery's syntax)."""
    with connection.cursor() as cursor:
        if not any_term:
            cursor.execute("SELECT websearch_to_tsquery(%s, %s)::text", [TEXT_SEARCH_CONFIG, query])
        else:
            terms = list(dict.fromkeys(term.lower() for term in _TERM_RE.findall(query)))[:_MAX_TERMS]
            if not terms:
                return None
            cursor.execute(
                "SELECT string_agg(DISTINCT t::text, ' | ') FROM unnest(%s::text[]) AS w, "
                "LATERAL plainto_tsquery(%s, w) AS t WHERE t::text <> ''",
                [terms, TEXT_SEARCH_CONFIG],
            )
        value = cursor.fetchone()[0]
    return value or None


def keyword_arm(*, tenant: Tenant, chain_ids: Sequence[int], kinds: Sequence[str], query: str, depth: int) -> list[int]:
    """Full text (AND form, falling back to OR-of-terms when AND finds nothing), then trigram name/typo
    matches that full text missed."""
    ids: list[int] = []
    tsq = _tsquery(query, any_term=False)
    if tsq:
        ids = _fetch_ids(_FTS_SQL, _params(tenant, chain_ids, kinds, depth, tsq=tsq))
    if not ids:
        tsq = _tsquery(query, any_term=True)
        if tsq:
            ids = _fetch_ids(_FTS_SQL, _params(tenant, chain_ids, kinds, depth, tsq=tsq))
    stripped = query.strip()
    if len(ids) < depth and _TRIGRAM_MIN_QUERY <= len(stripped) <= _TRIGRAM_MAX_QUERY:
        seen = set(ids)
        for memory_id in _fetch_ids(_TRIGRAM_SQL, _params(tenant, chain_ids, kinds, depth, query=stripped)):
            if memory_id not in seen:
                ids.append(memory_id)
                seen.add(memory_id)
    return ids[:depth]


def vector_arm(
    *, tenant: Tenant, chain_ids: Sequence[int], kinds: Sequence[str], vector: Sequence[float], depth: int
) -> list[tuple[int, float]]:
    """(memory id, best-chunk cosine similarity), nearest first."""
    literal = "[" + ",".join(f"{value:.7g}" for value in vector) + "]"
    params = _params(tenant, chain_ids, kinds, depth, vector=literal, chunk_depth=depth * 4)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, depth * 4)])
        cursor.execute(_VECTOR_SQL, params)
        return [(row[0], 1.0 - float(row[1])) for row in cursor.fetchall()]


@dataclass
class RelationalHit:
    memory_ids: list[int] = field(default_factory=list)
    edges: list[tuple[str, str, str, int]] = field(default_factory=list)  # (subject, relationship, object, memory)
    entity_ids: list[int] = field(default_factory=list)


# A founder works at the company they founded: "who works at X" also follows `founded` edges (after `works_at`).
_ALSO_FOLLOW = {"works_at": ("founded",)}
_SYMMETRIC = frozenset({"partner_of", "competitor_of"})


def relational_arm(
    *, tenant: Tenant, chain_ids: Sequence[int], kinds: Sequence[str], parsed: RelationalQuery, depth: int
) -> RelationalHit:
    """Resolve the seed, walk typed edges to the counterparts, and return the counterparts' own (`about`)
    memories, then the memories stating the edges, in that order."""
    hit = RelationalHit()
    entities = entity_resolve_name(tenant=tenant, name=parsed.seed)
    if not entities:
        return hit
    seed_ids = [entity.pk for entity in entities]
    hit.entity_ids = seed_ids
    if parsed.direction == "about":
        about = [memory_id for _, memory_id in memories_about(tenant=tenant, chain_ids=chain_ids, entity_ids=seed_ids)]
        hit.memory_ids = _visible_kinds(list(dict.fromkeys(about)), kinds)[:depth]
        return hit
    links = []
    for relationship in (parsed.relationship, *_ALSO_FOLLOW.get(parsed.relationship, ())):
        links.extend(
            entity_counterparts(
                tenant=tenant,
                chain_ids=chain_ids,
                entity_ids=seed_ids,
                relationship=relationship,
                direction=parsed.direction,
            )
        )
    counterparts: list[int] = []
    stating: list[int] = []
    seed_set = set(seed_ids)
    for link in links:
        if link.relationship in _SYMMETRIC:  # either side may be the seed: the counterpart is the other one
            other = link.object_id if link.subject_id in seed_set else link.subject_id
        else:
            other = link.subject_id if parsed.direction == "inbound" else link.object_id
        counterparts.append(other)
        stating.append(link.memory_id)
        hit.edges.append((link.subject.name, link.relationship, link.object.name, link.memory_id))
    counterparts = list(dict.fromkeys(counterparts))
    about_by_entity: dict[int, list[int]] = {}
    for entity_id, memory_id in memories_about(tenant=tenant, chain_ids=chain_ids, entity_ids=counterparts):
        about_by_entity.setdefault(entity_id, []).append(memory_id)
    ordered = [memory_id for entity_id in counterparts for memory_id in about_by_entity.get(entity_id, [])]
    ordered.extend(stating)
    hit.memory_ids = _visible_kinds(list(dict.fromkeys(ordered)), kinds)[:depth]
    return hit


def _visible_kinds(ids: list[int], kinds: Sequence[str]) -> list[int]:
    from memories.models import Memory

    if not ids:
        return ids
    allowed = set(Memory.objects.filter(pk__in=ids, kind__in=list(kinds)).values_list("pk", flat=True))
    return [memory_id for memory_id in ids if memory_id in allowed]
