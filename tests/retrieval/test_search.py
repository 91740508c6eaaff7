"""The search service on real PostgreSQL with the real embedder: visibility in every arm, tiers, relational
answers, degraded mode, access tracking, gaps, option validation."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memories.background import access_flush
from memories.embedding import embedder_override, get_embedder
from memories.models import Memory, MemoryAccess, Policy, Scope
from memories.services.access import access_record
from memories.services.memory import Author, memory_create, memory_delete
from orgmemory.errors import NotFound, ValidationFailed
from retrieval import selectors, services
from retrieval.services import SearchOptions, search_memories

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="curator")


@pytest.fixture
def store(acme, globex, django_capture_on_commit_callbacks):
    """memory_create as an admin at a scope tag (any tenant), with indexing (embedding + links) run."""

    def _store(tenant, scope, content, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return memory_create(tenant=tenant, author=ADMIN, content=content, scope=scope, **kwargs).memory

    return _store


@pytest.fixture
def everywhere(acme, globex, store):
    """The same fact about the quarterly hackathon at every scope of both tenants."""
    scopes = {
        "user:albert": acme,
        "user:bea": acme,
        "team:platform": acme,
        "team:data": acme,
        "division:eu": acme,
        "team:sales": acme,
        "division:us": acme,
        "org:acme": acme,
        "org:globex": globex,
        "user:zed": globex,
    }
    return {
        tag: store(tenant, tag, f"The quarterly hackathon is organised by the {tag.replace(':', ' ')} people.")
        for tag, tenant in scopes.items()
    }


def tags(result):
    return sorted(hit.memory.scope.tag for hit in result.hits)


@pytest.mark.parametrize(
    ("user", "visible"),
    [
        ("albert", ["division:eu", "org:acme", "team:platform", "user:albert"]),
        ("bea", ["division:eu", "org:acme", "team:platform", "user:bea"]),
        ("dora", ["division:eu", "org:acme", "team:data"]),
        ("carlos", ["division:us", "org:acme", "team:sales"]),
    ],
)
@pytest.mark.parametrize("arms", [("keyword",), ("vector",), ("keyword", "vector", "relational")])
def test_visibility_matrix_is_exact_in_every_arm(acme, everywhere, user, visible, arms):
    result = search_memories(
        tenant=acme, user_id=user, query="quarterly hackathon organised", options=SearchOptions(top_k=50, arms=arms)
    )

    assert tags(result) == visible


def test_other_tenant_sees_only_its_own(globex, everywhere):
    result = search_memories(
        tenant=globex, user_id="albert", query="quarterly hackathon", options=SearchOptions(top_k=50)
    )

    assert tags(result) == ["org:globex"]


def test_tier_boost_puts_the_users_own_fact_above_the_orgs(acme, store):
    org = store(acme, "org:acme", "Standup starts at 09:30 every weekday.")
    mine = store(acme, "user:albert", "Standup starts at 09:30 every weekday!")

    result = search_memories(
        tenant=acme, user_id="albert", query="when does standup start", options=SearchOptions(top_k=5, explain=True)
    )

    assert [hit.memory.pk for hit in result.hits[:2]] == [mine.pk, org.pk]
    assert result.hits[0].explain["tier"] == 1.0
    assert result.hits[1].explain["tier"] == 0.88


def test_policy_tier_override_changes_the_order(acme, store):
    org = store(acme, "org:acme", "Standup starts at 09:30 every weekday.")
    mine = store(acme, "user:albert", "Standup starts at 09:30 every weekday!")
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(tier_boost={"org": 1.0, "user": 0.5})

    result = search_memories(tenant=acme, user_id="albert", query="when does standup start")

    assert [hit.memory.pk for hit in result.hits[:2]] == [org.pk, mine.pk]


def test_relational_question_is_answered_from_edges(acme, store):
    stating = store(acme, "org:acme", "Acme Robotics was founded by Alice Smith and Bob Lee in 2019.")
    alice = store(acme, "org:acme", "Alice leads hardware and lives in Lyon.", title="Alice Smith")
    store(acme, "org:acme", "Bob Lee runs the robotics lab.", title="Bob Lee")
    store(acme, "org:acme", "The cafeteria serves pasta on Mondays.")

    result = search_memories(
        tenant=acme,
        user_id="albert",
        query="Who founded Acme Robotics?",
        options=SearchOptions(top_k=5, synthesize=True, explain=True),
    )

    ids = [hit.memory.pk for hit in result.hits]
    assert stating.pk in ids and alice.pk in ids
    assert result.relational.relationship == "founded"
    assert result.answer.used_llm is False
    assert result.answer.text.startswith("Acme Robotics was founded by Alice Smith [")
    assert "Bob Lee [" in result.answer.text
    assert {memory_id for _, memory_id in result.answer.citations} <= set(ids)
    relational_ranks = [hit.explain["ranks"]["relational"] for hit in result.hits if hit.memory.pk == alice.pk]
    assert relational_ranks[0] is not None


def test_relational_edges_respect_scope(acme, store):
    store(acme, "user:bea", "Zeta Labs was founded by Quentin Moss.")

    albert = search_memories(
        tenant=acme, user_id="albert", query="Who founded Zeta Labs?", options=SearchOptions(synthesize=True)
    )
    bea = search_memories(
        tenant=acme, user_id="bea", query="Who founded Zeta Labs?", options=SearchOptions(synthesize=True)
    )

    assert albert.hits == []
    assert "Quentin Moss" not in albert.answer.text
    assert bea.answer.text.startswith("Zeta Labs was founded by Quentin Moss [1]")


def test_degraded_mode_without_embedder(acme, store):
    store(acme, "org:acme", "The VPN uses WireGuard.")

    class Broken:
        name, dimensions = "broken", 384

        def embed(self, texts):
            raise RuntimeError("no model")

    with embedder_override(Broken()):
        result = search_memories(tenant=acme, user_id="albert", query="VPN WireGuard")

    assert result.degraded == ["vector"]
    assert [hit.memory.content for hit in result.hits] == ["The VPN uses WireGuard."]


class _Recording:
    """The real embedder, recording each text it embeds and the thread that asked."""

    def __init__(self, inner):
        self.inner, self.name, self.dimensions = inner, inner.name, inner.dimensions
        self.calls: list[tuple[str, str]] = []

    def embed(self, texts):
        self.calls.extend((text, threading.current_thread().name) for text in texts)
        return self.inner.embed(texts)

    def embed_queries(self, texts):
        self.calls.extend((text, threading.current_thread().name) for text in texts)
        return self.inner.embed_queries(texts)


@pytest.mark.parametrize("glossary", [{}, {"k8s": "kubernetes"}])
def test_the_question_is_embedded_while_the_context_is_read_and_the_glossary_text_when_it_expands(
    acme, store, monkeypatch, glossary
):
    """The question is embedded on the embedding thread while the context statement runs; when the caller's
    glossary expands it, the vector arm gets the expanded text's vector (what the chunks were embedded with)."""
    store(acme, "team:platform", "We run k8s on bare metal.")
    Policy.objects.create(tenant=acme, scope=Scope.objects.get(tenant=acme, key="platform"), glossary=glossary)
    recording = _Recording(get_embedder())
    vectors = []
    real_arms = selectors.arm_candidates
    monkeypatch.setattr(selectors, "arm_candidates", lambda **kw: vectors.append(kw["vector"]) or real_arms(**kw))
    query, expanded = "k8s clusters", ("k8s (kubernetes) clusters" if glossary else "k8s clusters")
    services._embedding_cache.clear()

    with embedder_override(recording):
        result = search_memories(tenant=acme, user_id="albert", query=query)

    assert result.degraded == [] and [hit.memory.content for hit in result.hits] == ["We run k8s on bare metal."]
    # the two embeddings may finish in either order on a busy machine: which thread embedded what is the contract
    threads = dict(recording.calls)
    assert threads[query].startswith("orgmemory-query-embedding")
    assert sorted(text for text, _ in recording.calls) == sorted([query, expanded] if glossary else [query])
    assert vectors == [pytest.approx(recording.inner.embed([expanded])[0], abs=1e-6)]


