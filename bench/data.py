"""Where the benchmark data sets live. They are not part of the repository: a command takes the folder as an
argument, or reads ``ORGMEMORY_BENCH_DATA`` (the folder holding ``world-v1/``, ``world-v1-paraphrases/`` and
``associative-recall-v1/``), and says clearly when neither names a folder (docs/BENCHMARKS.md)."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.management.base import CommandError

DATA_VARIABLE = "ORGMEMORY_BENCH_DATA"


def data_folder(given: str | Path | None, *, subfolder: str = "", what: str = "the benchmark data folder") -> Path:
    """``given`` when the command was given a path, else ``$ORGMEMORY_BENCH_DATA/subfolder``; a ``CommandError``
    when neither is set or the folder does not exist."""
    if given is not None and str(given) != "":
        folder = Path(given).expanduser()
    elif os.environ.get(DATA_VARIABLE, "").strip():
        folder = Path(os.environ[DATA_VARIABLE].strip()).expanduser() / subfolder
    else:
        raise CommandError(f"give {what} as an argument, or set {DATA_VARIABLE} to the folder holding the data sets")
    if not folder.is_dir():
        raise CommandError(f"{what} {folder} is not a folder")
    return folder


def optional_data_folder(given: str | Path | None) -> Path | None:
    """Like :func:`data_folder` for a command whose data is optional: ``None`` when neither the argument nor the
    variable names one (a given path must still exist)."""
    if (given is None or str(given) == "") and not os.environ.get(DATA_VARIABLE, "").strip():
        return None
    return data_folder(given)
