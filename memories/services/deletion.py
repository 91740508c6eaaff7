"""Deletions requested by agents: one memory, or the memories at one scope that match a query. An agent may
delete only what it could write: the memory's scope is on the member's chain and policy lets agents write at
that level."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery
from django.db import connection, transaction

from memories.indexing_text import TEXT_SEARCH_CONFIG
from memories.models import Member, Memory, Scope, Tenant
from memories.services.memory import (
    Author,
    memories_check_may_delete,
    memories_delete,
    memory_delete,
    memory_scope_resolve,
)
from memories.services.retry import retried_on_deadlock
from orgmemory.errors import ValidationFailed
from orgmemory.text import text_problem

QUERY_MAX_CHARS = 2000
MAX_DELETE_BY_QUERY = 1000


@dataclass(frozen=True)
class DeleteByQueryResult:
    scope: Scope
    ids: list[int] = field(default_factory=list)
    dry_run: bool = False

    @property
    def deleted(self) -> int:
        return 0 if self.dry_run else len(self.ids)


def _agent(member: Member, curator: bool) -> Author:
    return Author(kind="agent", member=member, curator=curator)


@transaction.atomic
def memory_delete_by_member(
    *, tenant: Tenant, member: Member, memory: Memory, curator: bool = False, project: str | None = None
) -> int:
    """Delete ``memory`` (with its superseded history) on behalf of ``member`` (an agent acting for them):
    PermissionDenied ``scope_not_on_chain`` / ``level_not_writable`` when they could not have written it there,
    ``policy_protected`` for an admin-curated policy unless ``curator`` (the key has the ``admin`` permission),
    ``project_required`` for a project's memory unless ``project`` names it. Returns the number deleted."""
    if memory.tenant_id != tenant.pk:
        raise ValueError("memory of another tenant")
    author = _agent(member, curator)
    memory_scope_resolve(tenant=tenant, author=author, scope=memory.scope, project=project)
    memories_check_may_delete(memory_ids=[memory.pk], author=author)
    return memory_delete(memory=memory)


def _plain_tsquery_is_empty(query: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT plainto_tsquery(%s, %s)::text", [TEXT_SEARCH_CONFIG, query])
        return not cursor.fetchone()[0]


@retried_on_deadlock
@transaction.atomic
def memories_delete_by_query(
    *,
    tenant: Tenant,
    member: Member,
    query: str,
    scope: Scope | str | None = None,
    dry_run: bool = False,
    curator: bool = False,
    project: str | None = None,
) -> DeleteByQueryResult:
    """Delete the memories at exactly one scope (default: the member's own; with ``project``, that project's node
    under it — 404 ``unknown_project`` if it has none — and then never the scope's own memories) whose title +
    content contain every word of ``query`` (``plainto_tsquery``: stemmed words ANDed; no operators, so no
    negation or wildcard can widen it). History rows (superseded, expired) at that scope that match go too:
    forgetting means forgetting.

    Refused: a scope off the member's chain or not writable by agents (403), a query with no searchable word
    (400 ``empty_query``: it would match nothing or everything), more than 1,000 matches (400
    ``too_many_matches``: narrow the query), a match that is an admin-curated policy unless ``curator`` (403
    ``policy_protected`` with their ids: nothing is deleted). ``dry_run`` returns the ids without deleting. The
    older versions each match superseded are deleted with it."""
    if not isinstance(query, str) or text_problem(query) or len(query) > QUERY_MAX_CHARS:
        raise ValidationFailed(
            f"query must be a string of at most {QUERY_MAX_CHARS} characters", details={"query": ["invalid"]}
        )
    query = query.strip()
    if not query or _plain_tsquery_is_empty(query):
        raise ValidationFailed(
            "the query has no searchable words (only stopwords or punctuation)",
            code="empty_query",
            details={"query": ["no searchable words"]},
        )
    target, _ = memory_scope_resolve(
        tenant=tenant, author=_agent(member, curator), scope=scope or member.scope, project=project
    )
    matches = (
        Memory.objects.filter(tenant=tenant, scope=target)
        .filter(search_vector=SearchQuery(query, search_type="plain", config=TEXT_SEARCH_CONFIG))
        .order_by("id")
    )
    ids = list(matches.values_list("pk", flat=True)[: MAX_DELETE_BY_QUERY + 1])
    if len(ids) > MAX_DELETE_BY_QUERY:
        raise ValidationFailed(
            f"the query matches more than {MAX_DELETE_BY_QUERY} memories at {target.tag}; narrow it",
            code="too_many_matches",
            details={"limit": MAX_DELETE_BY_QUERY},
        )
    memories_check_may_delete(memory_ids=ids, author=_agent(member, curator))
    if ids and not dry_run:
        memories_delete(memory_ids=ids)  # with their superseded history, which must not become live again
    return DeleteByQueryResult(scope=target, ids=ids, dry_run=dry_run)
