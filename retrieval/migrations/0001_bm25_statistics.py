"""BM25 statistics tables, the triggers that keep them current, and a backfill (retrieval/models.py says why)."""

from django.db import migrations, models

TRIGGERS = r"""
CREATE OR REPLACE FUNCTION retrieval_bm25_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO retrieval_corpus_statistic AS s (tenant_id, doc_count, total_length)
    SELECT n.tenant_id, count(*), sum(length(n.search_vector))
    FROM new_rows n WHERE n.superseded_by_id IS NULL AND n.search_vector IS NOT NULL
    GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET doc_count = s.doc_count + EXCLUDED.doc_count, total_length = s.total_length + EXCLUDED.total_length;
    INSERT INTO retrieval_term_statistic AS t (tenant_id, lexeme, doc_count)
    SELECT n.tenant_id, l.lexeme, count(*)
    FROM new_rows n CROSS JOIN LATERAL unnest(tsvector_to_array(n.search_vector)) AS l(lexeme)
    WHERE n.superseded_by_id IS NULL AND n.search_vector IS NOT NULL
    GROUP BY n.tenant_id, l.lexeme ORDER BY n.tenant_id, l.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET doc_count = t.doc_count + EXCLUDED.doc_count;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION retrieval_bm25_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retrieval_corpus_statistic s
    SET doc_count = s.doc_count - d.docs, total_length = s.total_length - d.length
    FROM (
        SELECT o.tenant_id, count(*) AS docs, sum(length(o.search_vector)) AS length
        FROM old_rows o WHERE o.superseded_by_id IS NULL AND o.search_vector IS NOT NULL
        GROUP BY o.tenant_id
    ) d
    WHERE s.tenant_id = d.tenant_id;
    UPDATE retrieval_term_statistic t SET doc_count = t.doc_count - d.docs
    FROM (
        SELECT o.tenant_id, l.lexeme, count(*) AS docs
        FROM old_rows o CROSS JOIN LATERAL unnest(tsvector_to_array(o.search_vector)) AS l(lexeme)
        WHERE o.superseded_by_id IS NULL AND o.search_vector IS NOT NULL
        GROUP BY o.tenant_id, l.lexeme
    ) d
    WHERE t.tenant_id = d.tenant_id AND t.lexeme = d.lexeme;
    DELETE FROM retrieval_term_statistic t USING (SELECT DISTINCT tenant_id FROM old_rows) o
    WHERE t.tenant_id = o.tenant_id AND t.doc_count <= 0;
    DELETE FROM retrieval_corpus_statistic s USING (SELECT DISTINCT tenant_id FROM old_rows) o
    WHERE s.tenant_id = o.tenant_id AND s.doc_count <= 0;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION retrieval_bm25_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- only rows whose vector or superseded state changed count (access tracking, index states: nothing to do)
    CREATE TEMP TABLE IF NOT EXISTS retrieval_bm25_changed (
        tenant_id bigint, old_v tsvector, new_v tsvector, old_live boolean, new_live boolean
    ) ON COMMIT DELETE ROWS;
    TRUNCATE retrieval_bm25_changed;
    INSERT INTO retrieval_bm25_changed
    SELECT n.tenant_id, o.search_vector, n.search_vector,
           o.superseded_by_id IS NULL AND o.search_vector IS NOT NULL,
           n.superseded_by_id IS NULL AND n.search_vector IS NOT NULL
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.search_vector IS DISTINCT FROM n.search_vector
       OR (o.superseded_by_id IS NULL) <> (n.superseded_by_id IS NULL);
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO retrieval_corpus_statistic AS s (tenant_id, doc_count, total_length)
    SELECT c.tenant_id,
           sum(c.new_live::int - c.old_live::int),
           sum(CASE WHEN c.new_live THEN length(c.new_v) ELSE 0 END
               - CASE WHEN c.old_live THEN length(c.old_v) ELSE 0 END)
    FROM retrieval_bm25_changed c GROUP BY c.tenant_id ORDER BY c.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET doc_count = s.doc_count + EXCLUDED.doc_count, total_length = s.total_length + EXCLUDED.total_length;
    INSERT INTO retrieval_term_statistic AS t (tenant_id, lexeme, doc_count)
    SELECT d.tenant_id, d.lexeme, sum(d.sign)
    FROM (
        SELECT c.tenant_id, l AS lexeme, 1 AS sign
        FROM retrieval_bm25_changed c, unnest(tsvector_to_array(c.new_v)) AS l WHERE c.new_live
        UNION ALL
        SELECT c.tenant_id, l, -1
        FROM retrieval_bm25_changed c, unnest(tsvector_to_array(c.old_v)) AS l WHERE c.old_live
    ) d
    GROUP BY d.tenant_id, d.lexeme HAVING sum(d.sign) <> 0 ORDER BY d.tenant_id, d.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET doc_count = t.doc_count + EXCLUDED.doc_count;
    DELETE FROM retrieval_term_statistic t
    WHERE t.doc_count <= 0 AND t.tenant_id IN (SELECT DISTINCT tenant_id FROM retrieval_bm25_changed);
    RETURN NULL;
END $$;

CREATE TRIGGER retrieval_bm25_insert AFTER INSERT ON memories_memory
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_bm25_on_insert();
CREATE TRIGGER retrieval_bm25_delete AFTER DELETE ON memories_memory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_bm25_on_delete();
CREATE TRIGGER retrieval_bm25_update AFTER UPDATE ON memories_memory
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION retrieval_bm25_on_update();

INSERT INTO retrieval_corpus_statistic (tenant_id, doc_count, total_length)
SELECT m.tenant_id, count(*), sum(length(m.search_vector))
FROM memories_memory m WHERE m.superseded_by_id IS NULL AND m.search_vector IS NOT NULL GROUP BY m.tenant_id;
INSERT INTO retrieval_term_statistic (tenant_id, lexeme, doc_count)
SELECT m.tenant_id, l.lexeme, count(*)
FROM memories_memory m CROSS JOIN LATERAL unnest(tsvector_to_array(m.search_vector)) AS l(lexeme)
WHERE m.superseded_by_id IS NULL AND m.search_vector IS NOT NULL GROUP BY m.tenant_id, l.lexeme;
"""

