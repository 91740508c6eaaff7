"""Issue 11, finding 4: after a user's erasure, nothing they wrote survives anywhere in the database.

The proof scans every text, varchar, json, jsonb, tsvector (and text-array) column of every table, found through
information_schema, for a marker that only the erased user's memories contained: in contents, titles, metadata,
session events, team memories they authored, graph entities and aliases named in them, a contradiction warning
on someone else's memory, and the admin's LogEntry rows about their memories."""

from __future__ import annotations

import json
import logging

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.test import Client

from graph.models import Entity, EntityAlias
from graph.services import entity_merge
from memories.models import Member, Memory
from memories.services.erasure import user_erase
from memories.services.memory import Author, memory_create
from memories.services.sessions import session_ingest

pytestmark = pytest.mark.django_db

MARKER = "qvexlar"  # only Albert's memories contain it

_TEXT_TYPES = ("text", "character varying", "character", "json", "jsonb", "tsvector")


def columns_holding(marker: str) -> list[tuple[str, str, int]]:
    """(table, column, rows) for every text-like column of every table in the schema that contains ``marker``."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.table_name, c.column_name FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
              AND (c.data_type = ANY(%s) OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
            ORDER BY 1, 2
            """,
            [list(_TEXT_TYPES)],
        )
        columns = cursor.fetchall()
        assert len(columns) > 30  # the scan really covers the schema (memories, graph, auth, admin, sessions, ...)
        found = []
        for table, column in columns:
            cursor.execute(
                f'SELECT count(*) FROM "{table}" WHERE "{column}"::text ILIKE %s',  # noqa: S608 (names from the catalog)
                [f"%{marker}%"],
            )
            rows = cursor.fetchone()[0]
            if rows:
                found.append((table, column, rows))
    return found


def agent(tenant, user_id: str) -> Author:
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


@pytest.fixture
def alberts_traces(acme, django_capture_on_commit_callbacks):
    """Everything Albert's agent wrote, indexed and linked, plus the traces others and the admin keep of it."""
    albert, bea = agent(acme, "albert"), agent(acme, "bea")
    with django_capture_on_commit_callbacks(execute=True):
        own = memory_create(
            tenant=acme,
            author=albert,
            title="Qvexlar Dunmore",
            content="Albert met Qvexlar Dunmore at Initech to talk about the Qvexlar migration.",
            metadata={"note": "qvexlar follow-up"},
        ).memory
        memory_create(tenant=acme, author=albert, content="Qvexlar D. works at Initech and owns the rollout plan.")
        team = memory_create(
            tenant=acme,
            author=albert,
            scope="team:platform",
            content="The platform team deploys the billing service to production on Fridays after the weekly "
            "review qvexlar",
        ).memory
        session_ingest(
            tenant=acme,
            author=albert,
            app_name="bot",
            session_id="s-qvexlar",
            events=[{"id": "e1", "author": "user", "text": "Remind me about the qvexlar budget."}],
        )
        contradiction = memory_create(
            tenant=acme,
            author=bea,
            scope="team:platform",
            content="The platform team no longer deploys the billing service to production on Fridays after the "
            "weekly review",
        )
    assert [warning["code"] for warning in contradiction.warnings] == ["possible_contradiction"]
    # an admin merged the two names Albert used for the person: the survivor has an alias
    survivor, other = (
        Entity.objects.get(tenant=acme, norm="qvexlar dunmore"),
        Entity.objects.get(tenant=acme, norm="qvexlar"),
    )
    entity_merge(tenant=acme, survivor=survivor, others=[other])
    assert EntityAlias.objects.filter(entity=survivor, norm="qvexlar").exists()
    # the admin edited Albert's memories: Django logs the object's str (title or the first 60 characters)
    root = User.objects.create_superuser("root", "root@example.com", "pw")
    for memory in (own, team):
        LogEntry.objects.create(
            user=root,
            content_type=ContentType.objects.get_for_model(Memory),
            object_id=str(memory.pk),
            object_repr=str(memory)[:200],
            action_flag=CHANGE,
            change_message=json.dumps([{"changed": {"fields": ["Title"]}}]),
        )
    assert {table for table, _, _ in columns_holding(MARKER)} >= {
        "memories_memory",
        "memories_memorychunk",
        "graph_entity",
        "graph_entityalias",
        "django_admin_log",
        "retrieval_posting",  # the keyword arm's inverted index holds the lexeme
    }
    return {"team": team, "contradiction": contradiction.memory}


