"""A real multi-process deployment with a read replica, driven through HTTP: a primary and a streaming hot standby
(``pg_basebackup -R`` from the embedded binaries, bench/replication.py), gunicorn with two workers pointed at both
(``DATABASE_URL`` + ``DATABASE_REPLICA_URLS``, the read-your-writes markers in Redis), and a Celery worker on Redis
indexing what the API writes.

The standby holds every commit back (``recovery_min_apply_delay``), so it visibly lags: a read that ignored the
writer's marker would miss a fresh write or see a deleted memory. Checked: lag-tolerant reads are served by the
standby (the router's header and the standby's own transaction counter), 200 write-then-read pairs each find the
write, a deleted memory is never read back by its deleter, and a standby killed mid-run costs no request (reads
move to the primary) and is used again once it is back. The figures are printed."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
import redis

from bench.replication import streaming_pair
from bench.servers import free_port, process_stop
from tests.conftest import ACME_CHART
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
APPLY_DELAY_MS = 150
PAIRS = 200
DELETES = 20
HEADER = "x-orgmemory-read-from"
REPLICA = "replica_1"

_SETUP = """
import django, json, sys
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from memories.models import Tenant
from memories.orgchart import parse_org_chart
from memories.services import api_key_create, tenant_onboard
plan = parse_org_chart(sys.stdin.read())
tenant_onboard(plan=plan)
_, plain = api_key_create(
    tenant=Tenant.objects.get(slug=plan.tenant_slug), name="replica-e2e",
    permissions=["read", "write", "delete", "admin"],
)
print(json.dumps({"key": plain}))
"""


def _environment(primary_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        "ORGMEMORY_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": primary_url,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "ORGMEMORY_API_RATE": "1000000/minute",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


@pytest.fixture
def deployment(redis_url, tmp_path):
    """The primary and standby, migrated and onboarded (Acme), gunicorn (2 workers) and a Celery worker."""
    broker_url = redis_url
    cache_url = redis_url.rsplit("/", 1)[0] + "/1"
    for url in (broker_url, cache_url):
        redis.Redis.from_url(url).flushdb()
    with streaming_pair(apply_delay_ms=APPLY_DELAY_MS) as pair:
        primary_url, standby_url = pair.primary.url(), pair.standby.url()
        setup = subprocess.run(
            [sys.executable, "-c", _SETUP],
            input=ACME_CHART,
            cwd=ROOT,
            env=_environment(primary_url),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert setup.returncode == 0, setup.stderr[-3000:]
        key = httpx.Response(200, content=setup.stdout.strip().splitlines()[-1]).json()["key"]
        port = free_port()
        server_log, worker_log = tmp_path / "gunicorn.log", tmp_path / "worker.log"
        api_env = _environment(
            primary_url,
            DATABASE_REPLICA_URLS=standby_url,
            ORGMEMORY_CACHE_URL=cache_url,
            CELERY_BROKER_URL=broker_url,
            ORGMEMORY_REPLICA_MAX_LAG_MS="3000",
            ORGMEMORY_BIND=f"127.0.0.1:{port}",
            WEB_CONCURRENCY="2",
        )
        gunicorn = [str(Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "orgmemory" / "gunicorn_conf.py")]
        celery = [sys.executable, "-m", "celery", "-A", "orgmemory", "worker", "--pool=solo", "--loglevel=WARNING"]
        celery += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        with server_log.open("w") as server_sink, worker_log.open("w") as worker_sink:
            server = subprocess.Popen(gunicorn, cwd=ROOT, env=api_env, stdout=server_sink, stderr=subprocess.STDOUT)
            worker = subprocess.Popen(
                celery,
                cwd=ROOT,
                env=_environment(primary_url, CELERY_BROKER_URL=broker_url, ORGMEMORY_CACHE_URL=cache_url),
                stdout=worker_sink,
                stderr=subprocess.STDOUT,
            )
        client = httpx.Client(
            base_url=f"http://127.0.0.1:{port}/api/v1", headers={"Authorization": f"Bearer {key}"}, timeout=60
        )

        def up() -> bool:
            try:
                return client.get("/health").status_code == 200
            except httpx.HTTPError:
                return False

        try:
            assert wait_for(up, timeout=180), server_log.read_text()[-3000:]
            yield {"pair": pair, "client": client, "server_log": server_log, "worker_log": worker_log}
        finally:
            client.close()
            process_stop(worker, timeout=20)
            process_stop(server, timeout=30)
            print(f"--- gunicorn (tail) ---\n{server_log.read_text(errors='replace')[-1500:]}")
            print(f"--- worker (tail) ---\n{worker_log.read_text(errors='replace')[-1500:]}")


def _standby_transactions(pair) -> int:
    return pair.standby.query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")[0][0]


def _lag_ms(client) -> float | None:
    return client.get("/health").json()["replicas"][REPLICA]["lag_ms"]


def test_replica_deployment(deployment):
    pair, client = deployment["pair"], deployment["client"]
    users = ["albert", "bea", "dora", "carlos"]
    figures: dict[str, object] = {}
    started = time.monotonic()

    # warm both workers (the model loads at start-up; the first statements plan)
    for user in users * 3:
        assert client.get("/memories", params={"user_id": user}).status_code == 200

    # 1. 200 write-then-read pairs: the writer always reads its write back (from the primary until the standby,
    #    which holds every commit back, has replayed it); a teammate's immediate read may lag, and may miss it
    read_from: Counter[str] = Counter()
    found, teammate_missed, lags = 0, 0, []
    teammates = {"albert": "bea", "bea": "albert"}
    for index in range(PAIRS):
        writer = "albert" if index % 2 == 0 else "bea"
        content = f"Pair {index}: the {secrets.token_hex(4)} runbook lives in the platform wiki."
        written = client.post("/memories", json={"user_id": writer, "content": content, "scope": "team:platform"})
        assert written.status_code == 201, written.text
        memory_id = written.json()["id"]
        read = client.get(f"/memories/{memory_id}", params={"user_id": writer})
        read_from[read.headers.get(HEADER, f"error {read.status_code}")] += 1
        found += read.status_code == 200 and read.json()["content"] == content
        teammate = client.get(f"/memories/{memory_id}", params={"user_id": teammates[writer]})
        teammate_missed += teammate.status_code == 404  # allowed: no marker for another user
        if index % 25 == 0:
            lags.append(_lag_ms(client))
    figures["write_then_read"] = f"{found}/{PAIRS} found by their writer (read from {dict(read_from)})"
    figures["teammate_reads_that_missed_a_fresh_write"] = f"{teammate_missed}/{PAIRS} (lagging standby, allowed)"
    assert found == PAIRS

    # 2. once the standby has caught up, lag-tolerant reads are served by it
    pair.wait_caught_up()
    before = _standby_transactions(pair)
    served: Counter[str] = Counter()
    reads = 0
    for index in range(60):
        user = users[index % len(users)]
        for response in (
            client.get("/memories", params={"user_id": user}),
            client.post("/search", json={"user_id": user, "query": "where does the runbook live?"}),
            client.get("/entities", params={"user_id": user}),
        ):
            assert response.status_code == 200, response.text
            served[response.headers.get(HEADER, "none")] += 1
            reads += 1
    standby_transactions = _standby_transactions(pair) - before
    figures["steady_reads"] = f"{dict(served)} of {reads}; standby committed {standby_transactions} transactions"
    assert served[REPLICA] > reads // 2
    assert standby_transactions >= served[REPLICA]

    # 3. deletes are never resurrected for the deleter by the lagging standby
    resurrected, teammate_saw_deleted = 0, 0
    for index in range(DELETES):
        content = f"Delete {index}: the {secrets.token_hex(4)} badge reader is broken."
        memory_id = client.post(
            "/memories", json={"user_id": "albert", "content": content, "scope": "team:platform"}
        ).json()["id"]
        pair.wait_caught_up()  # the standby has the memory: a lagging read would now resurrect it
        deleted = client.delete(f"/memories/{memory_id}", params={"user_id": "albert"})
        assert deleted.status_code in (200, 204), deleted.text
        after = client.get(f"/memories/{memory_id}", params={"user_id": "albert"})
        listed = client.get("/memories", params={"user_id": "albert"}).json()["results"]
        searched = client.post("/search", json={"user_id": "albert", "query": content}).json()["results"]
        resurrected += (
            after.status_code != 404
            or any(m["id"] == memory_id for m in listed)
            or any(hit["id"] == memory_id for hit in searched)
        )
        teammate_saw_deleted += client.get(f"/memories/{memory_id}", params={"user_id": "bea"}).status_code == 200
    figures["deletes_resurrected_for_the_deleter"] = f"{resurrected}/{DELETES}"
    figures["teammate_reads_that_still_saw_a_fresh_delete"] = f"{teammate_saw_deleted}/{DELETES} (allowed)"
    assert resurrected == 0

    # 4. kill the standby mid-run: no request fails, reads move to the primary, and come back once it is up
    pair.wait_caught_up()
    log: list[tuple[str, float, int, str]] = []  # (phase, started, status, read from)
    phase = ["up"]
    stop = threading.Event()

    def reader(user: str) -> None:
        with httpx.Client(base_url=str(client.base_url), headers=dict(client.headers), timeout=60) as own:
            while not stop.is_set():
                current = phase[0]
                try:
                    response = own.post("/search", json={"user_id": user, "query": "runbook"})
                    log.append((current, time.monotonic(), response.status_code, response.headers.get(HEADER, "")))
                except httpx.HTTPError as exc:
                    log.append((current, time.monotonic(), 0, type(exc).__name__))

    threads = [threading.Thread(target=reader, args=(user,)) for user in ("dora", "carlos")]
    for thread in threads:
        thread.start()
    try:
        assert wait_for(lambda: len(log) >= 10, timeout=60)
        phase[0] = "killing"
        pair.standby.stop("immediate")
        phase[0] = "down"
        assert wait_for(lambda: sum(1 for entry in log if entry[0] == "down") >= 20, timeout=60)
        phase[0] = "restarting"
        pair.standby.start()

        def replica_ok() -> bool:
            return client.get("/health").json()["replicas"][REPLICA]["status"] == "ok"

        assert wait_for(replica_ok, timeout=60)
        phase[0] = "back"
        assert wait_for(lambda: sum(1 for e in log if e[0] == "back" and e[3] == REPLICA) >= 5, timeout=60)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    by_phase: dict[str, Counter[str]] = {}
    for current, _, status, source in log:
        by_phase.setdefault(current, Counter())[source if status == 200 else f"error {status} {source}"] += 1
    errors = sum(1 for _, _, status, _ in log if status != 200)
    figures["standby_kill_and_restart"] = f"{len(log)} searches, {errors} errors; by phase {by_phase}"
    figures["replay_lag_ms_seen_in_health"] = lags
    figures["health_after_restart"] = client.get("/health").json()["replicas"]
    figures["seconds_driving_http"] = round(time.monotonic() - started, 1)
    print("\nreplica deployment figures:")
    for name, value in figures.items():
        print(f"  {name}: {value}")
    assert errors == 0
    assert set(by_phase["down"]) == {"primary"}
    assert by_phase["back"][REPLICA] >= 5
