"""Planner statistics after a bulk write (``orgmemory.planner_statistics``): the tables changed since a snapshot,
and only those, are analyzed — whichever app's they are (triggers and indexing included)."""

from __future__ import annotations

import pytest
from django.db import connection

from memories.models import Member, Memory, MemoryChunk
from orgmemory.planner_statistics import table_modifications, tables_analyze_changed
from tests.conftest import remember

pytestmark = pytest.mark.django_db(transaction=True)  # counters move when transactions commit


def _analyze_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, analyze_count FROM pg_stat_user_tables WHERE schemaname = current_schema()")
        return dict(cursor.fetchall())


def test_the_tables_a_write_changed_are_analyzed_and_no_other(acme):
    before = table_modifications()  # acme's members and scopes were written before: not the write's
    counts = _analyze_counts()

    remember(acme, "Acme deploys with Argo CD on Tuesdays.", scope="team:platform")
    analyzed = tables_analyze_changed(since=before)

    memory, chunk, member = Memory._meta.db_table, MemoryChunk._meta.db_table, Member._meta.db_table
    assert {memory, chunk} <= set(analyzed)  # the row and its embedding (indexed inline after the commit)
    assert member not in analyzed
    after = _analyze_counts()
    assert {table for table in after if after[table] != counts.get(table)} == set(analyzed)
    assert table_modifications()[memory][0] == 0  # statistics current


def test_nothing_changed_nothing_analyzed(acme):
    assert tables_analyze_changed(since=table_modifications()) == []
