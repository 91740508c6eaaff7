# Exact dedup was check-then-insert: two identical concurrent writes could both store a live row. A partial unique
# index on (tenant, scope, content_hash) over non-superseded rows makes the database refuse the second one (the write
# service then returns the first). Existing twins are folded first: each later twin becomes history of the earliest
# (what dedup would have returned; a live one before an expired one), so the index can be built.

from django.db import migrations, models


FOLD_TWINS = """
WITH ranked AS (
    SELECT id, first_value(id) OVER (
        PARTITION BY tenant_id, scope_id, content_hash
        ORDER BY (expires_at IS NOT NULL AND expires_at <= now()), id
    ) AS keeper
    FROM memories_memory WHERE superseded_by_id IS NULL
)
UPDATE memories_memory m SET superseded_by_id = ranked.keeper, superseded_at = now()
FROM ranked WHERE m.id = ranked.id AND ranked.id <> ranked.keeper
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0006_superseded_history_cascades"),
    ]

    operations = [
        migrations.RunSQL(FOLD_TWINS, reverse_sql=migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.UniqueConstraint(
                condition=models.Q(("superseded_by__isnull", True)),
                fields=("tenant", "scope", "content_hash"),
                name="memory_unique_live_content",
            ),
        ),
    ]
