"""Production settings fail closed; development generates what it needs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**env):
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "ORGMEMORY_ENV"}}
    base.update({"ORGMEMORY_DATA_DIR": os.environ.get("ORGMEMORY_DATA_DIR", str(ROOT / ".orgmemory")), **env})
    code = (
        "import django; from django.conf import settings; django.setup(); print(settings.DEBUG, settings.ALLOWED_HOSTS)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**base, "DJANGO_SETTINGS_MODULE": "orgmemory.settings"},
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "SECRET_KEY is not set"),
        ({"SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS is not set"),
        ({"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "memory.example.com", "DEBUG": "1"}, "DEBUG must be off"),
        ({"ORGMEMORY_ENV": "staging"}, "ORGMEMORY_ENV must be production, development or test"),
        ({"ORGMEMORY_ENV": "development", "DEBUG": "maybe"}, "DEBUG must be a boolean"),
    ],
)
def test_production_fails_closed(env, message):
    result = load_settings(**env)

    assert result.returncode != 0
    assert message in result.stderr


def test_production_with_its_variables_starts_with_debug_off():
    result = load_settings(
        SECRET_KEY="x" * 50, ALLOWED_HOSTS="memory.example.com", DATABASE_URL="postgresql://om@db.internal/orgmemory"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False ['memory.example.com']"


def test_development_generates_a_secret_and_allows_localhost_with_debug_off():
    """No technical 500 pages (settings, request, local variables) unless asked for, in development too."""
    result = load_settings(ORGMEMORY_ENV="development")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False ['127.0.0.1', 'localhost', 'testserver']"


def test_development_turns_debug_on_only_when_asked():
    result = load_settings(ORGMEMORY_ENV="development", DEBUG="1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True ['127.0.0.1', 'localhost', 'testserver']"
