"""The one write path for new memories: :func:`memories_write` decides every item — replay of a re-sent event or
external id, exact and near-duplicate dedup, expired twins, supersede, expiry, the policy checks — and stores them.
:func:`memory_create` (one memory) and :func:`memory_create_batch` (many; sessions and imports use it) are its
two doors; the API, MCP, the admin and the commands go through them.

A write is one transaction. Its items are cleaned and their scopes resolved (each distinct author and scope once),
then: one share-lock of the target scopes and one of the authors' members (erasure waits), **one dedup query** for
every item (re-sent ids where the request writes, live exact twins and expired ones at the same scope, and
each item's newest near-duplicate candidates), the decisions made in Python in input order (so an item can be a
duplicate of, or supersede, an earlier item of the same write), one statement for the ids, one UPDATE for every
stored row the write supersedes and **one INSERT** for every new row with its full-text vector — one statement, so
the BM25 statistics triggers (retrieval migration 0001, statement-level) run once per write. The new rows are then
handed to indexing on commit (:func:`memories.services.indexing.memories_index_queue`).

Nothing a refused write would leave behind is stored before the decision: a project's node is created by the first
memory stored in it, and an auto-provisioned member inside the transaction, which any refusal rolls back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from memories import visibility
from memories.instructions import instruction_warning
from memories.models import PROJECT_LEVEL, Member, Memory, MemoryKind, Scope, Tenant
from memories.selectors.tenancy import project_name_clean, scope_chain_for_scope
from memories.services.contradictions import candidate_bands, contradiction_check
from memories.services.indexing import indexed_texts, memories_index_queue, search_vector_sql
from memories.services.memory.scope import _expiry, memory_scope_resolve, project_node_save
from memories.services.memory.time import clean_time, content_event_dates
from memories.services.memory.types import Author, WriteResult
from memories.services.memory.validation import _check_size, content_hash, turn_speaker
from memories.services.memory.write import (
    _RESOLVED_FIELDS,
    NEAR_DUPLICATE_CANDIDATES,
    clean_input,
    near_duplicate_choice,
)
from memories.services.retry import retried_on_deadlock
from memories.services.tenancy import member_provision
from memories.services.trust import memory_trust_fields
from memories.textsim import scope_keyed_bands, value_words
from orgmemory.errors import DomainError, NotFound, ValidationFailed

# a concurrent writer that stored one of the write's event ids or texts first makes the INSERT fail on a unique
# index once it commits: the write runs again (its dedup query then finds their rows), at most this many times
INTEGRITY_ATTEMPTS = 3

_DEDUP_SQL = f"""
WITH item AS (
    SELECT * FROM unnest(%(ords)s::int[], %(scopes)s::bigint[], %(hashes)s::text[], %(bands)s::text[],
                         %(sessions)s::text[], %(events)s::text[], %(externals)s::text[], %(seen)s::text[])
        AS i(ord, scope_id, content_hash, bands, session, event, external, seen)
), hit AS MATERIALIZED (
    -- the replayed ids are looked up per item through their partial unique indexes (the OFFSET 0 keeps each lookup
    -- a lookup: joined whole, the planner sorted the tenant's rows for a merge join, 91 ms at 100k memories)
    SELECT 'external' AS why, i.ord, r.id FROM item i CROSS JOIN LATERAL (
        SELECT m.id FROM memories_memory m
        WHERE m.tenant_id = %(tenant)s AND m.external_id <> '' AND m.external_id = i.external
          AND (i.seen IS NULL OR m.scope_id = ANY(i.seen::bigint[]))
        OFFSET 0
    ) r WHERE i.external <> ''
    UNION ALL
    SELECT 'event', i.ord, r.id FROM item i CROSS JOIN LATERAL (
        SELECT m.id FROM memories_memory m
        WHERE m.tenant_id = %(tenant)s AND m.source_event_id <> '' AND m.source_session = i.session
          AND m.source_event_id = i.event AND (i.seen IS NULL OR m.scope_id = ANY(i.seen::bigint[]))
        OFFSET 0
    ) r WHERE i.event <> ''
    UNION ALL
    SELECT 'exact', i.ord, m.id FROM item i JOIN memories_memory m
        ON m.tenant_id = %(tenant)s AND m.scope_id = i.scope_id AND m.content_hash = i.content_hash
       AND {visibility.current_sql("m")}
    UNION ALL
    -- stored bands are keyed by scope (memories.textsim.scope_keyed_bands): the GIN index alone finds the item's
    -- own scope's few candidates, then read by id; written this way so that the planner cannot read the scope's
    -- live rows instead (a cost that grows with the scope: 1.4 ms an item at 77k memories, bench/HISTORY.md)
    SELECT 'near', i.ord, c.id FROM item i CROSS JOIN LATERAL (
        SELECT m.id FROM memories_memory m
        WHERE m.id = ANY(ARRAY(SELECT b.id FROM memories_memory b WHERE b.dedup_bands && i.bands::bigint[]))
          AND m.tenant_id = %(tenant)s AND m.scope_id = i.scope_id AND {visibility.in_force_sql("m", now="%(now)s")}
        ORDER BY m.id DESC LIMIT %(near_limit)s
    ) c WHERE i.bands <> '{{}}'
)
SELECT h.why, h.ord, {{columns}}
FROM hit h JOIN memories_memory m ON m.id = h.id
ORDER BY h.ord, m.id DESC
"""


@dataclass
class _Item:
    """One cleaned input item with its resolved scope and policy. ``seen``: the scopes where a re-sent id of this
    item counts — its project's nodes, or the chain, of the request (None: the whole tenant, for admin and import
    authors)."""

    index: int
    author: Author
    content: str
    title: str
    kind: str
    metadata: dict[str, Any]
    sources: dict[str, str]
    expires_at: datetime | None
    created_at: datetime | None
    times: dict[str, datetime | None]
    target: Scope
    policy: dict[str, Any]
    digest: str
    bands: list[int]
    seen: set[int] | None

    @property
    def speaker(self) -> str:
        """Who said it, when it is a conversation turn: the session event's author (else empty)."""
        return turn_speaker(self.sources["session_id"], self.metadata)


