"""Onboard (or update, or re-sync) a tenant from an org chart YAML: the OrgMemory format or the nuvel org_graph.yaml."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from memories.orgchart import OrgChartError, parse_org_chart, read_org_chart
from memories.services import tenant_onboard
from memories.services.onboarding import LEAVER_CHOICES, onboarding_diff, onboarding_diff_lines
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = (
        "Create or update a tenant, its scope tree, members, policy and API keys from an org chart YAML file. "
        "With --sync, members and nodes the file no longer lists are removed (leavers by --leavers erase|keep)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="Report what would change; write nothing.")
        parser.add_argument(
            "--sync",
            action="store_true",
            help="HR re-sync: members missing from the file are leavers and nodes missing from it are removed.",
        )
        parser.add_argument(
            "--leavers",
            choices=LEAVER_CHOICES,
            help="With --sync: erase each leaver (everything they wrote, via the erasure service) or keep the "
            "memories they authored at team or higher scopes, de-attributed. Required when there are leavers.",
        )
        parser.add_argument(
            "--delete-scope-memories",
            action="store_true",
            help="With --sync: allow removing nodes that still hold memories (the diff lists how many).",
        )
        parser.add_argument(
            "--expect",
            metavar="FINGERPRINT",
            help="Apply only if the diff is still the one a dry run printed (its fingerprint), else write nothing.",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, file: Path, dry_run: bool, sync: bool, leavers: str | None, **options):
        if leavers and not sync:
            raise CommandError("--leavers needs --sync (without it, members missing from the file are left alone)")
        try:
            plan = parse_org_chart(read_org_chart(file))
            choices = None
            if sync and not dry_run:
                # one choice for every leaver of the diff as it is under the run's lock: the service checks it
                # covers exactly the leavers it finds, so a leaver appearing meanwhile cannot be handled blindly
                choices = _every_leaver(plan, leavers)
            result = tenant_onboard(
                plan=plan,
                dry_run=dry_run,
                sync=sync,
                leavers=choices,
                delete_scope_memories=options["delete_scope_memories"],
                expected_fingerprint=options["expect"],
            )
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
            line = (
                f"  {kind:<9} created {data['created'][kind]:>4}  updated {data['updated'][kind]:>4}"
                f"  unchanged {data['unchanged'][kind]:>4}"
            )
            if result.sync and kind in data["removed"]:
                line += f"  removed {data['removed'][kind]:>4}"
            self.stdout.write(line)
        if not result.changed:
            self.stdout.write(self.style.SUCCESS("Nothing to change: the tenant already matches the file."))
        for line in onboarding_diff_lines(result.diff):
            self.stdout.write(f"  - {line}")
        if result.dry_run:
            self.stdout.write(f"Diff fingerprint: {data['fingerprint']}  (apply exactly this diff: --expect it)")
        else:
            for change in result.changes:
                self.stdout.write(f"  done: {change}")
        for key in result.api_keys:
            self.stdout.write(self.style.WARNING(f"API key {key['name']}: {key['key']}  (shown once: store it now)"))


def _every_leaver(plan, choice: str | None) -> dict[str, str]:
    departing = [leaver.user_id for leaver in onboarding_diff(plan=plan, sync=True).leavers]
    if departing and choice is None:
        listed = ", ".join(departing[:20]) + (f" and {len(departing) - 20} more" if len(departing) > 20 else "")
        raise CommandError(
            f"{len(departing)} leaver(s) not in the file: {listed}. Run with --dry-run to see what each choice "
            f"deletes, then pass --leavers erase or --leavers keep."
        )
    return dict.fromkeys(departing, choice) if choice else {}


def _json_dumps(data) -> str:
    return json.dumps(data, indent=2, sort_keys=False, default=str)
