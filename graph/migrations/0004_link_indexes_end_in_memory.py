"""The relational walk reads an entity's edges of one relationship newest first and stops at its budget: the two
link indexes end in the memory id (built before the old ones go, so the walk always has one)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("graph", "0003_citus_keys"),
        ("memories", "0013_vector_indexes_per_scope"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="entitylink",
            index=models.Index(fields=["tenant", "object", "relationship", "memory"], name="link_by_object_memory"),
        ),
        migrations.AddIndex(
            model_name="entitylink",
            index=models.Index(fields=["tenant", "subject", "relationship", "memory"], name="link_by_subject_memory"),
        ),
        migrations.RemoveIndex(model_name="entitylink", name="link_by_object"),
        migrations.RemoveIndex(model_name="entitylink", name="link_by_subject"),
    ]
