"""The development server (``orgmemory/management/commands/runserver.py``): every accepted TCP connection sends
without Nagle's delay (a keep-alive client would otherwise wait for its own delayed acknowledgement on every call),
and in development the start-up ends with the hand-over block that ``load_demo --handover`` left, taken once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
from django.db import connection

from orgmemory.handover import (
    DEV_PASSWORD_FILE,
    HANDOVER_FILE,
    RULE,
    DemoKey,
    Handover,
    handover_write,
)
from orgmemory.management.commands.runserver import NoDelayWSGIServer

ROOT = Path(__file__).resolve().parents[2]


def _nodelay_of_an_accepted_connection(server_class: type[WSGIServer]) -> int:
    server = server_class(("127.0.0.1", 0), WSGIRequestHandler)
    try:
        with socket.create_connection(server.server_address):
            accepted, _ = server.get_request()
            with accepted:
                return accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        server.server_close()


def test_accepted_connections_send_without_delay():
    assert _nodelay_of_an_accepted_connection(WSGIServer) == 0  # Django's own: Nagle on
    assert _nodelay_of_an_accepted_connection(NoDelayWSGIServer) != 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.django_db
def test_in_development_the_start_up_ends_with_the_block_and_takes_the_handover_once(tmp_path):
    handover_write(
        data_dir=tmp_path,
        handover=Handover(
            tenant="northwind",
            tenant_name="Northwind Logistics",
            loaded="created",
            loaded_at="2026-01-01T00:00:00+00:00",
            memories=188,
            members=32,
            keys=[
                DemoKey(name="support-agent", permissions=["read", "write"], key="om_support_plain"),
                DemoKey(name="ops-admin", permissions=["read", "write", "delete", "admin"], key="om_admin_plain"),
            ],
        ),
    )
    (tmp_path / DEV_PASSWORD_FILE).write_text("pw-for-the-test\n")
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in {"ORGMEMORY_ENV", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(
        ORGMEMORY_ENV="development",
        ORGMEMORY_DATA_DIR=str(tmp_path),
        DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    port = _free_port()
    log = tmp_path / "runserver.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"],  # with the autoreloader, as make run
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120  # readiness of a starting server, not a timing assertion
        while log.read_text().count(RULE) < 2:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)

    lines = log.read_text().splitlines()
    start = lines.index(RULE)
    block = lines[start : lines.index(RULE, start + 1) + 1]
    # last of the start-up: after the server's own lines (what follows is requests, or another start after a reload)
    assert lines.index("Quit the server with CONTROL-C.") < start
    assert lines[start - 1].startswith("For more information on production servers")
    assert block[1] == f"# OrgMemory (development) is at http://127.0.0.1:{port}/"
    assert f"# admin      http://127.0.0.1:{port}/admin/   user admin   password pw-for-the-test" in block
    assert [" ".join(line.split()) for line in block if line.startswith("export ")] == [
        "export KEY=om_support_plain # support-agent: read, write",
        "export ADMIN_KEY=om_admin_plain # ops-admin: read, write, delete, admin",
    ]
    assert not (tmp_path / HANDOVER_FILE).exists()  # taken: the keys stay in the server's memory only
