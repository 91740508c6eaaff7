"""GDPR erasure of one member: what they wrote, what was stored about them at their scope, and their identity."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q

from memories.hooks import erasure_shares_start
from memories.keys import validate_key
from memories.models import ApiKey, Member, Memory, Policy, Scope, Tenant
from memories.selectors import scope_subtree
from memories.services.memory import memories_delete, memories_with_history
from memories.services.retry import retried_on_deadlock
from orgmemory.errors import NotFound, PermissionDenied


@dataclass(frozen=True)
class ErasureResult:
    user_id: str
    memories: int  # at the member's scope (and below it) plus every memory they authored at any scope
    links: int  # graph links those memories stated (the graph's erasure share)
    entities: int  # entities nothing mentions any more, deleted with them (the graph's erasure share)
    scopes: int  # the member's user node (and any node below it)
    api_keys: int  # keys restricted to the member's subtree
    policies: int  # policy overrides on the member's subtree

    def as_dict(self) -> dict[str, int | str]:
        return asdict(self)


@retried_on_deadlock
@transaction.atomic
def user_erase(*, tenant: Tenant, user_id: str, within: Scope | None = None) -> ErasureResult:
    """Erase ``user_id`` from the tenant: every memory at their user node (and below it, whoever wrote it), every
    memory they authored anywhere (team facts included, with their history), the graph links those memories
    stated, entities left with no mention (their names may be personal data), keys and policy overrides bound to
    their subtree, their user node and the member row. Unknown user → NotFound ``unknown_user``. With ``within``
    (the subtree a restricted key may change), an erasure that would delete anything outside it is refused whole
    (PermissionDenied ``scope_restricted``): an erasure is complete or not done.

    Memories that merely mention the person by name in someone else's words are not theirs and are kept; an
    admin can find them through the entity page before erasing if needed.
    """
    validate_key(user_id, field="user_id")
    member = Member.objects.for_tenant(tenant).select_related("scope").filter(user_id=user_id).first()
    if member is None:
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    subtree_ids = list(scope_subtree(tenant=tenant, scope=member.scope).values_list("pk", flat=True))
    # Lock the member's nodes, then the member, in the order writes share-lock them (memory_create): a write in
    # flight finishes first and its memory is erased below; a later one waits, then finds them gone (404). NO KEY
    # UPDATE blocks those writes but not the key-share checks of embedding/link tasks inserting chunks and links.
    nodes = Scope.objects.filter(pk__in=subtree_ids).order_by("pk").select_for_update(no_key=True)
    list(nodes.values_list("pk", flat=True))
    member = (
        Member.objects.select_for_update(no_key=True, of=("self",)).select_related("scope").filter(pk=member.pk).first()
    )
    if member is None:  # erased meanwhile by a concurrent request
        raise NotFound(f"unknown user_id {user_id!r} in this tenant", code="unknown_user")
    memories = Memory.objects.filter(tenant=tenant).filter(Q(scope_id__in=subtree_ids) | Q(author_member=member))
    if within is not None:
        inside = scope_subtree(tenant=tenant, scope=within).values_list("pk", flat=True)
        if memories.exclude(scope_id__in=inside).exists():
            raise PermissionDenied(
                f"{user_id} wrote memories outside {within.tag}; erasing them needs a key not restricted to it",
                code="scope_restricted",
            )
    memory_ids = list(memories.values_list("pk", flat=True))
    doomed = memories_with_history(memory_ids=memory_ids)  # what the delete below takes with it
    # the apps built on the memory store (the graph: links, entity names) read their part before the delete
    finishes = erasure_shares_start(tenant=tenant, memory_ids=doomed)
    memory_count = memories_delete(memory_ids=memory_ids)
    shares = [finish() for finish in finishes]

    key_ids = list(ApiKey.objects.filter(tenant=tenant, scope_id__in=subtree_ids).values_list("pk", flat=True))
    policy_ids = list(Policy.objects.filter(tenant=tenant, scope_id__in=subtree_ids).values_list("pk", flat=True))
    erased: dict[type, Iterable[int]] = {
        Memory: doomed,
        Scope: subtree_ids,
        Member: [member.pk],
        ApiKey: key_ids,
        Policy: policy_ids,
    }
    for share in shares:
        erased.update(share.erased)
    _scrub_admin_log(erased)
    # the user node's deletion cascades to the nodes below it, the member row, and keys/policies bound there
    _, deleted = member.scope.delete()
    scope_count = deleted.get(Scope._meta.label, 0)
    return ErasureResult(
        user_id=user_id,
        memories=memory_count,
        links=sum(share.counts.get("links", 0) for share in shares),
        entities=sum(share.counts.get("entities", 0) for share in shares),
        scopes=scope_count,
        api_keys=len(key_ids),
        policies=len(policy_ids),
    )


ERASED_REPR = "(erased)"


def _scrub_admin_log(objects: dict[type, Iterable[int]]) -> None:
    """The admin's LogEntry rows keep each object's str() (a memory's title or first 60 characters) and change
    messages: keep the record that an admin acted, drop the words."""
    for model, ids in objects.items():
        ids = [str(pk) for pk in ids]
        if ids:
            LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(model), object_id__in=ids).update(
                object_repr=ERASED_REPR, change_message=""
            )
