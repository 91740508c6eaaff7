"""``GET /metrics``: Prometheus's text exposition for an admin API key only; requests counted per route pattern and
status, search stages timed, the index backlog, per-tenant counts (bounded), the broker's queue depth; and a real
gunicorn with two workers aggregating both workers' samples (multiprocess mode)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from memories.api import metrics as metrics_api
from memories.models import IndexState, Memory
from tests.conftest import GLOBEX_CHART, onboard, remember
from tests.factories import ApiKeyFactory, TenantFactory

PROJECT = Path(__file__).resolve().parents[2]
JSON = "application/json"
STAGES = ("context", "plan", "embed", "keyword+vector", "fuse", "load", "total")


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``{(sample name, sorted labels): value}`` from an exposition, parsed by prometheus_client's own parser."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(parsed, name: str, **labels: str) -> float:
    return parsed.get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(client, key) -> str:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {key.plain}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return response.content.decode()


@pytest.fixture(autouse=True)
def _fresh_tenant_counts():
    metrics_api.scrape_cache_clear()
    yield
    metrics_api.scrape_cache_clear()


@pytest.fixture
def accesses_flushed():
    """Searches record accesses from a background thread: let it finish before the test's database goes."""
    from memories.background import access_flush

    yield
    access_flush()


@pytest.fixture
def admin_key(acme):
    return ApiKeyFactory(tenant=acme, name="prometheus", permissions=["admin"])


def test_metrics_need_an_api_key_with_the_admin_permission(client, acme, admin_key):
    reader = ApiKeyFactory(tenant=acme, permissions=["read", "write", "delete"])

    anonymous = client.get("/metrics")
    without_admin = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {reader.plain}")
    with_admin = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {admin_key.plain}")

    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "not_authenticated"
    assert without_admin.status_code == 403
    assert without_admin.json()["error"] == {
        "code": "permission_missing",
        "message": "This API key lacks the `admin` permission.",
        "details": {"required": "admin", "granted": ["delete", "read", "write"]},
    }
    assert with_admin.status_code == 200
    assert b"# TYPE orgmemory_http_requests_total counter" in with_admin.content


def test_a_key_restricted_to_a_subtree_cannot_scrape(client, acme):
    team_admin = ApiKeyFactory(tenant=acme, permissions=["admin"], scope="team:platform")

    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {team_admin.plain}")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "scope_restricted"


def test_only_the_operators_tenants_scrape_when_they_are_named(client, acme, admin_key, monkeypatch):
    globex = onboard(GLOBEX_CHART)
    other_admin = ApiKeyFactory(tenant=globex, permissions=["admin"])
    monkeypatch.setenv("ORGMEMORY_METRICS_TENANTS", "acme")

    refused = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {other_admin.plain}")
    allowed = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {admin_key.plain}")

    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_missing"
    assert allowed.status_code == 200


