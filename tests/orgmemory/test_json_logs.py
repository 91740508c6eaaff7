"""Every log line names the request it was logged for (``request_id``, the response's ``X-Request-ID``); in JSON
(``ORGMEMORY_LOG_FORMAT=json``, production's default) each line is one object. Checked in process with the
project's formatter and filter, and on a real production gunicorn: the application's and the access log's lines."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from orgmemory.logfilters import NO_REQUEST, RequestIdFilter, json_formatter

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture
def json_lines():
    """What the ``django.request`` logger writes, through the project's JSON formatter and request-id filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger.removeHandler(handler)


def test_a_requests_log_line_carries_its_request_id(client, db, json_lines):
    response = client.get("/api/v1/users/albert?q=salary", HTTP_X_REQUEST_ID="probe-42")

    (line,) = json_lines()
    assert response.status_code == 401
    assert response["X-Request-ID"] == "probe-42"
    assert line["request_id"] == "probe-42"
    assert line["level"] == "WARNING"
    assert line["logger"] == "django.request"
    assert line["message"] == "Unauthorized: /api/v1/users/…"  # no query string, no user id
    assert line["status_code"] == 401
    assert "request" not in line  # Django's request object: its repr would hold the query string
    assert set(line) == {"timestamp", "level", "logger", "message", "request_id", "trace_id", "status_code"}


def test_a_generated_request_id_is_the_one_the_response_returns(client, db, json_lines):
    response = client.get("/api/v1/no-such-endpoint")

    (line,) = json_lines()
    assert line["request_id"] == response["X-Request-ID"]
    assert len(line["request_id"]) == 32


def test_a_line_logged_outside_any_request_says_so(client, db):
    record = logging.LogRecord("orgmemory", logging.INFO, __file__, 1, "sweep done", (), None)

    RequestIdFilter().filter(record)

    assert record.request_id == NO_REQUEST
    assert record.trace_id is None


def _settings_value(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ORGMEMORY_", "DJANGO_"))}
    base.update(SECRET_KEY="x" * 50, ALLOWED_HOSTS="localhost", ORGMEMORY_EMBEDDED_DB="1", **env)
    code = "from orgmemory import settings; print(settings.ORGMEMORY_LOG_FORMAT)"
    return subprocess.run([sys.executable, "-c", code], cwd=PROJECT, env=base, capture_output=True, text=True)


def test_json_by_default_in_production_text_in_development_and_a_bad_value_refused():
    production = _settings_value(ORGMEMORY_ENV="production")
    development = _settings_value(ORGMEMORY_ENV="development", ORGMEMORY_DATA_DIR=str(PROJECT / ".orgmemory"))
    chosen = _settings_value(ORGMEMORY_ENV="production", ORGMEMORY_LOG_FORMAT="text")
    bad = _settings_value(ORGMEMORY_ENV="production", ORGMEMORY_LOG_FORMAT="xml")

    assert production.stdout.split() == ["json"], production.stderr
    assert development.stdout.split() == ["text"], development.stderr
    assert chosen.stdout.split() == ["text"], chosen.stderr
    assert bad.returncode == 1
    assert "ORGMEMORY_LOG_FORMAT must be json or text, got 'xml'" in bad.stderr


@pytest.mark.slow
def test_production_gunicorn_writes_json_lines_with_the_request_id(transactional_db):
    from bench.servers import free_port, process_stop, production_env

    port = free_port()
    env = production_env(WEB_CONCURRENCY="1", ORGMEMORY_BIND=f"127.0.0.1:{port}", GUNICORN_ACCESSLOG="-")
    env.pop("ORGMEMORY_LOG_FORMAT", None)
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-c", str(PROJECT / "orgmemory" / "gunicorn_conf.py")],
        cwd=PROJECT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read(stream) -> None:
        for line in stream:
            lines.append(line)
            if "after fork" in line:
                ready.set()

    for stream in (server.stdout, server.stderr):
        threading.Thread(target=read, args=(stream,), daemon=True).start()
    try:
        assert ready.wait(240), "".join(lines[-30:])
        response = httpx.get(
            f"http://127.0.0.1:{port}/api/v1/users/albert?q=salary",
            headers={"X-Request-ID": "probe-gunicorn-7"},
            timeout=30,
        )
        assert response.status_code == 401
        deadline = threading.Event()
        for _ in range(50):
            if sum("probe-gunicorn-7" in line for line in lines) >= 2:
                break
            deadline.wait(0.1)
    finally:
        process_stop(server)
    parsed = [json.loads(line) for line in lines if line.startswith("{")]
    tagged = [line for line in parsed if line.get("request_id") == "probe-gunicorn-7"]

    assert len(parsed) == len(lines), [line for line in lines if not line.startswith("{")][:5]  # JSON, every line
    assert {line["logger"] for line in tagged} == {"django.request", "gunicorn.access"}
    for line in tagged:
        assert "albert" not in line["message"] and "salary" not in line["message"]
    print("\n--- production gunicorn, one request's lines ---")
    print("\n".join(json.dumps(line) for line in tagged))
