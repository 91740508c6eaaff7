"""Issue 24's write-path findings, reproduced from outside: replayed ids that crossed projects and users, refused
writes that left project nodes and members behind, one JSON depth limit for every way in, lone surrogates in keys,
and who may search as a member in the playground."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from memories.models import Member, Memory, Policy, Scope
from memories.roles import AUDITOR, CURATOR, TENANT_ADMIN
from memories.services.memory import METADATA_MAX_DEPTH
from orgmemory.api.parsers import MAX_DEPTH
from tests.api.conftest import error_of
from tests.conftest import remember
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db


def nested(depth: int) -> dict:
    """A JSON object ``depth`` levels deep (``{}`` is one level)."""
    value: dict = {}
    for _ in range(depth - 1):
        value = {"k": value}
    return value


def write(api, **body):
    return api.post("/api/v1/memories", {"user_id": "albert", **body}, format="json")


# --- 1. a re-sent event id is looked up only where the request looks -------------------------------------------


def test_a_resent_event_id_outside_its_project_is_a_new_write_not_the_projects_memory(acme, api):
    first = write(api, content="Alpha ships on Fridays.", project="alpha", session_id="s", event_id="e1")
    plain = write(api, content="Plain note of the same event.", session_id="s", event_id="e1")
    beta = write(api, content="Beta note of the same event.", project="beta", session_id="s", event_id="e1")
    again = write(api, content="Alpha ships on Fridays.", project="alpha", session_id="s", event_id="e1")

    assert first.status_code == 201
    assert plain.status_code == 201 and plain.json()["project"] is None
    assert beta.status_code == 201 and beta.json()["project"] == "beta"
    assert len({first.json()["id"], plain.json()["id"], beta.json()["id"]}) == 3
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]  # inside alpha: the replay
    assert "alpha" not in json.dumps([plain.json(), beta.json()])


def test_a_teammate_replaying_a_team_projects_event_id_without_the_project_stores_their_own(acme, api):
    first = write(
        api,
        content="Team alpha deploys on Tuesdays.",
        scope="team:platform",
        project="alpha",
        session_id="s",
        event_id="e2",
    )
    bea = api.post(
        "/api/v1/memories",
        {"user_id": "bea", "content": "Bea's own note.", "scope": "team:platform", "session_id": "s", "event_id": "e2"},
        format="json",
    )

    assert first.status_code == 201
    assert bea.status_code == 201
    assert bea.json()["id"] != first.json()["id"] and bea.json()["project"] is None
    assert Memory.objects.get(pk=bea.json()["id"]).content == "Bea's own note."


# --- 8. source_id_conflict told who used an id anywhere in the tenant --------------------------------------------


def test_an_event_id_used_in_another_users_private_memory_is_answered_as_a_miss(acme, api):
    remember(acme, "Bea's private salary note.", user="bea", source_session="s", source_event_id="e3")

    response = write(api, content="Albert's note.", session_id="s", event_id="e3")
    unused = write(api, content="Albert's other note.", session_id="s", event_id="never-used")

    assert response.status_code == unused.status_code == 201
    assert set(response.json()) == set(unused.json())
    assert Memory.objects.get(pk=response.json()["id"]).content == "Albert's note."


# --- 2. a refused write never creates its project node ------------------------------------------------------------


def test_a_write_whose_event_id_another_user_holds_stores_into_its_project_and_leaves_no_stray_node(acme, api):
    remember(acme, "Bea's private note.", user="bea", source_session="s", source_event_id="e4")

    response = write(api, content="Albert's project note.", project="newproj", session_id="s", event_id="e4")

    assert response.status_code == 201
    node = Scope.objects.get(tenant=acme, level="project", key="newproj")
    assert list(Memory.objects.filter(scope=node).values_list("pk", flat=True)) == [response.json()["id"]]


def test_an_import_line_refused_by_the_service_leaves_no_project_node(acme, tmp_path, capsys):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=100)
    lines = [
        {"user_id": "albert", "content": "x" * 500, "project": "ghost", "external_id": "big"},
        {"user_id": "albert", "content": "A small line.", "project": "kept", "external_id": "small"},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")

    call_command("import_memories", str(path), "--tenant", "acme")

    assert not Scope.objects.filter(tenant=acme, level="project", key="ghost").exists()
    assert Memory.objects.filter(tenant=acme, external_id="small", scope__key="kept").count() == 1
    assert not Memory.objects.filter(tenant=acme, external_id="big").exists()


# --- 3. a refused write never provisions a member -----------------------------------------------------------------


@pytest.fixture
def provisioning(acme):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True, max_content_bytes=200)
    return acme


def refused_writes():
    return [
        ("413 content", {"content": "x" * 500}, 413),
        ("400 project", {"content": "x", "scope": "org:acme", "project": "p"}, 400),
        ("400 depth", {"content": "x", "metadata": nested(METADATA_MAX_DEPTH + 1)}, 400),
        ("403 chain", {"content": "x", "scope": "team:sales"}, 403),
        ("404 scope", {"content": "x", "scope": "team:nope"}, 404),
        ("batch 413", {"memories": [{"content": "fine"}, {"content": "x" * 500}]}, 413),
    ]


@pytest.mark.parametrize("label,body,status", refused_writes(), ids=[case[0] for case in refused_writes()])
def test_a_refused_write_provisions_no_member(provisioning, api, label, body, status):
    response = api.post("/api/v1/memories", {"user_id": "newbie", **body}, format="json")

    assert response.status_code == status, response.json()
    error_of(response)
    assert not Member.objects.filter(tenant=provisioning, user_id="newbie").exists()
    assert not Scope.objects.filter(tenant=provisioning, key="newbie").exists()


def test_a_refused_session_provisions_no_member_and_an_accepted_one_does(provisioning, api):
    refused = api.post(
        "/api/v1/sessions",
        {"user_id": "newbie", "session_id": "s1", "events": [{"id": "e1", "text": "x" * 500}]},
        format="json",
    )
    left = Member.objects.filter(tenant=provisioning, user_id="newbie").exists()
    accepted = api.post(
        "/api/v1/sessions",
        {"user_id": "newbie", "session_id": "s1", "events": [{"id": "e1", "text": "A short turn."}]},
        format="json",
    )

    assert refused.status_code == 413 and not left
    assert accepted.status_code == 201
    member = Member.objects.get(tenant=provisioning, user_id="newbie")
    assert Memory.objects.get(pk=accepted.json()["memory_ids"][0]).author_member_id == member.pk


def test_an_accepted_write_provisions_the_member_at_their_own_node(provisioning, api):
    response = api.post("/api/v1/memories", {"user_id": "newbie", "content": "Hello."}, format="json")

    assert response.status_code == 201
    assert response.json()["scope"]["tag"] == "user:newbie"
    assert Member.objects.get(tenant=provisioning, user_id="newbie").scope.tag == "user:newbie"


# --- 7. one JSON depth limit for REST, MCP and import -------------------------------------------------------------


def test_the_metadata_depth_limit_leaves_room_for_a_batch_items_envelope():
    assert METADATA_MAX_DEPTH + 3 < MAX_DEPTH  # body › memories › item › metadata


def test_metadata_at_the_limit_is_accepted_by_rest_and_round_trips_through_import(acme, api, tmp_path):
    deep = write(api, content="Deep metadata.", metadata=nested(METADATA_MAX_DEPTH))
    batch = api.post(
        "/api/v1/memories",
        {"user_id": "albert", "memories": [{"content": "Deep in a batch.", "metadata": nested(METADATA_MAX_DEPTH)}]},
        format="json",
    )
    too_deep = write(api, content="Too deep.", metadata=nested(METADATA_MAX_DEPTH + 1))
    line = {
        "user_id": "albert",
        "content": "Imported deep.",
        "metadata": nested(METADATA_MAX_DEPTH),
        "external_id": "d",
    }
    over = {"user_id": "albert", "content": "Imported too deep.", "metadata": nested(METADATA_MAX_DEPTH + 1)}
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(over) + "\n")

    call_command("import_memories", str(path), "--tenant", "acme")

    assert deep.status_code == 201 and batch.status_code == 201
    assert too_deep.status_code == 400 and error_of(too_deep)["code"] == "too_deep"
    assert Memory.objects.get(tenant=acme, external_id="d").metadata == nested(METADATA_MAX_DEPTH)
    assert not Memory.objects.filter(content="Imported too deep.").exists()


def test_export_then_import_keeps_a_memory_the_api_accepted_at_depth_25(acme, api, tmp_path):
    response = write(api, content="Twenty-five deep.", metadata=nested(25))
    exported = tmp_path / "out.jsonl"
    call_command("export_memories", "--tenant", "acme", "--output", str(exported))
    Memory.objects.filter(pk=response.json()["id"]).delete()

    call_command("import_memories", str(exported), "--tenant", "acme")

    assert response.status_code == 201
    assert Memory.objects.get(tenant=acme, content="Twenty-five deep.").metadata == nested(25)


# --- 9. lone surrogates in keys are a 400, not a 500 --------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        '{"user_id": "albert", "content": "x", "metadata": {"\\ud800": 1}}',
        '{"user_id": "albert", "content": "x", "\\udfff": 1}',
        '{"user_id": "albert", "memories": [{"content": "x", "metadata": {"a\\ud83d": 1}}]}',
    ],
    ids=["metadata key", "unknown body key", "batch metadata key"],
)
def test_a_lone_surrogate_in_a_key_is_a_400_in_the_error_shape(acme, api, raw):
    response = api.post("/api/v1/memories", raw.encode(), content_type="application/json")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_encoding"
    assert "\\ud" in error["message"] or "\\U" in error["message"] or "\\x" in error["message"]
    assert not Memory.objects.filter(tenant=acme).exists()


# --- 8. the playground: who may search as a member ----------------------------------------------------------------


@pytest.fixture
def private_and_shared(acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        remember(acme, "Bea's private note about the Zephyr bonus.", user="bea")
        remember(acme, "The platform team runs Zephyr on Kubernetes.", scope="team:platform")


def playground_as_bea(client, acme, role):
    client.force_login(StaffUserFactory(tenants=[acme], groups=[role]))
    response = client.get("/admin/search/", {"tenant": acme.pk, "user_id": "bea", "query": "Zephyr", "top_k": 10})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("role", [AUDITOR, CURATOR])
def test_an_auditor_or_curator_searches_as_a_member_without_their_private_memories(
    client, acme, private_and_shared, role
):
    html = playground_as_bea(client, acme, role)

    assert "The platform team runs Zephyr on Kubernetes." in html
    assert "private note" not in html
    assert "private memories are left out" in html


def test_a_tenant_admin_searches_as_a_member_with_their_private_memories(client, acme, private_and_shared):
    html = playground_as_bea(client, acme, TENANT_ADMIN)

    assert "Bea&#x27;s private note about the Zephyr bonus." in html or "Bea's private note" in html
    assert "The platform team runs Zephyr on Kubernetes." in html
    assert "private memories are left out" not in html
