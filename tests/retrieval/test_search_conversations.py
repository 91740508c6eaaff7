"""Conversational recall through the API: a session hit's neighbouring turns (``context_turns``), bounded and
scope-isolated, and the participant weighting (a question naming a speaker lifts that speaker's turns)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from memories.models import Memory, MemoryKind
from tests.api.conftest import error_of
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


SESSIONS = "/api/v1/sessions"
SEARCH = "/api/v1/search"
T0 = 1746178200.0

TURNS = [
    ("Maya", "Morning! Did you sleep at all?"),
    ("Jon", "Barely, the neighbours had a party."),
    ("Maya", "Did you make it to the pottery class in the end?"),
    ("Jon", "I did, yesterday! My bowl came out lopsided."),
    ("Maya", "Lopsided bowls have character."),
    ("Jon", "Right, dinner is burning. Talk soon!"),
    ("Maya", "Bye!"),
]


def _events(turns, *, prefix="e", start=T0):
    return [
        {"id": f"{prefix}{i}", "author": author, "timestamp": start + 60 * i, "text": text}
        for i, (author, text) in enumerate(turns)
    ]


def _ingest(api, turns, *, user_id="albert", session_id="chat-1", prefix="e", start=T0):
    response = api.post(
        SESSIONS,
        {
            "app_name": "companion",
            "user_id": user_id,
            "session_id": session_id,
            "events": _events(turns, prefix=prefix, start=start),
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["memory_ids"]


def _search(api, query, **extra):
    return api.post(SEARCH, {"user_id": "albert", "query": query, "top_k": 3, **extra}, format="json")


def test_a_session_hit_comes_back_with_its_neighbouring_turns_in_order(acme, api):
    ids = _ingest(api, TURNS)

    response = _search(api, "pottery class bowl lopsided", context_turns=2)

    assert response.status_code == 200
    hits = {row["id"]: row for row in response.json()["results"]}
    answer = hits[ids[3]]  # "I did, yesterday! ..."
    assert [turn["id"] for turn in answer["context"]] == [ids[1], ids[2], ids[4], ids[5]]
    assert answer["context"][1] == {
        "id": ids[2],
        "author": "Maya",
        "text": "Did you make it to the pottery class in the end?",
        "timestamp": "2025-05-02T09:32:00Z",
    }
    # bounded: one turn a side
    one = {row["id"]: row for row in _search(api, "pottery class bowl lopsided", context_turns=1).json()["results"]}
    assert [turn["id"] for turn in one[ids[3]]["context"]] == [ids[2], ids[4]]
    # the first turn of a session has no earlier neighbour
    first = _search(api, "did you sleep at all", context_turns=2).json()["results"]
    opening = next(row for row in first if row["id"] == ids[0])
    assert [turn["id"] for turn in opening["context"]] == [ids[1], ids[2]]


def test_without_context_turns_no_context_is_returned(acme, api):
    _ingest(api, TURNS)
    rows = _search(api, "pottery class bowl").json()["results"]
    assert rows and all("context" not in row for row in rows)


def test_a_memory_not_from_a_session_gets_no_context(acme, api):
    response = api.post(
        "/api/v1/memories", {"user_id": "albert", "content": "The pottery studio is on Canal Street."}, format="json"
    )
    assert response.status_code == 201, response.content
    rows = _search(api, "pottery studio canal street", context_turns=2).json()["results"]
    assert rows[0]["content"] == "The pottery studio is on Canal Street."
    assert "context" not in rows[0]


def test_context_never_shows_another_users_private_turns_of_the_same_session_id(acme, api):
    ids = _ingest(api, TURNS[:4])
    # bea (same team) writes turns under the same app and session id at her own user scope
    _ingest(
        api,
        [("Bea", "My secret: the pottery class password is hunter2."), ("Bea", "Also lopsided bowls rule.")],
        user_id="bea",
        prefix="b",
    )
    assert Memory.objects.filter(source_session="chat-1").count() == 6

    rows = _search(api, "pottery class bowl lopsided", context_turns=5).json()["results"]

    seen = {turn["id"] for row in rows for turn in row.get("context", [])} | {row["id"] for row in rows}
    assert seen <= set(ids)
    assert all("hunter2" not in turn["text"] for row in rows for turn in row.get("context", []))


def test_a_superseded_or_deleted_neighbour_is_not_shown(acme, api):
    ids = _ingest(api, TURNS)
    assert api.delete(f"/api/v1/memories/{ids[2]}?user_id=albert").status_code == 200

    rows = {row["id"]: row for row in _search(api, "bowl lopsided yesterday", context_turns=1).json()["results"]}

    assert [turn["id"] for turn in rows[ids[3]]["context"]] == [ids[1], ids[4]]


@pytest.mark.parametrize("bad", [-1, 6, "two"])
def test_out_of_range_context_turns_is_a_400(acme, api, bad):
    response = _search(api, "pottery", context_turns=bad)
    assert response.status_code == 400
    assert "context_turns" in str(error_of(response))


def test_a_question_naming_a_speaker_lifts_that_speakers_turns(acme, api):
    # the same plan said by two people in two sessions: the question names one of them
    ids_maya = _ingest(api, [("Maya", "Booked my trip to Lisbon for the spring.")], session_id="s-maya")
    ids_jon = _ingest(api, [("Jon", "Lisbon in the spring, the trip is booked!")], session_id="s-jon")

    for name, wanted in (("Maya", ids_maya[0]), ("Jon", ids_jon[0])):
        response = api.post(
            SEARCH,
            {"user_id": "albert", "query": f"When is {name} going on the Lisbon trip?", "top_k": 2, "explain": True},
            format="json",
        )
        rows = response.json()["results"]
        assert len(rows) == 2, response.json()
        assert rows[0]["id"] == wanted, name
        assert rows[0]["explain"]["participant"] > 1.0 and rows[1]["explain"]["participant"] == 1.0


WEEKS = 7 * 86400 * 3


def _holiday(api, *, old_speaker="Jon", new_speaker="Jon"):
    """A plan said in one session and changed three weeks later, by the same speaker unless told otherwise; no name
    in either (a name would make the later turn a follow-up of the earlier, below)."""
    (old,) = _ingest(
        api, [(old_speaker, "Flights to the coast are booked for the summer break, I can't wait.")], session_id="s1"
    )
    (new,) = _ingest(
        api, [(new_speaker, "Change of plan for the summer break: the coast is off. The mountains instead.")],
        session_id="s2",
        prefix="f", start=T0 + WEEKS,
    )  # fmt: skip
    return old, new


def _ranked(api, query, **extra):
    response = _search(api, query, explain=True, **extra)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_a_speakers_later_word_on_the_same_thing_ranks_above_the_earlier(acme, api):
    old, new = _holiday(api)

    rows = _ranked(api, "Where are Jon's summer break flights to?")  # the words of the earlier turn

    assert [row["id"] for row in rows][:2] == [new, old]
    assert rows[0]["explain"]["truth"] == f"above memory {old}, said earlier by the same speaker"


def test_a_question_about_the_earlier_state_keeps_the_earlier_turn_first(acme, api):
    old, new = _holiday(api)

    rows = _ranked(api, "Where were Jon's summer break flights to before?")

    assert [row["id"] for row in rows][:2] == [old, new]
    assert "truth" not in rows[1]["explain"]


def test_another_speakers_later_turn_is_not_moved(acme, api):
    old, new = _holiday(api, new_speaker="Maya")

    rows = _ranked(api, "Where are the summer break flights to?")

    assert [row["id"] for row in rows][:2] == [old, new]


def test_memories_not_said_in_a_session_are_not_reordered_by_time(acme, api):
    ids = []
    for text in (
        "Flights to Porto are booked for the summer break.",
        "Change of plan for the summer break: Porto is off.",
    ):
        response = api.post(
            "/api/v1/memories", {"user_id": "albert", "content": text, "scope": "user:albert"}, format="json"
        )
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])

    rows = _ranked(api, "Where are the summer break flights to?")

    assert [row["id"] for row in rows][:2] == ids


def test_a_greeting_turn_is_damped_a_dated_short_reply_and_a_memory_are_not(acme, api):
    greeting, reply, fact = _ingest(
        api,
        [
            ("Maya", "Evening Jon!"),
            ("Jon", "I did, yesterday evening!"),
            ("Jon", "The evening ferry now leaves at six."),
        ],
    )
    response = api.post(
        "/api/v1/memories", {"user_id": "albert", "content": "Evening shift.", "scope": "user:albert"}, format="json"
    )
    assert response.status_code == 201, response.content

    rows = {row["id"]: row["explain"] for row in _ranked(api, "evening", top_k=10)}

    assert rows[greeting]["phatic"] < 1.0  # one content word, undated
    assert rows[reply]["phatic"] == 1.0  # short, but it says when
    assert rows[fact]["phatic"] == 1.0
    assert rows[response.json()["id"]]["phatic"] == 1.0  # not a session turn


def test_a_turn_about_someone_else_is_damped_when_the_question_asks_about_a_speaker(acme, api):
    about_cousin, about_self = _ingest(
        api,
        [
            ("Jon", "My cousin got a new job at the hospital and works every weekend."),
            ("Jon", "I work at the bakery now, early shifts."),
        ],
    )

    ranked = _ranked(api, "Where does Jon work now?", top_k=10)
    rows = {row["id"]: row["explain"] for row in ranked}
    assert rows[about_cousin]["third_party"] < 1.0 and rows[about_self]["third_party"] == 1.0
    assert [row["id"] for row in ranked][:2] == [about_self, about_cousin]

    # a question about the relation, or one naming no participant, damps nothing
    for query in ("Where does Jon's cousin work now?", "who works every weekend?"):
        rows = {row["id"]: row["explain"] for row in _ranked(api, query, top_k=10)}
        assert rows[about_cousin]["third_party"] == 1.0, query


def test_a_pool_of_session_turns_fuses_by_score_and_a_pool_of_memories_by_rank(acme, api):
    _ingest(api, [("Jon", "The harbour ferry timetable changed."), ("Maya", "Which harbour ferry?")])
    turns = _ranked(api, "harbour ferry timetable")
    assert turns and all(row["explain"]["text_score"] is not None for row in turns)

    for text in ("The harbour ferry timetable is online.", "Harbour ferry tickets are cheaper online."):
        response = api.post(
            "/api/v1/memories", {"user_id": "albert", "content": text, "scope": "team:platform"}, format="json"
        )
        assert response.status_code == 201, response.content
        response = api.post(
            "/api/v1/memories",
            {"user_id": "albert", "content": text + " Really.", "scope": "user:albert"},
            format="json",
        )
        assert response.status_code == 201, response.content
    pages = _ranked(api, "harbour ferry timetable", top_k=10)  # four memories, two turns: fused by rank
    assert all(row["explain"]["text_score"] is None for row in pages)


def _plan_changed(api, *, user_id="albert", speaker="Jon", later_by=None):
    """A plan said in one session and, three weeks later in another, changed without the question's words."""
    (old,) = _ingest(
        api, [(speaker, "Flights to Porto are booked for the summer break.")], user_id=user_id, session_id="p1"
    )
    (new,) = _ingest(
        api, [(later_by or speaker, "Change of plan: Porto is off, we're doing Lyon instead.")], user_id=user_id,
        session_id="p2", prefix="g", start=T0 + WEEKS,
    )  # fmt: skip
    return old, new


