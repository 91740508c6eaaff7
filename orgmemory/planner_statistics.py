"""Planner statistics after a bulk write: ``ANALYZE`` the tables it changed, at once.

After a bulk import the planner still plans with the statistics of before: a new tenant's rows are missing from
the column statistics (its memories read as a handful), chunk, posting and link tables are estimated at their old
sizes, and searches take plans made for a tenant that is not there — until autovacuum's next round, which may be a
minute away or, for a table whose change is under its threshold, never. The import therefore analyzes what it
changed: the tables whose ``n_mod_since_analyze`` grew while it ran (``pg_stat_user_tables``), whichever app
writes them (triggers and indexing workers included). ``ANALYZE`` reads a fixed sample per table, so this costs
well under a second against the minutes an import takes.
"""

from __future__ import annotations

import logging

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

logger = logging.getLogger(__name__)

# the counters of every table of the current schema; this connection's own recent writes are flushed first (a
# backend reports its counters when it goes idle, at most once a second unless forced)
_COUNTERS = """
SELECT relname, n_mod_since_analyze, analyze_count + autoanalyze_count
FROM pg_stat_user_tables WHERE schemaname = current_schema()
"""

TableCounters = dict[str, tuple[int, int]]


def table_modifications(*, using: str = DEFAULT_DB_ALIAS) -> TableCounters:
    """Per table: rows modified since it was last analyzed, and how many times it was analyzed."""
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(_COUNTERS)
        return {table: (int(modified), int(analyzed)) for table, modified, analyzed in cursor.fetchall()}


def tables_analyze_changed(*, since: TableCounters, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """``ANALYZE`` each table modified since the ``since`` snapshot (:func:`table_modifications`) and not analyzed
    after its last change; returns their names. A table autovacuum analyzed meanwhile is analyzed again only if it
    changed after that. Never raises: statistics are an optimisation, and a failure (no privilege on a table) is
    logged and leaves the import's result as it is."""
    try:
        now = table_modifications(using=using)
    except DatabaseError as exc:
        logger.warning("planner statistics not refreshed: %s", exc)
        return []
    changed = []
    for table, (modified, analyzed) in sorted(now.items()):
        modified_before, analyzed_before = since.get(table, (0, analyzed))
        if modified > 0 and (modified > modified_before or analyzed != analyzed_before):
            changed.append(table)
    analyzed_tables = []
    connection = connections[using]
    for table in changed:
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
            analyzed_tables.append(table)
        except DatabaseError as exc:
            logger.warning("ANALYZE %s failed: %s", table, exc)
    return analyzed_tables
