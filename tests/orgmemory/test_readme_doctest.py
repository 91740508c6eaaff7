"""The README's commands run as pasted: every ```bash block and every ```json MCP client configuration of README.md
(except blocks whose info string says ``no-doctest``: `make run` / `make test` themselves and the production
templates) runs against a live server holding what `make run` loads (the demo tenant, through `load_demo`), with
manage.py finding the development setup the way `make run` records it. Substituted, and printed with every command:
the live server's address for 127.0.0.1:8000, the demo keys `load_demo` printed for ``om_…``, this checkout for
``/path/to/orgmemory`` and a free port for 8001. A command fails the test when it exits non-zero or answers an
``{"error": …}``; an expected-output comment under a call (``#   "answer": {"text": "…"``) must match its output."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from django.core.management import call_command
from django.db import connection

from orgmemory.env import write_local_run

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FENCE = re.compile(r"^(?P<indent>[ ]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ ]*$", re.M | re.S)

pytestmark = pytest.mark.django_db(transaction=True)


def blocks() -> list[tuple[str, list[str], str]]:
    """(language, info words, body) of every fenced block, indentation removed."""
    found = []
    for match in FENCE.finditer(README.read_text()):
        words = match["info"].split()
        indent = len(match["indent"])
        body = "\n".join(line[indent:] for line in match["body"].splitlines())
        found.append((words[0] if words else "", words[1:], body))
    return found


def commands(body: str) -> list[tuple[str, list[str]]]:
    """A bash block's commands (continuation lines joined) with the expected-output comments that follow each."""
    out: list[tuple[str, list[str]]] = []
    pending = ""
    for line in body.splitlines():
        stripped = line.strip()
        if pending:
            pending += "\n" + line
        elif stripped.startswith("#   ") and out:
            out[-1][1].append(stripped[1:].strip())
            continue
        elif not stripped or stripped.startswith("#"):
            continue
        else:
            pending = line
        if not _continues(pending):
            out.append((pending, []))
            pending = ""
    return out


def _continues(command: str) -> bool:
    code = re.sub(r"\s+#[^'\"\n]*$", "", command.rstrip())
    return code.endswith("\\") or code.count("'") % 2 == 1


