"""Writes in batches: the same rules as :func:`~memories.services.memory.write.memory_create`, item by item and in
input order, in a fixed number of statements per batch.

A batch is cleaned and its scopes resolved in Python (each distinct author and scope once), then written in one
transaction: one share-lock of the target scopes and one of the authors' members (erasure waits), **one dedup
query** for every item (re-sent event / external ids, live exact twins and expired ones at the same scope, and each
item's newest near-duplicate candidates), the decisions made in Python in input order (so an item can be a duplicate
of, or supersede, an earlier item of the same batch), one statement for the ids, one UPDATE for every stored row
the batch supersedes and **one INSERT** for every new row with its full-text vector — one statement, so the BM25
statistics triggers (retrieval migration 0001, statement-level) run once per batch. Embedding and link extraction
are handed off on commit as for a single write (``post_save``, batched per transaction).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.utils import timezone

from memories.indexing_text import TEXT_SEARCH_CONFIG, expand_glossary
from memories.models import Member, Memory, MemoryKind, Scope, Tenant
from memories.selectors.tenancy import scope_chain_for_scope
from memories.services.memory.scope import (
    _expiry,
    memory_scope_resolve,
    project_node_save,
    scope_seen_from,
)
from memories.services.memory.types import Author, WriteResult
from memories.services.memory.validation import _check_size, content_hash
from memories.services.memory.write import (
    _RESOLVED_FIELDS,
    NEAR_DUPLICATE_CANDIDATES,
    clean_input,
    near_duplicate_choice,
)
from memories.services.retry import retried_on_deadlock
from memories.textsim import lsh_bands
from orgmemory.errors import Conflict, DomainError, NotFound, ValidationFailed

# a concurrent writer that stored one of the batch's event ids or texts first makes the INSERT fail on a unique
# index once it commits: the batch runs again (its dedup query then finds their rows), at most this many times
INTEGRITY_ATTEMPTS = 3

_DEDUP_SQL = """
WITH item AS (
    SELECT * FROM unnest(%(ords)s::int[], %(scopes)s::bigint[], %(hashes)s::text[], %(bands)s::text[],
                         %(sessions)s::text[], %(events)s::text[], %(externals)s::text[])
        AS i(ord, scope_id, content_hash, bands, session, event, external)
), hit AS (
    SELECT 'external' AS why, i.ord, m.id FROM item i JOIN memories_memory m
        ON m.tenant_id = %(tenant)s AND m.external_id <> '' AND m.external_id = i.external
    UNION ALL
    SELECT 'event', i.ord, m.id FROM item i JOIN memories_memory m
        ON m.tenant_id = %(tenant)s AND m.source_event_id <> '' AND m.source_session = i.session
       AND m.source_event_id = i.event
    UNION ALL
    SELECT 'exact', i.ord, m.id FROM item i JOIN memories_memory m
        ON m.tenant_id = %(tenant)s AND m.scope_id = i.scope_id AND m.content_hash = i.content_hash
       AND m.superseded_by_id IS NULL
    UNION ALL
    SELECT 'near', i.ord, c.id FROM item i CROSS JOIN LATERAL (
        SELECT m.id FROM memories_memory m
        WHERE m.tenant_id = %(tenant)s AND m.scope_id = i.scope_id AND m.superseded_by_id IS NULL
          AND (m.expires_at IS NULL OR m.expires_at > %(now)s) AND m.dedup_bands && i.bands::bigint[]
        ORDER BY m.id DESC LIMIT %(near_limit)s
    ) c WHERE i.bands <> '{}'
)
SELECT h.why, h.ord, m.id, m.tenant_id, m.scope_id, m.kind, m.content, m.content_hash, m.author_member_id,
       m.created_at, m.expires_at, m.superseded_by_id, m.external_id, m.source_session, m.source_event_id
