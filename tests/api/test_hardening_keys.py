"""Issue 11, finding 5: a key restricted to a subtree deletes only inside it, never creates a member it could not
act for, and cannot tell who exists outside it."""

from __future__ import annotations

import pytest

from memories.models import Member, Memory, Policy
from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db


def test_a_key_restricted_to_a_user_deletes_only_their_own_memories_of_a_session(acme, make_client):
    own = remember(acme, "Session note for me only.", user="albert", source_session="s1", source_event_id="e1")
    team = remember(acme, "Session note for the whole team.", user="albert", scope="team:platform", source_session="s1")
    albert_only = make_client(acme, scope="user:albert")

    response = albert_only.delete("/api/v1/sessions/s1?user_id=albert")

    assert response.status_code == 200
    assert response.json() == {"session_id": "s1", "deleted": 1}
    assert not Memory.objects.filter(pk=own.pk).exists()
    assert Memory.objects.filter(pk=team.pk).exists()


def test_a_tenant_wide_key_deletes_the_whole_session(acme, api):
    remember(acme, "Session note for me only.", user="albert", source_session="s1", source_event_id="e1")
    remember(acme, "Session note for the whole team.", user="albert", scope="team:platform", source_session="s1")

    response = api.delete("/api/v1/sessions/s1?user_id=albert")

    assert response.json() == {"session_id": "s1", "deleted": 2}


def test_a_restricted_key_cannot_erase_a_user_whose_memories_reach_outside_its_subtree(acme, make_client):
    remember(acme, "Albert's note on the platform team.", user="albert", scope="team:platform")
    albert_admin = make_client(acme, permissions=["admin"], scope="user:albert")

    response = albert_admin.delete("/api/v1/users/albert")

    assert response.status_code == 403
    assert error_of(response)["code"] == "scope_restricted"
    assert Member.objects.filter(tenant=acme, user_id="albert").exists()
    assert Memory.objects.count() == 1


def test_a_restricted_key_erases_a_user_whose_memories_are_all_inside_its_subtree(acme, make_client):
    remember(acme, "Albert's own note.", user="albert")
    remember(acme, "Albert's note on the platform team.", user="albert", scope="team:platform")
    platform_admin = make_client(acme, permissions=["admin"], scope="team:platform")

    response = platform_admin.delete("/api/v1/users/albert")

    assert response.status_code == 200
    assert response.json()["memories"] == 2


def test_a_restricted_key_never_auto_provisions_and_leaves_no_member_behind(acme, make_client):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)
    data_only = make_client(acme, scope="team:data")

    response = data_only.post("/api/v1/memories", {"user_id": "newcomer", "content": "Hello."}, format="json")
    session = data_only.post(
        "/api/v1/sessions", {"user_id": "newcomer2", "session_id": "s", "events": []}, format="json"
    )

    assert (response.status_code, session.status_code) == (403, 403)
    assert error_of(response)["code"] == "scope_restricted"
    assert not Member.objects.filter(tenant=acme, user_id__in=["newcomer", "newcomer2"]).exists()


def test_a_tenant_wide_key_still_auto_provisions(acme, api):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)

    response = api.post("/api/v1/memories", {"user_id": "newcomer", "content": "Hello."}, format="json")

    assert response.status_code == 201
    assert Member.objects.filter(tenant=acme, user_id="newcomer").exists()


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/memories?user_id={user}", None),
        ("post", "/api/v1/memories", {"user_id": "{user}", "content": "Probe."}),
        ("post", "/api/v1/search", {"user_id": "{user}", "query": "probe"}),
        ("delete", "/api/v1/sessions/s1?user_id={user}", None),
        ("post", "/api/v1/memories/delete-by-query", {"user_id": "{user}", "query": "probe"}),
        ("delete", "/api/v1/users/{user}", None),
    ],
)
def test_a_restricted_key_gets_the_same_answer_for_an_existing_user_outside_and_an_unknown_one(
    acme, make_client, method, path, body
):
    data_only = make_client(acme, permissions=["read", "write", "delete", "admin"], scope="team:data")

    def ask(user: str):
        filled = {
            key: value.format(user=user) if isinstance(value, str) else value for key, value in (body or {}).items()
        }
        call = getattr(data_only, method)
        return call(path.format(user=user), filled, format="json") if body else call(path.format(user=user))

    existing, unknown = ask("carlos"), ask("nobody")

    assert existing.status_code == unknown.status_code == 403
    assert error_of(existing)["code"] == error_of(unknown)["code"] == "scope_restricted"
    assert error_of(existing)["message"].replace("carlos", "X") == error_of(unknown)["message"].replace("nobody", "X")
