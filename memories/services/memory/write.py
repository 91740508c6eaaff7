"""The changes to stored memories — update, move, re-kind, delete with history — and what creating one needs
from here: input cleaning and the near-duplicate decision (new memories are written by
:mod:`~memories.services.memory.create`, the one write path).

Changes validate with :mod:`~memories.services.memory.validation`, resolve their scope with
:mod:`~memories.services.memory.scope` and rewrite the full-text vector as every writer does
(:func:`memories.services.indexing.memory_search_vector_write`). Embedding happens later, on commit (see
``memories.signals``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from memories.instructions import WARNING_CODE as INSTRUCTION_WARNING
from memories.instructions import instruction_warning
from memories.models import IndexState, Memory, MemoryChunk, MemoryKind, Scope
from memories.selectors.tenancy import scope_chain_for_scope
from memories.services.contradictions import candidate_bands
from memories.services.indexing import memory_search_vector_write
from memories.services.memory.scope import _expiry, memory_scope_resolve
from memories.services.memory.time import content_event_dates
from memories.services.memory.types import Author
from memories.services.memory.validation import (
    SOURCE_FIELD_MAX,
    TITLE_MAX_CHARS,
    _check_size,
    _clean_kind,
    _clean_metadata,
    _clean_text,
    content_hash,
    turn_speaker,
)
from memories.services.retry import retried_on_deadlock
from memories.services.tenancy import policy_effective
from memories.textsim import (
    NEAR_DUPLICATE_JACCARD,
    is_negated,
    jaccard,
    polarity_signature,
    scope_keyed_bands,
    shingles,
)
from orgmemory.errors import Conflict, NotFound, PermissionDenied, ValidationFailed

NEAR_DUPLICATE_CANDIDATES = 20
_RESOLVED_FIELDS = ["search_vector", "tenant", "scope", "author_member", "author_user", "superseded_by"]


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


def memory_is_protected(memory: Memory) -> bool:
    """An admin-curated policy: kind ``policy`` written by an admin or an operator import (no member authored it)."""
    return memory.kind == MemoryKind.POLICY and (memory.author_member_id is None or memory.status == "curated")


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
        memory.content_hash = content_hash(memory.content, speaker=turn_speaker(memory.source_session, memory.metadata))
        # the new text's dates, against the reference time it was written with
        memory.event_dates, memory.event_span = content_event_dates(
            memory.content, memory.reference_time or memory.created_at
        )
    if title is not None:
        memory.title = _clean_text(title, field_name="title", required=False)
        if len(memory.title) > TITLE_MAX_CHARS:
            raise ValidationFailed(
                f"title is longer than {TITLE_MAX_CHARS} characters", details={"title": ["too long"]}
            )
    if kind is not None:
        memory.kind = _clean_kind(kind)
    if content is not None or title is not None:  # the instruction check reads both, as at write
        flagged = instruction_warning(f"{memory.title}\n{memory.content}")
        kept = [w for w in memory.warnings or [] if not (isinstance(w, dict) and w.get("code") == INSTRUCTION_WARNING)]
        memory.warnings = kept + ([flagged] if flagged is not None else [])
    if metadata is not None:
        memory.metadata = _clean_metadata(metadata)
    moved = target.pk != memory.scope_id
    if content is not None or moved:  # stored bands are keyed by the scope (memories.textsim.scope_keyed_bands)
        memory.dedup_bands = scope_keyed_bands(candidate_bands(memory.content), target.pk)
    memory.scope = target
    memory.index_state = IndexState.PENDING
    memory.links_state = IndexState.PENDING
    memory.full_clean(exclude=_RESOLVED_FIELDS, validate_unique=False, validate_constraints=False)
    _save_unless_duplicate(memory, force_update=True)
    if moved:
        MemoryChunk.objects.filter(memory=memory).update(scope=target)
    memory_search_vector_write(memory=memory, glossary=policy["glossary"] or {})
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
        memory.dedup_bands = scope_keyed_bands(candidate_bands(memory.content), target.pk)
        memory.index_state = IndexState.PENDING
        _save_unless_duplicate(memory, update_fields=["scope", "dedup_bands", "index_state", "updated_at"])
        memory_search_vector_write(memory=memory, glossary=policy["glossary"] or {})
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
