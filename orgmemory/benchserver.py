"""What the benchmark commands that start their own server share: a free loopback port, and the URL of the
database this process uses, for the server processes they start (the embedded server is a Unix-socket folder)."""

from __future__ import annotations

import socket
from urllib.parse import quote

from django.db import connection


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (":" + quote(db["PASSWORD"], safe="") if db["PASSWORD"] else "")
    name = quote(db["NAME"], safe="")
    if (db["HOST"] or "").startswith("/"):  # a Unix socket directory (the embedded server)
        return f"postgresql://{credentials}@/{name}?host={quote(db['HOST'], safe='')}"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgresql://{credentials}@{db['HOST'] or '127.0.0.1'}{port}/{name}"
