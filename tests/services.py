"""The servers some tests need besides the embedded database: a plain PostgreSQL (no pgvector) and a Redis.

`.ci/run` starts both on free ports in a temporary folder and exports their URLs (``ORGMEMORY_TEST_PLAIN_PG_URL``,
``ORGMEMORY_TEST_REDIS_URL``). Without those variables a local run starts the same servers itself, once per
session, on free ports in a temporary folder, and stops them at the end; the machine's own services (5432, 6379)
are never used. Under ``CI=true`` a missing server fails the test instead of skipping it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench import servers as benchserver
from bench.servers import free_port

PLAIN_PG_URL_VARIABLE = "ORGMEMORY_TEST_PLAIN_PG_URL"
REDIS_URL_VARIABLE = "ORGMEMORY_TEST_REDIS_URL"


def unavailable(reason: str) -> None:
    """A server a test needs is missing: a failure in CI (nothing may be skipped there), a skip locally."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (.ci/run installs and starts it)")
    pytest.skip(reason)


def postgres_bindir() -> Path | None:
    """The newest Debian PostgreSQL server's bin directory (postgresql-NN), or None."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(candidates[-1]).parent if candidates else None


def _as_unprivileged(args: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root; CI runs as root
    if os.geteuid() != 0:
        return args
    user = "postgres" if _user_exists("postgres") else "nobody"
    return ["runuser", "-u", user, "--", *args]


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextlib.contextmanager
def plain_postgres_server() -> Iterator[str]:
    """initdb + pg_ctl a throwaway cluster on a free port; yields its ``postgres`` database URL."""
    bindir = postgres_bindir()
    if bindir is None:
        unavailable("no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql-15)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="orgmemory-plain-pg-") as folder:
        if os.geteuid() == 0:
            user = "postgres" if _user_exists("postgres") else "nobody"
            shutil.chown(folder, user=user)
        data = f"{folder}/data"
        subprocess.run(
            _as_unprivileged([str(bindir / "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_unprivileged([str(bindir / "pg_ctl"), "-D", data, "-o", options, "-l", f"{folder}/log", "-w", "start"]),
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                _as_unprivileged([str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"]),
                check=False,
                capture_output=True,
            )


@contextlib.contextmanager
def redis_server(*, port: int | None = None) -> Iterator[str]:
    """A throwaway ``redis-server`` (no persistence) on ``port`` (default: a free one); yields its URL."""
    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed (apt-get install redis-server)")
    with benchserver.redis_server(port=port) as url:
        yield url


def server_url(variable: str, start: Callable[[], contextlib.AbstractContextManager[str]]) -> Iterator[str]:
    """The URL of a server a session fixture provides: ``$variable`` when set (``.ci/run`` starts the server and
    exports it), else a server from ``start()`` for as long as the fixture lives. Under ``CI=true`` the variable
    must be set: a server started behind the CI's back would hide a broken ``.ci/run``."""
    url = os.environ.get(variable, "").strip()
    if url:
        yield url
        return
    if os.environ.get("CI"):
        pytest.fail(f"{variable} is not set (.ci/run starts the server and sets it)")
    with start() as started:
        yield started


@pytest.fixture(scope="session")
def plain_pg_url() -> Iterator[str]:
    """A PostgreSQL server *without* pgvector: ``$ORGMEMORY_TEST_PLAIN_PG_URL`` or one started for the session."""
    yield from server_url(PLAIN_PG_URL_VARIABLE, plain_postgres_server)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis for the broker tests: ``$ORGMEMORY_TEST_REDIS_URL`` or one started for the session."""
    yield from server_url(REDIS_URL_VARIABLE, redis_server)
