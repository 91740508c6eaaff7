"""GET /health, and the OpenAPI schema and docs."""

from __future__ import annotations

import pytest
import yaml
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from openapi_spec_validator import validate
from rest_framework.test import APIClient

import orgmemory
from orgmemory import health

pytestmark = pytest.mark.django_db

HEALTH = "/api/v1/health"


@pytest.fixture
def keyed(acme, make_client):
    """Any valid key gets the detailed report; the cached broker probe starts empty."""
    cache.clear()
    yield make_client(acme, permissions=("read",))
    cache.clear()


class TestHealth:
    def test_liveness_without_authentication(self):
        response = APIClient().get(HEALTH)

        assert response.status_code == 200
        assert response.json() == {"status": "ok", "version": orgmemory.__version__}

    def test_healthy_report_with_a_key(self, keyed):
        response = keyed.get(HEALTH)

        assert response.status_code == 200
        body = response.json()
        assert body["status"] in {"ok"}
        assert body["database"] == "ok"
        assert body["pgvector"].count(".") == 2  # e.g. 0.8.0
        assert body["embedder"]["status"] in {"ok", "not_loaded"}
        assert body["queue"] == "inline"
        assert body["version"] == orgmemory.__version__
        assert set(body) == {"status", "database", "pgvector", "embedder", "queue", "version"}

    def test_database_down_is_503(self, monkeypatch, keyed):
        monkeypatch.setattr(health, "database_status", lambda: {"status": "down", "error": "OperationalError"})

        response = keyed.get(HEALTH)

        assert response.status_code == 503
        assert (response.json()["status"], response.json()["database"]) == ("down", "down")

    def test_a_failed_embedder_is_degraded_without_leaking_its_error(self, monkeypatch, keyed):
        monkeypatch.setattr(
            health, "embedder_status", lambda: {"status": "degraded", "error": "OSError: /srv/secret/model missing"}
        )

        response = keyed.get(HEALTH)

        assert response.status_code == 200
        assert response.json()["status"] == "degraded"
        assert response.json()["embedder"] == {"status": "degraded"}

    @pytest.mark.parametrize(("replies", "queue"), [([{"celery@w1": {"ok": "pong"}}], "workers"), ([], "down")])
    def test_with_a_broker_workers_are_pinged(self, monkeypatch, keyed, replies, queue):
        calls = []

        def ping(timeout):
            calls.append(timeout)
            return replies

        monkeypatch.setattr(orgmemory.celery_app.control, "ping", ping)

        with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
            response = keyed.get(HEALTH)

        assert response.json()["queue"] == queue
        assert calls == [1.0]

    def test_an_unreachable_broker_is_down(self, monkeypatch, keyed):
        def ping(timeout):
            raise ConnectionError("broker gone")

        monkeypatch.setattr(orgmemory.celery_app.control, "ping", ping)

        with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
            response = keyed.get(HEALTH)

        assert (response.status_code, response.json()["queue"], response.json()["status"]) == (200, "down", "degraded")

    def test_only_get(self):
        response = APIClient().post(HEALTH, {})

        assert response.status_code == 405


class TestSchema:
    def test_schema_generates_without_warnings_and_validates(self, tmp_path):
        target = tmp_path / "schema.yaml"

        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

        schema = yaml.safe_load(target.read_text())
        validate(schema)
        assert set(schema["paths"]) == {
            "/api/v1/memories",
            "/api/v1/memories/{memory_id}",
            "/api/v1/memories/delete-by-query",
            "/api/v1/sessions",
            "/api/v1/sessions/{session_id}",
            "/api/v1/search",
            "/api/v1/recall",
            "/api/v1/users/{user_id}",
            "/api/v1/entities",
            "/api/v1/entities/{entity_id}",
            "/api/v1/entities/{entity_id}/neighbours",
            "/api/v1/entities/{entity_id}/facts",
            "/api/v1/health",
        }
        assert schema["components"]["securitySchemes"]["ApiKey"]["scheme"] == "bearer"

    def test_every_operation_is_documented_with_examples(self, tmp_path):
        target = tmp_path / "schema.yaml"
        call_command("spectacular", "--file", str(target))
        schema = yaml.safe_load(target.read_text())

        undocumented = []
        for path, operations in schema["paths"].items():
            for method, operation in operations.items():
                success = [code for code in operation["responses"] if code.startswith("2")]
                has_response_example = any(
                    "examples" in operation["responses"][code].get("content", {}).get("application/json", {})
                    for code in success
                )
                body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                has_request_example = not operation.get("requestBody") or "examples" in body
                if not (operation.get("summary") and has_response_example and has_request_example):
                    undocumented.append(f"{method.upper()} {path}")
                if path != "/api/v1/health":
                    assert {"401", "429"} <= set(operation["responses"]), f"{method} {path}"

        assert undocumented == []

    def test_schema_and_docs_are_served(self):
        schema = APIClient().get("/api/schema/")
        docs = APIClient().get("/api/docs/")

        assert schema.status_code == 200
        assert b"/api/v1/search" in schema.content
        assert docs.status_code == 200
        assert b"swagger-ui" in docs.content
