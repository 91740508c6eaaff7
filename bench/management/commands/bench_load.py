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
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.load_benchmark import DEFAULT_MIX, OPERATIONS, Ledger, check_database, report_figures, run_load
from bench.servers import free_port, process_stop, production_env
from memories.models import Memory, Tenant
from memories.orgchart import parse_org_chart
from memories.services import api_key_create, tenant_onboard

TEAMS = 5


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
                seed = options["seed"]
                load = run_load(url=url, keys=keys, ledger=ledger, duration=duration, weights=weights, seed=seed)
                elapsed = asyncio.run(load)
            check = check_database(tenant=tenant, ledger=ledger)
            report = report_figures(ledger=ledger, elapsed=elapsed, users=users, url=url, server=server, check=check)
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


@contextlib.contextmanager
def _production_server(*, workers: int) -> Iterator[dict]:
    """gunicorn in production mode (DEBUG off, a throwaway SECRET_KEY) on a free loopback port; plain HTTP, so
    the HTTPS redirect is off. Stopped (gracefully, then killed) on exit."""
    port = free_port()
    config = Path(settings.BASE_DIR) / "orgmemory" / "gunicorn_conf.py"
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    env = production_env(
        LOG_LEVEL="WARNING", ORGMEMORY_BIND=f"127.0.0.1:{port}", PORT=str(port), WEB_CONCURRENCY=str(workers)
    )
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
            process_stop(process)


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


# --- the report -------------------------------------------------------------------------------------------------


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
