"""Validity and reference time survive export → import (JSONL and Obsidian front matter), and an import line with a
bad time field fails alone with its reason."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from memories.models import Memory
from memories.obsidian import RECORD_FIELDS
from memories.records import memory_as_record
from tests.conftest import remember

pytestmark = pytest.mark.django_db


def test_an_export_record_carries_the_time_fields(acme):
    memory = remember(
        acme,
        "The offsite was last Friday.",
        scope="team:platform",
        valid_from="2025-05-01",
        valid_until="2025-06-01",
        reference_time="2025-05-14T09:00:00Z",
    )
    record = memory_as_record(Memory.objects.get(pk=memory.pk))
    assert record["valid_from"] == "2025-05-01T00:00:00+00:00"
    assert record["valid_until"] == "2025-06-01T00:00:00+00:00"
    assert record["reference_time"] == "2025-05-14T09:00:00+00:00"
    assert {"valid_from", "valid_until", "reference_time"} <= set(RECORD_FIELDS)


def test_import_restores_validity_and_retags_against_the_reference_time(acme, tmp_path):
    lines = [
        {"external_id": "t1", "scope": "team:platform", "content": "The offsite was last Friday.",
         "valid_from": "2025-05-01", "valid_until": "2025-06-01T00:00:00Z", "reference_time": "2025-05-14T09:00:00Z"},
        {"external_id": "t2", "scope": "team:platform", "content": "Closed window.",
         "valid_from": "2025-06-01", "valid_until": "2025-05-01"},
        {"external_id": "t3", "scope": "team:platform", "content": "Bad date.", "valid_from": "someday"},
    ]  # fmt: skip
    path = tmp_path / "import.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    out = StringIO()
    call_command("import_memories", str(path), tenant="acme", json=True, stdout=out, stderr=StringIO())
    summary = json.loads(out.getvalue())
    reasons = json.dumps(summary)
    assert "valid_until must be after valid_from" in reasons and "valid_from" in reasons
    stored = Memory.objects.get(tenant=acme, external_id="t1")
    assert stored.valid_from.isoformat() == "2025-05-01T00:00:00+00:00"
    assert stored.event_dates == ["2025-05-09"]  # the Friday before 14 May 2025
    assert not Memory.objects.filter(tenant=acme, external_id__in=["t2", "t3"]).exists()


ADD = "/admin/memories/memory/add/"


def split(name: str, day: str) -> dict[str, str]:
    """The admin's split date-time widget's two inputs."""
    return {f"{name}_0": day, f"{name}_1": "00:00:00"}


def test_the_admin_add_form_sets_validity_and_refuses_a_window_that_closes_before_it_opens(superuser_client, acme):
    from memories.models import Scope

    platform = Scope.objects.get(tenant=acme, level="team", key="platform")
    form = {"tenant": acme.pk, "scope": platform.pk, "kind": "fact", "metadata": "{}"}
    refused = superuser_client.post(
        ADD, {**form, "content": "Freeze.", **split("valid_from", "2025-06-01"), **split("valid_until", "2025-05-01")}
    )
    assert refused.status_code == 200  # the form again, with the error
    assert not Memory.objects.filter(tenant=acme).exists()

    stored = superuser_client.post(ADD, {**form, "content": "Freeze from June.", **split("valid_from", "2025-06-01")})
    assert stored.status_code == 302
    memory = Memory.objects.get(tenant=acme)
    assert memory.valid_from.isoformat() == "2025-06-01T00:00:00+00:00" and memory.valid_until is None
