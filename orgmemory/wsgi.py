"""WSGI entry point. Checks the database's extensions once, so a server without pgvector fails at start-up,
then starts the serving process's background threads (``memories.background``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")

application = get_wsgi_application()

from memories.background import serving_threads_start  # noqa: E402
from orgmemory.dbcheck import require_extensions  # noqa: E402

require_extensions()
serving_threads_start()
