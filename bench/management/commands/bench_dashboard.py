"""Benchmark: the tenant dashboard at scale. Builds (or reuses) a tenant of ``--size`` memories (100,000 by default)
with the shape the dashboard reads — several levels and kinds, 60 days of writes, some history (superseded rows),
an index backlog (pending and failed embeddings and links), open contradiction warnings, a graph of entities and
mention links, recorded knowledge gaps — then times each dashboard query and the whole page (p50/p95/p99 over
``--repeats``), the page through Django's test client as the tenant's admin (the admin index, which is that user's
dashboard) and as a superuser (``admin/dashboard/<id>/``).

The rows are inserted in bulk by SQL (``generate_series``): the dashboard needs no embedding, no search vector and
no dedup bands, so none are made (the write path's dedup and indexing are measured by ``bench_ingest``). Each
query's plan is printed with what it scans (``EXPLAIN``): a sequential scan of the tenant's memories is what limits
a figure as the tenant grows. A benchmark, not a test: it prints figures.
"""

from __future__ import annotations

import json
import os
import statistics
import time

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.stats import percentile
from graph.selectors import stale_entities
from memories.admin.dashboard import memory_figures
from memories.curation.selectors import knowledge_gaps
from memories.models import Memory, Scope, Tenant, TenantStaff
from memories.orgchart import parse_org_chart
from memories.roles import TENANT_ADMIN, roles_sync
from memories.selectors import dashboard as figures
from memories.services import tenant_onboard

SLUG = "bench-dashboard"
ADMIN_USERNAME = "bench-dashboard-admin"
ROOT_USERNAME = "bench-dashboard-root"
DIVISIONS, TEAMS, MEMBERS = 4, 5, 5  # 4 divisions × 5 teams × 5 members = 100 users
ENTITIES = 2000
STALE_ENTITIES = 100  # of them, mentioned by history rows only
GAPS = 300


def _chart() -> str:
    divisions = []
    for d in range(DIVISIONS):
        teams = []
        for t in range(TEAMS):
            members = ", ".join(f"u{d}{t}{m}" for m in range(MEMBERS))
            teams.append(f"{{level: team, key: d{d}t{t}, members: [{members}]}}")
        divisions.append(f"{{level: division, key: d{d}, children: [{', '.join(teams)}]}}")
    return (
        f"tenant: {{slug: {SLUG}, name: Dashboard benchmark}}\n"
        "levels: [org, division, team, user]\n"
        f"tree:\n  - {{level: org, key: bench, name: Bench, children: [{', '.join(divisions)}]}}\n"
    )


def _percentiles(samples: list[float]) -> dict[str, float]:
    return {
        "p50": round(statistics.median(samples), 2),
        "p95": round(percentile(samples, 95), 2),
        "p99": round(percentile(samples, 99), 2),
        "n": len(samples),
    }


