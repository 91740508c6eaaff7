"""Access counts move from the memory row to a narrow table of their own (``MemoryAccess``): recording a search's
hits no longer rewrites the memories themselves. The counts recorded so far are copied; a statement-level trigger
deletes a memory's row with the memory, on every delete path."""

from django.db import migrations, models

COPY = """
INSERT INTO memories_memoryaccess (tenant_id, memory_id, access_count, last_accessed_at)
SELECT tenant_id, id, access_count, coalesce(last_accessed_at, updated_at)
FROM memories_memory WHERE access_count > 0
"""

COPY_BACK = """
UPDATE memories_memory m SET access_count = a.access_count, last_accessed_at = a.last_accessed_at
FROM memories_memoryaccess a WHERE a.tenant_id = m.tenant_id AND a.memory_id = m.id
"""

TRIGGER = """
CREATE FUNCTION memories_memoryaccess_follow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memories_memoryaccess a USING old_rows o WHERE a.tenant_id = o.tenant_id AND a.memory_id = o.id;
    RETURN NULL;
END $$;
CREATE TRIGGER memories_memoryaccess_follow_delete AFTER DELETE ON memories_memory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memories_memoryaccess_follow_delete();
"""

DROP_TRIGGER = """
DROP TRIGGER memories_memoryaccess_follow_delete ON memories_memory;
DROP FUNCTION memories_memoryaccess_follow_delete();
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0014_chunk_scope_vectors")]

    operations = [
        migrations.CreateModel(
            name="MemoryAccess",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "tenant_id", "memory_id", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("tenant_id", models.BigIntegerField()),
                ("memory_id", models.BigIntegerField()),
                ("access_count", models.PositiveIntegerField()),
                ("last_accessed_at", models.DateTimeField()),
            ],
            options={"verbose_name_plural": "memory accesses", "db_table": "memories_memoryaccess"},
        ),
        migrations.RunSQL(COPY, COPY_BACK),
        migrations.RunSQL(TRIGGER, DROP_TRIGGER),
        migrations.RemoveField(model_name="memory", name="access_count"),
        migrations.RemoveField(model_name="memory", name="last_accessed_at"),
    ]
