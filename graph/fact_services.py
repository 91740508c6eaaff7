"""A curator's writes to facts: close one (it stopped holding on a day) or correct its value, each with a note,
each an entry of Django's admin log with its tenant (the audit page reads it).

A fact is otherwise written only by extraction (``graph.services``, the indexing pass). A curated change is kept on
the row (``valid_until``, ``value``, ``curator_note``: the latest note); who made it, when, and what it was before
are in the admin log. ``graph.facts.facts_timeline`` reads the row as it now is: a closed fact holds until the day
set, a corrected one with its new value.
"""

from __future__ import annotations

from datetime import date

from django.contrib.admin.models import CHANGE, LogEntry
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from graph import vocabulary as v
from graph.extraction.normalize import normalize_entity_name
from graph.models import Entity, Fact
from memories.curation.services import admin_log_tenant_record
from memories.models import Tenant
from orgmemory.errors import NotFound, ValidationFailed

__all__ = ["NOTE_MAX_CHARS", "VALUE_MAX_CHARS", "fact_close", "fact_correct", "fact_value_hint"]

NOTE_MAX_CHARS = Fact._meta.get_field("curator_note").max_length
VALUE_MAX_CHARS = Fact._meta.get_field("value").max_length


@transaction.atomic
def fact_close(*, tenant: Tenant, fact: Fact, until: date, by, note: str) -> Fact:
    """End ``fact`` on ``until`` (its ``valid_until``: it no longer holds from that day), with the curator's
    ``note``; ``by`` (the admin user) and the change are recorded in the admin log. Returns the fact as saved.

    NotFound ``fact_not_found`` for a fact of another tenant or one gone meanwhile (its memory re-indexed or
    deleted). ValidationFailed, with ``details`` naming the field: ``note_required`` / ``note_too_long`` (note);
    ``interval_reversed`` (``until`` before the fact began), ``negation_not_closable`` (a negation holds nothing
    to close), ``already_closed`` (it already ends on that day) (valid_until)."""
    note = _note(note)
    row = _locked(tenant=tenant, fact=fact)
    if row.negated:
        raise _invalid(
            "valid_until",
            "A negation ends a value; it holds nothing to close. Correct its value instead.",
            code="negation_not_closable",
        )
    if row.valid_from is not None and until < row.valid_from:
        raise _invalid(
            "valid_until",
            f"It cannot end before it began ({row.valid_from.isoformat()}).",
            code="interval_reversed",
        )
    if row.valid_until == until:
        raise _invalid("valid_until", f"It already ends on {until.isoformat()}.", code="already_closed")
    before = row.valid_until
    row.valid_until = until
    row.curator_note = note
    _save(row, fields=["valid_until", "curator_note"])
    was = before.isoformat() if before else "open"
    _log(
        by=by,
        fact=row,
        message=f"Closed fact {row.pk} ({_described(row)}): valid until {until.isoformat()} (was {was}). Note: {note}",
    )
    return row


@transaction.atomic
def fact_correct(*, tenant: Tenant, fact: Fact, value: str, by, note: str) -> Fact:
    """Replace the value of ``fact`` with ``value`` (what a misread statement meant), with the curator's ``note``;
    ``by`` and the old and new values are recorded in the admin log. An entity-valued attribute takes an entity of
    the tenant, by its name or an alias (the fact then names that entity); a date, an ISO day; a job title is kept
    lower-cased, as extraction keeps it. Returns the fact as saved.

    NotFound ``fact_not_found`` as for :func:`fact_close`. ValidationFailed, with ``details`` naming the field:
    ``note_required`` / ``note_too_long`` (note); ``value_required``, ``value_too_long``, ``unknown_entity``,
    ``value_is_subject``, ``invalid_date``, ``value_unchanged`` (value)."""
    note = _note(note)
    row = _locked(tenant=tenant, fact=fact)
    attribute = v.ATTRIBUTES_BY_VALUE[row.attribute]
    written = " ".join((value or "").split())
    if not written:
        raise _invalid("value", "Write the value it should have.", code="value_required")
    if len(written) > VALUE_MAX_CHARS:
        raise _invalid("value", f"At most {VALUE_MAX_CHARS} characters.", code="value_too_long")
    value_entity = None
    if attribute.literal is None:
        value_entity = _entity_named(tenant=tenant, name=written)
        if value_entity is None:
            raise _invalid(
                "value",
                f"No entity of this tenant is called “{written}” (by name or alias). Its value must be an entity "
                "the graph knows: check the spelling, or merge the names first.",
                code="unknown_entity",
            )
        if value_entity.pk == row.subject_id:
            raise _invalid("value", "A fact cannot name its own subject as its value.", code="value_is_subject")
        written = value_entity.name
    elif attribute.literal == v.DATE:
        try:
            written = date.fromisoformat(written).isoformat()
        except ValueError:
            raise _invalid("value", "Write the day as YYYY-MM-DD.", code="invalid_date")
    elif attribute.literal == v.TITLE:
        written = written.lower()
    if written == row.value and (value_entity.pk if value_entity else None) == row.value_entity_id:
        raise _invalid("value", "That is already its value.", code="value_unchanged")
    before = row.value
    row.value = written
    row.value_entity = value_entity
    row.curator_note = note
    _save(row, fields=["value", "value_entity", "curator_note"])
    _log(
        by=by,
        fact=row,
        message=f"Corrected fact {row.pk} ({_described(row, value=False)}): value “{before}” → “{written}”. "
        f"Note: {note}",
    )
    return row