class Command(BaseCommand):
    help = "Time every tenant-dashboard query and the page on a tenant of --size memories (built once, reused)."

    def add_arguments(self, parser):
        parser.add_argument("--size", type=int, default=100_000, help="Memories in the benchmark tenant.")
        parser.add_argument("--repeats", type=int, default=30, help="Timed runs of each query and page.")
        parser.add_argument("--rebuild", action="store_true", help="Delete and rebuild the benchmark tenant.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, size: int, repeats: int, rebuild: bool, **options):
        if not 1 <= size <= 5_000_000 or not 1 <= repeats <= 1000:
            raise CommandError("--size must be 1..5,000,000 and --repeats 1..1000")
        quiet = options["json"]
        roles_sync()
        started = time.perf_counter()
        tenant, built = self._tenant(size=size, rebuild=rebuild, quiet=quiet)
        build_seconds = round(time.perf_counter() - started, 1)
        with connection.cursor() as cursor:
            # the steady state autovacuum keeps: fresh statistics and a visibility map (index-only scans)
            for table in ("memories_memory", "graph_entitylink", "graph_entity", "curation_searchgap"):
                cursor.execute(f"VACUUM (ANALYZE) {table}")
        out = {
            "tenant": SLUG,
            "memories": Memory.objects.filter(tenant=tenant).count(),
            "all_memories_in_database": Memory.objects.count(),
            "built": built,
            "build_seconds": build_seconds,
            "repeats": repeats,
            "cores": os.cpu_count(),
            "load_average_before": [round(x, 1) for x in os.getloadavg()],
            "queries": {},
            "pages": {},
        }
        for name, run in self._queries(tenant).items():
            run()  # warm the cache: the figures are for a page that is read repeatedly
            samples = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                run()
                samples.append((time.perf_counter() - t0) * 1000)
            out["queries"][name] = {**_percentiles(samples), "scans": self._scans(run)}
        for name, (user, url) in self._pages(tenant).items():
            client = Client()
            client.force_login(user)
            response = client.get(url)
            if response.status_code != 200:
                raise CommandError(f"{url} answered {response.status_code}")
            samples = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                client.get(url)
                samples.append((time.perf_counter() - t0) * 1000)
            with CaptureQueriesContext(connection) as captured:
                client.get(url)
            out["pages"][name] = {**_percentiles(samples), "url": url, "sql_statements": len(captured)}
        out["load_average_after"] = [round(x, 1) for x in os.getloadavg()]
        context = memory_figures(tenant)
        out["figures"] = {
            "live": context["live_total"],
            "history": context["history_total"],
            "backlog": context["backlog"].total,
            "writes_30_days": context["writes_total"],
            "open_contradictions": context["contradictions"],
            "stale_entities": stale_entities(tenant=tenant).total,
            "gaps_shown": len(knowledge_gaps(tenant=tenant)),
        }
        if quiet:
            self.stdout.write(json.dumps(out))
            return
        self.stdout.write(
            f"tenant {SLUG}: {out['memories']:,} memories ({out['all_memories_in_database']:,} in the database), "
            f"{'built' if built else 'reused'} in {build_seconds} s; {repeats} runs each, milliseconds"
        )
        for name, figure in out["queries"].items():
            self.stdout.write(
                f"  {name:<28} p50 {figure['p50']:>8} p95 {figure['p95']:>8} p99 {figure['p99']:>8}   "
                f"scans: {figure['scans']}"
            )
        for name, figure in out["pages"].items():
            self.stdout.write(
                f"  page {name:<23} p50 {figure['p50']:>8} p95 {figure['p95']:>8} p99 {figure['p99']:>8}   "
                f"{figure['sql_statements']} SQL statements, {figure['url']}"
            )
        self.stdout.write(f"  figures: {out['figures']}")
        self.stdout.write(
            f"  machine: {out['cores']} cores, load average {out['load_average_before']} before, "
            f"{out['load_average_after']} after (other work on the machine inflates every figure)"
        )

    # --- the tenant ---------------------------------------------------------------------------------------------

    def _tenant(self, *, size: int, rebuild: bool, quiet: bool) -> tuple[Tenant, bool]:
        tenant = Tenant.objects.filter(slug=SLUG).first()
        if tenant is not None and (rebuild or Memory.objects.filter(tenant=tenant).count() != size):
            if not quiet:
                self.stderr.write(f"deleting the old {SLUG} tenant …")
            with connection.cursor() as cursor:  # graph and gap rows first: no per-row cascade through the ORM
                cursor.execute("DELETE FROM graph_entitylink WHERE tenant_id = %s", [tenant.pk])
                cursor.execute("DELETE FROM graph_entityalias WHERE tenant_id = %s", [tenant.pk])
                cursor.execute("DELETE FROM graph_entity WHERE tenant_id = %s", [tenant.pk])
                cursor.execute("DELETE FROM curation_searchgap WHERE tenant_id = %s", [tenant.pk])
                cursor.execute("UPDATE memories_memory SET superseded_by_id = NULL WHERE tenant_id = %s", [tenant.pk])
                cursor.execute("DELETE FROM memories_memory WHERE tenant_id = %s", [tenant.pk])
            tenant.delete()
            tenant = None
        if tenant is None:
            if not quiet:
                self.stderr.write(f"building {SLUG}: {size:,} memories …")
            tenant = self._build(size)
            built = True
        else:
            built = False
        admin = User.objects.filter(username=ADMIN_USERNAME).first() or User.objects.create_user(
            ADMIN_USERNAME, is_staff=True
        )
        TenantStaff.objects.get_or_create(tenant=tenant, user=admin)
        admin.groups.add(Group.objects.get(name=TENANT_ADMIN))
        if not User.objects.filter(username=ROOT_USERNAME).exists():
            User.objects.create_superuser(ROOT_USERNAME, f"{ROOT_USERNAME}@example.com", None)
        return tenant, built

    @transaction.atomic
    def _build(self, size: int) -> Tenant:
        tenant_onboard(plan=parse_org_chart(_chart()))
        tenant = Tenant.objects.get(slug=SLUG)
        scopes = list(Scope.objects.filter(tenant=tenant).order_by("pk").values_list("pk", flat=True))
        with connection.cursor() as cursor:
            # 60 days of writes; kinds and scopes in rotation; 0.5 % waiting for an embedding, 0.1 % failed, 1 %
            # waiting for link extraction
            cursor.execute(
                """
                INSERT INTO memories_memory (
                    tenant_id, scope_id, kind, title, content, content_hash, dedup_bands, author, source_app,
                    source_session, source_event_id, external_id, metadata, warnings, created_at, updated_at,
                    embedding_model, index_state, index_error, links_state, links_error)
                SELECT %(tenant)s, (%(scopes)s::bigint[])[1 + i %% cardinality(%(scopes)s::bigint[])],
                       (ARRAY['fact', 'policy', 'preference', 'event', 'note'])[1 + i %% 5], '',
                       'benchmark memory ' || i || ' about topic ' || (i %% 997), md5('bench-dashboard ' || i),
                       '{}', 'bench', '', '', '', '', '{}', '[]',
                       now() - make_interval(days => i %% 60, secs => i %% 86400), now(), 'bench',
                       CASE WHEN i %% 200 = 0 THEN 'pending' WHEN i %% 1000 = 1 THEN 'failed' ELSE 'ready' END, '',
                       CASE WHEN i %% 100 = 7 THEN 'pending' ELSE 'ready' END, ''
                FROM generate_series(1, %(size)s) AS i
                """,
                {"tenant": tenant.pk, "scopes": scopes, "size": size},
            )
            # 5 % history: a row superseded by the tenant's next row (ids of one INSERT need not be consecutive)
            cursor.execute(
                """
                UPDATE memories_memory m SET superseded_by_id = n.next_id, superseded_at = now()
                FROM (SELECT id, lead(id) OVER (ORDER BY id) AS next_id, row_number() OVER (ORDER BY id) AS rank
                      FROM memories_memory WHERE tenant_id = %(tenant)s) n
                WHERE m.id = n.id AND n.next_id IS NOT NULL AND n.rank %% 20 = 10
                """,
                {"tenant": tenant.pk},
            )
            # 0.2 % carry an open contradiction warning about the row two before them
            cursor.execute(
                """
                UPDATE memories_memory m SET warnings = jsonb_build_array(jsonb_build_object(
                    'code', 'possible_contradiction', 'memory_id', n.other_id,
                    'message', 'this may contradict memory ' || n.other_id))
                FROM (SELECT id, lag(id, 2) OVER (ORDER BY id) AS other_id, row_number() OVER (ORDER BY id) AS rank
                      FROM memories_memory WHERE tenant_id = %(tenant)s) n
                WHERE m.id = n.id AND n.other_id IS NOT NULL AND n.rank %% 500 = 3
                """,
                {"tenant": tenant.pk},
            )
            cursor.execute(
                """
                INSERT INTO graph_entity (tenant_id, name, norm, kind, target, mention_count, created_at)
                SELECT %(tenant)s, 'Entity ' || e, 'entity ' || e, 'unknown', '', 0, now()
                FROM generate_series(1, %(entities)s) AS e
                """,
                {"tenant": tenant.pk, "entities": ENTITIES},
            )
            cursor.execute("SELECT min(id) FROM graph_entity WHERE tenant_id = %s", [tenant.pk])
            (first_entity,) = cursor.fetchone()
            # one mention a memory, entity by rotation; half of the history rows mention 100 entities of their
            # own, which no live memory mentions: those are the stale ones
            cursor.execute(
                """
                INSERT INTO graph_entitylink (tenant_id, memory_id, subject_id, relationship, object_id, confidence,
                                              subject_norm, object_norm, metadata, span_start, span_end)
                SELECT %(tenant)s, m.id,
                       %(first_entity)s + CASE WHEN m.superseded_by_id IS NOT NULL AND m.id %% 2 = 0
                                               THEN %(live_entities)s + m.id %% %(stale_entities)s
                                               ELSE m.id %% %(live_entities)s END,
                       'mentioned', NULL, 1.0, '', '', '{}', 0, 0
                FROM memories_memory m WHERE m.tenant_id = %(tenant)s
                """,
                {
                    "tenant": tenant.pk,
                    "first_entity": first_entity,
                    "live_entities": ENTITIES - STALE_ENTITIES,
                    "stale_entities": STALE_ENTITIES,
                },
            )
            cursor.execute(
                """
                UPDATE graph_entity e SET mention_count = c.n
                FROM (SELECT subject_id, count(*) AS n FROM graph_entitylink WHERE tenant_id = %(tenant)s
                      GROUP BY subject_id) c
                WHERE e.id = c.subject_id
                """,
                {"tenant": tenant.pk},
            )
            cursor.execute(
                """
                INSERT INTO curation_searchgap (tenant_id, member_id, query, count, first_seen, last_seen)
                SELECT %(tenant)s, m.id, 'unanswered question ' || (g %% 40), 1 + g %% 7, now(), now()
                FROM generate_series(1, %(gaps)s) AS g
                JOIN LATERAL (SELECT id FROM memories_member WHERE tenant_id = %(tenant)s
                              ORDER BY id OFFSET g %% 100 LIMIT 1) m ON true
                ON CONFLICT DO NOTHING
                """,
                {"tenant": tenant.pk, "gaps": GAPS},
            )
        return tenant

    # --- what is timed ------------------------------------------------------------------------------------------

    def _queries(self, tenant: Tenant) -> dict:
        return {
            "memories_per_level_and_kind": lambda: figures.memories_per_level_and_kind(tenant=tenant),
            "index_backlog": lambda: figures.index_backlog(tenant=tenant),
            "writes_per_day": lambda: figures.writes_per_day(tenant=tenant),
            "knowledge_gaps": lambda: knowledge_gaps(tenant=tenant),
            "open_contradictions": lambda: figures.open_contradictions(tenant=tenant),
            "stale_entities": lambda: stale_entities(tenant=tenant),
            "runtime_state": figures.runtime_state,
        }

    def _pages(self, tenant: Tenant) -> dict:
        return {
            "index (tenant admin)": (User.objects.get(username=ADMIN_USERNAME), reverse("admin:index")),
            "dashboard (superuser)": (
                User.objects.get(username=ROOT_USERNAME),
                reverse("admin:dashboard_tenant", args=[tenant.pk]),
            ),
            "contradictions (superuser)": (
                User.objects.get(username=ROOT_USERNAME),
                reverse("admin:contradictions_queue", args=[tenant.pk]),
            ),
        }

    def _scans(self, run) -> str:
        """What the query's plan reads: sequential scans and index scans, by table or index."""
        with CaptureQueriesContext(connection) as captured:
            run()
        found: list[str] = []
        for query in captured.captured_queries:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (FORMAT JSON) " + query["sql"])
                plan = cursor.fetchone()[0]
            found += _scan_nodes(plan[0]["Plan"] if isinstance(plan, list) else json.loads(plan)[0]["Plan"])
        return ", ".join(dict.fromkeys(found)) or "none (no SQL)"


def _scan_nodes(node: dict) -> list[str]:
    found = []
    kind = node.get("Node Type", "")
    if kind == "Seq Scan":
        found.append(f"seq {node.get('Relation Name')}")
    elif kind in ("Index Scan", "Index Only Scan", "Bitmap Index Scan"):
        found.append(f"index {node.get('Index Name')}")
    for child in node.get("Plans", []):
        found += _scan_nodes(child)
    return found
