"""The schema stays ready to be distributed by tenant with Citus (docs/SCALING.md, "Distribution by tenant").

Citus distributes a table by one column and co-locates tables distributed by the same column, so every query and
every constraint that names one tenant runs on one node. That holds only if:

(a) every tenant-owned table carries the tenant (a ``tenant`` foreign key or a ``tenant_id`` column) — the
    exceptions are reference tables, copied whole to every node;
(b) every primary key and unique constraint of a distributed table includes the tenant column (Citus refuses
    ``create_distributed_table`` otherwise);
(c) every foreign key of a distributed table points at a table that carries the tenant too (co-located) or at a
    reference table, and no reference table points at a distributed one.

``citus_findings`` is pure and computes the breaches from plain table descriptions; the tests build those
descriptions twice — from Django's app registry (the models) and from PostgreSQL's catalog (what the migrations,
their ``RunSQL`` included, really created) — and require both to give exactly ``KNOWN_EXCEPTIONS``: a new breach
fails, and so does an exception that no longer exists (remove it here and in docs/SCALING.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.db import connection

APPS = ("memories", "graph", "retrieval")
TENANT_COLUMN = "tenant_id"

# Reference tables: small, read everywhere, replicated to every node; no distribution column needed.
REFERENCE_TABLES = {
    "memories_tenant": "the tenants themselves: every distributed table's tenant foreign key points here; "
    "the slug is unique across tenants",
    "memories_tenantstaff": "which tenants a Django staff user administers: read by user across tenants in the admin, "
    "a few rows per staff user; its foreign keys go to reference tables only (memories_tenant, auth_user)",
    "auth_user": "Django's users (admin staff), global; memories_memory.author_user and TenantStaff point here",
}

# (table, rule, detail) → why it is accepted today and what the Citus migration does about it (docs/SCALING.md).
_PK_REASON = (
    "Django's BigAutoField `id` alone is the primary key and every foreign key to the table is (x_id) → (id). "
    "Citus needs PRIMARY KEY (tenant_id, id) and foreign keys (tenant_id, x_id) → (tenant_id, id): one migration at "
    "distribution time (ids stay globally unique, so the wider keys change no row); not done while the project runs "
    "on one PostgreSQL"
)
KNOWN_EXCEPTIONS: dict[tuple[str, str, str], str] = {
    **{
        (table, "primary-key", "id"): _PK_REASON
        for table in (
            "memories_scope",
            "memories_member",
            "memories_apikey",
            "memories_policy",
            "memories_memory",
            "memories_memorychunk",
            "graph_entity",
            "graph_entityalias",
            "graph_entitylink",
            "retrieval_term_statistic",
        )
    },
    ("memories_apikey", "unique", "prefix"): (
        "authentication finds a key by its prefix before it knows the tenant, so the prefix is unique across "
        "tenants. Under Citus: a small reference table prefix → tenant_id (or the tenant in the key) routes the "
        "lookup; the distributed table keeps UNIQUE (tenant_id, prefix)"
    ),
    ("memories_member", "unique", "scope_id"): (
        "OneToOneField(Scope): one member per user node. Equivalent to UNIQUE (tenant_id, scope_id) because a node "
        "belongs to one tenant (Member.clean checks it; the composite foreign key of the primary-key migration "
        "enforces it); that migration swaps the constraint"
    ),
    ("memories_policy", "unique", "scope_id"): (
        "OneToOneField(Scope): one override per node. Equivalent to UNIQUE (tenant_id, scope_id), as for members"
    ),
    ("memories_memorychunk", "unique", "memory_id,ordinal"): (
        "one chunk per (memory, ordinal). Equivalent to UNIQUE (tenant_id, memory_id, ordinal): a chunk copies its "
        "memory's tenant; swapped by the primary-key migration"
    ),
}


@dataclass(frozen=True)
class Table:
    name: str
    columns: frozenset[str]
    primary_key: tuple[str, ...]
    uniques: tuple[tuple[str, ...], ...] = ()  # column sets; "<expression>" for an expression
    foreign_keys: tuple[tuple[tuple[str, ...], str], ...] = field(default=())  # (columns, referenced table)


def citus_findings(
    tables: list[Table], reference_tables: set[str] | dict[str, str], tenant_column: str = TENANT_COLUMN
) -> set[tuple[str, str, str]]:
    """The breaches of rules (a)–(c) above as ``(table, rule, detail)``; pure."""
    reference = set(reference_tables)
    distributed = {t.name for t in tables if t.name not in reference and tenant_column in t.columns}
    findings: set[tuple[str, str, str]] = set()
    for table in tables:
        if table.name in reference:
            for _columns, target in table.foreign_keys:
                if target not in reference:
                    findings.add((table.name, "foreign-key", f"reference table -> {target}"))
            continue
        if tenant_column not in table.columns:
            findings.add((table.name, "tenant-column", "missing"))
            continue
        if tenant_column not in table.primary_key:
            findings.add((table.name, "primary-key", ",".join(table.primary_key)))
        for unique in table.uniques:
            if tenant_column not in unique:
                findings.add((table.name, "unique", ",".join(unique)))
        for columns, target in table.foreign_keys:
            if target not in distributed and target not in reference:
                findings.add((table.name, "foreign-key", f"{','.join(columns)} -> {target}"))
    return findings


# --- the two describers ---------------------------------------------------------------------------------------


def table_from_model(model) -> Table:
    """What one model declares: columns, primary key, unique fields / constraints / unique_together, foreign keys."""
    from django.db.models import UniqueConstraint

    meta = model._meta
    concrete = meta.concrete_fields
    pk = meta.pk
    uniques = [(f.column,) for f in concrete if f.unique and not f.primary_key]
    for constraint in meta.constraints:
        if isinstance(constraint, UniqueConstraint):
            if constraint.fields:
                uniques.append(tuple(meta.get_field(name).column for name in constraint.fields))
            else:
                uniques.append(("<expression>",))
    for together in meta.unique_together:
        uniques.append(tuple(meta.get_field(name).column for name in together))
    return Table(
        name=meta.db_table,
        columns=frozenset(f.column for f in concrete),
        primary_key=tuple(f.column for f in getattr(pk, "fields", [pk])),  # CompositePrimaryKey has .fields
        uniques=tuple(uniques),
        foreign_keys=tuple(
            ((f.column,), f.related_model._meta.db_table)
            for f in concrete
            if f.is_relation and (f.many_to_one or f.one_to_one) and f.db_constraint
        ),
    )


def tables_from_models(app_labels=APPS) -> list[Table]:
    return [
        table_from_model(model)
        for label in app_labels
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


CATALOG_SQL = """
SELECT c.relname,
       array(SELECT a.attname::text FROM pg_attribute a
             WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
       array(SELECT jsonb_build_object(
                 'primary', i.indisprimary,
                 'columns', array(SELECT coalesce(a.attname::text, '<expression>')
                                  FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, n)
                                  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                                  ORDER BY k.n))::text
             FROM pg_index i WHERE i.indrelid = c.oid AND i.indisunique) AS uniques,
       array(SELECT jsonb_build_object(
                 'target', t.relname,
                 'columns', array(SELECT a.attname::text FROM unnest(f.conkey) WITH ORDINALITY k(attnum, n)
                                  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                                  ORDER BY k.n))::text
             FROM pg_constraint f JOIN pg_class t ON t.oid = f.confrelid
             WHERE f.conrelid = c.oid AND f.contype = 'f') AS foreign_keys
FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND s.nspname = current_schema() AND c.relname = ANY(%s)
"""


def tables_from_catalog(table_names: list[str]) -> list[Table]:
    """What PostgreSQL holds for those tables: every unique index (a partial one too, and whatever RunSQL made)."""
    import json

    with connection.cursor() as cursor:
        cursor.execute(CATALOG_SQL, [table_names])
        rows = cursor.fetchall()
    tables = []
    for name, columns, unique_rows, fk_rows in rows:
        indexes = [json.loads(row) for row in unique_rows]
        primary = next((tuple(i["columns"]) for i in indexes if i["primary"]), ())
        tables.append(
            Table(
                name=name,
                columns=frozenset(columns),
                primary_key=primary,
                uniques=tuple(tuple(i["columns"]) for i in indexes if not i["primary"]),
                foreign_keys=tuple((tuple(fk["columns"]), fk["target"]) for fk in (json.loads(row) for row in fk_rows)),
            )
        )
    return tables


# --- the rules can fail ---------------------------------------------------------------------------------------


def test_findings_catch_each_rule_on_a_synthetic_schema():
    tables = [
        Table("tenant", frozenset({"id", "slug"}), ("id",), uniques=(("slug",),)),
        # (a) no tenant column and not a reference table
        Table("orphan", frozenset({"id", "name"}), ("id",)),
        # (b) a unique constraint and a primary key without the tenant
        Table(
            "doc",
            frozenset({"id", "tenant_id", "external_id", "owner_id"}),
            ("tenant_id", "id"),
            uniques=(("external_id",), ("tenant_id", "external_id")),
            foreign_keys=((("tenant_id",), "tenant"), (("owner_id",), "orphan")),
        ),
        Table("chunk", frozenset({"id", "tenant_id", "doc_id"}), ("id",), foreign_keys=((("doc_id",), "doc"),)),
        # (c) a reference table pointing at a distributed one
        Table("kind", frozenset({"id", "doc_id"}), ("id",), foreign_keys=((("doc_id",), "doc"),)),
    ]
    assert citus_findings(tables, {"tenant", "kind"}) == {
        ("orphan", "tenant-column", "missing"),
        ("doc", "unique", "external_id"),
        ("doc", "foreign-key", "owner_id -> orphan"),
        ("chunk", "primary-key", "id"),
        ("kind", "foreign-key", "reference table -> doc"),
    }


def test_a_compliant_synthetic_schema_has_no_findings():
    tables = [
        Table("tenant", frozenset({"id"}), ("id",)),
        Table(
            "doc",
            frozenset({"id", "tenant_id"}),
            ("tenant_id", "id"),
            uniques=(("tenant_id", "id"),),
            foreign_keys=((("tenant_id",), "tenant"),),
        ),
        Table(
            "chunk",
            frozenset({"id", "tenant_id", "doc_id"}),
            ("tenant_id", "id"),
            foreign_keys=((("tenant_id", "doc_id"), "doc"), (("tenant_id",), "tenant")),
        ),
    ]
    assert citus_findings(tables, {"tenant"}) == set()


def test_models_describer_sees_a_violating_model():
    """The Django describer feeds the rules what a model declares (a unique field without the tenant here)."""
    from django.db import models

    class Gadget(models.Model):
        tenant = models.ForeignKey("memories.Tenant", on_delete=models.CASCADE)
        serial = models.CharField(max_length=20, unique=True)

        class Meta:
            app_label = "citus_probe"
            db_table = "citus_probe_gadget"

        def __str__(self) -> str:
            return self.serial

    try:
        table = table_from_model(Gadget)
        assert citus_findings([table], {"memories_tenant"}) == {
            ("citus_probe_gadget", "primary-key", "id"),
            ("citus_probe_gadget", "unique", "serial"),
        }
    finally:
        apps.all_models["citus_probe"].pop("gadget", None)
        apps.clear_cache()


# --- the project's schema -------------------------------------------------------------------------------------


def test_every_project_table_is_described_and_classified():
    tables = tables_from_models()
    names = {t.name for t in tables}
    assert {"memories_memory", "memories_memorychunk", "graph_entitylink", "retrieval_corpus_statistic"} <= names
    unclassified = {t.name for t in tables if TENANT_COLUMN not in t.columns and t.name not in REFERENCE_TABLES}
    assert unclassified == set(), f"tables without a tenant column that are not reference tables: {unclassified}"


def test_models_meet_the_citus_rules_except_the_listed_exceptions():
    findings = citus_findings(tables_from_models(), REFERENCE_TABLES)
    new = findings - set(KNOWN_EXCEPTIONS)
    gone = set(KNOWN_EXCEPTIONS) - findings
    assert not new, f"new Citus breaches (fix them, or list them with the reason here and in docs/SCALING.md): {new}"
    assert not gone, f"listed exceptions that no longer exist (remove them here and in docs/SCALING.md): {gone}"


@pytest.mark.django_db
def test_database_catalog_agrees_with_the_models():
    """What the migrations created (RunSQL included) breaks nothing beyond the models' own listed exceptions."""
    names = [t.name for t in tables_from_models()]
    catalog = tables_from_catalog(names + ["auth_user"])
    assert {t.name for t in catalog} >= set(names)
    findings = citus_findings(catalog, REFERENCE_TABLES)
    assert findings == set(KNOWN_EXCEPTIONS), (
        f"catalog-only: {findings - set(KNOWN_EXCEPTIONS)}; missing: {set(KNOWN_EXCEPTIONS) - findings}"
    )
