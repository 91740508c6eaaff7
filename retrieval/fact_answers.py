"""Answering a question about an attribute from the facts the caller may see (graph.facts), or saying that nothing
visible states it — abstention from structure, not from a similarity score.

- The current value, cited, with since when ("Dmitri Volkov lives in Denver (since 1 August 2025) [1]."); the earlier
  value for a question about before; the value that held on the date a question names; as of ``as_of``, what had
  been said by then. The memory stating the value ranks first, the one stating the value it closed just below it.
- A subject the question names whose attribute no visible fact states: ``unknown`` ("Nothing you can see says where
  Dmitri works."), with ``no_relevant_memory`` when no result on the page names the subject beside one of the
  attribute's cue words either. A page that does (a statement the extractor could not read as a fact) keeps its
  usual answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from graph import vocabulary as v
from graph.extraction.normalize import normalize_entity_name
from graph.facts import FactView, facts_timeline, member_name, memory_speaker
from graph.models import Entity, Fact
from memories.models import Member, Memory, Tenant
from retrieval.fact_questions import BEFORE, NOW, THEN, AttributeQuestion
from retrieval.synthesis.dates import spoken_day
from retrieval.synthesis.types import Answer

__all__ = ["FactOutcome", "fact_outcome", "fact_sentence"]

_WORD_RE = re.compile(r"[^\W\d_]+")
_PAGE = 5  # the results read for a statement the facts miss


@dataclass
class FactOutcome:
    """What the facts say: an ``answer`` (kind ``fact`` or ``unknown``), the memories to rank first (``lead``, in
    order, each with why), and whether nothing visible states it (``no_relevant``)."""

    answer: Answer
    lead: list[tuple[int, str]] = field(default_factory=list)
    no_relevant: bool = False
    read: bool = False  # facts of that subject and attribute were read: they know more than untimed typed edges
    attribute: str = ""


def fact_outcome(
    *,
    tenant: Tenant,
    user_id: str,
    question: AttributeQuestion,
    subject_ids: dict[str, list[int]],
    chain_ids: Sequence[int],
    as_of: datetime | None,
    window: tuple[date, date] | None,
    page: Sequence[Memory],
    now: datetime,
) -> FactOutcome | None:
    """The facts' answer to ``question``, or None when it names no subject the tenant knows (then the search
    answers as it otherwise would). ``subject_ids``: the question's subject names → the entities they name."""
    if question.when == THEN and window is not None and window[0] <= now.date() <= window[1]:
        question = replace(question, when=NOW)  # "where does Lena live today?" asks how things stand now
    subjects = _subjects(tenant, user_id, question, subject_ids)
    if not subjects:
        return _nobody_mentioned(question, page)
    name, ids = subjects[0]
    attribute = v.ATTRIBUTES_BY_VALUE[question.attribute]
    facts = facts_timeline(
        tenant_id=tenant.pk,
        chain_ids=chain_ids,
        subject_ids=[entity_id for _, entity_ids in subjects for entity_id in entity_ids],
        attributes=[attribute.value],
        as_of=as_of,
        now=now,
    )
    facts = [fact for fact in facts if not fact.negated]
    name = facts[0].subject if facts else _entity_name(ids[0]) or name
    chosen, closed = _choose(facts, question, window)
    if chosen:
        sentences, lead = [], []
        for fact in chosen:
            lead.append((fact.memory_id, "the fact's statement" if fact not in closed else "an earlier value"))
            sentences.append(fact_sentence(fact, subject=name, closed=fact in closed) + f" [{len(lead)}].")
        # a curated value outranks a later agent-written one: the answer says so, citing both (never silently)
        disputed = [fact for fact in facts if fact.id in set(chosen[0].conflicts_with) and fact not in chosen][:1]
        for fact in disputed:
            lead.append((fact.memory_id, "a later value the curated one outranks"))
            sentences.append(f"A later statement says {_value(fact)} [{len(lead)}]; the curated value holds.")
        cited = len(lead)
        earlier = [fact for fact in facts if fact.closed_by in {c.id for c in chosen}]
        lead += [(fact.memory_id, "the value it replaced") for fact in earlier if fact not in chosen][:2]
        citations = tuple((n, memory_id) for n, (memory_id, _) in enumerate(lead[:cited], start=1))
        fact_json = chosen[0].as_json() | {"subject": name}
        return FactOutcome(
            answer=Answer(text=" ".join(sentences), citations=citations, used_llm=False, kind="fact", fact=fact_json),
            lead=list(dict.fromkeys(lead)),
            read=True,
            attribute=attribute.value,
        )
    if facts and question.when not in (BEFORE, THEN):
        # every value it had has ended ("Freya has left Vanta"): none holds now, and the last one says until when
        last = facts[0]
        text = f"{_capitalised(attribute.unknown.format(subject=name)).rstrip('.')} now. "
        text += fact_sentence(last, subject=name, closed=True) + " [1]."
        # the statement that ended it: the negation that closed this value or a later statement of it
        negation = next((fact.closed_by_negation for fact in facts if fact.closed_by_negation), None)
        lead = [(negation, "the statement that ended it")] if negation is not None else []
        return FactOutcome(
            answer=Answer(text=text, citations=((1, last.memory_id),), used_llm=False, kind="unknown"),
            lead=[*lead, (last.memory_id, "the value that ended")],
            read=True,
            attribute=attribute.value,
        )
    if _page_states(tenant, page, name, attribute):
        return None  # a result says it in words no fact was read from: the usual answer reads it
    return FactOutcome(
        answer=Answer(
            text=_capitalised(attribute.unknown.format(subject=name)), citations=(), used_llm=False, kind="unknown"
        ),
        no_relevant=not any(_names(memory, name) for memory in page[:_PAGE]),
        attribute=attribute.value,
    )


