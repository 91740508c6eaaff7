"""The ``exchanges`` step (retrieval.conversation.exchanges): the question a hit answers, read by the load statement
beside the hits, comes up under it — where it goes on the page (pure), what the load statement brings (a turn asked by
someone else just before the hit, visible to the caller) and the two together through the search."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import override_settings

from memories.models import Memory, MemoryKind
from retrieval.conversation.exchanges import statements, with_prompts
from retrieval.ranking import Ranked, RankingConfig
from retrieval.selectors import RankingRow
from tests.retrieval.test_search_conversations import T0, _ingest, _ranked

T0_DT = datetime(2025, 5, 1, tzinfo=UTC)


# --- pure: which hits ask for their question, and where it goes ------------------------------------------------------


def _page(*scores: float) -> list[Ranked]:
    return [Ranked(memory_id, score, {"final": score}) for memory_id, score in enumerate(scores, start=1)]


def _row(text: str | None) -> RankingRow:
    return RankingRow("", "", T0_DT, 1, speaker="Jon", turn_text=text)


def test_only_the_first_hits_that_state_something_ask_for_their_question():
    ranked = _page(1.0, 0.9, 0.8, 0.7, 0.6)
    rows = {
        1: _row("Not a single crack, my best pottery yet."),
        2: _row("How did the first kiln firing go?"),  # asks: no answer to anything
        3: _row(None),  # a note, not a turn
        4: _row("Loved every minute."),
        5: _row("Beyond the reach."),
    }

    assert statements(ranked, rows, 4) == [1, 4]
    assert statements(ranked, rows, 0) == []
    assert statements(ranked, {}, 4) == []  # a page of pages and notes


def test_at_a_share_of_one_the_question_comes_just_below_its_hit():
    ranked = _page(1.0, 0.9, 0.8, 0.7)

    out = with_prompts(ranked, {9: 2}, 10, share=1.0)

    assert [item.memory_id for item in out] == [1, 2, 9, 3, 4]
    assert out[2].score == 0.9 and out[2].explain == {"prompted": 2}


def test_at_a_smaller_share_the_question_goes_below_the_hits_that_outrank_it():
    ranked = _page(1.0, 0.9, 0.8, 0.7)

    out = with_prompts(ranked, {9: 1}, 10, share=0.85)

    assert [item.memory_id for item in out] == [1, 2, 9, 3, 4]
    assert out[2].score == pytest.approx(0.85)


def test_a_question_on_the_page_moves_up_keeping_its_explain_and_the_page_is_cut_to_top_k():
    ranked = _page(1.0, 0.9, 0.8, 0.7)

    out = with_prompts(ranked, {4: 1}, 3, share=1.0)

    assert [item.memory_id for item in out] == [1, 4, 2]
    assert out[1].explain == {"final": 0.7, "prompted": 1}


def test_a_question_ranked_high_enough_already_or_whose_hit_is_not_on_the_page_stays_where_it_is():
    ranked = _page(1.0, 0.9, 0.8, 0.7)

    assert with_prompts(ranked, {2: 3}, 10, share=1.0) == ranked  # above its hit
    assert with_prompts(ranked, {4: 1}, 10, share=0.7) == ranked  # scores its share already
    assert with_prompts(ranked, {9: 42}, 10, share=1.0) == ranked


def test_the_share_and_reach_are_ranking_tunables_with_bounds():
    with pytest.raises(ValueError, match="exchange_share"):
        RankingConfig(exchange_share=1.5)
    with pytest.raises(ValueError, match="exchange_reach"):
        RankingConfig(exchange_reach=-1)


# --- the load statement ----------------------------------------------------------------------------------------------

KILN = [
    ("Maya", "Morning! Did you sleep at all?"),
    ("Jon", "Barely, the neighbours had a party."),
    ("Maya", "How did the first kiln firing go?"),
    ("Jon", "Not a single crack, my best pottery yet."),
    ("Jon", "Straight back to the studio tomorrow."),
]


def _prompts(acme, hits, *, user_id="albert", as_of=None):
    """The questions (question id → hit id) the load statement brings for ``hits``, and the rows loaded."""
    from memories.selectors.tenancy import scope_chain_for
    from retrieval import selectors

    chain = [scope.pk for scope in scope_chain_for(tenant=acme, user_id=user_id)]
    follow = selectors.FollowUps({}, chain, list(MemoryKind.values), as_of, prompted=hits)
    loaded = selectors.memories_load(tenant=acme, ids=hits, follow=follow, as_of=as_of)
    return loaded.prompts, loaded.memories


@pytest.mark.django_db
def test_the_load_statement_brings_the_question_someone_else_asked_just_before_a_hit(acme, api):
    ids = _ingest(api, KILN)
    question, reply = ids[2], ids[3]

    prompts, loaded = _prompts(acme, [reply])

    assert prompts == {question: reply} and question in loaded
    assert _prompts(acme, [ids[4]])[0] == {}  # the turn before is the speaker's own
    assert _prompts(acme, [ids[1], ids[3]])[0] == {ids[0]: ids[1], question: reply}  # each hit its own
    assert _prompts(acme, [ids[0]])[0] == {}  # the first turn of its session


@pytest.mark.django_db
def test_no_question_is_brought_when_the_turn_before_asks_nothing(acme, api):
    ids = _ingest(api, [("Maya", "The kiln was fired today."), ("Jon", "Not a single crack, my best pottery yet.")])

    assert _prompts(acme, [ids[1]])[0] == {}


@pytest.mark.django_db
def test_the_question_is_never_another_users_turn_nor_one_recorded_after_as_of(acme, api):
    ids = _ingest(api, KILN[:3])  # albert's session ends with the question
    (other,) = _ingest(api, KILN[3:4], user_id="bea", prefix="b")  # the same session id, bea's scope
    assert _prompts(acme, [other], user_id="bea")[0] == {}

    mine = _ingest(api, KILN[3:4], prefix="z", start=T0 + 600)[0]
    asked = Memory.objects.get(pk=ids[2])
    Memory.objects.filter(pk=asked.pk).update(created_at=asked.created_at.replace(year=2100))  # recorded later
    assert _prompts(acme, [mine], as_of=datetime(2099, 1, 1, tzinfo=UTC))[0] == {}
    assert _prompts(acme, [mine], as_of=datetime(2101, 1, 1, tzinfo=UTC))[0] == {ids[2]: mine}


# --- through the search ----------------------------------------------------------------------------------------------

POTTERY = [
    ("Jon", "I do pottery at the community centre on Tuesdays, it's the best part of my week."),
    ("Jon", "Bought new pottery tools, the wire cutter is lovely."),
    ("Maya", "My neighbour sells her pottery at the market, madness."),
    ("Jon", "The pottery club has a new teacher and she is strict."),
    ("Maya", "Did you watch the match on Saturday?"),
    ("Jon", "No, I was asleep by nine."),
]


@pytest.mark.django_db
def test_the_question_a_reply_answers_comes_up_under_it_and_only_with_the_step(
    acme, api, django_capture_on_commit_callbacks
):
    """ "Not a single crack, my best pottery yet" says what came out only with the question it answers ("How did the
    first kiln firing go?"), which shares no word with what is asked: alone, the other pottery turns keep it off the
    page."""
    with django_capture_on_commit_callbacks(execute=True):
        _ingest(api, POTTERY, session_id="chat-0", prefix="w")
        ids = _ingest(api, KILN, session_id="chat-1", start=T0 + 3600)
    question, reply = ids[2], ids[3]
    query = "Which of Jon's pottery came out without a crack?"

    rows = _ranked(api, query, top_k=6)
    order = [row["id"] for row in rows]

    assert reply in order[: RankingConfig().exchange_reach], order
    assert question in order and order.index(question) > order.index(reply), order
    brought = rows[order.index(question)]
    assert brought["explain"]["prompted"] == reply
    assert brought["score"] == pytest.approx(RankingConfig().exchange_share * rows[order.index(reply)]["score"])
    assert all(row["score"] >= brought["score"] for row in rows[: order.index(question)])

    without = tuple(step for step in settings.ORGMEMORY_SEARCH_STEPS if step != "exchanges")
    with override_settings(ORGMEMORY_SEARCH_STEPS=without):
        alone = _ranked(api, query, top_k=6)
    assert reply in [row["id"] for row in alone] and question not in [row["id"] for row in alone]
    assert not any("prompted" in row["explain"] for row in alone)
