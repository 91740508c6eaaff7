"""The load benchmark's moving parts (``manage.py bench_load``): simulated agents that mix search, write, session
ingest and delete through the HTTP API, a ledger of what the server acknowledged, and the check afterwards that
the database holds every acknowledged write exactly once and none of the acknowledged deletes."""

from __future__ import annotations

import asyncio
import os
import random
import time
import uuid
from dataclasses import dataclass, field

from django.db.models import Count

from bench.stats import percentile
from memories.models import IndexState, Memory, Tenant

OPERATIONS = ("search", "write", "session", "delete")
DEFAULT_MIX = "search=50,write=25,session=15,delete=10"

_SUBJECTS = (
    "the billing service|the ingest pipeline|the EU cluster|the mobile app|the data warehouse|"
    "the on-call rota|the Q3 roadmap|the SSO rollout|the search index|the release train|"
    "the customer portal|the payments API|the staging database|the design system|the CI runners"
).split("|")
_VERBS = (
    "owns|migrated|reviewed|is rewriting|documented|deprecated|load-tested|paged on|moved|budgeted|"
    "audited|benchmarked|split|archived|scaled"
).split("|")
_DETAILS = (
    "before the freeze|with Terraform|after the incident|for the audit|behind a flag|in two phases|"
    "with the vendor|on weekends|for the EU region|without downtime|using Helm charts|with a canary|"
    "after the board review|for the Berlin office|in Rust"
).split("|")
_QUERIES = (
    "who owns the billing service|what happened after the incident|EU cluster migration|"
    "how do we deploy the mobile app|payments API audit|what is the Q3 roadmap|who is on call|"
    "search index benchmark|SSO rollout status|data warehouse budget"
).split("|")


@dataclass
class Sample:
    operation: str
    status: int  # 0: no response (connection error, timeout)
    ms: float


@dataclass
class Ledger:
    """What the server acknowledged, to check against the database afterwards."""

    written: dict[int, str] = field(default_factory=dict)  # memory id -> its content
    deleted: set[int] = field(default_factory=set)
    superseded: set[int] = field(default_factory=set)  # replaced by a near-duplicate write (kept as history)
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


# --- the load ---------------------------------------------------------------------------------------------------


async def run_load(
    *, url: str, keys: list[tuple[str, str]], ledger: Ledger, duration: float, weights: dict[str, float], seed: int
) -> float:
    """Run the agents until ``duration`` seconds have passed; returns the seconds the load actually took."""
    import httpx

    limits = httpx.Limits(max_connections=len(keys) + 8, max_keepalive_connections=len(keys) + 8)
    async with httpx.AsyncClient(base_url=f"{url}/api/v1", timeout=60, limits=limits) as client:
        # searches first: each worker process loads what it lazily needs before the clock runs
        for user, key in keys[:8]:
            await client.post("/search", json={"user_id": user, "query": "warm up"}, headers=_auth(key))
        started = time.monotonic()
        deadline = started + duration
        await asyncio.gather(
            *(
                _agent(
                    client, user, key, ledger, deadline=deadline, weights=weights, rng=random.Random(seed * 1000 + n)
                )
                for n, (user, key) in enumerate(keys)
            )
        )
        return time.monotonic() - started


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _sentence(rng: random.Random, user: str, n: int) -> str:
    # distinct words per text (and a unique tag), so that no write is a near-duplicate of another one
    clauses = [f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_DETAILS)}" for _ in range(rng.randint(2, 4))]
    return f"{user} note {n} ({uuid.uuid4().hex[:12]}): " + "; ".join(clauses) + "."