def _expected_patterns(comment: str) -> list[re.Pattern]:
    """The string literals of an expected-output comment, cut at an ellipsis, ids as any number; and each short
    ``"name": value`` pair (a value under 12 characters, ``true``/``false``/``null``), e.g. ``"status": "proposed"``
    or ``"created": true``, as that pair in the output."""
    patterns = []
    for literal in re.findall(r'"((?:[^"\\]|\\.)*)"', comment):
        literal = re.split(r"\.\.\.|…", literal)[0]
        if len(literal) < 12:
            continue
        patterns.append(re.compile(re.sub(r"#\\d\+|#\d+", r"#\\d+", re.escape(literal).replace(r"\#", "#"))))
    for name, value in re.findall(r'"(\w+)":\s*("[^"…]{1,11}"|true|false|null)(?=\s*[,;}\]]|\s*$)', comment):
        patterns.append(re.compile(rf'"{name}":\s*{re.escape(value)}'))
    return patterns


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Readme:
    def __init__(self, live_url: str, keys: dict[str, str], data_dir: Path) -> None:
        db = connection.settings_dict
        self.keys = keys
        self.port = _free_port()
        self.live_url = live_url
        self.env = {k: v for k, v in os.environ.items() if k not in {"ORGMEMORY_ENV", "DJANGO_SETTINGS_MODULE"}}
        # what this test adds to the environment a user has: its own data folder and the test database
        self.extra_env = {
            "ORGMEMORY_DATA_DIR": str(data_dir),
            "DATABASE_URL": f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
            "HF_HUB_OFFLINE": "1",
        }
        self.env.update(self.extra_env)
        self.ran: list[str] = []
        self.assignments: list[str] = []
        self.http_servers: list[subprocess.Popen] = []

    def substitute(self, text: str) -> str:
        text = text.replace("http://127.0.0.1:8000", self.live_url).replace("/path/to/orgmemory", str(ROOT))
        text = re.sub(r"\b8001\b", str(self.port), text)
        text = re.sub(r"\bADMIN_KEY=om_…", f"ADMIN_KEY={self.keys['ops-admin']}", text)
        return text.replace("om_…", self.keys["support-agent"])

    def record(self, what: str) -> None:
        what = re.sub(r"\s*\\?\n\s*", " ", what)  # one line per command
        self.ran.append(what)
        print(f"README doctest: {what}")

    # --- bash -----------------------------------------------------------------------------------------------
    def run_bash(self, body: str) -> None:
        # a block may use what an earlier one set (B=…, KEY=…), as in the reader's shell
        script = ["set -u", *self.assignments]
        checks: list[tuple[str, list[str]]] = []
        for command, expected in commands(body):
            command = self.substitute(command)
            if re.search(r"manage\.py mcp\b", command):
                self.run_mcp_line(command)
                continue
            if re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S+(\s+#.*)?", command):
                self.assignments.append(command)
            script.append(f"{command}\necho; echo '@@end {len(checks)}' $?")
            checks.append((command, expected))
        if not checks:
            return
        done = subprocess.run(
            ["bash", "-c", "\n".join(script)], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=900
        )
        outputs = re.split(r"^@@end (\d+) (\d+)$", done.stdout, flags=re.M)
        assert done.returncode == 0, done.stderr
        for index, (command, expected) in enumerate(checks):
            text, number, status = outputs[3 * index], outputs[3 * index + 1], outputs[3 * index + 2]
            assert int(number) == index
            self.record(command)
            assert status == "0", f"{command}\nexit {status}\n{text}\n{done.stderr}"
            self.check_output(command, text.strip(), expected)

    def check_output(self, command: str, text: str, expected: list[str]) -> None:
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        if isinstance(body, dict):
            assert "error" not in body, f"{command}\n{text}"
        for comment in expected:
            for pattern in _expected_patterns(comment):
                assert pattern.search(text) or (body is not None and pattern.search(json.dumps(body))), (
                    f"{command}\nexpected {pattern.pattern!r} in\n{text[:2000]}"
                )

    # --- MCP ------------------------------------------------------------------------------------------------
    def run_mcp_line(self, command: str) -> None:
        if "--http" in command:
            log = open(Path(self.extra_env["ORGMEMORY_DATA_DIR"]) / "mcp-http.log", "w")  # noqa: SIM115
            server = subprocess.Popen(["bash", "-c", command], cwd=ROOT, env=self.env, stdout=log, stderr=log)
            self.http_servers.append(server)
            deadline = time.monotonic() + 120  # readiness of a starting server, not a timing assertion
            while True:
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                        break
                assert server.poll() is None, Path(log.name).read_text()
                assert time.monotonic() < deadline, "the MCP HTTP server did not start"
                time.sleep(0.2)
            self.record(f"{command}   (started; used by the http client configuration)")
            return
        from mcp import StdioServerParameters

        params = StdioServerParameters(command="bash", args=["-c", command], cwd=str(ROOT), env=self.env)
        self.record(f"{command}   (an MCP stdio client: list_tools, search)")
        asyncio.run(self._stdio(params))

    def run_mcp_config(self, config: dict) -> None:
        from mcp import StdioServerParameters

        for name, server in config["mcpServers"].items():
            if "command" in server:
                env = {**server.get("env", {}), **self.extra_env}
                params = StdioServerParameters(command=server["command"], args=server.get("args", []), env=env)
                self.record(f"mcpServers.{name}: {server['command']} {' '.join(server.get('args', []))}")
                asyncio.run(self._stdio(params))
            else:
                self.record(f"mcpServers.{name}: {server['type']} {server['url']}")
                asyncio.run(self._http(server["url"], server.get("headers", {})))

    async def _stdio(self, params) -> None:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await self._use(session)

    async def _http(self, url: str, headers: dict) -> None:
        import httpx2
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        timeout = httpx2.Timeout(60.0, read=300.0)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await self._use(session)

    async def _use(self, session) -> None:
        await session.initialize()
        tools = {tool.name for tool in (await session.list_tools()).tools}
        assert {"search", "remember", "recall"} <= tools
        result = await session.call_tool("search", {"user_id": "albert", "query": "Who founded Northwind Logistics?"})
        assert not result.is_error, result.content
        assert "Northwind" in json.dumps([getattr(block, "text", "") for block in result.content])

    def stop(self) -> None:
        for server in self.http_servers:
            server.terminate()
            server.wait(timeout=60)


def test_every_readme_command_and_client_configuration_runs(live_server, settings, tmp_path):
    from memories.embedding import models_dir

    models = models_dir()
    models.mkdir(parents=True, exist_ok=True)
    (tmp_path / "models").symlink_to(models)  # the subprocesses serve the model this process exported
    settings.ORGMEMORY_ENV = "development"  # what `make run` sets up: load_demo refuses any other mode
    settings.ORGMEMORY_DATA_DIR = tmp_path
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    # the keys of the closing block: export KEY=om_…  # support-agent: read, write
    keys = {name: key for key, name in re.findall(r"^export \w+=(om_\S+)\s+# ([\w.-]+):", out.getvalue(), re.M)}
    assert set(keys) >= {"support-agent", "ops-admin"}, out.getvalue()
    write_local_run(base_dir=tmp_path / "checkout", data_dir=tmp_path)  # as `make run` does
    httpx.post(  # the first search of the live server loads its embedder: not inside a command's output
        f"{live_server.url}/api/v1/search",
        json={"user_id": "albert", "query": "warm up"},
        headers={"Authorization": f"Bearer {keys['support-agent']}"},
        timeout=300,
    ).raise_for_status()

    readme = Readme(live_server.url, keys, tmp_path)
    skipped = []
    try:
        for language, words, body in blocks():
            if "no-doctest" in words:
                skipped.append(f"{language} (no-doctest) {body.splitlines()[0] if body else ''}")
                continue
            if language in {"bash", "sh", "shell"}:
                readme.run_bash(body)
            elif language == "json" and "mcpServers" in body:
                readme.run_mcp_config(json.loads(readme.substitute(body)))
            else:
                skipped.append(f"{language or 'text'} (not a shell or client block) {body.splitlines()[0]}")
    finally:
        readme.stop()
    print("README doctest: not run:", *skipped, sep="\n  ")
    assert any("manage.py mcp" in command and "--http" not in command for command in readme.ran)
    assert any(command.startswith("curl") for command in readme.ran)
    assert any(command.startswith("mcpServers.") for command in readme.ran)


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def test_the_mcp_tools_the_readme_names_are_the_ones_the_server_registers():
    """The README's count and list of MCP tools against the server's own registry: a tool added, renamed or
    removed without the README following fails here."""
    from retrieval.mcp_server import build_server

    stated = re.search(r"with (\w+) tools — (.+?) — over", README.read_text(), re.S)
    assert stated, "README § MCP no longer says `with N tools — … — over`"
    count = NUMBERS.get(stated[1], int(stated[1]) if stated[1].isdigit() else None)
    named = re.findall(r"`(\w+)`", stated[2])
    registered = {tool.name for tool in asyncio.run(build_server(api_key="om_unused").list_tools())}
    assert count == len(named) == len(registered), (stated[1], named, sorted(registered))
    assert set(named) == registered


@pytest.mark.parametrize(
    ("comment", "output", "matches"),
    [
        ('201 "created": true, "status": "proposed"', '{"id":5,"created":true,"status":"proposed"}', True),
        ('201 "created": true, "status": "proposed"', '{"id":5,"created":true,"status":"active"}', False),
        ('"answer": {"text": "The code freeze started on 7 May.", "kind": "date"}', '"kind": "path"', False),
        ('201 "created": true; GET /memories/{id} then shows …', '{"created":false}', False),
    ],
)
def test_an_expected_output_comment_checks_short_pairs_too(comment, output, matches):
    assert all(pattern.search(output) for pattern in _expected_patterns(comment)) is matches
