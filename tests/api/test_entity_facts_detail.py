"""Facts on the entity pages of the API: the entity detail lists what holds of it now, and so does its
neighbourhood; each is the caller's view (a member's private statement, another project's, another tenant's never
reach it)."""

from __future__ import annotations

import pytest

from graph.models import Entity, Fact
from memories.models import Memory
from tests.conftest import remember, tomasz_statements

pytestmark = pytest.mark.django_db
ENTITIES = "/api/v1/entities"


@pytest.fixture
def tomasz(acme, django_capture_on_commit_callbacks):
    """Tomasz Nowak worked at Initech (org-wide) and joined Globex (org-wide); albert privately heard he moved to
    Lisbon, and albert's project alpha says he reports to Ines Duarte."""
    with django_capture_on_commit_callbacks(execute=True):
        said = tomasz_statements(acme)
    return {
        **said,
        "entity": Entity.objects.get(tenant=acme, norm="tomasz nowak"),
    }


def _facts(body: dict) -> list[tuple]:
    return [(f["attribute"], f["value"], f["valid_from"], f["valid_until"], f["memory_id"]) for f in body["facts"]]


def test_the_entity_detail_lists_the_current_facts_and_no_closed_value(tomasz, api):
    response = api.get(f"{ENTITIES}/{tomasz['entity'].pk}", {"user_id": "albert"})

    assert response.status_code == 200, response.content
    body = response.json()
    assert _facts(body) == [
        ("lives_in", "Lisbon", "2025-06-23", None, tomasz["lisbon"].pk),
        ("works_at", "Globex", "2025-05-01", None, tomasz["globex"].pk),
    ]
    (globex,) = [fact for fact in body["facts"] if fact["value"] == "Globex"]
    assert globex == {
        "id": globex["id"],
        "attribute": "works_at",
        "value": "Globex",
        "value_entity_id": Entity.objects.get(tenant=tomasz["entity"].tenant, norm="globex").pk,
        "negated": False,
        "valid_from": "2025-05-01",
        "valid_until": None,
        "memory_id": tomasz["globex"].pk,
        "confidence": globex["confidence"],
        "curated": True,
        "current": True,
        "closed_by": None,
        "conflicts_with": [],
    }
    # the links and neighbours are as they were
    assert {link["memory_id"] for link in body["links"]} >= {tomasz["initech"].pk, tomasz["globex"].pk}


def test_the_neighbourhood_carries_the_entitys_current_facts(tomasz, api):
    detail = api.get(f"{ENTITIES}/{tomasz['entity'].pk}", {"user_id": "albert"}).json()

    response = api.get(f"{ENTITIES}/{tomasz['entity'].pk}/neighbours", {"user_id": "albert"})

    assert response.status_code == 200, response.content
    assert response.json()["facts"] == detail["facts"]


def test_a_private_fact_never_reaches_a_teammate_nor_another_team(tomasz, api):
    teammate = api.get(f"{ENTITIES}/{tomasz['entity'].pk}", {"user_id": "bea"}).json()
    other_team = api.get(f"{ENTITIES}/{tomasz['entity'].pk}/neighbours", {"user_id": "carlos"}).json()

    assert _facts(teammate) == [("works_at", "Globex", "2025-05-01", None, tomasz["globex"].pk)]
    assert _facts(other_team) == _facts(teammate)


def test_a_project_fact_stays_in_its_project(tomasz, api):
    """The entity pages read the caller's chain: a project's statement (albert's own) is not on them."""
    assert Memory.objects.get(pk=tomasz["alpha"].pk).project == "alpha"
    assert Fact.objects.filter(memory=tomasz["alpha"], attribute="reports_to").exists()  # it states one

    body = api.get(f"{ENTITIES}/{tomasz['entity'].pk}", {"user_id": "albert"}).json()

    assert "reports_to" not in {fact["attribute"] for fact in body["facts"]}
    assert tomasz["alpha"].pk not in {fact["memory_id"] for fact in body["facts"]}


def test_another_tenant_sees_neither_the_entity_nor_its_facts(tomasz, globex, globex_api):
    detail = globex_api.get(f"{ENTITIES}/{tomasz['entity'].pk}", {"user_id": "albert"})
    around = globex_api.get(f"{ENTITIES}/{tomasz['entity'].pk}/neighbours", {"user_id": "albert"})

    assert (detail.status_code, detail.json()["error"]["code"]) == (404, "entity_not_found")
    assert (around.status_code, around.json()["error"]["code"]) == (404, "entity_not_found")


def test_an_entity_only_a_private_memory_names_is_no_teammates(acme, api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        remember(acme, "Marta Kowalska moved to Porto last month.", user="albert")
    marta = Entity.objects.get(tenant=acme, norm="marta kowalska")

    mine = api.get(f"{ENTITIES}/{marta.pk}", {"user_id": "albert"})
    teammate = api.get(f"{ENTITIES}/{marta.pk}", {"user_id": "bea"})

    assert [fact["value"] for fact in mine.json()["facts"]] == ["Porto"]
    assert (teammate.status_code, teammate.json()["error"]["code"]) == (404, "entity_not_found")


def test_the_facts_add_one_statement_to_the_entity_detail(tomasz, api, django_assert_max_num_queries):
    """The detail's reads: the caller, the entity, its neighbours, links and mentions, and the facts (one)."""
    url = f"{ENTITIES}/{tomasz['entity'].pk}"
    api.get(url, {"user_id": "albert"})  # warm: the key's and the tenant's caches

    with django_assert_max_num_queries(12) as captured:
        api.get(url, {"user_id": "albert"})

    table = f'"{Fact._meta.db_table}"'
    assert sum(table in query["sql"] for query in captured.captured_queries) == 1