def test_what_the_speaker_said_next_about_the_same_name_comes_with_the_earlier_turn(acme, api):
    old, new = _plan_changed(api)

    rows = _ranked(api, "Where are Jon's summer break flights to?")  # no word of the later turn but the name

    assert [row["id"] for row in rows][:2] == [new, old]
    assert rows[0]["explain"]["follows"] == old


def test_a_name_introduced_by_apposition_is_followed_to_what_the_speaker_said_of_it_later(acme, api):
    """ "Bilal, my brother." starts its sentence with the name: taken as one because a relation noun is in
    apposition to it, so the speaker's later turn about Bilal comes with it."""
    (introduced,) = _ingest(api, [("Yara", "Bilal, my brother. We talk every Sunday.")], session_id="b1")
    (later,) = _ingest(
        api, [("Yara", "Bilal passed the final assessment, so it's official: barrister!")], session_id="b2",
        prefix="h", start=T0 + WEEKS,
    )  # fmt: skip
    _assert_follows(_ranked(api, "What is Yara's brother's job?", top_k=5), later, introduced)


def _assert_follows(rows, later, hit):
    """``later`` is on the page just above ``hit``, as its follow-up."""
    ids = [row["id"] for row in rows]
    assert later in ids and ids.index(later) == ids.index(hit) - 1, ids
    assert rows[ids.index(later)]["explain"]["follows"] == hit


