"""Against a plain PostgreSQL (no pgvector), migrate and start-up fail with one clear message.

The server is ``$ORGMEMORY_TEST_PLAIN_PG_URL`` (started by `.ci/run`) or one the session starts itself (see
tests/services.py); never the machine's own PostgreSQL."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = "lacks the extension 'vector'"


@pytest.fixture
def plain_database_url(plain_pg_url):
    """A fresh database on the plain server."""
    name = f"orgmemory_nopgvector_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(plain_pg_url, autocommit=True) as conn:
        available = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        assert available is None, "this test needs a PostgreSQL *without* pgvector"
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield plain_pg_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(plain_pg_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(args, database_url):
    env = {**os.environ, "DATABASE_URL": database_url, "ORGMEMORY_ENV": "test", "DJANGO_SETTINGS_MODULE": ""}
    env.pop("DJANGO_SETTINGS_MODULE")
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_migrate_names_the_missing_extension_and_the_fix(plain_database_url):
    result = run(["manage.py", "migrate", "--no-input"], plain_database_url)

    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert EXPECTED in output
    assert "install pgvector" in output
    assert "unset DATABASE_URL" in output
    assert output.count(EXPECTED) == 1


def test_start_up_refuses_the_database(plain_database_url):
    wsgi = run(["-c", "import orgmemory.wsgi"], plain_database_url)

    assert wsgi.returncode != 0
    assert EXPECTED in wsgi.stderr
    assert "ImproperlyConfigured" in wsgi.stderr


def test_system_check_reports_it(plain_database_url):
    result = run(["manage.py", "check", "--database", "default"], plain_database_url)

    assert result.returncode != 0
    assert "orgmemory.E001" in result.stderr
    assert EXPECTED in result.stderr
