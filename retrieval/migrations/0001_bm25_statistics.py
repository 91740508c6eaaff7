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
DECLARE
    old_live boolean := OLD.superseded_by_id IS NULL AND OLD.search_vector IS NOT NULL;
    new_live boolean := NEW.superseded_by_id IS NULL AND NEW.search_vector IS NOT NULL;
    docs integer := (CASE WHEN new_live THEN 1 ELSE 0 END) - (CASE WHEN old_live THEN 1 ELSE 0 END);
    doc_length integer := (CASE WHEN new_live THEN length(NEW.search_vector) ELSE 0 END)
                    - (CASE WHEN old_live THEN length(OLD.search_vector) ELSE 0 END);
BEGIN
    INSERT INTO retrieval_corpus_statistic AS s (tenant_id, doc_count, total_length)
    VALUES (NEW.tenant_id, docs, doc_length)
    ON CONFLICT (tenant_id) DO UPDATE
        SET doc_count = s.doc_count + EXCLUDED.doc_count, total_length = s.total_length + EXCLUDED.total_length;
    INSERT INTO retrieval_term_statistic AS t (tenant_id, lexeme, doc_count)
    SELECT NEW.tenant_id, d.lexeme, sum(d.sign)
    FROM (
        SELECT l AS lexeme, 1 AS sign FROM unnest(tsvector_to_array(NEW.search_vector)) AS l WHERE new_live
        UNION ALL
        SELECT l, -1 FROM unnest(tsvector_to_array(OLD.search_vector)) AS l WHERE old_live
    ) d
    GROUP BY d.lexeme HAVING sum(d.sign) <> 0 ORDER BY d.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET doc_count = t.doc_count + EXCLUDED.doc_count;
    IF NOT new_live THEN
        DELETE FROM retrieval_term_statistic t
        WHERE t.tenant_id = NEW.tenant_id AND t.doc_count <= 0
          AND t.lexeme = ANY(tsvector_to_array(OLD.search_vector));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER retrieval_bm25_insert AFTER INSERT ON memories_memory
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_bm25_on_insert();
CREATE TRIGGER retrieval_bm25_delete AFTER DELETE ON memories_memory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION retrieval_bm25_on_delete();
CREATE TRIGGER retrieval_bm25_update AFTER UPDATE OF search_vector, superseded_by_id ON memories_memory
    FOR EACH ROW
    WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector
          OR (OLD.superseded_by_id IS NULL) <> (NEW.superseded_by_id IS NULL))
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
            },
        ),
        migrations.RunSQL(TRIGGERS, REVERSE),
    ]
