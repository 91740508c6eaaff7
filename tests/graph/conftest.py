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


@pytest.fixture
def seeded_graph(acme, globex, django_capture_on_commit_callbacks) -> SeededGraph:
    """Acme's and globex's graphs above, written through ``memory_create`` with link extraction run on commit."""
    with django_capture_on_commit_callbacks(execute=True):
        memories = {key: remember(acme, text, scope=tag) for key, (tag, text) in ACME_STATEMENTS.items()}
        globex_memories = {key: remember(globex, text, scope=tag) for key, (tag, text) in GLOBEX_STATEMENTS.items()}
    return SeededGraph(
        memories=memories,
        entities=entities_of(acme),
        globex_memories=globex_memories,
        globex_entities=entities_of(globex),
    )
