"""The search service that the API, the admin playground, the ADK adapter and the commands all call.

One pipeline with named stages (``search_memories``), each a small function:

1. ``understand`` — validate the input, tokenize the question, list the n-grams that could name entities (pure);
2. ``context``   — the caller's scope chain, policies and the entities the question names (statement 1);
3. ``plan``      — link the mentions and plan the relational walk (pure: ``retrieval.relational_query``);
4. ``retrieve``  — the keyword and vector arms in one statement (2), the relational walk (3);
5. ``fuse``      — rank the candidates (pure: ``retrieval.ranking``) and load the page (4), with the
   conversational and truth steps the settings list (``retrieval.conversation``);
6. ``answer``    — abstention, cited answers and gaps (pure passes over the ranked rows).

At most four SQL statements per search (``tests/retrieval/test_search_pipeline.py`` counts them); gap analysis,
when asked for, adds one.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from django.db.models import Max
from django.utils import timezone

from graph.selectors import visible_links
from graph.vocabulary import ATTRIBUTES_BY_VALUE, DUE_DATE, fits
from memories.background import access_schedule
from memories.embedding import tenant_embedder
from memories.indexing_text import expand_glossary
from memories.models import PROJECT_LEVEL, Memory, MemoryKind, Scope, Tenant
from memories.selectors import project_name_clean
from memories.temporal import query_window
from orgmemory.errors import NotFound, ValidationFailed
from orgmemory.observability.stages import search_stage, traced_search
from orgmemory.text import NUL_BYTE, text_problem
from retrieval import abstention, selectors
from retrieval.conversation import Page, search_steps
from retrieval.conversation.page import run
from retrieval.conversation.truth import asks_about_the_past, current_rows
from retrieval.conversation.turns import turn_names
from retrieval.fact_answers import FactOutcome, fact_outcome
from retrieval.fact_questions import attribute_question
from retrieval.ranking import Candidate, RankingConfig, rank
from retrieval.relational_query import (
    Ambiguity,
    RelationalPlan,
    RelationalQuery,
    link_mentions,
    mention_candidates,
    partial_candidates,
    partial_covers,
    plan_relational,
    spoken_forms,
    tokenize,
)
from retrieval.speakers import not_written_as_names, without_speakers, written_as_names
from retrieval.synthesis import Answer, Edge, Gaps, SourceRow, SynthesisLLM, analyze_gaps, path_answer, synthesize
from retrieval.synthesis.answers import with_ambiguity
from retrieval.synthesis.dates import DatedRow, date_answer, is_when_question
from retrieval.text import is_question, split_sentences

logger = logging.getLogger(__name__)

MAX_TOP_K = 50
MAX_QUERY_CHARS = 2000
# Chosen with eval_retrieval: autocut cost recall on every set; it stays a per-request option.
DEFAULT_AUTOCUT = False
# The design's relational weight for "about X" plans (the graph knows the entity, not the answer).
RELATIONAL_WEIGHT_ABOUT = 0.5
QUERY_EMBEDDING_CACHE = 1024


@dataclass(frozen=True)
class SearchOptions:
    top_k: int = 10
    autocut: bool = DEFAULT_AUTOCUT
    explain: bool = False
    synthesize: bool = False
    gaps: bool = False
    kinds: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    project: str | None = None  # also search this project's memories (404 unknown_project if none on the chain)
    arms: tuple[str, ...] = ("keyword", "vector", "relational")  # the benchmark switches arms off
    track_access: bool = True
    context_turns: int = 0  # neighbouring session turns on each side of a session hit (0..MAX_CONTEXT_TURNS)
    as_of: datetime | None = None  # the memories as they stood then (None: now, the live ones)


@dataclass
class SearchHit:
    memory: Memory
    score: float
    explain: dict[str, Any] | None = None
    context: list[selectors.ContextTurn] | None = None  # asked for with context_turns, for session hits
    # open contradictions with other hits (retrieval.conversation.truth)
    contradicts: list[int] = field(default_factory=list)


@dataclass
class SearchResult:
    hits: list[SearchHit]
    degraded: list[str] = field(default_factory=list)
    answer: Answer | None = None
    gaps: Gaps | None = None
    relational: RelationalQuery | None = None
    plan: RelationalPlan | None = None
    no_relevant_memory: bool = False
    confidence: float = 0.0
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass
class _Retrieved:
    arms: selectors.ArmCandidates
    walk: selectors.Walk | None = None
    relational_ids: list[int] = field(default_factory=list)
    answered: bool = False  # typed edges reached an answer
    degraded: list[str] = field(default_factory=list)


@traced_search
def search_memories(
    *,
    tenant: Tenant,
    user_id: str,
    query: str,
    options: SearchOptions = SearchOptions(),
    llm: SynthesisLLM | None = None,
) -> SearchResult:
    """Ranked memories visible to ``user_id`` (their scope chain) for ``query``.

    Visibility is decided in every statement's SQL. A failing embedder drops the vector arm (``degraded:
    ["vector"]``); a failing relational walk drops itself; neither fails the search.
    """
    started = time.perf_counter()
    timings: dict[str, float] = {}
    # 1. understand
    query = _clean_query(query)
    if not 1 <= options.top_k <= MAX_TOP_K:
        raise ValidationFailed(f"top_k must be between 1 and {MAX_TOP_K}", details={"top_k": [options.top_k]})
    if not 0 <= options.context_turns <= selectors.MAX_CONTEXT_TURNS:
        raise ValidationFailed(
            f"context_turns must be between 0 and {selectors.MAX_CONTEXT_TURNS}",
            details={"context_turns": [options.context_turns]},
        )
    kinds = _clean_kinds(options.kinds)
    tokens = tokenize(query)
    relational = "relational" in options.arms
    spans = mention_candidates(tokens) if relational or "vector" in options.arms else {}
    # the names as people use them (capitalised words and runs of them): the relational arm's partial names, and
    # the names the context statement looks up among the caller's speakers for the vector arm
    names = partial_candidates(query, tokens, spans)
    partials = names if relational else []
    # ordinary words the question does not write as names ("in May 2025", "Will …?") name no speaker
    unnamed = not_written_as_names(query, tokens)
    speaker_norms = (
        spoken_forms(written_as_names(names, tokens, spans, unnamed), tokens, spans) if "vector" in options.arms else []
    )
    # 2. context; the question is embedded meanwhile (most questions name no glossary term, so the text the arms
    # embed is the question itself)
    ahead = _query_embedding_ahead(query, tenant) if "vector" in options.arms else None
    project = project_name_clean(options.project)
    with search_stage("context", timings):
        context = selectors.search_context(
            tenant=tenant,
            user_id=user_id,
            norms=list(spans) if relational else [],
            project=project,
            partials=partials,
            partial_covers=partial_covers(partials, spans),
            speaker_norms=speaker_norms,
        )
    if not context.chain:
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    if project is not None and not context.projects:
        raise NotFound(f"unknown project {project!r} on this user's scope chain", code="unknown_project")
    chain_ids = _restrict_scopes(tenant, context.chain, options.scopes)
    # a project adds its nodes under the (restricted) chain: global memories plus that project's, nothing wider
    chain_ids += [node for node, owner in context.projects.items() if owner in chain_ids]
    # 3. plan
    with search_stage("plan", timings):
        plan, ambiguous = _plan(query, tokens, spans if relational else {}, context)
    # 4. retrieve
    depth = max(30, 5 * options.top_k)
    # a time expression of the question ("last week") names a window relative to as_of: a boost, never a filter
    window = query_window(_asked(query), as_of=options.as_of or timezone.now())
    retrieved = _retrieve(
        tenant=tenant,
        as_of=options.as_of,
        window=(window.start, window.end) if window is not None else None,
        chain_ids=chain_ids,
        kinds=kinds,
        query=query,
        glossary=context.glossary,
        plan=plan,
        depth=depth,
        arms=options.arms,
        timings=timings,
        ahead=ahead,
        named=[ref.entity_id for refs in context.entities.values() for ref in refs],
        speakers=context.speakers,
    )
    # 5. fuse
    levels = {node.scope_id: node.level for node in context.chain} | dict.fromkeys(context.projects, PROJECT_LEVEL)
    with search_stage("fuse", timings):
        # how things stand (no date window, nothing asked of the past): a speaker's later word first
        asks_when = is_when_question(query)
        current = window is None and not asks_about_the_past(query, asks_a_date=asks_when)
        page = _fuse(
            tenant=tenant,
            query=query,
            retrieved=retrieved,
            levels=levels,
            tier_boost=context.tier_boost,
            plan=plan,
            options=options,
            chain_ids=chain_ids,
            kinds=kinds,
            current=current,
            # a question about when something happened (a date window, or "when" of the past, not of how things
            # stand: "When does the choir meet now?" asks for the current day, not the questions that led to it)
            dates=window is not None or (asks_when and not current),
            speakers=context.speakers,
            unnamed=unnamed,
        )
    hits, contexts = list(page.hits), page.contexts
    # a question about an attribute of someone or something: the facts say what holds (or that nothing visible does)
    facts = None
    if relational:
        with search_stage("facts", timings):
            facts = _facts(
                tenant=tenant,
                user_id=user_id,
                query=query,
                tokens=tokens,
                spans=spans,
                context=context,
                chain_ids=chain_ids,
                as_of=options.as_of,
                window=(window.start, window.end) if window is not None else None,
                hits=hits,
            )
        # typed edges that answered keep their ranking (the entity pages they reach) unless the facts read the
        # subject's attribute over one hop: they know when each value held, the edges do not
        one_hop = plan is None or len(plan.hops) <= 1
        if facts is not None and (not retrieved.answered or (facts.read and one_hop)):
            hits = _facts_first(hits, facts.lead, explain=options.explain)
    # 6. answer
    result = SearchResult(
        hits=hits,
        degraded=retrieved.degraded,
        plan=plan,
        relational=plan.as_query() if plan is not None else None,
        timings_ms=timings,
    )
    result.confidence, result.no_relevant_memory = _relevance(retrieved, hits)
    if facts is not None and facts.answer.kind == "fact":
        result.no_relevant_memory = False
    elif facts is not None and facts.no_relevant:
        result.no_relevant_memory = True
    rows = [_row(hit.memory) for hit in hits] if options.synthesize or options.gaps else []
    if options.synthesize:
        with search_stage("answer", timings):
            current = current_rows(rows, hits)  # the losing side of an open contradiction answers nothing
            result.answer = _answer(
                query=query, rows=current, llm=llm, plan=plan, retrieved=retrieved, result=result, ambiguous=ambiguous
            )
            # a "when" question is answered with the date its best dated hit states, cited (no LLM needed)
            if not result.answer.used_llm and not result.no_relevant_memory and asks_when:
                result.answer = (
                    date_answer(
                        question=query,
                        hits=[
                            _dated(
                                hit.memory, contexts.get(hit.memory.pk, ()), retrieved.arms.cosines.get(hit.memory.pk)
                            )
                            for hit in hits
                        ],
                        today=(options.as_of or timezone.now()).date(),
                    )
                    or result.answer
                )
    if (
        options.synthesize
        and facts is not None
        and not result.answer.used_llm
        and _facts_answer(facts, result, asks_when=asks_when, answered=retrieved.answered)
    ):
        result.answer = facts.answer
    if options.gaps:
        result.gaps = analyze_gaps(
            query=query,
            rows=rows,
            entity_last_seen=_entity_last_seen(tenant, chain_ids, plan),
            now=timezone.now(),
            top_score=hits[0].score if hits else None,
        )
    if options.track_access and hits:
        access_schedule(memory_ids=[hit.memory.pk for hit in hits])
    result.timings_ms["total"] = _ms(started)
    return result


# --- stages --------------------------------------------------------------------------------------------------------


def _facts(
    *,
    tenant: Tenant,
    user_id: str,
    query: str,
    tokens,
    spans: dict,
    context: selectors.SearchContext,
    chain_ids: list[int],
    as_of,
    window,
    hits: list[SearchHit],
) -> FactOutcome | None:
    """What the facts say of the attribute the question asks about (retrieval.fact_answers), or None when it asks
    about none or names no subject the tenant knows."""
    question = attribute_question(query, tokens, spans, dated=window is not None)
    if question is None:
        return None
    # only entities that can have the attribute are its subject: a person has no due date ("the date of Mei's
    # concert" asks about an event of hers), a service lives nowhere
    kinds = ATTRIBUTES_BY_VALUE[question.attribute].subjects
    subject_ids = {
        norm: [ref.entity_id for ref in refs if fits(ref.kind, kinds)]
        for norm, refs in {**context.partial, **context.entities}.items()
    }
    return fact_outcome(
        tenant=tenant,
        user_id=user_id,
        question=question,
        subject_ids=subject_ids,
        chain_ids=chain_ids,
        as_of=as_of,
        window=window,
        page=[hit.memory for hit in hits],
        now=timezone.now(),
    )


def _facts_answer(facts: FactOutcome, result: SearchResult, *, asks_when: bool, answered: bool) -> bool:
    """Whether the facts answer rather than what else answered. Typed edges know no time and one relationship: the
    facts answer over them when they read the subject's attribute, or when the edges answered another relationship
    than the one asked ("Omar's job title"). Not over a path of edges (the attribute is a clause of the question:
    "the investors of the company Alice works at"), nor over a "when" question's date, unless it asks a due date."""
    attribute = ATTRIBUTES_BY_VALUE[facts.attribute]
    if asks_when and attribute.value != DUE_DATE:
        return False
    if result.plan is not None and len(result.plan.hops) > 1:
        return False
    edges_asked = result.relational.relationship if result.relational is not None else None
    return facts.read or not answered or edges_asked != attribute.relationship


