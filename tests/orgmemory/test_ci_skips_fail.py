"""Under CI=true a skipped test fails the run (tests/conftest.py hooks); elsewhere a skip is only reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

A_SKIP = """
import pytest

def test_runs():
    assert True

def test_needs_something_missing():
    pytest.skip("no such server")
"""


def run_pytest(folder: Path, *, ci: bool) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        # the project's hooks as a plugin, on a test file outside the suite; no Django needed
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:django", "-p", "no:cacheprovider",
         "--rootdir", str(folder), str(folder / "test_a_skip.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "test_a_skip.py").write_text(A_SKIP)
    return tmp_path


def test_a_skip_fails_the_run_under_ci(folder):
    result = run_pytest(folder, ci=True)

    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout
    assert "1 passed, 1 skipped" in result.stdout
    assert "CI=true: 1 skipped test(s) fail the run" in result.stdout
    assert "test_a_skip.py::test_needs_something_missing: Skipped: no such server" in result.stdout


def test_a_skip_is_only_reported_outside_ci(folder):
    result = run_pytest(folder, ci=False)

    assert result.returncode == pytest.ExitCode.OK, result.stdout
    assert "1 passed, 1 skipped" in result.stdout
    assert "fail the run" not in result.stdout
