"""Stored MinHash bands are keyed by their memory's scope (#28 item 5): the GIN index over them then finds a write's
near-duplicate candidates at its own scope only, so the lookup no longer reads every live row of a busy scope. A
memory's bands follow it when it moves, and migration 0020 re-keys the bands stored before it."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection

from memories.models import Memory, Scope
from memories.services.contradictions import candidate_bands
from memories.services.memory import Author, memory_create, memory_move, memory_update
from memories.textsim import scope_keyed_bands

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="admin:test")
RULE = "We deploy the billing service on Fridays after the standup."
NEGATED = "We no longer deploy the billing service on Fridays after the standup."


def test_keying_is_its_own_inverse_and_keeps_scopes_apart():
    bands = candidate_bands(RULE)

    assert scope_keyed_bands(scope_keyed_bands(bands, 17), 17) == bands
    assert not set(scope_keyed_bands(bands, 17)) & set(scope_keyed_bands(bands, 18))
    assert all(-(2**63) <= band < 2**63 for band in scope_keyed_bands(bands, 2**40 + 5))


def test_a_memory_stores_its_bands_keyed_by_its_scope(acme):
    platform = memory_create(tenant=acme, author=ADMIN, content=RULE, scope="team:platform").memory
    data = memory_create(tenant=acme, author=ADMIN, content=RULE, scope="team:data").memory

    stored = dict(Memory.objects.filter(pk__in=[platform.pk, data.pk]).values_list("pk", "dedup_bands"))
    assert stored[platform.pk] == scope_keyed_bands(candidate_bands(RULE), platform.scope_id)
    assert stored[data.pk] == scope_keyed_bands(candidate_bands(RULE), data.scope_id)
    assert not set(stored[platform.pk]) & set(stored[data.pk])


def test_the_twin_at_another_scope_is_not_a_candidate(acme):
    memory_create(tenant=acme, author=ADMIN, content=RULE, scope="team:data")

    twin = memory_create(tenant=acme, author=ADMIN, content=NEGATED, scope="team:platform")

    assert not [w for w in twin.memory.warnings if w.get("code") == "possible_contradiction"]


@pytest.mark.parametrize("how", ["move", "update"])
def test_a_moved_memory_meets_the_near_duplicates_of_its_new_scope(acme, how):
    moving = memory_create(tenant=acme, author=ADMIN, content=RULE, scope="team:data").memory
    if how == "move":
        memory_move(memory=moving, author=ADMIN, scope="team:platform")
    else:
        memory_update(memory=moving, author=ADMIN, scope="team:platform")
    platform = Scope.objects.get(tenant=acme, level="team", key="platform")
    assert Memory.objects.get(pk=moving.pk).dedup_bands == scope_keyed_bands(candidate_bands(RULE), platform.pk)

    twin = memory_create(tenant=acme, author=ADMIN, content=NEGATED, scope="team:platform").memory

    assert {"code": "possible_contradiction", "memory_id": moving.pk} in [
        {key: w[key] for key in ("code", "memory_id")} for w in twin.warnings if "memory_id" in w
    ]


def test_the_migration_keys_plain_bands_and_takes_them_back(acme):
    keyed = importlib.import_module("memories.migrations.0020_scope_keyed_bands").KEYED
    memory = memory_create(tenant=acme, author=ADMIN, content=RULE, scope="team:platform").memory
    plain = candidate_bands(RULE)
    Memory.objects.filter(pk=memory.pk).update(dedup_bands=plain)  # as stored before 0020

    with connection.cursor() as cursor:
        cursor.execute(keyed)
    assert Memory.objects.get(pk=memory.pk).dedup_bands == scope_keyed_bands(plain, memory.scope_id)

    with connection.cursor() as cursor:
        cursor.execute(keyed)  # the reverse migration: the same statement
    assert Memory.objects.get(pk=memory.pk).dedup_bands == plain