def test_a_scrape_after_traffic_counts_requests_per_route_and_times_every_search_stage(
    client, acme, admin_key, django_capture_on_commit_callbacks, accesses_flushed
):
    agent = ApiKeyFactory(tenant=acme, permissions=["read", "write", "delete"])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {agent.plain}"}
    before = samples(scrape(client, admin_key))

    with django_capture_on_commit_callbacks(execute=True):
        for text in ("Albert owns the billing service.", "Deploys happen on Thursdays.", "Bea leads Platform."):
            created = client.post("/api/v1/memories", {"user_id": "albert", "content": text}, content_type=JSON, **auth)
            assert created.status_code == 201, created.content

    def search(user_id, query):
        return client.post("/api/v1/search", {"user_id": user_id, "query": query}, content_type=JSON, **auth)

    for question in ("who owns billing?", "when are deploys?", "who leads platform?", "who is Albert?"):
        assert search("albert", question).status_code == 200
    assert search("nobody", "x").status_code == 404
    assert client.get("/api/v1/no/such/endpoint/123", **auth).status_code == 404
    assert client.get("/no-such-page/456").status_code == 404
    metrics_api.scrape_cache_clear()  # the per-tenant counts are reused for TENANT_COUNTS_SECONDS
    text = scrape(client, admin_key)
    after = samples(text)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("orgmemory_http_requests_total", route="api/v1/search", method="POST", status="200") == 4
    assert delta("orgmemory_http_requests_total", route="api/v1/search", method="POST", status="404") == 1
    assert delta("orgmemory_http_requests_total", route="api/v1/memories", method="POST", status="201") == 3
    assert delta("orgmemory_http_request_duration_seconds_count", route="api/v1/search", method="POST") == 5
    # a path no pattern matched is one series, whatever the path: the raw paths appear nowhere
    unmatched = [k for k in after if k[0] == "orgmemory_http_requests_total" and ("route", "<unmatched>") in k[1]]
    assert unmatched
    assert "no-such-page" not in text and "456" not in text.split("orgmemory_http_requests_total")[1][:2000]
    for stage in STAGES:  # every search that reached the pipeline's stages, the unknown user's only the first
        assert delta("orgmemory_search_stage_duration_seconds_count", stage=stage) >= 4, stage
    assert delta("orgmemory_search_stage_duration_seconds_count", stage="context") == 5
    assert delta("orgmemory_search_stage_duration_seconds_count", stage="relational") >= 1  # questions naming Albert
    # the figures read at scrape time
    assert value(after, "orgmemory_tenant_memories", tenant="acme") == 3
    assert value(after, "orgmemory_index_backlog", stage="embedding", state="pending") == 0
    assert value(after, "orgmemory_queue_inline") == 1
    assert value(after, "orgmemory_embedder_processes", state="ok") == 1
    print("\n--- /metrics after 3 writes, 5 searches and 2 unknown paths (excerpt) ---")
    print(
        "\n".join(
            line
            for line in text.splitlines()
            if line.startswith(("orgmemory_http_requests_total", "orgmemory_index_backlog", "orgmemory_tenant"))
            or re.match(r'orgmemory_search_stage_duration_seconds_(count|sum)\{stage="', line)
            or line.startswith(("orgmemory_embedder", "orgmemory_queue", "# HELP orgmemory_search_stage"))
        )
    )


def test_the_index_backlog_counts_pending_and_failed_memories(client, acme, admin_key):
    pending = [remember(acme, f"Pending memory number {n} about the quarterly roadmap review.") for n in range(3)]
    failed = remember(acme, "A memory whose embedding failed once, about the data warehouse.")
    Memory.objects.filter(pk=failed.pk).update(index_state=IndexState.FAILED, links_state=IndexState.READY)
    Memory.objects.filter(pk=pending[0].pk).update(index_state=IndexState.READY)

    parsed = samples(scrape(client, admin_key))

    assert value(parsed, "orgmemory_index_backlog", stage="embedding", state="pending") == 2
    assert value(parsed, "orgmemory_index_backlog", stage="embedding", state="failed") == 1
    assert value(parsed, "orgmemory_index_backlog", stage="links", state="pending") == 3
    assert value(parsed, "orgmemory_index_backlog", stage="links", state="failed") == 0


def test_per_tenant_counts_name_the_largest_tenants_and_sum_the_rest(client, acme, admin_key, monkeypatch):
    monkeypatch.setattr(metrics_api, "TOP_TENANTS", 2)
    for n, size in enumerate((4, 2, 1)):
        tenant = TenantFactory(slug=f"small-{n}")
        for i in range(size):
            remember(tenant, f"Memory {i} of tenant {n}: the {['red', 'blue', 'green', 'gold'][i]} project plan.")
    remember(acme, "Acme's one memory about the platform team's on-call rota.")

    parsed = samples(scrape(client, admin_key))
    series = {dict(labels)["tenant"]: v for (name, labels), v in parsed.items() if name == "orgmemory_tenant_memories"}

    assert series == {"small-0": 4, "small-1": 2, "other": 2}  # small-2 (1) and acme (1) summed


