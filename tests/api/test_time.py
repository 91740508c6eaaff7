"""Time on the write path, through the API: validity windows, the reference time of relative dates (a session
event's timestamp), event dates returned on reads, and the bad-input matrix of the new fields (a clear 400 in the
error shape and nothing stored, or a sensible 2xx — never a 500)."""

from __future__ import annotations

import pytest

from memories.models import Memory
from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"
SESSIONS = "/api/v1/sessions"


def write(api, content, **fields):
    return api.post(MEMORIES, {"user_id": "albert", "content": content, **fields}, format="json")


def read(api, memory_id):
    return api.get(f"{MEMORIES}/{memory_id}", {"user_id": "albert"})


def test_validity_and_event_dates_are_stored_and_returned(api, acme):
    response = write(
        api,
        "I went to the support group yesterday.",
        valid_from="2025-05-01",
        valid_until="2025-06-01T12:00:00+02:00",
        reference_time="2025-05-08T10:00:00Z",
    )
    assert response.status_code == 201, response.json()
    body = read(api, response.json()["id"]).json()
    assert body["valid_from"] == "2025-05-01T00:00:00Z"
    assert body["valid_until"] == "2025-06-01T10:00:00Z"
    assert body["reference_time"] == "2025-05-08T10:00:00Z"
    assert body["event_dates"] == ["2025-05-07"]


def test_event_dates_default_to_the_write_time(api, acme):
    memory_id = write(api, "The audit finished on 14 June 2024 and the review runs in Q3 2024.").json()["id"]
    assert read(api, memory_id).json()["event_dates"] == ["2024-06-14", {"start": "2024-07-01", "end": "2024-09-30"}]
    stored = Memory.objects.get(pk=memory_id)
    assert (stored.event_span.lower.isoformat(), stored.event_span.upper.isoformat()) == ("2024-06-14", "2024-10-01")
    assert stored.reference_time is None


def test_a_session_event_timestamp_is_the_reference_time(api, acme):
    events = [
        {"id": "e1", "author": "user", "timestamp": 1746698400.0, "text": "Dana went to the support group yesterday."},
        {"id": "e2", "author": "user", "timestamp": 1747731600.0, "text": "Next Monday I start the course."},
    ]
    response = api.post(SESSIONS, {"user_id": "albert", "session_id": "s1", "events": events}, format="json")
    assert response.status_code in (200, 201), response.json()
    rows = {m.source_event_id: m for m in Memory.objects.filter(tenant=acme, source_session="s1")}
    assert rows["e1"].reference_time.isoformat() == "2025-05-08T10:00:00+00:00"
    assert rows["e1"].event_dates == ["2025-05-07"]
    assert rows["e2"].event_dates == ["2025-05-26"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2025-05-08T10:00:00Z", "2025-05-20T09:00:00+00:00"),  # ISO 8601, as every other time field
        ("2025-05-08T12:00:00+02:00", "2025-05-20"),  # an offset, a plain date
        (1746698400, "2025-05-20T09:00:00Z"),  # epoch and ISO in one session
    ],
)
def test_a_session_event_timestamp_may_be_iso_8601(api, acme, first, second):
    events = [
        {"id": "e1", "author": "user", "timestamp": first, "text": "Dana went to the support group yesterday."},
        {"id": "e2", "author": "user", "timestamp": second, "text": "Next Monday I start the course."},
    ]
    response = api.post(SESSIONS, {"user_id": "albert", "session_id": "s1", "events": events}, format="json")
    assert response.status_code == 201, response.json()
    rows = {m.source_event_id: m for m in Memory.objects.filter(tenant=acme, source_session="s1")}
    assert rows["e1"].reference_time.isoformat() == "2025-05-08T10:00:00+00:00"
    assert rows["e1"].event_dates == ["2025-05-07"]
    assert rows["e2"].event_dates == ["2025-05-26"]
    assert rows["e2"].metadata["timestamp"] == second  # as sent


