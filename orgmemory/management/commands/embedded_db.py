"""Show, start or stop the embedded PostgreSQL (only when DATABASE_URL is unset)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from orgmemory.embedded_db import embedded_database_url, embedded_server_stop


class Command(BaseCommand):
    help = "Show the embedded database's URL, or stop it: embedded_db [url|stop]."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["url", "stop"], nargs="?", default="url")

    def handle(self, *args, action: str, **options):
        if not settings.ORGMEMORY_EMBEDDED_DB:
            raise CommandError("DATABASE_URL is set: there is no embedded database to manage.")
        if action == "stop":
            from django.db import connections

            connections.close_all()
            stopped = embedded_server_stop(settings.ORGMEMORY_DATA_DIR)
            self.stdout.write("stopped" if stopped else "not running")
        else:
            self.stdout.write(embedded_database_url(settings.ORGMEMORY_DATA_DIR))
