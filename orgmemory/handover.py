"""The hand-over of a development run (``make run``): one block, the last thing the start-up prints, with what a
person needs next — the server's address, the development superuser and its password, the demo tenant's API keys
with their permissions, and three things to try. Development only.

``load_demo`` knows the keys (in plain only on the run that creates them: the first), the development server
knows its address and speaks last. So ``load_demo --handover`` writes what it knows to ``<data dir>/handover.json``
(mode 0600, beside the development password), and the development ``runserver`` *takes* it when it starts —
reads it and deletes it, keeping it in its own environment for the processes its autoreloader starts — and prints
the block once it listens (again after each reload). ``load_demo`` on its own prints the block itself.

The block is written to be pasted into a shell: comment lines, then ``export KEY=…`` / ``export ADMIN_KEY=…``
(the README's names) and a search that uses them."""

from __future__ import annotations

import json
import os
from collections.abc import MutableMapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

HANDOVER_FILE = "handover.json"
HANDOVER_ENV = "ORGMEMORY_HANDOVER"
DEV_PASSWORD_FILE = "dev_admin_password"  # noqa: S105 (a file name)
DEV_SUPERUSER = "admin"
# the demo chart's keys, by the shell variable the README uses for each
KEY_VARIABLES = {"support-agent": "KEY", "ops-admin": "ADMIN_KEY"}
RULE = "# " + "─" * 110


@dataclass(frozen=True)
class DemoKey:
    name: str
    permissions: list[str]
    key: str | None = None  # the plain key: only on the run that created it


@dataclass(frozen=True)
class Handover:
    """What ``load_demo`` did to the demo tenant, for the block."""

    tenant: str
    tenant_name: str
    loaded: str  # "created" (this run loaded it), "kept" (loaded before, left as it is) or "reloaded" (--force)
    loaded_at: str
    memories: int
    members: int
    keys: list[DemoKey] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Handover | None:
        try:
            data = json.loads(text)
            return cls(**{**data, "keys": [DemoKey(**key) for key in data.get("keys", [])]})
        except (ValueError, TypeError):
            return None


def handover_write(*, data_dir: Path, handover: Handover) -> Path:
    """Leave ``handover`` for the development server to take (owner-only: it may hold API keys)."""
    path = Path(data_dir) / HANDOVER_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as sink:
        sink.write(handover.to_json())
    path.chmod(0o600)
    return path


def handover_take(*, data_dir: Path, environ: MutableMapping[str, str]) -> Handover | None:
    """The hand-over ``load_demo`` left, once: from ``environ`` when a parent process took it already (the
    autoreloader's), else from the file, which is deleted and its content kept in ``environ`` for the children.
    None when there is none (a server started without ``make run``)."""
    text = environ.get(HANDOVER_ENV)
    if text is None:
        path = Path(data_dir) / HANDOVER_FILE
        try:
            text = path.read_text()
            path.unlink()
        except OSError:
            text = ""
        environ[HANDOVER_ENV] = text
    return Handover.from_json(text) if text else None


def dev_password(data_dir: Path) -> str | None:
    """The development superuser's password, as ``load_demo`` keeps it; None before it ran."""
    try:
        return (Path(data_dir) / DEV_PASSWORD_FILE).read_text().strip() or None
    except OSError:
        return None


def handover_block(*, url: str, handover: Handover | None, password: str | None) -> str:
    """The block, as lines a shell can take (comments, ``export`` lines, a curl). Pure."""
    url = url.rstrip("/")
    lines = [RULE, f"# OrgMemory (development) is at {url}/"]
    if password:
        lines.append(f"# admin      {url}/admin/   user {DEV_SUPERUSER}   password {password}")
    else:
        lines.append("# admin      no development superuser yet: manage.py load_demo creates it")
    lines.append(f"# API        {url}/api/v1   (docs {url}/api/docs/)")
    if handover is None:
        lines += [
            "# demo       not loaded by this start (make run loads it once); an API key:",
            "#   .venv/bin/python manage.py create_api_key --tenant northwind --name me",
        ]
    else:
        lines += _tenant_lines(handover)
    lines += [
        "# next:",
        f"# 1. sign in at {url}/admin/, open the search playground ({url}/admin/search/)",
        '#    and search as albert: "Who founded Northwind Logistics?" (each arm\'s rank, the cited answer)',
        "# 2. search through the API as bea, albert's teammate (KEY above):",
        f"curl -s -X POST {url}/api/v1/search -H \"Authorization: Bearer $KEY\" -H 'Content-Type: application/json' "
        '-d \'{"user_id": "bea", "query": "when can I run a database migration?", "top_k": 3}\'',
        "# 3. give an agent this memory over MCP (README § MCP):",
        "#    ORGMEMORY_API_KEY=$KEY .venv/bin/python manage.py mcp",
        RULE,
    ]
    return "\n".join(lines)


def _tenant_lines(handover: Handover) -> list[str]:
    state = {
        "created": "loaded now",
        "reloaded": "loaded again (--force)",
        "kept": f"loaded {handover.loaded_at}, kept as it is (load_demo --force loads it again)",
    }.get(handover.loaded, handover.loaded)
    lines = [
        f"# demo       tenant {handover.tenant} ({handover.tenant_name}): {handover.memories} memories, "
        f"{handover.members} members; {state}"
    ]
    shown = [key for key in handover.keys if key.key]
    if shown:
        lines.append("# API keys   shown once, store them now:")
        assignments = [f"export {KEY_VARIABLES.get(key.name) or _variable(key.name)}={key.key}" for key in shown]
        width = max(map(len, assignments))
        for key, assignment in zip(shown, assignments, strict=True):
            lines.append(f"{assignment:<{width}}  # {key.name}: {', '.join(key.permissions)}")
    kept = [key for key in handover.keys if not key.key]
    if kept:
        listed = "; ".join(f"{key.name} ({', '.join(key.permissions)})" for key in kept)
        lines += [
            f"# API keys   {listed}: shown on the first run only. A new one:",
            f"#   export KEY=$(.venv/bin/python manage.py create_api_key --tenant {handover.tenant} --name me)",
        ]
    if not handover.keys:
        lines.append(
            f"# API keys   none active; a new one: export KEY=$(.venv/bin/python manage.py create_api_key "
            f"--tenant {handover.tenant} --name me)"
        )
    return lines


def _variable(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name).upper() + "_KEY"
