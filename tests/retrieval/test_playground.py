"""The admin search playground and the `search` command."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import remember
from tests.factories import StaffUserFactory, SuperUserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def facts(acme, globex, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        remember(acme, "Acme Robotics was founded by Alice Smith.", scope="org:acme")
        remember(acme, "Bea's private note about Acme Robotics.", scope="user:bea")
        remember(globex, "Globex was founded by Acme Robotics people.", scope="org:globex")


def test_playground_shows_ranks_answer_and_gaps(client, acme, facts):
    client.force_login(SuperUserFactory())

    response = client.get(
        "/admin/search/", {"tenant": acme.pk, "user_id": "albert", "query": "Who founded Acme Robotics?", "top_k": 5}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Acme Robotics was founded by Alice Smith [1]." in html
    assert "Relational question: <b>founded</b>" in html
    assert "private note" not in html
    assert "Globex" not in html
    assert 'id="gaps"' in html


def test_playground_is_limited_to_the_staff_members_tenants(client, acme, globex, facts):
    client.force_login(StaffUserFactory(tenants=[acme]))

    response = client.get("/admin/search/", {"tenant": globex.pk, "user_id": "albert", "query": "founded", "top_k": 5})

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert "Globex was founded" not in response.content.decode()


def test_playground_needs_staff(client, acme):
    assert client.get("/admin/search/").status_code == 302


def test_playground_reports_unknown_member(client, acme):
    client.force_login(SuperUserFactory())

    response = client.get("/admin/search/", {"tenant": acme.pk, "user_id": "ghost", "query": "x", "top_k": 5})

    assert "unknown user_id &#x27;ghost&#x27;" in response.content.decode()


def test_search_command_prints_ranked_results(acme, facts):
    out = StringIO()
    call_command("search", "Who founded Acme Robotics?", tenant="acme", user="albert", stdout=out)

    text = out.getvalue()
    assert "relational: founded inbound 'Acme Robotics'" in text
    assert "org:acme" in text
    assert "Acme Robotics was founded by Alice Smith [1]." in text

    out = StringIO()
    call_command("search", "Acme", tenant="acme", user="bea", json=True, stdout=out)
    assert sorted(row["scope"]["tag"] for row in json.loads(out.getvalue())["results"]) == ["org:acme", "user:bea"]

    with pytest.raises(CommandError, match="unknown user_id"):
        call_command("search", "x", tenant="acme", user="ghost", stdout=StringIO())
