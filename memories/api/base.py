"""The base class of every API view: it denies by default, resolves the tenant once (from the API key) and
resolves the ``user_id`` an agent acts for through :mod:`memories.services.callers` (the key's subtree
restriction included)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from memories.api.auth import PUBLIC, ApiKeyAuthentication, ApiKeyPermission
from memories.api.throttling import ApiKeyRateThrottle
from memories.keys import validate_key
from memories.models import ApiKey, Scope, Tenant
from memories.orgchart import PERMISSIONS
from memories.services.callers import (
    Caller,
    caller_check_may_act_for,
    caller_resolve,
    key_check_may_write,
    key_writable_scope,
)
from orgmemory.api.parsers import StrictJSONParser
from orgmemory.api.serializers import errors_naming_choices
from orgmemory.errors import ContentTooLarge, ValidationFailed

# A full batch (100 memories at the default 32 KiB limit) is 3.2 MiB; anything much larger is refused unread.
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
_HANDLERS = ("get", "post", "put", "patch", "delete")

__all__ = ["ApiView", "Caller"]


class ApiView(APIView):
    """Every concrete subclass declares ``required_permission``: one of read / write / delete / admin, a
    mapping from HTTP method to one of those, or ``PUBLIC``. A class that forgets fails at import; a method the
    mapping does not name is refused. ``self.tenant`` is the key's tenant (None only for public views)."""

    required_permission: ClassVar[str | Mapping[str, str] | None] = None
    abstract: ClassVar[bool] = True

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [ApiKeyPermission]
    throttle_classes = [ApiKeyRateThrottle]
    parser_classes = [StrictJSONParser]
    renderer_classes = [JSONRenderer]
    http_method_names = ["get", "post", "patch", "delete", "head"]  # no PUT, no OPTIONS metadata

    tenant: Tenant | None
    api_key: ApiKey | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("abstract", False):
            return
        cls.abstract = False
        if "required_permission" not in cls.__dict__:
            raise ImproperlyConfigured(f"{cls.__name__} must declare required_permission (deny by default)")
        required = cls.required_permission
        handlers = [name.upper() for name in _HANDLERS if hasattr(cls, name)]
        if isinstance(required, str):
            if required != PUBLIC and required not in PERMISSIONS:
                raise ImproperlyConfigured(f"{cls.__name__}.required_permission {required!r} is not a permission")
        elif isinstance(required, Mapping):
            for method in handlers:
                if required.get(method) not in PERMISSIONS:
                    raise ImproperlyConfigured(f"{cls.__name__}.required_permission has no permission for {method}")
        else:
            raise ImproperlyConfigured(f"{cls.__name__}.required_permission must be a permission or a mapping")

    @classmethod
    def permission_for(cls, method: str) -> str | None:
        """The permission ``method`` needs here, or None (refused)."""
        required = cls.required_permission
        method = "GET" if method.upper() == "HEAD" else method.upper()
        if isinstance(required, str):
            return required
        if isinstance(required, Mapping):
            return required.get(method)
        return None

    def initial(self, request, *args: Any, **kwargs: Any) -> None:
        self._refuse_large_body(request)
        super().initial(request, *args, **kwargs)  # authentication, permission, throttling
        self.api_key = request.auth if isinstance(request.auth, ApiKey) else None
        self.tenant = self.api_key.tenant if self.api_key is not None else None

    @staticmethod
    def _refuse_large_body(request) -> None:
        limit = getattr(settings, "ORGMEMORY_API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            raise ContentTooLarge(
                f"The request body is {length} bytes; the limit is {limit}.",
                code="request_too_large",
                details={"limit": limit},
            )

    # --- input ---------------------------------------------------------------------------------------------

    @staticmethod
    def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
        """``data`` (a parsed body or the query string) through the serializer; 400 with field errors."""
        if not hasattr(data, "get"):
            raise ValidationFailed(
                "the body must be a JSON object", details={"non_field_errors": ["expected a JSON object"]}
            )
        _refuse_malformed_user_ids(data)
        serializer = serializer_class(data=data)
        if not serializer.is_valid():
            raise serializers.ValidationError(errors_naming_choices(serializer))  # enums say what they accept
        return dict(serializer.validated_data)

    @staticmethod
    def user_id_from(request, *, body: bool = True, why: str = "") -> str:
        """``user_id`` from the query string, else (``body``) from a JSON object body; the 400 of a request without
        one says ``why`` it is needed."""
        value = request.query_params.get("user_id")
        if value is None and body and isinstance(request.data, dict):
            value = request.data.get("user_id")
        if not isinstance(value, str) or not value:
            message = f"user_id is required: {why}" if why else "user_id: This field is required."
            raise ValidationFailed(message, details={"user_id": ["This field is required."]})
        return value

    # --- acting for a user: the rules are memories.services.callers'; these bind them to the request's key ----

    def caller(self, user_id: str, *, provision: bool = False, project: object = None) -> Caller:
        """:func:`~memories.services.callers.caller_resolve` for this request's key (404 ``unknown_user``, 403
        ``scope_restricted``; with ``provision``, a pending member that the write service stores)."""
        return caller_resolve(
            tenant=self.tenant, api_key=self.api_key, user_id=user_id, project=project, provision=provision
        )

    def check_may_act_for(self, user_id: str) -> None:
        """:func:`~memories.services.callers.caller_check_may_act_for` for this request's key."""
        caller_check_may_act_for(tenant=self.tenant, api_key=self.api_key, user_id=user_id)

    def writable_scope(self, tag: str | None) -> Scope | None:
        """:func:`~memories.services.callers.key_writable_scope` for this request's key."""
        return key_writable_scope(tenant=self.tenant, api_key=self.api_key, tag=tag)

    def check_key_may_write(self, scope: Scope) -> None:
        """:func:`~memories.services.callers.key_check_may_write` for this request's key."""
        key_check_may_write(tenant=self.tenant, api_key=self.api_key, scope=scope)


def _refuse_malformed_user_ids(data: Any) -> None:
    """A ``user_id`` (top level, or in the items of a list such as a batch's ``memories``) must be a whole key.

    Checked on the raw input because serializers' CharFields trim whitespace: ``"albert\n"`` would otherwise
    quietly become ``albert``. An identifier is taken as sent or refused, never repaired."""
    candidates = [("user_id", data.get("user_id"))]
    for name, value in data.items():
        if isinstance(value, list):
            candidates += [
                (f"{name}[{index}].user_id", item.get("user_id"))
                for index, item in enumerate(value)
                if isinstance(item, Mapping)
            ]
    for field, value in candidates:
        if isinstance(value, str) and value:
            validate_key(value, field=field)
