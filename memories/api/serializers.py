"""The memory shapes of the API: what a write accepts (one memory or a batch), what it returns, a memory as
read, a page of them, a deletion; plus the OpenAPI response proxy and examples the views document with.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from memories.api.common import USER_ID_HELP
from memories.models import MemoryKind
from memories.services.memory import WriteResult
from orgmemory.api.serializers import ScopeField, ScopeRefSerializer

MAX_BATCH = 100


PROJECT_HELP = (
    "A project sub-scope under the scope (a user or team node), e.g. `alpha`: created by its first write; reads "
    "and deletes that name it see the chain's memories plus that project's (404 `unknown_project` if none)."
)


def project_field() -> serializers.CharField:
    return serializers.CharField(
        max_length=128, required=False, allow_null=True, allow_blank=True, help_text=PROJECT_HELP
    )


TIME_INPUT_HELP = {
    "valid_from": "When the memory starts being true (ISO 8601 date or datetime; open if absent).",
    "valid_until": "When it stops being true (ISO 8601; after valid_from; open if absent).",
    "reference_time": 'The "now" relative dates in the content refer to ("yesterday"); default: the write time.',
}


def time_input_fields() -> dict[str, serializers.CharField]:
    """The optional time fields of a write: parsed by the write path (400 ``invalid`` naming the field)."""
    return {
        name: serializers.CharField(max_length=64, required=False, allow_null=True, allow_blank=True, help_text=text)
        for name, text in TIME_INPUT_HELP.items()
    }


class EventDatesField(serializers.ListField):
    """ISO dates (``2025-05-07``) or ranges ``{"start", "end"}`` the content mentions, normalised against its
    reference time."""

    child = serializers.JSONField()


STATUS_HELP = (
    "active; proposed (a policy from a key without the admin permission, until an admin approves it); curated "
    "(an approved proposal)."
)


class MemoryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    scope = ScopeRefSerializer(source="home_scope", help_text="The node it lives at (a project's owner node).")
    project = serializers.CharField(allow_null=True, help_text="Its project, or null for the node's own memories.")
    kind = serializers.ChoiceField(choices=MemoryKind.choices)
    title = serializers.CharField()
    content = serializers.CharField()
    author = serializers.CharField(help_text="Display name of the author (a user_id, or admin:<name>).")
    metadata = serializers.DictField(child=serializers.JSONField())
    app_name = serializers.CharField(source="source_app")
    session_id = serializers.CharField(source="source_session")
    event_id = serializers.CharField(source="source_event_id")
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_until = serializers.DateTimeField(allow_null=True)
    reference_time = serializers.DateTimeField(allow_null=True, help_text="What relative dates refer to.")
    event_dates = EventDatesField()
    superseded_at = serializers.DateTimeField(allow_null=True, help_text="Set on a version read as of its time.")
    index_state = serializers.CharField(help_text="pending until embedded; failed rows are retried.")
    status = serializers.CharField(help_text=STATUS_HELP)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MemoryPageSerializer(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next page (same filters), null on the last page.")
    previous = serializers.URLField(allow_null=True)
    results = MemoryOutputSerializer(many=True)


class MemoryInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text=USER_ID_HELP)
    content = serializers.CharField(help_text="The memory's text (size limit per tenant policy, default 32 KiB).")
    title = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    kind = serializers.ChoiceField(choices=MemoryKind.choices, default=MemoryKind.FACT)
    scope = ScopeField(required=False, allow_null=True, help_text="Default: the user's own scope.")
    project = project_field()
    metadata = serializers.DictField(child=serializers.JSONField(), required=False, default=dict)
    app_name = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    session_id = serializers.CharField(max_length=256, required=False, allow_blank=True, default="")
    event_id = serializers.CharField(max_length=256, required=False, allow_blank=True, default="")
    valid_from = time_input_fields()["valid_from"]
    valid_until = time_input_fields()["valid_until"]
    reference_time = time_input_fields()["reference_time"]


class MemoryBatchInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text="Default user_id of every item.")
    project = project_field()  # the default project of every item
    memories = serializers.ListField(child=MemoryInputSerializer(), min_length=1, max_length=MAX_BATCH)


class MemoryWriteOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    scope = ScopeRefSerializer()
    project = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=MemoryKind.choices)
    created_at = serializers.DateTimeField()
    created = serializers.BooleanField(help_text="False when an existing memory was returned.")
    deduplicated = serializers.BooleanField(help_text="An exact duplicate or a re-sent event id: nothing stored.")
    supersedes = serializers.IntegerField(allow_null=True, help_text="The near-duplicate this memory replaced.")
    warnings = serializers.ListField(child=serializers.DictField(), help_text="e.g. possible_contradiction.")
    status = serializers.CharField(help_text=STATUS_HELP)

    def to_representation(self, result: WriteResult) -> dict[str, Any]:
        memory = result.memory
        return {
            "id": memory.pk,
            "scope": ScopeRefSerializer(memory.home_scope).data,
            "project": memory.project,
            "kind": memory.kind,
            "created_at": serializers.DateTimeField().to_representation(memory.created_at),
            "created": result.created,
            "deduplicated": result.deduplicated,
            "supersedes": result.supersedes,
            "warnings": result.warnings,
            "status": memory.status,
        }


class MemoryDeletedSerializer(serializers.Serializer):
    deleted = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.IntegerField())


class MemoryBatchOutputSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    deduplicated = serializers.IntegerField()
    memories = MemoryWriteOutputSerializer(many=True)


_WRITE_RESPONSE = PolymorphicProxySerializer(
    component_name="MemoryCreateResponse",
    serializers=[MemoryWriteOutputSerializer, MemoryBatchOutputSerializer],
    resource_type_field_name=None,
)
_WRITE_EXAMPLE = {
    "id": 412,
    "scope": {"level": "team", "key": "platform", "tag": "team:platform"},
    "project": None,
    "kind": "fact",
    "created_at": "2025-05-02T09:30:00Z",
    "created": True,
    "deduplicated": False,
    "supersedes": None,
    "warnings": [],
    "status": "active",
}
_MEMORY_EXAMPLE = {
    "id": 412,
    "scope": {"level": "team", "key": "platform", "tag": "team:platform"},
    "project": None,
    "kind": "fact",
    "title": "Deploys",
    "content": "The platform team deploys with Argo CD.",
    "author": "albert",
    "metadata": {},
    "app_name": "support-bot",
    "session_id": "",
    "event_id": "",
    "index_state": "ready",
    "status": "active",
    "valid_from": None,
    "valid_until": None,
    "reference_time": None,
    "event_dates": ["2025-05-01"],
    "superseded_at": None,
    "created_at": "2025-05-02T09:30:00Z",
    "updated_at": "2025-05-02T09:30:01Z",
}
