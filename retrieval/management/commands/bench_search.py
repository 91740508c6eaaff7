"""Search latency through the HTTP API (the full Django + DRF stack, in-process), query embedding included,
with N memories in one tenant among several; the same queries straight through the service as a baseline."""

from __future__ import annotations

import json
import os
import random
import sys
import time
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from tqdm import tqdm

from memories.management.commands.bench_ingest import synthetic_text
from memories.models import Tenant
from memories.orgchart import parse_org_chart
from memories.services import api_key_create
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create
from memories.services.tenancy import tenant_onboard
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred
from retrieval.evaluation import percentile
from retrieval.services import SearchOptions, search_memories

QUERIES = (
    "who reviewed the billing service",
    "k8s cluster migration",
    "on-call in June",
    "Alice Smith",
    "Who owns the data warehouse?",
    "incident review tickets",
    "EU region latency",
    "SSO rollout",
    "mobile release plan",
    "customer onboarding notes",
)


class Command(BaseCommand):
    help = "p50/p95 search latency through the API with --count memories in one tenant among --tenants."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=10000)
        parser.add_argument("--tenants", type=int, default=3, help="tenants in all (the others get count/4 each)")
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true")

    def handle(self, *args, count: int, tenants: int, queries: int, **options):
        if count < 1 or tenants < 1 or queries < 1:
            raise CommandError("--count, --tenants and --queries must be positive")
        quiet = options["json"]
        rng = random.Random(11)
        created = []
        try:
            started = time.perf_counter()
            for index in range(tenants):
                created.append(self._tenant(rng, count if index == 0 else max(1, count // 4), quiet))
            setup_s = time.perf_counter() - started
            tenant = created[0]
            _, key = api_key_create(tenant=tenant, name="bench", permissions=["read"])
            client = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
            users = [f"u{i}" for i in range(8)]
            plan = [(rng.choice(users), rng.choice(QUERIES)) for _ in range(queries)]
            with override_settings(REST_FRAMEWORK={**_rest_settings(), "DEFAULT_THROTTLE_CLASSES": []}):
                for user, query in plan[:5]:  # warm-up: model, connections, plans
                    client.post("/api/v1/search", {"user_id": user, "query": query}, content_type="application/json")
                api_ms = []
                for user, query in tqdm(plan, desc="api", file=sys.stderr, disable=quiet):
                    t0 = time.perf_counter()
                    response = client.post(
                        "/api/v1/search",
                        {"user_id": user, "query": query, "top_k": 10},
                        content_type="application/json",
                    )
                    api_ms.append((time.perf_counter() - t0) * 1000)
                    if response.status_code != 200:
                        raise CommandError(f"search answered {response.status_code}: {response.content[:300]!r}")
            service_ms = []
            for user, query in tqdm(plan, desc="service", file=sys.stderr, disable=quiet):
                t0 = time.perf_counter()
                search_memories(
                    tenant=tenant, user_id=user, query=query, options=SearchOptions(top_k=10, track_access=False)
                )
                service_ms.append((time.perf_counter() - t0) * 1000)
        finally:
            if not options["keep"]:
                for tenant in created:
                    tenant.delete()
        report = {
            "memories": count,
            "tenants": tenants,
            "other_tenants_memories": max(1, count // 4) * (tenants - 1),
            "queries": queries,
            "cores": os.cpu_count(),
            "setup_s": round(setup_s, 1),
            "api_p50_ms": round(percentile(api_ms, 50), 1),
            "api_p95_ms": round(percentile(api_ms, 95), 1),
            "service_p50_ms": round(percentile(service_ms, 50), 1),
            "service_p95_ms": round(percentile(service_ms, 95), 1),
        }
        report["api_over_service_p50"] = round(report["api_p50_ms"] / report["service_p50_ms"], 2)
        if quiet:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"bench_search: {count} memories in the searched tenant, {tenants} tenants, {queries} queries, "
            f"{report['cores']} cores (setup {report['setup_s']} s)\n"
            f"  through the API (POST /api/v1/search, top_k 10): p50 {report['api_p50_ms']} ms, "
            f"p95 {report['api_p95_ms']} ms\n"
            f"  service baseline, same queries:                 p50 {report['service_p50_ms']} ms, "
            f"p95 {report['service_p95_ms']} ms\n"
            f"  API / service at p50: {report['api_over_service_p50']}x"
        )

    def _tenant(self, rng: random.Random, count: int, quiet: bool) -> Tenant:
        slug = f"bench-search-{uuid.uuid4().hex[:8]}"
        members = ", ".join(f"u{i}" for i in range(8))
        tenant_onboard(
            plan=parse_org_chart(
                f"tenant: {{slug: {slug}, name: bench}}\nlevels: [org, team, user]\n"
                f"tree: [{{level: org, key: o, children: [{{level: team, key: a, members: [{members}]}}, "
                "{level: team, key: b}]}]\n"
            )
        )
        tenant = Tenant.objects.get(slug=slug)
        scopes = ["org:o", "team:a", "team:b"] + [f"user:u{i}" for i in range(8)]
        author = Author(kind="import", label="bench")
        with indexing_deferred() as ids, deferred("links"):
            for start in tqdm(range(0, count, 500), desc=f"write {slug}", file=sys.stderr, disable=quiet):
                with transaction.atomic():
                    for index in range(start, min(count, start + 500)):
                        memory_create(
                            tenant=tenant, author=author, content=synthetic_text(rng, index), scope=rng.choice(scopes)
                        )
        ordered = sorted(ids)
        for start in tqdm(range(0, len(ordered), 128), desc="embed", file=sys.stderr, disable=quiet):
            memories_embed(memory_ids=ordered[start : start + 128])
        return tenant


def _rest_settings() -> dict:
    from django.conf import settings

    return dict(settings.REST_FRAMEWORK)
