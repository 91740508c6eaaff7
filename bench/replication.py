"""A primary and a streaming hot standby from the embedded PostgreSQL's own binaries (pgserver ships ``initdb``,
``pg_ctl`` and ``pg_basebackup``), on free loopback ports in a throwaway folder: what the replica deployment test
and ``bench_search --replica`` run against. The standby is made with ``pg_basebackup -R`` through a replication
slot, so a standby that was stopped catches up from the primary when it starts again."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.servers import free_port

DATABASE = "orgmemory"


def pg_bindir() -> Path:
    from pgserver._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def _system_user() -> str | None:
    """initdb and postgres refuse to run as root: run them as pgserver's own user (as the embedded server does)."""
    if os.geteuid() != 0:
        return None
    for name in ("pgserver", "postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and no unprivileged user to run PostgreSQL as")


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    user = _system_user()
    command = ["runuser", "-u", user, "--", *args] if user else args
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs)


@dataclass
class Cluster:
    name: str
    data: Path
    port: int
    socket_dir: Path
    options: list[str]

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"

    def url(self, database: str = DATABASE) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = " ".join([f"-p {self.port}", f"-k {self.socket_dir}", "-c listen_addresses=127.0.0.1", *self.options])
        _run([str(pg_bindir() / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start"])

    def stop(self, mode: str = "fast") -> None:
        """``mode="immediate"`` is a crash: every backend is killed, nothing is flushed or checkpointed."""
        with contextlib.suppress(subprocess.CalledProcessError):
            _run([str(pg_bindir() / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def query(self, sql: str, database: str = DATABASE):
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []


@dataclass
class StreamingPair:
    primary: Cluster
    standby: Cluster
    folder: Path

    def replay_lag_bytes(self) -> int:
        """How far the standby's replay is behind the primary's current WAL position, in bytes."""
        current = self.primary.query("SELECT pg_current_wal_lsn()::text")[0][0]
        rows = self.standby.query(f"SELECT pg_wal_lsn_diff('{current}', pg_last_wal_replay_lsn())::bigint")
        return int(rows[0][0])

    def wait_caught_up(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.replay_lag_bytes() > 0:
            if time.monotonic() > deadline:
                raise RuntimeError("the standby did not catch up")
            time.sleep(0.05)


@contextlib.contextmanager
def streaming_pair(*, apply_delay_ms: int = 0) -> Iterator[StreamingPair]:
    """initdb a primary (``wal_level=replica``), create the ``orgmemory`` database, ``pg_basebackup -R`` a standby
    through a slot, start both; ``apply_delay_ms`` holds each commit back on the standby that long
    (``recovery_min_apply_delay``), a replica that visibly lags. Both are stopped and removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="orgmemory-replication-"))
    user = _system_user()
    if user:
        shutil.chown(folder, user=user)
    fast = ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]  # throwaway clusters
    primary = Cluster(
        "primary",
        folder / "primary",
        free_port(),
        folder,
        [*fast, "-c wal_level=replica", "-c max_wal_senders=4", "-c max_replication_slots=4"],
    )
    standby_options = [*fast, "-c hot_standby=on", "-c hot_standby_feedback=on"]
    if apply_delay_ms:
        standby_options.append(f"-c recovery_min_apply_delay={int(apply_delay_ms)}ms")
    standby = Cluster("standby", folder / "standby", free_port(), folder, standby_options)
    try:
        _run([str(pg_bindir() / "initdb"), "-D", str(primary.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        primary.start()
        primary.query(f'CREATE DATABASE "{DATABASE}"', database="postgres")
        _run(
            [
                str(pg_bindir() / "pg_basebackup"),
                *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
                *("-D", str(standby.data), "-R", "-X", "stream", "-c", "fast", "-C", "-S", "standby"),
            ]
        )
        standby.start()
        yield StreamingPair(primary, standby, folder)
    finally:
        standby.stop("immediate")
        primary.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
