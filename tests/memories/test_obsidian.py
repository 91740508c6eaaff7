"""The Obsidian vault format: the note functions on plain data, then export_memories --format obsidian and
import_memories --format obsidian on real PostgreSQL — a round trip into a fresh tenant loses nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from memories.models import Memory
from memories.obsidian import (
    LINKS_MARKER,
    EntityRef,
    LinkRef,
    entity_stems,
    memory_note,
    memory_stem,
    parse_memory_note,
    safe_stem,
)
from tests.conftest import ACME_CHART, onboard, remember

# --- pure ---------------------------------------------------------------------------------------------------------


def test_safe_stems():
    assert safe_stem("Nimbus Labs") == "Nimbus Labs"
    assert safe_stem('A/B: "c"|d#e^[f]?') == "A-B- -c--d-e--f"
    assert safe_stem("..hidden") == "hidden"
    assert safe_stem("///") == "untitled"
    assert memory_stem(7, "Deploy days", "x") == "000007-deploy-days"
    assert (
        memory_stem(12, "", "We no longer deploy on Fridays. Really.") == "000012-we-no-longer-deploy-on-fridays-really"
    )


def test_entity_stems_add_the_id_when_two_names_share_a_file():
    assert entity_stems([(1, "A/B"), (2, "A-B"), (3, "Nimbus")]) == {1: "A-B (1)", 2: "A-B (2)", 3: "Nimbus"}


ENTITIES = {
    1: EntityRef(1, "Alice Smith", "person", "Alice Smith"),
    2: EntityRef(2, "Nimbus Labs", "company", "Nimbus Labs"),
}


@pytest.mark.parametrize(
    "content",
    [
        "Alice Smith founded Nimbus Labs.",
        "Line one\n---\nnot front matter\n\n" + LINKS_MARKER + "\n- a content line that looks generated",
        "  leading and trailing space and newlines  \n\n",
        "Ünïcødé — “quotes” and emoji 🚀",
    ],
)
def test_a_note_gives_back_the_record_and_the_content_exactly(content):
    record = {
        "external_id": "ext-1",
        "user_id": "albert",
        "scope": "team:platform",
        "kind": "policy",
        "title": "Deploy: days",
        "metadata": {"a": "yes", "b": "2026-01-15", "c": 1e3, "d": None, "e": [1, "no", {"f": True}], "g": "~"},
        "author": "albert",
        "app_name": "support",
        "session_id": "s-1",
        "event_id": "e-1",
        "created_at": "2026-01-15T09:30:00+00:00",
        "expires_at": None,
    }
    note = memory_note(
        memory_id=42,
        record=record,
        content=content,
        updated_at="2026-02-01T00:00:00+00:00",
        links=[LinkRef(42, 1, "founded", 2), LinkRef(42, 2, "mentioned", None)],
        entities=ENTITIES,
    )

    parsed = parse_memory_note(note)

    assert parsed == {**{k: v for k, v in record.items() if v is not None}, "content": content}
    assert "[[entities/Alice Smith|Alice Smith]] founded [[entities/Nimbus Labs|Nimbus Labs]]" in note
    assert note.startswith("---\ntype: orgmemory-memory\nid: 42\n")


def test_notes_that_are_not_memories_are_skipped():
    assert parse_memory_note("# my own note\n") is None
    assert parse_memory_note("---\ntype: orgmemory-entity\nname: X\n---\n# X\n") is None
    assert parse_memory_note("---\ntitle: a note of mine\n---\ntext\n") is None


# --- commands -------------------------------------------------------------------------------------------------


@pytest.fixture
def acme_memories(acme, django_capture_on_commit_callbacks):
    """Memories across acme's tree with every field set somewhere; links extracted."""
    with django_capture_on_commit_callbacks(execute=True):
        return [
            remember(acme, "Alice Smith founded Nimbus Labs.", user="albert", scope="team:platform", title="Nimbus"),
            remember(
                acme,
                "Albert prefers Python examples.",
                user="albert",
                kind="preference",
                metadata={"source": "chat", "confidence": 0.8, "tags": ["lang", "yes"], "date": "2026-01-15"},
            ),
            remember(acme, "Bob Lee works at Quartz Systems.", scope="org:acme", kind="fact"),
            remember(
                acme,
                "Deploys need a review.\n\n---\nSecond paragraph with [[brackets]] and a | pipe.",
                scope="division:eu",
                kind="policy",
                title="Deploy reviews",
                external_id="policy-7",
                source_app="handbook",
                source_session="s-9",
                source_event_id="e-3",
            ),
            remember(acme, "Dora keeps runbooks in Notion.", user="dora", kind="note"),
            remember(acme, "Carlos tracks deals in Salesforce.", user="carlos", scope="team:sales", kind="event"),
            remember(acme, "The alpha launch slips to May.", user="bea", scope="team:platform", project="alpha"),
        ]