REVERSE = """
DROP TRIGGER IF EXISTS retrieval_bm25_insert ON memories_memory;
DROP TRIGGER IF EXISTS retrieval_bm25_delete ON memories_memory;
DROP TRIGGER IF EXISTS retrieval_bm25_update ON memories_memory;
DROP FUNCTION IF EXISTS retrieval_bm25_on_insert();
DROP FUNCTION IF EXISTS retrieval_bm25_on_delete();
DROP FUNCTION IF EXISTS retrieval_bm25_on_update();
"""


class Migration(migrations.Migration):
    initial = True

    dependencies = [("memories", "0004_recompute_dedup_bands")]

    operations = [
        migrations.CreateModel(
            name="CorpusStatistic",
            fields=[
                ("tenant_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("doc_count", models.BigIntegerField(default=0, help_text="Live memories with a search vector.")),
                ("total_length", models.BigIntegerField(default=0, help_text="Their distinct lexemes, summed.")),
            ],
            options={"db_table": "retrieval_corpus_statistic"},
        ),
        migrations.CreateModel(
            name="TermStatistic",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tenant_id", models.BigIntegerField()),
                ("lexeme", models.TextField()),
                (
                    "doc_count",
                    models.BigIntegerField(
                        default=0, help_text="Live memories whose search vector holds the lexeme."
                    ),
                ),
            ],
            options={
                "db_table": "retrieval_term_statistic",
                "constraints": [
                    models.UniqueConstraint(fields=("tenant_id", "lexeme"), name="term_statistic_unique")
                ],
                "indexes": [
                    models.Index(
                        fields=["tenant_id"], condition=models.Q(doc_count__lte=0), name="term_statistic_empty"
                    )
                ],
            },
        ),
        migrations.RunSQL(TRIGGERS, REVERSE),
    ]
