"""runserver that refuses to start on a database without pgvector / pg_trgm (a clean error, not a traceback;
the WSGI module it then loads runs the other start-up checks)."""

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserverCommand
from django.core.management.base import CommandError

from orgmemory.dbcheck import describe_missing, missing_extensions


class Command(StaticRunserverCommand):
    def inner_run(self, *args, **options):
        missing = missing_extensions()
        if missing:
            raise CommandError(describe_missing(missing))
        return super().inner_run(*args, **options)
