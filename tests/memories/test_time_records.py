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
