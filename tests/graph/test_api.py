"""The graph API: GET /entities and GET /entities/{id} (the graph as one user may see it), and
GET /entities/{id}/neighbours with ``graph.selectors.entity_neighbourhood`` (the typed neighbourhood one user may
see, with the memories stating each edge; bounded fan-out; bad input and other tenants' ids)."""

# ruff: noqa: F811  (the API fixtures are imported from tests/api/conftest.py and requested by name)

from __future__ import annotations

import pytest

from graph.models import Entity
from graph.selectors import entity_neighbourhood
from memories.models import Memory, Scope
from memories.services.memory import memory_delete
from tests.api.conftest import api, error_of, globex_api, make_client  # noqa: F401  (fixtures)
from tests.conftest import remember

pytestmark = pytest.mark.django_db

ENTITIES = "/api/v1/entities"


@pytest.fixture
def listed_graph(acme, globex, django_capture_on_commit_callbacks):
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
    def test_only_entities_with_a_visible_link(self, listed_graph, api):
        response = api.get(ENTITIES, {"user_id": "albert"})

        assert response.status_code == 200
        _, entity = listed_graph
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

    def test_each_user_sees_their_own_graph(self, listed_graph, api):
        assert set(names(api.get(ENTITIES, {"user_id": "bea"}))) == {
            "Alice Smith",
            "Nimbus Labs",
            "Bob Lee",
            "Quartz Systems",
        }
        assert set(names(api.get(ENTITIES, {"user_id": "dora"}))) == {"Carla Diaz", "Nimbus Labs", "Quartz Systems"}
        assert set(names(api.get(ENTITIES, {"user_id": "carlos"}))) == {"Nimbus Labs", "Quartz Systems"}

    def test_another_tenant_sees_only_its_own(self, listed_graph, globex_api):
        response = globex_api.get(ENTITIES, {"user_id": "albert"})

        assert set(names(response)) == {"Alice Smith", "Nimbus Labs"}
        _, acme_entity = listed_graph
        assert not {item["id"] for item in response.json()["results"]} & set(acme_entity.values())

    def test_name_filter(self, listed_graph, api):
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "nimbus"})) == ["Nimbus Labs"]
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "Quartz Sytems"})) == ["Quartz Systems"]
        assert names(api.get(ENTITIES, {"user_id": "albert", "q": "alice"})) == []

    def test_pagination(self, listed_graph, api):
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
    def test_refusals(self, listed_graph, api, params, status, code):
        response = api.get(ENTITIES, params)

        assert response.status_code == status
        assert error_of(response)["code"] == code


class TestDetail:
    def test_visible_links_and_neighbours_only(self, listed_graph, api):
        memories, entity = listed_graph

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

    def test_the_owner_sees_the_private_edge(self, listed_graph, api):
        memories, entity = listed_graph

        body = api.get(f"{ENTITIES}/{entity['Alice Smith']}", {"user_id": "bea"}).json()

        assert [(n["entity"]["name"], n["relationship"], n["direction"]) for n in body["neighbours"]] == [
            ("Nimbus Labs", "founded", "out")
        ]
        assert body["neighbours"][0]["memory_id"] == memories["bea"].pk

    @pytest.mark.parametrize("name", ["Alice Smith", "Carla Diaz"])
    def test_an_entity_with_no_visible_link_is_404(self, listed_graph, api, name):
        _, entity = listed_graph

        response = api.get(f"{ENTITIES}/{entity[name]}", {"user_id": "albert"})

        assert response.status_code == 404
        assert error_of(response)["code"] == "entity_not_found"

    def test_another_tenants_entity_is_404(self, listed_graph, globex_api):
        _, entity = listed_graph

        response = globex_api.get(f"{ENTITIES}/{entity['Nimbus Labs']}", {"user_id": "albert"})

        assert response.status_code == 404

    def test_user_id_is_required(self, listed_graph, api):
        _, entity = listed_graph

        response = api.get(f"{ENTITIES}/{entity['Nimbus Labs']}")

        assert response.status_code == 400
        assert error_of(response)["details"] == {"user_id": ["This field is required."]}


ALBERT_CHAIN = ("user:albert", "team:platform", "division:eu", "org:acme")