def _facts_first(hits: list[SearchHit], lead: list[tuple[int, str]], *, explain: bool) -> list[SearchHit]:
    """The memories stating the answer's facts first, in order (loaded when the page did not have them: they are
    visible, as every fact read is), then the rest of the page."""
    if not lead:
        return hits
    by_id = {hit.memory.pk: hit for hit in hits}
    missing = [memory_id for memory_id, _ in lead if memory_id not in by_id]
    if missing:
        for memory in Memory.objects.filter(pk__in=missing).select_related("scope"):
            by_id[memory.pk] = SearchHit(memory=memory, score=0.0, explain={} if explain else None)
    top = max((hit.score for hit in hits), default=0.0)
    first = []
    for memory_id, why in lead:
        hit = by_id.get(memory_id)
        if hit is None or hit in first:
            continue
        hit.score = max(hit.score, top)
        if hit.explain is not None:
            hit.explain["fact"] = why
        first.append(hit)
    return first + [hit for hit in hits if hit not in first]


def _plan(
    query: str, tokens, spans: dict, context: selectors.SearchContext
) -> tuple[RelationalPlan | None, tuple[Ambiguity, ...]]:
    """The relational plan and the partial names left ambiguous (the answer says which entities they could be,
    even when nothing else was linked)."""
    entities = {norm: [(ref.entity_id, ref.name, ref.kind) for ref in refs] for norm, refs in context.entities.items()}
    partial = {norm: [(ref.entity_id, ref.name, ref.kind) for ref in refs] for norm, refs in context.partial.items()}
    try:
        mentions, ambiguous = link_mentions(query, tokens, spans, entities, partial)
        plan = plan_relational(query, tokens, mentions)
        return (replace(plan, ambiguous=ambiguous) if plan is not None else None), ambiguous
    except Exception:  # fail-open: a planning bug leaves the relational arm empty, never fails a search
        logger.exception("relational planning failed (%d-character query)", len(query))  # no query text: PII
        return None, ()


