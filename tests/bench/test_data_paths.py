"""The benchmark data lives outside the repository: a command takes its folder as an argument or from
``ORGMEMORY_BENCH_DATA`` and refuses clearly when neither names a folder (no default outside the repository)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.data import DATA_VARIABLE
from tests.bench.test_eval_extraction import _write_world


@pytest.fixture(autouse=True)
def no_data_variable(monkeypatch):
    monkeypatch.delenv(DATA_VARIABLE, raising=False)


@pytest.mark.parametrize("command", ["eval_retrieval", "eval_extraction"])
def test_without_a_folder_the_command_says_how_to_give_one(command):
    with pytest.raises(CommandError, match=f"as an argument, or set {DATA_VARIABLE}"):
        call_command(command)


@pytest.mark.parametrize("command", ["eval_retrieval", "eval_extraction"])
def test_a_missing_folder_is_refused(command, tmp_path):
    with pytest.raises(CommandError, match="is not a folder"):
        call_command(command, str(tmp_path / "missing"))


def test_bench_embedder_refuses_a_missing_folder_before_starting_an_embedder(tmp_path):
    with pytest.raises(CommandError, match="is not a folder"):
        call_command("bench_embedder", bench=str(tmp_path / "missing"))


def test_the_variable_names_the_data_folder(tmp_path, monkeypatch):
    (tmp_path / "world-v1").mkdir()
    _write_world(tmp_path / "world-v1")
    monkeypatch.setenv(DATA_VARIABLE, str(tmp_path))
    out = StringIO()

    call_command("eval_extraction", json=True, stdout=out)

    assert json.loads(out.getvalue())["pages"] == 4


def test_an_argument_wins_over_the_variable(tmp_path, monkeypatch):
    _write_world(tmp_path)
    monkeypatch.setenv(DATA_VARIABLE, str(tmp_path / "elsewhere"))
    out = StringIO()

    call_command("eval_extraction", str(tmp_path), json=True, stdout=out)

    assert json.loads(out.getvalue())["overall"]["gold"] == 4
