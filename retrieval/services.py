"""The search service that the API, the admin playground, the ADK adapter and the commands all call."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils import timezone

from graph.models import Entity
from memories.embedding import get_embedder
from memories.indexing_text import expand_glossary
from memories.models import Memory, MemoryKind, Tenant
from memories.selectors import scope_chain_for, scope_get_by_tag
from memories.services.access import access_schedule
from memories.services.tenancy import policy_effective
from orgmemory.errors import NotFound, ValidationFailed
from retrieval import arms
from retrieval.ranking import Candidate, Ranked, RankingConfig, rank
from retrieval.relational_query import RelationalQuery, parse_relational_query
from retrieval.synthesis import Answer, Edge, Gaps, SourceRow, SynthesisLLM, analyze_gaps, synthesize

logger = logging.getLogger(__name__)

MAX_TOP_K = 50
MAX_QUERY_CHARS = 2000
# Chosen with eval_retrieval on world-v1: autocut cost R@5 at every relational weight (0.885 vs 0.986 final);
# it stays a per-request option for callers who prefer fewer, surer rows.
DEFAULT_AUTOCUT = False
# When the relational arm answered with typed edges, the graph knows the answer: its arm weighs this much in RRF
# (DESIGN's 0.5 applies otherwise, e.g. to "about X" questions). Chosen with eval_retrieval on world-v1: full R@5
# 0.838 / 0.879 / 0.939 / 0.986 / 0.986 at weights 0.5 / 1 / 2 / 4 / 8 (docs/ARCHITECTURE.md).
RELATIONAL_WEIGHT_WITH_EDGES = 4.0


@dataclass(frozen=True)
class SearchOptions:
    top_k: int = 10
    autocut: bool = DEFAULT_AUTOCUT
    explain: bool = False
    synthesize: bool = False
    gaps: bool = False
    kinds: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    arms: tuple[str, ...] = ("keyword", "vector", "relational")  # the benchmark switches arms off
    track_access: bool = True
    relational_weight: float | None = None  # None: RELATIONAL_WEIGHT_WITH_EDGES when typed edges answered


@dataclass
class SearchHit:
    memory: Memory
    score: float
    explain: dict[str, Any] | None = None


@dataclass
class SearchResult:
    hits: list[SearchHit]
    degraded: list[str] = field(default_factory=list)
    answer: Answer | None = None
    gaps: Gaps | None = None
    relational: RelationalQuery | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)


def search_memories(
    *,
    tenant: Tenant,
    user_id: str,
    query: str,
    options: SearchOptions = SearchOptions(),
    llm: SynthesisLLM | None = None,
) -> SearchResult:
    """Ranked memories visible to ``user_id`` (their scope chain) for ``query``.

    Visibility is decided in every arm's SQL. A failing embedder drops the vector arm (``degraded:
    ["vector"]``); a failing relational arm drops itself; neither fails the search.
    """
    started = time.perf_counter()
    query = _clean_query(query)
    if not 1 <= options.top_k <= MAX_TOP_K:
        raise ValidationFailed(f"top_k must be between 1 and {MAX_TOP_K}", details={"top_k": [options.top_k]})
    kinds = _clean_kinds(options.kinds)
    chain = scope_chain_for(tenant=tenant, user_id=user_id)
    if not chain:
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    chain_ids = _restrict_scopes(tenant, chain, options.scopes)
    policy = policy_effective(tenant=tenant, chain=chain)
    indexed_query = expand_glossary(query, policy["glossary"] or {})
    depth = max(30, 5 * options.top_k)
    degraded: list[str] = []
    timings: dict[str, float] = {}
    arm_ids: dict[str, list[int]] = {}
    cosines: dict[int, float] = {}
    relational_hit: arms.RelationalHit | None = None
    parsed = parse_relational_query(query)

    if "keyword" in options.arms:
        t0 = time.perf_counter()
        arm_ids["keyword"] = arms.keyword_arm(
            tenant=tenant, chain_ids=chain_ids, kinds=kinds, query=indexed_query, depth=depth
        )
        timings["keyword"] = _ms(t0)
    if "vector" in options.arms:
        t0 = time.perf_counter()
        try:
            vector = get_embedder().embed([indexed_query])[0]
            timings["embed"] = _ms(t0)
            t1 = time.perf_counter()
            pairs = arms.vector_arm(tenant=tenant, chain_ids=chain_ids, kinds=kinds, vector=vector, depth=depth)
            timings["vector"] = _ms(t1)
            arm_ids["vector"] = [memory_id for memory_id, _ in pairs]
            cosines = dict(pairs)
        except Exception as exc:  # the embedder (or its arm) failing degrades search, never fails it
            logger.warning("vector arm unavailable: %s", exc)
            degraded.append("vector")
    if "relational" in options.arms and parsed is not None:
        t0 = time.perf_counter()
        try:
            relational_hit = arms.relational_arm(
                tenant=tenant, chain_ids=chain_ids, kinds=kinds, parsed=parsed, depth=depth
            )
            arm_ids["relational"] = relational_hit.memory_ids
        except Exception as exc:  # fail-open: an empty arm, never a failed search
            logger.warning("relational arm failed for %r: %s", query[:100], exc)
            degraded.append("relational")
        timings["relational"] = _ms(t0)

    t0 = time.perf_counter()
    memories = _load(tenant, {memory_id for ids in arm_ids.values() for memory_id in ids})
    candidates = {
        memory.pk: Candidate(
            memory_id=memory.pk,
            content_hash=memory.content_hash,
            level=memory.scope.level,
            title=memory.title,
            created_at=memory.created_at,
            last_accessed_at=memory.last_accessed_at,
            access_count=memory.access_count,
            cosine=cosines.get(memory.pk),
        )
        for memory in memories.values()
    }
    config = RankingConfig().with_tier_overrides(policy["tier_boost"] or {})
    if relational_hit is not None and relational_hit.edges:
        weight = options.relational_weight if options.relational_weight is not None else RELATIONAL_WEIGHT_WITH_EDGES
        config = replace(config, arm_weights={**config.arm_weights, "relational": weight})
    ranked: list[Ranked] = (
        rank(
            arms={name: [i for i in ids if i in candidates] for name, ids in arm_ids.items()},
            candidates=candidates,
            query=query,
            now=timezone.now(),
            top_k=options.top_k,
            autocut_enabled=options.autocut,
            config=config,
        )
        if candidates
        else []
    )
    timings["rank"] = _ms(t0)
    hits = [
        SearchHit(
            memory=memories[item.memory_id], score=item.score, explain=dict(item.explain) if options.explain else None
        )
        for item in ranked
    ]
    result = SearchResult(hits=hits, degraded=degraded, relational=parsed, timings_ms=timings)
    rows = [_row(hit.memory) for hit in hits] if options.synthesize or options.gaps else []
    if options.synthesize:
        result.answer = synthesize(
            question=query,
            rows=rows,
            llm=llm,
            relational=parsed,
            edges=[
                Edge(subject=s, relationship=r, object=o, memory_id=m)
                for s, r, o, m in (relational_hit.edges if relational_hit else [])
            ],
        )
    if options.gaps:
        result.gaps = analyze_gaps(
            query=query,
            rows=rows,
            entity_last_seen=_entity_last_seen(tenant, chain_ids, relational_hit),
            now=timezone.now(),
            top_score=hits[0].score if hits else None,
        )
    if options.track_access and hits:
        access_schedule(memory_ids=[hit.memory.pk for hit in hits])
    result.timings_ms["total"] = _ms(started)
    return result


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def _clean_query(query: Any) -> str:
    if not isinstance(query, str):
        raise ValidationFailed("query must be a string", details={"query": ["must be a string"]})
    if "\x00" in query:
        raise ValidationFailed("query contains a NUL byte", code="nul_byte", details={"query": ["NUL byte"]})
    query = query.strip()
    if not query:
        raise ValidationFailed("query is empty", code="empty_query", details={"query": ["must not be empty"]})
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationFailed(f"query is longer than {MAX_QUERY_CHARS} characters", details={"query": ["too long"]})
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationFailed("query is not valid Unicode", code="invalid_encoding", details={"query": ["bad"]})
    return query


def _clean_kinds(kinds: tuple[str, ...]) -> list[str]:
    if not kinds:
        return list(MemoryKind.values)
    bad = [kind for kind in kinds if kind not in MemoryKind.values]
    if bad:
        raise ValidationFailed(
            f"unknown kind(s) {', '.join(map(str, bad))}", code="invalid_kind", details={"kinds": bad}
        )
    return list(kinds)


def _restrict_scopes(tenant: Tenant, chain: list, scopes: tuple[str, ...]) -> list[int]:
    chain_ids = [node.pk for node in chain]
    if not scopes:
        return chain_ids
    wanted = []
    for tag in scopes:
        scope = scope_get_by_tag(tenant=tenant, tag=str(tag))
        if scope.pk not in chain_ids:
            raise ValidationFailed(
                f"scope {tag!r} is not on the user's scope chain", code="scope_not_on_chain", details={"scopes": [tag]}
            )
        wanted.append(scope.pk)
    return wanted


def _load(tenant: Tenant, ids: set[int]) -> dict[int, Memory]:
    if not ids:
        return {}
    rows = (
        Memory.objects.filter(tenant=tenant, pk__in=ids).select_related("scope").defer("search_vector", "dedup_bands")
    )
    return {memory.pk: memory for memory in rows}


def _row(memory: Memory) -> SourceRow:
    return SourceRow(memory_id=memory.pk, title=memory.title, content=memory.content, created_at=memory.created_at)


def _entity_last_seen(tenant: Tenant, chain_ids: list[int], hit: arms.RelationalHit | None) -> dict[str, datetime]:
    if hit is None or not hit.entity_ids:
        return {}
    from graph.selectors import visible_links

    rows = (
        visible_links(tenant=tenant, chain_ids=chain_ids)
        .filter(subject_id__in=hit.entity_ids)
        .values("subject_id")
        .annotate(last=Max("memory__created_at"))
    )
    names = dict(Entity.objects.filter(pk__in=hit.entity_ids).values_list("pk", "name"))
    return {names[row["subject_id"]]: row["last"] for row in rows if row["subject_id"] in names}