@pytest.mark.django_db(transaction=True)  # the recorder thread has its own connection: the data must be committed
def test_access_is_recorded_off_the_request_path(acme, store):
    memory = store(acme, "org:acme", "The VPN uses WireGuard.")

    search_memories(tenant=acme, user_id="albert", query="VPN WireGuard")
    search_memories(tenant=acme, user_id="bea", query="VPN WireGuard")
    assert access_flush(timeout=10)

    access = MemoryAccess.objects.get(tenant_id=acme.pk, memory_id=memory.pk)
    assert access.access_count == 2
    assert timezone.now() - timedelta(minutes=1) < access.last_accessed_at <= timezone.now()


def test_accesses_accumulate_in_their_own_rows_per_tenant_and_go_with_their_memory(acme, globex, store):
    ours = store(acme, "org:acme", "The VPN uses WireGuard.")
    theirs = store(globex, "team:platform", "The VPN uses OpenVPN.")

    def row_version(memory):
        with connection.cursor() as cursor:
            cursor.execute("SELECT xmin::text FROM memories_memory WHERE id = %s", [memory.pk])
            return cursor.fetchone()[0]

    version = row_version(ours)
    assert access_record(memory_ids=[ours.pk, ours.pk, theirs.pk, 10**12]) == 2  # an unknown id is skipped
    assert access_record(memory_ids=[ours.pk]) == 1

    counts = {(a.tenant_id, a.memory_id): a.access_count for a in MemoryAccess.objects.all()}
    assert counts == {(acme.pk, ours.pk): 3, (globex.pk, theirs.pk): 1}
    assert row_version(ours) == version  # the memory row itself is not rewritten
    memory_delete(memory=ours)
    assert list(MemoryAccess.objects.values_list("memory_id", flat=True)) == [theirs.pk]


