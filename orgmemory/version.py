"""The one version number: the installed package's metadata (pyproject.toml's ``version``), which ``/health`` and
the OpenAPI document both report."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path


def _version() -> str:
    try:
        return metadata.version("orgmemory")
    except metadata.PackageNotFoundError:  # a checkout used without `pip install -e .`
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        return tomllib.loads(pyproject.read_text())["project"]["version"]


VERSION = _version()
