"""Finding 11: production fails closed on the database (no silent embedded fallback with trust auth), HTTPS
settings come from the environment (on by default in production), and X-Forwarded-Proto is trusted only when
ORGMEMORY_TRUST_PROXY=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "memory.example.com"}
EXTERNAL_DB = {"DATABASE_URL": "postgresql://om:pw@db.internal:5432/orgmemory"}
_CLEARED = {
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "ORGMEMORY_ENV",
    "DATABASE_URL",
    "ORGMEMORY_EMBEDDED_DB",
    "ORGMEMORY_TRUST_PROXY",
    "SECURE_HSTS_SECONDS",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
}
_PRINT = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "host": db["HOST"], "embedded": settings.ORGMEMORY_EMBEDDED_DB,
    "hsts": settings.SECURE_HSTS_SECONDS, "redirect": settings.SECURE_SSL_REDIRECT,
    "session_secure": settings.SESSION_COOKIE_SECURE, "csrf_secure": settings.CSRF_COOKIE_SECURE,
    "proxy_header": settings.SECURE_PROXY_SSL_HEADER,
}))
"""


def load(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    base.setdefault("ORGMEMORY_DATA_DIR", str(ROOT / ".orgmemory"))
    return subprocess.run(
        [sys.executable, "-c", _PRINT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**base, **env, "DJANGO_SETTINGS_MODULE": "orgmemory.settings"},
    )


def loaded(**env: str) -> dict:
    result = load(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_without_database_url_fails_closed():
    result = load(**PRODUCTION)

    assert result.returncode != 0
    assert "DATABASE_URL is not set" in result.stderr
    assert "ORGMEMORY_EMBEDDED_DB=1" in result.stderr


def test_production_may_choose_the_embedded_database_explicitly():
    settings = loaded(**PRODUCTION, ORGMEMORY_EMBEDDED_DB="1")

    assert settings["embedded"] is True
    assert settings["host"].startswith("/")  # the embedded server's Unix socket directory


def test_database_url_and_the_embedded_database_together_are_refused():
    result = load(**PRODUCTION, **EXTERNAL_DB, ORGMEMORY_EMBEDDED_DB="1")

    assert result.returncode != 0
    assert "not both" in result.stderr


def test_production_defaults_are_https_only_and_trust_no_proxy():
    settings = loaded(**PRODUCTION, **EXTERNAL_DB)

    assert settings == {
        "host": "db.internal",
        "embedded": False,
        "hsts": 31536000,
        "redirect": True,
        "session_secure": True,
        "csrf_secure": True,
        "proxy_header": None,
    }


def test_the_proxy_header_is_trusted_only_when_asked():
    settings = loaded(**PRODUCTION, **EXTERNAL_DB, ORGMEMORY_TRUST_PROXY="1")

    assert settings["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]  # a tuple, through JSON


def test_https_settings_come_from_the_environment():
    settings = loaded(
        **PRODUCTION,
        **EXTERNAL_DB,
        SECURE_HSTS_SECONDS="600",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="false",
    )

    assert (settings["hsts"], settings["redirect"], settings["session_secure"], settings["csrf_secure"]) == (
        600,
        False,
        False,
        False,
    )


@pytest.mark.parametrize(("name", "value"), [("SECURE_HSTS_SECONDS", "-1"), ("ORGMEMORY_TRUST_PROXY", "maybe")])
def test_bad_values_are_refused(name, value):
    result = load(**PRODUCTION, **EXTERNAL_DB, **{name: value})

    assert result.returncode != 0
    assert name in result.stderr


def test_development_is_plain_http_on_the_embedded_database():
    settings = loaded(ORGMEMORY_ENV="development")

    assert (settings["embedded"], settings["hsts"], settings["redirect"], settings["session_secure"]) == (
        True,
        0,
        False,
        False,
    )
    assert settings["proxy_header"] is None
