"""The vector arm moves from one HNSW index over every tenant's chunks to one partial HNSW index per large scope
(retrieval/vector_indexes.py): build those for the scopes that already have enough chunks; memories.0013 then
drops the shared index. Later scopes get theirs from the sync on the beat schedule."""

from django.db import migrations


def build_scope_indexes(apps, schema_editor):
    from retrieval.vector_indexes import vector_indexes_sync

    vector_indexes_sync(concurrently=False)


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0002_citus_keys"), ("memories", "0012_dashboard_indexes")]

    operations = [migrations.RunPython(build_scope_indexes, migrations.RunPython.noop, elidable=True)]
