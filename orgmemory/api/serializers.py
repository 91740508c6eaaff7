"""Serializers and schema helpers shared by the API's apps: scope references, the error envelope, pagination."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.pagination import CursorPagination, PageNumberPagination

from orgmemory.api.exceptions import error_body
from orgmemory.errors import ValidationFailed

SCOPE_TAG_MAX = 161  # level (32) + ":" + key (128)


class ScopeRefSerializer(serializers.Serializer):
    """Where a memory lives: ``{"level": "team", "key": "platform", "tag": "team:platform"}``."""

    level = serializers.CharField()
    key = serializers.CharField()
    tag = serializers.CharField()

    def to_representation(self, instance: Any) -> dict[str, str]:
        return {"level": instance.level, "key": instance.key, "tag": instance.tag}


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "team:platform", "description": "A scope tag `level:key`."},
            {
                "type": "object",
                "properties": {"level": {"type": "string"}, "key": {"type": "string"}},
                "required": ["level", "key"],
            },
        ]
    }
)
class ScopeField(serializers.Field):
    """A scope given as a tag (``team:platform``) or as ``{"level": "team", "key": "platform"}``; normalised to
    the tag (resolution against the tenant's tree happens in the services)."""

    default_error_messages = {"invalid": "A scope is a tag `level:key` or an object with a level and a key."}

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, dict):
            level, key = data.get("level"), data.get("key")
            if not isinstance(level, str) or not isinstance(key, str) or set(data) - {"level", "key", "tag"}:
                self.fail("invalid")
            data = f"{level}:{key}"
        if not isinstance(data, str) or not data.strip() or len(data) > SCOPE_TAG_MAX:
            self.fail("invalid")
        return data.strip()

    def to_representation(self, value: Any) -> Any:
        return value


CHOICES_LISTED = 30


def errors_naming_choices(serializer: serializers.Serializer) -> Any:
    """The errors of a validated ``serializer`` with every refused choice saying what is accepted: DRF's
    ``"rumour" is not a valid choice.`` becomes ``"rumour" is not a valid choice; one of: fact, preference, …``
    wherever the field sits (nested serializers, lists of them, list children)."""
    return _name_choices(serializer, serializer.errors)


def _name_choices(field: Any, errors: Any) -> Any:
    if isinstance(field, serializers.ChoiceField) and isinstance(errors, list):
        return [_choice_error(field, error) for error in errors]
    if isinstance(field, serializers.ListSerializer) and isinstance(errors, list):
        return [_name_choices(field.child, error) for error in errors]
    if isinstance(field, serializers.Serializer) and isinstance(errors, dict):
        fields = field.fields
        return {key: _name_choices(fields[key], value) if key in fields else value for key, value in errors.items()}
    child = getattr(field, "child", None)
    if isinstance(field, serializers.ListField | serializers.DictField) and isinstance(errors, dict):
        return {key: _name_choices(child, value) for key, value in errors.items()}
    return errors


def _choice_error(field: serializers.ChoiceField, error: Any) -> Any:
    if getattr(error, "code", None) != "invalid_choice":
        return error
    values = [str(value) for value in field.choices]
    listed = ", ".join(values[:CHOICES_LISTED]) + (", …" if len(values) > CHOICES_LISTED else "")
    return ErrorDetail(f"{str(error).rstrip('.')}; one of: {listed}.", code="invalid_choice")


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable code, e.g. `unknown_user`.")
    message = serializers.CharField(help_text="A sentence for humans.")
    details = serializers.JSONField(help_text="Field errors or context; `{}` when there is nothing more to say.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


_ERROR_EXAMPLES = {
    400: ("validation_error", "user_id: This field is required.", {"user_id": ["This field is required."]}),
    401: ("not_authenticated", "Authentication credentials were not provided.", {}),
    403: ("permission_missing", "This API key lacks the `write` permission.", {"required": "write"}),
    404: ("unknown_user", "unknown user_id 'nobody' in this tenant", {}),
    409: ("duplicate_content", "an identical memory already exists at team:platform (memory 17)", {"memory_id": 17}),
    413: ("content_too_large", "content is 40000 bytes; the limit is 32768", {"content": ["40000 > 32768 bytes"]}),
    429: ("throttled", "Request was throttled. Expected available in 42 seconds.", {"retry_after_seconds": 42}),
}
_ERROR_DESCRIPTIONS = {
    400: "Invalid input (`validation_error`, `malformed_json`, `nul_byte`, …).",
    401: "Missing, unknown or revoked API key.",
    403: "The key lacks the permission, is restricted to another subtree, or policy refuses the scope.",
    404: "Unknown user, or an id that does not exist or is not visible to the user (never 403).",
    409: "Conflict with an existing memory.",
    413: "Content or request body too large.",
    429: "Too many requests for this API key; see Retry-After.",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Documented error responses (the shared envelope) for ``extend_schema(responses=...)``."""
    responses = {}
    for code in (*statuses, 401, 429):
        if code in responses:
            continue
        error_code, message, details = _ERROR_EXAMPLES[code]
        responses[code] = OpenApiResponse(
            ErrorSerializer,
            description=_ERROR_DESCRIPTIONS[code],
            examples=[
                OpenApiExample(
                    f"{code} {error_code}",
                    value=error_body(error_code, message, details),
                    response_only=True,
                    status_codes=[str(code)],
                )
            ],
        )
    return responses


class CursorPage(CursorPagination):
    """Newest first, stable under inserts. ``next``/``previous`` are full URLs (filters kept)."""

    ordering = ("-created_at", "-id")
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request):
        from rest_framework.exceptions import NotFound

        invalid = ValidationFailed("invalid pagination cursor", code="invalid_cursor", details={"cursor": ["invalid"]})
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise invalid
        # DRF hands the position to the ORM unchecked: anything but the aware timestamp of ``ordering``'s first
        # field (what ``next`` carries) would be a 500 there
        if cursor is not None and cursor.position is not None:
            try:
                position = parse_datetime(cursor.position)
            except ValueError:
                position = None
            if position is None or position.tzinfo is None:
                raise invalid
        return cursor


class NumberedPage(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_number(self, request, paginator):
        value = super().get_page_number(request, paginator)
        if value != "last" and not str(value).isdigit():
            raise ValidationFailed("page must be a positive integer", code="invalid_page", details={"page": [value]})
        return value
