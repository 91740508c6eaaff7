"""Reads of the search path — four SQL statements at most per search, visibility (tenant, the caller's scope
chain, live rows, kinds) enforced inside each:

1. :func:`search_context`: the caller's scope chain, the policies on it and the tenant entities the question may
   name, in one round trip;
2. :func:`arm_candidates`: the keyword and the vector arm together (each a CTE), best first;
3. :func:`relational_walk`: the typed edges of a relational plan hop by hop, and the memories about the entities
   reached (only when the question names a known entity);
4. :func:`memories_load`: the rows of the hits (the arms' statements return what ranking needs of every candidate,
   so only the top-k ranked memories are loaded whole).

Keyword arm — Okapi BM25 in PostgreSQL (docs/ARCHITECTURE.md, "Search path"):

    score(d, q) = Σ_{t ∈ q} idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d| / avgdl))
    idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))          (Lucene's form: never negative)

with ``k1 = 1.5`` and ``b = 0.5`` (swept on the development sets; rank_bm25's defaults are 1.5 / 0.75). ``N``,
``df`` and the average length come from the per-tenant statistics the triggers keep (``retrieval/models.py``).
``|d|`` is the number of distinct lexemes of the stored vector and ``tf`` the positions PostgreSQL keeps of the
lexeme (at most 255); both are read from the arm's own inverted index, ``retrieval_posting`` (``Posting``: one row
per live memory and lexeme, its scope, kind and expiry copied, all in the b-tree key or its INCLUDE columns), so
scoring is an index-only scan that reads no memory row and no stored vector.

Bounded cost: the query's lexemes are ordered by document frequency; the rarest ones whose document counts add up
to at most ``KEYWORD_CANDIDATES`` (always at least the rarest one) are *probed* in the postings of the caller's
scopes, and only those candidates are scored — on all query lexemes, by looking their postings up by memory. A
memory holding none of the probed (rare) lexemes could only score through the common ones, whose IDF is small
(MaxScore-style pruning); so the work per search is bounded by the candidate budget, not by how many rows a common
term matches, and it follows the caller's scopes, never other tenants' rows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from graph.models import Entity, EntityAlias, EntityLink
from graph.vocabulary import PERSON
from memories import visibility
from memories.indexing_text import TEXT_SEARCH_CONFIG
from memories.models import PROJECT_LEVEL, Member, Memory, Policy, Scope, Tenant
from memories.selectors.tenancy import scope_chain_cte
from memories.services.tenancy import policy_fold
from orgmemory.db_routing import read_connection
from orgmemory.rows import ModelColumns, build_all, select_list
from retrieval.conversation.third_party import TURN_TEXT_CHARS
from retrieval.relational_query import ALSO_FOLLOW, INBOUND, MAX_PARTIAL_MATCHES, SYMMETRIC, Hop
from retrieval.text import cached_content_terms

BM25_K1 = 1.5
BM25_B = 0.5
KEYWORD_CANDIDATES = 500  # rows scored per search at most
# nearest chunks each scope of the chain contributes, per memory of the arm's depth (a long memory has several);
# fewer cost the vector arm recall against an exact scan at scale for little time (bench/HISTORY.md)
CHUNKS_PER_MEMORY = 4
_MAX_QUERY_LEXEMES = 32
# Typos and misspelt names: a query lexeme the tenant's corpus does not hold stands for the tenant's lexeme closest to
# it by trigram similarity (pg_trgm), if at least this close, weighted by that similarity ("kafak" -> "kafka" at
# 0.33, "deploymnt" -> "deploy" at 0.55). The probe reads the trigram index of the tenants' vocabularies
# (term_statistic_lexeme_trgm), which grows with the number of distinct words, not with the memories. It replaced a
# trigram probe of memory titles, which read the posting lists of the question's trigrams over every title in the
# database or, once a very large tenant skewed the planner's statistics, every memory on the caller's chain
# (bench/HISTORY.md).
FUZZY_MIN_SIMILARITY = 0.3
_FUZZY_MIN_LENGTH = 4  # a shorter lexeme has too few trigrams to tell a typo from another word

# Visibility (memories.visibility) on a posting (retrieval.models.Posting): its scope, kind and expiry are copied
# from its memory, and only current memories have postings; a posting's expires_at is the earlier of its memory's
# expiry and the end of its validity, and its valid_from is copied too, so "valid now" is read from the index as well
_POSTING_BOUNDS = (visibility.EXPIRY, visibility.VALID_FROM)
LIVE_POSTING = f"""p.kind = ANY(%(kinds)s) AND {visibility.bounds_sql("p", _POSTING_BOUNDS, visibility.NOW)}"""

LIVE_MEMORY = f"""{visibility.visible_sql("m")} AND m.kind = ANY(%(kinds)s)"""

# As of a moment T (``as_of``): the memory as it stood then (memories.visibility). A search with ``as_of`` runs the
# same statements with these predicates in place of the live ones (:func:`as_of_sql`); a superseded version has no
# postings, so the keyword arm also scores the versions superseded after T from their stored vectors
# (``_HISTORY_CTE``: few rows, read through the memories' full-text index).
_LIVE_MOMENT = visibility.live_sql("m")  # inside LIVE_MEMORY and the walk's edge check
_AS_OF_MOMENT = visibility.live_sql("m", as_of=visibility.AS_OF)
AS_OF_MEMORY = f"""{visibility.visible_sql("m", as_of=visibility.AS_OF)} AND m.kind = ANY(%(kinds)s)"""
AS_OF_POSTING = f"""p.kind = ANY(%(kinds)s) AND {visibility.bounds_sql("p", _POSTING_BOUNDS, visibility.AS_OF)}
      AND (SELECT {visibility.recorded_sql("m")} FROM memories_memory m WHERE m.id = p.memory_id)"""
_HISTORY_CTE = f""",
history AS (
    SELECT m.id, sum(
        t.idf * x.tf * ({BM25_K1} + 1) / (x.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * x.doc_length / co.avgdl))
    ) AS score
    FROM memories_memory m
    CROSS JOIN LATERAL (
        SELECT l.lexeme, least(greatest(coalesce(cardinality(l.positions), 0), 1), 255) AS tf,
               length(m.search_vector) AS doc_length
        FROM unnest(m.search_vector) AS l(lexeme, positions, weights)
    ) x
    JOIN terms t ON t.lexeme = x.lexeme
    CROSS JOIN corpus co
    WHERE {visibility.superseded_after_sql("m")} AND {AS_OF_MEMORY}
      AND m.search_vector @@ (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) FROM terms)
    GROUP BY m.id
    ORDER BY score DESC, m.id
    LIMIT %(depth)s
),
keyword_as_of AS (
    SELECT * FROM (SELECT id, score FROM bm25 UNION ALL SELECT id, score FROM history) k
    ORDER BY score DESC, id LIMIT %(depth)s
)"""


def as_of_sql(sql: str) -> str:
    """``sql`` (a search statement) with the live predicates replaced by their as-of forms (``%(as_of)s``): the
    postings' and every memory's (``m``; ``LIVE_MEMORY`` holds it, so it becomes ``AS_OF_MEMORY``)."""
    return sql.replace(LIVE_POSTING, AS_OF_POSTING).replace(_LIVE_MOMENT, _AS_OF_MOMENT)


# A question's date window (memories.temporal.query_window) marks the candidates whose event dates fall inside it —
# or, for a memory without event dates, whose reference time does (a session turn's: when it was said; creation
# alone says nothing about when what a memory states happened): a ranking boost, never a filter
_IN_WINDOW = """(m.event_span && daterange(%(window_start)s::date, %(window_end)s::date, '[]')
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(m.event_dates) e
                    WHERE daterange(coalesce(e ->> 'start', e #>> '{}')::date, coalesce(e ->> 'end', e #>> '{}')::date,
                                    '[]') && daterange(%(window_start)s::date, %(window_end)s::date, '[]'))
     OR (m.event_span IS NULL AND m.reference_time IS NOT NULL
         AND m.reference_time::date BETWEEN %(window_start)s::date AND %(window_end)s::date))
    AS in_window"""

_KEYWORD_CTES = f"""
q AS (
    SELECT DISTINCT l AS lexeme
    FROM unnest(tsvector_to_array(to_tsvector(%(config)s::regconfig, %(query)s))) AS l
    WHERE l !~ '\\\\' LIMIT {_MAX_QUERY_LEXEMES}
),
corpus AS (
    SELECT greatest(s.doc_count, 1)::float8 AS n,
           greatest(s.total_length::float8 / greatest(s.doc_count, 1), 1.0) AS avgdl
    FROM retrieval_corpus_statistic s WHERE s.tenant_id = %(tenant)s
),
known AS (
    SELECT q.lexeme, t.doc_count FROM q
    JOIN retrieval_term_statistic t ON t.tenant_id = %(tenant)s AND t.lexeme = q.lexeme AND t.doc_count > 0
),
unknown AS (
    SELECT lexeme FROM q WHERE length(lexeme) >= {_FUZZY_MIN_LENGTH} AND lexeme NOT IN (SELECT lexeme FROM known)
),
fuzzy AS (
    -- each unknown query lexeme's closest known lexeme: a bitmap probe of the vocabulary's trigram GIN index
    SELECT f.lexeme, max(f.doc_count) AS doc_count, max(f.similarity) AS similarity
    FROM unknown u CROSS JOIN LATERAL (
        SELECT t.lexeme, t.doc_count, similarity(t.lexeme, u.lexeme) AS similarity
        FROM retrieval_term_statistic t
        WHERE t.tenant_id = %(tenant)s AND t.lexeme %% u.lexeme AND t.doc_count > 0
        ORDER BY similarity DESC, t.doc_count DESC, t.lexeme
        LIMIT 1
    ) f
    WHERE f.similarity >= {FUZZY_MIN_SIMILARITY} AND f.lexeme NOT IN (SELECT lexeme FROM known)
    GROUP BY f.lexeme
),
terms AS (
    -- idf weighted: 1 for a query lexeme, its similarity for a stand-in
    SELECT x.lexeme, x.df, x.weight * ln(1.0 + (c.n - x.df + 0.5) / (x.df + 0.5)) AS idf,
           sum(x.df) OVER (ORDER BY x.df, x.lexeme) AS cum_df
    FROM (
        SELECT lexeme, doc_count AS df, 1.0::float8 AS weight FROM known
        UNION ALL
        SELECT lexeme, doc_count, similarity::float8 FROM fuzzy
    ) x
    CROSS JOIN corpus c
),
candidates AS MATERIALIZED (
    -- the postings of the probed (rarest) lexemes in the caller's scopes: an index-only scan of the postings' key
    SELECT p.memory_id AS id FROM retrieval_posting p
    WHERE p.tenant_id = %(tenant)s
      AND p.lexeme = ANY(ARRAY(SELECT lexeme FROM terms WHERE cum_df <= %(budget)s OR cum_df = df))
      AND p.scope_id = ANY(%(chain)s) AND {LIVE_POSTING}
    GROUP BY p.memory_id
    -- binds only when the rarest lexeme alone matches more than the budget in the caller's scopes (no rare word in
    -- the question, or a large tenant: at 100k generated memories the rarest lexeme of most questions is in 500+
    -- memories of the tenant): the newest memories are scored
    ORDER BY p.memory_id DESC
    LIMIT %(budget)s
),
bm25 AS (
    SELECT p.memory_id AS id, sum(
        t.idf * p.tf * ({BM25_K1} + 1)
        / (p.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * p.doc_length / co.avgdl))
    ) AS score
    FROM retrieval_posting p
    JOIN terms t ON t.lexeme = p.lexeme
    CROSS JOIN corpus co
    WHERE p.tenant_id = %(tenant)s AND p.lexeme = ANY(ARRAY(SELECT lexeme FROM terms))
      AND p.scope_id = ANY(%(chain)s) AND p.memory_id = ANY(ARRAY(SELECT id FROM candidates))
    GROUP BY p.memory_id
    ORDER BY score DESC, p.memory_id
    LIMIT %(depth)s
)
"""

# Nearest chunks by cosine distance, searched scope by scope (retrieval/vector_indexes.py): one branch per scope of
# the caller's chain, naming the scope as a literal so the planner can use that scope's partial HNSW index when it
# has one (a scope with at least ORGMEMORY_VECTOR_INDEX_MIN_CHUNKS chunks); a smaller scope is scanned exactly,
# index-only, from chunk_scope_vectors. Each branch keeps its chunk_depth nearest (CHUNKS_PER_MEMORY × depth); the
# chain's chunk_pool nearest of those (twice that, so superseded or filtered memories rarely starve the arm) are
# max-pooled per memory (its best chunk), and the memories are then checked — live, of the kinds asked for — by
# primary key in distance order until depth have passed: ~depth lookups rather than one per pooled chunk (400 at
# depth 50; as a join the planner hashed every visible memory instead). The work per
# search follows the caller's chain, not the size of the tenant or of the database, and the ANN part needs no
# visibility filter inside the index scan.
_VECTOR_BRANCH = """(SELECT c.memory_id, c.embedding <=> (SELECT v FROM query_vector) AS distance
        FROM memories_memorychunk c WHERE c.tenant_id = %(tenant)s AND c.scope_id = {scope}
        ORDER BY c.embedding <=> (SELECT v FROM query_vector) LIMIT %(chunk_depth)s)"""


def _vector_ctes(chain_ids: Sequence[int]) -> str:
    # scope ids are inlined as integer literals (never text from the caller): a parameter would hide the scope from
    # the planner's partial-index match whatever the driver's binding mode
    branches = "\n    UNION ALL ".join(
        _VECTOR_BRANCH.format(scope=int(scope_id)) for scope_id in dict.fromkeys(chain_ids)
    )
    pooled = (
        f"""SELECT n.memory_id, min(n.distance) AS distance FROM (
        SELECT * FROM (
        {branches}
        ) b ORDER BY distance LIMIT %(chunk_pool)s
    ) n GROUP BY n.memory_id ORDER BY distance, n.memory_id"""
        if chain_ids
        else "SELECT NULL::bigint AS memory_id, NULL::float8 AS distance WHERE FALSE"
    )
    # the query vector is sent once (an HNSW scan takes it from the init-plan like any constant)
    return f"""
