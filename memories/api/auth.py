"""API-key authentication (``Authorization: Bearer om_<prefix>_<secret>``) and the permission check that every
API view goes through."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions, permissions

from memories.api.throttling import bad_key_counter, client_address
from memories.models import ApiKey
from memories.services import api_key_authenticate
from orgmemory.errors import PermissionDenied

AUTH_SCHEME = "Bearer"
PUBLIC = "public"  # the permission of views that need no key (health)
MAX_KEY_CHARS = 200  # real keys are ~55 characters; anything longer is not worth hashing


class ApiKeyPrincipal:
    """``request.user`` for an API-key request: the key is the principal (agents act for ``user_id``s)."""

    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False

    def __init__(self, api_key: ApiKey) -> None:
        self.api_key = api_key

    def __str__(self) -> str:
        return f"api-key:{self.api_key.prefix}"

    def get_username(self) -> str:
        return str(self)


class ApiKeyAuthentication(authentication.BaseAuthentication):
    """No ``Authorization`` header → anonymous (the permission check then answers 401); a header that is not a
    valid, active key → 401. Either way the response carries ``WWW-Authenticate: Bearer``. Too many bad keys
    from one client address (``ORGMEMORY_BAD_KEY_RATE``) → 429 for that address until the window ends."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request)
        if not header:
            return None
        # Failures are counted per client address; at the limit the address gets 429 before any key is looked
        # at, so a flood of guesses costs no database work and a lucky guess cannot be told from a bad one.
        address, failures = client_address(request), bad_key_counter()
        wait = failures.blocked(address)
        if wait is not None:
            raise exceptions.Throttled(wait=wait, detail="Too many requests with a bad API key from this address.")
        try:
            return self._authenticate_header(header)
        except exceptions.AuthenticationFailed:
            failures.fail(address)
            raise

    def _authenticate_header(self, header: bytes):
        try:
            scheme, _, credentials = header.decode("ascii").partition(" ")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("The Authorization header is not ASCII.", code="invalid_api_key")
        credentials = credentials.strip()
        if scheme.lower() != AUTH_SCHEME.lower() or not credentials or " " in credentials:
            raise exceptions.AuthenticationFailed(
                "Send the API key as `Authorization: Bearer <key>`.", code="invalid_authorization_header"
            )
        key = api_key_authenticate(plain=credentials) if len(credentials) <= MAX_KEY_CHARS else None
        if key is None:
            raise exceptions.AuthenticationFailed("Unknown or revoked API key.", code="invalid_api_key")
        return ApiKeyPrincipal(key), key

    def authenticate_header(self, request) -> str:
        return f'{AUTH_SCHEME} realm="orgmemory"'


class ApiKeyPermission(permissions.BasePermission):
    """Grants a request only the permission its view declares for the method (see ``ApiView``): anonymous → 401,
    a key without that permission → 403 ``permission_missing`` naming it, a method with no declaration → 403."""

    def has_permission(self, request, view) -> bool:
        needed = view.permission_for(request.method)  # an ApiView (memories.api.base, which imports this module)
        if needed == PUBLIC:
            return True
        key = request.auth
        if not isinstance(key, ApiKey):
            return False  # DRF answers NotAuthenticated (401) because an authenticator was tried and none succeeded
        method = request.method.lower()
        if method not in view.http_method_names or not hasattr(view, method):
            return True  # nothing will run: dispatch answers 405
        if needed is None:
            raise PermissionDenied(f"{request.method} is not permitted here.", code="permission_missing")
        if needed not in (key.permissions or []):
            raise PermissionDenied(
                f"This API key lacks the `{needed}` permission.",
                code="permission_missing",
                details={"required": needed, "granted": sorted(key.permissions or [])},
            )
        return True


class DenyAll(permissions.BasePermission):
    """The project-wide default: a DRF view that does not choose its permissions serves nobody."""

    def has_permission(self, request, view) -> bool:
        return False


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "memories.api.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "om_<prefix>_<secret>",
            "description": "A tenant API key, shown once when it is created (admin or `onboard_tenant`).",
        }