def _retrieve(
    *,
    tenant: Tenant,
    chain_ids: list[int],
    kinds: list[str],
    query: str,
    glossary: dict[str, str],
    plan: RelationalPlan | None,
    depth: int,
    arms: tuple[str, ...],
    timings: dict[str, float],
    ahead: Future | None = None,
    named: list[int] | None = None,
    as_of: datetime | None = None,
    window: tuple[date, date] | None = None,
    speakers: Sequence[str] = (),
) -> _Retrieved:
    indexed_query = expand_glossary(query, glossary)
    # the vector arm embeds the question without the names of people who speak in the caller's sessions
    # (retrieval.speakers: a name is in the turns that address its speaker, not in what they say)
    embedded_query = without_speakers(indexed_query, speakers)
    degraded: list[str] = []
    vector = None
    if "vector" in arms:
        # "embed": what is left of the embedding once the context is read
        with search_stage("embed", timings):
            try:
                if ahead is not None and embedded_query == query:
                    vector = ahead.result()
                else:  # the glossary expanded the question (the arms embed what the chunks were embedded with),
                    # or it names a speaker
                    vector = _query_embedding(embedded_query, tenant)
            except Exception as exc:  # the embedder failing degrades search, never fails it
                logger.warning("vector arm unavailable: %s", exc)
                degraded.append("vector")
    # the keyword and vector arms are one statement: one stage
    with search_stage("keyword+vector", timings):
        candidates = selectors.arm_candidates(
            tenant=tenant,
            chain_ids=chain_ids,
            kinds=kinds,
            depth=depth,
            query=indexed_query if "keyword" in arms else None,
            vector=vector,
            named=named or (),
            as_of=as_of,
            window=window,
        )
    retrieved = _Retrieved(arms=candidates, degraded=degraded)
    if "relational" in arms and plan is not None:
        with search_stage("relational", timings):
            try:
                retrieved.walk = selectors.relational_walk(
                    tenant=tenant,
                    chain_ids=chain_ids,
                    kinds=kinds,
                    seed_ids=[entity_id for mention in plan.seeds for entity_id in mention.entity_ids[:3]],
                    hops=plan.hops,
                    depth=depth,
                    as_of=as_of,
                )
                retrieved.relational_ids, retrieved.answered = _relational_order(plan, retrieved.walk, depth)
            except Exception as exc:  # fail-open: an empty arm, never a failed search
                logger.warning("relational arm failed (%d-character query): %s", len(query), exc)
                degraded.append("relational")
    return retrieved


