"""The write path on real PostgreSQL with the real embedder: validation, permissions, dedup, idempotency,
indexing (chunks, glossary, failures and the sweeper), commands."""

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from memories.embedding import embedder_override, get_embedder
from memories.models import IndexState, Member, Memory, MemoryChunk, Policy, Scope
from memories.services.memory import Author, memory_create, memory_create_batch, memory_delete, memory_update
from memories.tasks import memories_sweep
from orgmemory.errors import ContentTooLarge, NotFound, PermissionDenied, ValidationFailed

pytestmark = pytest.mark.django_db


def agent(tenant, user_id):
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


@pytest.fixture
def write(acme, django_capture_on_commit_callbacks):
    """memory_create as an agent for `albert` (by default), running the on-commit indexing."""

    def _write(content, user="albert", **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return memory_create(tenant=acme, author=agent(acme, user), content=content, **kwargs)

    return _write


class TestValidation:
    @pytest.mark.parametrize(
        ("content", "error", "code"),
        [
            ("", ValidationFailed, "empty_content"),
            ("   \n\t ", ValidationFailed, "empty_content"),
            (None, ValidationFailed, "empty_content"),
            ("bad\x00byte", ValidationFailed, "nul_byte"),
            (b"\xff\xfe not utf-8", ValidationFailed, "invalid_encoding"),
            ("lone \ud800 surrogate", ValidationFailed, "invalid_encoding"),
            (12345, ValidationFailed, "validation_error"),
            ("x" * (32 * 1024 + 1), ContentTooLarge, "content_too_large"),
        ],
    )
    def test_bad_content_is_refused_and_nothing_is_stored(self, write, content, error, code):
        with pytest.raises(error) as excinfo:
            write(content)

        assert excinfo.value.code == code
        assert Memory.objects.count() == 0

    def test_limit_is_in_bytes_and_follows_policy(self, acme, write):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=10)

        write("é" * 5)  # 10 bytes
        with pytest.raises(ContentTooLarge):
            write("é" * 6)  # 12 bytes, 6 characters

    @pytest.mark.parametrize(
        ("kwargs", "code"),
        [
            ({"kind": "rumour"}, "invalid_kind"),
            ({"title": "t" * 301}, "validation_error"),
            ({"title": "nul\x00"}, "nul_byte"),
            ({"metadata": ["not", "a", "dict"]}, "validation_error"),
            ({"metadata": {"k": "nul\x00"}}, "nul_byte"),
            ({"scope": "platform"}, "invalid_scope"),
        ],
    )
    def test_other_fields_are_validated(self, write, kwargs, code):
        with pytest.raises(ValidationFailed) as excinfo:
            write("A valid fact.", **kwargs)

        assert excinfo.value.code == code
        assert Memory.objects.count() == 0


class TestScopeAndPolicy:
    def test_default_scope_is_the_authors_own(self, write):
        result = write("I prefer Python examples.")

        assert result.memory.scope.tag == "user:albert"
        assert result.memory.author == "albert"

    def test_agent_may_write_at_its_team(self, write):
        assert write("Platform deploys with Argo.", scope="team:platform").memory.scope.tag == "team:platform"

    @pytest.mark.parametrize(
        ("scope", "error", "code"),
        [
            ("team:sales", PermissionDenied, "scope_not_on_chain"),
            ("user:bea", PermissionDenied, "scope_not_on_chain"),
            ("division:eu", PermissionDenied, "level_not_writable"),
            ("org:acme", PermissionDenied, "level_not_writable"),
            ("team:nowhere", NotFound, "unknown_scope"),
        ],
    )
    def test_agent_writes_outside_chain_or_policy_are_refused(self, write, scope, error, code):
        with pytest.raises(error) as excinfo:
            write("Something.", scope=scope)

        assert excinfo.value.code == code

    def test_other_tenants_scope_is_unknown(self, acme, globex, write):
        with pytest.raises(NotFound):
            write("x", scope="org:globex")

    def test_policy_override_opens_a_level(self, acme, write):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(
            writable_levels={"agent": ["user", "team", "division", "org"]}
        )

        assert write("Company-wide.", scope="org:acme").memory.scope.tag == "org:acme"

    def test_admin_may_write_anywhere_in_the_tenant(self, acme):
        result = memory_create(tenant=acme, author=Author(kind="admin", label="root"), content="x", scope="org:acme")

        assert result.memory.scope.tag == "org:acme"


