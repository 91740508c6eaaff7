"""Issue 11, finding 10 (the non-concurrent edges of the unique index of live content): an expired twin gives way
to a new write, an update or move that would make a second live copy is a 409, an update of a deleted memory is a
404 and never re-inserts it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from memories.models import Member, Memory, Scope
from memories.services.memory import Author, memory_create, memory_move, memory_update
from orgmemory.errors import Conflict, NotFound

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="admin:test")


def albert(acme) -> Author:
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=acme, user_id="albert"))


def test_the_database_refuses_a_second_live_copy(acme):
    first = memory_create(tenant=acme, author=ADMIN, content="Standup is at nine.", scope="team:platform").memory

    with pytest.raises(IntegrityError), transaction.atomic():
        Memory.objects.create(
            tenant=acme, scope=first.scope, content="standup is at nine.", content_hash=first.content_hash
        )


def test_a_write_identical_to_an_expired_memory_stores_a_new_live_one(acme):
    past = timezone.now() - timedelta(days=1)
    expired = memory_create(tenant=acme, author=albert(acme), content="My desk is 4.12.", expires_at=past).memory

    again = memory_create(tenant=acme, author=albert(acme), content="My desk is 4.12.")

    expired.refresh_from_db()
    assert again.created
    assert expired.superseded_by_id == again.memory.pk
    assert list(Memory.objects.live().filter(content="My desk is 4.12.")) == [again.memory]


def test_an_update_to_the_text_of_another_live_memory_is_a_conflict(acme):
    kept = memory_create(tenant=acme, author=albert(acme), content="I drink tea.").memory
    other = memory_create(tenant=acme, author=albert(acme), content="I cycle to work.").memory

    with pytest.raises(Conflict) as raised:
        memory_update(memory=other, author=albert(acme), content="i drink  TEA.")

    assert (raised.value.code, raised.value.details) == ("duplicate_content", {"memory_id": kept.pk})
    other.refresh_from_db()
    assert other.content == "I cycle to work."


def test_moving_onto_a_scope_that_holds_the_same_text_is_a_conflict(acme):
    memory_create(tenant=acme, author=ADMIN, content="Backups run nightly.", scope="team:platform")
    moving = memory_create(tenant=acme, author=ADMIN, content="Backups run nightly.", scope="team:data").memory

    with pytest.raises(Conflict):
        memory_move(memory=moving, author=ADMIN, scope="team:platform")

    assert Memory.objects.get(pk=moving.pk).scope.key == "data"


def test_updating_a_memory_deleted_meanwhile_is_a_404_and_does_not_bring_it_back(acme):
    memory = memory_create(tenant=acme, author=albert(acme), content="Parking spot 12.").memory
    Memory.objects.filter(pk=memory.pk).delete()

    with pytest.raises(NotFound):
        memory_update(memory=memory, author=albert(acme), content="Parking spot 14.")

    assert not Memory.objects.filter(pk=memory.pk).exists()


def test_a_write_at_a_node_deleted_meanwhile_is_a_404(acme):
    data = Scope.objects.get(tenant=acme, level="team", key="data")
    Scope.objects.filter(pk=data.pk).delete()  # deleted after the caller resolved it

    with pytest.raises(NotFound):
        memory_create(tenant=acme, author=ADMIN, content="Too late.", scope=data)

    assert not Memory.objects.filter(content="Too late.").exists()


def test_the_migration_folds_existing_twins_into_the_history_of_a_live_one(acme):
    """0007 runs on databases that already hold twins (written before the index): each later twin becomes history
    of the earliest live one, an expired twin included, so the unique index can be built."""
    import importlib

    from django.db import connection

    fold = importlib.import_module("memories.migrations.0007_unique_live_content").FOLD_TWINS
    kept = memory_create(tenant=acme, author=ADMIN, content="Twin text.", scope="team:platform").memory
    other = memory_create(tenant=acme, author=ADMIN, content="Lonely text.", scope="team:platform").memory
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX memory_unique_live_content")  # as before the migration (rolled back after)
    past = timezone.now() - timedelta(days=1)
    expired = Memory.objects.create(
        tenant=acme, scope=kept.scope, content="twin text.", content_hash=kept.content_hash, expires_at=past
    )
    Memory.objects.filter(pk=expired.pk).update(id=kept.pk - 1000)  # an older, expired twin: not the keeper
    later = Memory.objects.create(tenant=acme, scope=kept.scope, content="TWIN text.", content_hash=kept.content_hash)

    with connection.cursor() as cursor:
        cursor.execute(fold)

    rows = dict(Memory.objects.filter(content_hash=kept.content_hash).values_list("pk", "superseded_by_id"))
    assert rows == {kept.pk - 1000: kept.pk, kept.pk: None, later.pk: kept.pk}
    assert Memory.objects.get(pk=other.pk).superseded_by_id is None


def test_the_migration_drops_quotes_from_stored_contradiction_warnings(acme):
    import importlib

    from django.apps import apps

    drop_quotes = importlib.import_module("memories.migrations.0008_warnings_without_quotes").drop_quotes
    memory = memory_create(tenant=acme, author=ADMIN, content="We deploy on Fridays.", scope="team:platform").memory
    quoted = [
        {"code": "possible_contradiction", "memory_id": 7, "message": "this may contradict memory 7: Bea's words"},
        {"code": "other", "message": "kept as it is"},
    ]
    Memory.objects.filter(pk=memory.pk).update(warnings=quoted)

    drop_quotes(apps, None)

    assert Memory.objects.get(pk=memory.pk).warnings == [
        {"code": "possible_contradiction", "memory_id": 7, "message": "this may contradict memory 7"},
        {"code": "other", "message": "kept as it is"},
    ]


def test_updating_a_stale_copy_does_not_revive_a_memory_superseded_meanwhile(acme):
    older = memory_create(
        tenant=acme,
        author=ADMIN,
        content="Our team wiki lives on the confluence space alpha for every project",
        scope="team:data",
    ).memory
    stale_copy = Memory.objects.get(pk=older.pk)
    newer = memory_create(
        tenant=acme,
        author=ADMIN,
        content="Our team wiki lives on the confluence space beta for every project",
        scope="team:data",
    ).memory
    assert Memory.objects.get(pk=older.pk).superseded_by_id == newer.pk

    memory_update(memory=stale_copy, author=ADMIN, title="Wiki")

    assert Memory.objects.get(pk=older.pk).superseded_by_id == newer.pk
    assert list(Memory.objects.live().filter(tenant=acme, scope__key="data")) == [newer]
