"""OpenTelemetry: a real search through the API is one request span (Django's instrumentation) with the search's
span under it and a child span per stage, the SQL statements (psycopg's instrumentation) under the stages that ran
them; a write's indexing tasks are Celery's task spans; request spans carry no query string. Switched on by
``OTEL_EXPORTER_OTLP_ENDPOINT`` alone: a process started with it exports OTLP/HTTP to that endpoint, one started
without it records nothing."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from orgmemory.observability import tracing
from tests.factories import ApiKeyFactory

PROJECT = Path(__file__).resolve().parents[2]
JSON = "application/json"


@pytest.fixture
def spans(transactional_db):
    """Spans into memory from now on. The test's connection is opened after the instrumentation, as a serving
    process's are (Django is set up, and tracing started, before the first connection)."""
    from django.db import connection

    connection.close()
    exporter = InMemorySpanExporter()
    tracing.tracing_start(exporter=exporter, batch=False, set_global=False)
    try:
        yield exporter
    finally:
        tracing.tracing_stop()


@pytest.fixture
def accesses_flushed():
    from memories.background import access_flush

    yield
    access_flush()


def print_trace(finished) -> None:
    children: dict[int | None, list] = {}
    for span in finished:
        children.setdefault(span.parent.span_id if span.parent else None, []).append(span)

    def show(span, depth: int) -> None:
        ms = (span.end_time - span.start_time) / 1e6
        print(f"{'  ' * depth}{span.name}  [{span.kind.name.lower()}] {ms:.2f} ms")
        for child in sorted(children.get(span.context.span_id, []), key=lambda s: s.start_time):
            show(child, depth + 1)

    for root in children.get(None, []):
        show(root, 0)


def test_a_search_through_the_api_is_a_request_span_with_a_child_span_per_stage(client, spans, acme, accesses_flushed):
    key = ApiKeyFactory(tenant=acme, permissions=["read", "write"])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key.plain}"}
    for text in ("Albert owns the billing service.", "Bea works on the platform team."):  # indexed at commit
        body = {"user_id": "albert", "content": text}
        assert client.post("/api/v1/memories", body, content_type=JSON, **auth).status_code == 201
    spans.clear()

    response = client.post(
        "/api/v1/search", {"user_id": "albert", "query": "who owns billing?"}, content_type=JSON, **auth
    )

    assert response.status_code == 200
    assert response.json()["results"][0]["content"] == "Albert owns the billing service."
    finished = spans.get_finished_spans()
    print("\n--- the trace of one search (POST /api/v1/search) ---")
    print_trace(finished)
    (request,) = [span for span in finished if span.kind is SpanKind.SERVER]
    by_name = {span.name: span for span in finished if span.name.startswith("search")}
    assert request.name == "POST api/v1/search"
    assert request.parent is None
    assert by_name["search"].parent.span_id == request.context.span_id
    for stage in ("context", "plan", "embed", "keyword+vector", "fuse"):
        assert by_name[f"search.{stage}"].parent.span_id == by_name["search"].context.span_id, stage
    assert by_name["search.load"].parent.span_id == by_name["search.fuse"].context.span_id
    assert len({span.context.trace_id for span in finished}) == 1
    # the statements are psycopg's client spans, each under the stage that ran it
    statements = [span for span in finished if span.kind is SpanKind.CLIENT]
    stage_of = {span.context.span_id: span.name for span in finished}
    parents = {stage_of.get(span.parent.span_id) for span in statements}
    assert {"search.context", "search.keyword+vector", "search.load"} <= parents
    assert all("db.statement" in span.attributes or "db.query.text" in span.attributes for span in statements)


def test_request_spans_carry_no_query_string_and_no_user_id_in_the_path(client, spans, acme):
    key = ApiKeyFactory(tenant=acme, permissions=["read", "delete"])

    response = client.get("/api/v1/users/albert/memories?q=salary", HTTP_AUTHORIZATION=f"Bearer {key.plain}")

    (request,) = [span for span in spans.get_finished_spans() if span.kind is SpanKind.SERVER]
    values = " ".join(str(value) for value in request.attributes.values())
    assert response.status_code in (200, 404, 405)
    assert "albert" not in values and "salary" not in values
    assert "/api/v1/users/…" in values


class _Collector(http.server.BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args):
        pass


PROBE = """
import django
django.setup()
from opentelemetry import trace
from orgmemory.observability import tracing
print("enabled", tracing.enabled())
with tracing.span("search.probe"):
    pass
if tracing.enabled():
    trace.get_tracer_provider().force_flush()
"""


def _run_probe(**extra: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env.update(DJANGO_SETTINGS_MODULE="orgmemory.settings_test", **extra)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_standard_endpoint_variable_switches_otlp_export_on():
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Collector.received.clear()
    try:
        on = _run_probe(OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{server.server_port}")
        off = _run_probe()
    finally:
        server.shutdown()

    assert on.split() == ["enabled", "True"]
    assert off.split() == ["enabled", "False"]
    ((path, body),) = _Collector.received  # nothing from the process without the variable
    export = ExportTraceServiceRequest.FromString(body)
    names = [span.name for rs in export.resource_spans for ss in rs.scope_spans for span in ss.spans]
    service = {
        attribute.value.string_value
        for rs in export.resource_spans
        for attribute in rs.resource.attributes
        if attribute.key == "service.name"
    }
    assert path == "/v1/traces"
    assert names == ["search.probe"]
    assert service == {"orgmemory"}


def test_a_write_traces_its_indexing_task_through_the_celery_instrumentation(client, spans, acme):
    key = ApiKeyFactory(tenant=acme, permissions=["write"])

    response = client.post(
        "/api/v1/memories",
        {"user_id": "albert", "content": "Dora maintains the data warehouse."},
        content_type=JSON,
        HTTP_AUTHORIZATION=f"Bearer {key.plain}",
    )

    assert response.status_code == 201
    finished = spans.get_finished_spans()
    tasks = sorted(span.name for span in finished if span.name.startswith("run/"))
    print("\n--- a write: its spans ---")
    print_trace(finished)
    (request,) = [span for span in finished if span.kind is SpanKind.SERVER]
    # without a broker the tasks run inline after the commit, inside the request: its children
    assert tasks == ["run/graph.tasks.extract_links_for", "run/memories.tasks.embed_memories"]
    for span in finished:
        if span.name.startswith("run/"):
            assert span.kind is SpanKind.CONSUMER
            assert span.parent.span_id == request.context.span_id
