"""Management commands on a `make run` machine: `make run` records its development setup, and manage.py uses the
record when ORGMEMORY_ENV is unset; without the record the production default still fails closed. And a
backgrounded server (SIGINT inherited as ignored, as a script's `make run &` starts it) stops on SIGINT."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from orgmemory.env import LOCAL_RUN_FILE, apply_local_run, write_local_run

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = "from django.conf import settings; print(settings.ORGMEMORY_ENV, settings.ORGMEMORY_DATA_DIR)"


def test_no_record_changes_nothing(tmp_path):
    environ = {}
    assert apply_local_run(tmp_path, environ) is None
    assert environ == {}


def test_the_record_gives_development_and_the_data_folder(tmp_path):
    base, data = tmp_path / "checkout", tmp_path / "elsewhere"
    written = write_local_run(base_dir=base, data_dir=data)
    assert set(written) == {base / ".orgmemory" / LOCAL_RUN_FILE, data / LOCAL_RUN_FILE}

    environ = {}  # nothing set: the project's default folder points at the custom data folder
    assert apply_local_run(base, environ) == base / ".orgmemory" / LOCAL_RUN_FILE
    assert environ == {"ORGMEMORY_ENV": "development", "ORGMEMORY_DATA_DIR": str(data.resolve())}

    environ = {"ORGMEMORY_DATA_DIR": str(data)}  # the data folder given: its own record
    assert apply_local_run(tmp_path / "another-checkout", environ) == data / LOCAL_RUN_FILE
    assert environ == {"ORGMEMORY_ENV": "development", "ORGMEMORY_DATA_DIR": str(data)}


@pytest.mark.parametrize("mode", ["production", "development", "test"])
def test_an_explicit_mode_wins_over_the_record(tmp_path, mode):
    write_local_run(base_dir=tmp_path, data_dir=tmp_path / ".orgmemory")
    environ = {"ORGMEMORY_ENV": mode}
    assert apply_local_run(tmp_path, environ) is None
    assert environ == {"ORGMEMORY_ENV": mode}


@pytest.mark.parametrize(
    "text",
    ["ORGMEMORY_ENV=production\n", "ORGMEMORY_ENV=development\nSECRET_KEY=x\n", "ORGMEMORY_DATA_DIR=/tmp/x\n"],
)
def test_a_record_that_is_not_a_development_run_is_refused(tmp_path, text):
    (tmp_path / ".orgmemory").mkdir()
    (tmp_path / ".orgmemory" / LOCAL_RUN_FILE).write_text(text)
    environ = {}
    with pytest.raises(ImproperlyConfigured):
        apply_local_run(tmp_path, environ)
    assert "ORGMEMORY_ENV" not in environ


def _manage_env(data_dir: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"ORGMEMORY_ENV", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(ORGMEMORY_DATA_DIR=str(data_dir), HF_HUB_OFFLINE="1", **extra)
    return env


def test_manage_py_fails_closed_without_the_record_and_runs_as_pasted_with_it(tmp_path):
    # a database URL, so that settings never start an embedded server here (the shell below does not connect)
    env = _manage_env(tmp_path, DATABASE_URL="postgresql://nobody@127.0.0.1:9/none", ALLOWED_HOSTS="")
    command = [sys.executable, "manage.py", "shell", "-c", PRINT_SETTINGS]

    refused = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0
    assert "SECRET_KEY is not set" in refused.stderr  # the production default, as before

    write_local_run(base_dir=tmp_path / "checkout", data_dir=tmp_path)
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[-2:] == ["development", str(tmp_path.resolve())]
    assert (tmp_path / "secret_key").is_file()  # the development secret, kept in the recorded data folder


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.django_db
def test_a_backgrounded_runserver_stops_on_sigint(tmp_path):
    db = connection.settings_dict
    env = _manage_env(
        tmp_path,
        ORGMEMORY_ENV="test",
        DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
        PYTHONUNBUFFERED="1",
    )
    port = _free_port()
    log = tmp_path / "runserver.log"

    def ignore_sigint():  # what a shell without job control does to `make run &`
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"],  # with the autoreloader, as make run
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            preexec_fn=ignore_sigint,
            start_new_session=True,
        )
    try:
        while "Quit the server with" not in log.read_text():
            assert server.poll() is None, log.read_text()
            try:
                server.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C, or kill -INT -- -PGID
        returncode = server.wait(timeout=120)  # a hang guard: without the fix the server ignores SIGINT for ever
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert returncode is not None
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0, "the server still listens"
