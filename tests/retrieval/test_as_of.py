"""As of, through the API on real PostgreSQL: search, recall and the memory list see the memories as they stood at
``as_of`` — valid then (open ends unbounded), recorded by then, not yet superseded then — in every arm's SQL, within
the statement budget; without it nothing ended, not yet begun or superseded. Other tenants and scopes never leak.
Questions naming a time window boost the memories dated inside it; "when" questions get a cited date answer."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories.models import Memory
from memories.services.memory import Author, memory_create
from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

SEARCH = "/api/v1/search"
RECALL = "/api/v1/recall"
MEMORIES = "/api/v1/memories"
ADMIN = Author(kind="admin", label="curator")


@pytest.fixture(autouse=True)
def _no_access_recording(monkeypatch):
    """Access tracking's background recorder cannot see the test's uncommitted rows: left out."""
    monkeypatch.setattr("retrieval.services.access_schedule", lambda *, memory_ids: None)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def stamp(memory: Memory, **fields) -> Memory:
    """Set times the write path stamps itself (created_at, superseded_at) as a history would have them."""
    Memory.objects.filter(pk=memory.pk).update(**fields)
    return Memory.objects.get(pk=memory.pk)


def found(client, query, user="albert", **extra) -> list[str]:
    response = client.post(SEARCH, {"user_id": user, "query": query, "top_k": 20, **extra}, format="json")
    assert response.status_code == 200, response.json()
    return [row["content"] for row in response.json()["results"]]


@pytest.fixture
def deploy_history(acme, django_capture_on_commit_callbacks):
    """The platform team's deploy day: Tuesday from January 2025, changed to Thursday on 1 March 2025."""
    with django_capture_on_commit_callbacks(execute=True):
        old = memory_create(
            tenant=acme, author=ADMIN, content="Zephyr deploys happen on Tuesday.", scope="team:platform"
        ).memory
        new = memory_create(
            tenant=acme, author=ADMIN, content="Zephyr releases now ship every Thursday.", scope="team:platform"
        ).memory
    old = stamp(old, created_at=at("2025-01-05"), superseded_by=new, superseded_at=at("2025-03-01"))
    new = stamp(new, created_at=at("2025-03-01"))
    return old, new


@pytest.mark.parametrize(
    ("as_of", "expected"),
    [
        (None, ["Zephyr releases now ship every Thursday."]),
        ("2025-02-01", ["Zephyr deploys happen on Tuesday."]),
        ("2025-02-28T23:59:59Z", ["Zephyr deploys happen on Tuesday."]),
        ("2025-03-01T00:00:00Z", ["Zephyr releases now ship every Thursday."]),
        ("2025-06-01", ["Zephyr releases now ship every Thursday."]),
        ("2024-12-31", []),  # recorded after T: not yet known
    ],
)
def test_a_superseded_version_answers_as_of_its_time(api, deploy_history, as_of, expected):
    extra = {"as_of": as_of} if as_of else {}
    for query in ("Zephyr deploys Tuesday", "when do Zephyr releases ship", "Zephyr"):
        assert found(api, query, **extra) == expected, query


def test_every_arm_honours_as_of(api, deploy_history):
    old, new = deploy_history
    for arms_query in ("Zephyr deploys happen on Tuesday", "which weekday do we ship Zephyr"):
        body = api.post(
            SEARCH,
            {"user_id": "albert", "query": arms_query, "as_of": "2025-02-01", "explain": True},
            format="json",
        ).json()
        assert [row["id"] for row in body["results"]] == [old.pk]


def test_as_of_search_stays_within_the_statement_budget(api, acme, deploy_history):
    api.post(SEARCH, {"user_id": "albert", "query": "warm up"}, format="json")
    with CaptureQueriesContext(connection) as captured:
        from retrieval.services import SearchOptions, search_memories

        result = search_memories(
            tenant=acme,
            user_id="albert",
            query="When did Zephyr deploys happen last month?",
            options=SearchOptions(as_of=at("2025-02-10"), synthesize=True, track_access=False),
        )
    assert result.hits
    assert len(captured.captured_queries) <= 4, [q["sql"][:80] for q in captured.captured_queries]