FROM hit h JOIN memories_memory m ON m.id = h.id
ORDER BY h.ord, m.id DESC
"""


@dataclass
class _Item:
    """One cleaned input item with its resolved scope and policy."""

    index: int
    author: Author
    content: str
    title: str
    kind: str
    metadata: dict[str, Any]
    sources: dict[str, str]
    expires_at: datetime | None
    created_at: datetime | None
    target: Scope
    policy: dict[str, Any]
    digest: str
    bands: list[int]


class _Scopes:
    """Target scopes and chains, resolved once per distinct (author, scope) and per member within a batch; a
    refusal is remembered too and raised afresh for every item that asks again."""

    def __init__(self, tenant: Tenant) -> None:
        self.tenant = tenant
        self.targets: dict[tuple, tuple[Scope, dict[str, Any]] | DomainError] = {}
        self.chains: dict[int, set[int]] = {}
        self.new_projects: list[Scope] = []  # project nodes the batch creates, saved inside its transaction

    def resolve(
        self, author: Author, scope: Scope | str | dict | None, project: str | None = None
    ) -> tuple[Scope, dict[str, Any]]:
        if isinstance(scope, Scope):
            spec: tuple = ("pk", scope.pk)
        elif isinstance(scope, dict):
            spec = ("tag", f"{scope.get('level', '')}:{scope.get('key', '')}")
        elif scope is None or scope == "":
            spec = ("own",)
        else:
            spec = ("tag", str(scope))
        key = (author.kind, author.member.pk if author.member is not None else None, spec, project)
        if key not in self.targets:
            try:
                self.targets[key] = memory_scope_resolve(
                    tenant=self.tenant, author=author, scope=scope, project=project, create_project="deferred"
                )
                if self.targets[key][0].pk is None:
                    self.new_projects.append(self.targets[key][0])
            except DomainError as exc:
                self.targets[key] = exc
        found = self.targets[key]
        if isinstance(found, DomainError):
            raise _copy(found)
        return found

    def chain_ids(self, member: Member) -> set[int]:
        if member.pk not in self.chains:
            self.chains[member.pk] = {node.pk for node in scope_chain_for_scope(tenant=self.tenant, scope=member.scope)}
        return self.chains[member.pk]


@retried_on_deadlock
def memory_create_batch(
    *,
    tenant: Tenant,
    author: Author,
    items: Sequence[dict[str, Any]],
    partial: bool = False,
    label: str = "memories",
    numbers: Sequence[int] | None = None,
) -> list[WriteResult]:
    """Write ``items`` (each the keyword arguments of ``memory_create``, plus optional ``author`` and
    ``created_at``) with the single write's rules, in one transaction; one result per item, in input order.

    Within the batch, items are decided in order: an item identical to an earlier one at the same scope is
    ``deduplicated`` to it, a near-duplicate of an earlier one supersedes it, a re-sent event / external id returns
    the first. All or nothing by default: a bad item raises its DomainError, its message prefixed
    ``{label}[{number}]: `` and ``details["index"]`` set (``numbers`` maps item positions to the caller's own
    numbering), and nothing is written. With ``partial``, a bad item's result has ``error`` set (outcome
    ``failed``) and every other item is written.
    """
    scopes = _Scopes(tenant)
    results: dict[int, WriteResult] = {}
    prepared: list[_Item] = []
    for index, raw in enumerate(items):
        try:
            prepared.append(_prepare(index, raw, author=author, scopes=scopes))
        except DomainError as exc:
            if not partial:
                raise _at(exc, index, label=label, numbers=numbers)
            results[index] = WriteResult(memory=None, created=False, error=exc)
    for attempt in range(1, INTEGRITY_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                written = _write(tenant, prepared, scopes=scopes, partial=partial, label=label, numbers=numbers)
            break
        except IntegrityError:
            if attempt == INTEGRITY_ATTEMPTS:
                raise
    results.update(written)
    return [results[index] for index in range(len(items))]


def _prepare(index: int, raw: dict[str, Any], *, author: Author, scopes: _Scopes) -> _Item:
    item_author = raw.get("author") or author
    content, title, kind, metadata, sources = clean_input(
        content=raw.get("content"),
        title=raw.get("title", ""),
        kind=raw.get("kind", MemoryKind.FACT),
        metadata=raw.get("metadata"),
        source_app=raw.get("source_app", ""),
        source_session=raw.get("source_session", ""),
        source_event_id=raw.get("source_event_id", ""),
        external_id=raw.get("external_id", ""),
    )
    target, policy = scopes.resolve(item_author, raw.get("scope"), raw.get("project"))
    return _Item(
        index=index,
        author=item_author,
        content=content,
        title=title,
        kind=kind,
        metadata=metadata,
        sources=sources,
        expires_at=raw.get("expires_at"),
        created_at=raw.get("created_at"),
        target=target,
        policy=policy,
        digest=content_hash(content),
        bands=lsh_bands(content),
    )


def _write(
    tenant: Tenant,
    items: list[_Item],
    *,
    scopes: _Scopes,
    partial: bool,
    label: str,
    numbers: Sequence[int] | None,
) -> dict[int, WriteResult]:
    results: dict[int, WriteResult] = {}

    def fail(item: _Item, exc: DomainError) -> None:
        if not partial:
            raise _at(exc, item.index, label=label, numbers=numbers)
        results[item.index] = WriteResult(memory=None, created=False, error=exc)

    for node in scopes.new_projects:  # (again on a retry: the rolled-back attempt's rows are gone)
        project_node_save(node)
    items = _lock_against_erasure(items, fail)
    if not items:
        return results
    now = timezone.now()
    hits = _dedup_hits(tenant, items, now=now)
    known_scopes = {item.target.pk: item.target for item in items}
    missing = {memory.scope_id for memory in hits["rows"]} - set(known_scopes)
    if missing:  # a re-sent id stored at a scope outside the batch's targets
        known_scopes.update(Scope.objects.in_bulk(missing))
    for memory in hits["rows"]:
        memory.tenant = tenant
        memory.scope = known_scopes[memory.scope_id]

    by_external: dict[str, Memory] = hits["external"]
    by_event: dict[tuple[str, str], Memory] = hits["event"]
    live: dict[tuple[int, str], Memory] = hits["live"]
    expired: dict[tuple[int, str], set[int]] = hits["expired"]
    near: dict[int, list[Memory]] = hits["near"]
    superseded: set[int] = set()
    updates: dict[int, int] = {}  # stored row → the new row that supersedes it
    created: list[Memory] = []
    created_ids: set[int] = set()
    created_at_scope: dict[int, list[tuple[Memory, set[int]]]] = defaultdict(list)
    ids = iter(_next_memory_ids(len(items)))

    for item in items:
        existing = None
        if item.sources["external_id"]:
            existing = by_external.get(item.sources["external_id"])
        if existing is None and item.sources["event_id"]:
            existing = by_event.get((item.sources["session_id"], item.sources["event_id"]))
        if existing is not None:
            try:
                _check_may_replay(existing, author=item.author, scopes=scopes)
            except DomainError as exc:
                fail(item, exc)
                continue
            results[item.index] = WriteResult(memory=existing, created=False, deduplicated=True)
            continue
        try:
            _check_size(item.content, item.policy)
        except DomainError as exc:
            fail(item, exc)
            continue
        key = (item.target.pk, item.digest)
        twin = live.get(key)
        if twin is not None and twin.pk not in superseded:
            results[item.index] = WriteResult(memory=twin, created=False, deduplicated=True)
            continue
        bands = set(item.bands)
        candidates = [
            memory
            for memory, memory_bands in created_at_scope[item.target.pk]
            if memory.pk not in superseded and bands & memory_bands
        ] + [memory for memory in near.get(item.index, []) if memory.pk not in superseded]
        candidates.sort(key=lambda memory: memory.pk, reverse=True)
        older, warnings = near_duplicate_choice(
            candidates[:NEAR_DUPLICATE_CANDIDATES],
            kind=item.kind,
            content=item.content,
            may_curate=item.author.may_curate,
        )
        memory = Memory(
            id=next(ids),
            tenant=tenant,
            scope=item.target,
            kind=item.kind,
            title=item.title,
            content=item.content,
            content_hash=item.digest,
            author_member=item.author.member,
            author_user=item.author.user,
            author=item.author.display[:200],
            source_app=item.sources["app_name"],
            source_session=item.sources["session_id"],
            source_event_id=item.sources["event_id"],
            external_id=item.sources["external_id"],
            metadata=item.metadata,
            warnings=warnings,
            dedup_bands=item.bands,
            expires_at=item.expires_at
            or _expiry(policy=item.policy, kind=item.kind, level=item.target.home.level, now=now),
        )
        try:
            # the fields only: the database enforces the constraints, and the FKs were resolved above
            memory.full_clean(exclude=_RESOLVED_FIELDS, validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            fail(item, ValidationFailed("; ".join(exc.messages), details=getattr(exc, "message_dict", {})))
            continue
        # expired twins still hold the unique slot of non-superseded rows: they become the new row's history
        for old_id in expired.get(key, set()) - superseded:
            updates[old_id] = memory.pk
            superseded.add(old_id)
        if older is not None:
            superseded.add(older.pk)
            if older.pk in created_ids:  # an earlier item of this batch: inserted as history
                older.superseded_by_id, older.superseded_at = memory.pk, now
            else:
                updates[older.pk] = memory.pk
        glossary = item.policy["glossary"] or {}
        memory._vector_texts = (expand_glossary(item.title, glossary), expand_glossary(item.content, glossary))
        memory._created_at = item.created_at
        created.append(memory)
        created_ids.add(memory.pk)
        created_at_scope[item.target.pk].append((memory, bands))
        live[key] = memory
        if item.sources["external_id"]:
            by_external[item.sources["external_id"]] = memory
        if item.sources["event_id"]:
            by_event[(item.sources["session_id"], item.sources["event_id"])] = memory
        results[item.index] = WriteResult(
            memory=memory, created=True, supersedes=older.pk if older is not None else None, warnings=warnings
        )

    _store(created, updates, now=now)
    return results


def _lock_against_erasure(items: list[_Item], fail) -> list[_Item]:
    """Share-lock the target scopes, then the authors' members, in id order, until the batch commits (as a single
    write does, see ``write._lock_against_erasure``); items whose scope or author was erased meanwhile fail."""
    scope_ids = sorted({item.target.pk for item in items})
    member_ids = sorted({item.author.member.pk for item in items if item.author.member is not None})
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM memories_scope WHERE id = ANY(%s) ORDER BY id FOR SHARE", [scope_ids])
        scopes = {row[0] for row in cursor.fetchall()}
        members: set[int] = set()
        if member_ids:
            cursor.execute("SELECT id FROM memories_member WHERE id = ANY(%s) ORDER BY id FOR SHARE", [member_ids])
            members = {row[0] for row in cursor.fetchall()}
    kept = []
    for item in items:
        if item.target.pk not in scopes:
            fail(item, NotFound(f"scope {item.target.tag} no longer exists", code="unknown_scope"))
        elif item.author.member is not None and item.author.member.pk not in members:
            fail(item, NotFound(f"unknown user_id {item.author.member.user_id!r} in this tenant", code="unknown_user"))
        else:
            kept.append(item)
    return kept


def _dedup_hits(tenant: Tenant, items: list[_Item], *, now: datetime) -> dict[str, Any]:
    """Everything dedup needs to know about stored rows, for the whole batch, in one statement: rows holding an
    item's external id or (session, event id); the non-superseded row with its text at its scope (live, or expired
    and still holding the unique slot); its newest live near-duplicate candidates (sharing a MinHash band)."""
    params = {
        "tenant": tenant.pk,
        "now": now,
        "near_limit": NEAR_DUPLICATE_CANDIDATES,
        "ords": [item.index for item in items],
        "scopes": [item.target.pk for item in items],
        "hashes": [item.digest for item in items],
        "bands": ["{" + ",".join(str(band) for band in item.bands) + "}" for item in items],
        "sessions": [item.sources["session_id"] for item in items],
        "events": [item.sources["event_id"] for item in items],
        "externals": [item.sources["external_id"] for item in items],
    }
    rows = list(Memory.objects.raw(_DEDUP_SQL, params))
    hits: dict[str, Any] = {
        "rows": rows,
        "external": {},
        "event": {},
        "live": {},
        "expired": defaultdict(set),
        "near": defaultdict(list),
    }
    for memory in rows:
        if memory.why == "external":
            hits["external"][memory.external_id] = memory
        elif memory.why == "event":
            hits["event"][(memory.source_session, memory.source_event_id)] = memory
        elif memory.why == "exact":
            key = (memory.scope_id, memory.content_hash)
            if memory.expires_at is None or memory.expires_at > now:
                hits["live"][key] = memory
            else:
                hits["expired"][key].add(memory.pk)
        else:
            hits["near"][memory.ord].append(memory)
    return hits


def _check_may_replay(existing: Memory, *, author: Author, scopes: _Scopes) -> None:
    """A re-sent event / external id returns the stored memory, unless the author could not see it (another user's
    private memory): a conflict that reveals nothing about it."""
    if author.kind == "agent" and not scope_seen_from(existing.scope, scopes.chain_ids(author.member)):
        raise Conflict(
            "that session/event id (or external_id) is already used by another memory", code="source_id_conflict"
        )


def _next_memory_ids(count: int) -> list[int]:
    """``count`` new memory ids in one statement (taken before the insert: history rows point at them)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence('memories_memory', 'id')) FROM generate_series(1, %s)", [count]
        )
        return sorted(row[0] for row in cursor.fetchall())


