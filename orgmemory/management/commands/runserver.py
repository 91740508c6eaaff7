"""runserver that refuses to start on a database without pgvector / pg_trgm (a clean error, not a traceback;
the WSGI module it then loads runs the other start-up checks), that answers keep-alive clients without a stall,
and that, in development, ends its start-up output with the hand-over block (where to go, the superuser, the
demo tenant's keys: ``orgmemory.handover``).

The stall: Django's development server writes a response's headers and its body in separate ``send()`` calls. On a
connection kept open (an ``httpx.Client``, a ``requests.Session``, the ADK adapter's client), Nagle's algorithm
holds the body back until the client acknowledges the headers, and the client delays that acknowledgement (up to
40 ms on Linux): every call after the first waits for it. ``TCP_NODELAY`` on each accepted connection sends the
body at once, as gunicorn does on its listening socket."""

from __future__ import annotations

import os
import socket

from django.conf import settings
from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserverCommand
from django.core.management.base import CommandError
from django.core.servers.basehttp import WSGIServer

from orgmemory.dbcheck import describe_missing, missing_extensions
from orgmemory.handover import Handover, dev_password, handover_block, handover_take


class NoDelayWSGIServer(WSGIServer):
    """Django's development WSGI server with ``TCP_NODELAY`` on every accepted TCP connection."""

    def get_request(self):
        connection, address = super().get_request()
        if connection.family in (socket.AF_INET, socket.AF_INET6):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


class Command(StaticRunserverCommand):
    server_cls = NoDelayWSGIServer
    handover: Handover | None = None

    def handle(self, *args, **options):
        if settings.ORGMEMORY_ENV == "development":
            # the reloader's parent takes the hand-over once; its children (one per reload) inherit it
            self.handover = handover_take(data_dir=settings.ORGMEMORY_DATA_DIR, environ=os.environ)
        return super().handle(*args, **options)

    def inner_run(self, *args, **options):
        missing = missing_extensions()
        if missing:
            raise CommandError(describe_missing(missing))
        return super().inner_run(*args, **options)

    def on_bind(self, server_port):
        super().on_bind(server_port)
        if settings.ORGMEMORY_ENV == "development":
            host = f"[{self.addr}]" if self._raw_ipv6 else self.addr
            block = handover_block(
                url=f"{self.protocol}://{host}:{server_port}",
                handover=self.handover,
                password=dev_password(settings.ORGMEMORY_DATA_DIR),
            )
            self.stdout.write(block)
