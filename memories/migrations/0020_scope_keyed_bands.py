"""Stored MinHash bands keyed by their memory's scope (memories.textsim.scope_keyed_bands): the near-duplicate
lookup of a write then finds its own scope's candidates through the GIN index alone. XOR with the scope's key is its
own inverse, so the same statement takes the migration back."""

from django.db import migrations

KEYED = """
UPDATE memories_memory
SET dedup_bands = ARRAY(SELECT band # ((scope_id % 2147483647) * 2654435761) FROM unnest(dedup_bands) AS band)
WHERE cardinality(dedup_bands) > 0
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0019_trust_fields")]

    operations = [migrations.RunSQL(KEYED, reverse_sql=KEYED)]
