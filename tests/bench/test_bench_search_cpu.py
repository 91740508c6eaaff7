"""bench_search's CPU per request: the CPU of processes that exited during a run still counts (a database backend
whose connection closed, a recycled worker), so a run's figure can never fall, let alone below zero."""

from __future__ import annotations

import subprocess
import sys

import psutil

from bench.management.commands.bench_search import _cpu, _reaped


def _burn(seconds: float) -> None:
    """A child of this process that spends ``seconds`` of CPU, exits and is waited for."""
    code = f"import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_child_that_exited_during_a_run_still_counts():
    me = psutil.Process()
    before = _reaped(me) + sum(_cpu(child) for child in me.children())

    _burn(0.3)

    after = _reaped(me) + sum(_cpu(child) for child in me.children())
    assert after - before >= 0.25  # without the reaped children the exited child's 0.3 s were not counted
