"""Facts at write and at read: the fact rows a memory states (in the graph's indexing pass, beside its links), and
the timeline of a subject's attribute as a caller may see it (docs/ARCHITECTURE.md § Facts).

A fact is stored as its memory states it. Which value holds when is read: among the facts the caller can see, as
of the time asked, a functional attribute's value holds from its ``valid_from`` until the next value's (or the
statement's own end, or a negation's day). A curated memory's value is not closed by a later value an agent wrote:
both are returned, the conflict marked, the curated one current.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from graph import vocabulary as v
from graph.extraction.facts import LEFT, LEFT_EITHER, StatedFact, extract_facts, left_unread
from graph.extraction.normalize import normalize_entity_name
from graph.extraction.types import EntityRef
from graph.models import Entity, EntityLink, Fact
from memories import visibility
from memories.instructions import WARNING_CODE as INSTRUCTION_WARNING
from memories.models import Memory
from memories.services.trust import memory_is_curated

__all__ = ["FactView", "fact_rows", "facts_timeline", "member_name", "memory_speaker"]

NAME_MAX = 200
# an author of a session event that is a person's name ("Lena", "Dana Smith", "Jean-Luc"): words that each start
# with a capital; an agent's name ("support-bot", "assistant", "model", "travel_agent") is not one
_PERSON_NAME_RE = re.compile(r"[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*){0,3}")
# the ADK author of a member's own turns
USER_AUTHOR = "user"


def memory_speaker(memory: Memory) -> str | None:
    """Who "I" is in ``memory``: the member for their own turns (ADK's ``user``) and for notes written for them,
    the named person for a turn a person said; None for an assistant's or agent's turn (it restates; it states
    nothing new about anyone) and for a note no member wrote."""
    if memory.source_session:
        author = str((memory.metadata or {}).get("author") or "").strip()
        if author.casefold() == USER_AUTHOR:
            return _member_name(memory)
        return author if _PERSON_NAME_RE.fullmatch(author) else None
    return _member_name(memory)


def _member_name(memory: Memory) -> str | None:
    member = memory.author_member
    return None if member is None else member_name(display_name=member.display_name, user_id=member.user_id)


def member_name(*, display_name: str, user_id: str) -> str | None:
    """A member as a person is named: their org-chart display name, else their user id read as a name ("chen.wei"
    is Chen Wei) — the subject of what they say of themselves, and what a question about them names."""
    name = display_name.strip() or " ".join(re.split(r"[._\-\s]+", user_id)).strip().title()
    return name or None


def fact_rows(memory: Memory, content: str, resolver, pending: Sequence[Fact] = ()) -> list[Fact]:
    """The facts ``memory`` states, with their subjects and entity values resolved (``resolver``: the graph's
    name resolver of the indexing batch; ``pending``: the facts of the batch's earlier memories, not yet saved). An
    instruction-flagged memory states none."""
    if any(isinstance(w, dict) and w.get("code") == INSTRUCTION_WARNING for w in memory.warnings or []):
        return []
    said = memory.reference_time or memory.created_at
    stated = extract_facts(content, speaker=memory_speaker(memory), reference=said)
    rows = []
    # a move whose old or new value the graph knows as an employer is a change of job (both values of one statement)
    employers = {fact.span for fact in stated if fact.attribute == v.LIVES_IN and _an_employer(fact, resolver, pending)}
    for fact in stated:
        if fact.attribute in (LEFT, LEFT_EITHER):  # "left Vanta": an employer or a home, as the graph knows the value
            subject = _resolve(resolver, fact.subject, v.PERSON)
            fact = _left_as(fact, subject, resolver, pending)
            if fact is None:
                continue
        if fact.attribute == v.LIVES_IN and fact.span in employers:
            fact = replace(fact, attribute=v.WORKS_AT_ATTR)  # "moved from Novartis to Vercel": a new job, not a home
        attribute = v.ATTRIBUTES_BY_VALUE[fact.attribute]
        subject = _resolve(resolver, fact.subject, _kind_of(attribute.subjects))
        if subject is None:
            continue
        value_entity = None
        if attribute.literal is None:
            value_entity = _resolve(resolver, fact.value, _kind_of(attribute.values))
            if value_entity is None or value_entity.pk == subject.pk:
                continue
        rows.append(
            Fact(
                tenant_id=memory.tenant_id,
                memory_id=memory.pk,
                subject=subject,
                attribute=fact.attribute,
                value_entity=value_entity,
                value=fact.value[:NAME_MAX],
                negated=fact.negated,
                valid_from=fact.valid_from,
                valid_until=_until(fact),
                recorded_at=said,
                confidence=round(float(fact.confidence), 4),
            )
        )
    return rows


def _left_as(fact: StatedFact, subject: Entity | None, resolver, pending: Sequence[Fact]) -> StatedFact | None:
    """A bare "left X" as the end of X as the subject's employer or home: by what the graph already says X is of
    them (a fact with X as its value, saved or stated earlier in the same batch), else by X's kind (a company or
    organisation, a place); else, when the graph knows nothing of X's kind, as its text alone would be read
    (``left_unread``); None when X is a person or a product (no fact rather than a wrong one)."""
    if subject is None:
        return None
    known = _known_entity(resolver, fact.value)
    if known is None:
        return left_unread(fact)
    held = next(
        (
            row.attribute
            for row in reversed(pending)
            if row.subject_id == subject.pk and row.value_entity_id == known.pk and not row.negated
        ),
        None,
    ) or (
        Fact.objects.filter(tenant=resolver.tenant, subject=subject, value_entity=known, negated=False)
        .values_list("attribute", flat=True)
        .first()
    )
    kinds = {v.COMPANY: v.WORKS_AT_ATTR, v.ORG: v.WORKS_AT_ATTR, v.PLACE: v.LIVES_IN}
    attribute = held if held in (v.WORKS_AT_ATTR, v.LIVES_IN) else kinds.get(known.kind)
    if attribute is None:
        return left_unread(fact) if known.kind == v.UNKNOWN else None
    return replace(fact, attribute=attribute)


def _known_entity(resolver, name: str) -> Entity | None:
    """The entity the graph already has by this name (the batch's resolver first), or None: nothing is created."""
    norm = normalize_entity_name(name)[:NAME_MAX]
    return resolver.cache.get(norm) or Entity.objects.filter(tenant=resolver.tenant, norm=norm).first()


def _an_employer(fact: StatedFact, resolver, pending: Sequence[Fact]) -> bool:
    """The value of a move is an employer, as the graph knows it: an entity of a company's or an organisation's kind,
    or a value the subject has worked at (saved, or stated earlier in the batch)."""
    known = _known_entity(resolver, fact.value)
    if known is None:
        return False
    if known.kind in (v.COMPANY, v.ORG):
        return True
    return any(row.value_entity_id == known.pk and row.attribute == v.WORKS_AT_ATTR for row in pending) or (
        Fact.objects.filter(
            tenant=resolver.tenant,
            value_entity=known,
            attribute=v.WORKS_AT_ATTR,
            subject__norm=normalize_entity_name(fact.subject),
        ).exists()
    )


def _until(fact: StatedFact) -> date | None:
    if fact.valid_until is not None and fact.valid_from is not None and fact.valid_until < fact.valid_from:
        return fact.valid_from
    return fact.valid_until


def _kind_of(kinds: frozenset[str]) -> str:
    """The kind an entity playing this side is given: the side's one entity kind, else unknown."""
    entity_kinds = kinds & set(v.ENTITY_KIND_VALUES)
    return next(iter(entity_kinds)) if len(entity_kinds) == 1 else v.UNKNOWN


def _resolve(resolver, name: str, kind: str) -> Entity | None:
    norm = normalize_entity_name(name)
    if not norm:
        return None
    return resolver.resolve(EntityRef(name=name[:NAME_MAX], norm=norm[:NAME_MAX], kind=kind))


def mention_links(memory: Memory, facts: Sequence[Fact], linked: set[int]) -> list[EntityLink]:
    """A bare mention of each entity the facts name that the memory's links do not: the memory names it, so the
    entity lives as long as a memory names it, and the entity page lists the memory."""
    rows = []
    for entity in [entity for fact in facts for entity in (fact.subject, fact.value_entity) if entity is not None]:
        if entity.pk in linked:
            continue
        linked.add(entity.pk)
        rows.append(
            EntityLink(
                tenant_id=memory.tenant_id,
                memory_id=memory.pk,
                subject=entity,
                relationship=v.MENTIONED,
                object=None,
                confidence=0.5,
                subject_norm=entity.norm,
            )
        )
    return rows


# --- reading -------------------------------------------------------------------------------------------------------


@dataclass
class FactView:
    """One fact as a caller sees it: its interval as read among the facts they can see, as of the time asked."""

    id: int
    subject_id: int
    subject: str
    attribute: str
    value: str
    value_entity_id: int | None
    negated: bool
    valid_from: date | None
    valid_until: date | None
    memory_id: int
    confidence: float
    curated: bool
    recorded_at: datetime
    current: bool = False
    closed_by: int | None = None  # the fact whose value ended this one
    closed_by_negation: int | None = None  # the memory of the statement that ended it with no new value ("I left")
    conflicts_with: list[int] = field(default_factory=list)  # a later value it outranks (curated over agent)

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "attribute": self.attribute,
            "value": self.value,
            "value_entity_id": self.value_entity_id,
            "negated": self.negated,
            "valid_from": self.valid_from.isoformat() if self.valid_from else None,
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "memory_id": self.memory_id,
            "confidence": self.confidence,
            "curated": self.curated,
            "current": self.current,
            "closed_by": self.closed_by,
            "conflicts_with": self.conflicts_with,
        }


def facts_timeline(
    *,
    tenant_id: int,
    chain_ids: Sequence[int],
    subject_ids: Iterable[int],
    attributes: Iterable[str] | None = None,
    as_of: datetime | None = None,
    now: datetime,
) -> list[FactView]:
    """The facts about ``subject_ids`` that a caller whose visible scopes are ``chain_ids`` may see — their memories
    in force then — recorded by ``as_of`` (else ``now``), each with the interval it holds among them: current
    values first (per subject and attribute, newest first), then history, newest first."""
    moment = as_of or now
    # history stays: a superseded memory still says what held before; an expired one says nothing any more. As of
    # T, what had been said by then — by each statement's own time (a back-dated session answers as of its dates)
    query = Fact.objects.filter(
        visibility.EXPIRY.q(moment, "memory__"),
        tenant_id=tenant_id,
        subject_id__in=list(subject_ids),
        memory__tenant_id=tenant_id,
        memory__scope_id__in=list(chain_ids),
        recorded_at__lte=moment,
    )
    if attributes is not None:
        query = query.filter(attribute__in=list(attributes))
    rows = list(query.select_related("memory", "subject").order_by("subject_id", "attribute", "recorded_at", "id"))
    views = [
        FactView(
            id=row.pk,
            subject_id=row.subject_id,
            subject=row.subject.name,
            attribute=row.attribute,
            value=row.value,
            value_entity_id=row.value_entity_id,
            negated=row.negated,
            valid_from=row.valid_from,
            valid_until=row.valid_until,
            memory_id=row.memory_id,
            confidence=row.confidence,
            curated=memory_is_curated(row.memory),
            recorded_at=row.memory.reference_time or row.recorded_at,
        )
        for row in rows
    ]
    groups: dict[tuple[int, str], list[FactView]] = {}
    for view in views:
        groups.setdefault((view.subject_id, view.attribute), []).append(view)
    day = moment.date()
    for (_, attribute), group in groups.items():
        _read_intervals(group, functional=v.ATTRIBUTES_BY_VALUE[attribute].functional, day=day)
    current = [view for view in views if view.current]
    history = [view for view in views if not view.current and not view.negated]
    key = lambda view: (view.valid_from or date.min, view.recorded_at)  # noqa: E731
    return sorted(current, key=key, reverse=True) + sorted(history, key=key, reverse=True)


def _start(view: FactView) -> date:
    """When a value began, for ordering: its own day, else — a statement about the past with only an end ("until
    2022") — no later than that end, else the day it was said."""
    if view.valid_from is not None:
        return view.valid_from
    said = view.recorded_at.date()
    return min(said, view.valid_until) if view.valid_until is not None else said


def _ends_as_said_later(view: FactView, later: FactView) -> bool:
    """Close an open value at the end a later statement of the past gives the same value ("I moved from Boston",
    "lived in Boston until May", said after "I live in Boston"); a curated value is not closed by an uncurated one."""
    if view.valid_until is not None or later.recorded_at <= view.recorded_at or (view.curated and not later.curated):
        return False
    view.valid_until = max(later.valid_until, view.valid_from) if view.valid_from else later.valid_until
    view.closed_by = later.id
    return True


def _read_intervals(group: list[FactView], *, functional: bool, day: date) -> None:
    """Close each value by the next one of a functional attribute (by when it began, then when it was said), or by
    a negation of the same value; a curated value is not closed by a later uncurated one (the conflict is marked on
    both); what is left open on ``day`` is current."""
    ordered = sorted(group, key=lambda view: (_start(view), view.recorded_at, view.id))
    carried: dict[int, FactView] = {}  # a value said again: the later statement that carries it on
    for index, view in enumerate(ordered):
        if view.negated:
            continue
        for later in ordered[index + 1 :]:
            same_value = later.value.casefold() == view.value.casefold()
            if later.valid_until is not None and not later.negated and later.valid_until <= later.recorded_at.date():
                if same_value and _ends_as_said_later(view, later):
                    break  # the same value said later to have ended ("I moved from Boston"): it ended then
                continue  # said of the past, after it ended ("until 2022"): it closes nothing that came after
            if later.negated and same_value or (functional and not later.negated and not same_value):
                if view.curated and not later.curated:
                    if not later.negated:
                        view.conflicts_with.append(later.id)
                        later.conflicts_with.append(view.id)
                    continue
                end = _start(later)
                if view.valid_until is None or end < view.valid_until:
                    view.valid_until = max(end, view.valid_from) if view.valid_from else end
                    view.closed_by = later.id
                    view.closed_by_negation = later.memory_id if later.negated else None
                break
            if not later.negated and same_value and functional:
                carried[view.id] = later
                break  # said again: still the same value; the later statement carries it on
    # what ends a value said again ends it as first said too ("works at Initech" twice, then "quit Initech")
    for view in reversed(ordered):
        later = carried.get(view.id)
        if later is not None and later.closed_by is not None and view.closed_by is None:
            view.valid_until, view.closed_by = later.valid_until, later.closed_by
            view.closed_by_negation = later.closed_by_negation
    for view in ordered:
        if view.negated:
            continue
        begun = view.valid_from is None or view.valid_from <= day
        view.current = begun and (view.valid_until is None or view.valid_until > day) and view.closed_by is None
    # a curated value outranks the uncurated values it conflicts with: they are not current beside it
    for view in ordered:
        if (
            view.current
            and not view.curated
            and any(other.current and other.curated for other in ordered if other.id in view.conflicts_with)
        ):
            view.current = False
    if functional:
        # at most one current value: the latest begun (a value said again is one value)
        live = [view for view in ordered if view.current]
        for view in live[:-1]:
            if view.value.casefold() != live[-1].value.casefold() and not (view.curated and not live[-1].curated):
                view.current = False
