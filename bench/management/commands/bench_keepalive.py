"""Latency of a running server as the clients agents use see it: one ``httpx.Client`` that keeps its connection
open (as a ``requests.Session`` or the ADK adapter's client do), beside a new connection per request (as ``curl``).
``GET /api/v1/health`` and a search, p50/p95 over ``--requests`` calls each. Points at a server it did not start:
``make run``'s (the default address), ``make serve``'s or any other."""

from __future__ import annotations

import http.client
import json
import logging
import os
import time
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from bench.stats import percentile


class Command(BaseCommand):
    help = (
        "p50/p95 of GET /api/v1/health and POST /api/v1/search against a running server, through one keep-alive "
        "httpx.Client and through a new connection per request (the server's address: --url)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running server (make run's)")
        parser.add_argument("--key", default=os.environ.get("ORGMEMORY_API_KEY", ""), help="an API key with read")
        parser.add_argument("--user", default="albert", help="the user_id the searches act for")
        parser.add_argument("--query", default="when can I run a database migration?")
        parser.add_argument("--requests", type=int, default=200, help="calls per figure")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, url: str, key: str, user: str, query: str, requests: int, **options):
        import httpx

        if not key:
            raise CommandError("--key (or ORGMEMORY_API_KEY): an API key of the server's tenant with read")
        if requests < 1:
            raise CommandError("--requests must be positive")
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request
        base = url.rstrip("/") + "/api/v1"
        headers = {"Authorization": f"Bearer {key}"}
        search = {"user_id": user, "query": query, "top_k": 5}
        calls = {
            "health": lambda client: client.get(f"{base}/health"),
            "search": lambda client: client.post(f"{base}/search", json=search, headers=headers),
        }
        report = {"url": url, "requests": requests, "keep_alive": {}, "new_connection": {}}
        with httpx.Client(timeout=120) as client:
            for call in calls.values():  # the embedder loads on the first search: not a measured call
                call(client).raise_for_status()
            for name, call in calls.items():
                report["keep_alive"][name] = _timed(lambda call=call: call(client), requests)
        for name in calls:
            report["new_connection"][name] = _timed(
                lambda name=name: _fresh_connection(url, name, headers=headers, search=search), requests
            )
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(f"bench_keepalive: {url}, {requests} calls per figure")
        for mode, label in (("keep_alive", "keep-alive httpx.Client"), ("new_connection", "new connection each")):
            for name, figures in report[mode].items():
                self.stdout.write(
                    f"  {label:<24} {name:<6}  p50 {figures['p50_ms']:7.2f} ms  p95 {figures['p95_ms']:7.2f} ms"
                )


def _fresh_connection(url: str, name: str, *, headers: dict, search: dict) -> tuple[int, str]:
    """One call on a connection of its own, closed after it (``http.client``: no client set-up to time, as curl)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=120)
    try:
        if name == "health":
            connection.request("GET", "/api/v1/health", headers={"Connection": "close"})
        else:
            body = json.dumps(search)
            connection.request(
                "POST",
                "/api/v1/search",
                body=body,
                headers={**headers, "Content-Type": "application/json", "Connection": "close"},
            )
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def _timed(call, requests: int) -> dict[str, float]:
    took = []
    for _ in range(requests):
        started = time.perf_counter()
        response = call()
        took.append((time.perf_counter() - started) * 1000)
        status, text = response if isinstance(response, tuple) else (response.status_code, response.text)
        if status != 200:
            raise CommandError(f"{status} {text[:500]}")
    return {"p50_ms": round(percentile(took, 50), 2), "p95_ms": round(percentile(took, 95), 2)}
