"""Each link carries its memory's scope, so the relational walk reads only the edges the caller may see.

A hub entity's edges were read newest first until FANOUT (500) were visible, one memory look-up each: a meeting of
the 100k corpus has ~5,000 ``attended`` edges of which ~10 % are on a given caller's chain (23 ms for one hop,
docs/BENCHMARKS.md, session 8). ``scope_id`` is copied by the database, whatever path writes (the graph service,
the corpus loader's COPY, the admin, raw SQL): a row trigger fills it on insert from the memory, and a statement
trigger on ``memories_memory`` rewrites the links of the memories whose scope changed (``memory_move`` and any other
update). The two walk indexes put the scope before the memory."""

from django.db import migrations, models

FORWARD = """
UPDATE graph_entitylink l SET scope_id = m.scope_id
FROM memories_memory m WHERE m.id = l.memory_id AND m.tenant_id = l.tenant_id;

CREATE FUNCTION graph_link_scope_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.scope_id IS NULL THEN
        SELECT m.scope_id INTO NEW.scope_id FROM memories_memory m
        WHERE m.id = NEW.memory_id AND m.tenant_id = NEW.tenant_id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER graph_link_scope_fill BEFORE INSERT ON graph_entitylink
    FOR EACH ROW EXECUTE FUNCTION graph_link_scope_fill();

CREATE FUNCTION graph_link_scope_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE graph_entitylink l SET scope_id = n.scope_id
    FROM link_scope_new n JOIN link_scope_old o ON o.id = n.id
    WHERE o.scope_id IS DISTINCT FROM n.scope_id AND l.memory_id = n.id AND l.tenant_id = n.tenant_id;
    RETURN NULL;
END $$;
CREATE TRIGGER graph_link_scope_follow AFTER UPDATE ON memories_memory
    REFERENCING OLD TABLE AS link_scope_old NEW TABLE AS link_scope_new
    FOR EACH STATEMENT EXECUTE FUNCTION graph_link_scope_follow();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS graph_link_scope_follow ON memories_memory;
DROP FUNCTION IF EXISTS graph_link_scope_follow();
DROP TRIGGER IF EXISTS graph_link_scope_fill ON graph_entitylink;
DROP FUNCTION IF EXISTS graph_link_scope_fill();
"""


class Migration(migrations.Migration):
    dependencies = [("graph", "0004_link_indexes_end_in_memory"), ("memories", "0015_memory_access")]

    operations = [
        migrations.AddField(
            model_name="entitylink",
            name="scope_id",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
        migrations.AddIndex(
            model_name="entitylink",
            index=models.Index(fields=["tenant", "object", "relationship", "scope_id", "memory"], name="link_by_object_scope"),
        ),
        migrations.AddIndex(
            model_name="entitylink",
            index=models.Index(
                fields=["tenant", "subject", "relationship", "scope_id", "memory"], name="link_by_subject_scope"
            ),
        ),
        migrations.RemoveIndex(model_name="entitylink", name="link_by_object_memory"),
        migrations.RemoveIndex(model_name="entitylink", name="link_by_subject_memory"),
    ]
