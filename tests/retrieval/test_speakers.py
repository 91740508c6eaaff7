"""A question naming someone who speaks in the caller's sessions: the vector arm embeds it without that name
(retrieval.speakers); which names are speakers is read by the context statement, within the caller's visibility."""

from __future__ import annotations

import pytest
from django.db import connection

from retrieval import selectors
from retrieval.speakers import without_speakers

SESSIONS = "/api/v1/sessions"
SEARCH = "/api/v1/search"
T0 = 1746178200.0


@pytest.mark.parametrize(
    ("text", "speakers", "expected"),
    [
        ("What is Pavel's job?", ["pavel"], "What is someone's job?"),
        ("what is pavel’s job", ["pavel"], "what is someone’s job"),
        ("When did Dana Smith and Dana go?", ["dana smith", "dana"], "When did someone and someone go?"),
        ("Where does Pavelina live?", ["pavel"], "Where does Pavelina live?"),  # whole words only
        ("Where does Pavel live?", [], "Where does Pavel live?"),
        ("Who founded Acme?", ["dana"], "Who founded Acme?"),
        ("Is P.avel here?", ["p.avel", ""], "Is someone here?"),  # a name is matched as written, never as a pattern
        ("Is Pxavel here?", ["p.avel"], "Is Pxavel here?"),
    ],
)
def test_the_question_without_its_speakers(text, speakers, expected):
    assert without_speakers(text, speakers) == expected


