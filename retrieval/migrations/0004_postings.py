"""The keyword arm's own inverted index (retrieval/models.py, ``Posting``): one row per live memory and lexeme,
kept by statement-level triggers on ``memories_memory`` beside the BM25 statistics, and backfilled here."""

from django.db import migrations, models

TABLE = """
CREATE TABLE retrieval_posting (
    tenant_id bigint NOT NULL,
    lexeme text NOT NULL,
    scope_id bigint NOT NULL,
    memory_id bigint NOT NULL,
    kind varchar(16) NOT NULL,
    expires_at timestamptz NULL,
    tf smallint NOT NULL,
    doc_length integer NOT NULL,
    CONSTRAINT retrieval_posting_pkey PRIMARY KEY (tenant_id, lexeme, scope_id, memory_id)
        INCLUDE (kind, expires_at, tf, doc_length)
);
"""

# a memory's postings: its lexemes with how often each occurs (the positions PostgreSQL keeps, at most 255, as the
# arm's ts_rank reading had it) and its length in distinct lexemes; {rows} names the memory rows {r}
_INSERT_POSTINGS = """
    INSERT INTO retrieval_posting (tenant_id, lexeme, scope_id, memory_id, kind, expires_at, tf, doc_length)
    SELECT {r}.tenant_id, l.lexeme, {r}.scope_id, {r}.id, {r}.kind, {r}.expires_at,
           least(greatest(coalesce(cardinality(l.positions), 0), 1), 255), length({r}.search_vector)
    FROM {rows} CROSS JOIN LATERAL unnest({r}.search_vector) AS l(lexeme, positions, weights)
    WHERE {r}.superseded_by_id IS NULL AND {r}.search_vector IS NOT NULL{extra};"""

_DELETE_POSTINGS = """
    DELETE FROM retrieval_posting p
    USING (SELECT {r}.tenant_id, {r}.scope_id, {r}.id, l.lexeme
           FROM {rows} CROSS JOIN LATERAL unnest(tsvector_to_array({r}.search_vector)) AS l(lexeme)
           WHERE {r}.superseded_by_id IS NULL AND {r}.search_vector IS NOT NULL{extra}) d
    WHERE p.tenant_id = d.tenant_id AND p.lexeme = d.lexeme AND p.scope_id = d.scope_id AND p.memory_id = d.id;"""

_PAIRED = "old_rows o JOIN new_rows n ON n.id = o.id"

# an update rewrites a row's postings only when something they hold changed; the old and new rows are paired by a
# join first, so the common updates (access tracking, index and link states), which change none of it, cost that
# one join
_CHANGED = """(o.search_vector IS DISTINCT FROM n.search_vector
        OR (o.superseded_by_id IS NULL) <> (n.superseded_by_id IS NULL)
        OR o.scope_id <> n.scope_id OR o.kind <> n.kind OR o.expires_at IS DISTINCT FROM n.expires_at)"""

TRIGGERS = f"""
CREATE OR REPLACE FUNCTION retrieval_posting_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{_INSERT_POSTINGS.format(rows="new_rows r", r="r", extra="")}
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION retrieval_posting_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{_DELETE_POSTINGS.format(rows="old_rows r", r="r", extra="")}
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION retrieval_posting_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM {_PAIRED} WHERE {_CHANGED}) THEN
        RETURN NULL;
    END IF;{_DELETE_POSTINGS.format(rows=_PAIRED, r="o", extra=" AND " + _CHANGED)}{
    _INSERT_POSTINGS.format(rows=_PAIRED, r="n", extra=" AND " + _CHANGED)}
    RETURN NULL;
END $$;

CREATE TRIGGER retrieval_posting_insert AFTER INSERT ON memories_memory
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_posting_on_insert();
CREATE TRIGGER retrieval_posting_delete AFTER DELETE ON memories_memory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_posting_on_delete();
CREATE TRIGGER retrieval_posting_update AFTER UPDATE ON memories_memory
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION retrieval_posting_on_update();
{_INSERT_POSTINGS.format(rows="memories_memory r", r="r", extra="")}
"""

REVERSE = """
DROP TRIGGER IF EXISTS retrieval_posting_insert ON memories_memory;
DROP TRIGGER IF EXISTS retrieval_posting_delete ON memories_memory;
DROP TRIGGER IF EXISTS retrieval_posting_update ON memories_memory;
DROP FUNCTION IF EXISTS retrieval_posting_on_insert();
DROP FUNCTION IF EXISTS retrieval_posting_on_delete();
DROP FUNCTION IF EXISTS retrieval_posting_on_update();
"""


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0003_vector_indexes_per_scope"), ("memories", "0013_vector_indexes_per_scope")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(TABLE, "DROP TABLE retrieval_posting")],
            state_operations=[
                migrations.CreateModel(
                    name="Posting",
                    fields=[
                        (
                            "pk",
                            models.CompositePrimaryKey(
                                "tenant_id", "lexeme", "scope_id", "memory_id", blank=True, editable=False,
                                primary_key=True, serialize=False,
                            ),
                        ),
                        ("tenant_id", models.BigIntegerField()),
                        ("lexeme", models.TextField()),
                        ("scope_id", models.BigIntegerField()),
                        ("memory_id", models.BigIntegerField()),
                        ("kind", models.CharField(max_length=16)),
                        ("expires_at", models.DateTimeField(null=True)),
                        (
                            "tf",
                            models.SmallIntegerField(
                                help_text="Occurrences of the lexeme in the memory (positions kept, at most 255)."
                            ),
                        ),
                        (
                            "doc_length",
                            models.IntegerField(help_text="The memory's distinct lexemes (BM25's document length)."),
                        ),
                    ],
                    options={"db_table": "retrieval_posting"},
                ),
            ],
        ),
        migrations.RunSQL(TRIGGERS, REVERSE),
    ]
