"""Randomised isolation probe: many searches by random members of random tenants; every returned memory must be
in the caller's tenant and on the caller's scope chain (DESIGN §10)."""

from __future__ import annotations

import json
import random
import sys
import time
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from graph.services import links_extract_for_memories
from memories.models import Member, Scope, Tenant
from memories.orgchart import parse_org_chart
from memories.selectors import scope_chain_for
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create
from memories.services.onboarding import tenant_onboard
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred
from retrieval.services import SearchOptions, search_memories

WORDS = (
    "kafka",
    "budget",
    "onboarding",
    "roadmap",
    "incident",
    "pricing",
    "Alice Smith",
    "Acme Robotics",
    "deploy",
    "holiday",
    "security",
    "customer",
    "Sequoia",
    "hiring",
    "latency",
    "invoice",
)
ARM_SETS = (("keyword",), ("vector",), ("keyword", "vector"), ("keyword", "vector", "relational"))


def build_chart(slug: str, rng: random.Random) -> str:
    teams = []
    for d in range(2):
        for t in range(2):
            members = ", ".join(f"u{d}{t}{m}" for m in range(3))
            teams.append(f"{{level: team, key: t{d}{t}, members: [{members}]}}")
    divisions = ", ".join(
        f"{{level: division, key: d{d}, children: [{teams[2 * d]}, {teams[2 * d + 1]}]}}" for d in range(2)
    )
    return (
        f"tenant: {{slug: {slug}, name: probe}}\nlevels: [org, division, team, user]\n"
        f"tree: [{{level: org, key: o, children: [{divisions}]}}]\n"
    )


class Command(BaseCommand):
    help = "Build throw-away tenants, run N random searches, and count any result outside the caller's chain."

    def add_arguments(self, parser):
        parser.add_argument("--searches", type=int, default=2000)
        parser.add_argument("--memories", type=int, default=600, help="per tenant")
        parser.add_argument("--tenants", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, searches: int, memories: int, tenants: int, seed: int, **options):
        if min(searches, memories, tenants) < 1:
            raise CommandError("--searches, --memories and --tenants must be positive")
        rng = random.Random(seed)
        created: list[Tenant] = []
        started = time.perf_counter()
        try:
            with indexing_deferred() as embed_ids, deferred("links") as link_ids, transaction.atomic():
                for _ in range(tenants):
                    slug = f"probe-{uuid.uuid4().hex[:8]}"
                    tenant_onboard(plan=parse_org_chart(build_chart(slug, rng)))
                    tenant = Tenant.objects.get(slug=slug)
                    created.append(tenant)
                    scopes = list(Scope.objects.filter(tenant=tenant))
                    for i in range(memories):
                        scope = rng.choice(scopes)
                        words = " ".join(rng.sample(WORDS, 3))
                        text = f"{words} note {i} for {scope.tag} of {slug}."
                        if rng.random() < 0.2:
                            text = f"{rng.choice(['Alice Smith', 'Bob Lee'])} founded Acme Robotics. {text}"
                        memory_create(
                            tenant=tenant, author=Author(kind="admin", label="probe"), content=text, scope=scope
                        )
            ids = sorted(embed_ids)
            for start in range(0, len(ids), 64):
                memories_embed(memory_ids=ids[start : start + 64])
            links_extract_for_memories(memory_ids=sorted(link_ids))
            setup_s = time.perf_counter() - started

            members = [
                (tenant, user_id)
                for tenant in created
                for user_id in Member.objects.filter(tenant=tenant).values_list("user_id", flat=True)
            ]
            chains = {(t.pk, u): {s.pk for s in scope_chain_for(tenant=t, user_id=u)} for t, u in members}
            violations, returned = [], 0
            for _ in tqdm(range(searches), desc="probe", file=sys.stderr, disable=options["json"]):
                tenant, user_id = rng.choice(members)
                query = rng.choice(["Who founded Acme Robotics?", " ".join(rng.sample(WORDS, 2)), rng.choice(WORDS)])
                result = search_memories(
                    tenant=tenant,
                    user_id=user_id,
                    query=query,
                    options=SearchOptions(top_k=rng.choice([5, 20, 50]), arms=rng.choice(ARM_SETS), track_access=False),
                )
                for hit in result.hits:
                    returned += 1
                    if hit.memory.tenant_id != tenant.pk or hit.memory.scope_id not in chains[(tenant.pk, user_id)]:
                        violations.append({"tenant": tenant.slug, "user": user_id, "memory": hit.memory.pk})
        finally:
            for tenant in created:
                tenant.delete()
        report = {
            "searches": searches,
            "results_checked": returned,
            "violations": len(violations),
            "tenants": tenants,
            "memories_per_tenant": memories,
            "setup_s": round(setup_s, 1),
            "examples": violations[:5],
        }
        if options["json"]:
            self.stdout.write(json.dumps(report))
        else:
            self.stdout.write(
                f"isolation probe: {searches} searches, {returned} results checked, "
                f"{len(violations)} outside the caller's tenant or scope chain"
            )
        if violations:
            raise CommandError(f"{len(violations)} isolation violations, e.g. {violations[:3]}")
