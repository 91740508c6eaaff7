"""Export a tenant's live memories as JSONL that import_memories reads back losslessly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from memories.models import Memory
from memories.obsidian import VaultError, export_vault
from memories.records import memory_as_record
from memories.selectors import scope_get_by_tag, scope_subtree, tenant_get
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = "Export live memories (optionally one scope's subtree) as JSONL to stdout or --output."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--scope", help="only this scope's subtree, as a tag level:key")
        parser.add_argument("--output", help="file to write (default: stdout)")
        parser.add_argument("--format", choices=["jsonl", "obsidian"], default="jsonl")
        parser.add_argument("directory", nargs="?", type=Path, help="--format obsidian: the vault folder to write")

    def handle(self, *args, tenant: str, scope: str | None, output: str | None, **options):
        try:
            tenant_obj = tenant_get(slug=tenant)
            memories = (
                Memory.objects.for_tenant(tenant_obj)
                .live()
                .select_related("scope__parent", "author_member")
                .order_by("id")
            )
            if scope:
                node = scope_get_by_tag(tenant=tenant_obj, tag=scope)
                memories = memories.filter(scope__in=scope_subtree(tenant=tenant_obj, scope=node))
        except DomainError as exc:
            raise CommandError(str(exc))
        if options.get("format") == "obsidian":
            if options.get("directory") is None:
                raise CommandError("--format obsidian needs the vault folder: export_memories --format obsidian DIR")
            try:
                notes, entities = export_vault(memories=memories, directory=options["directory"])
            except VaultError as exc:
                raise CommandError(f"{options['directory']}: {exc}")
            print(f"exported {notes} memories and {entities} entities to {options['directory']}", file=sys.stderr)
            return
        stream = open(output, "w", encoding="utf-8") if output else self.stdout  # noqa: SIM115
        count = 0
        try:
            for memory in memories.iterator(chunk_size=500):
                record = {key: value for key, value in memory_as_record(memory).items() if value is not None}
                stream.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
        finally:
            if output:
                stream.close()
        print(f"exported {count} memories", file=sys.stderr)
