"""Tenant-inclusive keys for the knowledge gaps (as ``memories`` 0010 does; docs/SCALING.md)."""

from django.db import migrations


def _helpers():
    from importlib import import_module  # the SQL helpers live in memories 0010 (a module name import cannot spell)

    return import_module("memories.migrations.0010_citus_keys")


TABLES = ("curation_searchgap",)
FOREIGN_KEYS = (("curation_searchgap", "member_id", "memories_member", "searchgap_member_same_tenant"),)


class Migration(migrations.Migration):
    dependencies = [
        ("curation", "0003_citus_constraints_off"),
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