async def _agent(
    client, user: str, key: str, ledger: Ledger, *, deadline: float, weights: dict[str, float], rng: random.Random
) -> None:
    import httpx

    headers = _auth(key)
    names, odds = list(weights), list(weights.values())
    own: list[int] = []
    count = 0
    while time.monotonic() < deadline:
        operation = rng.choices(names, odds)[0]
        if operation == "delete" and not own:
            operation = "write"
        count += 1
        started = time.perf_counter()
        status = 0
        try:
            if operation == "search":
                response = await client.post(
                    "/search", json={"user_id": user, "query": rng.choice(_QUERIES), "top_k": 10}, headers=headers
                )
                status = response.status_code
                ok = status == 200
            elif operation == "write":
                content = _sentence(rng, user, count)
                response = await client.post("/memories", json={"user_id": user, "content": content}, headers=headers)
                status = response.status_code
                ok = status == 201
                if ok:
                    body = response.json()
                    ledger.written[body["id"]] = content
                    own.append(body["id"])
                    if body.get("supersedes"):
                        ledger.superseded.add(body["supersedes"])
            elif operation == "session":
                events = [
                    {"id": f"e{k}", "author": "user", "text": _sentence(rng, user, count * 10 + k)} for k in range(3)
                ]
                response = await client.post(
                    "/sessions",
                    json={"user_id": user, "session_id": f"{user}-session-{count}", "events": events},
                    headers=headers,
                )
                status = response.status_code
                ok = status == 201
                if ok:
                    ids = response.json()["memory_ids"]
                    ok = len(ids) == len(events)
                    for memory_id, event in zip(ids, events, strict=False):
                        ledger.written[memory_id] = event["text"]
                        own.append(memory_id)
            else:
                memory_id = own.pop(rng.randrange(len(own)))
                response = await client.delete(f"/memories/{memory_id}", params={"user_id": user}, headers=headers)
                status = response.status_code
                ok = status == 200
                if ok:
                    ledger.deleted.add(memory_id)
            if not ok:
                ledger.errors.append(f"{operation} {status}: {response.text[:300]}")
        except httpx.HTTPError as exc:
            ledger.errors.append(f"{operation}: {type(exc).__name__}: {exc}")
        ledger.samples.append(Sample(operation, status, (time.perf_counter() - started) * 1000))


# --- afterwards: nothing lost, duplicated or resurrected --------------------------------------------------------


def check_database(*, tenant: Tenant, ledger: Ledger, wait_seconds: float = 120.0) -> dict:
    written, deleted = set(ledger.written), ledger.deleted
    expected = written - deleted
    rows = Memory.objects.filter(tenant=tenant)
    present = set(rows.values_list("pk", flat=True))
    duplicated = list(rows.values("content").annotate(n=Count("id")).filter(n__gt=1).values_list("content", "n"))
    mismatched = [
        pk for pk, content in rows.filter(pk__in=expected).values_list("pk", "content") if content != ledger.written[pk]
    ]
    # indexing runs after each write's commit; give a straggler (or the sweeper) a moment before counting
    deadline = time.monotonic() + wait_seconds
    while rows.exclude(index_state=IndexState.READY).exists() and time.monotonic() < deadline:
        time.sleep(1)
    states = dict(rows.values_list("index_state").annotate(n=Count("id")))
    check = {
        "acknowledged_writes": len(written),
        "acknowledged_deletes": len(deleted),
        "rows": len(present),
        "lost": len(expected - present),
        "resurrected": len(deleted & present),
        "unacknowledged_rows": len(present - written),
        "duplicated_contents": len(duplicated),
        "changed_contents": len(mismatched),
        "near_duplicate_supersessions": len(ledger.superseded),
        "index_states": states,
    }
    check["ok"] = (
        not check["lost"]
        and not check["resurrected"]
        and not check["unacknowledged_rows"]
        and not check["duplicated_contents"]
        and not check["changed_contents"]
        and set(states) <= {IndexState.READY}
    )
    return check


def _percentile(values: list[float], q: float) -> float:
    """``q`` in [0, 1]; 0 for an operation that never ran."""
    return percentile(values, q * 100) if values else 0.0


def report_figures(*, ledger: Ledger, elapsed: float, users: int, url: str, server: dict | None, check: dict) -> dict:
    operations = {}
    for operation in OPERATIONS:
        samples = [s for s in ledger.samples if s.operation == operation]
        latencies = sorted(s.ms for s in samples)
        operations[operation] = {
            "requests": len(samples),
            "per_second": round(len(samples) / elapsed, 2),
            "p50_ms": round(_percentile(latencies, 0.50), 1),
            "p95_ms": round(_percentile(latencies, 0.95), 1),
            "p99_ms": round(_percentile(latencies, 0.99), 1),
            "max_ms": round(latencies[-1], 1) if latencies else 0.0,
        }
    all_latencies = sorted(s.ms for s in ledger.samples)
    return {
        "url": url,
        "server": server or "external",
        "cores": os.cpu_count(),
        "users": users,
        "seconds": round(elapsed, 1),
        "requests": len(ledger.samples),
        "requests_per_second": round(len(ledger.samples) / elapsed, 2),
        "p50_ms": round(_percentile(all_latencies, 0.50), 1),
        "p95_ms": round(_percentile(all_latencies, 0.95), 1),
        "p99_ms": round(_percentile(all_latencies, 0.99), 1),
        "errors": len(ledger.errors),
        "first_errors": ledger.errors[:5],
        "operations": operations,
        "check": check,
    }
