"""Issue 11, finding 1: a malformed pagination cursor is a 400 in the error shape, never a 500."""

from __future__ import annotations

import base64
from urllib.parse import urlencode

import pytest

from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"


def cursor_of(raw: str) -> str:
    return base64.b64encode(raw.encode()).decode()


@pytest.mark.parametrize(
    "raw",
    [
        "p=x",  # the reported one: cD14
        "p=",
        "p=2026-13-45T99:00:00",
        "p=not a date&o=1",
        "p=2026-01-01T00:00:00+00:00&o=-1",
        "p=2026-01-01T00:00:00+00:00&o=x",
        "p=2026-01-01T00:00:00+00:00&r=x",
        "p=\x00",
        "p=99999-01-01",
        "p=1e400",
    ],
)
def test_a_malformed_cursor_is_a_400_in_the_error_shape(acme, api, raw):
    remember(acme, "Albert keeps a notebook.", user="albert")

    response = api.get(f"{MEMORIES}?{urlencode({'user_id': 'albert', 'cursor': cursor_of(raw)})}")

    assert response.status_code == 400, response.content
    assert error_of(response)["code"] == "invalid_cursor"


def test_the_reported_cursor_is_a_400(acme, api):
    response = api.get(f"{MEMORIES}?user_id=albert&cursor=cD14")

    assert response.status_code == 400
    assert error_of(response) == {
        "code": "invalid_cursor",
        "message": "invalid pagination cursor",
        "details": {"cursor": ["invalid"]},
    }


def test_a_cursor_the_api_handed_out_still_pages(acme, api):
    for index in range(3):
        remember(acme, f"distinct note number {index} alpha{index} beta{index}", user="albert")

    first = api.get(f"{MEMORIES}?user_id=albert&page_size=2").json()
    second = api.get(first["next"]).json()

    assert len(first["results"]) == 2
    assert len(second["results"]) == 1