def _final_entities(plan: RelationalPlan, walk: selectors.Walk) -> list[int]:
    finals = walk.reached(len(plan.hops))
    if plan.target is not None:
        wanted = [entity_id for entity_id in finals if entity_id in plan.target.entity_ids]
        finals = wanted or finals
    return finals


def _relational_order(plan: RelationalPlan, walk: selectors.Walk, depth: int) -> tuple[list[int], bool]:
    """The relational arm's memories best first, and whether typed edges reached an answer.

    A relationship plan: the memories about the final entities, then those stating the last hop's edges, then
    the memories about (and stating) the intermediate steps. An "about" plan: the memories about the seeds.
    """
    about: dict[int, list[int]] = {}
    for entity_id, memory_id in walk.about:
        about.setdefault(entity_id, []).append(memory_id)
    if plan.is_about:
        seeds = [entity_id for mention in plan.seeds for entity_id in mention.entity_ids]
        return list(dict.fromkeys(m for e in seeds for m in about.get(e, [])))[:depth], False
    finals = _final_entities(plan, walk)
    final_set = set(finals)
    last = len(plan.hops)
    ordered = [memory_id for entity_id in finals for memory_id in about.get(entity_id, [])]
    ordered += [e.memory_id for e in walk.edges if e.hop == last and e.reached_id in final_set and e.memory_kind_ok]
    for hop in range(last - 1, 0, -1):
        ordered += [memory_id for entity_id in walk.reached(hop) for memory_id in about.get(entity_id, [])]
        ordered += [edge.memory_id for edge in walk.edges if edge.hop == hop and edge.memory_kind_ok]
    return list(dict.fromkeys(ordered))[:depth], bool(finals)


