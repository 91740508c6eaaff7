"""Memories and their embedding chunks."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField, DateRangeField
from django.contrib.postgres.indexes import GinIndex, GistIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from pgvector.django import VectorField

from memories import visibility
from memories.models.tenancy import ForTenantQuerySet, Member, Scope, Tenant, TenantKeyed

EMBEDDING_DIM = 384


class MemoryKind(models.TextChoices):
    FACT = "fact"
    POLICY = "policy"
    PREFERENCE = "preference"
    EVENT = "event"
    NOTE = "note"


class MemoryStatus(models.TextChoices):
    """A policy an agent key without ``admin`` writes is a proposal until an admin approves it (then curated: it
    has an admin-written policy's authority)."""

    ACTIVE = "active"
    PROPOSED = "proposed"
    CURATED = "curated"


class MemorySource(models.TextChoices):
    """How a memory was written (blank: written before the source was recorded)."""

    API = "api"
    SESSION = "session"
    IMPORT = "import"
    OBSIDIAN = "obsidian"
    ADMIN = "admin"


class IndexState(models.TextChoices):
    PENDING = "pending"
    READY = "ready"
    FAILED = "failed"


class MemoryQuerySet(ForTenantQuerySet):
    def live(self) -> MemoryQuerySet:
        """Not superseded, not expired, and valid now (its validity window, open ends unbounded, holds the present):
        what search may return (:mod:`memories.visibility`)."""
        return self.filter(visibility.live_q())

    def in_force(self) -> MemoryQuerySet:
        """Not superseded and not expired, whatever the validity window says (a read by id, dedup)."""
        return self.filter(visibility.in_force_q())

    def as_of(self, moment) -> MemoryQuerySet:
        """The memories as they stood at ``moment``: recorded by then, not yet superseded or expired then, and valid
        then (a superseded version answers as of its time)."""
        return self.filter(visibility.live_q(as_of=moment))


class Memory(TenantKeyed, models.Model):
    """One remembered item at one scope of one tenant."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memories")
    scope = models.ForeignKey(Scope, on_delete=models.CASCADE, related_name="memories", db_constraint=False)
    kind = models.CharField(max_length=16, choices=MemoryKind.choices, default=MemoryKind.FACT)
    title = models.CharField(max_length=300, blank=True)
    content = models.TextField()
    content_hash = models.CharField(max_length=64, help_text="SHA-256 of the normalised content.")
    search_vector = SearchVectorField(null=True, editable=False)
    dedup_bands = ArrayField(models.BigIntegerField(), default=list, blank=True, editable=False)

    author_member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="authored_memories", db_constraint=False
    )
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    author = models.CharField(max_length=200, blank=True, help_text="Display name of the author.")

    source_app = models.CharField(max_length=128, blank=True)
    source_session = models.CharField(max_length=256, blank=True)
    source_event_id = models.CharField(max_length=256, blank=True)
    external_id = models.CharField(max_length=256, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=8, choices=MemoryStatus.choices, default=MemoryStatus.ACTIVE)
    source = models.CharField(max_length=8, choices=MemorySource.choices, blank=True)
    source_key = models.CharField(max_length=100, blank=True, help_text="The name of the API key that wrote it.")

    created_at = models.DateTimeField(auto_now_add=True, db_index=False)
    updated_at = models.DateTimeField(auto_now=True)
    # CASCADE: deleting a memory deletes the older versions it superseded, on every delete path (a queryset or
    # scope delete included); SET_NULL made them live again ("forget emacs" brought "vim" back)
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="supersedes", db_constraint=False
    )
    superseded_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # time: when the memory is true (open ends unbounded), the "now" its relative dates refer to (a session event's
    # timestamp or the write's reference_time; None means created_at), and the dates its content mentions
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    reference_time = models.DateTimeField(null=True, blank=True)
    event_dates = models.JSONField(default=list, blank=True, help_text="ISO dates or {start, end} ranges.")
    # the days from the first to the last event date, as one range: a date window is an overlap (&&) on its GiST
    # index, and the precise check reads event_dates only for the rows it passes
    event_span = DateRangeField(null=True, blank=True, editable=False)

    embedding_model = models.CharField(max_length=200, blank=True)
    index_state = models.CharField(max_length=8, choices=IndexState.choices, default=IndexState.PENDING)
    index_error = models.TextField(blank=True)
    indexed_at = models.DateTimeField(null=True, blank=True)
    links_state = models.CharField(max_length=8, choices=IndexState.choices, default=IndexState.PENDING)
    links_error = models.TextField(blank=True)

    objects = MemoryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "memories"
        constraints = [
            # a re-sent id is one memory per scope: the write path looks ids up only where the request writes (its
            # project, or its chain), so a request elsewhere stores its own memory, as if the id were unused, and
            # learns nothing of the other
            models.UniqueConstraint(
                fields=["tenant", "source_session", "source_event_id", "scope"],
                condition=~Q(source_event_id=""),
                name="memory_unique_event_per_scope",
            ),
            models.UniqueConstraint(
                fields=["tenant", "external_id", "scope"],
                condition=~Q(external_id=""),
                name="memory_unique_external_id_per_scope",
            ),
            # exact dedup, enforced: at most one non-superseded row per normalised text and scope, so identical
            # concurrent writes store one row (the loser gets the winner's row back); expiry cannot be in an index
            # predicate, so an expired twin is superseded by the new write (see memory_create)
            models.UniqueConstraint(
                fields=["tenant", "scope", "content_hash"],
                condition=visibility.current_q(),
                name="memory_unique_live_content",
            ),
            models.CheckConstraint(condition=~Q(content=""), name="memory_content_not_empty"),
            models.CheckConstraint(condition=~Q(superseded_by=models.F("id")), name="memory_not_superseding_itself"),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True)
                | Q(valid_until__isnull=True)
                | Q(valid_until__gt=models.F("valid_from")),
                name="memory_valid_until_after_from",
            ),
        ]
        indexes = [
            # visibility: every search filters live rows by tenant + the caller's chain of scope ids
            models.Index(
                fields=["tenant", "scope", "-created_at"],
                condition=visibility.current_q(),
                name="memory_live_by_scope",
            ),
            # dedup at store: exact duplicates are found by hash within a scope
            models.Index(fields=["scope", "content_hash"], name="memory_scope_hash"),
            # dedup at store: MinHash LSH bands (keyed by scope) find near-duplicate / opposite-polarity candidates
            # in O(1); no pending list: every write's lookup reads this index, and a lookup scans the whole pending
            # list (up to 4 MB) that fast update leaves between vacuums
            GinIndex(fields=["dedup_bands"], name="memory_dedup_bands", fastupdate=False),
            # the keyword arm: full text over the stored, weighted tsvector
            GinIndex(fields=["search_vector"], name="memory_search_vector"),
            # the admin's substring search of titles and texts (icontains)
            GinIndex(fields=["title"], opclasses=["gin_trgm_ops"], name="memory_title_trgm"),
            GinIndex(fields=["content"], opclasses=["gin_trgm_ops"], name="memory_content_trgm"),
            # the sweeper: rows whose embedding or link extraction is not done yet
            models.Index(
                fields=["updated_at"],
                condition=~Q(index_state="ready") | ~Q(links_state="ready"),
                name="memory_unindexed",
            ),
            models.Index(fields=["tenant", "source_session"], name="memory_session"),
            # the tenant dashboard's writes per day (a range of created_at within one tenant)
            models.Index(fields=["tenant", "created_at"], name="memory_tenant_created"),
            # the contradiction queue and the dashboard's count: only live rows carrying such a warning (few)
            models.Index(
                fields=["tenant"],
                condition=visibility.current_q() & Q(warnings__contains=[{"code": "possible_contradiction"}]),
                name="memory_open_contradiction",
            ),
            # a date window over what the content mentions: only rows with event dates are in it
            GistIndex(fields=["event_span"], condition=Q(event_span__isnull=False), name="memory_event_span"),
        ]

    def __str__(self) -> str:
        return self.title or self.content[:60]

    @property
    def project(self) -> str | None:
        """The project the memory belongs to (its scope is that project's node), else None."""
        return self.scope.project_name

    @property
    def home_scope(self) -> Scope:
        """The tree node the memory is shown at: a project memory's owner (user or team) node, else its scope."""
        return self.scope.home

    @property
    def is_live(self) -> bool:
        return visibility.is_live(self)


class MemoryChunk(TenantKeyed, models.Model):
    """One embedded window of a memory. The model reads ~256 word pieces (~170 words), so a long memory is
    embedded as overlapping windows and scored by its best chunk. Tenant and scope are copied from the memory
    so the vector arm can filter without a join inside the index scan."""

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="chunks", db_constraint=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    scope = models.ForeignKey(Scope, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    ordinal = models.PositiveSmallIntegerField()
    text = models.TextField()
    embedding = VectorField(dimensions=EMBEDDING_DIM)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "memory", "ordinal"], name="chunk_unique_ordinal_per_tenant")
        ]
        indexes = [
            # the vector arm: exact scans of small scopes, and the partial HNSW index of each large scope
            # (retrieval/vector_indexes.py builds those outside the model: they follow the data). The exact scans
            # read the embeddings from this index (index-only: a scope's chunks lie side by side in its leaves,
            # where the heap scatters them one page each; bench/HISTORY.md has the measurements)
            models.Index(fields=["tenant", "scope"], include=["memory", "embedding"], name="chunk_scope_vectors"),
        ]

    def __str__(self) -> str:
        return f"{self.memory_id}#{self.ordinal}"


class MemoryAccess(models.Model):
    """How often a memory was returned by a search, and when last (``memories.services.access``): a narrow row of
    its own. Kept on the memory row, every recorded hit rewrote that row — its text, its search vector and an entry
    in each of its indexes — and ran the postings' update trigger over it (bench/HISTORY.md has the cost). Here a
    hit is an upsert of one narrow row.

    Keyed ``(tenant, memory)`` like the postings (Citus-ready, no foreign key); a statement-level trigger deletes a
    memory's row with it (migration ``0015_memory_access``), so every delete path, erasure included, leaves none."""

    pk = models.CompositePrimaryKey("tenant_id", "memory_id")
    tenant_id = models.BigIntegerField()
    memory_id = models.BigIntegerField()
    access_count = models.PositiveIntegerField()
    last_accessed_at = models.DateTimeField()

    class Meta:
        db_table = "memories_memoryaccess"
        verbose_name_plural = "memory accesses"

    def __str__(self) -> str:
        return f"memory {self.memory_id}: {self.access_count}"
