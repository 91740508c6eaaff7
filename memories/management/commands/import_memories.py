"""Import memories from JSONL, one memory per line, through the write service (idempotent by external_id).

Two passes. The first reads every line and refuses, by line number and with its reason, anything the database or
the write service would choke on (strict JSON without NaN/Infinity, bounded nesting, known fields of the right
type and length, known users). The second writes the valid lines in batches of ``IMPORT_BATCH``
(``memory_create_batch``: one dedup query and one insert per batch; a line the service refuses fails alone, with its
reason), each batch its own transaction, while worker processes (``--workers``, one per core by default) embed and
link the batches already committed: writing, embedding and link extraction use every core, and the cost of a
batch does not grow with the tenant (each batch's statements read by index, and the table's statistics follow the
committed rows). With a broker (``CELERY_BROKER_URL``) the Celery workers index instead, as for any write.

A run that stops half way (a crash, Ctrl-C) keeps the batches it committed; running the same file again resumes:
every line already stored is recognised (its external id, else its identical text at the same scope) and reported
as already present, and rows whose indexing did not finish are picked up by the sweeper. ``--all-or-nothing``
writes the whole file in one transaction, and nothing at all when any line is bad.

At the end, the tables the run changed are analyzed (``orgmemory.planner_statistics``): a freshly imported tenant
is searched with plans made for its size, not for the database before the import. Progress bars are drawn on a
terminal only.
"""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction
from django.utils.dateparse import parse_datetime
from tqdm import tqdm

from memories.keys import validate_key
from memories.models import Member, Memory, MemoryKind, Tenant
from memories.obsidian import vault_lines
from memories.selectors import tenant_get
from memories.services.indexing import index_requests_collected
from memories.services.indexing_pool import IndexingPool, default_workers
from memories.services.memory import Author, WriteResult, memory_create_batch
from memories.services.memory.time import TIME_FIELDS, clean_time
from orgmemory.api.parsers import MAX_DEPTH, check_json_strings
from orgmemory.api.serializers import SCOPE_TAG_MAX
from orgmemory.errors import DomainError
from orgmemory.planner_statistics import table_modifications, tables_analyze_changed

MAX_LINE_BYTES = 4 * 1024 * 1024
IMPORT_BATCH = 500
# field in the file → the Memory column whose length bounds it
_TEXT_FIELDS = {
    "title": "title",
    "external_id": "external_id",
    "author": "author",
    "app_name": "source_app",
    "session_id": "source_session",
    "event_id": "source_event_id",
}
_FIELDS = {
    "user_id", "scope", "project", "content", "kind", "metadata", "created_at", "expires_at", *TIME_FIELDS,
    *_TEXT_FIELDS,
}  # fmt: skip


class LineError(ValueError):
    """A line that cannot be imported; the message says why."""


@dataclass
class Record:
    number: int
    data: dict[str, Any]
    member: Member | None = None


@dataclass
class Outcome:
    counts: dict[str, int] = field(
        default_factory=lambda: {"created": 0, "deduplicated": 0, "superseded": 0, "failed": 0, "warnings": 0}
    )
    errors: list[tuple[int, str]] = field(default_factory=list)

    def fail(self, number: int, reason: str) -> None:
        self.counts["failed"] += 1
        self.errors.append((number, reason))


class _RollBack(Exception):
    pass


