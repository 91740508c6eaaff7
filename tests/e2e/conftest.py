"""End-to-end fixtures: a tenant and an API key in a transactional database, served by pytest-django's live
server (indexing runs inline after commit: a memory is searchable as soon as its POST returns)."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ACME_CHART, onboard


@pytest.fixture
def e2e_tenant(transactional_db):
    """Acme (see tests/conftest.py): albert and bea in team:platform, dora in team:data, carlos in team:sales."""
    from memories.services.access import access_flush

    yield onboard(ACME_CHART)
    # searches record accesses from a background thread: let it finish before the tables are flushed
    access_flush()


@pytest.fixture
def e2e_api_key(e2e_tenant) -> str:
    """The plain text of a read/write/delete key of the e2e tenant."""
    from memories.services import api_key_create

    _, plain = api_key_create(tenant=e2e_tenant, name="adk-e2e", permissions=["read", "write", "delete"])
    return plain


@pytest.fixture
def orgmemory_env(live_server, e2e_api_key, monkeypatch) -> str:
    """``ORGMEMORY_URL`` / ``ORGMEMORY_API_KEY`` pointing at the live server; returns the URL."""
    monkeypatch.setenv("ORGMEMORY_URL", live_server.url)
    monkeypatch.setenv("ORGMEMORY_API_KEY", e2e_api_key)
    # the first search of the process loads the embedding model (seconds): not inside a client's 10 s timeout
    warm_up = httpx.post(
        f"{live_server.url}/api/v1/search",
        json={"user_id": "albert", "query": "warm up"},
        headers={"Authorization": f"Bearer {e2e_api_key}"},
        timeout=300,
    )
    warm_up.raise_for_status()
    return live_server.url
