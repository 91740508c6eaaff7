"""Finding 8: the public health answer touches no dependency; the detailed report needs a key and probes the
broker at most once per cache period; bad keys are throttled per client address; the admin login is limited per
address and username."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import orgmemory
from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db

HEALTH = "/api/v1/health"
MEMORIES = "/api/v1/memories"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # counters and the cached broker probe belong to one test
    yield
    cache.clear()


@pytest.fixture
def pings(monkeypatch) -> list[float]:
    """A broker is configured; each worker ping is recorded (and answered by one worker)."""
    calls: list[float] = []

    def ping(timeout):
        calls.append(timeout)
        return [{"celery@w1": {"ok": "pong"}}]

    monkeypatch.setattr(orgmemory.celery_app.control, "ping", ping)
    return calls


class TestHealth:
    def test_public_liveness_probes_nothing(self, pings):
        with override_settings(CELERY_TASK_ALWAYS_EAGER=False), CaptureQueriesContext(connection) as queries:
            response = APIClient().get(HEALTH)

        assert response.status_code == 200
        assert response.json() == {"status": "ok", "version": orgmemory.__version__}
        assert pings == []
        assert len(queries) == 0

    def test_a_key_gets_the_detailed_report_with_the_broker_probe_cached(self, acme, make_client, pings):
        client = make_client(acme, permissions=("read",))

        with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
            first = client.get(HEALTH)
            second = client.get(HEALTH)

        assert first.status_code == second.status_code == 200
        body = first.json()
        assert set(body) == {"status", "database", "pgvector", "embedder", "queue", "version"}
        assert (body["database"], body["queue"]) == ("ok", "workers")
        assert second.json()["queue"] == "workers"
        assert pings == [1.0]  # the second report reused the cached probe

    def test_a_bad_key_on_health_is_401(self, acme, pings):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer om_deadbeef_nope")

        response = client.get(HEALTH)

        assert response.status_code == 401
        assert error_of(response)["code"] == "invalid_api_key"
        assert pings == []


class TestBadKeyThrottle:
    def _bad(self, address: str, header: str = "Bearer om_deadbeef_guess") -> APIClient:
        client = APIClient(REMOTE_ADDR=address)
        client.credentials(HTTP_AUTHORIZATION=header)
        return client

    def test_bad_keys_from_one_address_are_429_after_the_limit(self, acme, make_client):
        good = make_client(acme)
        with override_settings(ORGMEMORY_BAD_KEY_RATE="3/minute"):
            statuses = [self._bad("10.0.0.1").get(MEMORIES, {"user_id": "albert"}).status_code for _ in range(3)]
            blocked = self._bad("10.0.0.1").get(MEMORIES, {"user_id": "albert"})
            blocked_good_key = self._bad("10.0.0.1", f"Bearer {good.plain_key}").get(MEMORIES, {"user_id": "albert"})
            other_address = self._bad("10.0.0.2").get(MEMORIES, {"user_id": "albert"})
            good_elsewhere = good.get(MEMORIES, {"user_id": "albert"})

        assert statuses == [401, 401, 401]
        assert blocked.status_code == 429
        error = error_of(blocked)
        assert error["code"] == "throttled"
        assert error["details"] == {"retry_after_seconds": int(blocked["Retry-After"])}
        assert 1 <= int(blocked["Retry-After"]) <= 60
        # while an address is blocked no key is even looked at from there: a guess cannot be confirmed
        assert blocked_good_key.status_code == 429
        assert other_address.status_code == 401
        assert good_elsewhere.status_code == 200

    def test_valid_keys_and_missing_headers_never_count(self, acme, make_client):
        good = make_client(acme)
        with override_settings(ORGMEMORY_BAD_KEY_RATE="2/minute"):
            for _ in range(5):
                assert good.get(MEMORIES, {"user_id": "albert"}).status_code == 200
                assert APIClient().get(MEMORIES, {"user_id": "albert"}).status_code == 401
            assert self._bad("127.0.0.1").get(MEMORIES, {"user_id": "albert"}).status_code == 401


class TestAdminLoginLimit:
    @pytest.fixture
    def staff(self, db):
        return User.objects.create_user("ops", password="right-password", is_staff=True, is_superuser=True)

    def _login(self, client, username, password):
        return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})

    def test_ten_failures_lock_that_username_from_that_address(self, client, staff):
        with override_settings(ORGMEMORY_LOGIN_FAILURE_LIMIT=10, ORGMEMORY_LOGIN_LOCKOUT_SECONDS=900):
            failures = [self._login(client, "ops", f"wrong-{i}").status_code for i in range(10)]
            locked = self._login(client, "ops", "right-password")
            other_user = self._login(client, "someone", "wrong")
            elsewhere = self._login(Client(REMOTE_ADDR="10.9.9.9"), "ops", "right-password")

        assert failures == [200] * 10  # the form again, with its error
        assert locked.status_code == 200
        assert "Too many failed sign-ins" in locked.content.decode()
        assert "_auth_user_id" not in client.session
        assert "Too many failed sign-ins" not in other_user.content.decode()
        assert elsewhere.status_code == 302  # signed in: the lock is per address and username

    def test_a_success_before_the_limit_clears_the_count(self, client, staff):
        with override_settings(ORGMEMORY_LOGIN_FAILURE_LIMIT=3, ORGMEMORY_LOGIN_LOCKOUT_SECONDS=900):
            for i in range(2):
                self._login(client, "ops", f"wrong-{i}")
            assert self._login(client, "ops", "right-password").status_code == 302
            client.logout()
            for i in range(2):
                self._login(client, "ops", f"wrong-again-{i}")
            response = self._login(client, "ops", "right-password")

        assert response.status_code == 302
