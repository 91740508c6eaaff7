"""Schemathesis against ``/api/schema/``: every operation, bounded examples with a fixed seed (derandomized), as
a real key of a real tenant. No response may be a 5xx, every response must match the schema (the documented
status codes and bodies), and every 4xx must be the one error shape."""

from __future__ import annotations

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from memories.models import Member
from memories.services import api_key_create
from memories.services.memory import Author, memory_create

MAX_EXAMPLES = 12  # per operation; ten operations stay well under a minute
ACTING_FOR = "albert"  # a real member, so that requests reach the services instead of stopping at unknown_user


# Loaded from the app itself over WSGI (in-process, so requests see the test's transaction). Loaded at import:
# schemathesis' lazy fixture loader does not work with this pytest; generating the schema needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def in_process_requests(db):
    """Like Django's test client, keep connections open across requests: closing "old" connections at the end of a
    request would close the test's own connection, which is inside a transaction. Throttle counters start empty."""
    cache.clear()
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def bearer(acme) -> dict[str, str]:
    member = Member.objects.select_related("scope").get(tenant=acme, user_id=ACTING_FOR)
    memory_create(tenant=acme, author=Author(kind="agent", member=member), content="Albert deploys Zephyr with Argo.")
    _, plain = api_key_create(tenant=acme, name="schemathesis", permissions=["read", "write", "delete", "admin"])
    return {"Authorization": f"Bearer {plain}"}


def _act_for_a_real_user(case) -> None:
    # unknown user ids are the matrix's business (test_bad_input_matrix); here the bodies get past them
    if isinstance(case.query, dict) and "user_id" in case.query:
        case.query["user_id"] = ACTING_FOR
    if isinstance(case.body, dict) and "user_id" in case.body:
        case.body["user_id"] = ACTING_FOR


def error_shape(ctx, response, case) -> None:
    """Every 4xx is ``{"error": {"code": str, "message": str, "details": ...}}``."""
    if 400 <= response.status_code < 500 and case.method.upper() != "HEAD":
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) == {"code", "message", "details"}, body
        assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str), body


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case, in_process_requests, bearer):
    _act_for_a_real_user(case)

    response = case.call(headers=bearer)

    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, response_schema_conformance])
    error_shape(None, response, case)
