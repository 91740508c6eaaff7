"""Onboard (or update) a tenant from an org chart YAML: the OrgMemory format or the nuvel org_graph.yaml."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from memories.orgchart import OrgChartError, parse_org_chart
from memories.services import tenant_onboard
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = "Create or update a tenant, its scope tree, members, policy and API keys from an org chart YAML file."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="Report what would change; write nothing.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, file: Path, dry_run: bool, **options):
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}")
        try:
            plan = parse_org_chart(text)
            result = tenant_onboard(plan=plan, dry_run=dry_run)
        except (OrgChartError, DomainError) as exc:
            raise CommandError(f"{file}: {exc}")
        if options["json"]:
            self.stdout.write(_json_dumps(result.as_dict()))
            return
        self._print_summary(result)

    def _print_summary(self, result) -> None:
        data = result.as_dict()
        head = f"Tenant {data['tenant']}" + (" (dry run: nothing written)" if result.dry_run else "")
        self.stdout.write(self.style.MIGRATE_HEADING(head))
        for kind in ("tenant", "scopes", "members", "policies", "api_keys"):
            self.stdout.write(
                f"  {kind:<9} created {data['created'][kind]:>4}  updated {data['updated'][kind]:>4}"
                f"  unchanged {data['unchanged'][kind]:>4}"
            )
        if not result.changed:
            self.stdout.write(self.style.SUCCESS("Nothing to change: the tenant already matches the file."))
        for change in result.changes:
            self.stdout.write(f"  - {change}")
        for key in result.api_keys:
            self.stdout.write(self.style.WARNING(f"API key {key['name']}: {key['key']}  (shown once: store it now)"))


def _json_dumps(data) -> str:
    return json.dumps(data, indent=2, sort_keys=False)