class Command(BaseCommand):
    help = (
        "Import memories from a JSONL file: {user_id | scope, content, title?, kind?, metadata?, external_id?, ...} "
        "per line. Every line is checked first; a bad line is reported with its number and reason and skipped "
        "(or, with --all-or-nothing, nothing is written). The writes of a run commit together."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--tenant", required=True, help="tenant slug")
        parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
        parser.add_argument(
            "--format",
            choices=["jsonl", "obsidian"],
            default="jsonl",
            help="obsidian: FILE is a vault folder written by export_memories --format obsidian (memory notes only)",
        )
        parser.add_argument(
            "--all-or-nothing",
            action="store_true",
            help="write nothing when any line is bad (default: write every valid line, report the others); the "
            "file is then written in one transaction",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="processes that embed and link the committed batches while the next is written (default: one per "
            "core; 0: in this process after each batch). Without effect with a broker: its workers index.",
        )

    def handle(self, *args, file: Path, tenant: str, all_or_nothing: bool = False, **options):
        try:
            tenant_obj = tenant_get(slug=tenant)
        except DomainError as exc:
            raise CommandError(str(exc))
        self._notes, unreadable = [], []
        try:
            if options.get("format") == "obsidian":
                if not file.is_dir():
                    raise CommandError(f"{file} is not a folder (--format obsidian reads a vault)")
                self._notes, lines, unreadable = vault_lines(file)
            else:
                lines = file.read_bytes().splitlines()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}")
        outcome = Outcome()
        for number, reason in unreadable:
            outcome.fail(number, reason)
        records = self._check_all(tenant_obj, lines, outcome)
        written = False
        if not (all_or_nothing and outcome.errors):
            workers = options.get("workers")
            if workers is not None and workers < 0:
                raise CommandError("--workers must be 0 or more")
            written = self._write_all(
                tenant_obj,
                records,
                outcome,
                all_or_nothing=all_or_nothing,
                quiet=options["json"],
                workers=default_workers() if workers is None else workers,
            )
        self._report(file, tenant, outcome, written=written, as_json=options["json"])
        if all_or_nothing and not written:
            raise CommandError(f"{len(outcome.errors)} bad line(s): nothing was written (--all-or-nothing)")

    # --- first pass: check every line ------------------------------------------------------------------------

    def _check_all(self, tenant: Tenant, lines: list[bytes], outcome: Outcome) -> list[Record]:
        records = []
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                records.append(Record(number=number, data=parse_line(raw)))
            except LineError as exc:
                outcome.fail(number, str(exc))
        # users in one query: a line naming an unknown user is as bad as a malformed one
        user_ids = {record.data["user_id"] for record in records if record.data.get("user_id")}
        members = {
            m.user_id: m for m in Member.objects.for_tenant(tenant).select_related("scope").filter(user_id__in=user_ids)
        }
        checked = []
        for record in records:
            user_id = record.data.get("user_id")
            if user_id:
                record.member = members.get(user_id)
                if record.member is None:
                    outcome.fail(record.number, f"unknown user_id {user_id!r}")
                    continue
            checked.append(record)
        outcome.errors.sort()
        return checked

    # --- second pass: write ----------------------------------------------------------------------------------

    def _write_all(
        self,
        tenant: Tenant,
        records: list[Record],
        outcome: Outcome,
        *,
        all_or_nothing: bool,
        quiet: bool,
        workers: int,
    ) -> bool:
        counts_before = dict(outcome.counts)
        # the planner's statistics are refreshed for what the run changed; not inside a caller's transaction, which
        # has committed nothing yet
        statistics_before = None
        if not transaction.get_connection().in_atomic_block:
            with contextlib.suppress(DatabaseError):
                statistics_before = table_modifications()
        # progress bars on a terminal only: in a file or a pipe they are escape-code debris (tqdm: None = not a tty)
        bars_off = True if quiet else None
        write_bar = tqdm(total=len(records), desc="write", unit="line", file=sys.stderr, disable=bars_off)
        # worker processes index what each batch committed, while the next batch is written; not with a broker
        # (its workers index), nor inside a caller's transaction (nothing commits until it does), nor all or nothing
        pooled = (
            workers > 0
            and not all_or_nothing
            and settings.CELERY_TASK_ALWAYS_EAGER
            and not transaction.get_connection().in_atomic_block
        )
        index_bar = tqdm(
            total=0, desc="index", unit="memory", file=sys.stderr, disable=True if quiet or not pooled else None
        )
        scopes_known: dict = {}  # target scopes resolved once for the run, not once per batch
        try:
            with contextlib.ExitStack() as stack:
                pool = stack.enter_context(IndexingPool(workers, done=index_bar.update)) if pooled else None
                if all_or_nothing:
                    # one transaction for the run: the indexing hand-off gets every id at once, after the commit
                    stack.enter_context(transaction.atomic())
                for start in range(0, len(records), IMPORT_BATCH):
                    batch = records[start : start + IMPORT_BATCH]
                    with contextlib.ExitStack() as batch_stack:
                        collected = batch_stack.enter_context(index_requests_collected()) if pool else None
                        results = _write_batch(tenant, batch, scopes_known)
                    for record, result in zip(batch, results, strict=True):
                        if result.error is not None:
                            outcome.fail(record.number, result.error.message)
                            if all_or_nothing:
                                raise _RollBack
                            continue
                        outcome.counts["deduplicated" if result.deduplicated else "created"] += 1
                        outcome.counts["superseded"] += 1 if result.supersedes else 0
                        outcome.counts["warnings"] += len(result.warnings)
                    if pool is not None and collected:
                        index_bar.total += len(collected)
                        index_bar.refresh()
                        pool.submit(collected)
                    write_bar.update(len(batch))
                write_bar.close()
            if pool is not None and pool.failed_batches:
                self.stderr.write(
                    f"{pool.failed_batches} indexing batch(es) failed: their memories stay pending and the sweeper "
                    "retries them"
                )
        except _RollBack:
            failed = outcome.counts["failed"]
            outcome.counts = {**counts_before, "failed": failed}
            return False
        finally:
            write_bar.close()
            index_bar.close()
            outcome.errors.sort()
        if statistics_before is not None:
            tables_analyze_changed(since=statistics_before)
        return True

    # --- report ----------------------------------------------------------------------------------------------

    def _report(self, file: Path, tenant: str, outcome: Outcome, *, written: bool, as_json: bool) -> None:
        counts = outcome.counts if written else {**outcome.counts, "created": 0, "deduplicated": 0, "superseded": 0}
        if as_json:
            errors = [{"line": number, "error": reason} for number, reason in outcome.errors]
            self.stdout.write(json.dumps({"tenant": tenant, **counts, "written": written, "errors": errors}))
            return
        for number, reason in outcome.errors:
            where = self._notes[number - 1] if self._notes else f"line {number}"
            self.stderr.write(self.style.ERROR(f"{where}: {reason}"))
        if not written:
            self.stdout.write(f"{file}: nothing was written, {counts['failed']} bad line(s)")
            return
        self.stdout.write(
            f"{file}: {counts['created']} created, {counts['deduplicated']} already present, "
            f"{counts['superseded']} superseded an older memory, {counts['warnings']} warning(s), "
            f"{counts['failed']} failed"
        )