def _store(created: list[Memory], updates: dict[int, int], *, now: datetime) -> None:
    """The batch's writes: stored rows superseded (one UPDATE, before the insert: a superseded twin frees its
    unique slot; the foreign key to the new rows is checked at commit), the new rows with their full-text vectors
    (one INSERT: one run of the statistics triggers), imported creation times (one UPDATE), and the hand-off of
    the new rows to embedding and link extraction on commit."""
    with connection.cursor() as cursor:
        if updates:
            cursor.execute(
                "UPDATE memories_memory AS m SET superseded_by_id = v.new_id, superseded_at = %s "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS v(old_id, new_id) WHERE m.id = v.old_id",
                [now, list(updates), list(updates.values())],
            )
        if not created:
            return
        _insert(cursor, created)
        stamped = [memory for memory in created if memory._created_at is not None]
        if stamped:
            cursor.execute(
                "UPDATE memories_memory AS m SET created_at = v.at "
                "FROM unnest(%s::bigint[], %s::timestamptz[]) AS v(id, at) WHERE m.id = v.id",
                [[memory.pk for memory in stamped], [memory._created_at for memory in stamped]],
            )
    using = connection.alias
    for memory in created:
        if memory._created_at is not None:
            memory.created_at = memory._created_at
        del memory._created_at
        del memory._vector_texts
        memory._state.adding = False
        # the vector was computed by the INSERT: a later read loads it
        memory.__dict__.pop("search_vector", None)
        post_save.send(sender=Memory, instance=memory, created=True, update_fields=None, raw=False, using=using)


