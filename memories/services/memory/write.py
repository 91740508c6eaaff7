"""The writes: create (exact and near-duplicate dedup, idempotent event / external ids, contradiction
warnings), update, move, re-kind, delete with history, and all-or-nothing batches.

Writes validate with :mod:`~memories.services.memory.validation` and resolve their scope with
:mod:`~memories.services.memory.scope`; create and update rewrite the full-text search vector. Embedding happens
later, on commit (see ``memories.signals``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.contrib.postgres.search import SearchVector
from django.db import IntegrityError, connection, transaction
from django.db.models import Value
from django.db.models.expressions import CombinedExpression
from django.utils import timezone

from memories.indexing_text import TEXT_SEARCH_CONFIG, expand_glossary
from memories.models import IndexState, Member, Memory, MemoryChunk, MemoryKind, Scope, Tenant
from memories.selectors.tenancy import scope_chain_for_scope
from memories.services.memory.scope import _expiry, memory_scope_resolve, scope_seen_from
from memories.services.memory.types import Author, WriteResult
from memories.services.memory.validation import (
    SOURCE_FIELD_MAX,
    TITLE_MAX_CHARS,
    _check_size,
    _clean_kind,
    _clean_metadata,
    _clean_text,
    content_hash,
)
from memories.services.retry import retried_on_deadlock
from memories.services.tenancy import policy_effective
from memories.textsim import (
    NEAR_DUPLICATE_JACCARD,
    is_negated,
    jaccard,
    lsh_bands,
    polarity_signature,
    shingles,
)
from orgmemory.errors import Conflict, NotFound, PermissionDenied, ValidationFailed

NEAR_DUPLICATE_CANDIDATES = 20
_RESOLVED_FIELDS = ["search_vector", "tenant", "scope", "author_member", "author_user", "superseded_by"]


@retried_on_deadlock
def memory_create(
    *,
    tenant: Tenant,
    author: Author,
    content: Any,
    scope: Scope | str | dict | None = None,
    kind: str = MemoryKind.FACT,
    title: Any = "",
    metadata: Any = None,
    source_app: str = "",
    source_session: str = "",
    source_event_id: str = "",
    external_id: str = "",
    expires_at: datetime | None = None,
    project: str | None = None,
) -> WriteResult:
    """Validate and store one memory, deduplicating at its scope (with ``project``: in that project under the
    scope, created by its first write; dedup then stays inside the project).

    Outcomes: an exact duplicate (same normalised content, same scope, live) or a re-ingested event /
    external id returns the existing memory (``deduplicated``); a near-duplicate (word-shingle Jaccard ≥ 0.5,
    same scope and kind) is superseded by the new memory (kept as history), unless it is an admin-curated policy
    and the author may not curate (then it is kept, with a ``policy_protected`` warning); an opposite-polarity twin
    adds a ``possible_contradiction`` warning and archives nothing; an expired exact twin becomes the new memory's
    history. Identical concurrent writes store one row (a unique index of live content): the others get it back,
    ``deduplicated``. Raises a DomainError subclass on bad input, NotFound when the scope or the author's member
    was erased meanwhile.
    """
    content, title, kind, metadata, sources = clean_input(
        content=content,
        title=title,
        kind=kind,
        metadata=metadata,
        source_app=source_app,
        source_session=source_session,
        source_event_id=source_event_id,
        external_id=external_id,
    )
    target, policy = memory_scope_resolve(
        tenant=tenant, author=author, scope=scope, project=project, create_project=True, content=content
    )
    existing = _existing_by_source(tenant, sources)
    if existing is not None:
        return _replayed(existing, author=author)
    digest = content_hash(content)

    try:
        with transaction.atomic():
            _lock_against_erasure(scope=target, member=author.member)
            duplicate = (
                Memory.objects.live().filter(tenant=tenant, scope=target, content_hash=digest).order_by("id").first()
            )
            if duplicate is not None:
                return WriteResult(memory=duplicate, created=False, deduplicated=True)
            older, warnings = _near_duplicates(
                tenant=tenant, scope=target, kind=kind, content=content, may_curate=author.may_curate
            )
            now = timezone.now()
            # an expired twin still holds the unique (tenant, scope, hash) slot of non-superseded rows: it becomes
            # history of the new row, whose id is taken first (the FK is checked at commit)
            expired_twins = list(
                Memory.objects.filter(
                    tenant=tenant, scope=target, content_hash=digest, superseded_by__isnull=True, expires_at__lte=now
                ).values_list("pk", flat=True)
            )
            new_id = _next_memory_id() if expired_twins else None
            if expired_twins:
                Memory.objects.filter(pk__in=expired_twins).update(superseded_by_id=new_id, superseded_at=now)
            memory = Memory(
                id=new_id,
                tenant=tenant,
                scope=target,
                kind=kind,
                title=title,
                content=content,
                content_hash=digest,
                author_member=author.member,
                author_user=author.user,
                author=author.display[:200],
                source_app=sources["app_name"],
                source_session=sources["session_id"],
                source_event_id=sources["event_id"],
                external_id=sources["external_id"],
                metadata=metadata,
                warnings=warnings,
                dedup_bands=lsh_bands(content),
                expires_at=expires_at or _expiry(policy=policy, kind=kind, level=target.home.level, now=now),
            )
            # the database enforces the unique/check constraints (and the FKs were resolved above): clean the
            # fields only, without a query per constraint
            memory.full_clean(exclude=_RESOLVED_FIELDS, validate_unique=False, validate_constraints=False)
            memory.save(force_insert=True)
            _write_search_vector(memory, glossary=policy["glossary"] or {})
            if older is not None:
                Memory.objects.filter(pk=older.pk).update(superseded_by=memory, superseded_at=now)
            return WriteResult(memory=memory, created=True, supersedes=older.pk if older else None, warnings=warnings)
    except IntegrityError:
        # a concurrent writer stored the same event / external id, or the same text at the same scope, first (the
        # unique constraints make us wait for their commit): idempotency and exact dedup say return theirs
        existing = _existing_by_source(tenant, sources)
        if existing is not None:
            return _replayed(existing, author=author)
        duplicate = Memory.objects.live().filter(tenant=tenant, scope=target, content_hash=digest).first()
        if duplicate is None:
            raise
        return WriteResult(memory=duplicate, created=False, deduplicated=True)


def clean_input(
    *,
    content: Any,
    title: Any,
    kind: Any,
    metadata: Any,
    source_app: Any,
    source_session: Any,
    source_event_id: Any,
    external_id: Any,
) -> tuple[str, str, str, dict[str, Any], dict[str, str]]:
    """The cleaned content, title, kind, metadata and source ids of a write (no database); a DomainError says what
    is wrong. Sources are keyed as the API names them (``app_name``, ``session_id``, ``event_id``,
    ``external_id``)."""
    content = _clean_text(content, field_name="content", required=True)
    title = _clean_text(title, field_name="title", required=False)
    if len(title) > TITLE_MAX_CHARS:
        raise ValidationFailed(f"title is longer than {TITLE_MAX_CHARS} characters", details={"title": ["too long"]})
    kind = _clean_kind(kind)
    metadata = _clean_metadata(metadata)
    sources = {}
    for name, value in (
        ("app_name", source_app),
        ("session_id", source_session),
        ("event_id", source_event_id),
        ("external_id", external_id),
    ):
        sources[name] = _clean_text(value, field_name=name, required=False)
        if len(sources[name]) > SOURCE_FIELD_MAX:
            raise ValidationFailed(f"{name} is longer than {SOURCE_FIELD_MAX} characters", details={name: ["too long"]})
    return content, title, kind, metadata, sources


def _next_memory_id() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence('memories_memory', 'id'))")
        return cursor.fetchone()[0]


def _lock_against_erasure(*, scope: Scope, member: Member | None) -> None:
    """Share-lock the target scope and the author's member row until the write commits (scope first, as erasure
    locks them). An erasure holding them makes the write wait and then find them gone: a clean 404, never a row
    left at an erased node or by an erased author, and never a foreign-key failure at commit. (FOR SHARE, not KEY
    SHARE: erasure takes NO KEY UPDATE, which must block writes but not the key-share checks of the embedding and
    link tasks' inserts, or those would deadlock with it.)"""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM memories_scope WHERE id = %s FOR SHARE", [scope.pk])
        if cursor.fetchone() is None:
            raise NotFound(f"scope {scope.tag} no longer exists", code="unknown_scope")
        if member is not None:
            cursor.execute("SELECT 1 FROM memories_member WHERE id = %s FOR SHARE", [member.pk])
            if cursor.fetchone() is None:
                raise NotFound(f"unknown user_id {member.user_id!r} in this tenant", code="unknown_user")


def memory_is_protected(memory: Memory) -> bool:
    """An admin-curated policy: kind ``policy`` written by an admin or an operator import (no member authored it)."""
    return memory.kind == MemoryKind.POLICY and memory.author_member_id is None


def memory_check_may_change(*, memory: Memory, author: Author) -> None:
    """PermissionDenied ``policy_protected`` when ``author`` may not change or delete ``memory``."""
    if memory_is_protected(memory) and not author.may_curate:
        raise PermissionDenied(
            f"memory {memory.pk} is an admin-curated policy: only an admin, or a key with the `admin` permission, "
            "may change or delete it",
            code="policy_protected",
            details={"memory_id": memory.pk},
        )


def memories_check_may_delete(*, memory_ids: list[int], author: Author) -> None:
    """PermissionDenied ``policy_protected`` (with the ids) when deleting ``memory_ids`` would delete an
    admin-curated policy — one of them, or one in the history they take with them — and ``author`` may not."""
    if author.may_curate or not memory_ids:
        return
    protected = sorted(
        Memory.objects.filter(
            pk__in=memories_with_history(memory_ids=memory_ids), kind=MemoryKind.POLICY, author_member__isnull=True
        ).values_list("pk", flat=True)
    )
    if protected:
        raise PermissionDenied(
            "that would delete admin-curated policy memories (or the history they replaced), which only an admin "
            "or a key with the `admin` permission may delete",
            code="policy_protected",
            details={"ids": protected},
        )


def _replayed(existing: Memory, *, author: Author) -> WriteResult:
    """A re-sent event / external id: return the stored memory, unless the author could not see it (another
    user's private memory), which is a conflict that reveals nothing about it."""
    if author.kind == "agent":
        chain_ids = {node.pk for node in scope_chain_for_scope(tenant=existing.tenant, scope=author.member.scope)}
        if not scope_seen_from(existing.scope, chain_ids):
            raise Conflict(
                "that session/event id (or external_id) is already used by another memory", code="source_id_conflict"
            )
    return WriteResult(memory=existing, created=False, deduplicated=True)


def _existing_by_source(tenant: Tenant, sources: dict[str, str]) -> Memory | None:
    if sources["external_id"]:
        found = Memory.objects.filter(tenant=tenant, external_id=sources["external_id"]).first()
        if found is not None:
            return found
    if sources["event_id"]:
        return Memory.objects.filter(
            tenant=tenant, source_session=sources["session_id"], source_event_id=sources["event_id"]
        ).first()
    return None


def _near_duplicates(
    *, tenant: Tenant, scope: Scope, kind: str, content: str, may_curate: bool
) -> tuple[Memory | None, list[dict]]:
    """The live memory this one supersedes (if any) and contradiction warnings, among the newest memories at the
    same scope that share a MinHash band with it (GIN preselects; exact word-shingle checks decide). An admin-curated
    policy is superseded only by an author who may curate: anyone else's near-duplicate is stored beside it, with a
    ``policy_protected`` warning."""
    bands = lsh_bands(content)
    if not bands:
        return None, []
    candidates = (
        Memory.objects.live()
        .filter(tenant=tenant, scope=scope, dedup_bands__overlap=bands)
        .order_by("-id")
        .only("id", "content", "kind", "author_member_id")[:NEAR_DUPLICATE_CANDIDATES]
    )
    return near_duplicate_choice(candidates, kind=kind, content=content, may_curate=may_curate)


class _TextFeatures:
    """What near-duplicate checks need of a candidate's text, computed when first needed: its polarity, its word
    shingles (the supersede check), and its claim shingles (the contradiction check, only against a text of the
    other polarity)."""

    __slots__ = ("claim", "content", "negated", "shingles")

    def __init__(self, content: str) -> None:
        self.content = content
        self.negated = is_negated(content)
        self.shingles: frozenset[str] | None = None
        self.claim: frozenset[str] | None = None

    def word_shingles(self) -> frozenset[str]:
        if self.shingles is None:
            self.shingles = shingles(self.content)
        return self.shingles

    def claim_shingles(self) -> frozenset[str]:
        if self.claim is None:
            self.claim = polarity_signature(self.content)[1]
        return self.claim


# candidates recur from write to write (the newest memories of a busy scope): their features are kept, by id
# and text, for the last few thousand seen in this process
_FEATURES: OrderedDict[tuple[int, int], _TextFeatures] = OrderedDict()
_FEATURES_MAX = 4096


_FEATURES_LOCK = threading.Lock()


def _features_of(memory: Memory) -> _TextFeatures:
    key = (memory.pk, hash(memory.content))
    with _FEATURES_LOCK:
        features = _FEATURES.get(key)
        if features is not None:
            _FEATURES.move_to_end(key)
            return features
    features = _TextFeatures(memory.content)
    with _FEATURES_LOCK:
        _FEATURES[key] = features
        if len(_FEATURES) > _FEATURES_MAX:
            _FEATURES.popitem(last=False)
    return features


def near_duplicate_choice(
    candidates: list[Memory], *, kind: str, content: str, may_curate: bool
) -> tuple[Memory | None, list[dict]]:
    """Of ``candidates`` (newest first: live memories at the same scope sharing a MinHash band with ``content``),
    the one a new memory of ``kind`` supersedes, and the warnings it carries. No database."""
    new = _TextFeatures(content)
    superseded: Memory | None = None
    warnings: list[dict] = []
    for candidate in candidates:
        features = _features_of(candidate)
        # opposite-polarity twins (signatures_are_twins): one negated, the other not, and the same claim
        if (
            features.negated != new.negated
            and jaccard(new.claim_shingles(), features.claim_shingles()) >= NEAR_DUPLICATE_JACCARD
        ):
            # the id only, never a quote: a copy of another author's words would outlive their erasure
            warnings.append(
                {
                    "code": "possible_contradiction",
                    "memory_id": candidate.pk,
                    "message": f"this may contradict memory {candidate.pk}",
                }
            )
            continue
        if superseded is None and candidate.kind == kind:
            if jaccard(new.word_shingles(), features.word_shingles()) >= NEAR_DUPLICATE_JACCARD:
                if memory_is_protected(candidate) and not may_curate:
                    warnings.append(
                        {
                            "code": "policy_protected",
                            "memory_id": candidate.pk,
                            "message": f"memory {candidate.pk} is an admin-curated policy: this near-duplicate was "
                            "stored beside it, not over it",
                        }
                    )
                    continue
                superseded = candidate
    return superseded, warnings


def search_vector_of(*, title: str, content: str, glossary: dict[str, str]) -> CombinedExpression:
    """The stored full-text vector, as an SQL expression: title weighted A over content B, after glossary
    expansion (the stored content stays as written)."""
    return SearchVector(Value(expand_glossary(title, glossary)), weight="A", config=TEXT_SEARCH_CONFIG) + SearchVector(
        Value(expand_glossary(content, glossary)), weight="B", config=TEXT_SEARCH_CONFIG
    )


def _write_search_vector(memory: Memory, *, glossary: dict[str, str]) -> None:
    Memory.objects.filter(pk=memory.pk).update(
        search_vector=search_vector_of(title=memory.title, content=memory.content, glossary=glossary)
    )


@retried_on_deadlock
@transaction.atomic
def memory_update(
    *,
    memory: Memory,
    author: Author,
    content: Any = None,
    title: Any = None,
    kind: str | None = None,
    metadata: Any = None,
    scope: Scope | str | dict | None = None,
    project: str | None = None,
) -> Memory:
    """Change a memory in place (fields left None keep their value) and re-index it. The row is locked first
    (deleted meanwhile → 404 ``memory_not_found``, never re-inserted); content identical to another live memory at
    the target scope → 409 ``duplicate_content``."""
    tenant = memory.tenant
    _lock_memory(memory)
    memory_check_may_change(memory=memory, author=author)
    if scope is not None:
        target, policy = memory_scope_resolve(
            tenant=tenant, author=author, scope=scope, project=project, create_project=True
        )
    elif author.kind == "agent":  # an agent names a project memory's project (403 project_required otherwise)
        target, policy = memory_scope_resolve(tenant=tenant, author=author, scope=memory.scope, project=project)
    else:
        target = memory.scope
        policy = policy_effective(tenant=tenant, chain=scope_chain_for_scope(tenant=tenant, scope=target))
    if content is not None:
        memory.content = _clean_text(content, field_name="content", required=True)
        _check_size(memory.content, policy)
        memory.content_hash = content_hash(memory.content)
        memory.dedup_bands = lsh_bands(memory.content)
    if title is not None:
        memory.title = _clean_text(title, field_name="title", required=False)
        if len(memory.title) > TITLE_MAX_CHARS:
            raise ValidationFailed(
                f"title is longer than {TITLE_MAX_CHARS} characters", details={"title": ["too long"]}
            )
    if kind is not None:
        memory.kind = _clean_kind(kind)
    if metadata is not None:
        memory.metadata = _clean_metadata(metadata)
    moved = target.pk != memory.scope_id
    memory.scope = target
    memory.index_state = IndexState.PENDING
    memory.links_state = IndexState.PENDING
    memory.full_clean(exclude=_RESOLVED_FIELDS, validate_unique=False, validate_constraints=False)
    _save_unless_duplicate(memory, force_update=True)
    if moved:
        MemoryChunk.objects.filter(memory=memory).update(scope=target)
    _write_search_vector(memory, glossary=policy["glossary"] or {})
    return memory


def _lock_memory(memory: Memory) -> None:
    """Lock the row for the rest of the transaction (deleted meanwhile → 404) and take its current history state,
    so saving the caller's copy can neither re-insert a deleted memory nor revive a since-superseded one."""
    current = (
        Memory.objects.select_for_update().filter(pk=memory.pk).values_list("superseded_by_id", "superseded_at").first()
    )
    if current is None:
        raise NotFound(f"memory {memory.pk} no longer exists", code="memory_not_found")
    memory.superseded_by_id, memory.superseded_at = current


def _save_unless_duplicate(memory: Memory, **save_options: Any) -> None:
    """Save an existing memory; 409 ``duplicate_content`` when that would make it a second live copy of a text at
    its scope (the unique index of non-superseded rows refuses it)."""
    twin = (
        Memory.objects.live()
        .filter(tenant_id=memory.tenant_id, scope_id=memory.scope_id, content_hash=memory.content_hash)
        .exclude(pk=memory.pk)
        .values_list("pk", flat=True)
        .first()
    )
    if twin is not None and memory.superseded_by_id is None:
        raise _duplicate_content(memory, twin)
    try:
        with transaction.atomic():
            memory.save(**save_options)
    except IntegrityError:  # a twin committed meanwhile, or an expired one still holds the slot
        raise _duplicate_content(memory, None)


def _duplicate_content(memory: Memory, twin: int | None) -> Conflict:
    return Conflict(
        f"an identical memory already exists at {memory.scope.tag}" + (f" (memory {twin})" if twin else ""),
        code="duplicate_content",
        details={"memory_id": twin} if twin else {},
    )


def memory_move(*, memory: Memory, author: Author, scope: Scope | str) -> Memory:
    """Move a memory to another scope (validated against policy). Its chunks follow at once (so visibility is
    right immediately); the search vector is rewritten with the new scope's glossary, and the memory is queued for
    re-embedding, since the glossary that shaped its vectors may differ there."""
    with transaction.atomic():
        target, policy = memory_scope_resolve(tenant=memory.tenant, author=author, scope=scope)
        _lock_memory(memory)
        MemoryChunk.objects.filter(memory=memory).update(scope=target)
        memory = Memory.objects.get(pk=memory.pk)
        memory.scope = target
        memory.index_state = IndexState.PENDING
        _save_unless_duplicate(memory, update_fields=["scope", "index_state", "updated_at"])
        _write_search_vector(memory, glossary=policy["glossary"] or {})
    memory.refresh_from_db()
    return memory


def memory_set_kind(*, memory: Memory, kind: str) -> Memory:
    """Change a memory's kind (e.g. promote a fact to a policy). An expiry that the retention policy gave it for
    its old kind follows the new kind's rule; an explicitly set expiry is kept."""
    new_kind = _clean_kind(kind)
    policy = policy_effective(
        tenant=memory.tenant, chain=scope_chain_for_scope(tenant=memory.tenant, scope=memory.scope)
    )
    level, created = memory.scope.home.level, memory.created_at
    by_policy = _expiry(policy=policy, kind=memory.kind, level=level, now=created)
    if memory.expires_at == by_policy or (
        by_policy is not None
        and memory.expires_at is not None
        and abs(memory.expires_at - by_policy) < timedelta(minutes=1)  # computed just before created_at was set
    ):
        memory.expires_at = _expiry(policy=policy, kind=new_kind, level=level, now=created)
    memory.kind = new_kind
    Memory.objects.filter(pk=memory.pk).update(kind=new_kind, expires_at=memory.expires_at, updated_at=timezone.now())
    return memory


@transaction.atomic
def memory_delete(*, memory: Memory) -> int:
    """Delete a memory and the older versions it superseded (they are the same fact's history, and must not come
    back to life: ``superseded_by`` cascades, so every delete path does the same); chunks and graph links go with
    them. Returns the number of memories deleted."""
    return memories_delete(memory_ids=[memory.pk])


def memories_with_history(*, memory_ids: list[int]) -> set[int]:
    """The ids and every older version they superseded, transitively: what deleting them deletes."""
    ids, frontier = set(memory_ids), list(memory_ids)
    while frontier:
        frontier = list(
            Memory.objects.filter(superseded_by_id__in=frontier).exclude(pk__in=ids).values_list("pk", flat=True)
        )
        ids.update(frontier)
    return ids


@retried_on_deadlock
@transaction.atomic
def memories_delete(*, memory_ids: list[int]) -> int:
    """Delete memories with their superseded history, chunks and graph links; the rows are locked first (in id
    order), so an embedding or link task writing chunks or links for one of them finishes before the delete
    collects them (else its rows would break the foreign keys at commit) and a later one finds the memory gone.
    Every bulk delete (by query, session, erasure) goes through here. Returns the number of memories deleted."""
    ids = memories_with_history(memory_ids=memory_ids)
    locked = list(Memory.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    # the collector sends pre_delete per row (history included), so the graph's hand-off sees each one's links
    _, per_model = Memory.objects.filter(pk__in=locked).delete()
    return per_model.get(Memory._meta.label, 0)
