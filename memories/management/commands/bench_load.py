"""Benchmark: the production server under load. Simulated agents (asyncio + httpx, one API key each) mix search,
write, session ingest and delete against gunicorn on 127.0.0.1 for a fixed time; then the database is checked:
every acknowledged write is there exactly once, every acknowledged delete is gone.

By default the command starts the server itself (gunicorn with ``orgmemory/gunicorn_conf.py`` when present, else
``orgmemory.wsgi``) in production mode on a free loopback port, using this command's database, and stops it at
the end. ``--url`` targets a running server instead; it must use the same database as this command (the
benchmark tenant and its keys are created here). A benchmark, not a test: it prints figures and exits non-zero
when a request failed or the check found a lost, duplicated or resurrected memory."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count

from memories.models import IndexState, Memory, Tenant
from memories.orgchart import parse_org_chart
from memories.services import api_key_create, tenant_onboard

OPERATIONS = ("search", "write", "session", "delete")
DEFAULT_MIX = "search=50,write=25,session=15,delete=10"
TEAMS = 5

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


class Command(BaseCommand):
    help = "Load-test the production server: N agents mixing search/write/session/delete; figures + loss check."

    def add_arguments(self, parser):
        parser.add_argument("--users", type=int, default=50, help="Simulated agents (one API key and user each).")
        parser.add_argument("--duration", type=float, default=60.0, help="Seconds of load.")
        parser.add_argument("--mix", default=DEFAULT_MIX, help=f"Operation weights (default {DEFAULT_MIX}).")
        parser.add_argument("--url", default="", help="A running server on 127.0.0.1 using this database.")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="gunicorn workers.")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--keep", action="store_true", help="Keep the benchmark tenant afterwards.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options):
        # one INFO line per request / per inline task otherwise
        for name in ("httpx", "celery.app.trace"):
            logging.getLogger(name).setLevel(logging.WARNING)
        users, duration = options["users"], options["duration"]
        if not 1 <= users <= 500 or not 1 <= duration <= 3600:
            raise CommandError("--users must be 1..500 and --duration 1..3600 seconds")
        weights = _parse_mix(options["mix"])
        url = options["url"].rstrip("/")
        if url and not url.startswith(("http://127.0.0.1:", "http://localhost:")):
            raise CommandError("--url must be a loopback server (http://127.0.0.1:PORT)")

        tenant, keys = _benchmark_tenant(users)
        try:
            with contextlib.ExitStack() as stack:
                server = None
                if not url:
                    server = stack.enter_context(_production_server(workers=options["workers"]))
                    url = server["url"]
                ledger = Ledger()
                elapsed = asyncio.run(
                    _run_load(url, keys, ledger, duration=duration, weights=weights, seed=options["seed"])
                )
            check = _check(tenant, ledger)
            report = _report(ledger, elapsed=elapsed, users=users, url=url, server=server, check=check)
        finally:
            if not options["keep"]:
                Memory.objects.filter(tenant=tenant).delete()
                tenant.delete()

        if options["json"]:
            self.stdout.write(json.dumps(report))
        else:
            self.stdout.write(_format(report))
        if report["errors"] or not check["ok"]:
            raise CommandError(f"{report['errors']} failed request(s); check: {json.dumps(check)}")


def _parse_mix(text: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name.strip() not in OPERATIONS:
            raise CommandError(f"--mix: unknown operation {name.strip()!r} (one of {', '.join(OPERATIONS)})")
        try:
            weights[name.strip()] = float(value)
        except ValueError:
            raise CommandError(f"--mix: {part!r} is not name=weight")
    if sum(weights.values()) <= 0:
        raise CommandError("--mix: the weights add up to nothing")
    return weights


# --- set-up: a fresh tenant, a user and a key per simulated agent ----------------------------------------------


def _benchmark_tenant(users: int) -> tuple[Tenant, list[tuple[str, str]]]:
    slug = f"bench-load-{uuid.uuid4().hex[:8]}"
    members = [f"u{n:03d}" for n in range(users)]
    chart = {
        "tenant": {"slug": slug, "name": "Load benchmark"},
        "levels": ["org", "team", "user"],
        "tree": [
            {
                "level": "org",
                "key": slug,
                "name": "Load benchmark",
                "children": [
                    {"level": "team", "key": f"team-{t}", "name": f"Team {t}", "members": members[t::TEAMS]}
                    for t in range(min(TEAMS, users))
                ],
            }
        ],
        "policies": {"auto_provision_users": False, "writable_levels": {"agent": ["user", "team"]}},
    }
    tenant_onboard(plan=parse_org_chart(yaml.safe_dump(chart)))
    tenant = Tenant.objects.get(slug=slug)
    keys = []
    for user in members:
        _, plain = api_key_create(tenant=tenant, name=f"bench-{user}", permissions=["read", "write", "delete"])
        keys.append((user, plain))
    return tenant, keys


def _database_url() -> str:
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (":" + quote(db["PASSWORD"], safe="") if db["PASSWORD"] else "")
    name = quote(db["NAME"], safe="")
    if (db["HOST"] or "").startswith("/"):  # a Unix socket directory (the embedded server)
        return f"postgresql://{credentials}@/{name}?host={quote(db['HOST'], safe='')}"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgresql://{credentials}@{db['HOST'] or '127.0.0.1'}{port}/{name}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _production_server(*, workers: int) -> Iterator[dict]:
    """gunicorn in production mode (DEBUG off, a throwaway SECRET_KEY) on a free loopback port; plain HTTP, so
    the HTTPS redirect is off. Stopped (gracefully, then killed) on exit."""
    port = _free_port()
    config = Path(settings.BASE_DIR) / "orgmemory" / "gunicorn_conf.py"
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "orgmemory.settings",
        "ORGMEMORY_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": _database_url(),
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "ORGMEMORY_BIND": f"127.0.0.1:{port}",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(workers),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    if config.exists():
        command = [gunicorn, "-c", str(config)]
    else:
        command = [gunicorn, "orgmemory.wsgi:application", f"--bind=127.0.0.1:{port}", f"--workers={workers}"]
    with tempfile.TemporaryDirectory(prefix="orgmemory-bench-load-") as folder:
        log_path = Path(folder) / "server.log"
        with log_path.open("w") as log:
            process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(process, url, log_path)
            yield {"url": url, "command": " ".join(Path(part).name for part in command[:3]), "workers": workers}
        finally:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_serving(process: subprocess.Popen, url: str, log_path: Path, timeout: float = 300.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"the server exited ({process.returncode}):\n{log_path.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/v1/health", timeout=5).status_code == 200:
                return
        time.sleep(0.5)
    raise CommandError(f"the server did not answer within {timeout:.0f} s:\n{log_path.read_text()[-3000:]}")


# --- the load ---------------------------------------------------------------------------------------------------


async def _run_load(
    url: str, keys: list[tuple[str, str]], ledger: Ledger, *, duration: float, weights: dict[str, float], seed: int
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


def _check(tenant: Tenant, ledger: Ledger, wait_seconds: float = 120.0) -> dict:
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


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))]


def _report(ledger: Ledger, *, elapsed: float, users: int, url: str, server: dict | None, check: dict) -> dict:
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


def _format(report: dict) -> str:
    server = report["server"]
    where = f"{server['command']}, {server['workers']} workers" if isinstance(server, dict) else "external server"
    lines = [
        f"bench_load: {report['users']} users for {report['seconds']} s against {report['url']} ({where}, "
        f"{report['cores']} cores)",
        f"  {report['requests']} requests, {report['requests_per_second']} req/s, p50 {report['p50_ms']} ms, "
        f"p95 {report['p95_ms']} ms, p99 {report['p99_ms']} ms, errors {report['errors']}",
        f"  {'operation':<9} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for name, row in report["operations"].items():
        lines.append(
            f"  {name:<9} {row['requests']:>8} {row['per_second']:>7} {row['p50_ms']:>8} {row['p95_ms']:>8} "
            f"{row['p99_ms']:>8} {row['max_ms']:>8}"
        )
    check = report["check"]
    lines.append(
        f"  check: {check['acknowledged_writes']} acknowledged writes, {check['acknowledged_deletes']} deletes, "
        f"{check['rows']} rows; lost {check['lost']}, resurrected {check['resurrected']}, unacknowledged "
        f"{check['unacknowledged_rows']}, duplicated {check['duplicated_contents']}, changed "
        f"{check['changed_contents']}; index states {check['index_states']} -> {'OK' if check['ok'] else 'FAILED'}"
    )
    for error in report["first_errors"]:
        lines.append(f"  error: {error}")
    return "\n".join(lines)