class TestDedup:
    def test_exact_duplicate_returns_the_existing_row(self, write):
        first = write("We deploy with Argo CD.", scope="team:platform")
        second = write("  we deploy   with ARGO cd. ", user="bea", scope="team:platform")

        assert second.created is False
        assert second.deduplicated is True
        assert second.memory.pk == first.memory.pk
        assert Memory.objects.count() == 1

    def test_same_text_at_another_scope_is_not_a_duplicate(self, write):
        write("We deploy with Argo CD.", scope="team:platform")
        other = write("We deploy with Argo CD.")

        assert other.created is True
        assert Memory.objects.count() == 2

    def test_near_duplicate_supersedes_and_keeps_history(self, write):
        old = write("The platform team deploys on Tuesdays and Thursdays.", scope="team:platform")
        new = write("The platform team deploys on Tuesdays and Thursdays after 10:00.", scope="team:platform")

        old.memory.refresh_from_db()
        assert new.created is True
        assert new.supersedes == old.memory.pk
        assert old.memory.superseded_by_id == new.memory.pk
        assert list(Memory.objects.live().values_list("pk", flat=True)) == [new.memory.pk]
        assert list(new.memory.supersedes.values_list("pk", flat=True)) == [old.memory.pk]

    def test_opposite_polarity_warns_and_archives_nothing(self, write):
        old = write("We deploy on Fridays.", scope="team:platform")
        new = write("We no longer deploy on Fridays.", scope="team:platform")

        assert new.created is True
        assert new.supersedes is None
        assert [w["code"] for w in new.warnings] == ["possible_contradiction"]
        assert new.warnings[0]["memory_id"] == old.memory.pk
        assert Memory.objects.live().count() == 2
        assert Memory.objects.get(pk=new.memory.pk).warnings == new.warnings

    def test_unrelated_memories_do_not_interact(self, write):
        write("The cafeteria serves pasta on Mondays.", scope="team:platform")
        new = write("Grafana alerts page the on-call engineer.", scope="team:platform")

        assert (new.supersedes, new.warnings) == (None, [])


class TestIdempotentIngestion:
    def test_same_event_id_is_a_no_op(self, write):
        first = write("Told the agent about Kafka.", source_session="s1", source_event_id="e1")
        again = write("Different text, same event.", source_session="s1", source_event_id="e1")
        other_session = write("Told the agent about Kafka.", source_session="s2", source_event_id="e1")

        assert again.deduplicated is True
        assert again.memory.pk == first.memory.pk
        assert other_session.deduplicated is True  # same text, same scope: an exact duplicate
        assert Memory.objects.count() == 1

    def test_same_external_id_is_a_no_op(self, acme):
        author = Author(kind="import", label="import")
        first = memory_create(tenant=acme, author=author, content="A", scope="org:acme", external_id="x-1")
        again = memory_create(tenant=acme, author=author, content="B", scope="org:acme", external_id="x-1")

        assert again.deduplicated is True
        assert again.memory.pk == first.memory.pk

    def test_batch_is_all_or_nothing_with_the_bad_index(self, acme):
        author = agent(acme, "albert")
        with pytest.raises(ValidationFailed) as excinfo:
            memory_create_batch(tenant=acme, author=author, items=[{"content": "ok"}, {"content": ""}])

        assert excinfo.value.details["index"] == 1
        assert Memory.objects.count() == 0


