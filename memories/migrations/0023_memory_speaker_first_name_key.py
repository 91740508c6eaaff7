"""A speaker found by first name too ("Dana" for the speaker "Dana Smith"): the same partial expression index as
``memory_speaker_key`` (migration 0022) over the first word of the lower-cased speaker name."""

from django.db import migrations

FORWARD = """
CREATE INDEX IF NOT EXISTS memory_speaker_first_key ON memories_memory
    (((tenant_id)::text || ':' || split_part(lower(metadata ->> 'author'), ' ', 1)))
    WHERE source_session <> '';
"""
BACKWARD = "DROP INDEX IF EXISTS memory_speaker_first_key;"


class Migration(migrations.Migration):
    dependencies = [("memories", "0022_memory_speaker_key")]

    operations = [migrations.RunSQL(FORWARD, reverse_sql=BACKWARD)]