@pytest.fixture
def graph(acme, globex, django_capture_on_commit_callbacks):
    """Typed edges stated at several scopes of acme (links extracted on commit), and a look-alike in globex:

    Dan Park --founded--> Nimbus Labs   (org:acme and division:eu: two statements of one edge)
    Nimbus Labs --partner_of--> Quartz Systems   (org:acme)
    Bob Lee --works_at--> Quartz Systems   (team:platform)
    Alice Smith --founded--> Nimbus Labs   (user:bea: private)
    Carla Diaz --advises--> Nimbus Labs   (team:data: not on albert's chain)
    """
    with django_capture_on_commit_callbacks(execute=True):
        memories = {
            "dan-org": remember(acme, "Dan Park founded Nimbus Labs.", scope="org:acme"),
            "dan-eu": remember(acme, "Dan Park founded Nimbus Labs in 2019.", scope="division:eu"),
            "partner": remember(acme, "Nimbus Labs partners with Quartz Systems.", scope="org:acme"),
            "bob": remember(acme, "Bob Lee works at Quartz Systems.", scope="team:platform"),
            "alice": remember(acme, "Alice Smith founded Nimbus Labs.", user="bea"),
            "carla": remember(acme, "Carla Diaz advises Nimbus Labs.", scope="team:data"),
            "globex": remember(globex, "Alice Smith founded Nimbus Labs.", user="albert"),
        }
    entity = {
        name: Entity.objects.get(tenant=acme, name=name).pk
        for name in ("Dan Park", "Nimbus Labs", "Quartz Systems", "Bob Lee", "Alice Smith", "Carla Diaz")
    }
    return {key: memory.pk for key, memory in memories.items()}, entity


def url(entity_id: int) -> str:
    return f"/api/v1/entities/{entity_id}/neighbours"


def triples(body: dict) -> set[tuple[str, str, str]]:
    return {(edge["subject"]["name"], edge["relationship"], edge["object"]["name"]) for edge in body["edges"]}


def test_one_hop_on_albert_chain_with_the_stating_memories(graph, api):
    memory, entity = graph

    response = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert"})

    assert response.status_code == 200, response.content
    body = response.json()
    assert triples(body) == {("Dan Park", "founded", "Nimbus Labs"), ("Nimbus Labs", "partner_of", "Quartz Systems")}
    founded = next(edge for edge in body["edges"] if edge["relationship"] == "founded")
    assert founded["memory_ids"] == sorted([memory["dan-org"], memory["dan-eu"]])
    assert founded["hop"] == 1
    assert body["entity"] == {
        "id": entity["Nimbus Labs"],
        "name": "Nimbus Labs",
        "kind": body["entity"]["kind"],
        "distance": 0,
    }
    assert {item["name"]: item["distance"] for item in body["entities"]} == {
        "Nimbus Labs": 0,
        "Dan Park": 1,
        "Quartz Systems": 1,
    }
    assert (body["depth"], body["truncated"]) == (1, False)


def test_two_hops_reach_the_neighbours_neighbours(graph, api):
    _, entity = graph

    body = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert", "depth": 2}).json()

    assert ("Bob Lee", "works_at", "Quartz Systems") in triples(body)
    hops = {(edge["subject"]["name"], edge["relationship"]): edge["hop"] for edge in body["edges"]}
    assert hops == {("Dan Park", "founded"): 1, ("Nimbus Labs", "partner_of"): 1, ("Bob Lee", "works_at"): 2}
    assert {item["name"]: item["distance"] for item in body["entities"]}["Bob Lee"] == 2


def test_relationship_filter(graph, api):
    _, entity = graph

    body = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert", "depth": 2, "relationships": "founded"}).json()
    assert triples(body) == {("Dan Park", "founded", "Nimbus Labs")}

    body = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert", "relationships": "founded,partner_of"}).json()
    assert len(body["edges"]) == 2


def test_another_users_private_edge_is_invisible(graph, api):
    memory, entity = graph

    albert = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert"}).json()
    bea = api.get(url(entity["Nimbus Labs"]), {"user_id": "bea"}).json()
    dora = api.get(url(entity["Nimbus Labs"]), {"user_id": "dora"}).json()

    assert ("Alice Smith", "founded", "Nimbus Labs") not in triples(albert)
    assert ("Alice Smith", "founded", "Nimbus Labs") in triples(bea)
    assert ("Carla Diaz", "advises", "Nimbus Labs") in triples(dora)
    assert ("Carla Diaz", "advises", "Nimbus Labs") not in triples(albert) | triples(bea)
    stated = {memory_id for edge in albert["edges"] for memory_id in edge["memory_ids"]}
    assert not stated & {memory["alice"], memory["carla"], memory["globex"]}
    # an entity only private edges touch is not there for albert at all
    refused = api.get(url(entity["Alice Smith"]), {"user_id": "albert"})
    assert refused.status_code == 404
    assert error_of(refused)["code"] == "entity_not_found"