def _fuse(
    *,
    tenant: Tenant,
    query: str,
    retrieved: _Retrieved,
    levels: dict[int, str],
    tier_boost: dict[str, float],
    plan: RelationalPlan | None,
    options: SearchOptions,
    chain_ids: list[int],
    kinds: list[str],
    current: bool = False,
    dates: bool = False,
    speakers: Sequence[str] = (),
    unnamed: set[str] = frozenset(),
) -> Page:
    """Rank the candidates on what the arms' statements returned of them (``levels``: scope id → level, the
    caller's chain), load the page's rows in one statement and order its hits, with the conversational and truth
    steps (``retrieval.conversation``) the settings list, each at its point: weighing the candidates, asking the
    load statement for turns, attaching those turns, ordering the hits."""
    steps = search_steps()
    page = _unranked(query, retrieved, levels, tier_boost, plan, options)
    if not page.candidates:
        return page
    page = replace(page, current=current, dates=dates, speakers=tuple(speakers), unnamed=frozenset(unnamed))
    page = run(steps, "weigh", page)
    page = run(steps, "ask", _ranked(page, retrieved, options))
    page = run(steps, "attach", _load(page, tenant=tenant, options=options, chain_ids=chain_ids, kinds=kinds))
    return run(steps, "order", _hits(page, options))