def fact_value_hint(attribute: str) -> str:
    """What a correction of an ``attribute`` value takes, in words (the correct form's help text)."""
    spec = v.ATTRIBUTES_BY_VALUE[attribute]
    if spec.literal == v.DATE:
        return "A day, as YYYY-MM-DD."
    if spec.literal == v.TITLE:
        return "A job title (kept lower-cased)."
    if spec.literal is not None:
        return "A word or a name, as it should read."
    kinds = sorted(spec.values & set(v.ENTITY_KIND_VALUES))
    return f"The name (or an alias) of an entity of this tenant: {' or '.join(kinds)}."


# --- steps ----------------------------------------------------------------------------------------------------------


def _invalid(field: str, message: str, *, code: str) -> ValidationFailed:
    return ValidationFailed(message, code=code, details={field: [message]})


def _note(note: str) -> str:
    note = " ".join((note or "").split())
    if not note:
        raise _invalid("note", "Say why: the note is kept with the fact and in the audit log.", code="note_required")
    if len(note) > NOTE_MAX_CHARS:
        raise _invalid("note", f"At most {NOTE_MAX_CHARS} characters.", code="note_too_long")
    return note


def _locked(*, tenant: Tenant, fact: Fact) -> Fact:
    """The fact's row, locked for this transaction: two curators' changes apply one after the other, each to what
    the other left. A fact of another tenant looks missing."""
    row = (
        Fact.objects.select_for_update(of=("self",)).select_related("subject").filter(tenant=tenant, pk=fact.pk).first()
    )
    if row is None:
        raise NotFound(f"no fact {fact.pk} in this tenant", code="fact_not_found")
    return row


def _entity_named(*, tenant: Tenant, name: str) -> Entity | None:
    norm = normalize_entity_name(name)
    if not norm:
        return None
    return Entity.objects.filter(Q(norm=norm) | Q(aliases__norm=norm), tenant=tenant).order_by("-mention_count").first()


def _save(row: Fact, *, fields: list[str]) -> None:
    try:
        row.full_clean()
    except ValidationError as exc:  # what the checks above let through (the model's own rules): on its field
        errors = {name: [str(message) for message in messages] for name, messages in exc.message_dict.items()}
        field = next((name for name in errors if name in fields), None)
        message = " ".join(message for messages in errors.values() for message in messages)
        raise ValidationFailed(message, code="invalid_fact", details={field or "__all__": [message]})
    row.save(update_fields=fields)


def _described(row: Fact, *, value: bool = True) -> str:
    label = v.ATTRIBUTES_BY_VALUE[row.attribute].label
    return f"{row.subject.name} {label} {row.value}" if value else f"{row.subject.name} {label}"


def _log(*, by, fact: Fact, message: str) -> None:
    entries = LogEntry.objects.log_actions(user_id=by.pk, queryset=[fact], action_flag=CHANGE, change_message=message)
    admin_log_tenant_record(entries=list(entries), tenant_ids=[fact.tenant_id])
