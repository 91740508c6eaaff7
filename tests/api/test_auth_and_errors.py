"""Authentication, permissions, deny-by-default, throttling, request ids and the one error shape."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from rest_framework.test import APIClient

from memories.api.base import ApiView
from memories.models import Memory, Scope
from memories.services import api_key_revoke
from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"


class TestAuthentication:
    def test_no_header_is_401_with_www_authenticate(self, acme):
        response = APIClient().get(MEMORIES, {"user_id": "albert"})

        assert response.status_code == 401
        assert error_of(response)["code"] == "not_authenticated"
        assert response["WWW-Authenticate"] == 'Bearer realm="orgmemory"'

    @pytest.mark.parametrize(
        ("header", "code"),
        [
            ("Bearer om_deadbeef_notarealsecret", "invalid_api_key"),
            ("Bearer nonsense", "invalid_api_key"),
            ("Bearer " + "x" * 5000, "invalid_api_key"),
            ("Basic dXNlcjpwYXNz", "invalid_authorization_header"),
            ("Bearer", "invalid_authorization_header"),
            ("Bearer two words", "invalid_authorization_header"),
        ],
    )
    def test_bad_credentials_are_401(self, acme, header, code):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)

        response = client.get(MEMORIES, {"user_id": "albert"})

        assert response.status_code == 401
        assert error_of(response)["code"] == code
        assert response["WWW-Authenticate"] == 'Bearer realm="orgmemory"'

    def test_revoked_key_is_401(self, acme, api):
        assert api.get(MEMORIES, {"user_id": "albert"}).status_code == 200
        api_key_revoke(api_key=api.api_key)

        response = api.get(MEMORIES, {"user_id": "albert"})

        assert response.status_code == 401
        assert error_of(response)["code"] == "invalid_api_key"

    def test_key_use_is_recorded(self, acme, api):
        api.get(MEMORIES, {"user_id": "albert"})

        api.api_key.refresh_from_db()
        assert api.api_key.last_used_at is not None


class TestPermissions:
    @pytest.mark.parametrize(
        ("permissions", "method", "path", "body", "missing"),
        [
            (["write"], "get", MEMORIES, {"user_id": "albert"}, "read"),
            (["read"], "post", MEMORIES, {"user_id": "albert", "content": "x"}, "write"),
            (["read", "write"], "delete", "/api/v1/sessions/s1?user_id=albert", None, "delete"),
            (["read", "write", "delete"], "delete", "/api/v1/users/albert", None, "admin"),
            (["read"], "post", "/api/v1/memories/delete-by-query", {"user_id": "albert", "query": "x"}, "delete"),
            (["write"], "post", "/api/v1/search", {"user_id": "albert", "query": "x"}, "read"),
            (["write"], "get", "/api/v1/entities?user_id=albert", None, "read"),
        ],
    )
    def test_missing_permission_is_403_naming_it(self, acme, make_client, permissions, method, path, body, missing):
        client = make_client(acme, permissions=permissions)

        kwargs = {"format": "json"} if method != "get" else {}
        response = getattr(client, method)(path, body, **kwargs)

        assert response.status_code == 403
        error = error_of(response)
        assert error["code"] == "permission_missing"
        assert f"`{missing}`" in error["message"]
        assert error["details"] == {"required": missing, "granted": sorted(permissions)}
        assert Memory.objects.count() == 0

    def test_restricted_key_acts_only_for_users_inside_its_subtree(self, acme, make_client):
        data_only = make_client(acme, scope=Scope.objects.get(tenant=acme, level="team", key="data"))

        refused = data_only.get(MEMORIES, {"user_id": "albert"})
        allowed = data_only.get(MEMORIES, {"user_id": "dora"})

        assert refused.status_code == 403
        assert error_of(refused)["code"] == "scope_restricted"
        assert allowed.status_code == 200

    def test_restricted_key_writes_only_inside_its_subtree(self, acme, make_client):
        own_node = make_client(acme, scope=Scope.objects.get(tenant=acme, level="user", key="albert"))

        refused = own_node.post(MEMORIES, {"user_id": "albert", "content": "Team fact.", "scope": "team:platform"})
        allowed = own_node.post(MEMORIES, {"user_id": "albert", "content": "My own fact."}, format="json")

        assert refused.status_code == 403
        assert error_of(refused)["code"] == "scope_restricted"
        assert allowed.status_code == 201
        assert Memory.objects.get().scope.tag == "user:albert"


class TestDenyByDefault:
    def test_a_view_without_required_permission_cannot_be_declared(self):
        with pytest.raises(ImproperlyConfigured, match="must declare required_permission"):

            class Forgetful(ApiView):
                def get(self, request):
                    return None

    def test_a_method_missing_from_the_mapping_cannot_be_declared(self):
        with pytest.raises(ImproperlyConfigured, match="no permission for POST"):

            class HalfDeclared(ApiView):
                required_permission = {"GET": "read"}

                def get(self, request):
                    return None

                def post(self, request):
                    return None

    def test_an_unknown_permission_cannot_be_declared(self):
        with pytest.raises(ImproperlyConfigured, match="not a permission"):

            class Typo(ApiView):
                required_permission = "raed"

    def test_a_plain_drf_view_is_denied_by_the_project_default(self, acme, api):
        from rest_framework.test import APIRequestFactory
        from rest_framework.views import APIView

        class Plain(APIView):
            def get(self, request):
                return None

        request = APIRequestFactory().get("/x", HTTP_AUTHORIZATION=f"Bearer {api.plain_key}")
        response = Plain.as_view()(request)

        assert response.status_code == 403
        assert response.data["error"]["code"] == "permission_denied"


class TestErrorShape:
    def test_malformed_json_is_400(self, acme, api):
        response = api.post(MEMORIES, '{"user_id": "albert", "content": ', content_type="application/json")

        assert response.status_code == 400
        assert error_of(response)["code"] == "malformed_json"

    def test_deeply_nested_json_is_400(self, acme, api):
        response = api.post(MEMORIES, "[" * 100_000 + "]" * 100_000, content_type="application/json")

        assert response.status_code == 400
        assert error_of(response)["code"] == "malformed_json"

    def test_moderately_nested_json_is_refused_as_too_deep(self, acme, api):
        nested = {"user_id": "albert", "content": "x", "metadata": {}}
        node = nested["metadata"]
        for _ in range(40):
            node["k"] = {}
            node = node["k"]

        response = api.post(MEMORIES, nested, format="json")

        assert response.status_code == 400
        assert error_of(response)["code"] == "too_deep"

    def test_form_data_is_415(self, acme, api):
        response = api.post(MEMORIES, "user_id=albert&content=x", content_type="application/x-www-form-urlencoded")

        assert response.status_code == 415
        assert error_of(response)["code"] == "unsupported_media_type"

    def test_unknown_method_is_405(self, acme, api):
        response = api.put(MEMORIES, {"user_id": "albert"}, format="json")

        assert response.status_code == 405
        assert error_of(response)["code"] == "method_not_allowed"

    def test_unknown_endpoint_is_a_json_404(self, acme, api):
        response = api.get("/api/v1/nowhere")

        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"

    def test_oversized_body_is_413_before_it_is_read(self, acme, api):
        with override_settings(ORGMEMORY_API_MAX_BODY_BYTES=1000):
            response = api.post(MEMORIES, {"user_id": "albert", "content": "x" * 2000}, format="json")

        assert response.status_code == 413
        assert error_of(response) == {
            "code": "request_too_large",
            "message": response.json()["error"]["message"],
            "details": {"limit": 1000},
        }
        assert Memory.objects.count() == 0

    @pytest.mark.parametrize(
        "body",
        [
            '{"user_id": "albert", "content": "bad\\u0000byte"}',
            '{"user_id": "albert", "content": "ok", "title": "t\\u0000"}',
            '{"user_id": "albert", "content": "ok", "metadata": {"k\\u0000": "v"}}',
            '{"user_id": "albert", "content": "ok", "metadata": {"list": ["a", "\\u0000"]}}',
        ],
    )
    def test_nul_bytes_anywhere_in_the_body_are_400(self, acme, api, body):
        response = api.post(MEMORIES, body, content_type="application/json")

        assert response.status_code == 400
        assert error_of(response)["code"] == "nul_byte"
        assert Memory.objects.count() == 0

    def test_nul_byte_in_a_query_parameter_is_400(self, acme, api):
        response = api.get(MEMORIES, {"user_id": "albert", "q": "a\x00b"})

        assert response.status_code == 400
        assert error_of(response)["code"] == "nul_byte"

    def test_lone_surrogate_is_400(self, acme, api):
        response = api.post(
            MEMORIES,
            '{"user_id": "albert", "content": "ok", "metadata": {"k": "\\ud800"}}',
            content_type="application/json",
        )

        assert response.status_code == 400
        assert error_of(response)["code"] == "invalid_encoding"

    def test_unexpected_error_is_a_logged_500_with_the_request_id(self, acme, api, monkeypatch, caplog):
        def explode(**kwargs):
            raise RuntimeError("boom")

        monkeypatch.setattr("retrieval.api.search_memories", explode)

        response = api.post(
            "/api/v1/search", {"user_id": "albert", "query": "x"}, format="json", HTTP_X_REQUEST_ID="req-500-test"
        )

        assert response.status_code == 500
        assert response.json() == {
            "error": {
                "code": "internal_error",
                "message": "Internal server error.",
                "details": {"request_id": "req-500-test"},
            }
        }
        assert response["X-Request-ID"] == "req-500-test"
        record = next(r for r in caplog.records if r.name == "orgmemory.api")
        assert "req-500-test" in record.getMessage()
        assert record.exc_info[0] is RuntimeError


class TestRequestId:
    def test_a_sane_incoming_id_is_echoed(self, acme, api):
        response = api.get(MEMORIES, {"user_id": "albert"}, HTTP_X_REQUEST_ID="trace-42.a:b")

        assert response["X-Request-ID"] == "trace-42.a:b"

    @pytest.mark.parametrize("incoming", [None, "", "has space", "x" * 200, "<script>", "-leading-dash"])
    def test_anything_else_gets_a_fresh_id(self, acme, api, incoming):
        extra = {} if incoming is None else {"HTTP_X_REQUEST_ID": incoming}

        first = api.get(MEMORIES, {"user_id": "albert"}, **extra)["X-Request-ID"]
        second = api.get(MEMORIES, {"user_id": "albert"}, **extra)["X-Request-ID"]

        assert len(first) == 32 and int(first, 16) >= 0
        assert first != second

    def test_errors_and_unauthenticated_responses_carry_it_too(self, acme):
        response = APIClient().get(MEMORIES, HTTP_X_REQUEST_ID="abc123")

        assert response.status_code == 401
        assert response["X-Request-ID"] == "abc123"


class TestThrottling:
    def test_each_key_is_limited_separately(self, acme, make_client):
        rates = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"api_key": "3/minute"}}
        first, second = make_client(acme), make_client(acme)

        with override_settings(REST_FRAMEWORK=rates):
            statuses = [first.get(MEMORIES, {"user_id": "albert"}).status_code for _ in range(4)]
            throttled = first.get(MEMORIES, {"user_id": "albert"})
            other = second.get(MEMORIES, {"user_id": "albert"})

        assert statuses == [200, 200, 200, 429]
        assert throttled.status_code == 429
        error = error_of(throttled)
        assert error["code"] == "throttled"
        assert 1 <= int(throttled["Retry-After"]) <= 60
        assert error["details"] == {"retry_after_seconds": int(throttled["Retry-After"])}
        assert other.status_code == 200

    def test_health_is_not_throttled(self, acme):
        rates = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"api_key": "1/minute"}}

        with override_settings(REST_FRAMEWORK=rates):
            statuses = {APIClient().get("/api/v1/health").status_code for _ in range(3)}

        assert statuses == {200}