def _unranked(
    query: str,
    retrieved: _Retrieved,
    levels: dict[int, str],
    tier_boost: dict[str, float],
    plan: RelationalPlan | None,
    options: SearchOptions,
) -> Page:
    """The page before ranking: each arm's list, the candidates they returned and the ranking configuration. When
    typed edges answered, the relational arm leads (its rows first, in its order): the graph knows the answer, and
    fusion must not rank below its best arm. Ranking's phatic damping starts off: the ``phatic`` step sets it."""
    arm_ids = {}
    if "keyword" in options.arms:
        arm_ids["keyword"] = retrieved.arms.keyword
    if "vector" in options.arms and "vector" not in retrieved.degraded:
        arm_ids["vector"] = retrieved.arms.vector
    if retrieved.walk is not None:
        arm_ids["relational"] = retrieved.relational_ids
    rows = {**retrieved.arms.rows, **(retrieved.walk.rows if retrieved.walk is not None else {})}
    candidates = {
        memory_id: _candidate(memory_id, rows[memory_id], levels, retrieved.arms.cosines.get(memory_id))
        for ids in arm_ids.values()
        for memory_id in ids
        if memory_id in rows
    }
    config = RankingConfig().with_tier_overrides(tier_boost)
    if not _conversational(retrieved.arms.rows, candidates):
        config = replace(config, score_fusion=None)
    if retrieved.answered:
        config = replace(config, lead_arm="relational")
    elif plan is not None:
        config = replace(config, arm_weights={**config.arm_weights, "relational": RELATIONAL_WEIGHT_ABOUT})
    return Page(
        query=query,
        top_k=options.top_k,
        rows=retrieved.arms.rows,
        arms={name: [i for i in ids if i in candidates] for name, ids in arm_ids.items()},
        candidates=candidates,
        config=replace(config, phatic_factor=1.0),
    )


def _ranked(page: Page, retrieved: _Retrieved, options: SearchOptions) -> Page:
    """The page ranked (pure: ``retrieval.ranking.rank``) with what the steps weighed, and the names each of its
    session turns uses (``retrieval.conversation.turns.turn_names``)."""
    ranked = rank(
        arms=page.arms,
        candidates=page.candidates,
        query=page.query,
        now=timezone.now(),
        top_k=options.top_k,
        autocut_enabled=options.autocut,
        config=page.config,
        keyword_confidence=_keyword_confidence(retrieved.arms),
        keyword_shares=_keyword_shares(retrieved.arms),
        participants=page.participants,
        dated=retrieved.arms.in_window,
        third_party=page.third_party,
    )
    return replace(page, ranked=ranked, names=turn_names(ranked, page.rows))


def _hits(page: Page, options: SearchOptions) -> Page:
    """The page's hits, in its order: the loaded rows of its ranked ids (a row deleted since the arms read it is
    left out), each with its explanation and neighbouring turns when asked for."""
    hits = [
        SearchHit(
            memory=page.loaded[item.memory_id],
            score=item.score,
            explain=dict(item.explain) if options.explain else None,
            context=page.contexts.get(item.memory_id) if options.context_turns else None,
        )
        for item in page.ranked
        if item.memory_id in page.loaded
    ]
    return replace(page, hits=hits)


def _load(page: Page, *, tenant: Tenant, options: SearchOptions, chain_ids: list[int], kinds: list[str]) -> Page:
    """The page's rows, read in one statement with each session hit's neighbouring turns (when asked for) and the
    turns the steps asked for."""
    asked = page.follow_ups or page.introduced or page.reply_to or page.prompted
    with search_stage("load"):
        loaded = selectors.memories_load(
            tenant=tenant,
            ids=[item.memory_id for item in page.ranked],
            # a "when" answer may read the date from the reply to a hit ("Did you go?" / "Yes, yesterday")
            context_turns=options.context_turns or int(options.synthesize and is_when_question(page.query)),
            follow=(
                selectors.FollowUps(
                    page.follow_ups,
                    chain_ids,
                    kinds,
                    options.as_of,
                    reply_to=page.reply_to,
                    repliers=page.speakers,
                    introduced=page.introduced,
                    relatives=page.relatives,
                    prompted=page.prompted,
                )
                if asked
                else None
            ),
            as_of=options.as_of,
        )
    return replace(
        page,
        loaded=loaded.memories,
        contexts=loaded.contexts,
        followed=loaded.followed,
        introductions=loaded.introductions,
        answers=loaded.answers,
        prompts=loaded.prompts,
    )


def _conversational(rows: dict[int, selectors.RankingRow], candidates: dict) -> bool:
    """Most candidates are session turns: their keyword and vector lists fuse by score (a short turn's BM25 rank says
    little; its share of the question's possible score and its cosine do), a pool of pages and notes by rank (both
    ways are measured in bench/HISTORY.md)."""
    turns = sum(1 for memory_id in candidates if memory_id in rows and rows[memory_id].is_turn)
    return turns * 2 >= len(candidates)


