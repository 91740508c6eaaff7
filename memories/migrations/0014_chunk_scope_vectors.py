"""The vector arm's exact scans of small scopes read the embeddings from the (tenant, scope) index itself
(index-only), built without blocking writes, then the plain index goes."""

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("memories", "0013_vector_indexes_per_scope")]

    operations = [
        AddIndexConcurrently(
            model_name="memorychunk",
            index=models.Index(fields=["tenant", "scope"], include=["memory", "embedding"], name="chunk_scope_vectors"),
        ),
        RemoveIndexConcurrently(model_name="memorychunk", name="chunk_tenant_scope"),
    ]
