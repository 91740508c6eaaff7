"""ASGI entry point. Checks the database's extensions once, so a server without pgvector fails at start-up."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")

application = get_asgi_application()

from orgmemory.dbcheck import startup_checks  # noqa: E402

startup_checks()
