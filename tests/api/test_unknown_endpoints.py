"""Finding 12: any path under /api/v1/ that names no endpoint is a JSON 404 in the error shape, whatever the
method, and never Django's HTML CSRF page (API clients send no CSRF token)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete", "options", "head"])
@pytest.mark.parametrize("path", ["/api/v1/nowhere", "/api/v1/memories/abc", "/api/v1/", "/api/v1", "/api/v1/users/"])
def test_unknown_api_paths_are_json_404_for_every_method(acme, method, path):
    client = APIClient(enforce_csrf_checks=True)  # what a real agent gets: no CSRF token, no session

    if method in ("get", "head"):
        response = getattr(client, method)(path, {"user_id": "albert"})
    else:
        response = getattr(client, method)(path, b'{"user_id": "albert"}', content_type="application/json")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    if method != "head":
        error = error_of(response)
        assert error["code"] == "not_found"
        assert path in error["message"]


def test_unknown_path_with_an_api_key_is_the_same_404(acme, api):
    api.handler.enforce_csrf_checks = True

    response = api.post("/api/v1/memories/1/restore", {"user_id": "albert"}, format="json")

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


@pytest.mark.parametrize("host", ["", "evil.example.com", "bad host"])
def test_a_request_django_refuses_before_any_view_is_a_json_400_under_the_api(acme, api, host):
    # found by schemathesis: an empty Host header answered Django's HTML "Bad Request (400)" page
    response = api.post("/api/v1/memories/delete-by-query", b"\x00", content_type="application/json", HTTP_HOST=host)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert error_of(response)["code"] == "bad_request"


def test_outside_the_api_django_keeps_its_own_400_page(db, client):
    response = client.get("/admin/", HTTP_HOST="")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