def _nobody_mentioned(question: AttributeQuestion, page: Sequence[Memory]) -> FactOutcome | None:
    """A subject the question names as a name that nothing the caller can see mentions — no entity, no result
    holding its words — is unknown; any other question is answered as it otherwise would be."""
    if not question.named or question.first_person:
        return None
    words = set(_WORD_RE.findall(question.named.casefold())) - {"the"}
    if not words or any(words <= _words(memory) | _said_by(memory) for memory in page[:_PAGE]):
        return None
    return FactOutcome(
        answer=Answer(
            text=f"Nothing you can see mentions {question.named}.", citations=(), used_llm=False, kind="unknown"
        ),
        no_relevant=True,
        attribute=question.attribute,
    )


def _words(memory: Memory) -> set[str]:
    return set(_WORD_RE.findall(f"{memory.title} {memory.content}".casefold()))


def _subjects(
    tenant: Tenant, user_id: str, question: AttributeQuestion, subject_ids: dict[str, list[int]]
) -> list[tuple[str, list[int]]]:
    found = [(norm, subject_ids[norm]) for norm in question.subjects if subject_ids.get(norm)]
    if found or not question.first_person:
        return found
    member = Member.objects.filter(tenant=tenant, user_id=user_id).values("display_name", "user_id").first()
    if member is None:
        return []
    name = member_name(display_name=member["display_name"], user_id=member["user_id"]) or member["user_id"]
    ids = list(Entity.objects.filter(tenant=tenant, norm=normalize_entity_name(name)).values_list("pk", flat=True))
    return [(name, ids)] if ids else []


def _entity_name(entity_id: int) -> str | None:
    return Entity.objects.filter(pk=entity_id).values_list("name", flat=True).first()


def _choose(
    facts: list[FactView], question: AttributeQuestion, window: tuple[date, date] | None
) -> tuple[list[FactView], list[FactView]]:
    """The facts that answer, and which of them are answered as closed values."""
    current = [fact for fact in facts if fact.current]
    if question.when == BEFORE:
        earlier = [fact for fact in facts if not fact.current and fact.valid_until is not None]
        return earlier[:1], earlier[:1]
    if question.when == THEN and window is not None:
        day = window[1]
        held = [
            fact
            for fact in facts
            if (fact.valid_from is None or fact.valid_from <= day)
            and (fact.valid_until is None or day < fact.valid_until)
        ]
        return held[:1], [fact for fact in held[:1] if not fact.current]
    return current, []


def fact_sentence(fact: FactView, *, subject: str | None = None, closed: bool = False) -> str:
    """The attribute's sentence for ``fact``, without its full stop: the value since when ("Dmitri lives in Denver
    (since 1 August 2025)"), or, ``closed``, until when ("Dmitri lived in Boston (until 1 August 2025)")."""
    attribute = v.ATTRIBUTES_BY_VALUE[fact.attribute]
    sentence = attribute.before if closed else attribute.current
    written = sentence.format(
        subject=subject or fact.subject, value=_value(fact), since=_since(fact), until=_until(fact)
    )
    return _capitalised(written).rstrip(".")


def _capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _value(fact: FactView) -> str:
    if fact.attribute == v.DUE_DATE:
        return spoken_day(date.fromisoformat(fact.value))
    return fact.value


def _since(fact: FactView) -> str:
    return f" (since {spoken_day(fact.valid_from)})" if fact.valid_from and fact.attribute != v.DUE_DATE else ""


def _until(fact: FactView) -> str:
    return f" (until {spoken_day(fact.valid_until)})" if fact.valid_until else ""


def _names(memory: Memory, name: str) -> bool:
    """The memory is about ``name`` or by them: a word of the name is in its text or in who said it (a speaker does
    not say their own name: "I work at Tidewater")."""
    return bool(set(_WORD_RE.findall(name.casefold())) & (_words(memory) | _said_by(memory)))


def _said_by(memory: Memory) -> set[str]:
    speaker = (memory.metadata or {}).get("author") if isinstance(memory.metadata, dict) else None
    return set(_WORD_RE.findall(f"{speaker or ''} {memory.author or ''}".casefold()))


def _page_states(tenant: Tenant, page: Sequence[Memory], name: str, attribute: v.Attribute) -> bool:
    """A result on the page names the subject beside one of the attribute's cue words, in a statement no fact of
    the attribute was read from (one that was, "Annika reports to Emre", is about whoever its fact is about; an
    assistant's turn states nothing, it echoes what was said to it)."""
    cues = attribute.words
    said = [
        memory
        for memory in page[:_PAGE]
        if _names(memory, name) and cues & _words(memory) and not (memory.source_session and not memory_speaker(memory))
    ]
    if not said:
        return False
    read = set(
        Fact.objects.filter(tenant=tenant, memory_id__in=[m.pk for m in said], attribute=attribute.value).values_list(
            "memory_id", flat=True
        )
    )
    return any(memory.pk not in read for memory in said)
