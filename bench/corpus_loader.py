"""Bulk loading of a generated corpus (``manage.py load_corpus``).

1. **Embeddings** (:func:`corpus_embed`): every chunk text of the corpus, embedded with the configured fast
   embedder in length-sorted slices (optionally several processes, one thread each) and cached on disk by text
   hash under ``$ORGMEMORY_DATA_DIR/corpus/embeddings`` (:mod:`bench.corpus.embedcache`): a corpus is
   embedded once, and a reload costs only the database writes.
2. **Rows** (:func:`corpus_load`): per tenant, the scope tree and members through the ORM (small), then in
   batches: the memories ``COPY``-ed into a staging table and moved into ``memories_memory`` with one
   ``INSERT … SELECT`` that computes the weighted tsvector in PostgreSQL with the write path's own definition
   (``memories.services.indexing.search_vector_sql``: title A over content B); that one statement fires the
   statement-level BM25 triggers once per batch (one aggregate per batch, as any bulk insert); the chunks with
   their vectors ``COPY``-ed straight into ``memories_memorychunk`` (binary format); the entities and the typed,
   ``about`` and ``mentioned`` links the generator recorded ``COPY``-ed into the graph tables (so relational
   questions have a graph; the extractor is not run — the links are what the text states by construction).
   Not filled: ``dedup_bands`` (MinHash bands for near-duplicate detection at write time: 665 texts/s in Python,
   not needed by search), access counts, sessions.
3. **Indexes**: with ``defer_indexes`` the big secondary indexes (HNSW, full-text GIN, trigram GINs) are
   dropped before the load and built after it, as PostgreSQL builds them faster in one pass than row by row.
4. **Check** (:func:`bm25_statistics_check`): the trigger-kept statistics are recomputed from the rows and
   compared, lexeme by lexeme.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from bench.corpus.embedcache import EmbeddingCache, text_key
from bench.corpus.generator import CorpusPlan, GeneratedMemory, TenantPlan, chunk_texts, memory_at
from graph.extraction.normalize import normalize_entity_name
from memories.services.indexing import search_vector_sql
from memories.visibility import current_sql

BATCH = 20_000
DEFERRED_INDEXES = (
    "chunk_embedding_hnsw",  # the shared HNSW index of databases before memories/0013 (one per large scope since)
    "memory_search_vector",
    "memory_title_trgm",
    "memory_content_trgm",
    "memory_dedup_bands",
    "chunk_scope_vectors",  # the vector arm's index-only exact scans: ~1.6 KB an entry, cheaper built once at the end
)

Progress = Callable[[str, int, int, float], None]


def cache_root() -> Path:
    return Path(settings.ORGMEMORY_DATA_DIR) / "corpus" / "embeddings"


def iter_memories(plan: CorpusPlan, *, tenants: list[int] | None = None) -> Iterator[GeneratedMemory]:
    for tenant in plan.tenants:
        if tenants is not None and tenant.index not in tenants:
            continue
        for ordinal in range(tenant.memories):
            yield memory_at(plan, tenant.index, ordinal)


# --- embeddings ---------------------------------------------------------------------------------------------------

_child_embedder = None


def _child_init(kind: str) -> None:
    global _child_embedder
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from memories.embedding import make_embedder

    _child_embedder = make_embedder(kind, threads=1)


def _child_embed(texts: list[str]) -> np.ndarray:
    return np.asarray(_child_embedder.embed(texts), dtype=np.float32)


def corpus_embed(
    plan: CorpusPlan, *, workers: int = 1, progress: Progress | None = None, kind: str | None = None
) -> dict:
    """Embed every chunk text of the corpus that the cache does not hold yet; returns counts and rates."""
    from memories.embedding import make_embedder

    kind = kind or settings.ORGMEMORY_EMBEDDER
    started = time.perf_counter()
    texts = [text for memory in iter_memories(plan) for text in chunk_texts(memory)]
    generate_s = time.perf_counter() - started
    name = make_embedder(kind, threads=1).name  # also builds the ONNX cache once, before any child needs it
    cache = EmbeddingCache(cache_root(), name)

    def report(done: int, total: int, seconds: float) -> None:
        if progress is not None:
            progress("embed", done, total, seconds)

    if workers <= 1:
        _child_init(kind)
        stats = cache.fill(texts, lambda slices: (_child_embed(s) for s in slices), progress=report)
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers, initializer=_child_init, initargs=(kind,)) as pool:
            stats = cache.fill(texts, lambda slices: pool.imap(_child_embed, slices), progress=report)
    stats.update(model=name, workers=workers, generate_s=round(generate_s, 1), memories=plan.total)
    return stats


# --- rows ---------------------------------------------------------------------------------------------------------


@dataclass
class LoadReport:
    tenants: dict[str, int] = field(default_factory=dict)  # slug -> tenant id
    memories: int = 0
    chunks: int = 0
    entities: int = 0
    links: int = 0
    duplicates: int = 0  # generated texts identical to an earlier one at the same scope, not stored
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = round(self.seconds.get(stage, 0.0) + seconds, 2)


def _ids(cursor, sequence_of: str, count: int) -> list[int]:
    if count == 0:
        return []
    cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [sequence_of, count])
    return [row[0] for row in cursor.fetchall()]


def deferred_index_definitions() -> dict[str, str]:
    """The deferred indexes' definitions: from the catalog, or — for one a failed run dropped and did not build
    again — from the copy kept beside the embedding cache when it was dropped."""
    import json

    saved_file = cache_root().parent / "deferred_indexes.json"
    saved = json.loads(saved_file.read_text()) if saved_file.exists() else {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY(%s)",
            [list(DEFERRED_INDEXES)],
        )
        found = dict(cursor.fetchall())
    definitions = {**saved, **found}
    saved_file.parent.mkdir(parents=True, exist_ok=True)
    saved_file.write_text(json.dumps(definitions, indent=1))
    return definitions


def indexes_drop(names: list[str]) -> None:
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')


def indexes_build(
    definitions: dict[str, str], *, progress: Progress | None = None, maintenance_mem: str = "2GB"
) -> dict[str, float]:
    """Create the indexes that are missing, one by one; returns seconds per index. An HNSW build is fast only
    while its graph fits ``maintenance_mem`` (~2 KB a 384-dimension vector: 4GB for ~1.2M chunks)."""
    timings = {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        present = {row[0] for row in cursor.fetchall()}
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [maintenance_mem])
        for name, definition in definitions.items():
            if name in present:
                continue
            started = time.perf_counter()
            cursor.execute(definition)
            timings[name] = round(time.perf_counter() - started, 1)
            if progress is not None:
                progress(f"index {name}", 1, 1, timings[name])
        cursor.execute("RESET maintenance_work_mem")
    return timings


def corpus_load(
    plan: CorpusPlan, *, progress: Progress | None = None, batch: int = BATCH, tenants: list[int] | None = None
) -> LoadReport:
    """Write the corpus (its embeddings must be cached: :func:`corpus_embed`). Existing tenants of the same
    slug are refused — a corpus is loaded once and reused."""
    from memories.embedding import make_embedder
    from memories.models import Tenant

    cache = EmbeddingCache(cache_root(), make_embedder(settings.ORGMEMORY_EMBEDDER, threads=1).name)
    report = LoadReport()
    for tp in plan.tenants:
        if tenants is not None and tp.index not in tenants:
            continue
        if Tenant.objects.filter(slug=tp.slug).exists():
            raise ValueError(f"tenant {tp.slug} exists: the corpus is loaded already")
    for tp in plan.tenants:
        if tenants is not None and tp.index not in tenants:
            continue
        _load_tenant(plan, tp, cache=cache, report=report, progress=progress, batch=batch)
    return report


def tenant_tree_create(tp: TenantPlan):
    """The plan's tenant, its scope tree and its members, through the ORM in one transaction (what
    ``onboard_tenant`` would create from an org chart); returns the tenant, the scope ids by tag and the member ids
    by user id."""
    from memories.models import Member, Scope, Tenant

    with transaction.atomic():
        tenant = Tenant.objects.create(slug=tp.slug, name=tp.name, levels=list(tp.levels))
        ids: dict[str, int] = {}
        for level in tp.levels:
            rows = [s for s in tp.scopes if s.level == level]
            created = Scope.objects.bulk_create(
                [
                    Scope(
                        tenant=tenant,
                        level=s.level,
                        key=s.key,
                        name=s.name,
                        parent_id=ids[s.parent] if s.parent else None,
                    )
                    for s in rows
                ],
                batch_size=2000,
            )
            ids.update({s.tag: c.pk for s, c in zip(rows, created, strict=True)})
        members = Member.objects.bulk_create(
            [
                Member(
                    tenant=tenant,
                    user_id=user,
                    scope_id=ids[f"{tp.levels[-1]}:{user}"],
                    display_name=tp.user_names[user],
                )
                for user in tp.users
            ],
            batch_size=2000,
        )
    return tenant, ids, {m.user_id: m.pk for m in members}


def _load_tenant(
    plan: CorpusPlan, tp: TenantPlan, *, cache: EmbeddingCache, report: LoadReport, progress, batch: int
) -> None:
    from memories.services.memory.validation import content_hash

    started = time.perf_counter()
    tenant, ids, member_ids = tenant_tree_create(tp)
    report.tenants[tp.slug] = tenant.pk
    report.add("tree", time.perf_counter() - started)

    stored: set[tuple[str, str]] = set()  # (scope tag, content hash): exact duplicates are skipped
    entity_ids: dict[str, int] = {}  # norm -> id
    entity_rows: list[tuple] = []
    mentions: dict[int, set[int]] = {}
    now = timezone.now()
    raw = connection.connection  # psycopg connection (Django's is open after the ORM calls above)
    from pgvector.psycopg import register_vector

    register_vector(raw)
    for start in range(0, tp.memories, batch):
        t0 = time.perf_counter()
        memories = [memory_at(plan, tp.index, ordinal) for ordinal in range(start, min(tp.memories, start + batch))]
        report.add("generate", time.perf_counter() - t0)
        t0 = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            memory_ids = _ids(cursor, "memories_memory", len(memories))
            new_entities = []
            for memory in memories:
                for name, kind in memory.entities:
                    norm = normalize_entity_name(name)
                    if norm and norm not in entity_ids:
                        entity_ids[norm] = -1
                        new_entities.append((norm, name, kind))
            for (norm, name, kind), entity_id in zip(
                new_entities, _ids(cursor, "graph_entity", len(new_entities)), strict=True
            ):
                entity_ids[norm] = entity_id
                entity_rows.append((entity_id, tenant.pk, name[:200], norm[:200], kind, "", 0, now))
            stage_memories, chunk_rows, link_rows = [], [], []
            for memory, memory_id in zip(memories, memory_ids, strict=True):
                digest = content_hash(memory.content)
                if (memory.scope, digest) in stored:  # the write path would return the stored twin
                    report.duplicates += 1
                    continue
                stored.add((memory.scope, digest))
                created = now - timedelta(days=memory.days_ago)
                author_member = member_ids.get(memory.author)
                stage_memories.append(
                    (
                        memory_id,
                        tenant.pk,
                        ids[memory.scope],
                        memory.kind,
                        memory.title,
                        memory.content,
                        digest,
                        author_member,
                        tp.user_names.get(memory.author, "import"),
                        created,
                    )
                )
                texts = chunk_texts(memory)
                vectors = cache.get([text_key(text) for text in texts])
                for ordinal, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
                    chunk_rows.append((memory_id, tenant.pk, ids[memory.scope], ordinal, text, vector))
                seen = set()
                for link in memory.links:
                    subject = entity_ids.get(normalize_entity_name(link.subject))
                    obj = entity_ids.get(normalize_entity_name(link.object)) if link.object else None
                    if subject is None or (link.object and obj is None) or (subject, link.relationship, obj) in seen:
                        continue
                    seen.add((subject, link.relationship, obj))
                    mentions.setdefault(subject, set()).add(memory_id)
                    if obj is not None:
                        mentions.setdefault(obj, set()).add(memory_id)
                    confidence = 1.0 if link.relationship == "about" else (0.6 if obj is None else 0.9)
                    link_rows.append(
                        (
                            tenant.pk,
                            memory_id,
                            subject,
                            link.relationship,
                            obj,
                            confidence,
                            normalize_entity_name(link.subject)[:200],
                            normalize_entity_name(link.object)[:200] if link.object else "",
                            link.span_start,
                            link.span_end,
                        )
                    )
            report.add("prepare", time.perf_counter() - t0)
            t0 = time.perf_counter()
            _copy_memories(cursor, raw, stage_memories)
            report.add("copy memories (+ BM25 triggers)", time.perf_counter() - t0)
            t0 = time.perf_counter()
            with (
                raw.cursor() as pg,
                pg.copy(
                    "COPY memories_memorychunk (memory_id, tenant_id, scope_id, ordinal, text, embedding) "
                    "FROM STDIN WITH (FORMAT BINARY)"
                ) as copy,
            ):
                copy.set_types(["int8", "int8", "int8", "int2", "text", "vector"])
                for row in chunk_rows:
                    copy.write_row(row)
            report.add("copy chunks", time.perf_counter() - t0)
            t0 = time.perf_counter()
            with raw.cursor() as pg:
                with pg.copy(
                    "COPY graph_entity (id, tenant_id, name, norm, kind, target, mention_count, created_at) FROM STDIN"
                ) as copy:
                    for row in entity_rows:
                        copy.write_row(row)
                with pg.copy(
                    "COPY graph_entitylink (tenant_id, memory_id, subject_id, relationship, object_id, confidence, "
                    "subject_norm, object_norm, metadata, span_start, span_end) FROM STDIN"
                ) as copy:
                    for row in link_rows:
                        copy.write_row((*row[:8], "{}", *row[8:]))
            report.add("copy graph", time.perf_counter() - t0)
        report.memories += len(stage_memories)
        report.chunks += len(chunk_rows)
        report.entities += len(entity_rows)
        report.links += len(link_rows)
        entity_rows = []
        if progress is not None:
            progress(f"load {tp.slug}", min(tp.memories, start + batch), tp.memories, sum(report.seconds.values()))
    t0 = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        # IF NOT EXISTS + TRUNCATE: inside a caller's transaction (a test) the previous tenant's table is still there
        cursor.execute("CREATE TEMP TABLE IF NOT EXISTS corpus_mentions (id bigint PRIMARY KEY, n int) ON COMMIT DROP")
        cursor.execute("TRUNCATE corpus_mentions")
        with raw.cursor() as pg, pg.copy("COPY corpus_mentions (id, n) FROM STDIN") as copy:
            for entity_id, memories_of in mentions.items():
                copy.write_row((entity_id, len(memories_of)))
        cursor.execute(
            "UPDATE graph_entity e SET mention_count = c.n FROM corpus_mentions c "
            "WHERE e.id = c.id AND e.tenant_id = %s",
            [tenant.pk],
        )
    report.add("graph counts", time.perf_counter() - t0)


_STAGE_COLUMNS = (
    "id bigint, tenant_id bigint, scope_id bigint, kind text, title text, content text, content_hash text, "
    "author_member_id bigint, author text, created_at timestamptz"
)


def _copy_memories(cursor, raw, rows: list[tuple]) -> None:
    cursor.execute(f"CREATE TEMP TABLE IF NOT EXISTS corpus_stage ({_STAGE_COLUMNS})")
    cursor.execute("TRUNCATE corpus_stage")
    with raw.cursor() as pg, pg.copy("COPY corpus_stage FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    # one statement: the BM25 statement-level triggers see the whole batch in their transition table
    cursor.execute(
        """
        INSERT INTO memories_memory (
            id, tenant_id, scope_id, kind, title, content, content_hash, search_vector, dedup_bands,
            author_member_id, author_user_id, author, source_app, source_session, source_event_id, external_id,
            metadata, warnings, created_at, updated_at, superseded_by_id, superseded_at, expires_at,
            embedding_model, index_state, index_error, indexed_at, links_state, links_error,
            status, source, source_key, event_dates)
        SELECT id, tenant_id, scope_id, kind, title, content, content_hash, """
        + search_vector_sql("title", "content")  # the write path's own definition of the indexed text
        + """,
               '{}', author_member_id, NULL, author, 'corpus', '', '', '', '{}', '[]', created_at, created_at,
               NULL, NULL, NULL, %s, 'ready', '', now(), 'ready', '',
               'active', 'import', '', '[]'
        FROM corpus_stage
        """,
        [_embedder_name()],
    )


def _embedder_name() -> str:
    from memories.embedding import make_embedder

    global _EMBEDDER_NAME
    if _EMBEDDER_NAME is None:
        _EMBEDDER_NAME = make_embedder(settings.ORGMEMORY_EMBEDDER, threads=1).name
    return _EMBEDDER_NAME


_EMBEDDER_NAME: str | None = None


# --- checks -------------------------------------------------------------------------------------------------------

_STATISTICS_CHECK = f"""
WITH docs AS (
    SELECT m.tenant_id, count(*) AS doc_count, coalesce(sum(length(m.search_vector)), 0) AS total_length
    FROM memories_memory m
    WHERE m.tenant_id = ANY(%(tenants)s) AND {current_sql("m")} AND m.search_vector IS NOT NULL
    GROUP BY m.tenant_id
),
terms AS (
    SELECT m.tenant_id, l.lexeme, count(*) AS doc_count
    FROM memories_memory m CROSS JOIN LATERAL unnest(tsvector_to_array(m.search_vector)) AS l(lexeme)
    WHERE m.tenant_id = ANY(%(tenants)s) AND {current_sql("m")} AND m.search_vector IS NOT NULL
    GROUP BY m.tenant_id, l.lexeme
)
SELECT
    (SELECT count(*) FROM docs d FULL JOIN (
        SELECT * FROM retrieval_corpus_statistic WHERE tenant_id = ANY(%(tenants)s)) s ON s.tenant_id = d.tenant_id
     WHERE d.doc_count IS DISTINCT FROM s.doc_count OR d.total_length IS DISTINCT FROM s.total_length),
    (SELECT count(*) FROM terms r FULL JOIN (
        SELECT * FROM retrieval_term_statistic WHERE tenant_id = ANY(%(tenants)s)) t
        ON t.tenant_id = r.tenant_id AND t.lexeme = r.lexeme
     WHERE r.doc_count IS DISTINCT FROM t.doc_count),
    (SELECT count(*) FROM terms),
    (SELECT coalesce(sum(doc_count), 0) FROM docs),
    -- the postings as retrieval.0004's triggers define them (tf as they clamp it), recomputed from the rows
    (SELECT count(*) FROM (
        SELECT m.tenant_id, u.lexeme, m.scope_id, m.id AS memory_id, m.kind, m.expires_at,
               least(greatest(coalesce(cardinality(u.positions), 0), 1), 255) AS tf,
               length(m.search_vector) AS doc_length
        FROM memories_memory m CROSS JOIN LATERAL unnest(m.search_vector) u
        WHERE m.tenant_id = ANY(%(tenants)s) AND {current_sql("m")} AND m.search_vector IS NOT NULL
     ) r FULL JOIN (SELECT * FROM retrieval_posting WHERE tenant_id = ANY(%(tenants)s)) p
        ON p.tenant_id = r.tenant_id AND p.lexeme = r.lexeme AND p.scope_id = r.scope_id AND p.memory_id = r.memory_id
     WHERE (p.kind, p.expires_at, p.tf, p.doc_length) IS DISTINCT FROM (r.kind, r.expires_at, r.tf, r.doc_length))
"""


def bm25_statistics_check(tenant_ids: list[int]) -> dict[str, int]:
    """Recompute the BM25 statistics and the postings of these tenants from their rows and count the
    disagreements with what the triggers kept (all must be 0)."""
    with connection.cursor() as cursor:
        cursor.execute(_STATISTICS_CHECK, {"tenants": list(tenant_ids)})
        corpus_bad, terms_bad, lexemes, docs, postings_bad = cursor.fetchone()
    return {
        "corpus_rows_wrong": corpus_bad,
        "term_rows_wrong": terms_bad,
        "posting_rows_wrong": postings_bad,
        "lexemes": lexemes,
        "documents": docs,
    }