def test_superseded_and_expired_memories_are_not_returned(acme, store):
    old = store(acme, "org:acme", "The platform team deploys on Tuesdays and Thursdays.")
    new = store(acme, "org:acme", "The platform team deploys on Tuesdays and Thursdays after 10:00.")
    gone = store(acme, "org:acme", "Temporary: the platform deploy freeze lasts until Friday.")
    Memory.objects.filter(pk=gone.pk).update(expires_at=timezone.now() - timedelta(days=1))

    result = search_memories(tenant=acme, user_id="albert", query="platform deploys", options=SearchOptions(top_k=50))

    ids = [hit.memory.pk for hit in result.hits]
    assert new.pk in ids
    assert old.pk not in ids and gone.pk not in ids


def test_keyword_or_fallback_and_title_typos(acme, store):
    kafka = store(acme, "org:acme", "Brokers run in Frankfurt.", title="Kafka cluster")

    both = search_memories(
        tenant=acme, user_id="albert", query="Kafka nonexistentword", options=SearchOptions(arms=("keyword",))
    )
    typo = search_memories(
        tenant=acme, user_id="albert", query="Kafak cluster", options=SearchOptions(arms=("keyword",))
    )

    assert [hit.memory.pk for hit in both.hits] == [kafka.pk]
    assert [hit.memory.pk for hit in typo.hits] == [kafka.pk]


def test_a_misspelt_word_in_a_long_question_finds_the_memory_through_its_stand_in(acme, store):
    kafka = store(acme, "org:acme", "The brokers run in Frankfurt.", title="Kafka cluster")
    # without the stand-in for "Kafak" this one would win: the same words, "brokers" twice
    store(acme, "org:acme", "The brokers and the standby brokers run in Dublin.", title="Redis cluster")

    result = search_memories(
        tenant=acme,
        user_id="albert",
        query="where do we keep the brokers of the Kafak cluster",
        options=SearchOptions(arms=("keyword",)),
    )

    assert result.hits[0].memory.pk == kafka.pk


def _keyword_terms(tenant, user_id, query):
    """The keyword arm's terms (lexeme, idf) as its statement computes them, for ``user_id``'s chain."""
    chain = [node.scope_id for node in selectors.search_context(tenant=tenant, user_id=user_id, norms=[]).chain]
    sql, params = selectors.arm_statement(
        tenant=tenant, chain_ids=chain, kinds=["fact"], depth=30, query=query, vector=None
    )
    with connection.cursor() as cursor:
        cursor.execute(
            sql[: sql.index("candidates AS MATERIALIZED")].rstrip().rstrip(",") + " SELECT lexeme, idf FROM terms",
            params,
        )
        return dict(cursor.fetchall())


