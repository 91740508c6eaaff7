"""Read routing to replicas (orgmemory.db_routing, orgmemory.db_router): which operations may read from a replica,
the lag and down fallbacks, read-your-writes per (tenant, user), and tenants never mixed.

The "replica" here is a second connection alias to the test database (a server that is not in recovery reports
its own current WAL position as replayed, so it is always caught up); a dead replica is an alias on a loopback
port nothing listens on. The real streaming standby is tests/e2e/test_replica_deployment.py."""

from __future__ import annotations

import copy

import pytest
from django.core.cache import cache
from django.db import connections
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from bench.servers import free_port
from memories.background import access_flush
from memories.models import Memory
from orgmemory import db_routing
from orgmemory.db_router import ReplicaRouter
from orgmemory.db_routing import PRIMARY, READ_HEADER
from tests.conftest import ACME_CHART, GLOBEX_CHART, onboard
from tests.factories import ApiKeyFactory

REPLICA = "replica_t"
DEAD = "replica_dead"
WRITE_STATEMENTS = ("INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "TRUNCATE")


def _add_alias(alias: str, **overrides) -> None:
    # the connection is made from a settings entry that is then withdrawn: Django's test case allows queries on a
    # connection it did not know at set-up (a declared alias would need its own test database and flush)
    settings_dict = copy.deepcopy(connections["default"].settings_dict)
    settings_dict.update(overrides)
    connections.settings[alias] = settings_dict
    connections[alias]  # noqa: B018
    del connections.settings[alias]


def _remove_alias(alias: str) -> None:
    connections[alias].close()
    delattr(connections._connections, alias)


@pytest.fixture
def replicas(transactional_db, settings):
    """A caught-up replica and a dead one declared (the test chooses which are configured); nothing cached."""
    _add_alias(REPLICA)
    _add_alias(DEAD, HOST="127.0.0.1", PORT=str(free_port()), OPTIONS={"connect_timeout": "1"})
    settings.ORGMEMORY_REPLICA_ALIASES = [REPLICA]
    db_routing._statuses.clear()
    db_routing._reads.clear()
    cache.clear()
    yield settings
    access_flush()  # searches record accesses from a background thread: let it finish before the flush
    db_routing._statuses.clear()
    cache.clear()
    _remove_alias(REPLICA)
    _remove_alias(DEAD)


@pytest.fixture
def tenants(replicas):
    return onboard(ACME_CHART), onboard(GLOBEX_CHART)


def _client(tenant) -> APIClient:
    key = ApiKeyFactory(tenant=tenant, permissions=["read", "write", "delete", "admin"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.plain}")
    return client


def _write(client, user: str, content: str) -> int:
    response = client.post("/api/v1/memories", {"user_id": user, "content": content}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


class TestRouter:
    def test_orm_reads_follow_the_request_alias_and_writes_always_go_to_the_primary(self, replicas):
        router = ReplicaRouter()
        assert router.db_for_read(Memory) == PRIMARY
        token = db_routing._read_alias.set(REPLICA)
        try:
            assert router.db_for_read(Memory) == REPLICA
            assert db_routing.read_connection().alias == REPLICA
            assert router.db_for_write(Memory) == PRIMARY
        finally:
            db_routing._read_alias.reset(token)
        assert db_routing.read_connection().alias == PRIMARY

    def test_only_the_primary_is_migrated(self):
        router = ReplicaRouter()
        assert router.allow_migrate(PRIMARY, "memories") is True
        assert router.allow_migrate("replica_1", "memories") is False

    def test_lsn_order(self):
        assert db_routing.lsn_parse("0/FF") < db_routing.lsn_parse("1/0") < db_routing.lsn_parse("16/B374D848")
        assert db_routing.lsn_parse(None) is None


class TestWhichOperationsUseAReplica:
    def test_reads_go_to_the_replica_and_never_write_there(self, tenants):
        acme, _ = tenants
        client = _client(acme)
        memory_id = _write(client, "albert", "The platform team deploys with Argo CD.")
        cache.clear()  # forget the write marker: this test is about which endpoints are routed
        reads = [
            lambda: client.post("/api/v1/search", {"user_id": "albert", "query": "how do we deploy?"}, format="json"),
            lambda: client.post(
                "/api/v1/recall", {"user_id": "albert", "task": "deploy on Friday", "budget_tokens": 200}, format="json"
            ),
            lambda: client.get("/api/v1/memories", {"user_id": "albert"}),
            lambda: client.get(f"/api/v1/memories/{memory_id}", {"user_id": "albert"}),
            lambda: client.get("/api/v1/entities", {"user_id": "albert"}),
        ]
        for read in reads:
            with CaptureQueriesContext(connections[REPLICA]) as on_replica:
                response = read()
            assert response.status_code == 200, response.content
            assert response[READ_HEADER] == REPLICA
            assert on_replica.captured_queries, "the read ran no statement on the replica"
            writes = [
                q["sql"] for q in on_replica.captured_queries if q["sql"].lstrip().upper().startswith(WRITE_STATEMENTS)
            ]
            assert writes == []  # access tracking and gap recording stay on the primary

    def test_writes_never_touch_a_replica(self, tenants):
        acme, _ = tenants
        client = _client(acme)
        with CaptureQueriesContext(connections[REPLICA]) as on_replica:
            memory_id = _write(client, "albert", "Bea owns the billing service.")
            patched = client.patch(
                f"/api/v1/memories/{memory_id}", {"user_id": "albert", "content": "Bea owns billing."}, format="json"
            )
            deleted = client.delete(f"/api/v1/memories/{memory_id}?user_id=albert")
        assert patched.status_code == 200 and deleted.status_code in (200, 204)
        assert READ_HEADER not in patched and READ_HEADER not in deleted
        assert on_replica.captured_queries == []

    def test_without_replicas_everything_reads_the_primary(self, tenants, settings):
        settings.ORGMEMORY_REPLICA_ALIASES = []
        acme, _ = tenants
        response = _client(acme).get("/api/v1/memories", {"user_id": "albert"})
        assert response.status_code == 200
        assert READ_HEADER not in response
        assert db_routing.choose_read_alias(acme.pk, "albert") == PRIMARY


class TestReadYourWrites:
    def test_a_write_records_the_primary_wal_position_for_that_user(self, tenants):
        acme, _ = tenants
        assert db_routing.write_marker(acme.pk, "albert") is None
        _write(_client(acme), "albert", "Dora runs the data warehouse.")
        marker = db_routing.write_marker(acme.pk, "albert")
        with connections[PRIMARY].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
            now = db_routing.lsn_parse(cursor.fetchone()[0])
        assert marker is not None and 0 < marker <= now
        assert db_routing.write_marker(acme.pk, "bea") is None  # per user

    def test_a_replica_behind_the_users_write_is_skipped_until_it_has_replayed_it(self, tenants):
        acme, _ = tenants
        client = _client(acme)
        memory_id = _write(client, "albert", "The office closes at six.")
        # the replica here is always caught up: move the marker past anything it has replayed
        key = db_routing._marker_key(acme.pk, "albert")
        cache.set(key, db_routing.write_marker(acme.pk, "albert") + (1 << 40))
        response = client.get(f"/api/v1/memories/{memory_id}", {"user_id": "albert"})
        assert response.status_code == 200 and response[READ_HEADER] == "primary"
        assert client.get("/api/v1/memories", {"user_id": "bea"})[READ_HEADER] == REPLICA  # another user is free
        cache.set(key, db_routing.write_marker(acme.pk, "albert") - (1 << 40))  # the replica has passed it
        assert client.get(f"/api/v1/memories/{memory_id}", {"user_id": "albert"})[READ_HEADER] == REPLICA

    def test_every_write_endpoint_records_a_marker(self, tenants):
        acme, _ = tenants
        client = _client(acme)
        memory_id = _write(client, "albert", "Lunch is at noon.")
        steps = [
            ("bea", lambda: _write(client, "bea", "Bea prefers tea.")),
            (
                "carlos",
                lambda: client.post(
                    "/api/v1/sessions",
                    {
                        "user_id": "carlos",
                        "session_id": "s1",
                        "events": [{"id": "e1", "author": "user", "text": "I sell widgets."}],
                    },
                    format="json",
                ),
            ),
            ("albert", lambda: client.delete(f"/api/v1/memories/{memory_id}?user_id=albert")),
            ("dora", lambda: client.delete("/api/v1/users/dora")),
        ]
        for user, step in steps:
            cache.delete(db_routing._marker_key(acme.pk, user))
            response = step()
            assert getattr(response, "status_code", 201) < 400, getattr(response, "content", "")
            assert db_routing.write_marker(acme.pk, user) is not None, user

    def test_a_refused_write_records_nothing(self, tenants):
        acme, _ = tenants
        response = _client(acme).post("/api/v1/memories", {"user_id": "albert", "content": ""}, format="json")
        assert response.status_code == 400
        assert db_routing.write_marker(acme.pk, "albert") is None


class TestFallbacks:
    def test_a_lagging_replica_is_skipped(self, tenants, settings):
        acme, _ = tenants
        settings.ORGMEMORY_REPLICA_MAX_LAG_MS = -1  # any lag at all is too much
        status = db_routing.replica_status(REPLICA, fresh=True)
        assert status.state == "lagging"
        response = _client(acme).get("/api/v1/memories", {"user_id": "albert"})
        assert response.status_code == 200 and response[READ_HEADER] == "primary"

    def test_a_down_replica_is_skipped_and_reported(self, tenants, settings):
        acme, _ = tenants
        settings.ORGMEMORY_REPLICA_ALIASES = [DEAD, REPLICA]
        for _ in range(5):  # the dead one is never chosen, whatever the shuffle
            response = _client(acme).get("/api/v1/memories", {"user_id": "albert"})
            assert response.status_code == 200 and response[READ_HEADER] == REPLICA
        report = db_routing.routing_report()
        assert report["replicas"][DEAD]["status"] == "down"
        assert report["replicas"][REPLICA]["status"] == "ok"

    def test_all_replicas_down_reads_the_primary_and_health_is_degraded(self, tenants, settings):
        acme, _ = tenants
        settings.ORGMEMORY_REPLICA_ALIASES = [DEAD]
        client = _client(acme)
        response = client.post("/api/v1/search", {"user_id": "albert", "query": "anything"}, format="json")
        assert response.status_code == 200
        assert READ_HEADER not in response or response[READ_HEADER] == "primary"
        health = client.get("/api/v1/health").json()
        assert health["status"] == "degraded"
        assert health["replicas"] == {DEAD: {"status": "down", "lag_ms": None, "error": "OperationalError"}}

    def test_a_replica_dying_mid_request_is_retried_on_the_primary(self, tenants, settings):
        acme, _ = tenants
        settings.ORGMEMORY_REPLICA_ALIASES = [DEAD]
        # the last probe said it was fine: it died between the probe and the query
        db_routing._statuses[DEAD] = db_routing.ReplicaStatus(DEAD, "ok", 0.0, 1 << 60, checked_at=1e18)
        client = _client(acme)
        _write(client, "bea", "Bea's laptop is a ThinkPad.")
        response = client.get("/api/v1/memories", {"user_id": "bea"})
        assert response.status_code == 200
        assert response[READ_HEADER] == "primary"
        assert [m["content"] for m in response.json()["results"]] == ["Bea's laptop is a ThinkPad."]
        assert db_routing.replica_status(DEAD).state == "down"
        assert db_routing.routing_report()["reads"][f"{DEAD}:retried_on_primary"] == 1


class TestTenantsNeverMixed:
    def test_a_write_in_one_tenant_does_not_hold_back_the_same_user_id_in_another(self, tenants):
        acme, globex = tenants
        _write(_client(acme), "albert", "Acme's albert note.")
        assert db_routing.write_marker(acme.pk, "albert") is not None
        assert db_routing.write_marker(globex.pk, "albert") is None
        cache.set(db_routing._marker_key(acme.pk, "albert"), 1 << 60)  # acme's albert must read the primary
        assert db_routing.choose_read_alias(acme.pk, "albert") == PRIMARY
        assert db_routing.choose_read_alias(globex.pk, "albert") == REPLICA

    def test_a_replica_read_sees_only_the_callers_tenant(self, tenants):
        acme, globex = tenants
        _write(_client(acme), "albert", "The acme deploy window is Tuesday.")
        _write(_client(globex), "albert", "The globex deploy window is Thursday.")
        cache.clear()
        for tenant, own, other in ((acme, "acme", "globex"), (globex, "globex", "acme")):
            response = _client(tenant).post(
                "/api/v1/search", {"user_id": "albert", "query": "deploy window"}, format="json"
            )
            assert response[READ_HEADER] == REPLICA
            contents = " ".join(hit["content"] for hit in response.json()["results"])
            assert own in contents and other not in contents
            listed = _client(tenant).get("/api/v1/memories", {"user_id": "albert"})
            assert listed[READ_HEADER] == REPLICA
            assert {own} == {m["content"].split()[1] for m in listed.json()["results"]}
