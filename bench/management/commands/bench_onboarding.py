"""Benchmark: the onboarding diff and an HR re-sync on a large tenant.

Builds a throw-away tenant from a generated chart (``--members`` across ``--teams``), gives it ``--memories`` rows
per member (private and team, inserted in bulk: no indexing runs, only the rows the diff counts), then times a
re-sync chart that moves ``--movers`` members and drops ``--leavers`` of them: the read-only diff, the dry run
(``tenant_onboard(dry_run=True)``: lock, diff, apply, roll back) and the apply (leavers kept de-attributed). Prints
p50 / p95 / max per step over ``--repeat`` runs of the read-only steps, then one apply; deletes the tenant unless
``--keep``. A benchmark, not a test: it prints figures and checks only that the apply did what its diff said."""

from __future__ import annotations

import hashlib
import json
import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, reset_queries
from django.test.utils import CaptureQueriesContext

from bench.stats import percentile
from memories.models import Member, Memory, Scope, Tenant
from memories.orgchart import parse_org_chart
from memories.services import tenant_onboard
from memories.services.onboarding import onboarding_diff

SLUG = "bench-onboarding"


def _chart(*, members: int, teams: int, moved: set[int], dropped: set[int]) -> str:
    """A tree chart: org › division (10 teams each) › team › members; ``moved`` members go to the next team."""
    per_team: dict[int, list[str]] = {team: [] for team in range(teams)}
    for index in range(members):
        if index in dropped:
            continue
        team = index % teams
        per_team[(team + 1) % teams if index in moved else team].append(f"u{index}")
    divisions = []
    for division in range((teams + 9) // 10):
        children = [
            {"level": "team", "key": f"t{team}", "members": per_team[team]}
            for team in range(division * 10, min(teams, division * 10 + 10))
        ]
        divisions.append({"level": "division", "key": f"d{division}", "children": children})
    chart = {
        "tenant": {"slug": SLUG, "name": "Onboarding benchmark"},
        "levels": ["org", "division", "team", "user"],
        "tree": [{"level": "org", "key": "root", "children": divisions}],
    }
    return json.dumps(chart)  # JSON is YAML


class Command(BaseCommand):
    help = "Time the onboarding diff, dry run and re-sync apply on a generated large tenant."

    def add_arguments(self, parser):
        parser.add_argument("--members", type=int, default=2000)
        parser.add_argument("--teams", type=int, default=100)
        parser.add_argument("--memories", type=int, default=10, help="Rows per member (half private, half team).")
        parser.add_argument("--movers", type=int, default=100)
        parser.add_argument("--leavers", type=int, default=20)
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--keep", action="store_true", help="Keep the benchmark tenant afterwards.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, members, teams, memories, movers, leavers, repeat, **options):
        if not (1 <= teams <= members <= 200_000 and movers + leavers <= members and repeat >= 1):
            raise CommandError("need 1 <= teams <= members <= 200000, movers + leavers <= members, repeat >= 1")
        Tenant.objects.filter(slug=SLUG).delete()
        started = time.perf_counter()
        first = parse_org_chart(_chart(members=members, teams=teams, moved=set(), dropped=set()))
        tenant_onboard(plan=first)
        tenant = Tenant.objects.get(slug=SLUG)
        rows = self._seed(tenant, per_member=memories)
        seed_s = time.perf_counter() - started
        moved = set(range(0, movers * 3, 3))
        dropped = set(range(1, leavers * 3, 3)) if leavers * 3 <= members else set(range(members - leavers, members))
        plan = parse_org_chart(_chart(members=members, teams=teams, moved=moved, dropped=dropped - moved))
        try:
            figures = {
                "diff_ms": self._time(lambda: onboarding_diff(plan=plan, sync=True), repeat),
                "dry_run_ms": self._time(lambda: tenant_onboard(plan=plan, sync=True, dry_run=True), repeat),
            }
            reset_queries()  # the query log is capped: start it empty so that the count below is whole
            with CaptureQueriesContext(connection) as queries:
                diff = onboarding_diff(plan=plan, sync=True)
            figures["diff_queries"] = len(queries.captured_queries)
            before = Memory.objects.filter(tenant=tenant).count()
            reset_queries()
            t0 = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                result = tenant_onboard(
                    plan=plan,
                    sync=True,
                    leavers={leaver.user_id: "keep" for leaver in diff.leavers},
                    expected_fingerprint=diff.fingerprint,
                )
            figures["apply_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            figures["apply_queries"] = len(queries.captured_queries)
            deleted = before - Memory.objects.filter(tenant=tenant).count()
            expected = sum(leaver.keep_deletes for leaver in diff.leavers)
            if deleted != expected or len(diff.members_moved) != len(moved - dropped):
                raise CommandError(f"the apply deleted {deleted} memories; its diff said {expected}")
            report = {
                "members": members,
                "teams": teams,
                "memories": rows,
                "scopes": Scope.objects.filter(tenant=tenant).count(),
                "movers": len(diff.members_moved),
                "leavers": len(diff.leavers),
                "memories_deleted": deleted,
                "changes": len(result.changes),
                "seed_s": round(seed_s, 1),
                **figures,
            }
        finally:
            if not options["keep"]:
                Tenant.objects.filter(slug=SLUG).delete()
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"tenant: {report['members']} members, {report['teams']} teams, {report['scopes']} scopes, "
            f"{report['memories']} memories (seeded in {report['seed_s']} s)"
        )
        self.stdout.write(
            f"re-sync chart: {report['movers']} movers, {report['leavers']} leavers; the diff reads in "
            f"{report['diff_queries']} queries"
        )
        for step in ("diff_ms", "dry_run_ms"):
            f = report[step]
            self.stdout.write(f"  {step[:-3]:<8} p50 {f['p50']:>8} ms  p95 {f['p95']:>8} ms  max {f['max']:>8} ms")
        self.stdout.write(
            f"  apply    {report['apply_ms']:>8} ms, {report['apply_queries']} queries (one transaction; "
            f"{report['memories_deleted']} memories deleted, as the diff said)"
        )

    def _time(self, step, repeat: int) -> dict[str, float]:
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            step()
            samples.append((time.perf_counter() - t0) * 1000)
        samples.sort()
        return {
            "p50": round(statistics.median(samples), 1),
            "p95": round(percentile(samples, 95), 1),
            "max": round(samples[-1], 1),
        }

    def _seed(self, tenant: Tenant, *, per_member: int) -> int:
        """Bulk rows: half at the member's own node, half at their team, authored by them (no indexing runs)."""
        batch, total = [], 0
        for member in Member.objects.for_tenant(tenant).select_related("scope"):
            for index in range(per_member):
                scope_id = member.scope_id if index % 2 == 0 else member.scope.parent_id
                content = f"{member.user_id} note {index}"
                batch.append(
                    Memory(
                        tenant=tenant,
                        scope_id=scope_id,
                        content=content,
                        content_hash=hashlib.sha256(content.encode()).hexdigest(),
                        author_member=member,
                        author=member.user_id,
                        index_state="ready",
                        links_state="ready",
                    )
                )
            if len(batch) >= 5000:
                Memory.objects.bulk_create(batch)
                total, batch = total + len(batch), []
        Memory.objects.bulk_create(batch)
        return total + len(batch)
