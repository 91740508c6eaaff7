"""The graph admin: per-tenant entity and link lists, merge and split through the graph services (links repointed,
aliases, exact mention counts), the delete-link action, link filters, and the graph page's JSON endpoints (exact
node and edge sets, tenant checks, parameter validation, staff only)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from graph import views
from graph.models import Entity, EntityAlias, EntityLink
from graph.services import entity_merge
from memories.models import Memory
from tests.conftest import remember
from tests.factories import EntityLinkFactory, StaffUserFactory
from tests.graph.conftest import entities_of

pytestmark = pytest.mark.django_db

ENTITIES = "/admin/graph/entity/"
LINKS = "/admin/graph/entitylink/"
PAGE = "/admin/graph/"
DATA = "/admin/graph/data/"
SEARCH = "/admin/graph/entities/"


def row_ids(response) -> set[int]:
    assert response.status_code == 200
    return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.content.decode())}


def counts(tenant) -> dict[str, int]:
    return {entity.name: entity.mention_count for entity in Entity.objects.filter(tenant=tenant)}


def link_triples(tenant) -> set[tuple[str, str, str | None, int]]:
    return {
        (link.subject.name, link.relationship, link.object.name if link.object_id else None, link.memory_id)
        for link in EntityLink.objects.filter(tenant=tenant).select_related("subject", "object")
    }


def memory_id_of(tenant, content: str) -> int:
    return Memory.objects.get(tenant=tenant, content=content).pk


def link_id(seeded, key: str) -> int:
    return EntityLink.objects.get(memory=seeded.memories[key]).pk


@pytest.fixture
def acmebot(acme, seeded_graph, django_capture_on_commit_callbacks):
    """A duplicate of Acme Robotics under another name, and one memory naming both."""
    with django_capture_on_commit_callbacks(execute=True):
        gina = remember(acme, "Gina Park invested in AcmeBot.", scope="team:platform")
        hank = remember(acme, "Hank Lee founded AcmeBot. Hank Lee advises Acme Robotics.", scope="team:platform")
    entities = entities_of(acme)
    assert entities["AcmeBot"].mention_count == 2
    assert entities["Acme Robotics"].mention_count == 3
    return {"gina": gina, "hank": hank, "entities": entities}


# --- the entity list --------------------------------------------------------------------------------------------


def test_tenant_staff_lists_only_their_tenants_entities(acme_staff_client, seeded_graph):
    response = acme_staff_client.get(ENTITIES)

    assert row_ids(response) == {entity.pk for entity in seeded_graph.entities.values()}
    assert "Zed Zulu" not in response.content.decode()


def test_superuser_lists_every_tenants_entities(superuser_client, seeded_graph):
    response = superuser_client.get(ENTITIES)

    expected = {entity.pk for entity in [*seeded_graph.entities.values(), *seeded_graph.globex_entities.values()]}
    assert row_ids(response) == expected


def test_entity_list_shows_mention_and_link_counts(acme_staff_client, seeded_graph):
    html = acme_staff_client.get(ENTITIES, {"q": "Alice Smith"}).content.decode()

    # Alice: founded, reports_to and attended, each stated by its own memory
    assert re.search(r'<td class="field-mention_count">3</td><td class="field-link_count">3</td>', html)
    assert f"/admin/graph/?tenant={seeded_graph.entities['Alice Smith'].tenant_id}&amp;entity=" in html


def test_entity_list_query_count_does_not_grow_with_rows(acme_staff_client, acme, seeded_graph):
    with CaptureQueriesContext(connection) as few:
        acme_staff_client.get(ENTITIES)
    Entity.objects.bulk_create(Entity(tenant=acme, name=f"Extra {n}", norm=f"extra {n}") for n in range(10))

    with CaptureQueriesContext(connection) as many:
        response = acme_staff_client.get(ENTITIES)

    assert len(row_ids(response)) == len(seeded_graph.entities) + 10
    assert len(many) == len(few)


def test_entity_list_orders_by_link_count(acme_staff_client, seeded_graph):
    response = acme_staff_client.get(ENTITIES, {"o": "-4"})  # the fourth column: links

    names = re.findall(r'<th class="field-name"><a href="[^"]+">([^<]+)</a>', response.content.decode())
    assert set(names[:2]) == {"Alice Smith", "Bob Jones"}  # three links each
    assert names[2] == "Acme Robotics"  # two; every other entity has one (a bare mention counts too)


def test_search_by_name_norm_and_alias(acme_staff_client, acme, acmebot):
    entities = acmebot["entities"]
    entity_merge(tenant=acme, survivor=entities["Acme Robotics"], others=[entities["AcmeBot"]])

    assert row_ids(acme_staff_client.get(ENTITIES, {"q": "stanford"})) == {entities["Stanford University"].pk}
    assert row_ids(acme_staff_client.get(ENTITIES, {"q": "acmebot"})) == {entities["Acme Robotics"].pk}


def test_kind_and_tenant_filters(superuser_client, acme, globex, seeded_graph):
    people = superuser_client.get(ENTITIES, {"kind__exact": "person", "tenant__id__exact": acme.pk})
    of_globex = superuser_client.get(ENTITIES, {"tenant__id__exact": globex.pk})

    # Bob Jones is a person: Alice Smith reports to him (a fact whose value is a person)
    assert row_ids(people) == seeded_graph.ids("Alice Smith", "Bob Jones", "Carol White", "Dan Brown")
    assert row_ids(of_globex) == {entity.pk for entity in seeded_graph.globex_entities.values()}


def test_tenant_filter_offers_only_the_admins_tenants(acme_staff_client, acme, globex, seeded_graph):
    html = acme_staff_client.get(ENTITIES).content.decode()

    assert f"?tenant__id__exact={acme.pk}" in html
    assert f"?tenant__id__exact={globex.pk}" not in html


def test_tenant_staff_cannot_open_another_tenants_entity(acme_staff_client, seeded_graph):
    foreign = seeded_graph.globex_entities["Alice Smith"]

    response = acme_staff_client.get(f"{ENTITIES}{foreign.pk}/change/")

    assert response.status_code == 302
    assert response["Location"] == "/admin/"


def test_entity_page_shows_links_aliases_and_the_graph_link(acme_staff_client, acme, acmebot):
    entities = acmebot["entities"]
    survivor = entity_merge(tenant=acme, survivor=entities["Acme Robotics"], others=[entities["AcmeBot"]])
    alias = EntityAlias.objects.get(entity=survivor)

    html = acme_staff_client.get(f"{ENTITIES}{survivor.pk}/change/").content.decode()

    assert f'href="/admin/graph/?tenant={acme.pk}&amp;entity={survivor.pk}"' in html
    assert f'href="/admin/graph/entity/{survivor.pk}/split/{alias.pk}/"' in html
    assert "acmebot" in html
    assert "Gina Park <em>invested_in</em> Acme Robotics — 0.90" in html
    assert 'name="_save"' not in html  # read-only: merge and split are the writes


def test_entities_cannot_be_added_or_deleted_here(superuser_client, seeded_graph):
    alice = seeded_graph.entities["Alice Smith"]

    assert superuser_client.get(f"{ENTITIES}add/").status_code == 403
    assert superuser_client.post(f"{ENTITIES}{alice.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Entity.objects.filter(pk=alice.pk).exists()


# --- merge ------------------------------------------------------------------------------------------------------


def test_merge_action_asks_which_entity_survives(acme_staff_client, acmebot):
    entities = acmebot["entities"]
    chosen = [entities["Acme Robotics"].pk, entities["AcmeBot"].pk]

    response = acme_staff_client.post(ENTITIES, {"action": "merge_entities", "_selected_action": chosen})

    assert response.status_code == 200
    html = response.content.decode()
    offered = {int(pk) for pk in re.findall(r'name="survivor" value="(\d+)"', html)}
    assert offered == set(chosen)
    assert "AcmeBot (company, 2 mentions)" in html


def test_merge_repoints_links_creates_aliases_and_recounts(acme_staff_client, acme, acmebot):
    entities = acmebot["entities"]
    survivor, other = entities["Acme Robotics"], entities["AcmeBot"]

    response = acme_staff_client.post(
        ENTITIES,
        {
            "action": "merge_entities",
            "_selected_action": [survivor.pk, other.pk],
            "apply": "Merge",
            "survivor": survivor.pk,
        },
        follow=True,
    )

    assert "Merged AcmeBot into" in response.content.decode()
    assert not Entity.objects.filter(pk=other.pk).exists()
    assert list(EntityAlias.objects.filter(entity=survivor).values_list("name", "norm")) == [("AcmeBot", "acmebot")]
    gina, hank = acmebot["gina"].pk, acmebot["hank"].pk
    assert {t for t in link_triples(acme) if t[2] == "Acme Robotics"} == {
        ("Alice Smith", "founded", "Acme Robotics", memory_id_of(acme, "Alice Smith founded Acme Robotics.")),
        ("Bob Jones", "invested_in", "Acme Robotics", memory_id_of(acme, "Bob Jones invested in Acme Robotics.")),
        ("Gina Park", "invested_in", "Acme Robotics", gina),
        ("Hank Lee", "founded", "Acme Robotics", hank),
        ("Hank Lee", "advises", "Acme Robotics", hank),
    }
    # four distinct memories, though Hank's states two links to it
    assert counts(acme)["Acme Robotics"] == 4
    assert counts(acme)["Hank Lee"] == 1


def test_merge_refuses_entities_of_different_tenants(superuser_client, seeded_graph):
    acme_alice = seeded_graph.entities["Alice Smith"]
    globex_alice = seeded_graph.globex_entities["Alice Smith"]
    before = (counts(acme_alice.tenant), counts(globex_alice.tenant))

    response = superuser_client.post(
        ENTITIES,
        {
            "action": "merge_entities",
            "_selected_action": [acme_alice.pk, globex_alice.pk],
            "apply": "Merge",
            "survivor": acme_alice.pk,
        },
        follow=True,
    )

    assert "Select entities of one tenant to merge them." in response.content.decode()
    assert Entity.objects.filter(pk__in=[acme_alice.pk, globex_alice.pk]).count() == 2
    assert not EntityAlias.objects.exists()
    assert (counts(acme_alice.tenant), counts(globex_alice.tenant)) == before


def test_merge_ignores_another_tenants_entity_for_tenant_staff(acme_staff_client, seeded_graph):
    acme_alice = seeded_graph.entities["Alice Smith"]
    globex_alice = seeded_graph.globex_entities["Alice Smith"]

    response = acme_staff_client.post(
        ENTITIES,
        {
            "action": "merge_entities",
            "_selected_action": [acme_alice.pk, globex_alice.pk],
            "apply": "Merge",
            "survivor": acme_alice.pk,
        },
        follow=True,
    )

    assert "Select at least two entities to merge." in response.content.decode()
    assert Entity.objects.filter(pk=globex_alice.pk).exists()
    assert not EntityAlias.objects.exists()


def test_merge_refuses_a_survivor_outside_the_selection(acme_staff_client, acmebot):
    entities = acmebot["entities"]

    response = acme_staff_client.post(
        ENTITIES,
        {
            "action": "merge_entities",
            "_selected_action": [entities["Acme Robotics"].pk, entities["AcmeBot"].pk],
            "apply": "Merge",
            "survivor": entities["Alice Smith"].pk,
        },
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not EntityAlias.objects.exists()


# --- split ------------------------------------------------------------------------------------------------------


def test_split_undoes_the_merge(acme_staff_client, acme, acmebot):
    entities = acmebot["entities"]
    before_links, before_counts = link_triples(acme), counts(acme)
    survivor = entity_merge(tenant=acme, survivor=entities["Acme Robotics"], others=[entities["AcmeBot"]])
    alias = EntityAlias.objects.get(entity=survivor)
    url = f"{ENTITIES}{survivor.pk}/split/{alias.pk}/"

    confirm = acme_staff_client.get(url)
    response = acme_staff_client.post(url, follow=True)

    assert "takes back the 2 links written with that name" in confirm.content.decode()
    assert response.redirect_chain == [(f"{ENTITIES}{survivor.pk}/change/", 302)]
    assert "is its own entity again, with 2 mentions." in response.content.decode()
    assert link_triples(acme) == before_links
    assert counts(acme) == before_counts
    assert not EntityAlias.objects.exists()


def test_split_cannot_reach_another_tenants_entity(acme_staff_client, globex, seeded_graph):
    globex_entities = seeded_graph.globex_entities
    survivor = entity_merge(
        tenant=globex, survivor=globex_entities["Alice Smith"], others=[globex_entities["Zed Zulu"]]
    )
    alias = EntityAlias.objects.get(entity=survivor)

    response = acme_staff_client.post(f"{ENTITIES}{survivor.pk}/split/{alias.pk}/")

    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert EntityAlias.objects.filter(pk=alias.pk).exists()


def test_split_of_an_alias_of_another_entity_is_404(acme_staff_client, acme, acmebot):
    entities = acmebot["entities"]
    survivor = entity_merge(tenant=acme, survivor=entities["Acme Robotics"], others=[entities["AcmeBot"]])
    alias = EntityAlias.objects.get(entity=survivor)

    response = acme_staff_client.post(f"{ENTITIES}{entities['Alice Smith'].pk}/split/{alias.pk}/")

    assert response.status_code == 404
    assert EntityAlias.objects.filter(pk=alias.pk).exists()


# --- links ------------------------------------------------------------------------------------------------------


def test_link_list_is_per_tenant_with_memory_links(acme_staff_client, seeded_graph):
    response = acme_staff_client.get(LINKS)

    acme_links = set(
        EntityLink.objects.filter(tenant=seeded_graph.entities["Alice Smith"].tenant).values_list("pk", flat=True)
    )
    assert row_ids(response) == acme_links
    html = response.content.decode()
    founded = seeded_graph.memories["founded"].pk
    assert f'<a href="/admin/memories/memory/{founded}/change/">memory {founded}</a>' in html
    assert "Zed Zulu" not in html


def test_link_list_query_count_does_not_grow_with_rows(acme_staff_client, acme, seeded_graph):
    with CaptureQueriesContext(connection) as few:
        acme_staff_client.get(LINKS)
    for n in range(5):
        EntityLinkFactory(
            tenant=acme,
            memory=seeded_graph.memories["founded"],
            subject=seeded_graph.entities["Carol White"],
            relationship="mentioned",
            object=None,
            confidence=0.3,
            subject_norm=f"extra {n}",
        )

    with CaptureQueriesContext(connection) as many:
        response = acme_staff_client.get(LINKS)

    assert len(row_ids(response)) == 12
    assert len(many) == len(few)


def test_link_filters_by_relationship_and_confidence_band(acme_staff_client, seeded_graph):
    EntityLink.objects.filter(pk=link_id(seeded_graph, "attended")).update(confidence=0.6)

    def listed(**params):
        return row_ids(acme_staff_client.get(LINKS, params))

    assert listed(relationship="founded") == {link_id(seeded_graph, "founded")}
    assert listed(confidence="high") == {
        link_id(seeded_graph, key) for key in ("founded", "invested", "advises", "reports", "works")
    }
    assert listed(confidence="medium") == {link_id(seeded_graph, "attended")}
    assert listed(confidence="low") == {link_id(seeded_graph, "mention")}
    assert listed(relationship="works_at", confidence="low") == set()


def test_link_tenant_filter(superuser_client, globex, seeded_graph):
    response = superuser_client.get(LINKS, {"tenant__id__exact": globex.pk})

    assert row_ids(response) == set(EntityLink.objects.filter(tenant=globex).values_list("pk", flat=True))


def test_delete_links_action_confirms_then_recounts(acme_staff_client, acme, seeded_graph):
    chosen = [link_id(seeded_graph, "invested"), link_id(seeded_graph, "advises")]

    confirm = acme_staff_client.post(LINKS, {"action": "delete_links", "_selected_action": chosen})
    response = acme_staff_client.post(
        LINKS, {"action": "delete_links", "_selected_action": chosen, "post": "yes"}, follow=True
    )

    assert "Delete 2 links?" in confirm.content.decode()
    assert "Deleted 2 links." in response.content.decode()
    assert not EntityLink.objects.filter(pk__in=chosen).exists()
    remaining = counts(acme)
    assert remaining["Acme Robotics"] == 1  # only Alice's memory now
    assert remaining["Bob Jones"] == 1  # only the reports_to memory
    assert "Carol White" not in remaining  # nothing mentions her any more: pruned


def test_delete_links_action_cannot_reach_another_tenant(acme_staff_client, globex, seeded_graph):
    foreign = EntityLink.objects.filter(tenant=globex).values_list("pk", flat=True)

    acme_staff_client.post(LINKS, {"action": "delete_links", "_selected_action": list(foreign), "post": "yes"})

    assert EntityLink.objects.filter(tenant=globex).count() == 2


def test_bulk_delete_is_replaced_by_the_counting_action(acme_staff_client, seeded_graph):
    html = acme_staff_client.get(LINKS).content.decode()

    assert 'value="delete_links"' in html
    assert 'value="delete_selected"' not in html


def test_link_delete_page_goes_through_the_service(acme_staff_client, acme, seeded_graph):
    response = acme_staff_client.post(f"{LINKS}{link_id(seeded_graph, 'works')}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert {"Dan Brown", "Globex Labs"}.isdisjoint(counts(acme))


# --- the graph page and its JSON --------------------------------------------------------------------------------


def graph(client, **params):
    response = client.get(DATA, params)
    assert response.status_code == 200, response.content
    payload = response.json()
    nodes = {node["name"] for node in payload["nodes"]}
    edges = {(edge["source"], edge["relationship"], edge["target"], edge["memory"]) for edge in payload["edges"]}
    return payload, nodes, edges


def edge(seeded, key: str, subject: str, relationship: str, obj: str):
    return (seeded.entities[subject].pk, relationship, seeded.entities[obj].pk, seeded.memories[key].pk)


def test_graph_data_at_depth_1_is_the_neighbourhood_and_the_links_among_it(acme_staff_client, acme, seeded_graph):
    centre = seeded_graph.entities["Acme Robotics"]

    payload, nodes, edges = graph(acme_staff_client, tenant=acme.pk, entity=centre.pk, depth=1)

    assert payload["centre"] == {"id": centre.pk, "name": "Acme Robotics"}
    assert nodes == {"Acme Robotics", "Alice Smith", "Bob Jones"}
    assert edges == {
        edge(seeded_graph, "founded", "Alice Smith", "founded", "Acme Robotics"),
        edge(seeded_graph, "invested", "Bob Jones", "invested_in", "Acme Robotics"),
        edge(seeded_graph, "reports", "Alice Smith", "reports_to", "Bob Jones"),  # albert's private memory
    }
    assert {node["name"]: node["distance"] for node in payload["nodes"]} == {
        "Acme Robotics": 0,
        "Alice Smith": 1,
        "Bob Jones": 1,
    }
    assert payload["truncated"] is False
    founded = next(e for e in payload["edges"] if e["relationship"] == "founded")
    assert founded["memory_url"] == f"/admin/memories/memory/{seeded_graph.memories['founded'].pk}/change/"
    alice = next(node for node in payload["nodes"] if node["name"] == "Alice Smith")
    assert alice == {
        "id": seeded_graph.entities["Alice Smith"].pk,
        "name": "Alice Smith",
        "kind": "person",
        "mentions": 3,
        "distance": 1,
        "url": f"/admin/graph/entity/{seeded_graph.entities['Alice Smith'].pk}/change/",
    }


def test_graph_data_at_depth_2(acme_staff_client, acme, seeded_graph):
    centre = seeded_graph.entities["Acme Robotics"]

    payload, nodes, edges = graph(acme_staff_client, tenant=acme.pk, entity=centre.pk, depth=2)

    assert nodes == {"Acme Robotics", "Alice Smith", "Bob Jones", "Carol White", "Stanford University"}
    assert edges == {
        edge(seeded_graph, "founded", "Alice Smith", "founded", "Acme Robotics"),
        edge(seeded_graph, "invested", "Bob Jones", "invested_in", "Acme Robotics"),
        edge(seeded_graph, "reports", "Alice Smith", "reports_to", "Bob Jones"),
        edge(seeded_graph, "advises", "Carol White", "advises", "Bob Jones"),
        edge(seeded_graph, "attended", "Alice Smith", "attended", "Stanford University"),
    }
    assert payload["depth"] == 2


def test_graph_data_reads_a_bounded_number_of_queries(
    acme_staff_client, acme, seeded_graph, django_assert_max_num_queries
):
    centre = seeded_graph.entities["Acme Robotics"]

    # session, user, the user's permissions (own and groups': the role), the user's tenants, tenant, entity, one per
    # hop, the links among the nodes, the nodes
    with django_assert_max_num_queries(11):
        graph(acme_staff_client, tenant=acme.pk, entity=centre.pk, depth=2)


def test_graph_data_relationship_filter(acme_staff_client, acme, seeded_graph):
    centre = seeded_graph.entities["Acme Robotics"]

    _, nodes, edges = graph(acme_staff_client, tenant=acme.pk, entity=centre.pk, depth=2, relationship="invested_in")

    assert nodes == {"Acme Robotics", "Bob Jones"}
    assert edges == {edge(seeded_graph, "invested", "Bob Jones", "invested_in", "Acme Robotics")}


def test_graph_data_other_component_and_bare_mentions(acme_staff_client, acme, seeded_graph):
    _, dan_nodes, _ = graph(acme_staff_client, tenant=acme.pk, entity=seeded_graph.entities["Dan Brown"].pk, depth=2)
    _, quentin_nodes, quentin_edges = graph(
        acme_staff_client, tenant=acme.pk, entity=seeded_graph.entities["Quentin Blake"].pk
    )

    assert dan_nodes == {"Dan Brown", "Globex Labs"}
    assert (quentin_nodes, quentin_edges) == ({"Quentin Blake"}, set())  # a mention has no object: no edge


def test_graph_data_without_an_entity_centres_on_the_most_mentioned(acme_staff_client, acme, seeded_graph):
    payload, _, _ = graph(acme_staff_client, tenant=acme.pk)

    # Alice and Bob have three mentions each; the name breaks the tie
    assert payload["centre"] == {"id": seeded_graph.entities["Alice Smith"].pk, "name": "Alice Smith"}
    assert payload["depth"] == 1


def test_graph_data_is_bounded(acme_staff_client, acme, seeded_graph, monkeypatch):
    monkeypatch.setattr(views, "MAX_NODES", 4)
    centre = seeded_graph.entities["Acme Robotics"]

    payload, nodes, edges = graph(acme_staff_client, tenant=acme.pk, entity=centre.pk, depth=2)

    # the strongest links are followed first: Acme's two neighbours, then Bob's 0.85 links before Alice's
    assert len(nodes) == 4
    assert {"Acme Robotics", "Alice Smith", "Bob Jones"} < nodes
    assert payload["truncated"] is True
    assert all(source in payload_ids(payload) and target in payload_ids(payload) for source, _, target, _ in edges)


def payload_ids(payload) -> set[int]:
    return {node["id"] for node in payload["nodes"]}


def test_graph_data_of_another_tenant_is_404(acme_staff_client, acme, globex, seeded_graph):
    foreign_entity = acme_staff_client.get(
        DATA, {"tenant": acme.pk, "entity": seeded_graph.globex_entities["Alice Smith"].pk}
    )
    foreign_tenant = acme_staff_client.get(DATA, {"tenant": globex.pk})
    missing = acme_staff_client.get(DATA, {"tenant": acme.pk, "entity": 10**12})

    assert foreign_entity.status_code == 404
    assert foreign_entity.json()["error"]["code"] == "unknown_entity"
    assert foreign_tenant.status_code == 404
    assert foreign_tenant.json()["error"]["code"] == "unknown_tenant"
    assert missing.status_code == 404


def test_superuser_reads_any_tenant_but_entities_stay_in_theirs(superuser_client, globex, seeded_graph):
    ok, nodes, _ = graph(superuser_client, tenant=globex.pk, entity=seeded_graph.globex_entities["Alice Smith"].pk)
    crossed = superuser_client.get(DATA, {"tenant": globex.pk, "entity": seeded_graph.entities["Alice Smith"].pk})

    assert nodes == {"Alice Smith", "Acme Robotics", "Zed Zulu"}
    assert crossed.status_code == 404


@pytest.mark.parametrize("depth", ["0", "3", "x", "-1", "1.5"])
def test_graph_data_rejects_a_bad_depth(acme_staff_client, acme, seeded_graph, depth):
    response = acme_staff_client.get(DATA, {"tenant": acme.pk, "depth": depth})

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_parameter"


@pytest.mark.parametrize(
    "params",
    [{}, {"tenant": "abc"}, {"entity": "1"}, {"tenant": "1", "entity": "x"}, {"tenant": "1", "relationship": "r" * 33}],
)
def test_graph_data_rejects_bad_parameters(acme_staff_client, acme, params):
    if params.get("tenant") == "1":
        params = {**params, "tenant": acme.pk}

    response = acme_staff_client.get(DATA, params)

    assert response.status_code == 400


@pytest.mark.parametrize("url", [PAGE, DATA, SEARCH])
def test_graph_views_send_non_staff_to_the_login(client, acme, url):
    user = StaffUserFactory(is_staff=False, tenants=[acme])
    client.force_login(user)

    response = client.get(url, {"tenant": acme.pk})

    assert response.status_code == 302
    assert response["Location"].startswith(f"/admin/login/?next={url}")


def test_graph_data_for_a_staff_user_without_tenants_is_404(client, acme, seeded_graph):
    user = StaffUserFactory()  # administers no tenant
    client.force_login(user)

    assert client.get(DATA, {"tenant": acme.pk}).status_code == 404
    assert "You do not administer any tenant." in client.get(PAGE).content.decode()


def test_entity_search_matches_names_and_aliases_within_the_tenant(acme_staff_client, acme, globex, acmebot):
    entities = acmebot["entities"]
    entity_merge(tenant=acme, survivor=entities["Acme Robotics"], others=[entities["AcmeBot"]])

    by_alias = acme_staff_client.get(SEARCH, {"tenant": acme.pk, "q": "acmebot"}).json()["results"]
    by_part = acme_staff_client.get(SEARCH, {"tenant": acme.pk, "q": "smi"}).json()["results"]
    foreign = acme_staff_client.get(SEARCH, {"tenant": globex.pk, "q": "zed"})

    assert [result["name"] for result in by_alias] == ["Acme Robotics"]
    assert by_part == [{"id": entities["Alice Smith"].pk, "name": "Alice Smith", "kind": "person", "mentions": 3}]
    assert foreign.status_code == 404


def test_graph_page_preselects_and_says_it_is_not_scope_filtered(acme_staff_client, acme, seeded_graph):
    alice = seeded_graph.entities["Alice Smith"]

    response = acme_staff_client.get(PAGE, {"tenant": acme.pk, "entity": alice.pk, "depth": 2})

    html = response.content.decode()
    assert response.status_code == 200
    assert "all of the tenant's links" in html
    assert f'"entity": {alice.pk}' in html
    assert '"depth": 2' in html
    assert 'src="/static/graph/vendor/force-graph/force-graph.min.js"' in html
    assert f'<option value="{acme.pk}" selected>acme' in html
    assert "globex" not in html


def test_graph_page_with_another_tenants_entity_is_404(acme_staff_client, acme, globex, seeded_graph):
    foreign = seeded_graph.globex_entities["Alice Smith"]

    assert acme_staff_client.get(PAGE, {"tenant": acme.pk, "entity": foreign.pk}).status_code == 404
    assert acme_staff_client.get(PAGE, {"tenant": globex.pk}).status_code == 404