@dataclass
class _NewRow:
    memory: Memory
    vector_texts: tuple[str, str]
    created_at: datetime | None


class _Scopes:
    """Target scopes, chains and project nodes, resolved once per distinct (author, scope) and per member within a
    write; a refusal is remembered too and raised afresh for every item that asks again. A project the write would
    create is one unsaved node per (owner, name), saved when the first memory is stored in it."""

    def __init__(self, tenant: Tenant, known: dict[tuple, tuple[Scope, dict[str, Any]]] | None = None) -> None:
        self.tenant = tenant
        self.targets: dict[tuple, tuple[Scope, dict[str, Any]] | DomainError] = dict(known or {})
        self.known = known
        self.chains: dict[int, set[int]] = {}
        self.projects: dict[tuple[int, str], set[int]] = {}
        self.new_nodes: dict[tuple[int, str], Scope] = {}

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
                target, policy = memory_scope_resolve(
                    tenant=self.tenant, author=author, scope=scope, project=project, create_project="deferred"
                )
                if target.pk is None:  # one unsaved node per project, however its owner was named
                    target = self.new_nodes.setdefault((target.parent_id, target.key), target)
                elif self.known is not None:  # a stored node: later writes of the caller may reuse it
                    self.known[key] = (target, policy)
                self.targets[key] = (target, policy)
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

    def seen_by(self, author: Author, target: Scope, project: Any) -> set[int] | None:
        """Where a re-sent id of a write by ``author`` counts: an agent's own project when it names one (its nodes
        under the agent's chain: projects are separate namespaces, as for exact dedup), else the agent's chain;
        None (the whole tenant) for an admin or an import."""
        if author.kind != "agent" or author.member is None:
            return None
        chain = self.chain_ids(author.member)
        name = target.key if target.is_project else project_name_clean(project)
        if name is None:
            return set(chain)
        key = (author.member.pk, name)
        if key not in self.projects:
            self.projects[key] = set(
                Scope.objects.filter(
                    tenant=self.tenant, level=PROJECT_LEVEL, key=name, parent_id__in=list(chain)
                ).values_list("pk", flat=True)
            )
        return self.projects[key]


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
    valid_from: Any = None,
    valid_until: Any = None,
    reference_time: Any = None,
) -> WriteResult:
    """Validate and store one memory, deduplicating at its scope (with ``project``: in that project under the
    scope, created by its first memory; dedup then stays inside the project). :func:`memories_write` of one item.

    Outcomes: an exact duplicate (same normalised content, same scope, live) or a re-sent event / external id
    where the request writes (in its project when it names one, else on its chain) returns the existing memory
    (``deduplicated``); an id used only elsewhere is a miss, as if unused. A near-duplicate (word-shingle Jaccard
    ≥ 0.5, same scope and kind) is superseded by the new memory (kept as history), unless it is an admin-curated
    policy and the author may not curate (then it is kept, with a ``policy_protected`` warning); an
    opposite-polarity twin adds a ``possible_contradiction`` warning and archives nothing; an expired exact twin
    becomes the new memory's history. Identical concurrent writes store one row. Raises a DomainError subclass on
    bad input, NotFound when the scope or the author's member was erased meanwhile.
    """
    item = {
        "content": content,
        "scope": scope,
        "kind": kind,
        "title": title,
        "metadata": metadata,
        "source_app": source_app,
        "source_session": source_session,
        "source_event_id": source_event_id,
        "external_id": external_id,
        "expires_at": expires_at,
        "project": project,
        "valid_from": valid_from,
        "valid_until": valid_until,
        "reference_time": reference_time,
    }
    (result,) = memories_write(tenant=tenant, author=author, items=[item], label=None)
    return result


