"""A small seeded knowledge graph shared by the graph admin tests and the graph page's browser test.

Django is imported inside the fixtures only: the pure extraction tests in this folder also run without Django
(``-p no:django``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import remember

# One sentence per memory, each stating exactly one typed link (checked against graph.extraction), so the graph is
# known edge by edge:
#
#   Alice Smith --founded--> Acme Robotics <--invested_in-- Bob Jones <--advises-- Carol White
#   Alice Smith --reports_to--> Bob Jones        Alice Smith --attended--> Stanford University
#   Dan Brown --works_at--> Globex Labs          (a separate component)
#
# plus a bare mention (no object: never an edge) and, in globex, look-alike names that must never leak.
ACME_STATEMENTS = {
    "founded": ("team:platform", "Alice Smith founded Acme Robotics."),
    "invested": ("org:acme", "Bob Jones invested in Acme Robotics."),
    "advises": ("team:sales", "Carol White advises Bob Jones."),
    "reports": ("user:albert", "Alice Smith reports to Bob Jones."),  # private to albert: the admin still sees it
    "attended": ("team:data", "Alice Smith studied at Stanford University."),
    "works": ("team:data", "Dan Brown works at Globex Labs."),
    "mention": ("team:platform", "We met Quentin Blake yesterday."),
}
GLOBEX_STATEMENTS = {
    "founded": ("team:platform", "Alice Smith founded Acme Robotics."),
    "advises": ("team:platform", "Zed Zulu advises Alice Smith."),
}


@dataclass
class SeededGraph:
    memories: dict  # statement key -> Memory
    entities: dict  # entity name -> Entity
    globex_memories: dict
    globex_entities: dict

    def ids(self, *names: str) -> set[int]:
        return {self.entities[name].pk for name in names}


def entities_of(tenant) -> dict:
    from graph.models import Entity

    return {entity.name: entity for entity in Entity.objects.filter(tenant=tenant)}


def _graph_of(acme, globex, memory_ids: dict, globex_memory_ids: dict) -> SeededGraph:
    from memories.models import Memory

    rows = Memory.objects.in_bulk([*memory_ids.values(), *globex_memory_ids.values()])
    return SeededGraph(
        memories={key: rows[pk] for key, pk in memory_ids.items()},
        entities=entities_of(acme),
        globex_memories={key: rows[pk] for key, pk in globex_memory_ids.items()},
        globex_entities=entities_of(globex),
    )


def _seed(acme, globex) -> tuple[dict, dict]:
    """Write both tenants' statements through ``memory_create``; returns their memory ids by statement key."""
    acme_ids = {key: remember(acme, text, scope=tag).pk for key, (tag, text) in ACME_STATEMENTS.items()}
    globex_ids = {key: remember(globex, text, scope=tag).pk for key, (tag, text) in GLOBEX_STATEMENTS.items()}
    return acme_ids, globex_ids


@pytest.fixture(scope="module")
def _committed_graph(django_db_setup, django_db_blocker):
    """Acme, globex and their graphs, written once per test module and committed (each memory's embedding and link
    extraction run at its commit, as in production); the tenants are deleted after the module. Tests see them
    through ``seeded_graph`` inside their own rolled-back transaction, so what a test changes is undone."""
    from tests.conftest import ACME_CHART, GLOBEX_CHART, committed_tenants

    with committed_tenants(django_db_blocker, ACME_CHART, GLOBEX_CHART) as (acme, globex):
        yield _seed(acme, globex)


@pytest.fixture
def seeded_graph(_committed_graph, db) -> SeededGraph:
    """Acme's and globex's graphs above (``acme``/``globex`` of tests/conftest.py, whose onboarding finds them),
    written through ``memory_create`` with link extraction run on commit. Written once per module (the seeding is
    the slowest set-up of these tests) and read afresh for each test, which runs in a transaction rolled back at its
    end. For a test on the live server (whose flush would wipe committed rows), use ``seeded_graph_live``."""
    from memories.models import Tenant

    acme, globex = Tenant.objects.get(slug="acme"), Tenant.objects.get(slug="globex")
    return _graph_of(acme, globex, *_committed_graph)


@pytest.fixture
def seeded_graph_live(acme, globex, transactional_db) -> SeededGraph:
    """The same graph for one test on the transactional database (a live server's test): written by the test."""
    return _graph_of(acme, globex, *_seed(acme, globex))
