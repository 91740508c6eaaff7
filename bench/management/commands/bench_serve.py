"""Start the production server (gunicorn with ``orgmemory/gunicorn_conf.py``) on a free loopback port, once per
embedder, and print each worker's start-up time and memory, the time until the server answers, and health-check
latency through real HTTP with persistent database connections. Stops the server it started."""

from __future__ import annotations

import json
import logging
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.servers import free_port, process_stop
from bench.stats import percentile

READY = re.compile(r"worker (\d+) ready ([\d.]+) s after fork: embedder (.+) loaded in ([\d.]+) s, RSS (\d+) MB")


class Command(BaseCommand):
    help = "gunicorn start-up time and memory per worker, per embedder (starts and stops its own server)."

    def add_arguments(self, parser):
        parser.add_argument("--embedders", default="onnx-int8,sentence-transformers")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--requests", type=int, default=200, help="health requests through HTTP")
        parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the workers")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request
        results = {}
        for kind in [k.strip() for k in options["embedders"].split(",") if k.strip()]:
            results[kind] = serve_once(kind, workers=options["workers"], requests=options["requests"], options=options)
        report = {"cores": os.cpu_count(), "workers": options["workers"], "servers": results}
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        lines = [f"bench_serve: gunicorn, {options['workers']} workers × 1 thread, {report['cores']} cores"]
        for kind, result in results.items():
            lines.append(
                f"  {kind}: listening → all workers ready in {result['all_ready_seconds']:.2f} s; "
                f"master RSS {result['master_rss_mb']} MB; health p50 {result['health_p50_ms']:.2f} ms, "
                f"p95 {result['health_p95_ms']:.2f} ms over {options['requests']} requests"
            )
            for worker in result["workers"]:
                lines.append(
                    f"    worker {worker['pid']}: ready {worker['ready_after_fork_seconds']:.2f} s after fork "
                    f"(embedder load {worker['embedder_load_seconds']:.2f} s), RSS {worker['rss_mb']} MB, "
                    f"USS {worker['uss_mb']} MB, PSS {worker['pss_mb']} MB, torch loaded: {worker['torch_loaded']}"
                )
        self.stdout.write("\n".join(lines))


def serve_once(kind: str, *, workers: int, requests: int, options: dict) -> dict:
    import httpx
    import psutil

    port = free_port()
    env = {
        **os.environ,
        "ORGMEMORY_EMBEDDER": kind,
        "WEB_CONCURRENCY": str(workers),
        "ORGMEMORY_BIND": f"127.0.0.1:{port}",
        "GUNICORN_ACCESSLOG": "",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    config = Path(settings.BASE_DIR) / "orgmemory" / "gunicorn_conf.py"
    started = time.perf_counter()
    server = subprocess.Popen(
        [str(gunicorn), "-c", str(config)],
        cwd=settings.BASE_DIR,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    ready: dict[int, dict] = {}
    log: list[str] = []
    all_ready = threading.Event()

    def read_log() -> None:
        for line in server.stderr:
            log.append(line)
            match = READY.search(line)
            if match:
                ready[int(match[1])] = {
                    "pid": int(match[1]),
                    "ready_after_fork_seconds": float(match[2]),
                    "embedder": match[3],
                    "embedder_load_seconds": float(match[4]),
                    "logged_rss_mb": int(match[5]),
                }
                if len(ready) >= workers:
                    all_ready.set()

    threading.Thread(target=read_log, daemon=True).start()
    try:
        if not all_ready.wait(options["timeout"]):
            raise CommandError(f"gunicorn ({kind}) did not get {workers} workers ready:\n{''.join(log[-30:])}")
        all_ready_seconds = time.perf_counter() - started
        latencies = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(requests):
                began = time.perf_counter()
                response = client.get("/api/v1/health")
                latencies.append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    raise CommandError(f"health answered {response.status_code}: {response.text[:500]}")
        master = psutil.Process(server.pid)
        rows = []
        for child in master.children():
            memory = child.memory_full_info()
            row = ready.get(child.pid, {"pid": child.pid})
            row.update(
                rss_mb=round(memory.rss / 2**20),
                uss_mb=round(memory.uss / 2**20),
                pss_mb=round(memory.pss / 2**20),
                torch_loaded=any("libtorch" in m.path for m in child.memory_maps()),
            )
            rows.append(row)
        return {
            "all_ready_seconds": round(all_ready_seconds, 2),
            "master_rss_mb": round(master.memory_info().rss / 2**20),
            "health_p50_ms": round(statistics.median(latencies), 2),
            "health_p95_ms": round(percentile(latencies, 95), 2),
            "workers": sorted(rows, key=lambda row: row["pid"]),
        }
    finally:
        process_stop(server)  # the master we started: it stops its workers gracefully