def _keyword_confidence(arms: selectors.ArmCandidates) -> float:
    """The keyword arm's best BM25 score as a share of the most the query's known terms allow (0 without one)."""
    if not arms.bm25 or arms.bm25_ceiling <= 0:
        return 0.0
    return min(1.0, max(arms.bm25.values()) / arms.bm25_ceiling)


def _keyword_shares(arms: selectors.ArmCandidates) -> dict[int, float]:
    """Each keyword row's BM25 score as a share of the most the query's known terms allow."""
    if arms.bm25_ceiling <= 0:
        return {}
    return {memory_id: score / arms.bm25_ceiling for memory_id, score in arms.bm25.items()}


def _asked(query: str) -> str:
    """The part of ``query`` that is asked: its interrogative sentences (split as extractive answers split them)
    when it has any, else all of it. A time expression in a declarative sentence before the question ("We found a
    box bought last autumn. Can …?") describes the asker's situation, not the time of the memories wanted, so it
    opens no date window."""
    asked = [sentence for sentence in split_sentences(query) if is_question(sentence)]
    return " ".join(asked) if asked else query


def _candidate(memory_id: int, row: selectors.RankingRow, levels: dict[int, str], cosine: float | None) -> Candidate:
    return Candidate(
        memory_id=memory_id,
        content_hash=row.content_hash,
        level=levels.get(row.scope_id, PROJECT_LEVEL),  # every candidate's scope is on the chain or one of its projects
        title=row.title,
        created_at=row.created_at,
        cosine=cosine,
        turn_words=row.turn_words,
    )


def _relevance(retrieved: _Retrieved, hits: list[SearchHit]) -> tuple[float, bool]:
    """(confidence in [0, 1], no_relevant_memory), decided by :mod:`retrieval.abstention` from what the arms
    measured about everything visible they found, on the page or not: ranking's own adjustments (a greeting turn
    damped below the page, a speaker's later word moved up) reorder what was found, they do not make it more or
    less relevant to the question."""
    arms = retrieved.arms
    best = max(arms.bm25.values(), default=0.0) if hits else 0.0
    signals = abstention.Signals(
        hits=len(hits),
        answered=retrieved.answered,
        bm25_share=abstention.bm25_share(
            best=best,
            ceiling=arms.bm25_ceiling,
            query_lexemes=arms.query_lexemes,
            known_lexemes=arms.known_lexemes,
        ),
        cosine=max(arms.cosines.values(), default=0.0) if hits else 0.0,
    )
    return abstention.decide(signals)


def _answer(
    *,
    query: str,
    rows: list[SourceRow],
    llm: SynthesisLLM | None,
    plan: RelationalPlan | None,
    retrieved: _Retrieved,
    result: SearchResult,
    ambiguous: tuple[Ambiguity, ...] = (),
) -> Answer:
    walk = retrieved.walk
    edges: list[Edge] = []
    path = None
    if plan is not None and walk is not None and retrieved.answered:
        final_set = set(_final_entities(plan, walk))
        last = len(plan.hops)
        by_hop: dict[int, list[Edge]] = {}
        for edge in walk.edges:
            if edge.hop == last and edge.reached_id not in final_set:
                continue
            by_hop.setdefault(edge.hop, []).append(Edge(edge.subject, edge.relationship, edge.object, edge.memory_id))
        if last > 1:
            steps = [(hop.relationship, hop.direction, by_hop.get(i, [])) for i, hop in enumerate(plan.hops, start=1)]
            path = path_answer(seed=plan.seeds[0].name, steps=steps)
        else:
            edges = by_hop.get(1, [])
    elif plan is not None and walk is not None:
        edges = [Edge(e.subject, e.relationship, e.object, e.memory_id) for e in walk.edges]
    answer = synthesize(
        question=query,
        rows=rows,
        llm=llm,
        relational=result.relational,
        edges=edges,
        path=path,
        no_relevant=result.no_relevant_memory,
    )
    return with_ambiguity(answer, ambiguous)


# --- helpers ---------------------------------------------------------------------------------------------------------


