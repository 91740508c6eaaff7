"""Moving a tenant's stored vectors to another embedder (``manage.py reembed``), without a search ever reading a
mix of two embedders' vectors.

Search reads ``MemoryChunk.embedding`` and embeds its question with the tenant's recorded embedder
(``Tenant.embedder``, :func:`memories.embedding.tenant_embedder`). The re-embed writes each chunk's new vector
beside it, into ``ChunkShadowVector``, in short transactions of one batch each (so it can stop anywhere and a
second run continues from the chunks without one); until the end the tenant's searches read the old vectors with
the old embedder, as if nothing were happening. Then one transaction, holding the tenant's row, embeds whatever
chunks were written meanwhile, copies every shadow vector over its chunk's, records the new model on the memories
and the new embedder on the tenant, and empties the shadow rows: readers see all of the old state or all of the
new one.

A second column or a per-chunk embedder mark would have needed the search's statement to choose between vectors;
a table beside it leaves that statement as it is, costs nothing to tenants not being moved, and leaves nothing
behind once the tenant has switched."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, Subquery

from memories.embedding import Embedder, canonical_kind
from memories.models import ChunkShadowVector, Memory, MemoryChunk, Tenant
from orgmemory.errors import Conflict

logger = logging.getLogger(__name__)

BATCH_SIZE = 256  # chunks per model call and per transaction: a few seconds of one core
_ADVISORY_CLASS = 0x0E5  # pg_advisory_lock's first key: "a re-embed of tenant <second key>"


@dataclass(frozen=True)
class ReembedResult:
    kind: str
    model: str
    chunks: int  # the tenant's chunks when it switched
    embedded: int  # embedded by this run (the rest by an earlier, interrupted one)
    switched: bool  # False: its vectors were already from ``kind``


def tenant_reembed(
    *,
    tenant: Tenant,
    embedder: Embedder,
    batch_size: int = BATCH_SIZE,
    on_start: Callable[[int, int], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> ReembedResult:
    """Re-embed every chunk of ``tenant`` with ``embedder`` and switch the tenant to it when all are done.

    Resumable: the chunks embedded by an interrupted run are kept and not embedded again. ``on_start(total,
    done)`` is called once with the tenant's chunks and those already embedded, ``on_batch(n)`` after each batch
    is stored. Raises Conflict while another re-embed of the tenant runs."""
    kind = canonical_kind(embedder.kind)
    with _tenant_reembed_lock(tenant=tenant):
        tenant.refresh_from_db(fields=["embedder"])
        if tenant.embedder == kind:
            ChunkShadowVector.objects.filter(tenant=tenant).delete()
            chunks = MemoryChunk.objects.filter(tenant=tenant).count()
            return ReembedResult(kind=kind, model=embedder.name, chunks=chunks, embedded=0, switched=False)
        # vectors of another embedder are what an abandoned re-embed towards it left
        ChunkShadowVector.objects.filter(tenant=tenant).exclude(embedder=kind).delete()
        total = MemoryChunk.objects.filter(tenant=tenant).count()
        done = ChunkShadowVector.objects.filter(tenant=tenant).count()
        if on_start is not None:
            on_start(total, done)
        embedded = 0
        after: tuple[int, int] | None = None
        while True:
            count, after = _shadow_batch(tenant=tenant, embedder=embedder, batch_size=batch_size, after=after)
            if not count:
                break
            embedded += count
            if on_batch is not None:
                on_batch(count)
        switched_chunks, late = tenant_embedder_switch(tenant=tenant, embedder=embedder, batch_size=batch_size)
        return ReembedResult(
            kind=kind, model=embedder.name, chunks=switched_chunks, embedded=embedded + late, switched=True
        )


@transaction.atomic
def tenant_embedder_switch(*, tenant: Tenant, embedder: Embedder, batch_size: int = BATCH_SIZE) -> tuple[int, int]:
    """Switch ``tenant`` to ``embedder`` in one transaction: under the tenant's row lock, embed the chunks still
    without a shadow vector (written since the last batch), copy every shadow vector over its chunk's, record
    the model on the memories and the embedder on the tenant, and drop the shadow rows. Returns the chunks
    switched and those embedded here."""
    kind = canonical_kind(embedder.kind)
    locked = Tenant.objects.select_for_update().get(pk=tenant.pk)
    late = 0
    after: tuple[int, int] | None = None
    while True:
        count, after = _shadow_batch(tenant=locked, embedder=embedder, batch_size=batch_size, after=after)
        if not count:
            break
        late += count
    shadow = ChunkShadowVector.objects.filter(tenant=locked, embedder=kind, chunk_id=OuterRef("pk"))
    switched = (
        MemoryChunk.objects.filter(tenant=locked)
        .filter(Exists(shadow))
        .update(embedding=Subquery(shadow.values("embedding")[:1]))
    )
    with_chunks = MemoryChunk.objects.filter(tenant=locked, memory_id=OuterRef("pk"))
    Memory.objects.filter(tenant=locked).exclude(embedding_model=embedder.name).filter(Exists(with_chunks)).update(
        embedding_model=embedder.name
    )
    locked.embedder = kind
    locked.save(update_fields=["embedder"])
    ChunkShadowVector.objects.filter(tenant=locked).delete()
    tenant.embedder = kind
    logger.info("tenant %s switched to embedder %s (%d chunks)", locked.slug, kind, switched)
    return switched, late


def _shadow_batch(
    *, tenant: Tenant, embedder: Embedder, batch_size: int, after: tuple[int, int] | None
) -> tuple[int, tuple[int, int] | None]:
    """Embed up to ``batch_size`` of the tenant's chunks that have no shadow vector yet, in (memory, ordinal)
    order after ``after``, and store their vectors in one short transaction. Returns how many, and where the
    next batch starts."""
    kind = canonical_kind(embedder.kind)
    done = ChunkShadowVector.objects.filter(tenant=tenant, embedder=kind, chunk_id=OuterRef("pk"))
    pending = MemoryChunk.objects.filter(tenant=tenant).filter(~Exists(done))
    if after is not None:
        memory_id, ordinal = after
        pending = pending.filter(Q(memory_id__gt=memory_id) | Q(memory_id=memory_id, ordinal__gt=ordinal))
    rows = list(pending.order_by("memory_id", "ordinal").values_list("pk", "memory_id", "ordinal", "text")[:batch_size])
    if not rows:
        return 0, after
    vectors = embedder.embed([text for _, _, _, text in rows])
    ChunkShadowVector.objects.bulk_create(
        [
            ChunkShadowVector(tenant=tenant, chunk_id=pk, embedder=kind, embedding=vector)
            for (pk, _, _, _), vector in zip(rows, vectors, strict=True)
        ],
        ignore_conflicts=True,  # a second run of the same re-embed wrote it first
    )
    _, memory_id, ordinal, _ = rows[-1]
    return len(rows), (memory_id, ordinal)


@contextmanager
def _tenant_reembed_lock(*, tenant: Tenant):
    """One re-embed per tenant at a time (a session advisory lock, freed with the connection if the run dies)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_ADVISORY_CLASS, tenant.pk])
        (acquired,) = cursor.fetchone()
    if not acquired:
        raise Conflict(f"A re-embed of tenant {tenant.slug!r} is already running.", code="reembed_running")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_ADVISORY_CLASS, tenant.pk])
