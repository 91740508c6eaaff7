"""BM25 statistics for the keyword arm (docs/ARCHITECTURE.md § Search path).

Per tenant: how many live memories there are and their total length (distinct lexemes of each stored vector,
the document length BM25 uses here), and for each lexeme
how many live memories contain it. PostgreSQL keeps them current with triggers on ``memories_memory`` (migration
``0001_bm25_statistics``): every path that inserts, re-indexes, supersedes or deletes a memory — the write service,
bulk deletes, erasure, the admin, raw SQL — goes through the same triggers, so the figures cannot drift from the
rows. A "live" memory here is one that is not superseded and has a search vector; expiry is left to the sweeper's
deletes (an expired row still counts until it is deleted, which moves IDF by a negligible amount).

Why tables kept by triggers rather than a materialised view: a refresh rescans the whole corpus (cost grows with
the tenant), while a trigger's work is proportional to the rows a statement changes. Inserts, updates and deletes use
statement-level triggers with transition tables: one aggregate per statement, so a bulk insert, re-index or delete
is one update per lexeme, and an update that changes neither the vector nor the superseded state (access counts,
index states) costs one join of the changed rows and nothing else. The corpus
row is updated first in every trigger, so concurrent writers of one tenant queue on it and take the lexeme rows
in the same order (no deadlock).

The tenant is a plain indexed column (no foreign key): the rows are derived data that the triggers delete when
their count reaches zero, and a tenant's deletion must not wait on them.
"""

from __future__ import annotations

from django.contrib.postgres.indexes import GinIndex
from django.db import models

from memories.models.tenancy import TenantKeyed


class CorpusStatistic(models.Model):
    tenant_id = models.BigIntegerField(primary_key=True)
    doc_count = models.BigIntegerField(default=0, help_text="Live memories with a search vector.")
    total_length = models.BigIntegerField(default=0, help_text="Their distinct lexemes, summed.")

    class Meta:
        db_table = "retrieval_corpus_statistic"

    def __str__(self) -> str:
        return f"tenant {self.tenant_id}: {self.doc_count} memories"


class TermStatistic(TenantKeyed, models.Model):
    tenant_id = models.BigIntegerField()
    lexeme = models.TextField()
    doc_count = models.BigIntegerField(default=0, help_text="Live memories whose search vector holds the lexeme.")

    class Meta:
        db_table = "retrieval_term_statistic"
        constraints = [models.UniqueConstraint(fields=["tenant_id", "lexeme"], name="term_statistic_unique")]
        # the triggers delete the rows that reach zero: this keeps finding them independent of the vocabulary
        indexes = [
            models.Index(fields=["tenant_id"], condition=models.Q(doc_count__lte=0), name="term_statistic_empty"),
            # the keyword arm's stand-ins for unknown query lexemes (typos): trigram similarity over the vocabulary
            GinIndex(fields=["lexeme"], opclasses=["gin_trgm_ops"], name="term_statistic_lexeme_trgm"),
        ]

    def __str__(self) -> str:
        return f"{self.lexeme}: {self.doc_count}"


class Posting(models.Model):
    """The keyword arm's inverted index: one row per live memory and lexeme of its search vector, with what BM25
    and the visibility filter need (scope, kind, expiry, term frequency, length), so a search scores its
    candidates from one b-tree without reading a memory row (migration ``0004_postings``; docs/ARCHITECTURE.md
    § Search path).

    The primary key is ``(tenant, lexeme, scope, memory)`` and carries the rest as INCLUDE columns (made by the
    migration's SQL: Django cannot declare them), so the arm's reads are index-only scans that touch only the
    caller's scopes: cost follows the caller's visible postings of the query's lexemes, not the tenant's or the
    database's size (a GIN index over every tenant's vectors did not: its posting lists held every tenant's rows and
    each match cost a heap visit). The same triggers as the statistics keep it: a row is written with its
    memory, rewritten when its vector, liveness, scope, kind or expiry changes, and deleted with it — erasure
    leaves no posting behind. No foreign key, for the statistics' reason."""

    pk = models.CompositePrimaryKey("tenant_id", "lexeme", "scope_id", "memory_id")
    tenant_id = models.BigIntegerField()
    lexeme = models.TextField()
    scope_id = models.BigIntegerField()
    memory_id = models.BigIntegerField()
    kind = models.CharField(max_length=16)
    # when the memory stops being visible: its expiry or the end of its validity, the earlier (migration 0006)
    expires_at = models.DateTimeField(null=True)
    valid_from = models.DateTimeField(null=True)
    tf = models.SmallIntegerField(help_text="Occurrences of the lexeme in the memory (positions kept, at most 255).")
    doc_length = models.IntegerField(help_text="The memory's distinct lexemes (BM25's document length).")

    class Meta:
        db_table = "retrieval_posting"

    def __str__(self) -> str:
        return f"{self.lexeme} in memory {self.memory_id}"