def _insert(cursor, created: list[Memory]) -> None:
    """One ``INSERT … SELECT … FROM unnest(<one array per column>)`` for every new row, the full-text vector
    computed in it (title weighted A over content B, as ``write.search_vector_of``). Compiling Django's
    ``bulk_create`` of N rows × 30 columns cost more CPU than the write's SQL itself; one array per column keeps
    the statement and its parameters the same size whatever N."""
    columns, selects, arrays, params = [], [], [], []
    for field in Memory._meta.concrete_fields:
        if field.column == "search_vector":
            continue
        values = [field.get_db_prep_save(field.pre_save(memory, add=True), connection) for memory in created]
        db_type = field.db_type(connection)
        name = f"c{len(columns)}"
        columns.append(connection.ops.quote_name(field.column))
        if db_type.endswith("[]"):  # arrays of arrays may be ragged: each row's array travels as its text form
            values = [None if value is None else "{" + ",".join(str(item) for item in value) + "}" for value in values]
            arrays.append("%s::text[]")
            selects.append(f"{name}::{db_type}")
        else:
            arrays.append(f"%s::{db_type}[]")
            selects.append(name)
        params.append(values)
    names = [f"c{index}" for index in range(len(columns))] + ["vector_a", "vector_b"]
    arrays += ["%s::text[]", "%s::text[]"]
    params += [[memory._vector_texts[0] for memory in created], [memory._vector_texts[1] for memory in created]]
    columns.append(connection.ops.quote_name("search_vector"))
    selects.append(
        "setweight(to_tsvector(%s::regconfig, coalesce(vector_a, '')), 'A') "
        "|| setweight(to_tsvector(%s::regconfig, coalesce(vector_b, '')), 'B')"
    )
    cursor.execute(
        f"INSERT INTO {connection.ops.quote_name(Memory._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(selects)} FROM unnest({', '.join(arrays)}) AS v({', '.join(names)})",
        [TEXT_SEARCH_CONFIG, TEXT_SEARCH_CONFIG, *params],
    )


def _copy(exc: DomainError) -> DomainError:
    copy = type(exc)(exc.message, code=exc.code, details=dict(exc.details) if isinstance(exc.details, dict) else {})
    return copy


def _at(exc: DomainError, index: int, *, label: str, numbers: Sequence[int] | None) -> DomainError:
    """The error of item ``index``, naming it as the caller numbers its input."""
    number = numbers[index] if numbers is not None else index
    exc.details = {"index": number, **(exc.details if isinstance(exc.details, dict) else {})}
    exc.message = f"{label}[{number}]: {exc.message}"
    return exc