def memory_create_batch(
    *,
    tenant: Tenant,
    author: Author,
    items: Sequence[dict[str, Any]],
    partial: bool = False,
    label: str = "memories",
    numbers: Sequence[int] | None = None,
    scopes_known: dict | None = None,
) -> list[WriteResult]:
    """Write ``items`` (each the keyword arguments of ``memory_create``, plus optional ``author`` and
    ``created_at``) with the single write's rules, in one transaction; one result per item, in input order.
    :func:`memories_write` with a label for the items' errors."""
    return memories_write(
        tenant=tenant,
        author=author,
        items=items,
        partial=partial,
        label=label,
        numbers=numbers,
        scopes_known=scopes_known,
    )


@retried_on_deadlock
def memories_write(
    *,
    tenant: Tenant,
    author: Author,
    items: Sequence[dict[str, Any]],
    partial: bool = False,
    label: str | None = "memories",
    numbers: Sequence[int] | None = None,
    scopes_known: dict | None = None,
) -> list[WriteResult]:
    """The write path: every new memory goes through here.

    Items are decided in order: an item identical to an earlier one at the same scope is ``deduplicated`` to it,
    a near-duplicate of an earlier one supersedes it, a re-sent event / external id returns the first. All or
    nothing by default: a bad item raises its DomainError — with ``label``, its message prefixed
    ``{label}[{number}]: `` and ``details["index"]`` set (``numbers`` maps item positions to the caller's own
    numbering) — and nothing is written, not even the project node or the auto-provisioned member the write
    would have created. With ``partial``, a bad item's result has ``error`` set (outcome ``failed``) and every
    other item is written.

    ``scopes_known``: a dict the caller keeps across its writes (a bulk import, batch after batch), in which the
    stored target scopes and their policies resolved by one write are reused by the next, instead of resolving
    each (author, scope) again per write; the caller owns its lifetime (the policy as it was when first resolved).
    """
    for attempt in range(1, INTEGRITY_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                return _attempt(
                    tenant, author, items, partial=partial, label=label, numbers=numbers, scopes_known=scopes_known
                )
        except IntegrityError:
            if attempt == INTEGRITY_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _attempt(
    tenant: Tenant,
    author: Author,
    items: Sequence[dict[str, Any]],
    *,
    partial: bool,
    label: str | None,
    numbers: Sequence[int] | None,
    scopes_known: dict | None = None,
) -> list[WriteResult]:
    author, provisioned = _author_provisioned(tenant, author)
    scopes = _Scopes(tenant, scopes_known)
    results: dict[int, WriteResult] = {}
    prepared: list[_Item] = []
    for index, raw in enumerate(items):
        try:
            prepared.append(_prepare(index, raw, author=author, scopes=scopes))
        except DomainError as exc:
            if not partial:
                raise _at(exc, index, label=label, numbers=numbers)
            results[index] = WriteResult(memory=None, created=False, error=exc)
    results.update(_decide_and_store(tenant, prepared, partial=partial, label=label, numbers=numbers))
    if provisioned and not any(result.created for result in results.values()):
        transaction.set_rollback(True)  # nothing of theirs was stored: the member is not kept either
    return [results[index] for index in range(len(items))]


def _author_provisioned(tenant: Tenant, author: Author) -> tuple[Author, bool]:
    """``author`` with their member stored, when it is a pending auto-provisioned one (see
    ``memories.services.callers.Caller``); whether that happened."""
    member = author.member
    if member is None or member.pk is not None:
        return author, False
    return replace(author, member=member_provision(tenant=tenant, user_id=member.user_id)), True


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
    times = clean_time(raw)
    target, policy = scopes.resolve(item_author, raw.get("scope"), raw.get("project"))
    _check_size(content, policy)
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
        times=times,
        target=target,
        policy=policy,
        digest=content_hash(content, speaker=turn_speaker(sources["session_id"], metadata)),
        bands=candidate_bands(content),
        # only an item with an id to replay needs to know where the request writes
        seen=scopes.seen_by(item_author, target, raw.get("project"))
        if sources["event_id"] or sources["external_id"]
        else set(),
    )


