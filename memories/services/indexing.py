"""Indexing: what a memory's full-text vector is made of (one definition for every writer), the explicit hand-off
of new memories to their indexing on commit, and embedding as overlapping chunks (batched). Re-queueing rows whose
indexing never finished is ``memories.tasks``' sweep; a memory changed through ``Model.save()`` is queued by
``memories.signals`` under the same key, so one commit is still one task."""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.db import connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from memories.embedding import tenant_embedder
from memories.indexing_text import TEXT_SEARCH_CONFIG, chunk_windows, expand_glossary
from memories.models import IndexState, Memory, MemoryChunk, Policy, Tenant
from memories.selectors.tenancy import scope_chain_for_scope
from memories.services.tenancy import policy_effective

logger = logging.getLogger(__name__)

if not re.fullmatch(r"[a-z_]+", TEXT_SEARCH_CONFIG):  # it is written into SQL as a literal below
    raise ValueError(f"TEXT_SEARCH_CONFIG {TEXT_SEARCH_CONFIG!r} is not a text search configuration name")

EMBED_QUEUE = "embed"  # the on-commit queue of memories to embed (``memories.signals`` uses it too)

memories_index_requested = Signal()
"""Sent by :func:`memories_index_queue` with ``memory_ids`` and ``using``: other apps queue their own indexing of
new memories here (the graph's link extraction), without the write path knowing them."""


def indexed_texts(*, title: str, content: str, glossary: Mapping[str, str]) -> tuple[str, str]:
    """The title and content as the full-text vector indexes them: glossary-expanded (the stored text stays as
    written)."""
    return expand_glossary(title, glossary), expand_glossary(content, glossary)


def search_vector_sql(title: str, content: str) -> str:
    """The stored full-text vector of a memory as an SQL expression over two SQL text expressions (the
    :func:`indexed_texts` of its title and content): title weighted A over content B, in the text search
    configuration every query uses. The one definition for every statement that writes ``search_vector``."""
    config = f"'{TEXT_SEARCH_CONFIG}'::regconfig"
    return (
        f"setweight(to_tsvector({config}, coalesce({title}, '')), 'A') "
        f"|| setweight(to_tsvector({config}, coalesce({content}, '')), 'B')"
    )


def memory_search_vector_write(*, memory: Memory, glossary: Mapping[str, str]) -> None:
    """Rewrite ``memory``'s stored full-text vector from its current title and content (after an update or a
    move: the glossary may differ at its new scope)."""
    title, content = indexed_texts(title=memory.title, content=memory.content, glossary=glossary)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Memory._meta.db_table)} "
            f"SET search_vector = {search_vector_sql('%s', '%s')} WHERE id = %s",
            [title, content, memory.pk],
        )


_collecting = threading.local()  # per thread: another thread's writes are never collected by mistake


def _collectors() -> list[list[int]]:
    if not hasattr(_collecting, "stack"):
        _collecting.stack = []
    return _collecting.stack


def memories_index_queue(*, memory_ids: Sequence[int], using: str = "default") -> None:
    """Hand new memories to their indexing once the transaction commits: every receiver of
    :data:`memories_index_requested` queues its own part (embedding in ``memories.signals``, link extraction in
    ``graph.signals``), so this module never imports the tasks that import it. The write path's one explicit
    call. Inside :func:`index_requests_collected` the ids are collected instead, for the caller to index."""
    collectors = _collectors()
    if collectors:
        collectors[-1].extend(memory_ids)
        return
    memories_index_requested.send(sender=Memory, memory_ids=list(memory_ids), using=using)


@contextlib.contextmanager
def index_requests_collected() -> Iterator[list[int]]:
    """Collect the ids the write path hands to indexing instead of queueing them (a bulk import indexes them in
    worker processes, batch by batch: :func:`memories_index_now`). Ids of a write that rolled back may be among
    them: indexing skips rows that do not exist."""
    collected: list[int] = []
    _collectors().append(collected)
    try:
        yield collected
    finally:
        _collectors().remove(collected)


