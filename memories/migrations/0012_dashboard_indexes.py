# The tenant dashboard (memories.selectors.dashboard) reads two figures that otherwise scan every memory of the
# tenant: writes per day (a 30-day range of created_at) and open contradictions (live rows carrying a
# possible_contradiction warning, which the review queue lists too). The first gets a (tenant, created_at) b-tree;
# the second a partial index that holds only such rows (a fraction of a percent), whose condition is the query's
# own clause. Measured with bench_dashboard at 100k memories (docs/BENCHMARKS.md). Built CONCURRENTLY: writes to
# memories_memory go on while an existing database builds them.

from django.conf import settings
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run inside a transaction

    dependencies = [
        ("memories", "0011_project_subscopes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="memory",
            index=models.Index(fields=["tenant", "created_at"], name="memory_tenant_created"),
        ),
        AddIndexConcurrently(
            model_name="memory",
            index=models.Index(
                condition=models.Q(("superseded_by__isnull", True), ("warnings__contains", [{"code": "possible_contradiction"}])),
                fields=["tenant"],
                name="memory_open_contradiction",
            ),
        ),
    ]
