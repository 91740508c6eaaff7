"""A session/event id and an external id are unique per scope, not per tenant: the write path looks a re-sent id up
only where the request writes (its project, else its chain), and a request elsewhere stores its own memory (a 409
there told an agent that an id was used in someone else's private memory or in another project). The new indexes
are built before the old ones go, so the ids are never unguarded."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0015_memory_access"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.UniqueConstraint(
                condition=models.Q(("source_event_id", ""), _negated=True),
                fields=("tenant", "source_session", "source_event_id", "scope"),
                name="memory_unique_event_per_scope",
            ),
        ),
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.UniqueConstraint(
                condition=models.Q(("external_id", ""), _negated=True),
                fields=("tenant", "external_id", "scope"),
                name="memory_unique_external_id_per_scope",
            ),
        ),
        migrations.RemoveConstraint(model_name="memory", name="memory_unique_event_per_session"),
        migrations.RemoveConstraint(model_name="memory", name="memory_unique_external_id"),
    ]
