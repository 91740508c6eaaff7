"""Create the extensions OrgMemory needs before any table uses them.

``vector`` (pgvector) backs the embeddings and their HNSW indexes; ``pg_trgm`` backs trigram GIN indexes for
names and typos. A server that lacks either fails here with one message naming the extension and the fix,
instead of a bare "could not open extension control file".
"""

from django.db import migrations


def create_extensions(apps, schema_editor):
    from orgmemory.dbcheck import REQUIRED_EXTENSIONS, describe_missing, missing_extensions

    missing = missing_extensions(schema_editor.connection.alias)
    if missing:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(describe_missing(missing, schema_editor.connection.alias))
    for name in REQUIRED_EXTENSIONS:
        schema_editor.execute(f'CREATE EXTENSION IF NOT EXISTS "{name}"')


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.RunPython(create_extensions, migrations.RunPython.noop)]