def test_an_unknown_lexeme_stands_for_the_closest_known_one_weighted_by_similarity(acme, globex, store):
    store(acme, "org:acme", "The Kafka brokers are patched monthly.")
    store(globex, "org:globex", "Kafak is the name of our mascot.")  # closer still, but another tenant's word

    typo = _keyword_terms(acme, "albert", "Kafak brokers")
    exact = _keyword_terms(acme, "albert", "Kafka brokers")

    assert set(typo) == {"kafka", "broker"}  # the stand-in comes from this tenant's vocabulary only
    assert typo["broker"] == pytest.approx(exact["broker"])
    assert 0 < typo["kafka"] < exact["kafka"]  # weighted by the trigram similarity of kafak and kafka (~1/3)


def test_known_short_and_far_lexemes_get_no_stand_in(acme, store):
    store(acme, "org:acme", "The Kafka brokers are patched monthly.")

    assert set(_keyword_terms(acme, "albert", "kafka brokers")) == {"kafka", "broker"}  # all known
    assert set(_keyword_terms(acme, "albert", "kfa brokers")) == {"broker"}  # "kfa": too short to correct
    assert set(_keyword_terms(acme, "albert", "zanzibar brokers")) == {"broker"}  # nothing close enough


def test_the_stand_in_probe_reads_the_vocabulary_not_the_memories(acme, store):
    """The keyword part reads memories_memory once, to return its rows: a typo is looked up in the vocabulary
    (retrieval_term_statistic), never by reading the memories on the chain (the title probe it replaced did)."""
    store(acme, "org:acme", "The Kafka brokers are patched monthly.", title="Kafka cluster")
    chain = [node.scope_id for node in selectors.search_context(tenant=acme, user_id="albert", norms=[]).chain]
    sql, params = selectors.arm_statement(
        tenant=acme, chain_ids=chain, kinds=["fact"], depth=30, query="Kafak cluster", vector=None
    )
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]

    relations = []

    def walk(node):
        relations.append(node.get("Relation Name"))
        for child in node.get("Plans", []):
            walk(child)

    walk((plan[0] if isinstance(plan, list) else plan)["Plan"])
    assert relations.count("memories_memory") == 1
    assert "retrieval_term_statistic" in relations


def test_kinds_and_scopes_filters(acme, store):
    fact = store(acme, "team:platform", "On-call rotates weekly.", kind="fact")
    policy = store(acme, "org:acme", "On-call engineers get a day off after a night page.", kind="policy")

    only_policies = search_memories(
        tenant=acme, user_id="albert", query="on-call", options=SearchOptions(kinds=("policy",))
    )
    only_team = search_memories(
        tenant=acme, user_id="albert", query="on-call", options=SearchOptions(scopes=("team:platform",))
    )

    assert [hit.memory.pk for hit in only_policies.hits] == [policy.pk]
    assert [hit.memory.pk for hit in only_team.hits] == [fact.pk]
    with pytest.raises(ValidationFailed):
        search_memories(tenant=acme, user_id="albert", query="x", options=SearchOptions(scopes=("team:sales",)))


def test_gaps_report_unknown_terms_and_contradictions(acme, store):
    yes = store(acme, "team:platform", "We deploy on Fridays.")
    no = store(acme, "team:platform", "We no longer deploy on Fridays.")

    result = search_memories(
        tenant=acme, user_id="albert", query="deploy Fridays zanzibar", options=SearchOptions(gaps=True)
    )

    assert result.gaps.unknown_terms == ("zanzibar",)
    assert result.gaps.contradictions == ((no.pk, yes.pk),)
    assert 0 < result.gaps.confidence < 1


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"query": ""}, ValidationFailed),
        ({"query": "a\x00b"}, ValidationFailed),
        ({"query": "x" * 2001}, ValidationFailed),
        ({"query": "x", "options": SearchOptions(top_k=51)}, ValidationFailed),
        ({"query": "x", "options": SearchOptions(top_k=0)}, ValidationFailed),
        ({"query": "x", "options": SearchOptions(kinds=("gossip",))}, ValidationFailed),
        ({"query": "x", "user_id": "ghost"}, NotFound),
    ],
)
def test_bad_requests(acme, kwargs, error):
    with pytest.raises(error):
        search_memories(tenant=acme, **{"user_id": "albert", **kwargs})