def test_a_deleted_memory_no_longer_states_its_edge(graph, api):
    memory, entity = graph

    memory_delete(memory=Memory.objects.get(pk=memory["dan-org"]))

    body = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert"}).json()
    founded = next(edge for edge in body["edges"] if edge["relationship"] == "founded")
    assert founded["memory_ids"] == [memory["dan-eu"]]


def test_another_tenants_entity_is_a_404(graph, globex_api, api):
    _, entity = graph
    globex_nimbus = Entity.objects.exclude(pk=entity["Nimbus Labs"]).get(name="Nimbus Labs")

    for client, entity_id in ((globex_api, entity["Nimbus Labs"]), (api, globex_nimbus.pk)):
        response = client.get(url(entity_id), {"user_id": "albert"})
        assert response.status_code == 404
        assert error_of(response)["code"] == "entity_not_found"


def test_unknown_entity_is_a_404(graph, api):
    response = api.get(url(987654321), {"user_id": "albert"})
    assert response.status_code == 404
    assert error_of(response)["code"] == "entity_not_found"


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"depth": 3}, "validation_error"),
        ({"depth": 0}, "validation_error"),
        ({"depth": "two"}, "validation_error"),
        ({"relationships": "loves"}, "unknown_relationship"),
        ({"relationships": "founded,mentioned"}, "unknown_relationship"),
        ({"user_id": "al bert"}, "validation_error"),
        ({"user_id": ""}, "validation_error"),
    ],
)
def test_bad_input_is_a_400(graph, api, params, code):
    _, entity = graph
    response = api.get(url(entity["Nimbus Labs"]), {"user_id": "albert", **params})

    assert response.status_code == 400, response.content
    assert error_of(response)["code"] == code


def test_unknown_user_is_a_404_and_a_restricted_key_outside_is_a_403(graph, acme, make_client):
    _, entity = graph
    restricted = make_client(acme, permissions=("read",), scope=Scope.objects.get(tenant=acme, key="platform"))

    unknown = make_client(acme).get(url(entity["Nimbus Labs"]), {"user_id": "nobody"})
    assert (unknown.status_code, error_of(unknown)["code"]) == (404, "unknown_user")
    assert restricted.get(url(entity["Nimbus Labs"]), {"user_id": "albert"}).status_code == 200
    refused = restricted.get(url(entity["Nimbus Labs"]), {"user_id": "dora"})
    assert (refused.status_code, error_of(refused)["code"]) == (403, "scope_restricted")


# --- bounded fan-out (the selector) ------------------------------------------------------------------------------


@pytest.fixture
def hub(acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("Ann Hale", "Ben Ito", "Cy Moss", "Di Lund"):
            remember(acme, f"{name} works at Hub Works.", scope="org:acme")
    return Entity.objects.get(tenant=acme, name="Hub Works").pk


def chain(acme) -> list[int]:
    return list(Scope.objects.filter(tenant=acme, level__in=["org"]).values_list("pk", flat=True))


def test_fan_out_per_node_and_in_all_is_bounded_and_flagged(acme, hub):
    whole = entity_neighbourhood(tenant=acme, chain_ids=chain(acme), entity_id=hub)
    per_node = entity_neighbourhood(tenant=acme, chain_ids=chain(acme), entity_id=hub, per_node=2)
    in_all = entity_neighbourhood(tenant=acme, chain_ids=chain(acme), entity_id=hub, max_edges=3)

    assert (len(whole.edges), whole.truncated) == (4, False)
    assert (len(per_node.edges), per_node.truncated) == (2, True)
    assert (len(in_all.edges), in_all.truncated) == (3, True)
    assert set(per_node.distance) == {hub} | {e.subject_id for e in per_node.edges}


def test_the_selector_refuses_depth_3(acme, hub):
    with pytest.raises(ValueError):
        entity_neighbourhood(tenant=acme, chain_ids=chain(acme), entity_id=hub, depth=3)