def snapshot(tenant, scope_prefixes=None) -> list[tuple]:
    rows = []
    for memory in Memory.objects.filter(tenant=tenant).live().select_related("scope__parent", "author_member"):
        row = (
            memory.content,
            memory.title,
            memory.kind,
            memory.scope.tag,
            memory.scope.parent.tag if memory.scope.level == "project" else None,  # a project's owner node
            memory.author_member.user_id if memory.author_member_id else None,
            memory.metadata,
            memory.author,
            memory.external_id,
            memory.source_app,
            memory.source_session,
            memory.source_event_id,
            memory.created_at,
        )
        rows.append(row)
    return sorted(rows, key=repr)


@pytest.mark.django_db
def test_round_trip_into_a_fresh_tenant_loses_nothing(
    acme, acme_memories, tmp_path, django_capture_on_commit_callbacks
):
    err = io.StringIO()
    call_command("export_memories", "--format", "obsidian", str(tmp_path), tenant="acme", stderr=err)

    notes = sorted(path.name for path in (tmp_path / "memories").iterdir())
    assert len(notes) == len(acme_memories)
    nimbus = (tmp_path / "entities" / "Nimbus Labs.md").read_text()
    founded = next(m for m in acme_memories if m.content.startswith("Alice"))
    stem = memory_stem(founded.pk, "Nimbus", "")
    assert f"[[entities/Alice Smith|Alice Smith]] founded this ([[memories/{stem}|#{founded.pk}]])" in nimbus
    founded_note = (tmp_path / "memories" / f"{stem}.md").read_text()
    assert "[[entities/Alice Smith|Alice Smith]] founded [[entities/Nimbus Labs|Nimbus Labs]]" in founded_note
    assert "scope: team:platform" in founded_note and "user_id: albert" in founded_note

    copy = onboard(ACME_CHART.replace("slug: acme,", "slug: acme-copy,"))
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_memories", str(tmp_path), "--format", "obsidian", tenant="acme-copy", stdout=out)

    assert "7 created" in out.getvalue() and "0 failed" in out.getvalue()
    assert snapshot(copy) == snapshot(acme)
    # the links come back too (extracted from the content again)
    assert Memory.objects.get(tenant=copy, content__startswith="Alice").links.filter(relationship="founded").exists()


@pytest.mark.django_db
def test_importing_the_vault_twice_adds_nothing(acme, acme_memories, tmp_path):
    call_command("export_memories", "--format", "obsidian", str(tmp_path), tenant="acme", stderr=io.StringIO())
    out = io.StringIO()
    call_command("import_memories", str(tmp_path), "--format", "obsidian", tenant="acme", stdout=out)

    assert "0 created, 7 already present" in out.getvalue()
    assert Memory.objects.filter(tenant=acme).count() == len(acme_memories)


@pytest.mark.django_db
def test_scope_filters_the_export(acme, acme_memories, tmp_path):
    call_command(
        "export_memories",
        "--format",
        "obsidian",
        str(tmp_path),
        tenant="acme",
        scope="team:platform",
        stderr=io.StringIO(),
    )

    scopes = {parse_memory_note(path.read_text())["scope"] for path in (tmp_path / "memories").iterdir()}
    assert scopes == {"team:platform", "user:albert"}
    assert not (tmp_path / "entities" / "Quartz Systems.md").exists()  # only org:acme's memory links it


