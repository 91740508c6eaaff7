"""Serve OrgMemory's MCP tools: over stdio (the key from ORGMEMORY_API_KEY) or streamable HTTP (--http; each
request carries ``Authorization: Bearer <key>``)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from retrieval.mcp_server import API_KEY_ENV, KeyRefused, build_server, http_app, stdio_key_from_env


class Command(BaseCommand):
    help = (
        f"MCP server with the tools search, remember, recall, forget and neighbours. Default: stdio, authenticated "
        f"by {API_KEY_ENV}. --http: streamable HTTP at http://HOST:PORT/mcp, authenticated per request by "
        "`Authorization: Bearer <key>`."
    )

    def add_arguments(self, parser):
        parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
        parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8001, help="HTTP port (default 8001)")
        parser.add_argument("--path", default="/mcp", help="HTTP endpoint path (default /mcp)")

    def handle(self, *args, http: bool, host: str, port: int, path: str, **options):
        if http:
            import uvicorn

            if not 1 <= port <= 65535:
                raise CommandError(f"--port must be 1–65535, got {port}")
            self.stderr.write(f"OrgMemory MCP (streamable HTTP) on http://{host}:{port}{path}")
            uvicorn.run(http_app(host=host, path=path), host=host, port=port, log_level="warning")
            return
        try:
            plain = stdio_key_from_env()
        except KeyRefused as exc:
            raise CommandError(f"{exc} ({API_KEY_ENV})")
        build_server(api_key=plain).run("stdio")  # stdout carries the protocol: nothing else may print there
