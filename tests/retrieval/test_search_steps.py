"""The conversational and truth steps (retrieval.conversation) as the ORGMEMORY_SEARCH_STEPS setting lists them:
each can be switched off alone — the rest of the page is what it was —, and a name no step has is a configuration
error, at start-up and at search time alike, never a step silently skipped."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.utils import timezone

from retrieval.conversation import STEPS, Page, search_steps, steps_named
from retrieval.conversation.page import run
from retrieval.conversation.turns import turn_names
from retrieval.ranking import Candidate, Ranked
from retrieval.selectors import RankingRow
from retrieval.services import search_memories
from tests.retrieval.test_search_conversations import T0, WEEKS, _ingest, _ranked

ALL = tuple(step.name for step in STEPS)
T0_DT = datetime(2025, 5, 1, tzinfo=UTC)
# what each weighing step sets in a result's explain; the factor is 1.0 without it
WEIGHTS = {"participants": "participant", "third_party": "third_party", "phatic": "phatic"}
# what each other step writes in explain: the turn it attached, or how it moved the hit
OWN_KEYS = {
    "introductions": {"introduced"},
    "follow_ups": {"follows"},
    "replies": {"answers"},
    "exchanges": {"prompted"},
    "truth": {"curated", "truth"},
    "later_statements": {"truth"},
}
# what ranking computed before any step weighed a candidate
RANKING_KEYS = ("ranks", "rrf", "rrf_norm", "cosine", "base", "vector_factor", "tier", "text_score", "date_window")


# --- the setting ---------------------------------------------------------------------------------------------------


def test_the_default_setting_runs_every_step_once_in_the_documented_order():
    assert tuple(settings.ORGMEMORY_SEARCH_STEPS) == ALL
    assert search_steps() == STEPS


def test_the_setting_decides_which_steps_run_and_in_what_order():
    with override_settings(ORGMEMORY_SEARCH_STEPS=("later_statements", "participants")):
        assert [step.name for step in search_steps()] == ["later_statements", "participants"]
    with override_settings(ORGMEMORY_SEARCH_STEPS=()):
        assert search_steps() == ()


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("participants", "follow-ups"), "'follow-ups'"),
        (("truth", "truth"), "'truth' more than once"),
        ("truth", "must list step names"),
    ],
)
def test_an_unknown_repeated_or_unlisted_step_is_a_configuration_error(names, said):
    with pytest.raises(ImproperlyConfigured, match=said):
        steps_named(names)


def test_an_unknown_step_stops_start_up():
    with override_settings(ORGMEMORY_SEARCH_STEPS=(*ALL, "speakers")):
        with pytest.raises(ImproperlyConfigured, match="'speakers'"):
            apps.get_app_config("retrieval").ready()


@pytest.mark.django_db
def test_an_unknown_step_fails_the_search_instead_of_being_skipped(acme, api):
    _ingest(api, [("Jon", "Flights to Porto are booked for the summer break.")])
    with override_settings(ORGMEMORY_SEARCH_STEPS=("follow_up",)):
        with pytest.raises(ImproperlyConfigured, match="'follow_up'"):
            search_memories(tenant=acme, user_id="albert", query="Where are Jon's summer break flights to?")


# --- each step writes only its own part of the page --------------------------------------------------------------


def _row(speaker: str, text: str | None, *, words: int | None = 5) -> RankingRow:
    return RankingRow("", "", T0_DT, 1, speaker=speaker, turn_words=words if text else None, turn_text=text)


# which fields of the page each point of a step may change (the rest belongs to other steps or the search)
MAY_CHANGE = {
    "participants": {"participants"},
    "third_party": {"third_party"},
    "phatic": {"config"},
    "introductions": {"introduced", "ranked"},
    "follow_ups": {"follow_ups", "relatives", "ranked"},
    "replies": {"reply_to", "ranked"},
    "exchanges": {"prompted", "ranked"},
}


def _page() -> Page:
    rows = {
        1: _row("Jon", "Flights to Porto are booked for the summer break."),
        2: _row("Maya", "How's the new place treating you, Jon?"),
        3: _row("Jon", "My cousin Bea moved to Porto, she loves it."),
        4: _row("Maya", "Evening Jon!", words=1),
        5: _row("Jon", "Next Thursday.", words=None),
        6: _row("", None),  # a note, not a turn
    }
    ranked = [Ranked(memory_id, 1.0 - memory_id / 10, {}) for memory_id in rows]
    candidates = {
        memory_id: Candidate(memory_id, "", "user", "", T0_DT, turn_words=row.turn_words)
        for memory_id, row in rows.items()
    }
    page = Page(
        query="Where is Jon flying to?",
        top_k=6,
        rows=rows,
        speakers=("jon",),
        current=True,
        dates=True,
        candidates=candidates,
        ranked=ranked,
        names=turn_names(ranked, rows),
    )
    # what the load statement would have read for each step: one turn (7) for hit 1, a reply (8) to hit 2, the
    # question (10) hit 5 answers …
    return replace(page, followed={7: 1}, introductions={9: 3}, answers={8: 2}, prompts={10: 5}, loaded={})


@pytest.mark.parametrize("name", sorted(MAY_CHANGE))
def test_each_step_changes_only_its_own_part_of_the_page(name, monkeypatch):
    import retrieval.conversation.turns as turns

    monkeypatch.setattr(turns, "first_news", lambda ranked, followed, loaded: dict(followed))
    (step,) = steps_named([name])
    page = _page()
    after = page
    for point in ("weigh", "ask", "attach"):
        after = run([step], point, after)
    changed = {field.name for field in fields(Page) if getattr(after, field.name) != getattr(page, field.name)}
    assert changed and changed <= MAY_CHANGE[name], changed


# --- switched off alone, through the search -------------------------------------------------------------------------


def _conversation(api):
    """A plan said, then changed three weeks later (a follow-up, a later word), beside a greeting and a remark about
    someone else by the same speaker."""
    (old,) = _ingest(api, [("Jon", "Flights to Porto are booked for the summer break.")], session_id="p1")
    _ingest(
        api,
        [("Maya", "Evening Jon!"), ("Jon", "My cousin flew to Lisbon for the summer break and loved the flights.")],
        session_id="p0",
        prefix="c",
    )
    (new,) = _ingest(
        api,
        [("Jon", "Change of plan: Porto is off, we're doing Lyon instead.")],
        session_id="p2",
        prefix="g",
        start=T0 + WEEKS,
    )
    return old, new


def _page_of(api, steps):
    with override_settings(ORGMEMORY_SEARCH_STEPS=steps):
        rows = _ranked(api, "Where are Jon's summer break flights to? Evening flights?", top_k=10)
    return {row["id"]: row["explain"] for row in rows}, [row["id"] for row in rows]


@pytest.mark.django_db
def test_each_step_switched_off_alone_leaves_the_rest_of_the_page_as_it_was(acme, api, monkeypatch):
    old, new = _conversation(api)
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # the same recency in every search
    everything, order = _page_of(api, ALL)
    # the steps act on this page: a follow-up is attached, the speaker is lifted, a greeting and a remark damped
    assert everything[new]["follows"] == old and order.index(new) == order.index(old) - 1
    # (a turn attached from outside the candidates was not ranked: it has no factors)
    assert {explain.get("participant", 1.0) for explain in everything.values()} > {1.0}
    assert min(explain.get("phatic", 1.0) for explain in everything.values()) < 1.0
    assert min(explain.get("third_party", 1.0) for explain in everything.values()) < 1.0

    for name in ALL:
        without, _ = _page_of(api, tuple(step for step in ALL if step != name))
        common = everything.keys() & without.keys()
        assert common, name
        if name in WEIGHTS:
            # its factor is gone; what ranking computed and the other steps' factors are as they were
            kept = (*RANKING_KEYS, *(key for other, key in WEIGHTS.items() if other != name))
            assert {explain.get(WEIGHTS[name], 1.0) for explain in without.values()} == {1.0}, name
            for memory_id in common:
                assert [without[memory_id].get(k) for k in kept] == [everything[memory_id].get(k) for k in kept], name
        else:
            # every hit's explain is what it was but for what this step writes (and how the order steps then moved
            # the hits of a page arranged differently)
            ignored = OWN_KEYS[name] | {"truth"}
            for memory_id in common:
                assert {k: v for k, v in without[memory_id].items() if k not in ignored} == {
                    k: v for k, v in everything[memory_id].items() if k not in ignored
                }, name
            assert not any((OWN_KEYS[name] - {"truth"}) & explain.keys() for explain in without.values()), name


def test_a_word_of_a_name_of_several_that_the_chat_also_writes_in_lower_case_names_nothing():
    rows = {
        1: _row("Ilona", "Got the job: nurse at Kestle Valley Hospital from June!"),
        2: _row("Bence", "Is the hospital canteen any good?"),
        3: _row("Ilona", "The Zirc Lake walk was lovely."),
    }
    ranked = [Ranked(memory_id, 1.0 - memory_id / 10, {}) for memory_id in rows]
    names = turn_names(ranked, rows)
    # "Hospital" is written as an ordinary word by another turn: only the name's own words are followed
    assert names[1] == ["Kestle", "Valley"]
    # nobody writes "lake" or "walk" in lower case: every word of the name still counts
    assert names[3] == ["Zirc", "Lake"]