@pytest.fixture
def windows(acme, django_capture_on_commit_callbacks):
    """Zephyr facts with validity windows: closed (H1 2025), open-ended from 2025, ended (before 2020), future."""
    with django_capture_on_commit_callbacks(execute=True):
        rows = {
            "closed": remember(
                acme, "Zephyr on-call is run by Ines.", scope="team:platform",
                valid_from="2025-01-01", valid_until="2025-07-01",
            ),
            "open": remember(acme, "Zephyr on-call pages go to Slack.", scope="team:platform", valid_from="2025-01-01"),
            "ended": remember(acme, "Zephyr on-call used a pager.", scope="team:platform", valid_until="2020-01-01"),
            "future": remember(
                acme, "Zephyr on-call moves to the EU team.", scope="team:platform", valid_from="2099-01-01"
            ),
        }  # fmt: skip
    return {name: stamp(memory, created_at=at("2018-06-01")) for name, memory in rows.items()}


@pytest.mark.parametrize(
    ("as_of", "expected"),
    [
        (None, {"open"}),
        ("2019-05-01", {"ended"}),
        ("2025-03-01", {"closed", "open"}),
        ("2025-07-01", {"open"}),  # valid_until is exclusive
        ("2025-06-30T23:59:59Z", {"closed", "open"}),
        ("2099-02-01", {"open", "future"}),
    ],
)
def test_validity_windows_open_closed_ended_and_future(api, windows, as_of, expected):
    names = {memory.content: name for name, memory in windows.items()}
    extra = {"as_of": as_of} if as_of else {}
    assert {names[c] for c in found(api, "Zephyr on-call", **extra)} == expected


def test_the_memory_list_honours_as_of(api, windows, deploy_history):
    def listed(**params):
        response = api.get(MEMORIES, {"user_id": "albert", "page_size": 100, **params})
        assert response.status_code == 200, response.json()
        return {row["content"] for row in response.json()["results"]}

    assert listed() == {"Zephyr on-call pages go to Slack.", "Zephyr releases now ship every Thursday."}
    assert listed(as_of="2025-02-01") == {
        "Zephyr on-call is run by Ines.",
        "Zephyr on-call pages go to Slack.",
        "Zephyr deploys happen on Tuesday.",
    }
    # a read by id still finds a memory whose validity has not begun (its author may correct or delete it)
    future = windows["future"]
    assert api.get(f"{MEMORIES}/{future.pk}", {"user_id": "albert"}).status_code == 200


