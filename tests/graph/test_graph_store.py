"""Links on save/update/delete, mention counts, resolution, merge/split, and scope-filtered graph selectors."""

import pytest

from graph.models import Entity, EntityAlias, EntityLink
from graph.selectors import (
    entities_visible,
    entity_counterparts,
    entity_neighbours,
    entity_paths,
    entity_resolve_name,
    memories_about,
    memories_mentioning,
)
from graph.services import entity_merge, entity_split_alias, link_delete, links_extract_for_memories
from memories.models import IndexState, Member, Memory
from memories.selectors import scope_chain_for
from memories.services.memory import Author, memory_create, memory_delete, memory_update

pytestmark = pytest.mark.django_db
ADMIN = Author(kind="admin", label="curator")


@pytest.fixture
def store(acme, django_capture_on_commit_callbacks):
    def _store(content, scope="org:acme", tenant=None, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return memory_create(tenant=tenant or acme, author=ADMIN, content=content, scope=scope, **kwargs).memory

    return _store


def edges(memory):
    return sorted(
        (link.subject.name, link.relationship, link.object.name if link.object else None)
        for link in EntityLink.objects.filter(memory=memory).select_related("subject", "object")
    )


def counts(tenant):
    return dict(Entity.objects.filter(tenant=tenant).values_list("name", "mention_count"))


def chain_ids(tenant, user_id):
    return [scope.pk for scope in scope_chain_for(tenant=tenant, user_id=user_id)]


class TestLinksFollowTheMemory:
    def test_save_extracts_typed_links_and_the_about_link(self, acme, store):
        memory = store(
            "Acme Robotics was founded by Alice Smith and Bob Lee. Sequoia invested in Acme Robotics.",
            title="Acme Robotics",
        )

        assert edges(memory) == [
            ("Acme Robotics", "about", None),
            ("Alice Smith", "founded", "Acme Robotics"),
            ("Bob Lee", "founded", "Acme Robotics"),
            ("Sequoia", "invested_in", "Acme Robotics"),
        ]
        assert Memory.objects.get(pk=memory.pk).links_state == IndexState.READY
        assert counts(acme) == {"Acme Robotics": 1, "Alice Smith": 1, "Bob Lee": 1, "Sequoia": 1}

    def test_update_replaces_links_and_counts_stay_exact(self, acme, store, django_capture_on_commit_callbacks):
        first = store("Alice Smith founded Acme Robotics.")
        store("Alice Smith advises Beta Labs.")

        with django_capture_on_commit_callbacks(execute=True):
            memory_update(memory=first, author=ADMIN, content="Carol Diaz founded Acme Robotics.")

        assert edges(first) == [("Carol Diaz", "founded", "Acme Robotics")]
        assert counts(acme) == {"Acme Robotics": 1, "Alice Smith": 1, "Beta Labs": 1, "Carol Diaz": 1}

    def test_delete_cascades_and_prunes_orphans(self, acme, store, django_capture_on_commit_callbacks):
        first = store("Alice Smith founded Acme Robotics.")
        store("Alice Smith advises Beta Labs.")

        with django_capture_on_commit_callbacks(execute=True):
            memory_delete(memory=first)

        assert EntityLink.objects.filter(memory_id=first.pk).count() == 0
        assert counts(acme) == {"Alice Smith": 1, "Beta Labs": 1}

    def test_same_name_in_two_tenants_is_two_entities(self, acme, globex, store):
        store("Alice Smith founded Acme Robotics.")
        store("Alice Smith founded Globex Labs.", scope="org:globex", tenant=globex)

        assert Entity.objects.filter(norm="alice smith").count() == 2
        assert counts(globex) == {"Alice Smith": 1, "Globex Labs": 1}

    def test_resolution_uses_aliases_and_fuzzy_names(self, acme, store):
        store("Alice Smith founded Acme Robotics.")
        alice = Entity.objects.get(tenant=acme, norm="alice smith")
        EntityAlias.objects.create(tenant=acme, entity=alice, name="Ally Smith", norm="ally smith")

        store("Ally Smith advises Beta Labs.")
        store("Acme Robotic was backed by Sequoia.")  # a typo of a known company

        assert Entity.objects.filter(tenant=acme, norm="ally smith").count() == 0
        assert counts(acme)["Alice Smith"] == 2
        assert counts(acme)["Acme Robotics"] == 2
        assert [e.name for e in entity_resolve_name(tenant=acme, name="acme robotics")] == ["Acme Robotics"]

    def test_extraction_failure_marks_the_memory_and_is_retryable(self, acme, store, monkeypatch):
        memory = store("Alice Smith founded Acme Robotics.")

        def explode(*args, **kwargs):
            raise RuntimeError("extractor bug")

        monkeypatch.setattr("graph.services.extract_links", explode)
        assert links_extract_for_memories(memory_ids=[memory.pk]) == {"memories": 0, "failed": 1, "links": 0}
        memory.refresh_from_db()
        assert (memory.links_state, memory.links_error) == (IndexState.FAILED, "RuntimeError: extractor bug")
        assert edges(memory) == [("Alice Smith", "founded", "Acme Robotics")]  # the old links are kept
        monkeypatch.undo()

        assert links_extract_for_memories(memory_ids=[memory.pk])["memories"] == 1
        memory.refresh_from_db()
        assert memory.links_state == IndexState.READY


class TestMergeAndSplit:
    def test_merge_repoints_links_and_split_undoes_it(self, acme, store):
        store("Alice Smith founded Acme Robotics.")
        store("Al Smith advises Acme Robotics.")
        alice = Entity.objects.get(tenant=acme, norm="alice smith")
        al = Entity.objects.get(tenant=acme, norm="al smith")

        survivor = entity_merge(tenant=acme, survivor=alice, others=[al])

        assert survivor.mention_count == 2
        assert not Entity.objects.filter(pk=al.pk).exists()
        assert list(survivor.aliases.values_list("norm", flat=True)) == ["al smith"]
        assert EntityLink.objects.filter(subject=survivor).count() == 2

        split = entity_split_alias(alias=survivor.aliases.get())

        survivor.refresh_from_db()
        assert split.norm == "al smith"
        assert [link.relationship for link in EntityLink.objects.filter(subject=split)] == ["advises"]
        assert [link.relationship for link in EntityLink.objects.filter(subject=survivor)] == ["founded"]
        assert (survivor.mention_count, split.mention_count) == (1, 1)

    def test_merge_refuses_another_tenants_entity(self, acme, globex, store):
        store("Alice Smith founded Acme Robotics.")
        store("Zed Kowalski founded Globex Labs.", scope="org:globex", tenant=globex)
        from orgmemory.errors import NotFound

        with pytest.raises(NotFound):
            entity_merge(
                tenant=acme,
                survivor=Entity.objects.get(tenant=acme, norm="alice smith"),
                others=[Entity.objects.get(tenant=globex, norm="zed kowalski")],
            )

    def test_link_delete_keeps_counts_exact(self, acme, store):
        store("Alice Smith founded Acme Robotics. Alice Smith advises Beta Labs.")
        link = EntityLink.objects.get(relationship="advises")

        link_delete(link=link)

        assert counts(acme) == {"Acme Robotics": 1, "Alice Smith": 1}


class TestScopeFilteredSelectors:
    @pytest.fixture
    def graph(self, acme, store):
        store("Acme Robotics was founded by Alice Smith.", scope="org:acme", title="Acme Robotics")
        store("Alice Smith advises Beta Labs.", scope="team:platform")
        store("Bea Schmidt advises Relay Freight. Alice Smith invested in Relay Freight.", scope="user:bea")
        store("Carl Jones works at Relay Freight.", scope="team:sales")
        return {
            name: Entity.objects.get(tenant=acme, name=name)
            for name in ["Acme Robotics", "Alice Smith", "Beta Labs", "Relay Freight", "Bea Schmidt", "Carl Jones"]
        }

    def test_a_link_in_beas_private_memory_is_invisible_to_albert(self, acme, graph):
        albert, bea = chain_ids(acme, "albert"), chain_ids(acme, "bea")

        seen_by_albert = {
            (n.entity_name, n.relationship, n.direction)
            for n in entity_neighbours(tenant=acme, chain_ids=albert, entity=graph["Alice Smith"])
        }
        seen_by_bea = {
            (n.entity_name, n.relationship, n.direction)
            for n in entity_neighbours(tenant=acme, chain_ids=bea, entity=graph["Alice Smith"])
        }

        assert seen_by_albert == {("Acme Robotics", "founded", "out"), ("Beta Labs", "advises", "out")}
        assert seen_by_bea == seen_by_albert | {("Relay Freight", "invested_in", "out")}

    def test_counterparts_about_and_mentions_are_filtered(self, acme, globex, graph):
        albert, carlos = chain_ids(acme, "albert"), chain_ids(acme, "carlos")

        assert (
            entity_counterparts(
                tenant=acme,
                chain_ids=albert,
                entity_ids=[graph["Relay Freight"].pk],
                relationship="advises",
                direction="inbound",
            )
            == []
        )
        carl = entity_counterparts(
            tenant=acme,
            chain_ids=carlos,
            entity_ids=[graph["Relay Freight"].pk],
            relationship="works_at",
            direction="inbound",
        )
        assert [link.subject.name for link in carl] == ["Carl Jones"]
        assert len(memories_about(tenant=acme, chain_ids=albert, entity_ids=[graph["Acme Robotics"].pk])) == 1
        assert memories_mentioning(tenant=acme, chain_ids=albert, entity=graph["Relay Freight"]).count() == 0
        assert memories_mentioning(tenant=acme, chain_ids=carlos, entity=graph["Relay Freight"]).count() == 1
        assert entity_neighbours(tenant=globex, chain_ids=albert, entity=graph["Alice Smith"]) == []

    def test_entities_visible_and_paths(self, acme, graph):
        albert = chain_ids(acme, "albert")

        names = set(entities_visible(tenant=acme, chain_ids=albert).values_list("name", flat=True))
        paths = entity_paths(tenant=acme, chain_ids=albert, source=graph["Acme Robotics"], target=graph["Beta Labs"])

        assert names == {"Acme Robotics", "Alice Smith", "Beta Labs"}
        assert [[(hop.entity_name, hop.relationship) for hop in path] for path in paths] == [
            [("Alice Smith", "founded"), ("Beta Labs", "advises")]
        ]
        assert (
            entity_paths(tenant=acme, chain_ids=albert, source=graph["Acme Robotics"], target=graph["Relay Freight"])
            == []
        )


def test_member_rows_untouched(acme, store):
    store("Alice Smith founded Acme Robotics.")
    assert Member.objects.filter(tenant=acme).count() == 4


def test_an_entity_pruned_in_a_batch_is_recreated_for_a_later_memory(acme, store):
    first = store("Alice Smith founded Acme Robotics.")
    second = store("Carol Diaz joined Beta Labs.")
    Memory.objects.filter(pk=first.pk).update(content="Dora Lee founded Acme Robotics.")
    Memory.objects.filter(pk=second.pk).update(content="Alice Smith joined Beta Labs.")

    assert links_extract_for_memories(memory_ids=[first.pk, second.pk]) == {"memories": 2, "failed": 0, "links": 2}
    assert counts(acme) == {"Acme Robotics": 1, "Alice Smith": 1, "Beta Labs": 1, "Dora Lee": 1}


class TestLinksCarryTheirMemorysScope:
    """graph.0005: the database copies a memory's scope onto its links on every path, and follows its moves, so the
    relational walk can read only the edges on a caller's chain."""

    def test_links_get_the_memorys_scope_on_every_write_path(self, acme, store):
        memory = store("Alice Smith founded Acme Robotics.", scope="team:platform")
        alice = Entity.objects.get(tenant=acme, name="Alice Smith")
        direct = EntityLink.objects.create(
            tenant=acme, memory=memory, subject=alice, relationship="mentioned", confidence=0.5
        )  # a path that sets no scope itself (the admin, the corpus loader's COPY, raw SQL)

        scopes = set(EntityLink.objects.filter(memory=memory).values_list("scope_id", flat=True))

        direct.refresh_from_db()
        assert scopes == {memory.scope_id} and direct.scope_id == memory.scope_id

    def test_links_follow_a_moved_memory_and_a_raw_update(self, acme, store, django_capture_on_commit_callbacks):
        from memories.models import Scope
        from memories.services.memory import memory_move

        memory = store("Alice Smith founded Acme Robotics.", scope="team:platform")
        other = store("Carl Jones works at Beta Labs.", scope="team:platform")
        with django_capture_on_commit_callbacks(execute=True):
            memory_move(memory=memory, author=ADMIN, scope="org:acme")
        org = Scope.objects.get(tenant=acme, level="org", key="acme")
        assert set(EntityLink.objects.filter(memory=memory).values_list("scope_id", flat=True)) == {org.pk}

        division = Scope.objects.get(tenant=acme, level="division", key="eu")
        Memory.objects.filter(pk=memory.pk).update(scope_id=division.pk)  # no service involved

        assert set(EntityLink.objects.filter(memory=memory).values_list("scope_id", flat=True)) == {division.pk}
        assert set(EntityLink.objects.filter(memory=other).values_list("scope_id", flat=True)) == {other.scope_id}

    def test_the_walk_reads_only_the_hubs_edges_on_the_callers_chain(self, acme, store):
        """Twelve memories of Bea's (private) state an edge into the hub, one of the org's: Albert's walk does not
        read Bea's link rows, Bea's reads them all, and each sees its own edges."""
        from django.db import connection

        from memories.models import MemoryKind
        from retrieval import selectors
        from retrieval.relational_query import Hop

        for week in range(12):
            store(f"Bea Schmidt attended the Helix Roadmap Sync in week {week + 1}.", scope="user:bea")
        store("Albert Brun attended the Helix Roadmap Sync.")
        hub = Entity.objects.get(tenant=acme, norm="helix roadmap sync")
        # twenty thousand more of the tenant's edges (into another entity) and fresh statistics: the planner costs the
        # link table as a real tenant's, not as the few pages a test leaves beside what earlier tests committed (on
        # those it may read the tenant's links through its tenant index whatever the statement says)
        other = store("Carl Jones attended the Beta Offsite.", scope="team:platform")
        edge = EntityLink.objects.get(memory=other, relationship="attended")
        with connection.cursor() as cursor:
            cursor.execute(
                f"""INSERT INTO {EntityLink._meta.db_table} (tenant_id, memory_id, subject_id, relationship, object_id,
                        confidence, subject_norm, object_norm, metadata, span_start, span_end)
                    SELECT tenant_id, memory_id, subject_id, relationship, object_id, confidence, subject_norm,
                           object_norm, metadata, g, g
                    FROM {EntityLink._meta.db_table}, generate_series(1, 20000) g WHERE id = %s""",  # noqa: S608 (table names from _meta)
                [edge.pk],
            )
            cursor.execute(f"ANALYZE {EntityLink._meta.db_table}, {Memory._meta.db_table}")

        def walk(user_id):
            captured = {}

            def keep(execute, sql, params, many, context):
                captured.update(sql=sql, params=params)
                return execute(sql, params, many, context)

            chain = chain_ids(acme, user_id)
            with connection.execute_wrapper(keep):
                result = selectors.relational_walk(
                    tenant=acme,
                    chain_ids=chain,
                    kinds=list(MemoryKind.values),
                    seed_ids=[hub.pk],
                    hops=[Hop(relationship="attended", direction="inbound")],
                )
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_seqscan = off")
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + captured["sql"], captured["params"])
                plan = cursor.fetchone()[0]
            read = []  # link rows the hop's scan read (kept or removed by its filter), whichever index it uses

            def visit(node):
                conditions = " ".join(node.get(key, "") for key in ("Index Cond", "Recheck Cond", "Filter"))
                if node.get("Relation Name") == "graph_entitylink" and "object_id =" in conditions:
                    removed = node.get("Rows Removed by Filter", 0) + node.get("Rows Removed by Index Recheck", 0)
                    read.append((node["Actual Rows"] + removed) * node["Actual Loops"])
                for child in node.get("Plans", []):
                    visit(child)

            visit((plan[0] if isinstance(plan, list) else plan)["Plan"])
            return {edge.subject for edge in result.edges}, round(sum(read))

        (albert_edges, albert_read), (bea_edges, bea_read) = walk("albert"), walk("bea")

        assert albert_edges == {"Albert Brun"} and bea_edges == {"Albert Brun", "Bea Schmidt"}
        # Albert's hop reads none of Bea's twelve private edges (all thirteen, and a memory look-up each, before);
        # the exact count depends on the plan the planner picks for these tiny tables
        assert albert_read < 12 <= bea_read