def memories_index_now(*, memory_ids: Sequence[int], using: str = "default") -> None:
    """Index ``memory_ids`` in this process and return when done: what every receiver of
    :data:`memories_index_requested` does (embedding, link extraction), run right away, each once for the whole
    list, outside any transaction of the caller's (committed rows only)."""
    if not memory_ids:
        return
    with transaction.atomic(using=using):  # the receivers queue on commit: one task call each for all the ids
        memories_index_requested.send(sender=Memory, memory_ids=list(memory_ids), using=using)


def chunk_texts_for(memory: Memory, glossary: dict[str, str]) -> list[str]:
    """What gets embedded for a memory: its (glossary-expanded) content in overlapping windows, each prefixed
    by the title so that every window knows what it is about."""
    body = expand_glossary(memory.content, glossary)
    title = expand_glossary(memory.title, glossary)
    windows = chunk_windows(body) or [title]
    return [f"{title}. {window}" if title else window for window in windows]


def memories_embed(*, memory_ids: list[int]) -> dict[str, Any]:
    """Embed the given memories in one batched model call (the embedder sorts the texts by length, so each
    forward pass pads little) and replace their chunks in four statements.

    A failing embedder leaves each memory saved with ``index_state=failed`` and the error recorded (the sweeper
    retries it later); when the batch call fails, each memory is embedded on its own, so a text the model
    rejects fails only its own memory. A memory whose content changed while it was being embedded stays pending:
    the change queued its own task. Returns counts and timings.
    """
    memories = list(Memory.objects.filter(pk__in=memory_ids).select_related("tenant", "scope").order_by("id"))
    if not memories:
        return {"embedded": 0, "failed": 0, "chunks": 0, "seconds": 0.0}
    glossaries: dict[int, dict[str, str]] = {}
    # a tenant none of whose policies has a glossary (the usual case) expands nothing at any scope: one query for
    # the batch instead of a scope chain and a policy read per distinct scope
    with_glossary = set(
        Policy.objects.filter(tenant_id__in={memory.tenant_id for memory in memories}, glossary__isnull=False)
        .exclude(glossary={})
        .values_list("tenant_id", flat=True)
    )
    texts: list[str] = []
    spans: list[tuple[Memory, int, int]] = []
    snapshot = {memory.pk: (memory.content_hash, memory.title) for memory in memories}
    for memory in memories:
        if memory.tenant_id not in with_glossary:
            glossaries.setdefault(memory.scope_id, {})
        elif memory.scope_id not in glossaries:
            chain = scope_chain_for_scope(tenant=memory.tenant, scope=memory.scope)
            glossaries[memory.scope_id] = policy_effective(tenant=memory.tenant, chain=chain)["glossary"] or {}
        memory_texts = chunk_texts_for(memory, glossaries[memory.scope_id])
        spans.append((memory, len(texts), len(texts) + len(memory_texts)))
        texts.extend(memory_texts)

    started = time.perf_counter()
    failed: dict[int, str] = {}
    embedder = None
    try:
        # each tenant's memories are embedded by the embedder its stored vectors are from (Tenant.embedder)
        embedders = {memory.tenant_id: tenant_embedder(tenant=memory.tenant) for memory in memories}
        if len({id(each) for each in embedders.values()}) > 1:  # tenants of two vector spaces in one batch
            return _per_embedder(memories, embedders)
        embedder = next(iter(embedders.values()))
        vectors = embedder.embed(texts)
    except Exception as exc:  # any embedder failure must leave the memory saved and retryable
        error = f"{type(exc).__name__}: {exc}"[:2000]
        logger.warning("embedding %d memories failed: %s", len(memories), error)
        if embedder is None or len(spans) == 1:
            _mark_failed({memory.pk: error for memory in memories})
            return {"embedded": 0, "failed": len(memories), "chunks": 0, "seconds": time.perf_counter() - started}
        # one text the model rejects must not hold back the rest of the batch: embed it memory by memory
        vectors, failed = _embed_one_by_one(embedder, texts, spans)
        spans = [span for span in spans if span[0].pk not in failed]
        _mark_failed(failed)
    embed_seconds = time.perf_counter() - started

    now = timezone.now()
    with transaction.atomic():
        # a re-embed that switched a tenant since (it holds the tenant's row until it commits) leaves that tenant's
        # memories pending: the sweep embeds them with the new embedder
        switched = _switched_tenants({memory.tenant_id: memory.tenant.embedder for memory, _, _ in spans})
        # one locking read, one delete, one insert and one update for the whole batch (was four statements per
        # memory); rows are locked in id order so two overlapping batches cannot deadlock
        current = {
            pk: scope_id
            for pk, scope_id, content_hash, title in Memory.objects.select_for_update()
            .filter(pk__in=[memory.pk for memory, _, _ in spans if memory.tenant_id not in switched])
            .order_by("pk")
            .values_list("pk", "scope_id", "content_hash", "title")
            if (content_hash, title) == snapshot[pk]
        }  # a memory deleted or changed meanwhile is left alone: its own task indexes the new text
        MemoryChunk.objects.filter(memory_id__in=list(current)).delete()
        MemoryChunk.objects.bulk_create(
            (
                MemoryChunk(
                    memory_id=memory.pk,
                    tenant_id=memory.tenant_id,
                    scope_id=current[memory.pk],
                    ordinal=ordinal,
                    text=texts[index],
                    embedding=vectors[index],
                )
                for memory, start, end in spans
                if memory.pk in current
                for ordinal, index in enumerate(range(start, end))
            ),
            batch_size=500,
        )
        embedded = Memory.objects.filter(pk__in=list(current)).update(
            index_state=IndexState.READY, index_error="", indexed_at=now, embedding_model=embedder.name
        )
    return {"embedded": embedded, "failed": len(failed), "chunks": len(texts), "seconds": embed_seconds}


