"""Issue 11, finding 6: an admin-curated team ``policy`` memory (kind ``policy``, written by an admin or an operator
import) is changed or deleted only by an admin user or a key with the ``admin`` permission. An agent's write never
supersedes it: a near-duplicate is stored beside it, with a ``policy_protected`` warning."""

from __future__ import annotations

import pytest

from memories.models import Memory
from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

POLICY = "Every production deploy needs a second reviewer from the platform team before merge"
NEAR = "Every production deploy needs no second reviewer from the platform team before merge now"
AGENT_NEAR = "Every production deploy needs a second reviewer from the platform team before merge today"


@pytest.fixture
def policy(acme) -> Memory:
    return remember(acme, POLICY, scope="team:platform", kind="policy")  # written by an admin


@pytest.fixture
def admin_key(acme, make_client):
    return make_client(acme, permissions=("read", "write", "delete", "admin"))


def test_an_agent_cannot_patch_an_admin_policy(acme, api, policy):
    response = api.patch(f"/api/v1/memories/{policy.pk}", {"user_id": "albert", "content": "No review."}, format="json")

    assert response.status_code == 403
    assert error_of(response)["code"] == "policy_protected"
    assert Memory.objects.get(pk=policy.pk).content == POLICY


def test_an_agent_cannot_delete_an_admin_policy(acme, api, policy):
    response = api.delete(f"/api/v1/memories/{policy.pk}?user_id=albert")

    assert response.status_code == 403
    assert error_of(response)["code"] == "policy_protected"
    assert Memory.objects.filter(pk=policy.pk).exists()


def test_an_agents_delete_by_query_that_matches_an_admin_policy_is_refused_whole(acme, api, policy):
    other = remember(acme, "The platform team reviewer rota is on the wiki.", user="bea", scope="team:platform")

    response = api.post(
        "/api/v1/memories/delete-by-query", {"user_id": "albert", "query": "reviewer", "scope": "team:platform"}
    )

    assert response.status_code == 403
    error = error_of(response)
    assert (error["code"], error["details"]) == ("policy_protected", {"ids": [policy.pk]})
    assert Memory.objects.filter(pk__in=[policy.pk, other.pk]).count() == 2


def test_an_agents_near_duplicate_is_stored_beside_the_policy_not_over_it(acme, api, policy):
    response = api.post(
        "/api/v1/memories", {"user_id": "albert", "content": AGENT_NEAR, "scope": "team:platform", "kind": "policy"}
    )

    assert response.status_code == 201
    body = response.json()
    assert body["supersedes"] is None
    assert [warning["code"] for warning in body["warnings"]] == ["policy_protected"]
    assert body["warnings"][0]["memory_id"] == policy.pk
    assert Memory.objects.get(pk=policy.pk).is_live


def test_a_key_with_the_admin_permission_may_change_supersede_and_delete_it(acme, admin_key, policy):
    patched = admin_key.patch(
        f"/api/v1/memories/{policy.pk}", {"user_id": "albert", "title": "Deploy reviews"}, format="json"
    )
    superseding = admin_key.post(
        "/api/v1/memories", {"user_id": "albert", "content": AGENT_NEAR, "scope": "team:platform", "kind": "policy"}
    )
    deleted = admin_key.delete(f"/api/v1/memories/{superseding.json()['id']}?user_id=albert")

    assert patched.status_code == 200
    assert superseding.json()["supersedes"] == policy.pk
    assert deleted.status_code == 200
    assert not Memory.objects.filter(pk=policy.pk).exists()  # its history went with the newer version


def test_an_agent_may_still_change_a_policy_an_agent_wrote(acme, api):
    own = remember(acme, "Platform standups are async on Fridays.", user="bea", scope="team:platform", kind="policy")

    response = api.patch(f"/api/v1/memories/{own.pk}", {"user_id": "albert", "title": "Standups"}, format="json")

    assert response.status_code == 200


def test_an_agent_may_still_change_an_admin_fact(acme, api):
    fact = remember(acme, "The platform team owns the CI runners.", scope="team:platform")

    response = api.patch(f"/api/v1/memories/{fact.pk}", {"user_id": "albert", "title": "CI"}, format="json")

    assert response.status_code == 200


def test_an_agent_cannot_delete_a_curated_policy_through_the_newer_version_that_superseded_it(
    acme, api, admin_key, policy
):
    """A key with `admin` replaced the policy through an agent write; deleting that newer version would take the
    curated one with it (history goes with the memory it led to), so a plain agent may not."""
    newer = admin_key.post(
        "/api/v1/memories",
        {"user_id": "albert", "content": AGENT_NEAR, "scope": "team:platform", "kind": "policy", "session_id": "s9"},
    ).json()
    assert newer["supersedes"] == policy.pk

    single = api.delete(f"/api/v1/memories/{newer['id']}?user_id=albert")
    by_query = api.post(
        "/api/v1/memories/delete-by-query", {"user_id": "albert", "query": "reviewer today", "scope": "team:platform"}
    )
    session = api.delete("/api/v1/sessions/s9?user_id=albert")

    assert [single.status_code, by_query.status_code, session.status_code] == [403, 403, 403]
    assert {error_of(response)["code"] for response in (single, by_query, session)} == {"policy_protected"}
    assert Memory.objects.filter(pk__in=[policy.pk, newer["id"]]).count() == 2
    assert admin_key.delete(f"/api/v1/memories/{newer['id']}?user_id=albert").status_code == 200