def test_a_name_that_opens_its_sentence_is_followed_when_the_turns_use_it_as_a_name(
    acme, api, django_capture_on_commit_callbacks
):
    """ "Lisbon in August, …" starts its sentence with the name; the speaker's turns use "Lisbon" as a name inside a
    sentence too, so it is one: the first thing the speaker said of Lisbon later comes with the old plan — not the
    latest mention, a passing remark about someone else."""
    with django_capture_on_commit_callbacks(execute=True):  # the turns' embeddings
        (old,) = _ingest(api, [("Sofia", "Lisbon in August, we've rented a little place.")], session_id="l1")
        (new,) = _ingest(
            api, [("Sofia", "Change of plan: Lisbon is off, the airline cancelled. We're doing Ljubljana instead.")],
            session_id="l2", prefix="g", start=T0 + WEEKS,
        )  # fmt: skip
        _ingest(
            api, [("Sofia", "Our babysitter moved to Lisbon last year and won't stop posting about it.")],
            session_id="l3", prefix="h", start=T0 + 2 * WEEKS,
        )  # fmt: skip

    _assert_follows(_ranked(api, "Where is Sofia going on holiday?", top_k=5), new, old)


def test_a_sentence_opening_word_is_not_followed_when_nothing_uses_it_as_a_name(
    acme, api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        (old,) = _ingest(api, [("Sofia", "Flights in August, we've rented a little place.")], session_id="l1")
        _ingest(
            api, [("Sofia", "Cheap flights are gone, the airline cancelled.")], session_id="l2", prefix="g",
            start=T0 + WEEKS,
        )  # fmt: skip

    rows = _ranked(api, "Where is Sofia going on holiday?", top_k=5)

    assert old in [row["id"] for row in rows]
    assert not any(row["explain"].get("follows") for row in rows)


def test_no_follow_up_for_a_question_about_the_past_or_from_another_speaker(acme, api):
    old, new = _plan_changed(api, later_by="Maya")

    assert new not in [row["id"] for row in _ranked(api, "Where are Jon's summer break flights to?")]
    assert new not in [row["id"] for row in _ranked(api, "Where were Jon's summer break flights to before?")]


def test_a_follow_up_is_never_another_users_or_another_tenants_turn(acme, globex, api):
    (old,) = _ingest(api, [("Jon", "Flights to Porto are booked for the summer break.")], session_id="p1")
    (bea_new,) = _ingest(
        api, [("Jon", "Change of plan: Porto is off, we're doing Lyon instead.")], user_id="bea", session_id="p2",
        prefix="g", start=T0 + WEEKS,
    )  # fmt: skip
    other = ApiKeyFactory(tenant=globex, permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {other.plain}")
    response = client.post(
        SESSIONS,
        {"app_name": "companion", "user_id": "albert", "session_id": "p2",
         "events": _events([("Jon", "Change of plan: Porto is off, Nice instead.")], prefix="h", start=T0 + WEEKS)},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    globex_new = response.json()["memory_ids"][0]

    ids = [row["id"] for row in _ranked(api, "Where are Jon's summer break flights to?", top_k=10)]

    assert old in ids and bea_new not in ids and globex_new not in ids


def test_as_of_before_the_later_turn_was_said_there_is_no_follow_up(acme, api):
    old, new = _plan_changed(api)
    later = Memory.objects.get(pk=new)
    Memory.objects.filter(pk=new).update(created_at=later.created_at.replace(year=2100))  # recorded in the future

    rows = _ranked(api, "Where are Jon's summer break flights to?", as_of="2099-01-01T00:00:00Z")

    assert old in [row["id"] for row in rows] and new not in [row["id"] for row in rows]


def test_as_of_a_hits_context_is_the_session_as_it_stood_then(acme, api):
    ids = _ingest(api, TURNS[:4])  # up to "I did, yesterday! My bowl came out lopsided."
    (late,) = _ingest(api, [("Jon", "Update: the bowl survived the kiln.")], prefix="z", start=T0 + 600)
    Memory.objects.filter(pk=late).update(created_at=Memory.objects.get(pk=late).created_at.replace(year=2100))
    query, extra = "pottery class bowl lopsided", {"context_turns": 3, "top_k": 10}

    now = {row["id"]: row for row in _search(api, query, **extra).json()["results"]}
    then = {row["id"]: row for row in _search(api, query, as_of="2099-01-01T00:00:00Z", **extra).json()["results"]}

    assert late in [turn["id"] for turn in now[ids[3]]["context"]]  # recorded in 2100: in today's context
    assert ids[3] in then and late not in [turn["id"] for turn in then[ids[3]]["context"]]
    assert ids[2] in [turn["id"] for turn in then[ids[3]]["context"]]


NEW_JOB = [
    ("Jon", "The new place on the corner is treating everyone to free coffee."),
    ("Jon", "A new place opened near the station, they are treating it like a club."),
    ("Jon", "That new place keeps treating its regulars to cake."),
    ("Maya", "The new place downstairs is treating us to loud music every night."),
    ("Maya", "How's the new place treating you?"),
    ("Jon", "Ashby & Crane is calmer than I expected, nobody emails after six."),
]


def _around(acme, hits, *, user_id="albert", as_of=None, words=None, **asked):
    """What the load statement brings around ``hits`` for ``user_id``'s chain (``words``: the names to follow;
    ``asked``: the other FollowUps fields — ``reply_to``/``repliers``, ``introduced``, ``relatives``): each kind of
    turn it brought (turn id → its hit id), and the rows loaded."""
    from memories.selectors.tenancy import scope_chain_for
    from retrieval import selectors

    chain = [scope.pk for scope in scope_chain_for(tenant=acme, user_id=user_id)]
    follow = selectors.FollowUps(words or {}, chain, list(MemoryKind.values), as_of, **asked)
    loaded = selectors.memories_load(tenant=acme, ids=hits, follow=follow, as_of=as_of)
    return {
        "answers": loaded.answers,
        "introductions": loaded.introductions,
        "followed": loaded.followed,
        "loaded": loaded.memories,
    }


def _replies(acme, hits, repliers, **where):
    """The replies (reply id → question id) to ``hits`` by one of ``repliers``, and the rows loaded."""
    found = _around(acme, hits, reply_to=hits, repliers=repliers, **where)
    return found["answers"], found["loaded"]


def test_the_load_statement_brings_the_reply_to_a_question_put_to_a_named_speaker(acme, api):
    ids = _ingest(api, NEW_JOB)
    question, reply = ids[4], ids[5]

    answers, loaded = _replies(acme, [question], ["jon"])

    assert answers == {reply: question} and reply in loaded
    assert _replies(acme, [question], ["jon smith", "maya"])[0] == {}  # the next turn is not theirs
    assert _replies(acme, [ids[3]], ["jon"])[0] == {}  # the next turn is Maya's own


def test_no_reply_is_brought_for_a_question_the_person_asked_about_put_to_someone_else(
    acme, api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _ingest(api, NEW_JOB)

    rows = _ranked(api, "How's the new place treating Maya?", top_k=5)  # Maya asked it: Jon's reply is his

    assert not any(row["explain"].get("answers") for row in rows)


def test_a_reply_is_never_another_users_turn(acme, api):
    ids = _ingest(api, NEW_JOB[:5])  # albert's session ends with the question
    (other,) = _ingest(api, NEW_JOB[5:], user_id="bea", prefix="b")  # the same session id, bea's scope

    answers, loaded = _replies(acme, [ids[4]], ["jon"])

    assert answers == {} and other not in loaded


def test_as_of_before_the_reply_was_recorded_there_is_no_reply(acme, api):
    ids = _ingest(api, NEW_JOB)
    reply = Memory.objects.get(pk=ids[5])
    Memory.objects.filter(pk=reply.pk).update(created_at=reply.created_at.replace(year=2100))  # recorded later

    assert _replies(acme, [ids[4]], ["jon"], as_of=datetime(2099, 1, 1, tzinfo=UTC))[0] == {}
    assert _replies(acme, [ids[4]], ["jon"], as_of=datetime(2101, 1, 1, tzinfo=UTC))[0] == {ids[5]: ids[4]}


def _introductions(acme, hits, words, **where):
    """The turns that introduced ``words`` (hit id → names) of ``hits``: turn id → hit id."""
    return _around(acme, hits, introduced=words, **where)["introductions"]


def test_the_load_statement_brings_the_turn_that_introduced_a_name(acme, api):
    (named,) = _ingest(api, [("Ines", "The kids settled on Biscuit. It suits the little menace.")], session_id="n1")
    _ingest(api, [("Maya", "Biscuit is such a good name.")], session_id="n2", prefix="m", start=T0 + WEEKS)
    (hit,) = _ingest(
        api, [("Ines", "Biscuit cut a paw on broken glass. We spent the night at the emergency vet.")],
        session_id="n3", prefix="g", start=T0 + 2 * WEEKS,
    )  # fmt: skip
    _ingest(api, [("Ines", "Biscuit is fine now.")], session_id="n4", prefix="h", start=T0 + 3 * WEEKS)

    # the speaker's own first earlier mention: not another speaker's, not a later one
    assert _introductions(acme, [hit], {hit: ["Biscuit"]}) == {named: hit}
    assert _introductions(acme, [named], {named: ["Biscuit"]}) == {}
    assert _introductions(acme, [hit], {hit: ["Biscuit"]}, user_id="bea") == {}  # not on bea's chain
    assert _introductions(acme, [hit], {hit: ["Biscuit"]}, as_of=datetime(2000, 1, 1, tzinfo=UTC)) == {}


def test_a_name_introduced_earlier_comes_below_the_hit_that_uses_it(acme, api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        (named,) = _ingest(api, [("Ines", "The kids settled on Biscuit. It suits the little menace.")], session_id="n1")
        _ingest(
            api,
            [("Ines", "What a health scare at work today, the fire alarm went off."),
             ("Ines", "My pet theory: the health inspector hates us."),
             ("Ines", "Pet insurance is a scam, honestly, a health plan for a hamster."),
             ("Ines", "Did you have a scare with the pet shop too?")],
            session_id="n2", prefix="m", start=T0 + WEEKS,
        )  # fmt: skip
        (hit,) = _ingest(
            api, [("Ines", "Biscuit cut a paw on broken glass. We spent the night at the emergency vet.")],
            session_id="n3", prefix="g", start=T0 + 2 * WEEKS,
        )  # fmt: skip

    rows = _ranked(api, "What health scare did Ines's pet have?", top_k=5)
    ids = [row["id"] for row in rows]

    assert hit in ids and named in ids and ids.index(named) == ids.index(hit) + 1, ids
    assert rows[ids.index(named)]["explain"]["introduced"] == hit


def _globex_session(globex, turns, *, session_id, prefix, start=T0):
    """``turns`` ingested in the other tenant, for its own user "albert": the ids stored."""
    other = ApiKeyFactory(tenant=globex, permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {other.plain}")
    response = client.post(
        SESSIONS,
        {"app_name": "companion", "user_id": "albert", "session_id": session_id,
         "events": _events(turns, prefix=prefix, start=start)},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    return response.json()["memory_ids"]


def test_an_introduction_or_a_reply_is_never_another_tenants_turn(acme, globex, api):
    (globex_named,) = _globex_session(
        globex, [("Ines", "The kids settled on Biscuit. It suits the little menace.")], session_id="n1", prefix="x"
    )
    (hit,) = _ingest(
        api, [("Ines", "Biscuit cut a paw on broken glass.")], session_id="n3", prefix="g", start=T0 + WEEKS
    )
    question = _ingest(api, NEW_JOB[:5], session_id="chat-9", prefix="q")[4]
    (globex_reply,) = _globex_session(globex, NEW_JOB[5:], session_id="chat-9", prefix="y", start=T0 + 3600)

    assert _introductions(acme, [hit], {hit: ["Biscuit"]}) == {}
    answers, loaded = _replies(acme, [question], ["jon"])
    assert answers == {} and globex_named not in loaded and globex_reply not in loaded


SISTER = [("Zoe", "Carmen, my little sister, turned thirty on Sunday. Dim sum to celebrate.")]
ASKED_ABOUT_HER = [
    ("Maya", "How's Carmen getting on?"),
    ("Zoe", "Loving it. Being a midwife was always the dream."),
]


def _followed(acme, hits, words, *, relatives=(), **where):
    """The follow-ups (turn id → hit id) the load statement brings for ``hits`` (``words``: hit id → names)."""
    return _around(acme, hits, words=words, relatives=frozenset(relatives), **where)["followed"]


def test_a_relatives_follow_up_is_the_speakers_reply_to_what_someone_else_asked_about_them(acme, api):
    (intro,) = _ingest(api, SISTER, session_id="s1")
    question, reply = _ingest(api, ASKED_ABOUT_HER, session_id="s2", prefix="q", start=T0 + WEEKS)
    words = {intro: ["Carmen"]}

    assert _followed(acme, [intro], words, relatives=[intro]) == {reply: intro}
    assert _followed(acme, [intro], words) == {}  # other names are followed to the speaker's own turns only
    assert _followed(acme, [intro], words, relatives=[intro], user_id="bea") == {}  # not on bea's chain
    assert _followed(acme, [intro], words, relatives=[intro], as_of=datetime(2000, 1, 1, tzinfo=UTC)) == {}


def test_no_relatives_follow_up_when_the_reply_is_someone_elses(acme, api):
    (intro,) = _ingest(api, SISTER, session_id="s1")
    _ingest(api, [*ASKED_ABOUT_HER[:1], ("Maya", "Sorry, wrong chat.")], session_id="s2", prefix="q", start=T0 + WEEKS)

    assert _followed(acme, [intro], {intro: ["Carmen"]}, relatives=[intro]) == {}


def test_a_question_about_a_relation_brings_the_reply_to_what_someone_else_asked_about_them(
    acme, api, django_capture_on_commit_callbacks
):
    """ "What did Zoe's sister qualify as?": the page turn that says who the sister is ("Carmen, my little sister")
    is followed to Zoe's reply to "How's Carmen getting on?" — which shares no word with the question. A question
    about a day (a date window) that names no relation follows nothing."""
    with django_capture_on_commit_callbacks(execute=True):
        (intro,) = _ingest(api, SISTER, session_id="s1")
        _, reply = _ingest(api, ASKED_ABOUT_HER, session_id="s2", prefix="q", start=T0 + WEEKS)

    _assert_follows(_ranked(api, "What did Zoe's sister qualify as?", top_k=5), reply, intro)
    assert not any(row["explain"].get("follows") for row in _ranked(api, "What did Zoe do on Sunday?", top_k=5))