def _switched_tenants(read: dict[int, str]) -> set[int]:
    """The tenants whose embedder changed since ``read`` (tenant id → the embedder the batch was embedded for),
    their rows held in share mode until the caller's transaction ends: a re-embed's switch waits for it (and then
    embeds the chunks it wrote), or it waits for the switch."""
    table = connection.ops.quote_name(Tenant._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, embedder FROM {table} WHERE id = ANY(%s) ORDER BY id FOR SHARE", [list(read)])
        return {pk for pk, kind in cursor.fetchall() if kind != read[pk]}


def _per_embedder(memories: list[Memory], embedders: dict[int, Any]) -> dict[str, Any]:
    groups: dict[int, list[int]] = {}
    for memory in memories:
        groups.setdefault(id(embedders[memory.tenant_id]), []).append(memory.pk)
    results = [memories_embed(memory_ids=ids) for ids in groups.values()]
    return {key: sum(result[key] for result in results) for key in ("embedded", "failed", "chunks", "seconds")}


def _embed_one_by_one(
    embedder, texts: list[str], spans: list[tuple[Memory, int, int]]
) -> tuple[list[Any], dict[int, str]]:
    """Vectors for each memory's own texts (None where its call failed) and the failed memories' errors."""
    vectors: list[Any] = [None] * len(texts)
    failed: dict[int, str] = {}
    for memory, start, end in spans:
        try:
            vectors[start:end] = embedder.embed(texts[start:end])
        except Exception as exc:  # this memory alone is marked failed; the sweeper retries it
            failed[memory.pk] = f"{type(exc).__name__}: {exc}"[:2000]
    return vectors, failed


def _mark_failed(errors: dict[int, str]) -> None:
    now = timezone.now()
    for pk, error in errors.items():
        Memory.objects.filter(pk=pk).update(index_state=IndexState.FAILED, index_error=error, updated_at=now)
