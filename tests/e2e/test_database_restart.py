"""The database stopped and restarted under a running server (issue 11, faults), for real: a server process on its
own embedded PostgreSQL (a data folder of this test), writes before, during and after the outage.

During the outage every request is a retryable 503 in the error shape and nothing is half-written; once the
database is back, the same server (no restart) serves again, the client's retried write is stored once, and every
memory is indexed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.services import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHART = """tenant: {slug: restart, name: Restart drill}
levels: [org, user]
tree: [{level: org, key: root, name: Root, members: [albert]}]
policies: {writable_levels: {agent: [user]}}
"""
CONTENTS = [
    "The Lisbon warehouse ships orders before noon.",
    "Invoices above ten thousand euros need two approvals.",
    "The staging cluster is rebuilt every Sunday night.",
    "Nadia Okafor owns the carrier integrations.",
    "Customer refunds are processed within five working days.",
    "The Madrid office closes early on Fridays in August.",
]


@pytest.fixture
def own_database(tmp_path_factory):
    """Environment for processes that run on an embedded PostgreSQL of their own (stopped at the end)."""
    data = tmp_path_factory.mktemp("restart-data")
    env = {**os.environ, "ORGMEMORY_ENV": "development", "ORGMEMORY_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"}
    env.pop("DATABASE_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    yield env, data
    subprocess.run([sys.executable, "manage.py", "embedded_db", "stop"], cwd=ROOT, env=env, capture_output=True)


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def start_database(data: Path) -> None:
    """Start the stopped embedded server again (the same data folder and socket), from this process."""
    import pgserver

    pgserver.get_server((data / "pgdata").resolve(), cleanup_mode=None)


def wait_until_up(client: httpx.Client, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server process exited"
        try:
            if client.get("/health").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server did not come up")


def test_a_database_restart_under_a_running_server_loses_nothing(own_database):
    env, data = own_database
    manage(env, "migrate", "--no-input")
    chart = data / "chart.yaml"
    chart.write_text(CHART)
    manage(env, "onboard_tenant", str(chart))
    key = json.loads(manage(env, "create_api_key", "--tenant", "restart", "--name", "drill", "--json"))["key"]
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = httpx.Client(
        base_url=f"http://127.0.0.1:{port}/api/v1", headers={"Authorization": f"Bearer {key}"}, timeout=120
    )
    try:
        wait_until_up(client, server)

        def write(content: str) -> httpx.Response:
            return client.post("/memories", json={"user_id": "albert", "content": content})

        # Given three memories stored while the database is up
        before = [write(content) for content in CONTENTS[:3]]
        assert [r.status_code for r in before] == [201, 201, 201]

        # When the database stops, every request is a retryable 503 in the error shape
        manage(env, "embedded_db", "stop")
        during = write(CONTENTS[3])
        search = client.post("/search", json={"user_id": "albert", "query": "warehouse"})
        for response in (during, search):
            assert response.status_code == 503, response.text
            assert response.json()["error"]["code"] == "database_unavailable"
            assert response.headers["Retry-After"] == "5"

        # Then, once it is back, the same server serves again and the retried write is stored once
        start_database(data)
        after = [write(content) for content in CONTENTS[3:]]
        assert [r.status_code for r in after] == [201, 201, 201]
        found = client.post("/search", json={"user_id": "albert", "query": "Lisbon warehouse orders", "top_k": 10})
        assert found.status_code == 200
        assert found.json()["results"][0]["content"] == CONTENTS[0]
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=30)

    counts = manage(
        env,
        "shell",
        "-c",
        "from memories.models import Memory; import json; "
        "print(json.dumps(sorted(Memory.objects.values_list('content', 'index_state'))))",
    )
    stored = json.loads(counts.strip().splitlines()[-1])
    assert stored == sorted([content, "ready"] for content in CONTENTS)