def _ingest(api, turns, *, user_id="albert", session_id="chat-1"):
    events = [
        {"id": f"{session_id}-{i}", "author": author, "timestamp": T0 + 60 * i, "text": text}
        for i, (author, text) in enumerate(turns)
    ]
    response = api.post(
        SESSIONS,
        {"app_name": "companion", "user_id": user_id, "session_id": session_id, "events": events},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["memory_ids"]


def _speakers(tenant, user_id, names):
    return selectors.search_context(tenant=tenant, user_id=user_id, norms=[], speaker_norms=names).speakers


@pytest.mark.django_db
def test_the_context_names_the_speakers_the_caller_can_see(acme, globex, api):
    _ingest(api, [("Pavel", "Tidewater Studios. I'm a sound engineer there."), ("Mei", "Nice!")])
    _ingest(api, [("Ines", "My private chat.")], user_id="bea", session_id="chat-bea")

    assert _speakers(acme, "albert", ["pavel", "mei", "ines", "tidewater studios"]) == ["mei", "pavel"]
    assert _speakers(acme, "bea", ["pavel", "ines"]) == ["ines"]  # albert's private session is not bea's
    assert _speakers(globex, "carol", ["pavel", "mei"]) == []  # another tenant


@pytest.mark.django_db
def test_a_speaker_is_found_by_whole_name_or_by_first_name(acme, api):
    _ingest(api, [("Dana Smith", "I moved to Leeds in May."), ("Jo", "Nice!")])

    assert _speakers(acme, "albert", ["dana smith", "dana", "smith", "jo"]) == ["dana", "dana smith", "jo"]
    assert _speakers(acme, "albert", ["dana lee"]) == []  # a two-word name is matched whole only


@pytest.mark.django_db
def test_a_deleted_turn_no_longer_makes_its_author_a_speaker(acme, api):
    (memory_id,) = _ingest(api, [("Pavel", "Tidewater Studios. I'm a sound engineer there.")])
    assert _speakers(acme, "albert", ["pavel"]) == ["pavel"]

    assert api.delete(f"/api/v1/memories/{memory_id}?user_id=albert").status_code == 200
    assert _speakers(acme, "albert", ["pavel"]) == []


@pytest.mark.django_db
def test_the_speaker_lookup_reads_the_speaker_key_index(acme, api):
    """One index key holds the tenant and the name: a tenant the statistics do not know cannot turn the lookup
    into a scan of its memories. (A few hundred turns and fresh statistics, so that the plan is a real choice.)"""
    for session in range(4):
        turns = [(f"Speaker{n % 30}", f"Turn {n} of session {session} about topic {n * 7 % 13}.") for n in range(80)]
        _ingest(api, turns, session_id=f"chat-{session}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    params = selectors.context_params(tenant_id=acme.pk, user_id="albert", speaker_norms=["speaker7", "pavel"])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN (COSTS OFF) " + selectors._CONTEXT_SQL, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "memory_speaker_key" in plan and "memory_speaker_first_key" in plan, plan


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Pavel", "Jean-Luc"])  # a hyphen: looked up as written (spoken_forms)
def test_a_question_naming_a_speaker_finds_what_they_said_not_the_greetings_to_them(
    acme, api, django_capture_on_commit_callbacks, name
):
    said_text = "Tidewater Studios. I'm a sound engineer there, three years in September."
    greetings = [f"Evening {name}!", f"Hi {name}, how was your day?"]
    with django_capture_on_commit_callbacks(execute=True):  # the turns' embeddings
        _ingest(api, [*(("Mei", text) for text in greetings), (name, said_text)])
    response = api.post(
        SEARCH,
        {"user_id": "albert", "query": f"What is {name}'s job?", "top_k": 3, "arms": ["vector"], "explain": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    cosines = {row["content"]: row["explain"]["cosine"] for row in response.json()["results"]}
    # embedded with the name, the question is nearest to the greetings (Pavel: 0.60 and 0.47 against 0.02)
    assert all(cosines[said_text] > cosines[greeting] for greeting in greetings), cosines


@pytest.mark.django_db
def test_a_name_with_an_apostrophe_or_a_hyphen_is_found_as_the_question_writes_it(acme, api):
    """The speaker's name is stored as written ("Niamh O'Brien", "Jean-Luc"); the question's names are looked up
    in that form, not in the entity normalisation that drops apostrophes and splits hyphens."""
    from retrieval.relational_query import mention_candidates, partial_candidates, spoken_forms, tokenize

    _ingest(
        api,
        [("Niamh O'Brien", "Tidewater Studios. I'm a sound engineer there."), ("Jean-Luc", "Nice!"),
         ("Siobhán O’Neill", "Same here.")],
    )  # fmt: skip

    for question, spoken, speaking in (
        (
            "What is Niamh O'Brien's job?",
            ["niamh o'brien", "niamh o’brien", "niamh", "o'brien", "o’brien"],
            ["niamh", "niamh o'brien"],
        ),
        ("What does Jean-Luc do these days?", ["jean-luc"], ["jean-luc"]),
        # stored with the curly apostrophe, asked with the straight one
        ("Where does Siobhán O'Neill work?", ["siobhán o'neill", "siobhán o’neill", "siobhán", "o'neill", "o’neill"],
         ["siobhán", "siobhán o’neill"]),
    ):  # fmt: skip
        tokens = tokenize(question)
        spans = mention_candidates(tokens)
        forms = spoken_forms(partial_candidates(question, tokens, spans), tokens, spans)
        assert forms == spoken
        found = _speakers(acme, "albert", forms)
        assert found == speaking, found
        said = without_speakers(question, found).casefold().replace("’", "'")
        assert "someone" in said and speaking[-1].replace("’", "'") not in said, said


def test_an_apostrophe_in_a_speakers_name_matches_either_way_it_is_typed():
    assert without_speakers("What is O’Brien’s job?", ["o'brien"]) == "What is someone’s job?"
    assert without_speakers("What is O'Brien's job?", ["o’brien"]) == "What is someone's job?"
    assert without_speakers("What is OBrien's job?", ["o'brien"]) == "What is OBrien's job?"


@pytest.mark.parametrize(
    ("question", "looked_up"),
    [
        # a month in a date phrase is no speaker called May; as a name inside the sentence it is
        ("What did Mei get up to in May 2025?", ["mei", "2025"]),
        ("What did Mei do on 3 May?", ["mei"]),
        ("What is May's job?", ["may"]),
        ("What did May say about the choir?", ["may"]),
        # the question's first word is capitalised as every first word is: "Will" asks, it names nobody
        ("Will Ravi move to Leeds?", ["ravi", "leeds"]),
        ("What does Will do these days?", ["will"]),
        # a lower-case question: an ordinary word is never a name, other words may be
        ("will ravi move to leeds", ["ravi move", "ravi", "move to leeds", "move", "leeds"]),
        ("what did mei do in may", ["mei"]),
        # a longer name keeps its ordinary word
        ("Where does May Chen live?", ["may chen", "may", "chen"]),
    ],
)
def test_names_that_are_ordinary_words_are_looked_up_only_where_written_as_names(question, looked_up):
    from retrieval.relational_query import mention_candidates, partial_candidates, spoken_forms, tokenize
    from retrieval.speakers import not_written_as_names, written_as_names

    tokens = tokenize(question)
    spans = mention_candidates(tokens)
    unnamed = not_written_as_names(question, tokens)
    names = written_as_names(partial_candidates(question, tokens, spans), tokens, spans, unnamed)

    assert spoken_forms(names, tokens, spans) == looked_up


@pytest.mark.django_db
def test_a_speaker_called_may_does_not_claim_a_question_about_the_month(acme, api, django_capture_on_commit_callbacks):
    """A speaker named May: "What did Mei get up to in May 2025?" is about the month, so the vector arm embeds it as
    written (not "… in someone 2025") and the turns May said are not weighted as the named participant's."""
    with django_capture_on_commit_callbacks(execute=True):
        _ingest(api, [("May", "I finally signed up for the pottery course."), ("Mei", "Ran the Leeds half in May.")])

    response = api.post(
        SEARCH,
        {"user_id": "albert", "query": "What did Mei get up to in May 2025?", "top_k": 2, "explain": True},
        format="json",
    )

    assert response.status_code == 200, response.content
    weights = {row["content"]: row["explain"]["participant"] for row in response.json()["results"]}
    assert weights["Ran the Leeds half in May."] > 1.0 == weights["I finally signed up for the pottery course."]
    assert _speakers(acme, "albert", ["mei", "may"]) == ["may", "mei"]  # both speak: the question decides
