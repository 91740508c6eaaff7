"""Two indexing workers (import workers, Celery) extracting links at once lock shared entities in the order their
memories name them, so PostgreSQL may abort one as a deadlock victim. The victim's transaction is redone as it was
(a batch stays a batch), not left failed: the 100k import left one memory with ``links_state=failed`` this way
(the batch fell back to one memory at a time, and that memory deadlocked again)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

import graph.services
from graph.models import Entity
from graph.services import links_extract_for_memories
from memories.models import IndexState, Memory
from memories.services.memory import Author, memory_create

pytestmark = pytest.mark.django_db(transaction=True)

ADMIN = Author(kind="admin", label="admin:test")


def test_a_link_batch_chosen_as_a_deadlock_victim_runs_again(acme, monkeypatch):
    first = memory_create(
        tenant=acme, author=ADMIN, content="Alice Smith founded Acme Robotics.", scope="org:acme"
    ).memory
    second = memory_create(tenant=acme, author=ADMIN, content="Carol Diaz joined Beta Labs.", scope="org:acme").memory
    shared = [
        Entity.objects.create(tenant=acme, name=name, norm=name.lower(), mention_count=0)
        for name in ("Zeta Corp", "Yotta Labs")
    ]
    batch = graph.services._replace_links_batch
    both_hold_one = threading.Barrier(2)
    calls: list[str] = []
    one_by_one: list[int] = []

    def contended(memories, resolver):
        """The first attempt of each worker takes the shared entities' locks in opposite orders (as two batches
        naming them in opposite orders do), then does the real work."""
        name = threading.current_thread().name
        attempt = calls.count(name)
        calls.append(name)
        if attempt == 0:
            order = shared if name == "first" else shared[::-1]
            with connection.cursor() as cursor:
                cursor.execute("UPDATE graph_entity SET mention_count = mention_count WHERE id = %s", [order[0].pk])
                both_hold_one.wait(timeout=30)
                cursor.execute("UPDATE graph_entity SET mention_count = mention_count WHERE id = %s", [order[1].pk])
        return batch(memories, resolver)

    def replaced_alone(memory, resolver):
        one_by_one.append(memory.pk)
        return original_one(memory, resolver)

    original_one = graph.services._replace_links
    monkeypatch.setattr(graph.services, "_replace_links_batch", contended)
    monkeypatch.setattr(graph.services, "_replace_links", replaced_alone)
    results: dict[str, object] = {}

    def work(memory: Memory) -> None:
        try:
            results[threading.current_thread().name] = links_extract_for_memories(memory_ids=[memory.pk])
        except Exception as exc:  # reported by the assertions below
            results[threading.current_thread().name] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=work, args=(memory,), name=name)
        for name, memory in (("first", first), ("second", second))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert results == {
        "first": {"memories": 1, "failed": 0, "links": 1},
        "second": {"memories": 1, "failed": 0, "links": 1},
    }
    assert sorted(calls) == ["first", "first", "second"] or sorted(calls) == ["first", "second", "second"]
    assert one_by_one == []  # the victim's batch ran again as a batch
    states = set(Memory.objects.filter(pk__in=[first.pk, second.pk]).values_list("links_state", flat=True))
    assert states == {IndexState.READY}
