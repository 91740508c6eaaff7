"""Issue 11, finding 10: races, with real threads on a transactional database (each thread its own connection).

- identical concurrent writes store exactly one live row (a partial unique index on tenant, scope and content
  hash of live rows; the loser of the race gets the winner's row back as ``deduplicated``);
- a session replayed by four threads at once stores each event once;
- erasing a user while writes for them are in flight leaves nothing of theirs and fails no request with anything
  but a clean 404/409.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from memories.models import Member, Memory, Scope
from memories.services import api_key_create
from memories.services.memory import Author, content_hash, memory_create
from memories.services.sessions import session_ingest
from tests.api.conftest import error_of

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
ADMIN = Author(kind="admin", label="admin:test")


def run_together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(index)`` in ``count`` threads released at once by a barrier; return results (or exceptions)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def target(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except Exception as exc:  # reported by the test, not swallowed
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return results


def agent(tenant, user_id: str) -> Author:
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


@pytest.mark.parametrize("round_", range(3))
def test_identical_concurrent_writes_store_one_live_row(acme, round_):
    content = f"The platform team's release train leaves every Tuesday at ten, round {round_}."
    authors = [agent(acme, "albert"), agent(acme, "bea")]

    results = run_together(
        THREADS,
        lambda index: memory_create(tenant=acme, author=authors[index % 2], content=content, scope="team:platform"),
    )

    errors = [result for result in results if isinstance(result, Exception)]
    assert errors == []
    live = Memory.objects.live().filter(tenant=acme, content_hash=content_hash(content))
    assert live.count() == 1
    assert {result.memory.pk for result in results} == {live.get().pk}
    assert sorted(result.created for result in results) == [False] * (THREADS - 1) + [True]
    assert all(result.deduplicated for result in results if not result.created)


def test_identical_writes_differing_only_in_case_and_spaces_also_store_one_row(acme):
    variants = ["Deploys  freeze on FRIDAYS.", "deploys freeze on fridays.", " Deploys freeze on Fridays. "]

    results = run_together(
        6, lambda index: memory_create(tenant=acme, author=agent(acme, "albert"), content=variants[index % 3])
    )

    assert [result for result in results if isinstance(result, Exception)] == []
    assert Memory.objects.live().filter(tenant=acme, scope__key="albert").count() == 1


def test_a_session_replayed_by_four_threads_stores_each_event_once(acme):
    events = [
        {"id": f"e{index}", "author": "user", "text": f"Replay note {index}: shard{index} is on host{index}."}
        for index in range(12)
    ]
    events.append({"id": "e-same-text", "author": "user", "text": "Replay note 0: shard0 is on host0."})

    results = run_together(
        4,
        lambda index: session_ingest(
            tenant=acme, author=agent(acme, "albert"), app_name="bot", session_id="replayed", events=events
        ),
    )

    assert [result for result in results if isinstance(result, Exception)] == []
    stored = Memory.objects.filter(tenant=acme, source_session="replayed")
    assert Counter(stored.values_list("source_event_id", flat=True)) == {f"e{index}": 1 for index in range(12)}
    assert stored.live().count() == 12
    assert sum(result.created for result in results) == 12
    # every replay answers with the same ids, in event order (the last event's text is e0's: it dedups to e0)
    by_event = dict(stored.values_list("source_event_id", "pk"))
    expected = [by_event[f"e{index}"] for index in range(12)] + [by_event["e0"]]
    assert [result.memory_ids for result in results] == [expected] * 4


def test_erasing_a_user_while_writes_for_them_are_in_flight_leaves_no_residue(acme):
    _, plain = api_key_create(tenant=acme, name="race-key", permissions=["read", "write", "delete", "admin"])
    marker = "zqxrace"
    albert_scope_id = Scope.objects.get(tenant=acme, level="user", key="albert").pk

    def work(index: int):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
        if index == 0:
            return [client.delete("/api/v1/users/albert")]
        responses = []
        for attempt in range(4):  # some land before the erasure, some during, some after
            content = f"{marker} note {index}.{attempt} from albert's agent"
            if (index + attempt) % 3 == 0:
                events = [{"id": "e1", "text": content}]
                body = {"user_id": "albert", "session_id": f"s{index}.{attempt}", "events": events}
                responses.append(client.post("/api/v1/sessions", body, format="json"))
            else:
                scope = "team:platform" if (index + attempt) % 2 else "user:albert"
                body = {"user_id": "albert", "content": content, "scope": scope}
                responses.append(client.post("/api/v1/memories", body, format="json"))
        return responses

    results = run_together(THREADS, work)

    assert [r for r in results if isinstance(r, Exception)] == []
    erasure, writes = results[0][0], [response for result in results[1:] for response in result]
    assert erasure.status_code == 200, erasure.content
    statuses = Counter(response.status_code for response in writes)
    assert set(statuses) <= {200, 201, 404, 409}, [r.content for r in writes if r.status_code >= 500]
    assert all(set(error_of(r)) for r in writes if r.status_code >= 400)
    assert not Memory.objects.filter(tenant=acme, content__contains=marker).exists()
    assert not Memory.objects.filter(scope_id=albert_scope_id).exists()
    assert not Member.objects.filter(tenant=acme, user_id="albert").exists()


def test_concurrent_first_writes_of_a_new_user_provision_them_once(acme):
    from memories.models import Policy

    Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)
    _, plain = api_key_create(tenant=acme, name="provision-key", permissions=["read", "write"])

    def work(index: int):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
        events = [{"id": "e1", "text": "First words of a newcomer."}]
        return client.post("/api/v1/sessions", {"user_id": "newcomer", "session_id": "first", "events": events})

    responses = run_together(4, work)

    assert [r for r in responses if isinstance(r, Exception)] == []
    assert sorted(response.status_code for response in responses) == [200, 200, 200, 201]
    assert Member.objects.filter(tenant=acme, user_id="newcomer").count() == 1
    assert Memory.objects.filter(tenant=acme, source_session="first").count() == 1


def test_a_batch_picked_as_a_deadlock_victim_is_retried_not_failed(acme):
    """Two transactions write the same two texts in opposite orders: PostgreSQL aborts one of them, which (a whole
    transaction of its own) runs again and finds the texts the other stored: two live rows, no error."""
    from django.db import transaction

    from memories.services.memory import memory_create_batch
    from memories.services.retry import retried_on_deadlock

    first, second = "Deadlock text one about runbooks.", "Deadlock text two about pagers."
    holding_first = threading.Event()

    @retried_on_deadlock  # should the deadlock check pick this side instead, it runs again too
    def hold_first_then_write_second():
        with transaction.atomic():
            memory_create(tenant=acme, author=ADMIN, content=first, scope="team:platform")
            holding_first.set()
            # meanwhile the batch stores `second` and then waits on this transaction, so this write closes the
            # cycle: the batch, waiting longer, is usually the one PostgreSQL's deadlock check aborts
            time.sleep(0.3)
            return memory_create(tenant=acme, author=ADMIN, content=second, scope="team:platform")

    def work(index: int):
        if index == 0:
            return hold_first_then_write_second()
        holding_first.wait(timeout=30)
        return memory_create_batch(
            tenant=acme,
            author=ADMIN,
            items=[{"content": second, "scope": "team:platform"}, {"content": first, "scope": "team:platform"}],
        )

    results = run_together(2, work)

    assert [result for result in results if isinstance(result, Exception)] == []
    live = set(Memory.objects.live().filter(tenant=acme, scope__key="platform").values_list("pk", flat=True))
    assert len(live) == 2
    assert {result.memory.pk for result in results[1]} == live
