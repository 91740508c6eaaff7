"""Each tenant records the embedder its stored vectors are from (``Tenant.embedder``), and a re-embed writes the
new vectors beside the ones search reads (``ChunkShadowVector``) until it switches the tenant in one transaction
(``manage.py reembed``; docs/ARCHITECTURE.md § Embedder).

Every vector stored before this migration was made by an all-MiniLM-L6-v2 runtime (the only weights there were):
a tenant with chunks keeps the configured embedder when it is one of those, else the default ``onnx-int8``, so
that configuring another embedder later leaves its searches on its own vectors until it is re-embedded. Tenants
without chunks take the configured embedder, as new tenants do. The runtime names are frozen here, as migrations
must not follow the code they were written against."""

import django.db.models.deletion
import pgvector.django.vector
from django.conf import settings
from django.db import migrations, models

import memories.embedding

MINILM_RUNTIMES = {"onnx-int8": "onnx-int8", "onnx": "onnx", "onnx-fp32": "onnx", "sentence-transformers":
                   "sentence-transformers", "torch": "sentence-transformers"}


def record_minilm(apps, schema_editor):
    Tenant = apps.get_model("memories", "Tenant")
    MemoryChunk = apps.get_model("memories", "MemoryChunk")
    configured = settings.ORGMEMORY_EMBEDDER.strip().lower()
    kind = MINILM_RUNTIMES.get(configured, "onnx-int8")
    with_vectors = MemoryChunk.objects.values("tenant_id").distinct()
    Tenant.objects.filter(pk__in=with_vectors).exclude(embedder=kind).update(embedder=kind)


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0024_turn_content_hash_by_speaker'),
    ]

    operations = [
        migrations.AddField(
            model_name='tenant',
            name='embedder',
            field=models.CharField(default=memories.embedding.configured_kind, editable=False, help_text="The embedder the tenant's stored vectors are from (one of memories.embedding.EMBEDDERS); its searches embed the question with it.", max_length=40),
        ),
        migrations.RunPython(record_minilm, migrations.RunPython.noop),
        migrations.CreateModel(
            name='ChunkShadowVector',
            fields=[
                ('pk', models.CompositePrimaryKey('tenant_id', 'chunk_id', blank=True, editable=False, primary_key=True, serialize=False)),
                ('chunk_id', models.BigIntegerField()),
                ('embedder', models.CharField(help_text='The embedder the vector is from.', max_length=40)),
                ('embedding', pgvector.django.vector.VectorField(dimensions=384)),
                ('tenant', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='memories.tenant')),
            ],
        ),
    ]
