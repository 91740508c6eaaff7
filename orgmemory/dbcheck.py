"""The database must offer pgvector (``vector``) and ``pg_trgm``; say so clearly when it does not."""

from __future__ import annotations

from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.db import connections

REQUIRED_EXTENSIONS = ("vector", "pg_trgm")

_FIX = {
    "vector": (
        "install pgvector on that server (https://github.com/pgvector/pgvector, package postgresql-NN-pgvector), "
        "or unset DATABASE_URL to use the embedded PostgreSQL that ships with pgvector"
    ),
    "pg_trgm": "install the PostgreSQL contrib package on that server (pg_trgm is part of contrib)",
}


def missing_extensions(using: str = "default") -> list[str]:
    """Names of required extensions that the server can neither find installed nor install."""
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT name FROM pg_available_extensions WHERE name = ANY(%s)", [list(REQUIRED_EXTENSIONS)])
        available = {row[0] for row in cursor.fetchall()}
    return [name for name in REQUIRED_EXTENSIONS if name not in available]


def describe_missing(missing: list[str], using: str = "default") -> str:
    settings_dict = connections[using].settings_dict
    where = f"{settings_dict.get('HOST') or 'localhost'}:{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}"
    parts = [f"the PostgreSQL server at {where} lacks the extension {name!r} — fix: {_FIX[name]}" for name in missing]
    return "OrgMemory cannot use this database: " + "; ".join(parts) + "."


def require_extensions(using: str = "default") -> None:
    """Raise ImproperlyConfigured naming each missing extension and its fix."""
    missing = missing_extensions(using)
    if missing:
        raise ImproperlyConfigured(describe_missing(missing, using))


@checks.register(checks.Tags.database)
def extensions_check(app_configs=None, databases=None, **kwargs):
    """Runs with ``migrate`` and ``check --database default``."""
    errors = []
    for alias in databases or []:
        missing = missing_extensions(alias)
        if missing:
            errors.append(checks.Error(describe_missing(missing, alias), id="orgmemory.E001"))
    return errors
