"""The bench app is installed in development and test, or when ``ORGMEMORY_BENCH=1`` asks for it, and never in
production: a production deployment has none of its commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "x" * 50,
    "ALLOWED_HOSTS": "memory.example.com",
    "DATABASE_URL": "postgresql://om@db.internal/orgmemory",
}
BENCH_COMMANDS = {"eval_retrieval", "eval_extraction", "eval_recall", "bench_search", "load_corpus", "probe_isolation"}


def installed(**env) -> tuple[bool, set[str]]:
    """(bench installed, the commands manage.py would list) under ``orgmemory.settings`` with ``env``."""
    base = {k: v for k, v in os.environ.items() if k not in {"ORGMEMORY_ENV", "ORGMEMORY_BENCH", "DEBUG"}}
    code = (
        "import django; from django.apps import apps; from django.core.management import get_commands; "
        "django.setup(); print(apps.is_installed('bench')); print(' '.join(sorted(get_commands())))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={
            **base,
            "ORGMEMORY_DATA_DIR": str(ROOT / ".orgmemory"),
            **env,
            "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        },
    )
    assert result.returncode == 0, result.stderr
    flag, commands = result.stdout.strip().splitlines()[-2:]
    return flag == "True", set(commands.split())


def test_the_test_settings_install_it_with_every_bench_command():
    assert apps.is_installed("bench")
    assert {name for name, app in get_commands().items() if app == "bench"} >= BENCH_COMMANDS


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (PRODUCTION, False),
        ({**PRODUCTION, "ORGMEMORY_BENCH": "1"}, True),
        ({**PRODUCTION, "ORGMEMORY_BENCH": "0"}, False),
        ({"ORGMEMORY_ENV": "development"}, True),
    ],
)
def test_production_leaves_it_out_unless_asked(env, expected):
    is_installed, commands = installed(**env)

    assert is_installed is expected
    assert (BENCH_COMMANDS <= commands) is expected
    assert {"create_api_key", "import_memories", "reindex", "search", "mcp"} <= commands  # operators' commands stay
