"""Finding 9 (patterns): a key, user id, level, slug or request id must match whole; ``$`` also accepts a
trailing newline (``alice\\n``), so every pattern is anchored with ``\\A…\\Z``."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from memories.keys import validate_key
from memories.models import Member, Policy, Scope
from memories.orgchart import OrgChartError, parse_org_chart
from memories.services import api_key_create
from orgmemory.errors import ValidationFailed
from tests.api.conftest import error_of

TRAILING = ["alice\n", "alice\r\n", "\nalice", "ali\nce"]


@pytest.fixture
def api(acme):
    _, plain = api_key_create(tenant=acme, name="patterns", permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


@pytest.mark.parametrize("value", TRAILING)
def test_validate_key_refuses_newlines(value):
    with pytest.raises(ValidationFailed):
        validate_key(value, field="user_id")


def test_validate_key_still_accepts_a_plain_key():
    assert validate_key("alice.b+c@x-y_z", field="user_id") == "alice.b+c@x-y_z"


@pytest.mark.parametrize(
    "chart",
    [
        'tenant: {slug: acme, name: A}\nlevels: [org, user]\ntree:\n  - {level: org, key: "acme\\n", members: [a]}\n',
        'tenant: {slug: acme, name: A}\nlevels: [org, user]\ntree:\n  - {level: org, key: acme, members: ["a\\n"]}\n',
        'tenant: {slug: "acme\\n", name: A}\nlevels: [org, user]\ntree:\n  - {level: org, key: acme}\n',
        'tenant: {slug: acme, name: A}\nlevels: [org, "user\\n"]\ntree:\n  - {level: org, key: acme}\n',
    ],
)
def test_org_chart_refuses_trailing_newlines(chart):
    with pytest.raises(OrgChartError):
        parse_org_chart(chart)


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "value"), [("key", "platform\n"), ("level", "team\n")])
def test_scope_model_refuses_trailing_newline(acme, field, value):
    scope = Scope(tenant=acme, level="team", key="newteam", parent=Scope.objects.get(tenant=acme, level="org"))
    setattr(scope, field, value)

    with pytest.raises(ValidationError) as caught:
        scope.full_clean()

    assert field in caught.value.message_dict


@pytest.mark.django_db
def test_member_model_refuses_trailing_newline(acme):
    member = Member.objects.get(tenant=acme, user_id="albert")
    member.user_id = "albert\n"

    with pytest.raises(ValidationError) as caught:
        member.full_clean()

    assert "user_id" in caught.value.message_dict


@pytest.mark.django_db
def test_api_does_not_provision_a_user_id_with_a_newline(acme, api):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)

    response = api.post("/api/v1/memories", {"user_id": "zoe\n", "content": "Zoe likes tea."}, format="json")

    assert response.status_code == 400
    assert error_of(response)["code"] == "validation_error"
    assert not Member.objects.filter(tenant=acme, user_id__startswith="zoe").exists()


@pytest.mark.django_db
def test_api_refuses_a_known_user_id_with_a_trailing_newline(acme, api):
    response = api.get("/api/v1/memories", {"user_id": "albert\n"})

    assert response.status_code == 400
    assert "user_id" in error_of(response)["details"]


@pytest.mark.django_db
def test_request_id_with_a_trailing_newline_is_replaced(acme):
    response = APIClient().get("/api/v1/health", HTTP_X_REQUEST_ID="trace-1\n")

    assert response.status_code == 200
    assert response["X-Request-ID"] != "trace-1\n"
    assert len(response["X-Request-ID"]) == 32
