"""The shared HNSW index over every tenant's chunks goes: retrieval.0003 built the partial index of each large
scope first (retrieval/vector_indexes.py)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0012_dashboard_indexes"),
        ("retrieval", "0003_vector_indexes_per_scope"),
    ]

    operations = [migrations.RemoveIndex(model_name="memorychunk", name="chunk_embedding_hnsw")]
