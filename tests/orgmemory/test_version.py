"""One version: /health and the OpenAPI document both report the package's (pyproject.toml's, via its metadata)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import yaml

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_health_and_openapi_report_the_package_version(client, db):
    version = tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    assert metadata.version("orgmemory") == version

    health = client.get("/api/v1/health")
    schema = yaml.safe_load(client.get("/api/schema/").content)

    assert health.json()["version"] == version
    assert schema["info"]["version"] == version
