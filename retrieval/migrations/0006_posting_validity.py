"""Postings carry their memory's validity (memories migration ``0018_time``), so the keyword arm's index-only scan
filters it as it filters expiry: a posting's ``expires_at`` is when its memory stops being visible — its expiry or
the end of its validity, whichever is earlier — and ``valid_from`` when it starts. The primary key is rebuilt with
the new INCLUDE column and the triggers rewrite a memory's postings when its validity changes."""

from django.db import migrations, models

TABLE = """
ALTER TABLE retrieval_posting ADD COLUMN valid_from timestamptz NULL;
ALTER TABLE retrieval_posting DROP CONSTRAINT retrieval_posting_pkey,
    ADD CONSTRAINT retrieval_posting_pkey PRIMARY KEY (tenant_id, lexeme, scope_id, memory_id)
        INCLUDE (kind, expires_at, valid_from, tf, doc_length);
"""
REVERSE_TABLE = """
ALTER TABLE retrieval_posting DROP CONSTRAINT retrieval_posting_pkey,
    ADD CONSTRAINT retrieval_posting_pkey PRIMARY KEY (tenant_id, lexeme, scope_id, memory_id)
        INCLUDE (kind, expires_at, tf, doc_length);
ALTER TABLE retrieval_posting DROP COLUMN valid_from;
"""

_INSERT_POSTINGS = """
    INSERT INTO retrieval_posting (tenant_id, lexeme, scope_id, memory_id, kind, expires_at, valid_from, tf,
                                   doc_length)
    SELECT {r}.tenant_id, l.lexeme, {r}.scope_id, {r}.id, {r}.kind, least({r}.expires_at, {r}.valid_until),
           {r}.valid_from, least(greatest(coalesce(cardinality(l.positions), 0), 1), 255), length({r}.search_vector)
    FROM {rows} CROSS JOIN LATERAL unnest({r}.search_vector) AS l(lexeme, positions, weights)
    WHERE {r}.superseded_by_id IS NULL AND {r}.search_vector IS NOT NULL{extra};"""
_DELETE_POSTINGS = """
    DELETE FROM retrieval_posting p
    USING (SELECT {r}.tenant_id, {r}.scope_id, {r}.id, l.lexeme
           FROM {rows} CROSS JOIN LATERAL unnest(tsvector_to_array({r}.search_vector)) AS l(lexeme)
           WHERE {r}.superseded_by_id IS NULL AND {r}.search_vector IS NOT NULL{extra}) d
    WHERE p.tenant_id = d.tenant_id AND p.lexeme = d.lexeme AND p.scope_id = d.scope_id AND p.memory_id = d.id;"""
_PAIRED = "old_rows o JOIN new_rows n ON n.id = o.id"


def _functions(changed: str, insert: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION retrieval_posting_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN{insert.format(rows="new_rows r", r="r", extra="")}
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION retrieval_posting_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM {_PAIRED} WHERE {changed}) THEN
        RETURN NULL;
    END IF;{_DELETE_POSTINGS.format(rows=_PAIRED, r="o", extra=" AND " + changed)}{
        insert.format(rows=_PAIRED, r="n", extra=" AND " + changed)}
    RETURN NULL;
END $$;
"""


_CHANGED = """(o.search_vector IS DISTINCT FROM n.search_vector
        OR (o.superseded_by_id IS NULL) <> (n.superseded_by_id IS NULL)
        OR o.scope_id <> n.scope_id OR o.kind <> n.kind OR o.expires_at IS DISTINCT FROM n.expires_at
        OR o.valid_from IS DISTINCT FROM n.valid_from OR o.valid_until IS DISTINCT FROM n.valid_until)"""
_OLD_CHANGED = """(o.search_vector IS DISTINCT FROM n.search_vector
        OR (o.superseded_by_id IS NULL) <> (n.superseded_by_id IS NULL)
        OR o.scope_id <> n.scope_id OR o.kind <> n.kind OR o.expires_at IS DISTINCT FROM n.expires_at)"""
_OLD_INSERT = """
    INSERT INTO retrieval_posting (tenant_id, lexeme, scope_id, memory_id, kind, expires_at, tf, doc_length)
    SELECT {r}.tenant_id, l.lexeme, {r}.scope_id, {r}.id, {r}.kind, {r}.expires_at,
           least(greatest(coalesce(cardinality(l.positions), 0), 1), 255), length({r}.search_vector)
    FROM {rows} CROSS JOIN LATERAL unnest({r}.search_vector) AS l(lexeme, positions, weights)
    WHERE {r}.superseded_by_id IS NULL AND {r}.search_vector IS NOT NULL{extra};"""


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0005_term_lexeme_trigrams"), ("memories", "0018_time")]
    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(TABLE, REVERSE_TABLE)],
            state_operations=[
                migrations.AddField(
                    model_name="posting", name="valid_from", field=models.DateTimeField(null=True)
                ),
            ],
        ),
        migrations.RunSQL(_functions(_CHANGED, _INSERT_POSTINGS), _functions(_OLD_CHANGED, _OLD_INSERT)),
    ]
