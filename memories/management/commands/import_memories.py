"""Import memories from JSONL, one memory per line, through the write service (idempotent by external_id)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.dateparse import parse_datetime
from tqdm import tqdm

from memories.models import Memory
from memories.selectors import member_get, tenant_get
from memories.services.memory import Author, memory_create
from orgmemory.errors import DomainError

BATCH = 64
_FIELDS = {
    "user_id",
    "scope",
    "content",
    "title",
    "kind",
    "metadata",
    "external_id",
    "author",
    "app_name",
    "session_id",
    "event_id",
    "created_at",
    "expires_at",
}


class Command(BaseCommand):
    help = (
        "Import memories from a JSONL file: {user_id | scope, content, title?, kind?, metadata?, external_id?, ...} "
        "per line. A bad line is reported with its number and skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--tenant", required=True, help="tenant slug")
        parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    def handle(self, *args, file: Path, tenant: str, **options):
        try:
            tenant_obj = tenant_get(slug=tenant)
        except DomainError as exc:
            raise CommandError(str(exc))
        try:
            lines = file.read_bytes().splitlines()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}")
        counts = {"created": 0, "deduplicated": 0, "superseded": 0, "failed": 0, "warnings": 0}
        errors: list[str] = []
        progress = tqdm(total=len(lines), desc="import", unit="line", file=sys.stderr, disable=options["json"])
        for start in range(0, len(lines), BATCH):
            # one transaction per batch: the indexing hand-off then embeds the whole batch in one model call
            with transaction.atomic():
                for number, raw in enumerate(lines[start : start + BATCH], start=start + 1):
                    progress.update(1)
                    if not raw.strip():
                        continue
                    try:
                        result = self._import_line(tenant_obj, raw)
                    except (DomainError, ValueError) as exc:
                        counts["failed"] += 1
                        errors.append(f"line {number}: {getattr(exc, 'message', None) or exc}")
                        continue
                    counts["deduplicated" if result.deduplicated else "created"] += 1
                    counts["superseded"] += 1 if result.supersedes else 0
                    counts["warnings"] += len(result.warnings)
        progress.close()
        if options["json"]:
            self.stdout.write(json.dumps({"tenant": tenant, **counts, "errors": errors}))
            return
        for error in errors:
            self.stderr.write(self.style.ERROR(error))
        self.stdout.write(
            f"{file}: {counts['created']} created, {counts['deduplicated']} already present, "
            f"{counts['superseded']} superseded an older memory, {counts['warnings']} warning(s), "
            f"{counts['failed']} failed"
        )

    def _import_line(self, tenant, raw: bytes):
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise ValueError(f"not valid UTF-8 (byte {exc.start})")
        except json.JSONDecodeError as exc:
            raise ValueError(f"malformed JSON: {exc.msg} at column {exc.colno}")
        if not isinstance(data, dict):
            raise ValueError("each line must be a JSON object")
        unknown = set(data) - _FIELDS
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}")
        member = None
        if data.get("user_id"):
            member = member_get(tenant=tenant, user_id=str(data["user_id"]))
            if member is None:
                raise ValueError(f"unknown user_id {data['user_id']!r}")
        elif not data.get("scope"):
            raise ValueError("needs `user_id` or `scope`")
        author = Author(kind="import", member=member, label=str(data.get("author") or "")[:200])
        result = memory_create(
            tenant=tenant,
            author=author,
            content=data.get("content"),
            scope=data.get("scope") or None,
            kind=data.get("kind") or "fact",
            title=data.get("title") or "",
            metadata=data.get("metadata"),
            source_app=data.get("app_name") or "",
            source_session=data.get("session_id") or "",
            source_event_id=data.get("event_id") or "",
            external_id=data.get("external_id") or "",
            expires_at=_when(data.get("expires_at"), "expires_at"),
        )
        created_at = _when(data.get("created_at"), "created_at")
        if result.created and created_at:
            Memory.objects.filter(pk=result.memory.pk).update(created_at=created_at)
        return result


def _when(value, name: str) -> datetime | None:
    if not value:
        return None
    parsed = parse_datetime(str(value))
    if parsed is None:
        raise ValueError(f"{name} must be an ISO 8601 date-time")
    return parsed
