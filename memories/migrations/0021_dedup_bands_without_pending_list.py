"""The bands' GIN index without fast update (every write's near-duplicate lookup reads it; with fast update each
lookup scanned the whole pending list). Altered in place, not rebuilt: ``ALTER INDEX … SET (fastupdate = off)``
and the pending list flushed once."""

import django.contrib.postgres.indexes
from django.db import migrations

FORWARD = """
ALTER INDEX memory_dedup_bands SET (fastupdate = off);
SELECT gin_clean_pending_list('memory_dedup_bands'::regclass);
"""
BACKWARD = "ALTER INDEX memory_dedup_bands RESET (fastupdate);"


class Migration(migrations.Migration):
    dependencies = [("memories", "0020_scope_keyed_bands")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, reverse_sql=BACKWARD)],
            state_operations=[
                migrations.RemoveIndex(model_name="memory", name="memory_dedup_bands"),
                migrations.AddIndex(
                    model_name="memory",
                    index=django.contrib.postgres.indexes.GinIndex(
                        fastupdate=False, fields=["dedup_bands"], name="memory_dedup_bands"
                    ),
                ),
            ],
        )
    ]
