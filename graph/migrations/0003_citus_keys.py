"""Tenant-inclusive keys for the graph tables (as ``memories`` 0010 does for its own; docs/SCALING.md)."""

from django.db import migrations

TABLES = ("graph_entity", "graph_entityalias", "graph_entitylink")

FOREIGN_KEYS = (
    ("graph_entityalias", "entity_id", "graph_entity", "alias_entity_same_tenant"),
    ("graph_entitylink", "memory_id", "memories_memory", "link_memory_same_tenant"),
    ("graph_entitylink", "subject_id", "graph_entity", "link_subject_same_tenant"),
    ("graph_entitylink", "object_id", "graph_entity", "link_object_same_tenant"),
)


def _helpers():
    from importlib import import_module  # the SQL helpers live in memories 0010 (a module name import cannot spell)

    return import_module("memories.migrations.0010_citus_keys")


class Migration(migrations.Migration):
    dependencies = [
        ("graph", "0002_citus_constraints_off"),
        ("memories", "0010_citus_keys"),
    ]

    operations = [
        migrations.RunSQL(
            _helpers().primary_keys(TABLES, "id, tenant_id"), reverse_sql=_helpers().primary_keys(TABLES, "id")
        ),
        migrations.RunSQL(
            _helpers().foreign_keys(FOREIGN_KEYS), reverse_sql=_helpers().drop_foreign_keys(FOREIGN_KEYS)
        ),
    ]