class TestIndexing:
    def test_memory_is_embedded_on_commit(self, write):
        result = write("Our Kafka cluster runs in Frankfurt.", title="Kafka")

        memory = Memory.objects.get(pk=result.memory.pk)
        chunk = MemoryChunk.objects.get(memory=memory)
        assert memory.index_state == IndexState.READY
        assert memory.embedding_model == "all-MiniLM-L6-v2/onnx-int8"  # the default ORGMEMORY_EMBEDDER
        assert chunk.text == "Kafka. Our Kafka cluster runs in Frankfurt."
        assert len(chunk.embedding) == 384
        assert chunk.scope_id == memory.scope_id

    def test_long_memory_gets_overlapping_chunks(self, write):
        words = [f"w{i}" for i in range(420)]
        result = write(" ".join(words))

        chunks = list(MemoryChunk.objects.filter(memory=result.memory).order_by("ordinal"))
        assert [len(c.text.split()) for c in chunks] == [200, 200, 120]
        assert chunks[1].text.split()[0] == "w150"
        assert chunks[2].text.split()[-1] == "w419"

    def test_glossary_expands_indexed_text_not_stored_content(self, acme, write):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(glossary={"k8s": "kubernetes"})

        result = write("We run K8s in two regions.")

        memory = Memory.objects.get(pk=result.memory.pk)
        assert memory.content == "We run K8s in two regions."
        assert MemoryChunk.objects.get(memory=memory).text == "We run K8s (kubernetes) in two regions."
        assert Memory.objects.filter(pk=memory.pk, search_vector="kubernetes").exists()

    def test_failing_embedder_keeps_the_memory_and_the_sweeper_recovers_it(self, write):
        class Broken:
            name, dimensions = "broken", 384

            def embed(self, texts):
                raise RuntimeError("model exploded")

        with embedder_override(Broken()):
            result = write("Resilience matters.")

        memory = Memory.objects.get(pk=result.memory.pk)
        assert memory.index_state == IndexState.FAILED
        assert memory.index_error == "RuntimeError: model exploded"
        assert not MemoryChunk.objects.filter(memory=memory).exists()

        assert memories_sweep()["embeddings"] == 0  # too recent: the sweeper leaves fresh failures alone
        Memory.objects.filter(pk=memory.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
        queued = memories_sweep()

        memory.refresh_from_db()
        assert queued["embeddings"] == 1
        assert memory.index_state == IndexState.READY
        assert MemoryChunk.objects.filter(memory=memory).count() == 1

    def test_update_reindexes_and_delete_cascades(self, acme, write, django_capture_on_commit_callbacks):
        result = write("Staging runs on one node.")
        before = list(MemoryChunk.objects.get(memory=result.memory).embedding)

        with django_capture_on_commit_callbacks(execute=True):
            memory_update(memory=result.memory, author=agent(acme, "albert"), content="Staging runs on three nodes.")

        chunk = MemoryChunk.objects.get(memory=result.memory)
        assert chunk.text == "Staging runs on three nodes."
        assert list(chunk.embedding) != before
        memory_delete(memory=result.memory)
        assert MemoryChunk.objects.count() == 0

    def test_model_is_loaded_once_per_process(self):
        assert get_embedder() is get_embedder()


class TestCommands:
    def test_import_reports_bad_lines_and_is_idempotent(self, acme, tmp_path):
        path = tmp_path / "m.jsonl"
        path.write_text(
            "\n".join(
                [
                    json.dumps({"external_id": "a", "scope": "team:platform", "content": "Argo deploys platform."}),
                    "{not json",
                    json.dumps({"external_id": "b", "user_id": "ghost", "content": "x"}),
                    json.dumps({"external_id": "c", "user_id": "bea", "kind": "preference", "content": "Dark mode."}),
                    json.dumps({"external_id": "d", "scope": "team:platform", "content": ""}),
                ]
            )
        )
        out, err = StringIO(), StringIO()
        call_command("import_memories", str(path), tenant="acme", stdout=out, stderr=err)

        assert "2 created, 0 already present" in out.getvalue()
        assert "3 failed" in out.getvalue()
        assert "line 2: malformed JSON" in err.getvalue()
        assert "line 3: unknown user_id 'ghost'" in err.getvalue()
        assert "line 5: content is empty" in err.getvalue()
        assert Memory.objects.get(external_id="c").scope.tag == "user:bea"

        out = StringIO()
        call_command("import_memories", str(path), tenant="acme", stdout=out, stderr=StringIO())
        assert "0 created, 2 already present" in out.getvalue()
        assert Memory.objects.count() == 2

    def test_export_import_round_trip_is_lossless(self, acme, globex, tmp_path):
        author = Author(kind="import", label="ops")
        memory_create(
            tenant=acme,
            author=author,
            content="Org fact.",
            scope="org:acme",
            title="T",
            kind="policy",
            metadata={"source": "wiki", "n": 3},
            external_id="e1",
        )
        memory_create(
            tenant=acme,
            author=agent(acme, "bea"),
            content="Bea's note.",
            source_app="app",
            source_session="s",
            source_event_id="ev",
        )
        memory_create(tenant=globex, author=author, content="Globex only.", scope="org:globex")
        exported = tmp_path / "out.jsonl"
        call_command("export_memories", tenant="acme", output=str(exported), stderr=StringIO())
        records = [json.loads(line) for line in exported.read_text().splitlines()]

        Memory.objects.filter(tenant=acme).delete()
        call_command("import_memories", str(exported), tenant="acme", stdout=StringIO(), stderr=StringIO())
        call_command("export_memories", tenant="acme", output=str(tmp_path / "again.jsonl"), stderr=StringIO())

        again = [json.loads(line) for line in (tmp_path / "again.jsonl").read_text().splitlines()]
        assert again == records
        assert [r["scope"] for r in records] == ["org:acme", "user:bea"]
        assert records[0]["metadata"] == {"source": "wiki", "n": 3}
        assert records[1]["event_id"] == "ev"

    def test_export_of_a_subtree(self, acme, tmp_path):
        author = Author(kind="import", label="ops")
        memory_create(tenant=acme, author=author, content="Platform.", scope="team:platform")
        memory_create(tenant=acme, author=author, content="Sales.", scope="team:sales")
        out = tmp_path / "o.jsonl"

        call_command("export_memories", tenant="acme", scope="division:eu", output=str(out), stderr=StringIO())

        assert [json.loads(line)["content"] for line in out.read_text().splitlines()] == ["Platform."]

    def test_reindex_embeds_everything_and_reports_throughput(self, acme):
        author = Author(kind="import", label="ops")
        for i in range(3):
            memory_create(tenant=acme, author=author, content=f"Fact number {i} about queues.", scope="org:acme")
        out = StringIO()

        call_command("reindex", tenant="acme", embeddings=True, batch_size=2, stdout=out, stderr=StringIO())

        assert "embeddings: 3 memories in" in out.getvalue()
        assert "0 failed" in out.getvalue()
        assert Memory.objects.filter(index_state=IndexState.READY).count() == 3
        assert MemoryChunk.objects.count() == 3


def test_scope_rows_untouched_by_memory_writes(acme, write):
    count = Scope.objects.count()
    write("x")
    assert Scope.objects.count() == count


def test_replayed_event_of_another_users_private_memory_is_a_miss(acme, write):
    """Issue 24: the ids are looked up only where the write goes (a 409 told who used them); a miss stores."""
    bea = write("Bea's private salary note.", user="bea", source_session="s1", source_event_id="e1")

    albert = write("Albert guesses the ids.", user="albert", source_session="s1", source_event_id="e1")

    assert albert.created is True and albert.memory.pk != bea.memory.pk
    assert albert.memory.scope.tag == "user:albert"
    assert Memory.objects.count() == 2


def test_metadata_with_a_literal_backslash_u0000_is_fine(write):
    assert write("x", metadata={"path": "C:\\u0000dir"}).created is True


@pytest.mark.django_db(transaction=True)  # the sweeper thread has its own connection: the rows must be committed
def test_inline_sweeper_thread_recovers_failed_memories(acme):
    import time

    from memories.background import inline_sweeper_start

    memory = memory_create(
        tenant=acme, author=Author(kind="admin", label="ops"), content="Sweep me.", scope="org:acme"
    ).memory
    Memory.objects.filter(pk=memory.pk).update(
        index_state=IndexState.FAILED, updated_at=timezone.now() - timedelta(minutes=5)
    )

    stop = inline_sweeper_start(interval_seconds=0.2)
    try:
        assert inline_sweeper_start(interval_seconds=0.2) is None  # one sweeper per process
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and Memory.objects.get(pk=memory.pk).index_state != IndexState.READY:
            time.sleep(0.2)
    finally:
        stop.set()
        time.sleep(0.5)  # let the thread leave its loop and close its connection

    assert Memory.objects.get(pk=memory.pk).index_state == IndexState.READY


def test_move_reindexes_with_the_new_scopes_glossary(acme, django_capture_on_commit_callbacks):
    from memories.services.memory import memory_move

    sales = Scope.objects.get(tenant=acme, level="team", key="sales")
    Policy.objects.create(tenant=acme, scope=sales, glossary={"arr": "annual recurring revenue"})
    with django_capture_on_commit_callbacks(execute=True):
        memory = memory_create(
            tenant=acme, author=Author(kind="admin", label="ops"), content="ARR grew 20%.", scope="team:platform"
        ).memory
    assert MemoryChunk.objects.get(memory=memory).text == "ARR grew 20%."

    with django_capture_on_commit_callbacks(execute=True):
        moved = memory_move(memory=memory, author=Author(kind="admin", label="ops"), scope="team:sales")

    assert moved.scope.tag == "team:sales"
    assert MemoryChunk.objects.get(memory=memory).text == "ARR (annual recurring revenue) grew 20%."
    assert MemoryChunk.objects.get(memory=memory).scope_id == sales.pk
    assert Memory.objects.filter(pk=memory.pk, search_vector="recurring").exists()


def test_set_kind_moves_a_policy_given_expiry_to_the_new_kinds_rule(acme):
    from memories.services.memory import memory_set_kind

    Policy.objects.filter(tenant=acme, scope__isnull=True).update(retention_days={"event": 30})
    admin = Author(kind="admin", label="ops")
    event = memory_create(tenant=acme, author=admin, content="Offsite happened.", scope="org:acme", kind="event").memory
    pinned_at = timezone.now() + timedelta(days=3)
    pinned = memory_create(
        tenant=acme, author=admin, content="Visitor badge.", scope="org:acme", kind="event", expires_at=pinned_at
    ).memory
    assert event.expires_at is not None

    memory_set_kind(memory=event, kind="fact")
    memory_set_kind(memory=pinned, kind="fact")

    assert Memory.objects.get(pk=event.pk).expires_at is None  # facts have no retention rule here
    assert Memory.objects.get(pk=pinned.pk).expires_at == pinned_at  # an explicit expiry is kept
    assert Memory.objects.get(pk=event.pk).kind == "fact"