query_vector AS MATERIALIZED (SELECT %(vector)s::vector AS v),
pooled AS MATERIALIZED (
    {pooled}
),
vector AS (
    -- the order is the materialised CTE's own (PostgreSQL keeps its sort order), so the check runs lazily under
    -- the LIMIT
    SELECT p.memory_id AS id, p.distance FROM pooled p
    WHERE (SELECT TRUE FROM memories_memory m WHERE m.id = p.memory_id AND {LIVE_MEMORY})
    ORDER BY p.distance, p.memory_id
    LIMIT %(depth)s
)"""


_KEYWORD_SELECT = """SELECT 'keyword' AS arm, id, score AS value, (SELECT sum(idf) FROM terms) AS idf_sum,
    (SELECT count(*) FROM q)::int AS lexemes, (SELECT count(*) FROM known)::int AS known FROM bm25"""
_VECTOR_SELECT = """SELECT 'vector' AS arm, id, 1.0 - distance AS value, NULL::float8 AS idf_sum,
    NULL::int AS lexemes, NULL::int AS known FROM vector"""
# every arm row carries what ranking needs of its memory (RankingRow), so the full rows are loaded for the hits only
# (created_at as seconds since the epoch: Django's timestamptz loader parses text in Python, ~100 rows a search)
_RANKING_COLUMNS = "m.content_hash, m.title, extract(epoch FROM m.created_at)::float8 AS created_at, m.scope_id"


def _speaker_sql(alias: str) -> str:
    """Who said memory ``alias``: a session event's author, else the memory's author."""
    return f"coalesce(nullif({alias}.metadata ->> 'author', ''), {alias}.author)"


def _said_at_sql(alias: str) -> str:
    """When memory ``alias`` was said: its reference time (a session event's timestamp), else when it was stored."""
    return f"coalesce({alias}.reference_time, {alias}.created_at)"


# who said a candidate (a session event's author, else the memory's author) and whether it links an entity the
# question names: the participant weighting of ranking, read by the arms' statement itself (link_by_memory); and
# a session turn's first TURN_TEXT_CHARS characters (NULL for any other memory) and whether it states a date:
# ranking counts an undated turn's content words (a dated turn says when: never phatic), a pool of turns fuses by
# score, and the page's turns name what their speaker's follow-ups are looked up by
_PARTICIPANT_COLUMNS = f"""left({_speaker_sql("m")}, 200) AS speaker,
    EXISTS (SELECT 1 FROM graph_entitylink l WHERE l.tenant_id = %(tenant)s AND l.memory_id = m.id
            AND (l.subject_id = ANY(%(named)s) OR l.object_id = ANY(%(named)s))) AS names_entity,
    CASE WHEN m.source_session <> '' THEN left(m.content, {TURN_TEXT_CHARS}) END AS turn_text,
    m.event_dates <> '[]'::jsonb AS dated"""


@dataclass(frozen=True)
class RankingRow:
    """What ranking needs of a candidate memory, read by the statement that found it."""

    content_hash: str
    title: str
    created_at: datetime
    scope_id: int
    speaker: str = ""  # the session event's author, else the memory's author (arm rows only)
    names_entity: bool = False  # links an entity the question names (arm rows only)
    turn_words: int | None = None  # an undated session turn's content words (arm rows only; else None)
    turn_text: str | None = None  # a session turn's first TURN_TEXT_CHARS characters (arm rows only; else None)

    @property
    def is_turn(self) -> bool:
        return self.turn_text is not None

    @classmethod
    def from_columns(
        cls,
        content_hash: str,
        title: str,
        created_epoch: float,
        scope_id: int,
        speaker=None,
        names_entity=False,
        turn_text: str | None = None,
        dated=False,
    ) -> RankingRow:
        """The row from ``_RANKING_COLUMNS``' values (and the arms' participant columns)."""
        return cls(
            content_hash,
            title,
            datetime.fromtimestamp(created_epoch, tz=UTC),
            scope_id,
            speaker or "",
            bool(names_entity),
            len(cached_content_terms(turn_text)) if turn_text is not None and not dated else None,
            turn_text,
        )


@dataclass
class ArmCandidates:
    keyword: list[int] = field(default_factory=list)
    bm25: dict[int, float] = field(default_factory=dict)  # the keyword arm's BM25 scores
    bm25_ceiling: float = 0.0  # the best score a memory could reach: Σ idf·(k1+1) over the terms (stand-ins weighted)
    query_lexemes: int = 0
    known_lexemes: int = 0  # query lexemes the tenant's corpus holds
    vector: list[int] = field(default_factory=list)
    cosines: dict[int, float] = field(default_factory=dict)
    rows: dict[int, RankingRow] = field(default_factory=dict)  # every candidate of either arm
    in_window: set[int] = field(default_factory=set)  # candidates dated inside the question's date window


def _params(*, tenant: Tenant, chain_ids: Sequence[int], kinds: Sequence[str], depth: int, **extra) -> dict:
    return {"tenant": tenant.pk, "chain": list(chain_ids), "kinds": list(kinds), "depth": depth, **extra}


def arm_statement(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    kinds: Sequence[str],
    depth: int,
    query: str | None,
    vector: Sequence[float] | None,
    named: Sequence[int] = (),
    as_of: datetime | None = None,
    window: tuple[date, date] | None = None,
) -> tuple[str, dict] | None:
    """The SQL and parameters of :func:`arm_candidates` (``None`` when both arms are left out); benchmarks
    EXPLAIN it."""
    ctes, selects = [], []
    params = _params(tenant=tenant, chain_ids=chain_ids, kinds=kinds, depth=depth, named=[int(i) for i in named])
    if query is not None:
        ctes.append(_KEYWORD_CTES)
        selects.append(_KEYWORD_SELECT)
        params.update(
            config=TEXT_SEARCH_CONFIG,
            query=query,
            budget=KEYWORD_CANDIDATES,
        )
    if vector is not None:
        ctes.append(_vector_ctes(chain_ids))
        selects.append(_VECTOR_SELECT)
        params.update(
            vector="[" + ",".join(f"{value:.7g}" for value in vector) + "]",
            chunk_depth=depth * CHUNKS_PER_MEMORY,
            chunk_pool=depth * CHUNKS_PER_MEMORY * 2,
        )
    if not ctes:
        return None
    if as_of is not None and query is not None:  # versions superseded after T have no postings: scored apart
        ctes[0] += _HISTORY_CTE
        selects[0] = _KEYWORD_SELECT.replace("FROM bm25", "FROM keyword_as_of")
    # MATERIALIZED: the arms run once whatever the join order. Without column statistics (a new database, a big
    # import before autovacuum's ANALYZE) the planner took the tenant's memories for one row, joined them on the
    # outside and re-ran the vector arm and its liveness checks once per memory: 2 s a search at 240 memories
    found = "found AS MATERIALIZED (\n" + "\nUNION ALL\n".join(selects) + "\n)"
    statement = (
        "WITH "
        + ",".join([*ctes, found])
        + f"\nSELECT f.*, {_RANKING_COLUMNS}, {_PARTICIPANT_COLUMNS} FROM found f JOIN memories_memory m ON m.id = f.id"
        + " AND m.tenant_id = %(tenant)s",
        params,
    )
    return _in_time(statement, as_of=as_of, window=window)


def _in_time(
    statement: tuple[str, dict], *, as_of: datetime | None, window: tuple[date, date] | None
) -> tuple[str, dict]:
    """The arms' statement as of ``as_of`` (when given), with each row's ``in_window`` column (always the last)."""
    sql, params = statement
    if as_of is not None:
        sql = as_of_sql(sql)
        params["as_of"] = as_of
    column = _IN_WINDOW if window is not None else "FALSE AS in_window"
    if window is not None:
        params.update(window_start=window[0], window_end=window[1])
    head, tail = sql.rsplit(" FROM found f JOIN", 1)
    return f"{head}, {column} FROM found f JOIN{tail}", params


def arm_candidates(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    kinds: Sequence[str],
    depth: int,
    query: str | None,
    vector: Sequence[float] | None,
    named: Sequence[int] = (),
    as_of: datetime | None = None,
    window: tuple[date, date] | None = None,
) -> ArmCandidates:
    """The keyword arm (BM25 over the query's lexemes and the stand-ins of its unknown ones; ``query`` is the
    glossary-expanded query) and the vector arm (``vector`` the query embedding) in one statement; ``None``
    leaves an arm out. ``named``: the ids of the entities the question names (each row says whether it links one)."""
    result = ArmCandidates()
    statement = arm_statement(
        tenant=tenant,
        chain_ids=chain_ids,
        kinds=kinds,
        depth=depth,
        query=query,
        vector=vector,
        named=named,
        as_of=as_of,
        window=window,
    )
    if statement is None:
        return result
    with read_connection().cursor() as cursor:
        cursor.execute(*statement)
        rows = cursor.fetchall()
    for row in rows:
        result.rows[row[1]] = RankingRow.from_columns(*row[6:14])
        if row[-1]:  # in_window: the statement's last column
            result.in_window.add(row[1])
    keyword_rows = sorted((row[:6] for row in rows if row[0] == "keyword"), key=lambda r: (-r[2], r[1]))
    for _, memory_id, value, idf_sum, lexemes, known in keyword_rows:
        result.keyword.append(memory_id)
        result.bm25[memory_id] = float(value)
        result.bm25_ceiling = float(idf_sum or 0.0) * (BM25_K1 + 1)
        result.query_lexemes, result.known_lexemes = int(lexemes or 0), int(known or 0)
    for _, memory_id, value, *_ in sorted((r for r in rows if r[0] == "vector"), key=lambda r: (-r[2], r[1])):
        result.vector.append(memory_id)
        result.cosines[memory_id] = float(value)
    result.keyword = result.keyword[:depth]
    return result


# --- search context ----------------------------------------------------------------------------------------------
_SCOPE, _MEMBER, _POLICY, _MEMORY = (model._meta.db_table for model in (Scope, Member, Policy, Memory))
# a session turn's speaker, keyed with its tenant, by whole name and by first name: the expressions of the
# memory_speaker_key and memory_speaker_first_key indexes (migrations memories 0022, 0023), written the same
SPEAKER_KEY = "((m.tenant_id)::text || ':' || lower(m.metadata ->> 'author'))"
SPEAKER_FIRST_KEY = "((m.tenant_id)::text || ':' || split_part(lower(m.metadata ->> 'author'), ' ', 1))"
_ENTITY, _ALIAS, _LINK = (model._meta.db_table for model in (Entity, EntityAlias, EntityLink))
_COVER_SEPARATOR = "\x1f"  # joins a partial name's covering spans into one array element (no norm holds it)
# the nodes of the named project hanging under the caller's chain (``chain`` is the context statement's CTE)
_PROJECT_NODES = f"""SELECT ps.id FROM {_SCOPE} ps
     WHERE ps.tenant_id = %(tenant)s AND ps.level = %(project_level)s AND ps.key = %(project)s
       AND ps.parent_id IN (SELECT id FROM chain)"""
# memory ``m`` is in force on the caller's chain or the named project's nodes
_VISIBLE_TO_CALLER = f"""m.scope_id IN (SELECT id FROM chain UNION ALL {_PROJECT_NODES})
          AND {visibility.in_force_sql("m")}"""


def _spoken(key: str) -> str:
    """A visible session turn of the caller's whose speaker ``key`` is the tenant and the name ``n.norm``."""
    return f"""SELECT 1 FROM {_MEMORY} m
        WHERE {key} = %(tenant)s::text || ':' || n.norm
          AND m.source_session <> '' AND m.tenant_id + 0 = %(tenant)s
          AND {_VISIBLE_TO_CALLER}"""


_CONTEXT_SQL = (
    "WITH RECURSIVE "
    + scope_chain_cte(extra_columns=("level", "key"), member=True)
    + f"""
SELECT
    (SELECT coalesce(json_agg(json_build_array(id, level, key) ORDER BY depth), '[]') FROM chain),
    (SELECT coalesce(json_agg(json_build_array(ps.id, ps.parent_id) ORDER BY ps.id), '[]') FROM {_SCOPE} ps
     WHERE ps.tenant_id = %(tenant)s AND ps.level = %(project_level)s AND ps.key = %(project)s
       AND ps.parent_id IN (SELECT id FROM chain)),
    (SELECT coalesce(json_agg(json_build_array(p.scope_id, p.glossary, p.tier_boost, p.id)), '[]')
     FROM {_POLICY} p
     WHERE p.tenant_id = %(tenant)s AND (p.scope_id IS NULL OR p.scope_id IN (SELECT id FROM chain))),
    (SELECT coalesce(json_agg(json_build_array(x.norm, x.id, x.name, x.kind) ORDER BY x.mention_count DESC, x.id),
                     '[]')
     FROM (
        SELECT e.norm, e.id, e.name, e.kind, e.mention_count FROM {_ENTITY} e
        WHERE e.tenant_id = %(tenant)s AND e.norm = ANY(%(norms)s)
      UNION
        SELECT a.norm, e.id, e.name, e.kind, e.mention_count
        FROM {_ALIAS} a JOIN {_ENTITY} e ON e.id = a.entity_id
        WHERE a.tenant_id = %(tenant)s AND a.norm = ANY(%(norms)s) AND e.tenant_id = %(tenant)s
     ) x),
    (SELECT coalesce(json_agg(json_build_array(p.norm, x.id, x.name, x.kind) ORDER BY p.ord, x.rank), '[]')
     FROM (
        SELECT * FROM unnest(%(partials)s::text[], %(prefixes)s::text[], %(suffixes)s::text[], %(covers)s::text[])
             WITH ORDINALITY AS p(norm, prefix, suffix, covers, ord)
        -- not when a span holding every place of the partial name is an entity's whole name or alias: that name
        -- links instead (retrieval.relational_query.partial_covers), so its candidates would never be read
        WHERE NOT EXISTS (
            SELECT 1 FROM {_ENTITY} e
            WHERE e.tenant_id = %(tenant)s AND e.norm = ANY(string_to_array(p.covers, %(separator)s))
          UNION ALL
            SELECT 1 FROM {_ALIAS} a
            WHERE a.tenant_id = %(tenant)s AND a.norm = ANY(string_to_array(p.covers, %(separator)s)))
     ) p
     CROSS JOIN LATERAL (
        -- entities whose name or an alias starts with the partial name's words, or a person whose name ends with
        -- it, that a memory on the caller's chain (or the named project's nodes) links: the candidates of
        -- a partial name are the caller's visible entities only
        SELECT c.id, c.name, c.kind, row_number() OVER (ORDER BY c.mention_count DESC, c.id) AS rank
        FROM (
            SELECT e.id, e.name, e.kind, e.mention_count FROM {_ENTITY} e
            WHERE e.tenant_id = %(tenant)s
              AND (e.norm LIKE p.prefix OR (e.kind = %(person)s AND e.norm LIKE p.suffix))
          UNION
            SELECT e.id, e.name, e.kind, e.mention_count
            FROM {_ALIAS} a JOIN {_ENTITY} e ON e.id = a.entity_id
            WHERE a.tenant_id = %(tenant)s AND a.norm LIKE p.prefix AND e.tenant_id = %(tenant)s
        ) c
        WHERE EXISTS (
            -- the entity's links are found by the entity (its id is one tenant's) and each link's memory is then
            -- checked by primary key, lazily, until one passes: the tenant condition on the links is a filter
            -- (``+ 0``), never what an index scan is chosen by, and the check is a scalar subquery, which the
            -- planner does not turn into a join it could reorder — so a tenant the planner's statistics do not know
            -- yet (a new tenant in a database holding a large one reads as one row until ANALYZE) cannot make it
            -- walk the tenant's memories and scan the tenant's links for each (170 ms for one question, against
            -- 3 ms with fresh statistics)
            SELECT 1 FROM (
                SELECT l.memory_id FROM {_LINK} l WHERE l.subject_id = c.id AND l.tenant_id + 0 = %(tenant)s
              UNION ALL
                SELECT l.memory_id FROM {_LINK} l WHERE l.object_id = c.id AND l.tenant_id + 0 = %(tenant)s
            ) l
            WHERE (SELECT TRUE FROM {_MEMORY} m
                   WHERE m.id = l.memory_id AND m.tenant_id = %(tenant)s AND {_VISIBLE_TO_CALLER}))
        ORDER BY c.mention_count DESC, c.id
        LIMIT %(partial_limit)s
     ) x),
    (SELECT coalesce(json_agg(n.norm ORDER BY n.norm), '[]')
     FROM unnest(%(speaker_norms)s::text[]) AS n(norm)
     -- the question's names that speak in a session turn the caller sees (by whole name, or a one-word name by
     -- the speaker's first name), one visible turn each at most: memory_speaker_key and memory_speaker_first_key
     -- hold the tenant and the name in one key, the only indexes these lookups can be index conditions of; each
     -- branch stops at its first visible turn (an OR of the two keys would read every turn of the speaker)
     CROSS JOIN LATERAL (
        ({_spoken(SPEAKER_KEY)} LIMIT 1)
        UNION ALL
        ({_spoken(SPEAKER_FIRST_KEY)} AND position(' ' IN n.norm) = 0 LIMIT 1)
        LIMIT 1
     ) spoke)
"""
)


@dataclass(frozen=True)
class ChainNode:
    scope_id: int
    level: str
    key: str

    @property
    def tag(self) -> str:
        return f"{self.level}:{self.key}"


@dataclass(frozen=True)
class EntityRef:
    entity_id: int
    name: str
    kind: str


@dataclass
class SearchContext:
    chain: list[ChainNode]  # the caller's node first, then its ancestors; [] for an unknown user
    glossary: dict[str, str]
    tier_boost: dict[str, float]
    entities: dict[str, list[EntityRef]]  # normalised name → tenant entities with that name or alias
    projects: dict[int, int] = field(default_factory=dict)  # the named project's nodes under the chain → owner
    # a partial name (first words of a name, a person's last name) → the visible entities it could be short for
    partial: dict[str, list[EntityRef]] = field(default_factory=dict)
    speakers: list[str] = field(default_factory=list)  # the question's names that speak in the caller's sessions


def context_params(
    *,
    tenant_id: int,
    user_id: str,
    norms: Sequence[str] = (),
    project: str | None = None,
    partials: Sequence[str] = (),
    partial_covers: Sequence[Sequence[str]] = (),
    speaker_norms: Sequence[str] = (),
) -> dict:
    """The parameters of the context statement (:func:`search_context`)."""
    covers = dict(zip(partials, partial_covers, strict=False))
    partials = list(dict.fromkeys(partials))
    return {
        "tenant": tenant_id,
        "user_id": user_id,
        "norms": list(norms),
        "project": project,
        "project_level": PROJECT_LEVEL,
        "partials": partials,
        "prefixes": [_like_escape(norm) + " %" for norm in partials],
        "suffixes": ["% " + _like_escape(norm) for norm in partials],
        "covers": [_COVER_SEPARATOR.join(covers.get(norm, ())) for norm in partials],
        "separator": _COVER_SEPARATOR,
        "person": PERSON,
        "partial_limit": MAX_PARTIAL_MATCHES,
        "speaker_norms": list(dict.fromkeys(speaker_norms)),
    }


def search_context(
    *,
    tenant: Tenant,
    user_id: str,
    norms: Sequence[str],
    project: str | None = None,
    partials: Sequence[str] = (),
    partial_covers: Sequence[Sequence[str]] = (),
    speaker_norms: Sequence[str] = (),
) -> SearchContext:
    """The caller's scope chain, the nodes of ``project`` hanging under it, the glossary and tier boosts of the
    policies on the chain (folded by ``memories.services.tenancy.policy_fold``, as every policy reader does), the
    entities named by ``norms``, the visible entities each of ``partials`` could be short for (not looked up when
    one of its ``partial_covers`` — aligned with ``partials`` — is an entity's whole name or alias), and which of
    ``speaker_norms`` (lower-cased names as written: :func:`retrieval.relational_query.spoken_forms`) speak in a
    session turn the caller sees — one statement."""
    params = context_params(
        tenant_id=tenant.pk,
        user_id=user_id,
        norms=norms,
        project=project,
        partials=partials,
        partial_covers=partial_covers,
        speaker_norms=speaker_norms,
    )
    with read_connection().cursor() as cursor:
        cursor.execute(_CONTEXT_SQL, params)
        chain_rows, project_rows, policy_rows, entity_rows, partial_rows, speakers = (
            _json(v) for v in cursor.fetchone()
        )
    chain = [ChainNode(scope_id=row[0], level=row[1], key=row[2]) for row in chain_rows]
    by_scope = {row[0]: row for row in policy_rows}
    layers = [None, *(node.scope_id for node in reversed(chain))]
    policy = policy_fold(
        tenant=tenant,
        layers=[
            (row[3], {"glossary": row[1], "tier_boost": row[2]})
            for row in (by_scope.get(scope_id) for scope_id in layers)
            if row is not None
        ],
    )
    entities: dict[str, list[EntityRef]] = {}
    for norm, entity_id, name, kind in entity_rows:
        refs = entities.setdefault(norm, [])
        if all(ref.entity_id != entity_id for ref in refs):
            refs.append(EntityRef(entity_id=entity_id, name=name, kind=kind))
    partial: dict[str, list[EntityRef]] = {}
    for norm, entity_id, name, kind in partial_rows:
        refs = partial.setdefault(norm, [])
        if all(ref.entity_id != entity_id for ref in refs):
            refs.append(EntityRef(entity_id=entity_id, name=name, kind=kind))
    return SearchContext(
        chain=chain,
        glossary=policy["glossary"] or {},
        tier_boost=policy["tier_boost"] or {},
        entities=entities,
        projects={node_id: owner_id for node_id, owner_id in project_rows},
        partial=partial,
        speakers=list(speakers),
    )


def _like_escape(text: str) -> str:
    """``text`` as a literal inside a LIKE pattern (the default escape character is the backslash)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


# --- relational walk ---------------------------------------------------------------------------------------------
FANOUT = 500  # edges kept per hop at most (and read per entity and relationship): a hub's newest visible ones

# l.scope_id is the stating memory's scope copied onto the link (graph.0005), so the index reads only edges on the
# chain; the memory's own scope is still the one that decides
_EDGE_VISIBLE = visibility.visible_sql("m")  # the stating memory


@dataclass(frozen=True)
class WalkEdge:
    hop: int  # 1-based
    subject_id: int
    subject: str
    relationship: str
    object_id: int
    object: str
    memory_id: int
    memory_kind_ok: bool  # the stating memory is of a kind the search asked for
    reached_id: int  # the entity this edge leads to (the answer side)


@dataclass
class Walk:
    edges: list[WalkEdge] = field(default_factory=list)
    about: list[tuple[int, int]] = field(default_factory=list)  # (entity id, memory id), best first
    rows: dict[int, RankingRow] = field(default_factory=dict)  # every memory stating an edge or about an entity

    def reached(self, hop: int) -> list[int]:
        return list(dict.fromkeys(edge.reached_id for edge in self.edges if edge.hop == hop))


def _hop_side(index: int, previous: str, start: str, other: str, exclude: str = "") -> str:
    # per entity reached so far, per relationship and per scope of the caller's chain, the newest FANOUT visible
    # edges, then the newest FANOUT of those. Each inner scan is an equality on every leading column of
    # link_by_object_scope / link_by_subject_scope (tenant, entity, relationship, scope), read in memory order and
    # stopped at FANOUT, with the stating memory checked per edge (a lateral the planner may not turn into a join
    # that drives the scan from the memories): a hub's cost is bounded by its edges on the chain, not by how many
    # edges other scopes gave it, whatever statistics the planner holds
    return f"""SELECT x.* FROM (SELECT DISTINCT reached FROM {previous}) p
    CROSS JOIN unnest(%(rel_{index})s::varchar[]) AS r(relationship)
    CROSS JOIN LATERAL (
        SELECT y.* FROM unnest(%(chain)s::bigint[]) AS c(scope_id)
        CROSS JOIN LATERAL (
            SELECT l.subject_id, l.relationship, l.object_id, l.memory_id, l.confidence, l.span_start, l.id,
                   v.kind_ok, l.{other} AS reached, v.content_hash, v.title, v.created_at, v.scope_id
            FROM graph_entitylink l
            CROSS JOIN LATERAL (
                SELECT m.kind = ANY(%(kinds)s) AS kind_ok, {_RANKING_COLUMNS}
                FROM memories_memory m
                WHERE m.id = l.memory_id AND {_EDGE_VISIBLE}
                OFFSET 0
            ) v
            WHERE l.tenant_id = %(tenant)s AND l.object_id IS NOT NULL AND l.scope_id = c.scope_id
              AND l.{start} = p.reached AND l.relationship = r.relationship{exclude}
            ORDER BY l.memory_id DESC
            LIMIT {FANOUT}
        ) y
        ORDER BY y.memory_id DESC
        LIMIT {FANOUT}
    ) x"""


def _hop_sql(index: int, hop: Hop, previous: str) -> str:
    if hop.relationship in SYMMETRIC:  # either side; an edge between two reached entities once, as subject
        sides = [
            _hop_side(index, previous, "subject_id", "object_id"),
            _hop_side(
                index, previous, "object_id", "subject_id", f" AND l.subject_id NOT IN (SELECT reached FROM {previous})"
            ),
        ]
    elif hop.direction == INBOUND:
        sides = [_hop_side(index, previous, "object_id", "subject_id")]
    else:
        sides = [_hop_side(index, previous, "subject_id", "object_id")]
    union = "\n    UNION ALL\n    ".join(sides)
    # edges of one memory in the order the text states them (span), so answers list names as written, whatever
    # order the extractor stored them in
    return f"""h{index} AS MATERIALIZED (
    SELECT e.*, row_number() OVER (ORDER BY e.confidence DESC, e.memory_id, e.span_start, e.id) AS ord
    FROM (
    {union}
    ) e
    ORDER BY e.confidence DESC, e.memory_id, e.span_start, e.id
    LIMIT {FANOUT}
)"""


def relational_walk(
    *,
    tenant: Tenant,
    chain_ids: Sequence[int],
    kinds: Sequence[str],
    seed_ids: Sequence[int],
    hops: Sequence[Hop],
    depth: int = 50,
    as_of: datetime | None = None,
) -> Walk:
    """Walk visible typed edges from ``seed_ids`` along ``hops`` (an edge is visible when the memory stating it
    is), and return the edges with the memories *about* the entities reached (their own pages) — or, with no
    hops, the memories about the seeds. One statement; each hop keeps at most FANOUT edges (a hub's newest visible
    ones), and the memories about at most ``depth`` entities a hop (the first reached), ``depth`` each (the oldest):
    the arm keeps ``depth`` memories in that order."""
    params = {
        "tenant": tenant.pk,
        "chain": list(chain_ids),
        "kinds": list(kinds),
        "seeds": list(seed_ids),
        "depth": depth,
    }
    ctes = ["h0 AS (SELECT unnest(%(seeds)s::bigint[]) AS reached, 0::bigint AS ord)"]
    selects = []
    for index, hop in enumerate(hops, start=1):
        params[f"rel_{index}"] = [hop.relationship, *ALSO_FOLLOW.get(hop.relationship, ())]
        ctes.append(_hop_sql(index, hop, f"h{index - 1}"))
        selects.append(
            f"""SELECT 'edge', {index}, h.subject_id, s.name, h.relationship, h.object_id, o.name, h.memory_id,
                h.kind_ok, h.reached, h.ord, h.content_hash, h.title, h.created_at, h.scope_id
            FROM h{index} h JOIN graph_entity s ON s.id = h.subject_id JOIN graph_entity o ON o.id = h.object_id"""
        )
    entities = "\n    UNION ".join(
        f"""(SELECT reached FROM h{i} GROUP BY reached ORDER BY min(ord), reached LIMIT %(depth)s)"""
        for i in range(len(hops) + 1)
    )
    ctes.append(
        f"""about_entities AS (
    {entities}
),
about AS (
    SELECT e.reached AS subject_id, a.*
    FROM about_entities e CROSS JOIN LATERAL (
        SELECT m.id AS memory_id, {_RANKING_COLUMNS}
        FROM graph_entitylink l JOIN memories_memory m ON m.id = l.memory_id
        WHERE l.tenant_id = %(tenant)s AND l.relationship = 'about' AND l.subject_id = e.reached
          AND l.scope_id = ANY(%(chain)s) AND {LIVE_MEMORY}
        ORDER BY l.memory_id
        LIMIT %(depth)s
    ) a
)"""
    )
    selects.append(
        "SELECT 'about', NULL, a.subject_id, NULL, NULL, NULL, NULL, a.memory_id, TRUE, a.subject_id, 0, "
        "a.content_hash, a.title, a.created_at, a.scope_id FROM about a"
    )
    sql = "WITH " + ",\n".join(ctes) + "\n" + "\nUNION ALL\n".join(selects)
    if as_of is not None:  # the edges and memories as they stood then
        sql, params["as_of"] = as_of_sql(sql), as_of
    with read_connection().cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    walk = Walk()
    # the joins may return rows in any order: the hop's own order (confidence, memory, text position) decides
    rows.sort(key=lambda row: (row[0], row[1] or 0, row[10]))
    for row in rows:
        kind, hop, subject_id, subject, relationship, object_id, obj, memory_id, kind_ok, reached_id = row[:10]
        walk.rows[memory_id] = RankingRow.from_columns(*row[11:15])
        if kind == "edge":
            walk.edges.append(
                WalkEdge(hop, subject_id, subject, relationship, object_id, obj, memory_id, kind_ok, reached_id)
            )
        else:
            walk.about.append((subject_id, memory_id))
    walk.about = sorted(set(walk.about), key=lambda pair: (pair[1], pair[0]))
    return walk


# --- rows --------------------------------------------------------------------------------------------------------
_HIT_MEMORY = ModelColumns(Memory, "m", exclude=("search_vector", "dedup_bands"))  # the heavy index columns
_HIT_SCOPE = ModelColumns(Scope, "s")
_HIT_SCOPE_PARENT = ModelColumns(Scope, "p")  # a project memory is shown at its owner node
MAX_CONTEXT_TURNS = 5  # neighbouring turns on each side of a session hit, at most
CONTEXT_TEXT_CHARS = 2000  # of each neighbouring turn's text

_MEMORIES_LOAD_SQL = f"""{{with_}}SELECT {select_list(_HIT_MEMORY, _HIT_SCOPE, _HIT_SCOPE_PARENT)}{{context}}{{follows}}
    FROM memories_memory m
    JOIN memories_scope s ON s.id = m.scope_id AND s.tenant_id = m.tenant_id
    LEFT JOIN memories_scope p ON p.id = s.parent_id AND p.tenant_id = m.tenant_id
    WHERE m.tenant_id = %(tenant)s AND {{ids}}"""
_HIT_IDS = "m.id = ANY(%(ids)s)"


def _asks_sql(alias: str) -> str:
    """Whether turn ``alias`` asks something (its text ends with a question mark: ``retrieval.text.is_question``)."""
    return f"right(rtrim({alias}.content), 1) = '?'"


def _turn_beside(alias: str, *, after: bool) -> str:
    """The turn said just after (``after``) or just before turn ``alias`` in its session, app and scope, visible by
    the arms' own predicates (``{visible}``): its id, speaker and whether it asks something. For a LATERAL join."""
    return f"""SELECT n.id, {_speaker_sql("n")} AS speaker, {_asks_sql("n")} AS asks FROM memories_memory n
            WHERE {{visible}} AND n.kind = ANY(%(kinds)s) AND n.scope_id = {alias}.scope_id
              AND n.source_session = {alias}.source_session AND n.source_app = {alias}.source_app
              AND n.id {">" if after else "<"} {alias}.id
            ORDER BY n.id{"" if after else " DESC"}
            LIMIT 1"""


def _name_turns_cte(name: str, *, later: bool, limit: int, replies: bool = False) -> str:
    """For each hit (``%(<name>_hits)s``) and the names it uses (``%(<name>_words)s``, a websearch query), the first
    ``limit`` turns of the same speaker in the same scope said after it (``later``) or before it whose indexed words
    match one of them, oldest first; visible by the arms' own predicates (``{visible}``). With ``replies`` (and
    ``later``), for the hits ``%(<name>_replies)s`` marks, the speaker's reply to a question someone else asked
    them about one of the names counts too ("How's Carmen getting on?" / "Loving it. Being a midwife was always the
    dream."), dated by the question."""
    matches = f"n.search_vector @@ websearch_to_tsquery('{TEXT_SEARCH_CONFIG}', h.words)"
    said = f"{_said_at_sql('n')} {'>' if later else '<'} {_said_at_sql('hm')}"
    own = f"""SELECT n.id, {_said_at_sql("n")} AS said FROM memories_memory n
        WHERE {{visible}} AND n.kind = ANY(%(kinds)s) AND n.scope_id = hm.scope_id AND n.source_session <> ''
          AND n.id <> hm.id AND {_speaker_sql("n")} = {_speaker_sql("hm")} AND {said} AND {matches}
        ORDER BY {_said_at_sql("n")}, n.id
        LIMIT {limit}"""
    if replies:
        asked = f"""SELECT n.id, n.scope_id, n.source_session, n.source_app, {_said_at_sql("n")} AS said
            FROM memories_memory n
            WHERE {{visible}} AND n.kind = ANY(%(kinds)s) AND n.scope_id = hm.scope_id AND n.source_session <> ''
              AND {_speaker_sql("n")} <> {_speaker_sql("hm")} AND {said} AND {matches} AND {_asks_sql("n")}
            ORDER BY {_said_at_sql("n")}, n.id
            LIMIT {limit}"""
        turns = f"""SELECT t.id FROM (
            ({own})
          UNION ALL
            (SELECT r.id, q.said FROM ({asked}) q
             CROSS JOIN LATERAL ({_turn_beside("q", after=True)}) r
             WHERE h.replies AND r.speaker = {_speaker_sql("hm")})
        ) t
        ORDER BY t.said, t.id
        LIMIT {limit}"""
    else:
        turns = own
    replies_column = f", %({name}_replies)s::boolean[]" if replies else ""
    replies_name = ", replies" if replies else ""
    return f"""{name} AS MATERIALIZED (
    SELECT h.hit, f.id FROM unnest(%({name}_hits)s::bigint[], %({name}_words)s::text[]{replies_column})
         AS h(hit, words{replies_name})
    JOIN memories_memory hm ON hm.id = h.hit AND hm.tenant_id = %(tenant)s
    CROSS JOIN LATERAL (
        {turns}
    ) f
)
"""


# What a speaker said next about the same thing: for a hit that is a session turn, the first later turns of the same
# speaker in the same scope whose indexed words match one of the names it uses ("Flights to Porto are booked" →
# "Porto is off, we're doing Lyon instead"), visible by the arms' own predicates (or as they stood at ``as_of``);
# the caller keeps the first that its page does not show above the hit and that is not a remark about someone else
# (retrieval.conversation.turns.first_news). The first, not the latest: later mentions of a name are as often
# asides ("My babysitter moved to Porto") as news of the plan (bench/HISTORY.md). Read by the load statement
# itself: the hits and these turns come back together; a turn already on the page may be one.
FOLLOW_UP_CANDIDATES = 3
_FOLLOW_UPS_CTE = _name_turns_cte("fu", later=True, limit=FOLLOW_UP_CANDIDATES)
# ... and for a hit that says who the relation a question asks about is ("Carmen, my little sister"), also what the
# speaker answered when someone asked them about the name later: the replies part is planned only when asked for
_FOLLOW_UPS_AND_REPLIES_CTE = _name_turns_cte("fu", later=True, limit=FOLLOW_UP_CANDIDATES, replies=True)
# Where a name a hit uses was introduced: the first earlier turn of the same speaker that uses it ("Biscuit cut a
# paw on broken glass" → "The kids settled on Biscuit."; "Bilal passed the final assessment" → "Bilal, my brother.")
# — who or what the name is, which the hit itself does not say.
_INTRODUCTIONS_CTE = _name_turns_cte("ib", later=False, limit=1)

# The answer to a question put to someone the search is about: for a hit that asks something ("How's the new place
# treating you?") said by someone other than the people the question names, the next turn of its session when one
# of them said it ("Ashby & Crane is calmer than I expected") — what they said about themselves is in the replies
# to what they were asked. Visible by the arms' own predicates (or as they stood at ``as_of``).
_REPLIES_CTE = f"""re AS MATERIALIZED (
    SELECT q.hit, r.id FROM unnest(%(reply_to)s::bigint[]) AS q(hit)
    JOIN memories_memory hm ON hm.id = q.hit AND hm.tenant_id = %(tenant)s
    CROSS JOIN LATERAL ({_turn_beside("hm", after=True)}) r
    WHERE lower(r.speaker) = ANY(%(repliers)s) OR split_part(lower(r.speaker), ' ', 1) = ANY(%(repliers)s)
)
"""

# The question a hit answers: for a hit that states something, the turn just before it in its session when someone
# else said it and it asks something ("How did the first kiln firing go?" / "Not a single crack, I'm framing the
# bowl.") — what a reply is about is often only in the question it answers. Visible by the arms' own predicates
# (or as they stood at ``as_of``).
_PROMPTS_CTE = f"""pr AS MATERIALIZED (
    SELECT q.hit, r.id FROM unnest(%(prompted)s::bigint[]) AS q(hit)
    JOIN memories_memory hm ON hm.id = q.hit AND hm.tenant_id = %(tenant)s
    CROSS JOIN LATERAL ({_turn_beside("hm", after=False)}) r
    WHERE r.asks AND r.speaker <> {_speaker_sql("hm")}
)
"""

# A session hit's neighbouring turns: the live memories of the same session, app and scope stored just before and
# after it (ids follow the order a session's events were written in). The hit's own scope is on the caller's
# chain, so a neighbour is visible whenever the hit is; a turn another user stored under the same session id is at
# their scope and never shows. Read through the (tenant, source_session) index.
_NEIGHBOUR = f"""(SELECT n.id, left({_speaker_sql("n")}, 200) AS author,
            left(n.content, {{chars}}) AS text,
            CASE WHEN jsonb_typeof(n.metadata -> 'timestamp') = 'number'
                 THEN (n.metadata ->> 'timestamp')::float8 END AS event_epoch,
            extract(epoch FROM n.created_at)::float8 AS created_epoch
        FROM memories_memory n
        WHERE n.tenant_id = m.tenant_id AND n.source_session = m.source_session AND n.source_app = m.source_app
          AND n.scope_id = m.scope_id AND {{in_force}} AND n.id {{op}} m.id
        ORDER BY n.id {{direction}} LIMIT %(context_turns)s)"""


def _context_column(in_force: str) -> str:
    before = _NEIGHBOUR.format(chars=CONTEXT_TEXT_CHARS, op="<", direction="DESC", in_force=in_force)
    after = _NEIGHBOUR.format(chars=CONTEXT_TEXT_CHARS, op=">", direction="ASC", in_force=in_force)
    return f""",
    CASE WHEN m.source_session <> '' THEN (
        SELECT coalesce(json_agg(json_build_array(x.id, x.author, x.text, x.event_epoch, x.created_epoch)
                                 ORDER BY x.id), '[]')
        FROM ({before}
              UNION ALL {after}) x
    ) END AS context"""


_CONTEXT_COLUMN = _context_column(visibility.in_force_sql("n"))
# as of T: the neighbours as they stood then (recorded by T, not yet superseded or expired then)
_CONTEXT_COLUMN_AS_OF = _context_column(
    f"{visibility.current_sql('n', as_of=visibility.AS_OF)} AND {visibility.recorded_sql('n')}"
    f" AND {visibility.EXPIRY.sql('n', visibility.AS_OF)}"
)


@dataclass(frozen=True)
class ContextTurn:
    """A turn of the same session next to a hit."""

    id: int
    author: str
    text: str
    timestamp: datetime  # the session event's timestamp, else when it was stored


def _epoch(value: Any) -> datetime | None:
    try:
        return datetime.fromtimestamp(float(value), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return None


class _Asked(NamedTuple):
    """A CTE of the load statement that brings turns for some hits, and the column that says which hit each is for."""

    name: str
    text: str  # with a ``{visible}`` placeholder
    column: str  # the :class:`Loaded` field it fills (turn id → hit id)
    params: dict[str, Any]


@dataclass(frozen=True)
class FollowUps:
    """Ask :func:`memories_load` for turns around some session hits, with the visibility the arms used: what their
    speakers said next (``words``: hit id → the names to match), where those names were introduced (``introduced``),
    the replies to the questions put to the people the search names (``reply_to``, ``repliers``) and the questions
    some hits answer (``prompted``)."""

    words: Mapping[int, Sequence[str]]
    chain_ids: Sequence[int]
    kinds: Sequence[str]
    as_of: datetime | None = None
    reply_to: Sequence[int] = ()  # hits that ask something of one of ``repliers``: their session's next turn
    repliers: Sequence[str] = ()  # the speakers the question names (lower-cased as written: "pavel", "jean-luc")
    introduced: Mapping[int, Sequence[str]] = field(default_factory=dict)  # hit id → names: where they were introduced
    prompted: Sequence[int] = ()  # hits that state something: the question just before each, if someone else asked it
    # hits that name the relation the question asks about ("Carmen, my little sister"): their follow-ups include
    # the speaker's replies to what others asked about the names
    relatives: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Loaded:
    """What :func:`memories_load` read: the rows, each session hit's neighbouring turns (oldest first), and the turns
    :class:`FollowUps` asked for, each mapped to the hit it was asked for (turn id → hit id)."""

    memories: dict[int, Memory] = field(default_factory=dict)
    contexts: dict[int, list[ContextTurn]] = field(default_factory=dict)
    followed: dict[int, int] = field(default_factory=dict)  # the hits' follow-ups (``_FOLLOW_UPS_CTE``)
    introductions: dict[int, int] = field(default_factory=dict)  # where their names were introduced
    answers: dict[int, int] = field(default_factory=dict)  # the replies to them (``_REPLIES_CTE``)
    prompts: dict[int, int] = field(default_factory=dict)  # the questions they answer (``_PROMPTS_CTE``)


def memories_load(
    *,
    tenant: Tenant,
    ids: Sequence[int],
    context_turns: int = 0,
    follow: FollowUps | None = None,
    as_of: datetime | None = None,
) -> Loaded:
    """The hits' rows (without the heavy index columns, deferred) with their scope and its parent, in one statement
    written once (``orgmemory.rows``): the same instances as ``select_related("scope__parent")`` would give. With
    ``context_turns`` (1..MAX_CONTEXT_TURNS), each hit stored from a session gets its entry in ``contexts``: up to
    that many turns of its session on each side, read by the same statement (with ``as_of``: the turns as they stood
    then). With ``follow``, the same statement also loads each asked hit's follow-up turns (``_FOLLOW_UPS_CTE``,
    into ``followed``); with ``follow.reply_to``, each such hit's reply by one of ``follow.repliers``
    (``_REPLIES_CTE``, ``answers``); with ``follow.introduced``, the turn that introduced each such hit's names
    (``_INTRODUCTIONS_CTE``, ``introductions``); with ``follow.prompted``, the question each such hit answers
    (``_PROMPTS_CTE``, ``prompts``)."""
    loaded = Loaded()
    if not ids:
        return loaded
    turns = max(0, min(int(context_turns), MAX_CONTEXT_TURNS))
    context = (_CONTEXT_COLUMN_AS_OF if as_of is not None else _CONTEXT_COLUMN) if turns else ""
    params: dict[str, Any] = {"tenant": tenant.pk, "ids": list(ids), "context_turns": turns}
    if as_of is not None:
        params["as_of"] = as_of
    asks = {hit: " OR ".join(w) for hit, w in follow.words.items() if w} if follow else {}
    reply_to = list(follow.reply_to) if follow and follow.repliers else []
    intros = {hit: " OR ".join(w) for hit, w in follow.introduced.items() if w} if follow else {}
    asked: list[_Asked] = []
    if asks:
        words = {"fu_hits": [*asks], "fu_words": [*asks.values()]}
        replies = [hit in follow.relatives for hit in asks]
        asked.append(
            _Asked("fu", _FOLLOW_UPS_AND_REPLIES_CTE, "followed", {"fu_replies": replies, **words})
            if any(replies)
            else _Asked("fu", _FOLLOW_UPS_CTE, "followed", words)
        )
    if intros:
        words = {"ib_hits": [*intros], "ib_words": [*intros.values()]}
        asked.append(_Asked("ib", _INTRODUCTIONS_CTE, "introductions", words))
    if reply_to:
        repliers = [name.casefold() for name in follow.repliers]
        asked.append(_Asked("re", _REPLIES_CTE, "answers", {"reply_to": reply_to, "repliers": repliers}))
    if follow and follow.prompted:
        asked.append(_Asked("pr", _PROMPTS_CTE, "prompts", {"prompted": list(follow.prompted)}))
    ctes, columns, extra_ids = [], [], []
    if asked:
        visible = visibility.visible_sql("n", as_of=visibility.AS_OF if follow.as_of is not None else None)
        params.update(chain=list(follow.chain_ids), kinds=list(follow.kinds))
        if follow.as_of is not None:
            params["as_of"] = follow.as_of  # the search's as_of: the same moment as ``as_of``
        for cte in asked:
            params.update(cte.params)
            ctes.append(cte.text.format(visible=visible))
            columns.append(f", (SELECT min({cte.name}.hit) FROM {cte.name} WHERE {cte.name}.id = m.id) AS {cte.column}")
            extra_ids.append(f"ARRAY(SELECT {cte.name}.id FROM {cte.name})")
    sql = _MEMORIES_LOAD_SQL.format(
        with_=f"WITH {', '.join(ctes)}" if ctes else "",
        context=context,
        follows="".join(columns),
        # one array of ids, not an OR of subqueries: the rows are still read by primary key
        ids=f"m.id = ANY(%(ids)s::bigint[] || {' || '.join(extra_ids)})" if extra_ids else _HIT_IDS,
    )
    with read_connection().cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    width = _HIT_MEMORY.width + _HIT_SCOPE.width + _HIT_SCOPE_PARENT.width
    for row in rows:
        memory, scope, scope.parent = build_all(row[:width], _HIT_MEMORY, _HIT_SCOPE, _HIT_SCOPE_PARENT)
        memory.scope = scope
        if turns and row[width] is not None:
            loaded.contexts[memory.pk] = [
                ContextTurn(int(i), author or "", text or "", _epoch(event) or _epoch(created))
                for i, author, text, event, created in (_json(row[width]) or [])
            ]
        for cte, hit in zip(asked, row[width + (1 if turns else 0) :], strict=True):
            if hit is not None:  # this row is a follow-up, introduction, reply or question of that hit
                getattr(loaded, cte.column)[memory.pk] = int(hit)
        loaded.memories[memory.pk] = memory
    return loaded
