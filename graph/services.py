"""Graph writes: entity resolution, replacing a memory's links, mention counts, merge and split."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.postgres.search import TrigramSimilarity
from django.db import connection, transaction
from django.db.models import F, Q

from graph.extraction import EntityRef, extract_links, normalize_entity_name, title_entity
from graph.facts import fact_rows, mention_links
from graph.models import Entity, EntityAlias, EntityKind, EntityLink, Fact
from memories.models import PROJECT_LEVEL, IndexState, Memory, Scope, Tenant
from memories.services.retry import retried_on_deadlock
from orgmemory.errors import NotFound, ValidationFailed

logger = logging.getLogger(__name__)

# Trigram similarity at or above which a new name resolves to an existing entity of a compatible kind.
# Chosen so that distinct names sharing a word ("Acme" / "Acme Labs") stay apart while typo variants of one name
# ("Mia Brown" / "Mia Browne") resolve together.
FUZZY_RESOLVE_THRESHOLD = 0.75
ABOUT = "about"
ABOUT_CONFIDENCE = 1.0
NAME_MAX = 200


class _Resolver:
    """Resolves names within one tenant, caching per batch: exact norm → alias → trigram → new entity."""

    def __init__(self, tenant: Tenant) -> None:
        self.tenant = tenant
        self.cache: dict[str, Entity] = {}
        self.missing: set[str] = set()  # norms known to have no exact or alias match (until created)
        self.named_by_shared: set[int] = set()  # entities whose name a shared memory of this batch has settled
        self.private: dict[int, bool] = {}  # memory id -> whether its scope is a member's own (or their project)

    def prefetch(self, refs: Iterable[EntityRef]) -> None:
        """Load the exact and alias matches of many names in two queries (resolution is then mostly cache hits)."""
        norms = {ref.norm[:NAME_MAX] for ref in refs} - set(self.cache) - self.missing
        if not norms:
            return
        for entity in Entity.objects.filter(tenant=self.tenant, norm__in=norms):
            self.cache[entity.norm] = entity
        for alias in EntityAlias.objects.filter(tenant=self.tenant, norm__in=norms - set(self.cache)).select_related(
            "entity"
        ):
            self.cache.setdefault(alias.norm, alias.entity)
        self.missing |= norms - set(self.cache)

    def resolve(self, ref: EntityRef, *, fuzzy: bool = True) -> Entity:
        """The entity for ``ref``; ``fuzzy=False`` skips the trigram step (bare mentions: a guess is not worth a
        wrong merge)."""
        norm = ref.norm[:NAME_MAX]
        if norm in self.cache:
            return self._with_kind(self.cache[norm], ref)
        entity = None
        if norm not in self.missing:  # prefetch already looked for exact and alias matches of these
            entity = (
                Entity.objects.filter(tenant=self.tenant, norm=norm).first()
                or Entity.objects.filter(tenant=self.tenant, aliases__norm=norm).first()
            )
        if entity is None and fuzzy:
            entity = self._fuzzy(norm, ref.kind)
        if entity is None:
            entity, _ = Entity.objects.get_or_create(
                tenant=self.tenant,
                norm=norm,
                defaults={"name": ref.name[:NAME_MAX], "kind": _kind(ref.kind), "target": (ref.target or "")[:300]},
            )
        self.cache[norm] = entity
        self.missing.discard(norm)
        return self._with_kind(entity, ref)

    def _with_kind(self, entity: Entity, ref: EntityRef) -> Entity:
        if entity.kind == "unknown" and _kind(ref.kind) != "unknown":
            entity.kind = _kind(ref.kind)
            Entity.objects.filter(pk=entity.pk).update(kind=entity.kind)
        return entity

    def keep_name_shareable(self, entity: Entity, written: str, memory: Memory) -> None:
        """An entity's name is what every reader of any memory linking it sees, so it must not be a private
        memory's spelling once a shared memory links the entity: the first shared memory to link an entity that
        only private memories named takes the name over with its own spelling. A private memory never renames."""
        written = written[:NAME_MAX]
        if entity.name == written or entity.pk in self.named_by_shared:
            return
        if memory.pk not in self.private:
            self.private[memory.pk] = _is_private(memory, self.tenant)
        if self.private[memory.pk]:
            return
        self.named_by_shared.add(entity.pk)
        private_scopes = _private_scopes(self.tenant)
        named_before = (
            EntityLink.objects.filter(Q(subject_id=entity.pk) | Q(object_id=entity.pk), tenant_id=self.tenant.pk)
            .exclude(memory_id=memory.pk)
            .exclude(scope_id__in=private_scopes)
            .exists()
        )
        if not named_before:
            entity.name = written
            Entity.objects.filter(pk=entity.pk).update(name=written)

    def reset(self) -> None:
        """Forget what a rolled-back transaction may have created or renamed."""
        self.cache.clear()
        self.missing.clear()
        self.named_by_shared.clear()

    def forget(self, entity_ids: set[int]) -> None:
        """Drop deleted entities from the cache, so a later memory of the batch does not link to them."""
        self.cache = {norm: entity for norm, entity in self.cache.items() if entity.pk not in entity_ids}
        self.missing.clear()

    def _fuzzy(self, norm: str, kind: str) -> Entity | None:
        if len(norm) < 5:  # short names are too ambiguous to match fuzzily
            return None
        candidates = (
            Entity.objects.filter(tenant=self.tenant, norm__trigram_similar=norm)
            .annotate(similarity=TrigramSimilarity("norm", norm))
            .filter(similarity__gte=FUZZY_RESOLVE_THRESHOLD)
            .order_by("-similarity", "id")
        )
        for candidate in candidates[:5]:
            if _compatible(candidate.kind, _kind(kind)):
                return candidate
        return None


def _private_scopes(tenant: Tenant):
    """The tenant's private nodes (its members' own nodes and their projects), as a subquery."""
    user_level = tenant.user_level
    return (
        Scope.objects.for_tenant(tenant)
        .filter(Q(level=user_level) | Q(level=PROJECT_LEVEL, parent__level=user_level))
        .values("pk")
    )


def _is_private(memory: Memory, tenant: Tenant) -> bool:
    scope = Scope.objects.filter(pk=memory.scope_id).select_related("parent").only("level", "parent__level").first()
    if scope is None:
        return True  # deleted meanwhile: never let it name anything
    user_level = tenant.user_level
    return scope.level == user_level or (
        scope.level == PROJECT_LEVEL and scope.parent is not None and scope.parent.level == user_level
    )


def _kind(kind: str) -> str:
    return kind if kind in EntityKind.values else "unknown"


def _compatible(a: str, b: str) -> bool:
    return a == b or "unknown" in (a, b)


def links_extract_for_memories(*, memory_ids: Iterable[int]) -> dict[str, int]:
    """Extract and store the links of each memory, replacing its previous links atomically (update =
    re-extract). Mention counts of every entity touched stay exact. A failure marks that memory
    ``links_state=failed`` (the sweeper retries) and never affects the others.

    Each tenant's memories are written as one batch (:func:`_replace_links_batch`: a fixed number of statements
    whatever the batch's size, plus one or two per entity never seen before); should the batch fail, its memories
    are redone one by one, so the failure stays with the memory that caused it."""
    done = failed = links = 0
    by_tenant: dict[int, list[Memory]] = {}
    for memory in (
        Memory.objects.filter(pk__in=list(memory_ids)).select_related("tenant", "author_member").order_by("id")
    ):
        by_tenant.setdefault(memory.tenant_id, []).append(memory)
    for memories in by_tenant.values():
        resolver = _Resolver(memories[0].tenant)
        try:
            links += _atomically(_replace_links_batch, memories, resolver)
            done += len(memories)
            continue
        except Exception as exc:  # redone memory by memory below, so that only the culprit is marked failed
            logger.info("batched link extraction of %d memories failed (%s); one by one", len(memories), exc)
        for memory in memories:
            try:
                links += _atomically(_replace_links, memory, resolver)
                done += 1
            except Exception as exc:  # one bad memory must not stop the batch; it stays retryable
                logger.warning("link extraction failed for memory %s: %s", memory.pk, exc)
                Memory.objects.filter(pk=memory.pk).update(
                    links_state=IndexState.FAILED, links_error=f"{type(exc).__name__}: {exc}"[:2000]
                )
                failed += 1
    return {"memories": done, "failed": failed, "links": links}


@retried_on_deadlock
def _atomically(work: Callable[[Any, _Resolver], int], target: Any, resolver: _Resolver) -> int:
    """``work(target, resolver)`` in a transaction of its own, run again when PostgreSQL chose it as a deadlock
    victim: two indexing workers (import workers, Celery) resolving the same names lock those entities — a kind or
    a name settled, a mention count — in the order their memories name them, which no single sort makes agree.
    Whatever fails, the resolver forgets what the rolled-back transaction created or renamed."""
    try:
        with transaction.atomic():
            return work(target, resolver)
    except Exception:
        resolver.reset()
        raise


def _replace_links_batch(memories: list[Memory], resolver: _Resolver) -> int:
    """Replace the links of one tenant's ``memories`` together: one locking read, one read of their old links, one
    delete, one insert, one mention-count update (the per-entity sums of what each memory added and removed), one
    prune of entities nothing mentions any more, one state update. Entities are resolved memory by memory in id
    order, as :func:`_replace_links` would, so a name new to the tenant is created once and found by the later
    memories of the batch."""
    locked = {
        row["pk"]: row
        for row in Memory.objects.select_for_update()
        .filter(pk__in=[memory.pk for memory in memories])
        .order_by("pk")
        .values("pk", "content", "title")
    }
    memories = [memory for memory in memories if memory.pk in locked]  # the others were deleted meanwhile
    if not memories:
        return 0
    extracted: dict[int, list] = {}
    for memory in memories:
        row = locked[memory.pk]
        extracted[memory.pk] = [
            link
            for link in extract_links(row["content"], self_name=row["title"] or None)
            if link.subject.norm and (link.object is None or link.object.norm)
        ]
    resolver.prefetch(
        ref for links in extracted.values() for link in links for ref in (link.subject, link.object) if ref is not None
    )
    # every name is resolved memory by memory in id order, exactly as one memory at a time would: creating the
    # batch's bare-mention entities up front (as tried) let an earlier typed name trigram-match a later memory's
    # mention and merged them (world-v1 "attended" R@5 0.98 -> 0.93)
    rows: list[EntityLink] = []
    facts: list[Fact] = []
    current: dict[int, set[int]] = {}
    for memory in memories:
        row = locked[memory.pk]
        memory_rows = _link_rows(memory, row["title"], row["content"], extracted[memory.pk], resolver)
        stated = fact_rows(memory, row["content"], resolver, facts)
        memory_rows += mention_links(memory, stated, _linked(memory_rows))
        facts.extend(stated)
        rows.extend(memory_rows)
        current[memory.pk] = {
            entity_id for link in memory_rows for entity_id in (link.subject_id, link.object_id) if entity_id
        }
    ids = [memory.pk for memory in memories]
    previous: dict[int, set[int]] = {pk: set() for pk in ids}
    for memory_id, subject_id, object_id in EntityLink.objects.filter(memory_id__in=ids).values_list(
        "memory_id", "subject_id", "object_id"
    ):
        previous[memory_id].update(entity_id for entity_id in (subject_id, object_id) if entity_id)
    EntityLink.objects.filter(memory_id__in=ids).delete()
    EntityLink.objects.bulk_create(rows)
    Fact.objects.bulk_create(_facts_replaced(ids, facts))
    # mention_count = distinct memories linking to the entity: each memory adds one to the entities it now links
    # and takes one from those it no longer links (see _replace_links), summed per entity over the batch
    delta: dict[int, int] = {}
    for pk in ids:
        for entity_id in current[pk] - previous[pk]:
            delta[entity_id] = delta.get(entity_id, 0) + 1
        for entity_id in previous[pk] - current[pk]:
            delta[entity_id] = delta.get(entity_id, 0) - 1
    # in id order: two batches indexed at once (import workers, Celery) lock shared entities in the same order
    changed = {entity_id: delta[entity_id] for entity_id in sorted(delta) if delta[entity_id]}
    if changed:
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE graph_entity AS e SET mention_count = e.mention_count + d.change "
                "FROM unnest(%s::bigint[], %s::int[]) AS d(id, change) WHERE e.id = d.id",
                [list(changed), list(changed.values())],
            )
    fewer = [entity_id for entity_id, change in changed.items() if change < 0]
    if fewer:
        Entity.objects.filter(pk__in=fewer, mention_count__lte=0, aliases__isnull=True).delete()
    Memory.objects.filter(pk__in=ids).update(links_state=IndexState.READY, links_error="")
    return len(rows)


def _link_rows(memory: Memory, title: str, content: str, extracted: list, resolver: _Resolver) -> list[EntityLink]:
    """The link rows of one memory: ``about`` its title's entity (when the title names one), then its extracted
    links resolved to entities, deduplicated on (subject, relationship, object) keeping the highest confidence."""
    rows: dict[tuple, EntityLink] = {}
    name = title_entity(title, content, extracted, kind_given="entity_kind" in (memory.metadata or {}))
    if name:
        about = resolver.resolve(
            EntityRef(
                name=name,
                norm=normalize_entity_name(name) or name.casefold(),
                kind=str(memory.metadata.get("entity_kind", "unknown")),
            )
        )
        resolver.keep_name_shareable(about, name, memory)
        rows[(about.pk, ABOUT, None)] = EntityLink(
            tenant_id=memory.tenant_id,
            memory_id=memory.pk,
            subject=about,
            relationship=ABOUT,
            object=None,
            confidence=ABOUT_CONFIDENCE,
            subject_norm=about.norm,
            span_start=0,
            span_end=0,
        )
    for link in extracted:
        typed = link.relationship != "mentioned"
        subject = resolver.resolve(link.subject, fuzzy=typed)
        obj = resolver.resolve(link.object) if link.object is not None else None
        resolver.keep_name_shareable(subject, link.subject.name, memory)
        if obj is not None:
            resolver.keep_name_shareable(obj, link.object.name, memory)
        if obj is not None and obj.pk == subject.pk:
            continue  # "Acme acquired Acme" after resolution: not an edge
        key = (subject.pk, link.relationship, obj.pk if obj else None)
        if key in rows and rows[key].confidence >= link.confidence:
            continue
        rows[key] = EntityLink(
            tenant_id=memory.tenant_id,
            memory_id=memory.pk,
            subject=subject,
            relationship=link.relationship,
            object=obj,
            confidence=round(float(link.confidence), 4),
            subject_norm=link.subject.norm[:NAME_MAX],
            object_norm=link.object.norm[:NAME_MAX] if link.object else "",
            metadata=dict(link.metadata),
            span_start=link.span[0],
            span_end=link.span[1],
        )
    return list(rows.values())


def _facts_replaced(memory_ids: list[int], facts: list[Fact]) -> list[Fact]:
    """Delete the facts ``memory_ids`` stated, but those a curator closed or corrected (their decision stands when
    the memory is indexed again), and return the new ``facts`` a kept one does not already cover (the same subject
    and attribute of the same memory)."""
    stale = Fact.objects.filter(memory_id__in=memory_ids)
    kept = set(stale.exclude(curator_note="").values_list("memory_id", "subject_id", "attribute"))
    stale.filter(curator_note="").delete()
    return [fact for fact in facts if (fact.memory_id, fact.subject_id, fact.attribute) not in kept]


def _linked(rows: list[EntityLink]) -> set[int]:
    return {entity_id for link in rows for entity_id in (link.subject_id, link.object_id) if entity_id}


def _replace_links(memory: Memory, resolver: _Resolver) -> int:
    locked = Memory.objects.select_for_update().filter(pk=memory.pk).values("content", "title").first()
    if locked is None:
        return 0  # deleted meanwhile
    content, title = locked["content"], locked["title"]
    extracted = [
        link
        for link in extract_links(content, self_name=title or None)
        if link.subject.norm and (link.object is None or link.object.norm)
    ]
    resolver.prefetch(ref for link in extracted for ref in (link.subject, link.object) if ref is not None)
    rows = _link_rows(memory, title, content, extracted, resolver)
    facts = fact_rows(memory, content, resolver)
    rows += mention_links(memory, facts, _linked(rows))
    old_links = EntityLink.objects.filter(memory_id=memory.pk).values_list("subject_id", "object_id")
    previous = {entity_id for pair in old_links for entity_id in pair if entity_id}
    EntityLink.objects.filter(memory_id=memory.pk).delete()
    EntityLink.objects.bulk_create(rows)
    Fact.objects.bulk_create(_facts_replaced([memory.pk], facts))
    current = {entity_id for link in rows for entity_id in (link.subject_id, link.object_id) if entity_id}
    # mention_count = distinct memories linking to the entity, so this memory adds one to the entities it now
    # links and takes one from those it no longer links: O(links), where a full recount per memory was
    # O(mentions) and made extraction quadratic for frequently named entities (13 → 100+ memories/s).
    if current - previous:
        Entity.objects.filter(pk__in=current - previous).update(mention_count=F("mention_count") + 1)
    if previous - current:
        Entity.objects.filter(pk__in=previous - current).update(mention_count=F("mention_count") - 1)
        orphans = Entity.objects.filter(pk__in=previous - current, mention_count__lte=0, aliases__isnull=True)
        pruned = set(orphans.values_list("pk", flat=True))
        if pruned:
            orphans.delete()
            resolver.forget(pruned)
    Memory.objects.filter(pk=memory.pk).update(links_state=IndexState.READY, links_error="")
    return len(rows)


def entities_recount(*, tenant_id: int, entity_ids: Iterable[int], prune: bool = True) -> None:
    """Set each entity's mention count to the number of distinct memories linking to it; with ``prune``,
    delete entities nothing mentions any more (their names may be personal data) unless an alias points at
    them."""
    ids = list(set(entity_ids))
    if not ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE graph_entity e SET mention_count = (
                SELECT count(DISTINCT l.memory_id) FROM graph_entitylink l
                WHERE l.subject_id = e.id OR l.object_id = e.id
            )
            WHERE e.tenant_id = %s AND e.id = ANY(%s)
            """,
            [tenant_id, ids],
        )
    if prune:
        Entity.objects.filter(tenant_id=tenant_id, pk__in=ids, mention_count=0, aliases__isnull=True).delete()


