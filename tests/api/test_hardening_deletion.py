"""Issue 11, finding 3: deleting a memory never brings back the older version it superseded, on every delete path
(one memory, delete-by-query, session delete, user erasure, the admin, a plain queryset or scope delete).

The rule (docs/ARCHITECTURE.md, "Who may change what"): a memory's superseded history is deleted with it."""

from __future__ import annotations

import pytest

from memories.models import Memory, Scope
from memories.services.memory import memory_delete
from tests.conftest import remember

pytestmark = pytest.mark.django_db

VIM = "I use vim as my editor for all my code every day"
EMACS = "I use emacs as my editor for all my code every day"
TEAM_VIM = "The platform team uses vim as the editor for all code reviews every day"
TEAM_EMACS = "The platform team uses emacs as the editor for all code reviews every day"


def live_texts(tenant) -> set[str]:
    return set(Memory.objects.for_tenant(tenant).live().values_list("content", flat=True))


@pytest.fixture
def vim_then_emacs(acme):
    """Albert's "vim" memory, superseded by his near-duplicate "emacs" one."""
    vim = remember(acme, VIM, user="albert")
    emacs = remember(acme, EMACS, user="albert")
    vim.refresh_from_db()
    assert vim.superseded_by_id == emacs.pk  # the precondition: emacs replaced vim
    assert live_texts(acme) == {EMACS}
    return vim, emacs


def assert_forgotten(acme, vim):
    assert VIM not in live_texts(acme)
    assert not Memory.objects.filter(pk=vim.pk).exists()  # the history goes with the memory it led to


def test_delete_by_query_does_not_resurrect_the_older_version(acme, api, vim_then_emacs):
    vim, _ = vim_then_emacs

    response = api.post("/api/v1/memories/delete-by-query", {"user_id": "albert", "query": "emacs"})

    assert response.status_code == 200, response.content
    assert_forgotten(acme, vim)


def test_delete_by_query_dry_run_reports_without_deleting(acme, api, vim_then_emacs):
    vim, emacs = vim_then_emacs

    response = api.post("/api/v1/memories/delete-by-query", {"user_id": "albert", "query": "emacs", "dry_run": True})

    assert response.json()["ids"] == [emacs.pk]
    assert Memory.objects.filter(pk__in=[vim.pk, emacs.pk]).count() == 2


def test_single_delete_does_not_resurrect_the_older_version(acme, api, vim_then_emacs):
    vim, emacs = vim_then_emacs

    response = api.delete(f"/api/v1/memories/{emacs.pk}?user_id=albert")

    assert response.status_code == 200
    assert_forgotten(acme, vim)


def test_session_delete_does_not_resurrect_the_older_version(acme, api):
    vim = remember(acme, VIM, user="albert", kind="event")  # an earlier session's event
    api.post(
        "/api/v1/sessions",
        {"user_id": "albert", "session_id": "s-emacs", "events": [{"id": "e1", "text": EMACS}]},
        format="json",
    )
    vim.refresh_from_db()
    assert vim.superseded_by_id is not None

    response = api.delete("/api/v1/sessions/s-emacs?user_id=albert")

    assert response.json()["deleted"] >= 1
    assert_forgotten(acme, vim)


def test_erasure_does_not_resurrect_another_members_older_team_memory(acme, make_client):
    bea_vim = remember(acme, TEAM_VIM, user="bea", scope="team:platform")
    remember(acme, TEAM_EMACS, user="albert", scope="team:platform")
    bea_vim.refresh_from_db()
    assert bea_vim.superseded_by_id is not None

    response = make_client(acme, permissions=("admin",)).delete("/api/v1/users/albert")

    assert response.status_code == 200
    assert TEAM_VIM not in live_texts(acme)


def test_admin_delete_selected_does_not_resurrect_the_older_version(acme, acme_staff_client, vim_then_emacs):
    vim, emacs = vim_then_emacs

    acme_staff_client.post(
        "/admin/memories/memory/", {"action": "delete_selected", "_selected_action": [emacs.pk], "post": "yes"}
    )

    assert_forgotten(acme, vim)


def test_the_service_and_a_plain_queryset_delete_follow_the_same_rule(acme, vim_then_emacs):
    vim, emacs = vim_then_emacs
    memory_delete(memory=emacs)
    assert_forgotten(acme, vim)

    older = remember(acme, VIM, user="albert")
    newer = remember(acme, EMACS, user="albert")
    Memory.objects.filter(pk=newer.pk).delete()
    assert_forgotten(acme, older)


def test_deleting_the_older_version_leaves_the_newer_one_live(acme, vim_then_emacs):
    vim, emacs = vim_then_emacs

    Memory.objects.filter(pk=vim.pk).delete()

    assert live_texts(acme) == {EMACS}


def test_a_chain_of_versions_goes_with_its_newest(acme):
    first = remember(acme, "Our build cache lives on the nfs share alpha for every project", scope="team:platform")
    second = remember(acme, "Our build cache lives on the nfs share beta for every project", scope="team:platform")
    third = remember(acme, "Our build cache lives on the nfs share gamma for every project", scope="team:platform")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.superseded_by_id, second.superseded_by_id) == (second.pk, third.pk)

    Memory.objects.filter(pk=third.pk).delete()

    assert not Memory.objects.filter(pk__in=[first.pk, second.pk, third.pk]).exists()
    assert Scope.objects.filter(tenant=acme, level="team", key="platform").exists()


def test_deleting_a_scope_deletes_its_memories_and_their_history(acme):
    older = remember(acme, TEAM_VIM, scope="team:data")
    remember(acme, TEAM_EMACS, scope="team:data")

    Scope.objects.get(tenant=acme, level="team", key="data").delete()

    assert not Memory.objects.filter(pk=older.pk).exists()
