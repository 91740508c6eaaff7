"""orgmemory.rows: instances built from a hand-written statement are those the ORM builds — every loaded field equal
and of the same type (JSON decoded), the excluded fields deferred, a LEFT JOIN miss is None — and the two reads
that use it (the search's hit rows, API-key authentication) keep their tenant isolation."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories.models import ApiKey, Memory, Scope
from memories.services.memory import Author, memory_create
from memories.services.tenancy import api_key_authenticate, api_key_create, api_key_revoke
from orgmemory.rows import ModelColumns
from retrieval.selectors import memories_load

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")
HEAVY = ("search_vector", "dedup_bands")


def _same_fields(built, expected, *, skip=()):
    for field in type(expected)._meta.concrete_fields:
        if field.attname in skip:
            continue
        assert getattr(built, field.attname) == getattr(expected, field.attname), field.attname
        assert type(getattr(built, field.attname)) is type(getattr(expected, field.attname)), field.attname


def test_a_row_becomes_the_instance_the_orm_builds(acme):
    written = memory_create(
        tenant=acme,
        author=ADMIN,
        scope="team:platform",
        title="Deploys",
        content="The platform team deploys with Argo CD.",
        metadata={"author": "user", "tags": ["ci", 3]},
    ).memory
    columns = ModelColumns(Memory, "m", exclude=HEAVY)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns.select} FROM memories_memory m WHERE m.id = %s", [written.pk])
        built = columns.build(cursor.fetchone())

    expected = Memory.objects.defer(*HEAVY).get(pk=written.pk)
    _same_fields(built, expected, skip=HEAVY)
    assert built.metadata == {"author": "user", "tags": ["ci", 3]}
    assert built.get_deferred_fields() == set(HEAVY) == expected.get_deferred_fields()
    assert built._state.adding is False and built._state.db == "default"
    assert built.search_vector == expected.search_vector  # a deferred field still loads on access


def test_a_left_join_miss_builds_none_and_bad_declarations_are_refused(acme):
    columns = ModelColumns(Scope, "s")
    assert columns.build((None,) * columns.width) is None
    with pytest.raises(ValueError, match="no concrete fields"):
        ModelColumns(Memory, "m", exclude=("no_such_field",))


def test_memories_load_gives_each_hit_with_its_scope_and_parent_and_only_the_tenants(acme, globex):
    team = memory_create(
        tenant=acme, author=ADMIN, scope="team:platform", content="Platform standup is at 09:45.", metadata={"a": 1}
    ).memory
    in_project = memory_create(
        tenant=acme, author=ADMIN, scope="team:platform", content="Apollo ships in May.", project="apollo"
    ).memory
    foreign = memory_create(tenant=globex, author=ADMIN, scope="team:platform", content="Globex standup.").memory

    loaded = memories_load(tenant=acme, ids=[team.pk, in_project.pk, foreign.pk]).memories

    assert set(loaded) == {team.pk, in_project.pk}  # another tenant's id is not read, whatever the caller passes
    expected = {m.pk: m for m in Memory.objects.filter(pk__in=loaded).select_related("scope__parent").defer(*HEAVY)}
    for pk, memory in loaded.items():
        _same_fields(memory, expected[pk], skip=HEAVY)
        _same_fields(memory.scope, expected[pk].scope)
        assert memory.get_deferred_fields() == set(HEAVY)
    assert loaded[team.pk].metadata == {"a": 1}
    assert loaded[team.pk].scope.tag == "team:platform"
    assert loaded[team.pk].scope.parent.tag == "division:eu"
    assert loaded[in_project.pk].scope.parent.tag == "team:platform"  # a project is shown at its owner node
    root = Scope.objects.get(tenant=acme, level="org")
    org_memory = memory_create(tenant=acme, author=ADMIN, scope=root, content="Acme is an org.").memory
    assert memories_load(tenant=acme, ids=[org_memory.pk]).memories[org_memory.pk].scope.parent is None
    assert memories_load(tenant=acme, ids=[]).memories == {}


def test_api_key_authentication_builds_the_key_with_its_tenant_and_scope_in_one_statement(acme, globex):
    team = Scope.objects.get(tenant=acme, level="team", key="platform")
    scoped, scoped_plain = api_key_create(tenant=acme, name="scoped", permissions=["read"], scope=team)
    whole, whole_plain = api_key_create(tenant=globex, name="whole", permissions=["read", "write"])
    ApiKey.objects.filter(pk__in=[scoped.pk, whole.pk]).update(last_used_at=None)

    with CaptureQueriesContext(connection) as queries:
        found = api_key_authenticate(plain=scoped_plain)
    assert [query["sql"].split()[0] for query in queries.captured_queries] == ["SELECT", "UPDATE"]  # + last_used
    assert (found.pk, found.tenant, found.scope, found.permissions) == (scoped.pk, acme, team, ["read"])
    assert found.tenant.slug == acme.slug and found.scope.tag == "team:platform"
    assert found.last_used_at is not None
    _same_fields(found, ApiKey.objects.get(pk=scoped.pk))

    other = api_key_authenticate(plain=whole_plain)
    assert (other.tenant, other.scope, sorted(other.permissions)) == (globex, None, ["read", "write"])

    # the prefix right, the secret wrong: nothing; a revoked key: nothing
    assert api_key_authenticate(plain=scoped_plain[:-1] + ("a" if scoped_plain[-1] != "a" else "b")) is None
    api_key_revoke(api_key=scoped)
    assert api_key_authenticate(plain=scoped_plain) is None