def entity_names_forget_unused(*, tenant_id: int, entity_ids: Iterable[int]) -> set[int]:
    """After an erasure: forget the names of these entities that no remaining link was written with, then recount
    and prune them. An alias that only the erased memories used is deleted; an entity whose own name only they
    used takes the name of an alias still in use; an entity nothing mentions any more is deleted even if it has
    aliases (the plain recount keeps those, as a curated merge). Names can be personal data. Returns the ids of
    the entities deleted."""
    ids = set(entity_ids)
    if not ids:
        return set()
    used: dict[int, set[str]] = {entity_id: set() for entity_id in ids}
    for subject_id, object_id, subject_norm, object_norm in (
        EntityLink.objects.filter(tenant_id=tenant_id)
        .filter(Q(subject_id__in=ids) | Q(object_id__in=ids))
        .values_list("subject_id", "object_id", "subject_norm", "object_norm")
    ):
        if subject_id in used:
            used[subject_id].add(subject_norm)
        if object_id in used:
            used[object_id].add(object_norm)
    for entity in Entity.objects.filter(tenant_id=tenant_id, pk__in=ids):
        names = used[entity.pk]
        aliases = list(EntityAlias.objects.filter(entity=entity))
        EntityAlias.objects.filter(pk__in=[alias.pk for alias in aliases if alias.norm not in names]).delete()
        if names and entity.norm not in names:
            heir = next((alias for alias in aliases if alias.norm in names), None)
            if heir is not None:
                heir.delete()
                Entity.objects.filter(pk=entity.pk).update(name=heir.name, norm=heir.norm)
    before = set(Entity.objects.filter(tenant_id=tenant_id, pk__in=ids).values_list("pk", flat=True))
    entities_recount(tenant_id=tenant_id, entity_ids=ids)
    Entity.objects.filter(tenant_id=tenant_id, pk__in=ids, mention_count=0).delete()
    return before - set(Entity.objects.filter(tenant_id=tenant_id, pk__in=ids).values_list("pk", flat=True))


