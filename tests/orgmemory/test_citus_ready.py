"""The schema stays ready to be distributed by tenant with Citus (docs/SCALING.md, "Distribution by tenant").

Citus distributes a table by one column and co-locates tables distributed by the same column, so every query and
every constraint that names one tenant runs on one node. That holds only if:

(a) every tenant-owned table carries the tenant (a ``tenant`` foreign key or a ``tenant_id`` column) — the
    exceptions are reference tables, copied whole to every node;
(b) every primary key and unique constraint of a distributed table includes the tenant column (Citus refuses
    ``create_distributed_table`` otherwise);
(c) every foreign key of a distributed table points at a table that carries the tenant too (co-located) and
    includes the tenant column (``(tenant_id, x_id) → (tenant_id, id)``), or at a reference table; no reference
    table points at a distributed one.

``citus_findings`` is pure and computes the breaches from plain table descriptions; the tests build those
descriptions twice — from Django's app registry (the models) and from PostgreSQL's catalog (what the migrations,
their ``RunSQL`` included, really created) — and require both to give exactly ``KNOWN_EXCEPTIONS`` (none today):
a new breach fails, and so does an exception that no longer exists. The models declare what Django 5.2 cannot
express (a primary key of ``(id, tenant_id)``, foreign keys that include the tenant) through
``memories.models.TenantKeyed``; a further test requires the catalog's primary and foreign keys to be exactly
what the models declare, so the declaration cannot drift from the migrations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.db import connection

APPS = ("memories", "graph", "retrieval", "curation")
TENANT_COLUMN = "tenant_id"

# Reference tables: small, read everywhere, replicated to every node; no distribution column needed.
REFERENCE_TABLES = {
    "memories_tenant": "the tenants themselves: every distributed table's tenant foreign key points here; "
    "the slug is unique across tenants",
    "memories_tenantstaff": "which tenants a Django staff user administers: read by user across tenants in the admin, "
    "a few rows per staff user; its foreign keys go to reference tables only (memories_tenant, auth_user)",
    "auth_user": "Django's users (admin staff), global; memories_memory.author_user and TenantStaff point here",
    "django_admin_log": "Django's admin log, global (its rows name their object by content type and id)",
    "django_content_type": "Django's content types, global",
    "curation_adminlogtenant": "the tenant of each admin log entry: keyed by the global log entry and read with "
    "it (the audit page), so it lives where the log does; its foreign keys go to reference tables only",
}

# (table, rule, detail) → why it is accepted. Empty: every tenant-owned table is keyed by its tenant
# (memories.models.TenantKeyed; migrations memories 0009–0010, graph 0002–0003, retrieval 0002). A breach that must
# be accepted is listed here with its reason, and in docs/SCALING.md.
KNOWN_EXCEPTIONS: dict[tuple[str, str, str], str] = {}


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
            elif target in distributed and tenant_column not in columns:
                findings.add((table.name, "foreign-key", f"{','.join(columns)} -> {target} without {tenant_column}"))
    return findings


# --- the two describers ---------------------------------------------------------------------------------------


def table_from_model(model) -> Table:
    """What one model declares: columns, primary key, unique fields / constraints / unique_together, foreign keys.
    A ``TenantKeyed`` model declares its database primary key (``citus_primary_key``), and its ``ForeignKey``s
    with ``db_constraint=False`` to another ``TenantKeyed`` model are the ``(tenant_id, x_id)`` constraints its
    migration made; other unconstrained relations are not foreign keys in the database."""
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
    foreign_keys = []
    for f in concrete:
        if not (f.is_relation and (f.many_to_one or f.one_to_one)):
            continue
        target = f.related_model._meta.db_table
        if f.db_constraint:
            foreign_keys.append(((f.column,), target))
        elif hasattr(model, "citus_primary_key") and hasattr(f.related_model, "citus_primary_key"):
            foreign_keys.append(((TENANT_COLUMN, f.column), target))
    declared = getattr(model, "citus_primary_key", None)
    return Table(
        name=meta.db_table,
        columns=frozenset(f.column for f in concrete),
        primary_key=tuple(declared) if declared else tuple(f.column for f in getattr(pk, "fields", [pk])),
        uniques=tuple(uniques),
        foreign_keys=tuple(foreign_keys),
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
                                  WHERE k.n <= i.indnkeyatts  -- key columns: INCLUDE columns are not unique
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
        # (c) a foreign key between two distributed tables that leaves the tenant out
        Table(
            "page",
            frozenset({"id", "tenant_id", "doc_id"}),
            ("id", "tenant_id"),
            foreign_keys=((("doc_id",), "doc"),),
        ),
    ]
    assert citus_findings(tables, {"tenant", "kind"}) == {
        ("orphan", "tenant-column", "missing"),
        ("doc", "unique", "external_id"),
        ("doc", "foreign-key", "owner_id -> orphan"),
        ("chunk", "primary-key", "id"),
        ("chunk", "foreign-key", "doc_id -> doc without tenant_id"),
        ("kind", "foreign-key", "reference table -> doc"),
        ("page", "foreign-key", "doc_id -> doc without tenant_id"),
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
    catalog = tables_from_catalog(names + ["auth_user", "django_admin_log"])
    assert {t.name for t in catalog} >= set(names)
    findings = citus_findings(catalog, REFERENCE_TABLES)
    assert findings == set(KNOWN_EXCEPTIONS), (
        f"catalog-only: {findings - set(KNOWN_EXCEPTIONS)}; missing: {set(KNOWN_EXCEPTIONS) - findings}"
    )


@pytest.mark.django_db
def test_database_keys_are_what_the_models_declare():
    """The primary and foreign keys in the catalog are exactly the models' (TenantKeyed's declared ones
    included): a declaration without its migration, or a constraint made in SQL that no model declares, fails."""
    models = {t.name: t for t in tables_from_models()}
    catalog = {t.name: t for t in tables_from_catalog(list(models))}
    for name, declared in models.items():
        found = catalog[name]
        assert set(found.primary_key) == set(declared.primary_key), name
        assert {(frozenset(c), t) for c, t in found.foreign_keys} == {
            (frozenset(c), t) for c, t in declared.foreign_keys
        }, name


@pytest.mark.django_db
def test_the_database_refuses_a_row_pointing_into_another_tenant():
    """The tenant-inclusive foreign keys are real: a memory of tenant A at a scope of tenant B is refused at
    commit (the constraint is deferred like Django's), even when written past the ORM's checks."""
    from django.db import IntegrityError, transaction

    from memories.models import Memory, Scope, Tenant

    first = Tenant.objects.create(slug="citus-a", name="A", levels=["org", "user"])
    second = Tenant.objects.create(slug="citus-b", name="B", levels=["org", "user"])
    foreign_scope = Scope.objects.create(tenant=second, level="org", key="root")
    with pytest.raises(IntegrityError), transaction.atomic():
        Memory.objects.create(tenant=first, scope=foreign_scope, content="crosses tenants", content_hash="x")
        connection.check_constraints()
    assert not Memory.objects.filter(tenant=first).exists()


@pytest.mark.django_db
def test_an_api_key_prefix_shared_by_two_tenants_authenticates_each_key():
    """The prefix is unique per tenant now (Citus needs the tenant in every unique key): two tenants' keys may
    share one, and authentication still finds each key by its own hash — and refuses a wrong secret."""
    import hashlib

    from memories.models import ApiKey, Tenant
    from memories.services.tenancy import api_key_authenticate, api_key_create

    first = Tenant.objects.create(slug="prefix-a", name="A", levels=["org", "user"])
    second = Tenant.objects.create(slug="prefix-b", name="B", levels=["org", "user"])
    key_a, plain_a = api_key_create(tenant=first, name="a", permissions=["read"])
    key_b, plain_b = api_key_create(tenant=second, name="b", permissions=["read"])
    shared = key_a.prefix
    ApiKey.objects.filter(pk=key_b.pk).update(prefix=shared)
    plain_b = plain_b.replace(f"_{key_b.prefix}_", f"_{shared}_", 1)
    ApiKey.objects.filter(pk=key_b.pk).update(key_hash=hashlib.sha256(plain_b.encode()).hexdigest())

    assert api_key_authenticate(plain=plain_a).pk == key_a.pk
    assert api_key_authenticate(plain=plain_b).pk == key_b.pk
    assert api_key_authenticate(plain=plain_a[:-2] + "xx") is None