def test_queue_depth_is_read_from_the_broker(client, acme, admin_key, redis_url, settings):
    import redis

    from bench.servers import celery_broker
    from orgmemory import celery_app

    redis.Redis.from_url(redis_url).flushdb()
    with celery_broker(redis_url):
        for _ in range(3):
            celery_app.send_task("memories.tasks.sweep_unindexed", queue=settings.CELERY_TASK_DEFAULT_QUEUE)
        parsed = samples(scrape(client, admin_key))

    assert value(parsed, "orgmemory_queue_up") == 1
    assert value(parsed, "orgmemory_queue_depth", queue="orgmemory") == 3
    assert ("orgmemory_queue_inline", ()) not in parsed


def test_an_unreachable_broker_is_a_zero_not_a_failed_scrape(client, acme, admin_key):
    from bench.servers import celery_broker, free_port

    with celery_broker(f"redis://127.0.0.1:{free_port()}/0"):
        parsed = samples(scrape(client, admin_key))

    assert value(parsed, "orgmemory_queue_up") == 0
    assert ("orgmemory_queue_depth", (("queue", "orgmemory"),)) not in parsed


@pytest.mark.slow
def test_gunicorn_workers_share_their_samples_through_the_multiprocess_directory(transactional_db, tmp_path):
    """Two real workers: whichever answers the scrape reports both workers' requests."""
    from bench.servers import free_port, process_stop, production_env

    tenant = onboard(GLOBEX_CHART)
    key = ApiKeyFactory(tenant=tenant, permissions=["admin"])
    agent = ApiKeyFactory(tenant=tenant, permissions=["read", "write"])
    bearer = {"Authorization": f"Bearer {agent.plain}", "Connection": "close"}
    port = free_port()
    env = production_env(WEB_CONCURRENCY="2", ORGMEMORY_BIND=f"127.0.0.1:{port}", ORGMEMORY_EMBEDDER="onnx-int8")
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", str(PROJECT / "orgmemory" / "gunicorn_conf.py")],
        cwd=PROJECT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in server.stderr:
            lines.append(line)
            if sum("ready" in seen and "after fork" in seen for seen in lines) >= 2:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(240), "".join(lines[-30:])
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            pids = set()
            for _ in range(12):  # fresh connections: the master's socket hands them to either worker
                response = http.get("/api/v1/health", headers={"Connection": "close"})
                assert response.status_code == 200
            for text in ("Zed runs the Friday deploys.", "Albert owns the billing service."):
                body = {"user_id": "albert", "content": text}
                assert http.post("/api/v1/memories", json=body, headers=bearer).status_code == 201
            for question in ("who runs deploys?", "who owns billing?", "what about Zed?"):
                body = {"user_id": "albert", "query": question}
                assert http.post("/api/v1/search", json=body, headers=bearer).status_code == 200
            counts = []
            for _ in range(4):
                text = http.get(
                    "/metrics", headers={"Authorization": f"Bearer {key.plain}", "Connection": "close"}
                ).text
                parsed = samples(text)
                counts.append(
                    value(parsed, "orgmemory_http_requests_total", route="api/v1/health", method="GET", status="200")
                )
                pids.add(value(parsed, "orgmemory_embedder_processes", state="ok"))
    finally:
        process_stop(server)
    folders = [m.group(1) for line in lines if (m := re.search(r"PROMETHEUS_MULTIPROC_DIR=([^\s\"]+)", line))]

    print("\n--- /metrics of a 2-worker production gunicorn after 12 health checks, 2 writes, 3 searches (excerpt) ---")
    print("\n".join(line for line in text.splitlines() if line.startswith("orgmemory_") and "_bucket{" not in line))

    assert counts == [12, 12, 12, 12]  # every scrape, whichever worker answered it, sums both workers' files
    assert value(parsed, "orgmemory_search_stage_duration_seconds_count", stage="total") == 3
    assert value(parsed, "orgmemory_tenant_memories", tenant="globex") == 2
    assert pids == {2}  # two live workers with the embedder loaded
    assert len(folders) == 1, "".join(lines[-30:])
    assert not os.path.exists(folders[0])  # the master's temporary folder is removed at exit
