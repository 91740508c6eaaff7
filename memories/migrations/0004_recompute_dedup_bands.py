"""Recompute the MinHash LSH bands after the band shape changed from 16×2 to 16×3 rows (see
memories.textsim.lsh_bands): bands of different shapes never match, so old rows would escape dedup."""

from django.db import migrations


def recompute(apps, schema_editor):
    from memories.textsim import lsh_bands

    Memory = apps.get_model("memories", "Memory")
    batch = []
    for memory in Memory.objects.only("id", "content").iterator(chunk_size=1000):
        memory.dedup_bands = lsh_bands(memory.content)
        batch.append(memory)
        if len(batch) >= 1000:
            Memory.objects.bulk_update(batch, ["dedup_bands"])
            batch = []
    if batch:
        Memory.objects.bulk_update(batch, ["dedup_bands"])


class Migration(migrations.Migration):
    dependencies = [("memories", "0003_memory_store")]
    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
