"""An entity's name as another user sees it: never a private memory's spelling (issue 24, point 8).

Bea's private memory names "Mia Browne"; a memory the whole org reads names "Mia Brown", which resolves to the same
entity (a typo variant). Albert can read only the org's memory, so the name he is shown must be the org memory's
spelling; a later private spelling never renames the entity again."""

from __future__ import annotations

import pytest

from graph.models import Entity, EntityLink
from tests.conftest import remember

pytestmark = pytest.mark.django_db

ENTITIES = "/api/v1/entities"


@pytest.fixture
def mia(acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        private = remember(acme, "Mia Browne joined Nimbus Labs.", user="bea")
    with django_capture_on_commit_callbacks(execute=True):
        shared = remember(acme, "Mia Brown joined Nimbus Labs.", scope="org:acme")
    entity = EntityLink.objects.get(memory=shared, relationship="works_at").subject
    assert EntityLink.objects.get(memory=private, relationship="works_at").subject_id == entity.pk  # one entity
    return entity


def test_a_user_who_reads_only_the_shared_memory_sees_its_spelling(mia, api):
    listed = {item["id"]: item["name"] for item in api.get(ENTITIES, {"user_id": "albert"}).json()["results"]}
    detail = api.get(f"{ENTITIES}/{mia.pk}", {"user_id": "albert"})

    assert listed[mia.pk] == "Mia Brown"
    assert detail.status_code == 200
    assert detail.json()["name"] == "Mia Brown"
    assert "Browne" not in detail.content.decode()


def test_a_later_private_spelling_does_not_rename_the_entity(acme, mia, api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        remember(acme, "Mia Brownie joined Nimbus Labs.", user="dora")

    assert Entity.objects.get(pk=mia.pk).name == "Mia Brown"
    listed = {item["id"]: item["name"] for item in api.get(ENTITIES, {"user_id": "carlos"}).json()["results"]}
    assert listed[mia.pk] == "Mia Brown"


def test_the_private_spelling_stays_while_only_private_memories_name_it(acme, api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        remember(acme, "Mia Browne joined Nimbus Labs.", user="bea")

    assert Entity.objects.filter(tenant=acme, name="Mia Browne").exists()
    names = {item["name"] for item in api.get(ENTITIES, {"user_id": "albert"}).json()["results"]}
    assert "Mia Browne" not in names  # albert reads no memory linking it