def test_as_of_never_leaks_other_tenants_or_scopes(api, acme, globex, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        mine = remember(acme, "Zephyr budget is approved.", scope="team:platform")
        private = remember(acme, "Zephyr budget worries Bea.", user="bea")
        sibling = remember(acme, "Zephyr budget for the data team.", scope="team:data")
        other = remember(globex, "Zephyr budget at Globex.", scope="team:platform")
    for memory in (mine, private, sibling, other):
        stamp(memory, created_at=at("2024-01-01"))
    for as_of in (None, "2024-06-01", "2199-12-31"):
        extra = {"as_of": as_of} if as_of else {}
        assert found(api, "Zephyr budget", **extra) == ["Zephyr budget is approved."]
        block = api.post(
            RECALL, {"user_id": "albert", "task": "Zephyr budget", "budget_chars": 2000, **extra}, format="json"
        ).json()
        assert [item["id"] for item in block["items"]] == [mine.pk]


def test_recall_honours_as_of(api, deploy_history):
    old, new = deploy_history
    block = api.post(
        RECALL,
        {"user_id": "albert", "task": "Zephyr deploy day", "as_of": "2025-02-01", "budget_chars": 2000},
        format="json",
    )
    assert block.status_code == 200, block.json()
    assert [item["id"] for item in block.json()["items"]] == [old.pk]


BAD_AS_OF = ["yesterday", "2025-13-01", "2025-02-30", "99999-01-01", "0001-01-01", "2025-05-07T25:00", "x" * 64]


@pytest.mark.parametrize("value", BAD_AS_OF)
def test_a_bad_as_of_is_a_400_everywhere(api, acme, value):
    for response in (
        api.post(SEARCH, {"user_id": "albert", "query": "Zephyr", "as_of": value}, format="json"),
        api.post(RECALL, {"user_id": "albert", "task": "Zephyr", "budget_chars": 2000, "as_of": value}, format="json"),
        api.get(MEMORIES, {"user_id": "albert", "as_of": value}),
    ):
        assert response.status_code == 400, response.json()
        assert "as_of" in error_of(response)["details"]


def test_a_long_query_full_of_date_words_is_answered(api, windows):
    words = "yesterday last Friday two weeks ago next Monday in March since January Q3 2024 on 14 June 7/5/2025 "
    query = (words * 40)[:2000]
    response = api.post(SEARCH, {"user_id": "albert", "query": query, "synthesize": True}, format="json")
    assert response.status_code == 200, response.json()


# --- time in questions -------------------------------------------------------------------------------------------


@pytest.fixture
def support_group(api, django_capture_on_commit_callbacks):
    """Dana's sessions: the support group said 'yesterday' on 8 May 2025, a dentist visit on 20 May."""
    events = [
        {"id": "a1", "author": "Dana", "timestamp": at("2025-05-08T10:00").timestamp(),
         "text": "I went to the support group yesterday, it really helped."},
        {"id": "a2", "author": "Dana", "timestamp": at("2025-05-20T10:00").timestamp(),
         "text": "The support group meets again next week; I also saw the dentist today."},
    ]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):  # embedded and linked, as after a real commit
        response = api.post(
            "/api/v1/sessions", {"user_id": "albert", "session_id": "d", "events": events}, format="json"
        )
    assert response.status_code in (200, 201), response.json()
    return {m.source_event_id: m for m in Memory.objects.filter(source_session="d")}


def test_a_when_question_gets_a_cited_date_answer(api, support_group):
    body = api.post(
        SEARCH,
        {"user_id": "albert", "query": "When did Dana go to the support group?", "synthesize": True},
        format="json",
    ).json()
    answer = body["answer"]
    assert answer["kind"] == "date"
    assert answer["text"] == "Dana went to the support group on 7 May 2025 [1]."
    assert answer["citations"] == [{"index": 1, "memory_id": support_group["a1"].pk}]
    rows = {row["id"]: row for row in body["results"]}
    assert rows[support_group["a1"].pk]["event_dates"] == ["2025-05-07"]
    assert rows[support_group["a2"].pk]["event_dates"] == [{"start": "2025-05-26", "end": "2025-06-01"}, "2025-05-20"]


def test_a_date_window_boosts_without_filtering(api, support_group):
    def ranked(query):
        body = api.post(SEARCH, {"user_id": "albert", "query": query, "explain": True}, format="json").json()
        return [(row["id"], row["explain"]["date_window"]) for row in body["results"]]

    a1, a2 = support_group["a1"].pk, support_group["a2"].pk
    in_may_start = ranked("support group in early May 2025")
    assert dict(in_may_start)[a1] > 1.0 and dict(in_may_start)[a2] == 1.0
    assert in_may_start[0][0] == a1
    # a window that matches nothing still returns the memories (a boost, never a filter)
    assert {memory_id for memory_id, _ in ranked("support group in 1999")} == {a1, a2}
    # no time expression: no boost at all
    assert all(boost == 1.0 for _, boost in ranked("support group"))


def test_creation_time_alone_does_not_date_a_memory_for_the_window(api, acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        undated = remember(acme, "The Zephyr support rota lives in the wiki.", scope="team:platform")
    body = api.post(
        SEARCH, {"user_id": "albert", "query": "Zephyr support rota today", "explain": True}, format="json"
    ).json()
    rows = {row["id"]: row for row in body["results"]}
    assert rows[undated.pk]["explain"]["date_window"] == 1.0  # written today, but it states nothing about today
