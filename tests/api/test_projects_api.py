"""Project sub-scopes through the API (issue 14): `project` on writes, sessions, lists, reads, searches, recall and
deletes; the visibility matrix; bad input (unknown or malformed project, another tenant's) is a clear 4xx that
writes nothing."""

from __future__ import annotations

import pytest

from memories.models import PROJECT_LEVEL, Memory, Scope
from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"
DELETE_BY_QUERY = "/api/v1/memories/delete-by-query"
SEARCH = "/api/v1/search"
RECALL = "/api/v1/recall"
SESSIONS = "/api/v1/sessions"
WORD = "wombat"


def detail(memory_id: int) -> str:
    return f"{MEMORIES}/{memory_id}"


def write(api, text: str, **extra):
    response = api.post(MEMORIES, {"user_id": "albert", "content": f"{text} ({WORD})", **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def listed(api, user_id="albert", **params) -> set[str]:
    response = api.get(MEMORIES, {"user_id": user_id, **params})
    assert response.status_code == 200, response.json()
    return {row["content"].removesuffix(f" ({WORD})") for row in response.json()["results"]}


def searched(api, user_id="albert", **extra) -> set[str]:
    response = api.post(SEARCH, {"user_id": user_id, "query": WORD, "top_k": 50, **extra}, format="json")
    assert response.status_code == 200, response.json()
    return {row["content"].removesuffix(f" ({WORD})") for row in response.json()["results"]}


@pytest.fixture
def written(acme, api):
    """albert: a global memory, one in his project alpha, one in platform's alpha (a team project)."""
    return {
        "global": write(api, "albert global"),
        "alpha": write(api, "albert alpha", project="alpha"),
        "team alpha": write(api, "platform alpha", scope="team:platform", project="alpha"),
    }


def test_a_write_with_a_project_says_so_and_keeps_the_owner_scope(written):
    assert written["alpha"]["scope"]["tag"] == "user:albert" and written["alpha"]["project"] == "alpha"
    assert written["team alpha"]["scope"]["tag"] == "team:platform" and written["team alpha"]["project"] == "alpha"
    assert written["global"]["project"] is None


def test_a_batch_takes_a_default_project_and_per_item_overrides(acme, api):
    response = api.post(
        MEMORIES,
        {
            "user_id": "albert",
            "project": "alpha",
            "memories": [{"content": f"one ({WORD})"}, {"content": f"two ({WORD})", "project": "beta"}],
        },
        format="json",
    )
    assert response.status_code == 201
    assert [row["project"] for row in response.json()["memories"]] == ["alpha", "beta"]


def test_lists_and_searches_see_the_global_memories_plus_only_the_named_project(written, api):
    assert listed(api) == searched(api) == {"albert global"}
    both = {"albert global", "albert alpha", "platform alpha"}
    assert listed(api, project="alpha") == searched(api, project="alpha") == both
    assert listed(api, project="alpha", scope="team:platform") == {"platform alpha"}
    assert searched(api, "bea", project="alpha") == {"platform alpha"}  # albert's own project is not bea's
    row = api.get(MEMORIES, {"user_id": "albert", "project": "alpha", "scope": "user:albert"}).json()["results"]
    assert sorted((r["scope"]["tag"], r["project"] or "") for r in row) == [
        ("user:albert", ""),
        ("user:albert", "alpha"),
    ]


def test_recall_with_a_project(written, api):
    response = api.post(RECALL, {"user_id": "albert", "task": WORD, "budget_chars": 2000, "project": "alpha"})
    assert response.status_code == 200
    assert {item["project"] for item in response.json()["items"]} == {None, "alpha"}


def test_a_project_memory_is_read_changed_and_deleted_only_by_naming_its_project(written, api):
    memory_id = written["alpha"]["id"]
    assert api.get(detail(memory_id), {"user_id": "albert"}).status_code == 404
    assert api.get(detail(memory_id), {"user_id": "albert", "project": "alpha"}).json()["project"] == "alpha"
    hidden = api.delete(f"{detail(memory_id)}?user_id=albert")
    assert hidden.status_code == 404 and Memory.objects.filter(pk=memory_id).exists()
    changed = api.patch(
        detail(memory_id), {"user_id": "albert", "project": "alpha", "content": f"edited ({WORD})"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["project"] == "alpha"
    assert api.delete(f"{detail(memory_id)}?user_id=albert&project=alpha").json() == {"deleted": 1, "ids": [memory_id]}


def test_delete_by_query_without_a_project_keeps_projects_and_with_one_stays_inside_it(written, api):
    plain = api.post(DELETE_BY_QUERY, {"user_id": "albert", "query": WORD}, format="json").json()
    assert plain["ids"] == [written["global"]["id"]] and plain["project"] is None
    inside = api.post(
        DELETE_BY_QUERY,
        {"user_id": "albert", "query": WORD, "scope": "team:platform", "project": "alpha"},
        format="json",
    ).json()
    assert inside["ids"] == [written["team alpha"]["id"]]
    assert (inside["scope"]["tag"], inside["project"]) == ("team:platform", "alpha")
    assert listed(api, project="alpha") == {"albert alpha"}


def test_sessions_write_into_a_project_and_delete_only_what_is_named(acme, api):
    body = {"user_id": "albert", "session_id": "s1", "events": [{"id": "e1", "text": f"in alpha ({WORD})"}]}
    assert api.post(SESSIONS, {**body, "project": "alpha"}, format="json").status_code == 201
    assert listed(api, project="alpha") == {"in alpha"}
    assert api.delete(f"{SESSIONS}/s1?user_id=albert").json()["deleted"] == 0
    assert api.delete(f"{SESSIONS}/s1?user_id=albert&project=alpha").json()["deleted"] == 1


@pytest.mark.parametrize(
    ("method", "path", "payload"),
    [
        ("get", MEMORIES, {"user_id": "albert", "project": "gamma"}),
        ("post", SEARCH, {"user_id": "albert", "query": WORD, "project": "gamma"}),
        ("post", RECALL, {"user_id": "albert", "task": WORD, "budget_chars": 500, "project": "gamma"}),
        ("post", DELETE_BY_QUERY, {"user_id": "albert", "query": WORD, "project": "gamma"}),
    ],
)
def test_an_unknown_project_is_a_404_on_reads_and_deletes(written, api, method, path, payload):
    before = Memory.objects.count()
    response = getattr(api, method)(path, payload, **({"format": "json"} if method == "post" else {}))
    assert response.status_code == 404 and error_of(response)["code"] == "unknown_project"
    assert Memory.objects.count() == before
    assert api.delete(f"{SESSIONS}/s1?user_id=albert&project=gamma").status_code == 404


@pytest.mark.parametrize("bad", ["has space", "../x", "a" * 129, "é"])
def test_a_malformed_project_is_a_400_that_writes_nothing(acme, api, bad):
    projects = Scope.objects.filter(level=PROJECT_LEVEL).count()
    for method, path, payload in [
        ("post", MEMORIES, {"user_id": "albert", "content": "x", "project": bad}),
        ("post", SEARCH, {"user_id": "albert", "query": WORD, "project": bad}),
        (
            "post",
            SESSIONS,
            {"user_id": "albert", "session_id": "s", "project": bad, "events": [{"id": "1", "text": "x"}]},
        ),
        ("get", MEMORIES, {"user_id": "albert", "project": bad}),
    ]:
        response = getattr(api, method)(path, payload, **({"format": "json"} if method == "post" else {}))
        assert response.status_code == 400, (path, response.json())
        error_of(response)
    assert not Memory.objects.exists() and Scope.objects.filter(level=PROJECT_LEVEL).count() == projects


def test_a_project_is_refused_where_it_cannot_hang_and_another_tenants_is_unknown(written, api, globex_api):
    above = api.post(MEMORIES, {"user_id": "albert", "content": "x", "scope": "division:eu", "project": "alpha"})
    assert above.status_code in (400, 403) and not Memory.objects.filter(content="x").exists()
    assert api.post(MEMORIES, {"user_id": "albert", "content": "x", "scope": "project:alpha"}).status_code == 400
    other = globex_api.post(SEARCH, {"user_id": "albert", "query": WORD, "project": "alpha"}, format="json")
    assert other.status_code == 404 and error_of(other)["code"] == "unknown_project"
    assert globex_api.get(detail(written["alpha"]["id"]), {"user_id": "albert", "project": "alpha"}).status_code == 404
