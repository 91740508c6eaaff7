"""GET /entities and GET /entities/{id}: the graph as one user may see it."""

from __future__ import annotations

import pytest

from graph.models import Entity
from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

ENTITIES = "/api/v1/entities"


@pytest.fixture
def graph(acme, globex, django_capture_on_commit_callbacks):
    """Links extracted (on commit) from memories at several scopes of acme, and one in globex."""
    with django_capture_on_commit_callbacks(execute=True):
        memories = {
            "bea": remember(acme, "Alice Smith founded Nimbus Labs.", user="bea"),
            "platform": remember(acme, "Bob Lee works at Quartz Systems.", scope="team:platform"),
            "data": remember(acme, "Carla Diaz advises Nimbus Labs.", scope="team:data"),
            "org": remember(acme, "Nimbus Labs partners with Quartz Systems.", scope="org:acme"),
            "globex": remember(globex, "Alice Smith founded Nimbus Labs.", user="albert"),
        }
    entity = {
        name: Entity.objects.get(tenant=acme, name=name).pk
        for name in ("Alice Smith", "Nimbus Labs", "Bob Lee", "Quartz Systems", "Carla Diaz")
    }
    return memories, entity


def names(response) -> list[str]:
    return [item["name"] for item in response.json()["results"]]


class TestList:
    def test_only_entities_with_a_visible_link(self, graph, api):
        response = api.get(ENTITIES, {"user_id": "albert"})

        assert response.status_code == 200
        _, entity = graph
        kinds = dict(Entity.objects.values_list("pk", "kind"))
        assert response.json() == {
            "count": 3,
            "next": None,
            "previous": None,
            "results": [
                {"id": entity[name], "name": name, "kind": kinds[entity[name]], "mentions": mentions}
                for name, mentions in (("Bob Lee", 1), ("Nimbus Labs", 1), ("Quartz Systems", 2))  # by name
            ],
        }

    def test_each_user_sees_their_own_graph(self, graph, api):
        assert set(names(api.get(ENTITIES, {"user_id": "bea"}))) == {
            "Alice Smith",
            "Nimbus Labs",
            "Bob Lee",
            "Quartz Systems",
        }
        assert set(names(api.get(ENTITIES, {"user_id": "dora"}))) == {"Carla Diaz", "Nimbus Labs", "Quartz Systems"}
        assert set(names(api.get(ENTITIES, {"user_id": "carlos"}))) == {"Nimbus Labs", "Quartz Systems"}

    def test_another_tenant_sees_only_its_own(self, graph, globex_api):
        response = globex_api.get(ENTITIES, {"user_id": "albert"})

        assert set(names(response)) == {"Alice Smith", "Nimbus Labs"}
        _, acme_entity = graph
        assert not {item["id"] for item in response.json()["results"]} & set(acme_entity.values())

    def test_name_filter(self, graph, api):
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "nimbus"})) == ["Nimbus Labs"]
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "Quartz Sytems"})) == ["Quartz Systems"]
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "alice"})) == []

    def test_pagination(self, graph, api):
        first = api.get(ENTITIES, {"user_id": "albert", "page_size": 2}).json()
        second = api.get(first["next"]).json()

        assert [len(first["results"]), len(second["results"])] == [2, 1]
        assert second["next"] is None

    @pytest.mark.parametrize(
        ("params", "status", "code"),
        [
            ({}, 400, "validation_error"),
            ({"user_id": "nobody"}, 404, "unknown_user"),
            ({"user_id": "albert", "page": "x"}, 400, "invalid_page"),
            ({"user_id": "albert", "page": "99"}, 404, "not_found"),
        ],
    )
    def test_refusals(self, graph, api, params, status, code):
        response = api.get(ENTITIES, params)

        assert response.status_code == status
        assert error_of(response)["code"] == code


class TestDetail:
    def test_visible_links_and_neighbours_only(self, graph, api):
        memories, entity = graph

        response = api.get(f"{ENTITIES}/{entity['Nimbus Labs']}", {"user_id": "albert"})

        assert response.status_code == 200
        body = response.json()
        assert (body["id"], body["name"], body["mentions"]) == (entity["Nimbus Labs"], "Nimbus Labs", 1)
        assert body["neighbours"] == [
            {
                "entity": {"id": entity["Quartz Systems"], "name": "Quartz Systems"},
                "relationship": "partner_of",
                "direction": "out",
                "memory_id": memories["org"].pk,
                "confidence": body["neighbours"][0]["confidence"],
            }
        ]
        assert {link["memory_id"] for link in body["links"]} == {memories["org"].pk}

    def test_the_owner_sees_the_private_edge(self, graph, api):
        memories, entity = graph

        body = api.get(f"{ENTITIES}/{entity['Alice Smith']}", {"user_id": "bea"}).json()

        assert [(n["entity"]["name"], n["relationship"], n["direction"]) for n in body["neighbours"]] == [
            ("Nimbus Labs", "founded", "out")
        ]
        assert body["neighbours"][0]["memory_id"] == memories["bea"].pk

    @pytest.mark.parametrize("name", ["Alice Smith", "Carla Diaz"])
    def test_an_entity_with_no_visible_link_is_404(self, graph, api, name):
        _, entity = graph

        response = api.get(f"{ENTITIES}/{entity[name]}", {"user_id": "albert"})

        assert response.status_code == 404
        assert error_of(response)["code"] == "entity_not_found"

    def test_another_tenants_entity_is_404(self, graph, globex_api):
        _, entity = graph

        response = globex_api.get(f"{ENTITIES}/{entity['Nimbus Labs']}", {"user_id": "albert"})

        assert response.status_code == 404

    def test_user_id_is_required(self, graph, api):
        _, entity = graph

        response = api.get(f"{ENTITIES}/{entity['Nimbus Labs']}")

        assert response.status_code == 400
        assert error_of(response)["details"] == {"user_id": ["This field is required."]}