def _decide_and_store(
    tenant: Tenant,
    items: list[_Item],
    *,
    partial: bool,
    label: str | None,
    numbers: Sequence[int] | None,
) -> dict[int, WriteResult]:
    results: dict[int, WriteResult] = {}

    def fail(item: _Item, exc: DomainError) -> None:
        if not partial:
            raise _at(exc, item.index, label=label, numbers=numbers)
        results[item.index] = WriteResult(memory=None, created=False, error=exc)

    items = _lock_against_erasure(items, fail)
    if not items:
        return results
    now = timezone.now()
    hits = _dedup_hits(tenant, items, now=now)
    known_scopes = {item.target.pk: item.target for item in items if item.target.pk is not None}
    missing = {memory.scope_id for memory in hits["rows"]} - set(known_scopes)
    if missing:  # a re-sent id stored at another scope the request sees
        known_scopes.update(Scope.objects.in_bulk(missing))
    for memory in hits["rows"]:
        memory.tenant = tenant
        memory.scope = known_scopes[memory.scope_id]

    replays: dict[str, dict[int, Memory]] = {"external": hits["external"], "event": hits["event"]}
    live: dict[tuple[int, str], Memory] = hits["live"]
    expired: dict[tuple[int, str], set[int]] = hits["expired"]
    near: dict[int, list[Memory]] = hits["near"]
    superseded: set[int] = set()
    updates: dict[int, int] = {}  # stored row → the new row that supersedes it
    created: list[_NewRow] = []
    created_ids: set[int] = set()
    created_at_scope: dict[int, list[tuple[Memory, set[int]]]] = defaultdict(list)
    by_source: dict[tuple, list[Memory]] = defaultdict(list)  # this write's new rows, by external / event id
    ids = iter(_next_memory_ids(len(items)))

    for item in items:
        existing = _replayed(item, replays=replays, by_source=by_source)
        if existing is not None:
            results[item.index] = WriteResult(memory=existing, created=False, deduplicated=True)
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
        # a turn is its speaker's statement: nothing folds into it but the same speaker's later turn, however alike
        # the words ("I run the Thursday book club" from Lena does not replace Ravi's)
        candidates = [
            memory
            for memory in candidates
            if not memory.source_session or turn_speaker(memory.source_session, memory.metadata) == item.speaker
        ]
        candidates.sort(key=lambda memory: memory.pk, reverse=True)
        # relative dates ("yesterday") refer to the reference time: the session event's, the write's, else creation
        event_dates, event_span = content_event_dates(
            item.content, item.times["reference_time"] or item.created_at or now
        )
        if item.sources["session_id"]:
            # A turn folds into an earlier turn (superseding it) only when it says it again: about the same days and
            # with the same names and numbers. "On 23 June. I've put it in the calendar twice." is another event than
            # "Next Sunday. I've put …"; "Just back from Tallinn." is another trip than "Just back from Lisbon."; Yara's
            # "we're driving a Toyota Prius now" is no new version of Amara's "we're driving a Fiat 500 now" —
            # superseding hid the earlier turn, its words and its date. Each is a statement of its own, neither a
            # new version nor a contradiction to curate (bench/HISTORY.md, sessions 7 and 10).
            values = value_words(item.content)
            candidates = [
                memory
                for memory in candidates
                if not memory.source_session
                or (memory.event_dates == event_dates and value_words(memory.content) == values)
            ]
        older, warnings = near_duplicate_choice(
            candidates[:NEAR_DUPLICATE_CANDIDATES],
            kind=item.kind,
            content=item.content,
            may_curate=item.author.may_curate,
        )
        older, warnings = contradiction_check(
            candidates[:NEAR_DUPLICATE_CANDIDATES],
            content=item.content,
            title=item.title,
            warnings=warnings,
            superseded=older,
            author_member_id=item.author.member.pk if item.author.member is not None else None,
            author_name=item.author.display[:200],
        )
        flagged = instruction_warning(f"{item.title}\n{item.content}")
        if flagged is not None:
            warnings.append(flagged)
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
            **memory_trust_fields(author=item.author, kind=item.kind, session_id=item.sources["session_id"]),
            expires_at=item.expires_at
            or _expiry(policy=item.policy, kind=item.kind, level=item.target.home.level, now=now),
            valid_from=item.times["valid_from"],
            valid_until=item.times["valid_until"],
            reference_time=item.times["reference_time"],
        )
        memory.event_dates, memory.event_span = event_dates, event_span
        try:
            # the fields only: the database enforces the constraints, and the FKs were resolved above
            memory.full_clean(exclude=_RESOLVED_FIELDS, validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            fail(item, ValidationFailed("; ".join(exc.messages), details=getattr(exc, "message_dict", {})))
            continue
        if item.target.pk is None:  # the project's first memory: its node is stored now, inside the write
            project_node_save(item.target)
            memory.scope = item.target
            key = (item.target.pk, item.digest)
        memory.dedup_bands = scope_keyed_bands(item.bands, item.target.pk)
        # expired twins still hold the unique slot of non-superseded rows: they become the new row's history
        for old_id in expired.get(key, set()) - superseded:
            updates[old_id] = memory.pk
            superseded.add(old_id)
        if older is not None:
            superseded.add(older.pk)
            if older.pk in created_ids:  # an earlier item of this write: inserted as history
                older.superseded_by_id, older.superseded_at = memory.pk, now
            else:
                updates[older.pk] = memory.pk
        vector_texts = indexed_texts(title=item.title, content=item.content, glossary=item.policy["glossary"] or {})
        created.append(_NewRow(memory=memory, vector_texts=vector_texts, created_at=item.created_at))
        created_ids.add(memory.pk)
        created_at_scope[item.target.pk].append((memory, bands))
        live[key] = memory
        if item.sources["external_id"]:
            by_source[("external", item.sources["external_id"])].append(memory)
        if item.sources["event_id"]:
            by_source[("event", item.sources["session_id"], item.sources["event_id"])].append(memory)
        results[item.index] = WriteResult(
            memory=memory, created=True, supersedes=older.pk if older is not None else None, warnings=warnings
        )

    _store(created, updates, now=now)
    return results


def _replayed(
    item: _Item, *, replays: dict[str, dict[int, Memory]], by_source: dict[tuple, list[Memory]]
) -> Memory | None:
    """The memory a re-sent external or event id of ``item`` returns: stored (the dedup query looked only where
    the request writes) or written earlier in this write at one of those scopes. An id used elsewhere is a miss,
    indistinguishable from an unused one: the write stores its own memory (the unique constraints are per scope)."""
    sources = item.sources
    keys = []
    if sources["external_id"]:
        keys.append(("external", ("external", sources["external_id"])))
    if sources["event_id"]:
        keys.append(("event", ("event", sources["session_id"], sources["event_id"])))
    for why, source in keys:
        stored = replays[why].get(item.index)
        if stored is not None:
            return stored
        for memory in by_source.get(source, ()):
            if item.seen is None or memory.scope_id in item.seen:
                return memory
    return None


def _lock_against_erasure(items: list[_Item], fail) -> list[_Item]:
    """Share-lock the target scopes (a new project's owner), then the authors' members, in id order, until the
    write commits (scope first, as erasure locks them). An erasure holding them makes the write wait and then find
    them gone: a clean 404, never a row left at an erased node or by an erased author, and never a foreign-key
    failure at commit. (FOR SHARE, not KEY SHARE: erasure takes NO KEY UPDATE, which must block writes but not the
    key-share checks of the embedding and link tasks' inserts, or those would deadlock with it.)"""
    scope_ids = sorted({_locked_scope(item) for item in items})
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
        if _locked_scope(item) not in scopes:
            fail(item, NotFound(f"scope {item.target.tag} no longer exists", code="unknown_scope"))
        elif item.author.member is not None and item.author.member.pk not in members:
            fail(item, NotFound(f"unknown user_id {item.author.member.user_id!r} in this tenant", code="unknown_user"))
        else:
            kept.append(item)
    return kept


def _locked_scope(item: _Item) -> int:
    return item.target.pk if item.target.pk is not None else item.target.parent_id


def _dedup_columns() -> str:
    return ", ".join(
        f"m.{connection.ops.quote_name(field.column)}"
        for field in Memory._meta.concrete_fields
        if field.column != "search_vector"
    )


def _dedup_hits(tenant: Tenant, items: list[_Item], *, now: datetime) -> dict[str, Any]:
    """Everything dedup needs to know about stored rows, for the whole write, in one statement: per item, the rows
    holding its external id or (session, event id) among the scopes its request sees; the non-superseded row with
    its text at its scope (live, or expired and still holding the unique slot); its newest live near-duplicate
    candidates (sharing a MinHash band)."""
    params = {
        "tenant": tenant.pk,
        "now": now,
        "near_limit": NEAR_DUPLICATE_CANDIDATES,
        "ords": [item.index for item in items],
        "scopes": [item.target.pk for item in items],
        "hashes": [item.digest for item in items],
        # a project node the write creates holds nothing yet: no candidates to find there
        "bands": [
            "{" + ",".join(map(str, scope_keyed_bands(item.bands, item.target.pk) if item.target.pk else ())) + "}"
            for item in items
        ],
        "sessions": [item.sources["session_id"] for item in items],
        "events": [item.sources["event_id"] for item in items],
        "externals": [item.sources["external_id"] for item in items],
        "seen": [None if item.seen is None else "{" + ",".join(map(str, sorted(item.seen))) + "}" for item in items],
    }
    rows = list(Memory.objects.raw(_DEDUP_SQL.replace("{columns}", _dedup_columns()), params))
    hits: dict[str, Any] = {
        "rows": rows,
        "external": {},
        "event": {},
        "live": {},
        "expired": defaultdict(set),
        "near": defaultdict(list),
    }
    for memory in rows:  # newest first within an item: the last assignment is the first stored
        if memory.why in ("external", "event"):
            hits[memory.why][memory.ord] = memory
        elif memory.why == "exact":
            key = (memory.scope_id, memory.content_hash)
            if visibility.EXPIRY.holds(memory, now):
                hits["live"][key] = memory
            else:
                hits["expired"][key].add(memory.pk)
        else:
            hits["near"][memory.ord].append(memory)
    return hits


def _next_memory_ids(count: int) -> list[int]:
    """``count`` new memory ids in one statement (taken before the insert: history rows point at them)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence('memories_memory', 'id')) FROM generate_series(1, %s)", [count]
        )
        return sorted(row[0] for row in cursor.fetchall())


def _store(created: list[_NewRow], updates: dict[int, int], *, now: datetime) -> None:
    """The write's statements: stored rows superseded (one UPDATE, before the insert: a superseded twin frees its
    unique slot; the foreign key to the new rows is checked at commit), the new rows with their full-text vectors
    (one INSERT: one run of the statistics triggers), imported creation times (one UPDATE), and the hand-off of
    the new rows to indexing on commit."""
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
        stamped = [row for row in created if row.created_at is not None]
        if stamped:
            cursor.execute(
                "UPDATE memories_memory AS m SET created_at = v.at "
                "FROM unnest(%s::bigint[], %s::timestamptz[]) AS v(id, at) WHERE m.id = v.id",
                [[row.memory.pk for row in stamped], [row.created_at for row in stamped]],
            )
    for row in created:
        if row.created_at is not None:
            row.memory.created_at = row.created_at
        row.memory._state.adding = False
        row.memory.__dict__.pop("search_vector", None)  # computed by the INSERT: a later read loads it
    memories_index_queue(memory_ids=[row.memory.pk for row in created], using=connection.alias)


def _insert(cursor, created: list[_NewRow]) -> None:
    """One ``INSERT … SELECT … FROM unnest(<one array per column>)`` for every new row, the full-text vector
    computed in it (:func:`memories.services.indexing.search_vector_sql`). One array per column keeps the
    statement and its parameters the same size whatever the number of rows, and costs less CPU to build than an
    ORM ``bulk_create`` of as many rows."""
    columns, selects, arrays, params = [], [], [], []
    for field in Memory._meta.concrete_fields:
        if field.column == "search_vector":
            continue
        values = [field.get_db_prep_save(field.pre_save(row.memory, add=True), connection) for row in created]
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
    params += [[row.vector_texts[0] for row in created], [row.vector_texts[1] for row in created]]
    columns.append(connection.ops.quote_name("search_vector"))
    selects.append(search_vector_sql("vector_a", "vector_b"))
    cursor.execute(
        f"INSERT INTO {connection.ops.quote_name(Memory._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(selects)} FROM unnest({', '.join(arrays)}) AS v({', '.join(names)})",
        params,
    )


def _copy(exc: DomainError) -> DomainError:
    return type(exc)(exc.message, code=exc.code, details=dict(exc.details) if isinstance(exc.details, dict) else {})


def _at(exc: DomainError, index: int, *, label: str | None, numbers: Sequence[int] | None) -> DomainError:
    """The error of item ``index``, naming it as the caller numbers its input (as it is for a single write)."""
    if label is None:
        return exc
    number = numbers[index] if numbers is not None else index
    exc.details = {"index": number, **(exc.details if isinstance(exc.details, dict) else {})}
    exc.message = f"{label}[{number}]: {exc.message}"
    return exc
