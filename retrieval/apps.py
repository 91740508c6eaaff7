from django.apps import AppConfig
from django.conf import settings
from django.db.backends.signals import connection_created

# pgvector's HNSW scans, per connection (so a search spends no statement on them): iterative scans keep reading
# the index until enough rows pass the visibility filter (relaxed order, re-sorted by the query), starting from
# an ef_search chosen with bench_vector (recall against an exact scan vs latency, bench/HISTORY.md).
# No parallel workers for a query: a search is many small statements from many clients on few cores, and the
# planner would start workers (their start-up and their CPU) for the vector arm's exact branch even when its
# one-time filter then skips it (docs/ARCHITECTURE.md § Search path).
SEARCH_CONNECTION_SETTINGS = (
    "SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100; SET max_parallel_workers_per_gather = 0"
)


def _search_connection_settings(sender, connection, **kwargs) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(SEARCH_CONNECTION_SETTINGS)


class RetrievalConfig(AppConfig):
    name = "retrieval"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from retrieval.conversation import steps_named

        connection_created.connect(_search_connection_settings, dispatch_uid="retrieval-search-connection-settings")
        steps_named(settings.ORGMEMORY_SEARCH_STEPS)  # an unknown step is a configuration error, found at start-up