@transaction.atomic
def entity_merge(*, tenant: Tenant, survivor: Entity, others: Iterable[Entity]) -> Entity:
    """Merge ``others`` into ``survivor``: their names and aliases become the survivor's aliases and their links
    point at the survivor. Undo with :func:`entity_split_alias`."""
    others = [entity for entity in others if entity.pk != survivor.pk]
    if survivor.tenant_id != tenant.pk or any(entity.tenant_id != tenant.pk for entity in others):
        raise NotFound("unknown entity", code="unknown_entity")
    for entity in others:
        EntityAlias.objects.filter(entity=entity).update(entity=survivor)
        EntityAlias.objects.get_or_create(
            tenant=tenant, norm=entity.norm, defaults={"entity": survivor, "name": entity.name}
        )
        EntityLink.objects.filter(subject=entity).update(subject=survivor)
        EntityLink.objects.filter(object=entity).update(object=survivor)
        # the facts go with their entity (deleting it would cascade them, a curator's corrections included)
        Fact.objects.filter(subject=entity).update(subject=survivor)
        Fact.objects.filter(value_entity=entity).update(value_entity=survivor)
        entity.delete()
    EntityLink.objects.filter(subject=survivor, object=survivor).delete()
    entities_recount(tenant_id=tenant.pk, entity_ids=[survivor.pk], prune=False)
    survivor.refresh_from_db()
    return survivor


