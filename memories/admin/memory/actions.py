"""The memory admin's actions: move to another scope, make <kind>, re-index, and delete (one by one, through
``memories.services.memory``, so cascades and signals run). A refused row is reported as a message and the
others still go through.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import transaction
from django.template.response import TemplateResponse
from django.utils import timezone

from memories.admin.memory.common import _with_summary
from memories.admin.memory.forms import MoveToScopeForm
from memories.models import IndexState, Memory, Scope
from memories.services.memory import Author, memory_delete, memory_move, memory_set_kind
from memories.tasks import embed_memories
from orgmemory.errors import DomainError

REINDEX_BATCH = 64


def _admin_author(request) -> Author:
    return Author(kind="admin", user=request.user)


def _plural(count: int) -> str:
    return f"{count} memory" if count == 1 else f"{count} memories"


def _set_kind_action(kind: str):
    def action(modeladmin, request, queryset):
        changed = 0
        for memory in queryset.exclude(kind=kind):
            memory_set_kind(memory=memory, kind=kind)
            changed += 1
        modeladmin.message_user(request, f"{_plural(changed)} changed to {kind}.", messages.SUCCESS)

    action.__name__ = f"make_{kind}"
    return admin.action(description=f"Make {kind}", permissions=["change"])(action)


class MemoryActionsMixin:
    """The actions and deletes of :class:`~memories.admin.memory.admin.MemoryAdmin`."""

    def delete_model(self, request, obj):
        memory_delete(memory=obj)

    def delete_queryset(self, request, queryset):
        """Django's "delete selected", one service call per row so that cascades and signals run."""
        for memory in queryset:
            try:
                memory_delete(memory=memory)
            except DomainError as exc:
                self.message_user(request, f"Memory {memory.pk} was not deleted: {exc.message}", messages.ERROR)

    @admin.action(description="Move to another scope…", permissions=["change"])
    def move_to_scope(self, request, queryset):
        memories = list(_with_summary(queryset.select_related("tenant", "scope")).order_by("id"))
        tenant_ids = {memory.tenant_id for memory in memories}
        if len(tenant_ids) != 1:
            self.message_user(request, "Select memories of one tenant to move them together.", messages.ERROR)
            return None
        tenant = memories[0].tenant
        form = MoveToScopeForm(request.POST if "apply" in request.POST else None, tenant=tenant)
        if form.is_bound and form.is_valid():
            self._move(request, memories, form.cleaned_data["scope"])
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Move memories to another scope",
            "opts": self.model._meta,
            "tenant": tenant,
            "memories": memories,
            "form": form,
            "media": self.media + form.media,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/memories/memory/move_to_scope.html", context)

    def _move(self, request, memories: list[Memory], target: Scope) -> None:
        author = _admin_author(request)
        moved = 0
        refused: dict[str, list[int]] = defaultdict(list)
        for memory in memories:
            if memory.scope_id == target.pk:
                continue
            try:
                memory_move(memory=memory, author=author, scope=target)
            except DomainError as exc:
                refused[exc.message].append(memory.pk)
            else:
                moved += 1
        for message, ids in refused.items():
            shown = ", ".join(str(pk) for pk in ids[:20]) + (" …" if len(ids) > 20 else "")
            self.message_user(request, f"{_plural(len(ids))} not moved ({shown}): {message}", messages.ERROR)
        if moved or not refused:
            self.message_user(request, f"Moved {_plural(moved)} to {target.tag}.", messages.SUCCESS)

    @admin.action(description="Re-index (embed again)", permissions=["change"])
    def reindex(self, request, queryset):
        ids = list(queryset.order_by("id").values_list("id", flat=True))
        # Marking rows pending is indexing bookkeeping (the reindex command does the same); the embedding itself
        # is the memories_embed service, run by the task.
        Memory.objects.filter(pk__in=ids).update(
            index_state=IndexState.PENDING, index_error="", updated_at=timezone.now()
        )

        def queue() -> None:
            for start in range(0, len(ids), REINDEX_BATCH):
                embed_memories.delay(ids[start : start + REINDEX_BATCH])

        transaction.on_commit(queue)  # never embed inside the request's transaction
        self.message_user(request, f"Queued {_plural(len(ids))} for re-indexing.", messages.SUCCESS)
