"""The lexeme statistics' primary key includes the tenant (docs/SCALING.md; ``memories`` 0010 for the others)."""

from django.db import migrations

SQL = """
ALTER TABLE retrieval_term_statistic DROP CONSTRAINT retrieval_term_statistic_pkey,
    ADD CONSTRAINT retrieval_term_statistic_pkey PRIMARY KEY (id, tenant_id);
"""
REVERSE = """
ALTER TABLE retrieval_term_statistic DROP CONSTRAINT retrieval_term_statistic_pkey,
    ADD CONSTRAINT retrieval_term_statistic_pkey PRIMARY KEY (id);
"""


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0001_bm25_statistics")]

    operations = [migrations.RunSQL(SQL, reverse_sql=REVERSE)]