def test_a_batch_carries_time_fields_per_item(api, acme):
    response = api.post(
        MEMORIES,
        {
            "user_id": "albert",
            "memories": [
                {"content": "Deploys freeze from 1 December.", "valid_from": "2025-12-01"},
                {"content": "Standups are at nine.", "valid_until": "2031-01-01"},
            ],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    first, second = (Memory.objects.get(pk=row["id"]) for row in response.json()["memories"])
    assert first.valid_from.isoformat() == "2025-12-01T00:00:00+00:00" and first.valid_until is None
    assert second.valid_until.isoformat() == "2031-01-01T00:00:00+00:00"


BAD_TIMES = [
    ("valid_from", "yesterday"),
    ("valid_from", "2025-13-01"),
    ("valid_from", "2025-02-30"),
    ("valid_until", "10000-01-01"),
    ("valid_until", "0001-01-01"),
    ("reference_time", "2025-05-07T25:00:00Z"),
    ("reference_time", "1e309"),
    ("reference_time", "9" * 65),
    ("valid_from", "2025-05-07T10:00:00+25:00"),
    ("valid_until", "1800-01-01"),
]


@pytest.mark.parametrize(("field", "value"), BAD_TIMES)
def test_a_malformed_or_out_of_range_time_is_a_400_and_nothing_is_stored(api, acme, field, value):
    response = write(api, "A memory that must not be stored.", **{field: value})
    assert response.status_code == 400, response.json()
    error = error_of(response)
    assert field in error["details"], error
    assert not Memory.objects.filter(tenant=acme).exists()


@pytest.mark.parametrize(
    ("start", "end"), [("2025-05-07", "2025-05-07"), ("2025-05-08", "2025-05-07"), ("2025-05-07T10:00Z", "2025-05-07")]
)
def test_valid_until_not_after_valid_from_is_a_400(api, acme, start, end):
    response = write(api, "A window that closes before it opens.", valid_from=start, valid_until=end)
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid"
    assert "valid_until" in error_of(response)["details"]
    assert not Memory.objects.filter(tenant=acme).exists()


def test_a_bad_item_of_a_batch_stores_nothing(api, acme):
    response = api.post(
        MEMORIES,
        {
            "user_id": "albert",
            "memories": [
                {"content": "A good item."},
                {"content": "A bad item.", "valid_from": "2026-01-02", "valid_until": "2026-01-01"},
            ],
        },
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["details"]["index"] == 1
    assert not Memory.objects.filter(tenant=acme).exists()


@pytest.mark.parametrize("timestamp", [1e20, -1e15, "not a time", "2025-13-40", "1700-01-01T00:00:00Z", True, [1]])
def test_a_bad_session_timestamp_is_a_400_and_nothing_is_stored(api, acme, timestamp):
    events = [
        {"id": "ok", "author": "user", "timestamp": 1746698400.0, "text": "A fine turn."},
        {"id": "bad", "author": "user", "timestamp": timestamp, "text": "A turn with a broken clock."},
    ]
    response = api.post(SESSIONS, {"user_id": "albert", "session_id": "s2", "events": events}, format="json")
    assert response.status_code == 400, response.json()
    error_of(response)
    assert not Memory.objects.filter(tenant=acme).exists()


HOSTILE = [
    "On 99/99/9999 at 25:61 we met on the 31st of February in the year 99999999999.",
    "Q9 2024, H3, week 60 of 2025, the 0th of May, 7/5/2025/7/5/2025/7/5/2025.",
    " ".join(["yesterday last Friday two weeks ago next Monday in March since January Q3 2024"] * 300),
    "1" * 5000 + "/" + "2" * 5000,
    "from 14 June to 2 June, between December and January, 2199-12-31 and 1899-01-01",
]


@pytest.mark.parametrize("content", HOSTILE)
def test_hostile_date_strings_in_content_are_stored_with_sane_event_dates(api, acme, content):
    response = write(api, content, reference_time="2025-05-08")
    assert response.status_code == 201, response.json()
    stored = Memory.objects.get(pk=response.json()["id"])
    assert len(stored.event_dates) <= 64
    for value in stored.event_dates:
        days = [value["start"], value["end"]] if isinstance(value, dict) else [value]
        assert all("1900-01-01" <= day <= "2199-12-31" for day in days)


def test_changing_the_content_re_tags_its_dates_against_the_same_reference_time(api, acme):
    memory_id = write(api, "The review was yesterday.", reference_time="2025-05-08T10:00:00Z").json()["id"]
    response = api.patch(
        f"{MEMORIES}/{memory_id}", {"user_id": "albert", "content": "The review is next Monday."}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert read(api, memory_id).json()["event_dates"] == ["2025-05-12"]
