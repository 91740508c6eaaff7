"""The ADK adapter against a real local HTTP server that records requests and answers canned JSON (no mocks, no
database): request shapes, event text extraction, error mapping, configuration errors, the one retry, and the
``orgmemory://`` scheme.

The canned answers are the API's own: the examples its served OpenAPI document gives (``tests/openapi.py``), each
validated against the documented schema when the fake server is told to send it, so they cannot drift from the
real shapes; the adapter's requests are validated against the documented request bodies the same way."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import OperationalError
from google.adk.cli.service_registry import get_service_registry
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from orgmemory.api.exceptions import exception_handler
from retrieval.adk import (
    Citation,
    OrgMemoryError,
    OrgMemoryFact,
    OrgMemoryRecall,
    OrgMemoryService,
    RecallItem,
    base_url_from_uri,
    event_text,
    org_memory_service_from_uri,
    register_org_memory_scheme,
)
from retrieval.adk.client import logger as client_logger
from tests.openapi import OpenApi

pytestmark = pytest.mark.adk

KEY = "om_test_secret-key"
REPO = Path(__file__).resolve().parents[2]

# --- a recording HTTP server ------------------------------------------------------------------------------------


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class Canned:
    status: int = 200
    body: Any = field(default_factory=dict)
    raw: bytes | None = None  # sent as is (text/html) instead of JSON
    delay: float = 0.0


class RecordingServer(ThreadingHTTPServer):
    """Records every request and answers from ``routes``: by default the documented answer of each operation the
    adapter calls (a session ingested, a batch created, a search with an answer, a recall block), and the documented
    404 envelope for any other path. ``answer()`` changes one route, checking the body against the schema."""

    daemon_threads = True

    def __init__(self, openapi: OpenApi) -> None:
        super().__init__(("127.0.0.1", 0), _Handler, bind_and_activate=False)
        self.server_bind()  # the port is ours from now on, but nothing listens until start()
        self.openapi = openapi
        self.requests: list[Recorded] = []
        self.routes: dict[tuple[str, str], Canned] = {}
        self.not_found = Canned(404, openapi.validate_error(openapi.example("search", 404)))
        self.drop_next = 0  # read that many requests, then close the connection without answering
        self._thread: threading.Thread | None = None
        self.answer("session_ingest", status=201)
        self.answer("memory_create", status=201, example="batch created")
        self.answer("search", example="with an answer")
        self.answer("recall")

    def answer(
        self,
        operation_id: str,
        body: Any = None,
        *,
        status: int = 200,
        example: str | None = None,
        path: str | None = None,
        delay: float = 0.0,
    ) -> Any:
        """Answer ``operation_id`` (at ``path`` when its documented path has parameters) with ``body``, by default
        the documented example (``example`` names one). The body must be a valid ``status`` response of the
        operation or, for a status the operation does not document (a 5xx), the API's error envelope. Returns the
        body sent."""
        method, documented_path, operation = self.openapi.operation(operation_id)
        if body is None:
            body = self.openapi.example(operation_id, status, example)
        if str(status) in operation["responses"]:
            self.openapi.validate(body, operation_id, status)
        else:
            self.openapi.validate_error(body)
        self.routes[(method, path or documented_path)] = Canned(status, body, delay=delay)
        return body

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self) -> None:
        self.server_activate()
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
        self.server_close()

    def paths(self) -> list[str]:
        return [f"{request.method} {request.path}" for request in self.requests]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers: a pooled connection belongs to one event loop
    server: RecordingServer

    def log_message(self, format: str, *args: Any) -> None:  # keep the test output clean
        pass

    def _serve(self) -> None:
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        self.server.requests.append(
            Recorded(
                method=self.command,
                path=split.path,
                query=parse_qs(split.query),
                headers={name.lower(): value for name, value in self.headers.items()},
                body=json.loads(raw) if raw else None,
            )
        )
        if self.server.drop_next > 0:
            self.server.drop_next -= 1
            self.close_connection = True
            return  # no status line: the client sees the connection close under it
        canned = self.server.routes.get((self.command, split.path), self.server.not_found)
        if canned.delay:
            time.sleep(canned.delay)
        payload = canned.raw if canned.raw is not None else json.dumps(canned.body).encode()
        self.send_response(canned.status)
        self.send_header("Content-Type", "text/html" if canned.raw is not None else "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_DELETE = do_PATCH = _serve


@pytest.fixture
def server(openapi):
    srv = RecordingServer(openapi)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def service(server) -> OrgMemoryService:
    return OrgMemoryService(base_url=server.url, api_key=KEY, timeout=2.0, retry_delay=0.0)


def run(coroutine):
    return asyncio.run(coroutine)


class RetryLog(logging.Handler):
    """Counts the adapter's "retrying once" records and runs ``on_retry`` at each: the moment between the failed
    attempt and the retry."""

    def __init__(self, on_retry=None) -> None:
        super().__init__(level=logging.INFO)
        self.retries = 0
        self.on_retry = on_retry

    def emit(self, record: logging.LogRecord) -> None:
        if "retrying once" in record.getMessage():
            self.retries += 1
            if self.on_retry is not None:
                self.on_retry()


@pytest.fixture
def retry_log():
    handler = RetryLog()
    previous = client_logger.level
    client_logger.addHandler(handler)
    client_logger.setLevel(logging.INFO)
    yield handler
    client_logger.removeHandler(handler)
    client_logger.setLevel(previous)


def text_event(event_id: str, author: str, *texts: str, thought: str | None = None, **kwargs) -> Event:
    parts = [types.Part(text=text) for text in texts]
    if thought is not None:
        parts.insert(0, types.Part(text=thought, thought=True))
    role = "user" if author == "user" else "model"
    return Event(id=event_id, author=author, content=types.Content(role=role, parts=parts), **kwargs)


def call_event(event_id: str) -> Event:
    call = types.FunctionCall(name="load_memory", args={"query": "deploys"})
    return Event(
        id=event_id, author="helper", content=types.Content(role="model", parts=[types.Part(function_call=call)])
    )


@pytest.fixture
def search_hit(openapi) -> dict[str, Any]:
    """The hit of the documented search answer: a team fact, memory 412."""
    return openapi.example("search", 200, "with an answer")["results"][0]


# --- writes -----------------------------------------------------------------------------------------------------


def test_add_session_posts_text_events_with_bearer_key(server, service, openapi):
    # given a session with user and agent text, a thought, a tool call, blank text and a streaming chunk
    session = Session(
        id="s-1",
        app_name="support",
        user_id="albert",
        events=[
            text_event("e1", "user", "Our staging DB is", "pg-stg-2.", timestamp=1746178200.0),
            text_event(
                "e2", "helper", "Noted: ", "pg-stg-2.", thought="the user states a fact", timestamp=1746178201.5
            ),
            call_event("e3"),
            text_event("e4", "user", "   ", timestamp=1746178202.0),
            text_event("e5", "helper", "Not", partial=True, timestamp=1746178203.0),
        ],
    )

    # when it is added to memory
    run(service.add_session_to_memory(session))

    # then one POST carries the text events only, authors kept, thoughts dropped
    (request,) = server.requests
    assert (request.method, request.path) == ("POST", "/api/v1/sessions")
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    assert openapi.validate_request(request.body, "session_ingest") == {
        "app_name": "support",
        "user_id": "albert",
        "session_id": "s-1",
        "events": [
            {"id": "e1", "author": "user", "timestamp": 1746178200.0, "text": "Our staging DB is pg-stg-2."},
            {"id": "e2", "author": "helper", "timestamp": 1746178201.5, "text": "Noted: pg-stg-2."},
        ],
    }


def test_adding_a_session_again_sends_the_same_event_ids(server, service):
    # the server dedups per session + event id, so re-sending after every turn is safe
    session = Session(id="s-1", app_name="support", user_id="albert", events=[text_event("e1", "user", "Hi")])
    run(service.add_session_to_memory(session))
    session.events.append(text_event("e2", "helper", "Hello"))
    run(service.add_session_to_memory(session))

    first, second = (request.body["events"] for request in server.requests)
    assert [event["id"] for event in first] == ["e1"]
    assert [event["id"] for event in second] == ["e1", "e2"]


def test_a_session_without_text_sends_nothing(server, service):
    session = Session(id="s-1", app_name="support", user_id="albert", events=[call_event("e1")])
    run(service.add_session_to_memory(session))
    assert server.requests == []


def test_event_text_joins_user_parts_with_spaces_and_model_chunks_as_is():
    assert event_text(text_event("e", "user", "a", "b")) == "a b"
    assert event_text(text_event("e", "helper", "Argo", " CD")) == "Argo CD"
    assert event_text(text_event("e", "helper", "x", thought="private")) == "x"
    assert event_text(Event(id="e", author="user")) == ""


def test_add_events_to_memory_sends_chunks_of_100_under_the_session(server, service):
    events = [text_event(f"e{index}", "user", f"fact number {index}") for index in range(250)]

    run(service.add_events_to_memory(app_name="support", user_id="albert", events=events, session_id="s-9"))

    assert [len(request.body["events"]) for request in server.requests] == [100, 100, 50]
    assert {request.body["session_id"] for request in server.requests} == {"s-9"}
    assert server.requests[2].body["events"][-1]["id"] == "e249"


def test_add_events_without_a_session_uses_adks_placeholder_session(server, service):
    run(service.add_events_to_memory(app_name="support", user_id="albert", events=[text_event("e1", "user", "Hi")]))
    assert server.requests[0].body["session_id"] == "__unknown_session_id__"


def test_add_memory_posts_one_batch_with_scope_kind_title_and_metadata(server, service, openapi):
    # given one entry aimed at the team, one private preference; a default kind for both
    memories = [
        MemoryEntry(
            id="m-1",
            author="albert",
            timestamp="2025-05-02T09:30:00+00:00",
            content=types.Content(parts=[types.Part(text="On-call rotates weekly.")]),
            custom_metadata={"scope": "team:platform", "title": "On-call", "ticket": "OPS-7"},
        ),
        MemoryEntry(
            content=types.Content(parts=[types.Part(text="I prefer"), types.Part(text="Python examples.")]),
            custom_metadata={"kind": "preference"},
        ),
    ]

    run(service.add_memory(app_name="support", user_id="albert", memories=memories, custom_metadata={"kind": "fact"}))

    (request,) = server.requests
    assert (request.method, request.path) == ("POST", "/api/v1/memories")
    assert openapi.validate_request(request.body, "memory_create") == {
        "user_id": "albert",
        "memories": [
            {
                "content": "On-call rotates weekly.",
                "app_name": "support",
                "scope": "team:platform",
                "kind": "fact",
                "title": "On-call",
                "event_id": "m-1",
                "reference_time": "2025-05-02T09:30:00+00:00",
                "metadata": {"ticket": "OPS-7", "author": "albert", "timestamp": "2025-05-02T09:30:00+00:00"},
            },
            {"content": "I prefer Python examples.", "app_name": "support", "kind": "preference"},
        ],
    }


def test_add_memory_refuses_an_entry_without_text(server, service):
    empty = MemoryEntry(content=types.Content(parts=[types.Part(function_call=types.FunctionCall(name="f"))]))
    with pytest.raises(ValueError, match="no text part"):
        run(service.add_memory(app_name="support", user_id="albert", memories=[empty]))
    assert server.requests == []


def test_delete_memory_deletes_by_id_for_the_user(server, service):
    server.answer("memory_delete", path="/api/v1/memories/412")

    run(service.delete_memory(app_name="support", user_id="albert", memory_id="412"))
    run(service.delete_memory(app_name="support", user_id="albert", memory_id=None))  # nothing to delete

    (request,) = server.requests
    assert (request.method, request.path, request.query) == ("DELETE", "/api/v1/memories/412", {"user_id": ["albert"]})


def test_delete_memory_escapes_the_id_into_one_path_segment(server, service):
    server.answer("memory_delete", status=404, path="/api/v1/memories/..%2Fsearch")
    with pytest.raises(OrgMemoryError):
        run(service.delete_memory(app_name="support", user_id="albert", memory_id="../search"))
    assert server.requests[0].path == "/api/v1/memories/..%2Fsearch"


# --- reads ------------------------------------------------------------------------------------------------------


def test_search_memory_maps_results_to_memory_entries(server, service, openapi, search_hit):
    # given a plain fact and a session event (whose ADK author and time are in its metadata), as the API documents
    body = openapi.example("search", 200, "a session event")
    body["results"].insert(0, search_hit)
    server.answer("search", body)

    response = run(service.search_memory(app_name="support", user_id="albert", query="staging db"))

    request = openapi.validate_request(server.requests[0].body, "search")
    assert request == {"user_id": "albert", "query": "staging db", "top_k": 10, "app_name": "support"}
    fact, event = response.memories
    assert fact.id == "412"
    assert fact.author == "albert"
    assert fact.timestamp == "2025-05-02T09:30:00Z"
    assert fact.content == types.Content(parts=[types.Part(text="The platform team deploys with Argo CD.")])
    assert fact.custom_metadata == {
        "memory_id": 412,
        "scope": "team:platform",
        "scope_level": "team",
        "kind": "fact",
        "score": 0.912,
        "title": "Deploys",
        "created_at": "2025-05-02T09:30:00Z",
        "orgmemory_author": "albert",
        "author_type": "api_key",
        "source": "api",
        "key_name": "support-bot",
    }
    assert (event.id, event.author, event.timestamp) == ("501", "user", "2025-05-02T09:30:00+00:00")
    assert event.custom_metadata["scope"] == "user:albert"


def test_search_memory_with_a_blank_query_asks_nothing(server, service):
    response = run(service.search_memory(app_name="support", user_id="albert", query="  "))
    assert (response.memories, server.requests) == ([], [])


def test_answer_returns_text_citations_and_results(server, service, openapi):
    documented = server.answer("search", example="with an answer")

    answer = run(service.answer(app_name="support", user_id="albert", query="how do we deploy?", top_k=5))

    assert openapi.validate_request(server.requests[0].body, "search") == {
        "user_id": "albert",
        "query": "how do we deploy?",
        "top_k": 5,
        "app_name": "support",
        "synthesize": True,
    }
    assert answer.text == documented["answer"]["text"] == "The platform team deploys with Argo CD [1]."
    assert answer.citations == (Citation(index=1, memory_id=412),)
    assert answer.used_llm is True
    assert [entry.id for entry in answer.results] == ["412"]


# --- errors -----------------------------------------------------------------------------------------------------


def test_api_errors_raise_org_memory_error_with_status_code_message(server, service):
    documented = server.answer("search", status=404)["error"]

    with pytest.raises(OrgMemoryError) as caught:
        run(service.search_memory(app_name="support", user_id="nobody", query="anything"))

    error = caught.value
    assert (error.status, error.code, error.message, error.details) == (
        404,
        "unknown_user",
        "unknown user_id 'nobody' in this tenant",
        {},
    )
    assert (error.code, error.message, error.details) == (
        documented["code"],
        documented["message"],
        documented["details"],
    )
    assert (error.method, error.path) == ("POST", "/search")
    assert str(error) == "OrgMemory API error 404 unknown_user: unknown user_id 'nobody' in this tenant (POST /search)"


def test_error_details_reach_the_exception(server, service):
    documented = server.answer("search", status=400)["error"]

    with pytest.raises(OrgMemoryError) as caught:
        run(service.search_memory(app_name="support", user_id="albert", query="anything"))

    assert (caught.value.status, caught.value.code) == (400, "validation_error")
    assert caught.value.details == documented["details"] == {"user_id": ["This field is required."]}


def test_an_error_page_that_is_not_json_still_maps_to_org_memory_error(server, service):
    server.routes[("POST", "/api/v1/sessions")] = Canned(502, raw=b"<html><body>Bad gateway</body></html>")
    session = Session(id="s", app_name="a", user_id="albert", events=[text_event("e1", "user", "Hi")])

    with pytest.raises(OrgMemoryError) as caught:
        run(service.add_session_to_memory(session))

    assert (caught.value.status, caught.value.code) == (502, "http_502")
    assert "Bad gateway" in caught.value.message
    assert len(server.requests) == 1  # an HTTP error is an answer: never retried


def test_a_5xx_answer_is_not_retried(server, service, retry_log):
    # a database outage, answered by the API's own exception handler (the search documents no 5xx of its own)
    outage = exception_handler(OperationalError("the server closed the connection"), {"view": None, "request": None})
    server.answer("search", outage.data, status=outage.status_code)
    with pytest.raises(OrgMemoryError, match="503 database_unavailable"):
        run(service.search_memory(app_name="a", user_id="albert", query="q"))
    assert (len(server.requests), retry_log.retries) == (1, 0)


def test_a_slow_answer_times_out_without_retry(server, openapi, retry_log):
    server.answer("search", example="with an answer", delay=1.0)
    service = OrgMemoryService(base_url=server.url, api_key=KEY, timeout=0.2, retry_delay=0.0)

    with pytest.raises(OrgMemoryError) as caught:
        run(service.search_memory(app_name="a", user_id="albert", query="q"))

    assert (caught.value.status, caught.value.code) == (None, "timeout")
    assert (len(server.requests), retry_log.retries) == (1, 0)


def test_the_api_key_never_shows_in_errors_or_repr(server, service):
    server.answer("search", status=401)
    with pytest.raises(OrgMemoryError) as caught:
        run(service.search_memory(app_name="a", user_id="albert", query="q"))
    assert caught.value.status == 401
    assert KEY not in str(caught.value)
    assert repr(service) == f"OrgMemoryService(base_url={server.url!r})"


# --- the one retry ----------------------------------------------------------------------------------------------


def test_a_refused_connection_is_retried_once_and_succeeds_when_the_server_is_up(openapi):
    # given a port that is bound but not listening yet (connections are refused); it starts listening in the pause
    # between the failed attempt and the retry (then answers the documented search: one hit, memory 412)
    server = RecordingServer(openapi)
    handler = RetryLog(on_retry=server.start)
    client_logger.addHandler(handler)
    client_logger.setLevel(logging.INFO)
    try:
        service = OrgMemoryService(base_url=server.url, api_key=KEY, retry_delay=0.0)
        response = run(service.search_memory(app_name="a", user_id="albert", query="deploys"))
    finally:
        client_logger.removeHandler(handler)
        server.stop()

    assert handler.retries == 1
    assert [entry.id for entry in response.memories] == ["412"]
    assert server.paths() == ["POST /api/v1/search"]


def test_a_server_that_stays_down_fails_after_exactly_one_retry(openapi, retry_log):
    server = RecordingServer(openapi)  # bound, never listening
    try:
        service = OrgMemoryService(base_url=server.url, api_key=KEY, retry_delay=0.0)
        with pytest.raises(OrgMemoryError) as caught:
            run(service.search_memory(app_name="a", user_id="albert", query="q"))
    finally:
        server.stop()

    assert (caught.value.status, caught.value.code) == (None, "unreachable")
    assert "ConnectError" in caught.value.message
    assert retry_log.retries == 1


def test_a_connection_dropped_without_an_answer_is_retried_once(server, service, retry_log):
    server.drop_next = 1  # then the documented search: one hit, memory 412

    response = run(service.search_memory(app_name="a", user_id="albert", query="deploys"))

    assert [entry.id for entry in response.memories] == ["412"]
    assert (server.paths(), retry_log.retries) == (["POST /api/v1/search", "POST /api/v1/search"], 1)


def test_connections_dropped_twice_give_up_after_the_retry(server, service, retry_log):
    server.drop_next = 5
    with pytest.raises(OrgMemoryError, match="unreachable") as caught:
        run(service.search_memory(app_name="a", user_id="albert", query="q"))
    assert "RemoteProtocolError" in caught.value.message
    assert (len(server.requests), retry_log.retries) == (2, 1)


# --- event loops and clients ------------------------------------------------------------------------------------


def test_the_service_works_from_successive_event_loops(server, service):
    for _ in range(3):  # each asyncio.run is a new loop; a client bound to a closed loop cannot be reused
        assert len(run(service.search_memory(app_name="a", user_id="albert", query="q")).memories) == 1

    assert len(server.requests) == 3
    assert service._http.open_clients == 1  # the clients of the closed loops were dropped


def test_the_service_works_from_concurrent_loops_in_threads(server, service):
    results: list[int] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(len(run(service.search_memory(app_name="a", user_id="albert", query="q")).memories))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    assert (errors, results) == ([], [1, 1, 1, 1])


def test_aclose_closes_the_client_and_the_service_stays_usable(server, service):
    async def scenario() -> tuple[int, int, int]:
        await service.search_memory(app_name="a", user_id="albert", query="q")
        opened = service._http.open_clients
        await service.aclose()
        closed = service._http.open_clients
        async with service:
            await service.search_memory(app_name="a", user_id="albert", query="q")
        return opened, closed, service._http.open_clients

    assert run(scenario()) == (1, 0, 0)
    assert len(server.requests) == 2


# --- configuration ----------------------------------------------------------------------------------------------


def test_configuration_comes_from_the_environment(monkeypatch, server):
    monkeypatch.setenv("ORGMEMORY_URL", server.url + "/api/v1/")
    monkeypatch.setenv("ORGMEMORY_API_KEY", KEY)
    service = OrgMemoryService()
    assert (service.base_url, service.timeout, service.top_k) == (server.url, 10.0, 10)
    run(service.search_memory(app_name="a", user_id="albert", query="q"))
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_a_missing_url_names_the_variable(monkeypatch):
    monkeypatch.delenv("ORGMEMORY_URL", raising=False)
    with pytest.raises(ValueError, match="ORGMEMORY_URL"):
        OrgMemoryService(api_key=KEY)


def test_a_missing_key_names_the_variable(monkeypatch):
    monkeypatch.setenv("ORGMEMORY_API_KEY", "  ")
    with pytest.raises(ValueError, match="ORGMEMORY_API_KEY"):
        OrgMemoryService(base_url="http://127.0.0.1:8000")


@pytest.mark.parametrize("url", ["127.0.0.1:8000", "ftp://host", "http://", "http://host/?x=1"])
def test_a_url_that_is_not_a_plain_http_url_is_refused(url):
    with pytest.raises(ValueError, match="ORGMEMORY_URL"):
        OrgMemoryService(base_url=url, api_key=KEY)


@pytest.mark.parametrize(("kwargs", "message"), [({"top_k": 0}, "top_k"), ({"timeout": 0}, "timeout")])
def test_bad_limits_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        OrgMemoryService(base_url="http://127.0.0.1:8000", api_key=KEY, **kwargs)


def test_the_adapter_imports_without_django():
    code = (
        "import sys, retrieval.adk; "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(loaded)"
    )
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


def test_without_adk_the_import_error_says_what_to_install():
    code = "import sys; sys.modules['google.adk'] = None; from retrieval.adk import OrgMemoryService"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "ImportError: retrieval.adk needs the Google ADK: install the optional extra" in done.stderr
    assert "orgmemory[adk]" in done.stderr


# --- the orgmemory:// scheme ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "base_url", "options"),
    [
        ("orgmemory://127.0.0.1:8000", "http://127.0.0.1:8000", {}),
        ("orgmemory://memory.example?tls=1", "https://memory.example", {}),
        ("orgmemory://memory.example:8443/org/memory/?tls=true", "https://memory.example:8443/org/memory", {}),
        (
            "orgmemory://localhost:8000?tls=0&timeout=2.5&top_k=20",
            "http://localhost:8000",
            {"timeout": 2.5, "top_k": 20},
        ),
        ("orgmemory://[::1]:8000", "http://[::1]:8000", {}),
    ],
)
def test_uri_to_base_url(uri, base_url, options):
    assert base_url_from_uri(uri) == (base_url, options)


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("http://127.0.0.1:8000", "not an orgmemory://"),
        ("orgmemory://", "needs a host"),
        ("orgmemory://albert:om_secret@host:8000", "no credentials"),
        ("orgmemory://host:99999", "out of range"),
        ("orgmemory://host?tls=maybe", "tls must be"),
        ("orgmemory://host?api_key=x", "unknown orgmemory:// URI parameter"),
    ],
)
def test_bad_uris_are_refused(uri, message):
    with pytest.raises(ValueError, match=message):
        base_url_from_uri(uri)


def test_the_factory_takes_adk_keyword_arguments_and_reads_the_key_from_the_environment(monkeypatch):
    monkeypatch.setenv("ORGMEMORY_API_KEY", KEY)
    service = org_memory_service_from_uri("orgmemory://127.0.0.1:8123/om?tls=1&timeout=3", agents_dir="/agents")
    assert isinstance(service, OrgMemoryService)
    assert (service.base_url, service.timeout) == ("https://127.0.0.1:8123/om", 3.0)


def test_the_factory_without_a_key_names_the_variable(monkeypatch):
    monkeypatch.delenv("ORGMEMORY_API_KEY", raising=False)
    with pytest.raises(ValueError, match="ORGMEMORY_API_KEY"):
        org_memory_service_from_uri("orgmemory://127.0.0.1:8000", agents_dir="/agents")


def test_registering_the_scheme_twice_is_harmless(monkeypatch, server):
    monkeypatch.setenv("ORGMEMORY_API_KEY", KEY)
    registry = get_service_registry()

    register_org_memory_scheme()
    factory = registry._memory_factories["orgmemory"]
    register_org_memory_scheme()

    assert registry._memory_factories["orgmemory"] is factory is org_memory_service_from_uri
    host_port = server.url.removeprefix("http://")
    service = registry.create_memory_service(f"orgmemory://{host_port}", agents_dir="/agents")
    assert isinstance(service, OrgMemoryService)
    assert service.base_url == server.url
    run(service.search_memory(app_name="a", user_id="albert", query="q"))  # and it talks to that server
    assert server.paths() == ["POST /api/v1/search"]


# --- recall -----------------------------------------------------------------------------------------------------


def test_recall_posts_the_task_and_budget_and_returns_the_block(server, service, openapi):
    documented = server.answer("recall")  # a pinned policy and a note

    recall = run(service.recall(user_id="albert", task="prepare the Friday deploy", budget_tokens=200))

    (request,) = server.requests
    assert (request.method, request.path) == ("POST", "/api/v1/recall")
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert openapi.validate_request(request.body, "recall") == {
        "user_id": "albert",
        "task": "prepare the Friday deploy",
        "budget_tokens": 200,
    }
    policy_line = "- [policy #77] Deploy days: We no longer deploy on Fridays."
    note_line = "- [note #68] Standup: Platform standup is at 09:45 CET every day except Friday."
    assert recall == OrgMemoryRecall(
        block=f"{policy_line}\n{note_line}",
        items=(
            RecallItem(id=77, kind="policy", scope="team:platform", line=policy_line, pinned=True),
            RecallItem(id=68, kind="note", scope="team:platform", line=note_line, pinned=False),
        ),
        used_chars=documented["used_chars"],
        budget_chars=800,
        no_relevant_memory=False,
    )


def test_recall_sends_chars_and_kinds_and_maps_errors(server, service, openapi):
    documented = server.answer("recall", status=400)["error"]

    with pytest.raises(OrgMemoryError) as failed:
        run(service.recall(user_id="albert", task="deploy", budget_chars=500, kinds=["policy", "fact"]))

    assert openapi.validate_request(server.requests[0].body, "recall") == {
        "user_id": "albert",
        "task": "deploy",
        "budget_chars": 500,
        "kinds": ["policy", "fact"],
    }
    assert (failed.value.status, failed.value.code, failed.value.message) == (
        400,
        documented["code"],
        documented["message"],
    )


# --- facts ------------------------------------------------------------------------------------------------------


def test_facts_by_id_reads_the_entitys_facts_for_the_user(server, service, openapi):
    documented = server.answer("entity_facts", path="/api/v1/entities/12/facts")  # Dmitri moved to Denver

    facts = run(service.facts(user_id="albert", entity=12, attribute="lives_in", as_of="2025-10-01"))

    (request,) = server.requests
    assert (request.method, request.path) == ("GET", "/api/v1/entities/12/facts")
    assert request.query == {"user_id": ["albert"], "attribute": ["lives_in"], "as_of": ["2025-10-01"]}
    assert request.headers["authorization"] == f"Bearer {KEY}"
    denver, boston = documented["results"]
    assert facts == (
        OrgMemoryFact(
            subject="Dmitri Volkov",
            attribute="lives_in",
            value="Denver",
            valid_from="2025-08-01",
            valid_until=None,
            current=True,
            memory_id=denver["memory_id"],
            confidence=denver["confidence"],
            curated=False,
        ),
        OrgMemoryFact(
            subject="Dmitri Volkov",
            attribute="lives_in",
            value="Boston",
            valid_from="2025-03-10",
            valid_until="2025-08-01",
            current=False,
            memory_id=boston["memory_id"],
            confidence=boston["confidence"],
            curated=False,
        ),
    )


def test_facts_by_name_looks_the_visible_entity_up_first(server, service, openapi):
    page = server.answer("entity_list")  # one visible entity, Acme Labs (id 7)
    nothing_recorded = {"entity": {"id": 7, "name": "Acme Labs"}, "as_of": "2025-10-01T00:00:00Z", "results": []}
    server.answer("entity_facts", nothing_recorded, path="/api/v1/entities/7/facts")

    facts = run(service.facts(user_id="albert", entity="acme labs"))

    look_up, read = server.requests
    assert (look_up.method, look_up.path) == ("GET", "/api/v1/entities")
    assert look_up.query == {"user_id": ["albert"], "q": ["acme labs"], "page_size": ["100"]}
    assert (read.path, read.query) == (f"/api/v1/entities/{page['results'][0]['id']}/facts", {"user_id": ["albert"]})
    assert facts == ()


def test_a_name_that_matches_no_entity_or_several_is_an_error_naming_them(server, service, openapi):
    acme = openapi.example("entity_list")["results"][0]
    other = {**acme, "id": 8, "name": "Acme Logistics"}

    server.answer("entity_list", {"count": 0, "next": None, "previous": None, "results": []})
    with pytest.raises(OrgMemoryError) as nothing:
        run(service.facts(user_id="albert", entity="Initech"))
    server.answer("entity_list", {"count": 2, "next": None, "previous": None, "results": [acme, other]})
    with pytest.raises(OrgMemoryError) as several:
        run(service.facts(user_id="albert", entity="Acme"))

    assert (nothing.value.status, nothing.value.code) == (404, "entity_not_found")
    assert nothing.value.message == "no entity named 'Initech' visible to albert"
    assert (several.value.status, several.value.code) == (400, "ambiguous_entity")
    assert several.value.details == {
        "candidates": [
            {"id": 7, "name": "Acme Labs", "kind": "company"},
            {"id": 8, "name": "Acme Logistics", "kind": "company"},
        ]
    }
    assert server.paths() == ["GET /api/v1/entities", "GET /api/v1/entities"]  # no facts read for either


def test_an_entity_the_user_cannot_see_is_the_apis_404(server, service, openapi):
    documented = server.answer("entity_facts", status=404, path="/api/v1/entities/99/facts")["error"]

    with pytest.raises(OrgMemoryError) as failed:
        run(service.facts(user_id="bea", entity="99"))  # digits are an id

    assert (failed.value.status, failed.value.code) == (404, documented["code"])


def test_the_fake_server_refuses_an_answer_the_api_would_not_give(server):
    with pytest.raises(AssertionError, match="not a 200 response of search"):
        server.answer("search", {"results": [], "degraded": [], "no_relevant_memory": True})  # no confidence
    with pytest.raises(AssertionError, match="not an error envelope"):
        server.answer("search", {"error": {"code": "busy"}}, status=503)  # no message, no details