@pytest.mark.django_db
def test_a_bad_note_is_reported_by_path_and_the_others_imported(acme, acme_memories, tmp_path):
    call_command("export_memories", "--format", "obsidian", str(tmp_path), tenant="acme", stderr=io.StringIO())
    copy = onboard(ACME_CHART.replace("slug: acme,", "slug: acme-copy,"))
    broken = sorted((tmp_path / "memories").iterdir())[0]
    broken.write_text("---\ntype: orgmemory-memory\nscope: [unclosed\n---\ntext\n")
    (tmp_path / "memories" / "000999-unknown-kind.md").write_text(
        "---\ntype: orgmemory-memory\nscope: org:acme\nkind: rumour\n---\nsomething\n"
    )
    (tmp_path / "my own note.md").write_text("# not a memory\n")

    out, err = io.StringIO(), io.StringIO()
    call_command("import_memories", str(tmp_path), "--format", "obsidian", tenant="acme-copy", stdout=out, stderr=err)

    assert f"memories/{broken.name}: memories/{broken.name}: the front matter is not valid YAML" in err.getvalue()
    assert "memories/000999-unknown-kind.md: kind 'rumour' is not one of" in err.getvalue()
    assert "6 created" in out.getvalue() and "2 failed" in out.getvalue()
    assert Memory.objects.filter(tenant=copy).count() == 6


@pytest.mark.django_db
def test_command_errors(acme, tmp_path):
    with pytest.raises(CommandError, match="needs the vault folder"):
        call_command("export_memories", "--format", "obsidian", tenant="acme")
    (tmp_path / "file.jsonl").write_text("")
    with pytest.raises(CommandError, match="is not a folder"):
        call_command("import_memories", str(tmp_path / "file.jsonl"), "--format", "obsidian", tenant="acme")


# --- export never writes through a symlink (issue 24, point 8) -------------------------------------------------


@pytest.mark.django_db
def test_export_refuses_a_symlink_where_a_note_goes_and_writes_nothing(acme, acme_memories, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    vault = tmp_path / "vault"
    (vault / "memories").mkdir(parents=True)
    first = acme_memories[0]
    (vault / "memories" / f"{memory_stem(first.pk, first.title, first.content)}.md").symlink_to(outside)

    with pytest.raises(CommandError, match=r"is a symlink: the export does not write through links"):
        call_command("export_memories", "--format", "obsidian", str(vault), tenant="acme", stderr=io.StringIO())

    assert outside.read_text() == "precious\n"
    assert sorted(path.name for path in (vault / "memories").iterdir()) == [
        f"{memory_stem(first.pk, first.title, first.content)}.md"
    ]
    assert not (vault / "entities").exists()


@pytest.mark.django_db
def test_export_refuses_a_symlinked_notes_folder(acme, acme_memories, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "entities").symlink_to(elsewhere, target_is_directory=True)

    with pytest.raises(CommandError, match=r"entities is a symlink"):
        call_command("export_memories", "--format", "obsidian", str(vault), tenant="acme", stderr=io.StringIO())

    assert list(elsewhere.iterdir()) == []


@pytest.mark.django_db
def test_export_replaces_its_own_notes_atomically(acme, acme_memories, tmp_path):
    call_command("export_memories", "--format", "obsidian", str(tmp_path), tenant="acme", stderr=io.StringIO())
    note = sorted((tmp_path / "memories").iterdir())[0]
    note.write_text("an edit the next export replaces\n")
    inode = note.stat().st_ino

    call_command("export_memories", "--format", "obsidian", str(tmp_path), tenant="acme", stderr=io.StringIO())

    assert note.read_text().startswith("---\ntype: orgmemory-memory\n")
    assert note.stat().st_ino != inode  # a new file renamed over the old name
    assert not [path for path in tmp_path.rglob(".orgmemory-*")]