def _reject_constant(name: str) -> Any:
    raise LineError(f"{name} is not valid JSON (use null or a string)")


def parse_line(raw: bytes) -> dict[str, Any]:
    """One line → a checked record dict; LineError says why not. Pure: no database."""
    if len(raw) > MAX_LINE_BYTES:
        raise LineError(f"the line is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineError(f"not valid UTF-8 (byte {exc.start})")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LineError(f"malformed JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:
        raise LineError(f"the JSON is nested deeper than {MAX_DEPTH} levels")
    try:
        # the API's own checks: nesting (the write service then holds metadata to the same depth as every way
        # in, so what the API accepted and export wrote imports again), NUL bytes, lone surrogates
        check_json_strings(data)
    except DomainError as exc:
        raise LineError(exc.message)
    if not isinstance(data, dict):
        raise LineError("each line must be a JSON object")
    unknown = set(data) - _FIELDS
    if unknown:
        raise LineError(f"unknown field(s) {', '.join(sorted(unknown))}")
    data = {key: value for key, value in data.items() if value is not None}
    for name, column in _TEXT_FIELDS.items():
        _check_text(data, name, Memory._meta.get_field(column).max_length)
    _check_text(data, "scope", SCOPE_TAG_MAX)
    _check_text(data, "project", SCOPE_TAG_MAX)
    _check_text(data, "content", None)
    if not str(data.get("content") or "").strip():
        raise LineError("content is empty")
    if "user_id" in data:
        if not isinstance(data["user_id"], str) or not _is_key(data["user_id"]):
            raise LineError(f"user_id {str(data['user_id'])[:140]!r} is not 1–128 letters, digits and . _ @ + -")
    elif not data.get("scope"):
        raise LineError("needs `user_id` or `scope`")
    kind = data.get("kind", MemoryKind.FACT)
    if kind not in MemoryKind.values:
        raise LineError(f"kind {str(kind)[:40]!r} is not one of {', '.join(MemoryKind.values)}")
    if "metadata" in data and not isinstance(data["metadata"], dict):
        raise LineError("metadata must be a JSON object")
    for name in ("created_at", "expires_at"):
        if name in data:
            data[name] = _when(data[name], name)
    try:  # validity and reference time: ISO 8601 dates or date-times, valid_until after valid_from
        data.update({name: value for name, value in clean_time(data).items() if name in data})
    except DomainError as exc:
        raise LineError(exc.message) from None
    return data


def _check_text(data: dict[str, Any], name: str, max_length: int | None) -> None:
    if name not in data:
        return
    value = data[name]
    if not isinstance(value, str):
        raise LineError(f"{name} must be a string")
    if max_length is not None and len(value) > max_length:
        raise LineError(f"{name} is longer than {max_length} characters ({len(value)})")


def _is_key(value: str) -> bool:
    try:
        validate_key(value, field="user_id")
    except DomainError:
        return False
    return True


def _when(value: Any, name: str) -> datetime:
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise LineError(f"{name} must be an ISO 8601 date-time")
    return parsed


def _item(record: Record) -> dict[str, Any]:
    data = record.data
    return {
        "author": Author(kind="import", member=record.member, label=data.get("author", "")),
        "content": data["content"],
        "scope": data.get("scope") or None,
        "project": data.get("project") or None,
        "kind": data.get("kind", MemoryKind.FACT),
        "title": data.get("title", ""),
        "metadata": data.get("metadata"),
        "source_app": data.get("app_name", ""),
        "source_session": data.get("session_id", ""),
        "source_event_id": data.get("event_id", ""),
        "external_id": data.get("external_id", ""),
        "expires_at": data.get("expires_at"),
        "created_at": data.get("created_at"),
        **{name: data.get(name) for name in TIME_FIELDS},
    }


def _write_batch(tenant: Tenant, records: list[Record], scopes_known: dict) -> list[WriteResult]:
    """One result per record, in order, in one transaction (a savepoint inside ``--all-or-nothing``'s): a line the
    write service refuses fails alone, with its reason. Should the batch's statements fail on something the checks
    did not foresee, its lines are written one by one, each in a transaction of its own, so the failure is pinned to
    its line and the others are kept."""
    author = Author(kind="import")
    try:
        with transaction.atomic():
            return memory_create_batch(
                tenant=tenant,
                author=author,
                items=[_item(record) for record in records],
                partial=True,
                scopes_known=scopes_known,
            )
    except DatabaseError:
        pass
    results = []
    for record in records:
        try:
            with transaction.atomic():
                results.extend(
                    memory_create_batch(
                        tenant=tenant, author=author, items=[_item(record)], partial=True, scopes_known=scopes_known
                    )
                )
        except DatabaseError as exc:
            error = DomainError(f"{type(exc).__name__}: {exc}", code="database_error")
            results.append(WriteResult(memory=None, created=False, error=error))
    return results