@transaction.atomic
def entity_split_alias(*, alias: EntityAlias) -> Entity:
    """Undo a merge for one alias: it becomes its own entity again and takes back the links written with it."""
    survivor = alias.entity
    if alias.norm == survivor.norm:
        raise ValidationFailed("an entity's own name cannot be split off")
    entity = Entity.objects.create(tenant_id=alias.tenant_id, name=alias.name, norm=alias.norm, kind=survivor.kind)
    moved = EntityLink.objects.filter(
        Q(subject=survivor, subject_norm=alias.norm) | Q(object=survivor, object_norm=alias.norm)
    )
    memory_ids = sorted(set(moved.values_list("memory_id", flat=True)))
    EntityLink.objects.filter(subject=survivor, subject_norm=alias.norm).update(subject=entity)
    EntityLink.objects.filter(object=survivor, object_norm=alias.norm).update(object=entity)
    alias.delete()
    entities_recount(tenant_id=alias.tenant_id, entity_ids=[survivor.pk, entity.pk], prune=False)
    # the facts those memories state are read again, so that the name written resolves to its own entity again
    links_extract_for_memories(memory_ids=memory_ids)
    entity.refresh_from_db()
    return entity


@transaction.atomic
def link_delete(*, link: EntityLink) -> None:
    ids = [link.subject_id] + ([link.object_id] if link.object_id else [])
    tenant_id = link.tenant_id
    link.delete()
    entities_recount(tenant_id=tenant_id, entity_ids=ids)


def entities_recount_by_ids(*, entity_ids: Iterable[int]) -> None:
    """:func:`entities_recount` for ids of any tenants (the task behind memory deletions)."""
    by_tenant: dict[int, list[int]] = {}
    for pk, tenant_id in Entity.objects.filter(pk__in=list(entity_ids)).values_list("pk", "tenant_id"):
        by_tenant.setdefault(tenant_id, []).append(pk)
    for tenant_id, ids in by_tenant.items():
        entities_recount(tenant_id=tenant_id, entity_ids=ids)
