"""The vectors a re-embed writes before its tenant switches to them (``manage.py reembed``)."""

from __future__ import annotations

from django.db import models
from pgvector.django import VectorField

from memories.models.memory import EMBEDDING_DIM
from memories.models.tenancy import Tenant


class ChunkShadowVector(models.Model):
    """A chunk's vector from the embedder its tenant is being moved to. Search never reads this table: it reads
    ``MemoryChunk.embedding``, which keeps the vectors of the tenant's recorded embedder until the re-embed copies
    every shadow vector over them and records the new embedder, in one transaction. One row per chunk done, so
    an interrupted re-embed continues where it stopped.

    Keyed ``(tenant, chunk_id)`` (Citus-ready); no foreign key to the chunk, so that re-indexing a memory, which
    replaces its chunks, costs nothing here: a replaced chunk's row is left behind, is never copied (the copy
    joins on the chunks that exist), and goes with the others at the switch."""

    pk = models.CompositePrimaryKey("tenant_id", "chunk_id")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    chunk_id = models.BigIntegerField()
    embedder = models.CharField(max_length=40, help_text="The embedder the vector is from.")
    embedding = VectorField(dimensions=EMBEDDING_DIM)

    def __str__(self) -> str:
        return f"{self.chunk_id} ({self.embedder})"
