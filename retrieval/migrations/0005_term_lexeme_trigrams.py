"""A trigram GIN index over the tenants' vocabularies (``retrieval_term_statistic.lexeme``): the keyword arm's
stand-ins for the query lexemes a tenant's corpus does not hold (typos, misspelt names) are looked up in it; it
replaces the arm's trigram probe of memory titles (``retrieval.selectors``)."""

import django.contrib.postgres.indexes
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0004_postings")]

    operations = [
        migrations.AddIndex(
            model_name="termstatistic",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["lexeme"], name="term_statistic_lexeme_trgm", opclasses=["gin_trgm_ops"]
            ),
        ),
    ]
