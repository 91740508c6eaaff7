from django.apps import AppConfig
from django.db.backends.signals import connection_created

# pgvector's HNSW scans, per connection (so a search spends no statement on them): iterative scans keep reading
# the index until enough rows pass the visibility filter (relaxed order, re-sorted by the query), starting from
# an ef_search chosen with bench_vector (recall against an exact scan vs latency, docs/BENCHMARKS.md).
HNSW_SETTINGS = "SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100"


def _hnsw_settings(sender, connection, **kwargs) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(HNSW_SETTINGS)


class RetrievalConfig(AppConfig):
    name = "retrieval"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        connection_created.connect(_hnsw_settings, dispatch_uid="retrieval-hnsw-settings")
