"""Who spoke in the caller's sessions, found by name: a partial expression index over session turns, keyed by the
tenant and the speaker's lower-cased name in one value (``retrieval.selectors``' speaker lookup writes the same
expression). One key, not two columns: the lookup can only be an index condition on it, so a tenant the planner's
statistics do not know yet cannot turn it into a scan of the tenant's memories."""

from django.db import migrations

FORWARD = """
CREATE INDEX IF NOT EXISTS memory_speaker_key ON memories_memory
    (((tenant_id)::text || ':' || lower(metadata ->> 'author')))
    WHERE source_session <> '';
"""
BACKWARD = "DROP INDEX IF EXISTS memory_speaker_key;"


class Migration(migrations.Migration):
    dependencies = [("memories", "0021_dedup_bands_without_pending_list")]

    operations = [migrations.RunSQL(FORWARD, reverse_sql=BACKWARD)]
