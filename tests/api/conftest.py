"""API test fixtures: clients holding real API keys, and memories written through the services."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rest_framework.test import APIClient

from tests.conftest import remember
from tests.factories import ApiKeyFactory


@pytest.fixture(autouse=True)
def scheduled_accesses(monkeypatch) -> list[int]:
    """Access tracking records what searches return; here it is captured instead of written by the background
    recorder (whose own connection cannot see the test's uncommitted rows)."""
    scheduled: list[int] = []
    monkeypatch.setattr("retrieval.services.access_schedule", lambda *, memory_ids: scheduled.extend(memory_ids))
    return scheduled


@pytest.fixture
def make_client():
    """A client authenticated with a new key of ``tenant`` (``client.api_key`` is the ApiKey row), restricted to the
    subtree ``scope`` (a Scope or a tag) when given."""

    def _make(tenant, permissions=("read", "write", "delete"), scope=None) -> APIClient:
        key = ApiKeyFactory(tenant=tenant, permissions=list(permissions), scope=scope)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.plain}")
        client.api_key = key
        client.plain_key = key.plain
        return client

    return _make


@pytest.fixture
def api(acme, make_client) -> APIClient:
    """An acme client with read, write and delete (no admin)."""
    return make_client(acme)


@pytest.fixture
def globex_api(globex, make_client) -> APIClient:
    return make_client(globex, permissions=("read", "write", "delete", "admin"))


@pytest.fixture
def acme_memories(acme, globex):
    """One memory per node of acme's tree (and two in globex), each mentioning "Zephyr" so that one query
    finds them all. Keyed by scope tag; globex ones by ``globex:<tag>``."""
    return {
        "user:albert": remember(acme, "Albert prefers Python examples for Zephyr.", user="albert"),
        "user:bea": remember(acme, "Bea negotiates her Zephyr bonus privately.", user="bea"),
        "team:platform": remember(acme, "The platform team deploys Zephyr with Argo CD.", scope="team:platform"),
        "team:data": remember(acme, "The data team runs Zephyr batch jobs on Airflow.", scope="team:data"),
        "division:eu": remember(acme, "EU offices close for Zephyr maintenance on Whit Monday.", scope="division:eu"),
        "org:acme": remember(acme, "Acme's Zephyr fiscal year starts in February.", scope="org:acme"),
        "team:sales": remember(acme, "Sales tracks Zephyr deals in Salesforce.", scope="team:sales"),
        "globex:user:albert": remember(globex, "Globex albert likes Zephyr in Rust.", user="albert"),
        "globex:team:platform": remember(globex, "Globex platform ships Zephyr with Flux.", scope="team:platform"),
    }


ALBERT_VISIBLE = {"user:albert", "team:platform", "division:eu", "org:acme"}


def error_of(response) -> dict:
    """The error envelope of a response, asserting its shape."""
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    return body["error"]


class FakeLLM:
    """A real HTTP server on 127.0.0.1 answering OpenAI-style chat completions (or garbage, on demand)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.mode = "ok"
        self.reply = "The platform team deploys Zephyr with Argo CD [1]."
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if fake.mode == "ok":
                    payload = json.dumps(
                        {
                            "id": "c1",
                            "object": "chat.completion",
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": fake.reply}}],
                        }
                    ).encode()
                    status = 200
                elif fake.mode == "garbage":
                    payload, status = b"<html>not json at all", 200
                else:
                    payload, status = b'{"error": "overloaded"}', 503
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):  # keep test output quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def fake_llm(monkeypatch):
    """The fake server, wired in through the environment as the synthesis LLM."""
    with FakeLLM() as fake:
        monkeypatch.setenv("ORGMEMORY_LLM_URL", fake.url)
        monkeypatch.setenv("ORGMEMORY_LLM_MODEL", "fake-model")
        monkeypatch.setenv("ORGMEMORY_LLM_API_KEY", "sk-test")
        monkeypatch.setenv("ORGMEMORY_LLM_TIMEOUT", "5")
        monkeypatch.delenv("HTTP_PROXY", raising=False)
        monkeypatch.delenv("http_proxy", raising=False)
        yield fake