class _EmbeddingCache:
    """LRU of query embeddings keyed by the embedder's model and the normalised query text: a repeated question
    (agents re-ask) skips the model call."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str, tenant: Tenant) -> list[float]:
        # the embedder the tenant's stored vectors are from (until a re-embed switches it), asked for a question
        embedder = tenant_embedder(tenant=tenant)
        key = (embedder.name, " ".join(text.split()).casefold())
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        vector = list(embedder.embed_queries([text])[0])
        with self._lock:
            self._items[key] = vector
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return vector

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_embedding_cache = _EmbeddingCache(QUERY_EMBEDDING_CACHE)


def _query_embedding(text: str, tenant: Tenant) -> list[float]:
    return _embedding_cache.get(text, tenant)


_ahead_lock = threading.Lock()
_ahead: tuple[int, ThreadPoolExecutor] | None = None  # (pid, executor): a forked worker starts its own thread


def _query_embedding_ahead(text: str, tenant: Tenant) -> Future:
    """``_query_embedding(text, tenant)`` on this process's embedding thread, so that it overlaps the context statement:
    the model and the driver's wait both release the GIL, so most of the embedding is hidden. Its exception, if
    any, is raised by ``result()``."""
    global _ahead
    with _ahead_lock:
        if _ahead is None or _ahead[0] != os.getpid():
            _ahead = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="orgmemory-query-embedding"))
        executor = _ahead[1]
    return executor.submit(_query_embedding, text, tenant)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def _clean_query(query: Any) -> str:
    if not isinstance(query, str):
        raise ValidationFailed("query must be a string", details={"query": ["must be a string"]})
    problem = text_problem(query)
    if problem == NUL_BYTE:
        raise ValidationFailed("query contains a NUL byte", code=NUL_BYTE, details={"query": ["NUL byte"]})
    query = query.strip()
    if not query:
        raise ValidationFailed("query is empty", code="empty_query", details={"query": ["must not be empty"]})
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationFailed(f"query is longer than {MAX_QUERY_CHARS} characters", details={"query": ["too long"]})
    if problem is not None:
        raise ValidationFailed("query is not valid Unicode", code=problem, details={"query": ["bad"]})
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


def _restrict_scopes(tenant: Tenant, chain: list[selectors.ChainNode], scopes: tuple[str, ...]) -> list[int]:
    """The chain's scope ids, or only the requested tags among them (resolved against the chain itself; a tag
    off the chain costs one more statement to tell an unknown scope from one the user cannot see)."""
    chain_ids = [node.scope_id for node in chain]
    if not scopes:
        return chain_ids
    by_tag = {node.tag: node.scope_id for node in chain}
    wanted = []
    for tag in scopes:
        tag = str(tag)
        level, sep, key = tag.partition(":")
        if not sep or not level or not key:
            raise ValidationFailed(f"scope {tag!r} must be a tag `level:key`, e.g. team:platform", code="invalid_scope")
        if tag not in by_tag:
            if not Scope.objects.for_tenant(tenant).filter(level=level, key=key).exists():
                raise NotFound(f"unknown scope {tag!r}", code="unknown_scope")
            raise ValidationFailed(
                f"scope {tag!r} is not on the user's scope chain", code="scope_not_on_chain", details={"scopes": [tag]}
            )
        wanted.append(by_tag[tag])
    return wanted


def _dated(memory: Memory, context: Sequence[selectors.ContextTurn] = (), cosine: float | None = None) -> DatedRow:
    return DatedRow(
        memory_id=memory.pk,
        content=memory.content,
        event_dates=memory.event_dates or [],
        reference=memory.reference_time or memory.created_at,
        session=memory.source_session,
        reply=next((turn for turn in context if turn.id > memory.pk), None),
        cosine=cosine or 0.0,
    )


def _row(memory: Memory) -> SourceRow:
    return SourceRow(memory_id=memory.pk, title=memory.title, content=memory.content, created_at=memory.created_at)


def _entity_last_seen(tenant: Tenant, chain_ids: list[int], plan: RelationalPlan | None) -> dict[str, datetime]:
    if plan is None:
        return {}
    entity_ids = [entity_id for mention in plan.seeds for entity_id in mention.entity_ids]
    rows = (
        visible_links(tenant=tenant, chain_ids=chain_ids)
        .filter(subject_id__in=entity_ids)
        .values("subject_id", "subject__name")
        .annotate(last=Max("memory__created_at"))
    )
    return {row["subject__name"]: row["last"] for row in rows}