def test_after_erasure_no_column_of_any_table_holds_the_users_text(acme, alberts_traces):
    result = user_erase(tenant=acme, user_id="albert")

    residue = columns_holding(MARKER)
    assert residue == [], residue
    assert result.memories >= 4
    # what others wrote stays: Bea's memory, its warning now naming only an id that no longer exists
    kept = Memory.objects.get(pk=alberts_traces["contradiction"].pk)
    assert kept.warnings == [
        {
            "code": "possible_contradiction",
            "memory_id": alberts_traces["team"].pk,
            "message": f"this may contradict memory {alberts_traces['team'].pk}",
        }
    ]
    # the admin's log keeps the fact that something was changed, not the words
    assert set(LogEntry.objects.values_list("object_repr", flat=True)) == {"(erased)"}


def test_an_entity_with_aliases_that_only_the_erased_user_named_is_pruned(acme, alberts_traces):
    user_erase(tenant=acme, user_id="albert")

    assert not Entity.objects.filter(tenant=acme, norm__contains=MARKER).exists()
    assert not EntityAlias.objects.filter(tenant=acme, norm__contains=MARKER).exists()


def test_an_exported_and_reimported_team_memory_is_still_erased_with_its_author(acme, tmp_path):
    team = memory_create(
        tenant=acme, author=agent(acme, "albert"), scope="team:platform", content="Platform uses qvexlar runners."
    ).memory
    dump = tmp_path / "acme.jsonl"
    call_command("export_memories", "--tenant", "acme", "--output", str(dump))
    Memory.objects.filter(pk=team.pk).delete()

    call_command("import_memories", str(dump), "--tenant", "acme")

    reimported = Memory.objects.get(content="Platform uses qvexlar runners.")
    assert (reimported.scope.tag, reimported.author_member.user_id) == ("team:platform", "albert")
    user_erase(tenant=acme, user_id="albert")
    assert not Memory.objects.filter(content__contains=MARKER).exists()


def test_request_logs_carry_no_query_string_body_or_user_id(acme, caplog):
    from memories.services import api_key_create

    _, plain = api_key_create(tenant=acme, name="log-test", permissions=["read"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {plain}")

    with caplog.at_level(logging.DEBUG):
        client.get(f"/api/v1/memories?user_id=albert&q={MARKER}&cursor=garbage")
        client.get(f"/api/v1/memories/999999?user_id=albert&q={MARKER}")
        client.post("/api/v1/search", {"user_id": "albert", "query": MARKER}, content_type="application/json")
        client.delete("/api/v1/users/albert")  # 403: the key lacks `admin`
        client.delete("/api/v1/sessions/albert-session?user_id=albert")

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Forbidden: /api/v1/users/" in logged  # the 4xx requests were logged, by path
    assert MARKER not in logged
    assert "albert" not in logged


def test_the_development_servers_access_log_drops_query_strings_and_ids():
    """What runserver's request handler logs for every request (django.server), through the configured logging."""
    captured: list[str] = []

    class Capture(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            captured.append(self.format(record))

    logger = logging.getLogger("django.server")
    handler = Capture()
    logger.addHandler(handler)
    try:
        for line in (
            f"GET /api/v1/memories?user_id=albert&q={MARKER} HTTP/1.1",
            "DELETE /api/v1/users/albert HTTP/1.1",
            "DELETE /api/v1/sessions/s-albert?user_id=albert HTTP/1.1",
        ):
            logger.info('"%s" %s %s', line, "200", "42", extra={"request": None, "status_code": 200})
    finally:
        logger.removeHandler(handler)

    assert captured == [
        '"GET /api/v1/memories HTTP/1.1" 200 42',
        '"DELETE /api/v1/users/… HTTP/1.1" 200 42',
        '"DELETE /api/v1/sessions/… HTTP/1.1" 200 42',
    ]


def test_the_production_servers_access_log_has_no_query_string_and_masks_ids():
    from orgmemory import gunicorn_conf
    from orgmemory.logfilters import redact_request_line

    assert "%(U)s" in gunicorn_conf.access_log_format  # the path without its query string
    assert not any(atom in gunicorn_conf.access_log_format for atom in ("%(r)s", "%(q)s"))  # request line, query
    assert redact_request_line('127.0.0.1 "DELETE /api/v1/users/albert HTTP/1.1" 200') == (
        '127.0.0.1 "DELETE /api/v1/users/… HTTP/1.1" 200'
    )
