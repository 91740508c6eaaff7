"""Tenant-inclusive keys (docs/SCALING.md, "Distribution by tenant with Citus"; ``memories.models.TenantKeyed``).

Every tenant-owned table's primary key becomes ``(id, tenant_id)`` — ``id`` first, so a look-up by ``id`` alone
(what Django does) still uses it — and every foreign key between two tenant-owned tables becomes
``(tenant_id, x_id) → (tenant_id, id)``, so the database also refuses a row that points into another tenant.
0009 dropped Django's single-column constraints (``db_constraint=False``: Django 5.2 cannot declare a foreign key
to a composite key); the ids stay unique (one sequence per table), so no row and no id the API returns changes.
Constraints stay ``DEFERRABLE INITIALLY DEFERRED`` like Django's, and Django still does the cascades.
"""

from django.db import migrations

TABLES = ("memories_scope", "memories_member", "memories_apikey", "memories_policy", "memories_memory",
          "memories_memorychunk")

# (table, column, referenced table, constraint name)
FOREIGN_KEYS = (
    ("memories_scope", "parent_id", "memories_scope", "scope_parent_same_tenant"),
    ("memories_member", "scope_id", "memories_scope", "member_scope_same_tenant"),
    ("memories_apikey", "scope_id", "memories_scope", "apikey_scope_same_tenant"),
    ("memories_policy", "scope_id", "memories_scope", "policy_scope_same_tenant"),
    ("memories_policy", "default_scope_id", "memories_scope", "policy_default_scope_same_tenant"),
    ("memories_memory", "scope_id", "memories_scope", "memory_scope_same_tenant"),
    ("memories_memory", "author_member_id", "memories_member", "memory_author_member_same_tenant"),
    ("memories_memory", "superseded_by_id", "memories_memory", "memory_superseded_by_same_tenant"),
    ("memories_memorychunk", "memory_id", "memories_memory", "chunk_memory_same_tenant"),
    ("memories_memorychunk", "scope_id", "memories_scope", "chunk_scope_same_tenant"),
)


def primary_keys(tables, columns):
    return "\n".join(
        f"ALTER TABLE {t} DROP CONSTRAINT {t}_pkey, ADD CONSTRAINT {t}_pkey PRIMARY KEY ({columns});" for t in tables
    )


def foreign_keys(rows):
    return "\n".join(
        f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY (tenant_id, {column}) "
        f"REFERENCES {target} (tenant_id, id) DEFERRABLE INITIALLY DEFERRED;"
        for table, column, target, name in rows
    )


def drop_foreign_keys(rows):
    return "\n".join(f"ALTER TABLE {table} DROP CONSTRAINT {name};" for table, _, _, name in rows)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0009_citus_constraints_off"),
        # graph 0002 drops graph_entitylink's constraint on memories_memory(id), which the new key replaces
        ("graph", "0002_citus_constraints_off"),
        ("curation", "0003_citus_constraints_off"),  # likewise curation_searchgap's on memories_member(id)
    ]

    operations = [
        migrations.RunSQL(primary_keys(TABLES, "id, tenant_id"), reverse_sql=primary_keys(TABLES, "id")),
        migrations.RunSQL(foreign_keys(FOREIGN_KEYS), reverse_sql=drop_foreign_keys(FOREIGN_KEYS)),
    ]