@pytest.mark.parametrize("query", ["((((", "a" * 1000, "'\"&|!:*<->", "who founded " + "(" * 70, "\\d+$^"])
def test_hostile_queries_do_not_fail(acme, store, query):
    store(acme, "org:acme", "Something.")

    result = search_memories(tenant=acme, user_id="albert", query=query)

    assert result.degraded == []


def test_a_hub_keeps_its_newest_visible_edges_within_the_walk_budget(acme, store, monkeypatch):
    from graph.models import Entity
    from memories.models import MemoryKind
    from retrieval import selectors
    from retrieval.relational_query import INBOUND, Hop

    monkeypatch.setattr(selectors, "FANOUT", 3)
    texts = [  # distinct texts: near-duplicates would supersede each other
        "Hubco Systems was founded by Ann Ray after she left the navy in 2004.",
        "Ben Cole founded Hubco Systems; he had run a bakery chain in Leeds before.",
        "According to the press kit, Cy Dunn founded Hubco Systems with a loan from his uncle.",
        "Di Fox founded Hubco Systems too, and later wrote a book about sailing.",
        "The archive shows that Ed Gray founded Hubco Systems while studying chemistry in Porto.",
    ]
    stated = [store(acme, "org:acme", text) for text in texts]
    store(acme, "user:bea", "Flo Hart founded Hubco Systems, says her diary.")  # the newest edge, but not albert's
    hubco = Entity.objects.get(tenant=acme, name="Hubco Systems")
    context = selectors.search_context(tenant=acme, user_id="albert", norms=[])

    walk = selectors.relational_walk(
        tenant=acme,
        chain_ids=[node.scope_id for node in context.chain],
        kinds=list(MemoryKind.values),
        seed_ids=[hubco.pk],
        hops=[Hop("founded", INBOUND)],
    )

    assert sorted(edge.memory_id for edge in walk.edges) == [memory.pk for memory in stated[-3:]]
    assert {edge.subject for edge in walk.edges} == {"Cy Dunn", "Di Fox", "Ed Gray"}
    assert set(walk.rows) == {edge.memory_id for edge in walk.edges}


def test_the_vector_arm_skips_dead_nearest_memories_and_still_fills_its_depth(acme, store):
    """Liveness is checked lazily, in distance order, under the arm's LIMIT: the nearest memories that are expired,
    of another kind or superseded are passed over, and the arm still returns ``depth`` live ones, nearest first."""
    from django.db import connection

    from retrieval import selectors

    texts = [
        "Restart the ingest workers after a deploy.",
        "The ingest workers read from the Kafka cluster in Frankfurt.",
        "Deploys happen on Tuesdays and Thursdays.",
        "The billing service runs on the k8s cluster.",
        "On-call engineers get a day off after a night page.",
        "The data warehouse refreshes every night at two.",
        "Quarterly planning starts in the second week of March.",
        "Our design reviews are on Wednesdays.",
    ]
    memories = [store(acme, "org:acme", text) for text in texts]
    assert not any(Memory.objects.get(pk=m.pk).superseded_by_id for m in memories)
    chain = [node.scope_id for node in selectors.search_context(tenant=acme, user_id="albert", norms=[]).chain]
    with connection.cursor() as cursor:  # a query vector equal to one memory's chunk: a known nearest order
        cursor.execute("SELECT embedding::text FROM memories_memorychunk WHERE memory_id = %s", [memories[0].pk])
        vector = [float(x) for x in cursor.fetchone()[0].strip("[]").split(",")]
        cursor.execute(
            "SELECT memory_id FROM memories_memorychunk WHERE memory_id = ANY(%s) ORDER BY embedding <=> %s::vector, "
            "memory_id",
            [[m.pk for m in memories], str(vector)],
        )
        order = list(dict.fromkeys(row[0] for row in cursor.fetchall()))
    expired, policy, superseded = order[0], order[1], order[2]
    Memory.objects.filter(pk=expired).update(expires_at=timezone.now() - timedelta(days=1))
    Memory.objects.filter(pk=policy).update(kind="policy")
    Memory.objects.filter(pk=superseded).update(superseded_by=Memory.objects.get(pk=order[-1]))

    arms = selectors.arm_candidates(tenant=acme, chain_ids=chain, kinds=["fact"], depth=3, query=None, vector=vector)

    assert arms.vector == order[3:6]
