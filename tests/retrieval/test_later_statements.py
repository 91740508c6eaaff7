"""Pure parts of the later-statement steps: :func:`retrieval.conversation.later_statements.later_statements_first`
and the choice of a hit's follow-up among the first later turns naming the same thing
(:func:`retrieval.conversation.turns.first_news`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memories.models import Memory
from retrieval.conversation.later_statements import later_statements_first
from retrieval.conversation.page import attach
from retrieval.conversation.turns import first_news, put_to
from retrieval.ranking import Ranked
from retrieval.services import SearchHit

T0 = datetime(2025, 5, 1, 18, 0, tzinfo=UTC)


def _turn(pk: int, text: str, *, days: int, speaker: str = "Jon") -> Memory:
    return Memory(
        pk=pk, content=text, scope_id=1, source_session=f"s{pk}", metadata={"author": speaker},
        reference_time=T0 + timedelta(days=days), created_at=T0 + timedelta(days=days),
    )  # fmt: skip


def _hits(*memories: Memory) -> list[SearchHit]:
    return [SearchHit(memory=m, score=1.0 - i / 10, explain={}) for i, m in enumerate(memories)]


def test_a_remark_about_someone_else_never_moves_above_the_speakers_own_statement():
    own = _turn(1, "Flights to Porto are booked for the summer break.", days=0)
    aside = _turn(2, "My flatmate is flying to Porto for the summer break, lucky her.", days=7)
    assert [h.memory.pk for h in later_statements_first(_hits(own, aside))] == [1, 2]

    # between two remarks about others, the later still goes first
    first = _turn(3, "My flatmate is flying to Porto for the summer break.", days=0)
    assert [h.memory.pk for h in later_statements_first(_hits(first, aside))] == [2, 3]


def test_a_follow_up_is_the_first_later_turn_not_shown_above_its_hit_and_not_about_someone_else():
    hit = _turn(1, "Flights to Porto are booked for the summer break.", days=0)
    aside = _turn(2, "My flatmate is going to Porto in the spring, lucky her.", days=7)
    shown = _turn(3, "Porto flights are the cheapest this year.", days=10)
    news = _turn(4, "Change of plan: Porto is off, we're doing Lyon instead.", days=21)
    later = _turn(5, "Porto again? No, Lyon it is.", days=30)
    loaded = {m.pk: m for m in (hit, aside, shown, news, later)}
    ranked = [Ranked(3, 0.9, {}), Ranked(1, 0.8, {}), Ranked(7, 0.7, {})]

    chosen = first_news(ranked, {2: 1, 3: 1, 4: 1, 5: 1}, loaded)

    assert chosen == {4: 1}
    assert [item.memory_id for item in attach(ranked, chosen, top_k=3, why="follows", above=True)] == [3, 4, 1]
    # a hit about someone else may be followed by another such remark
    assert first_news([Ranked(2, 0.9, {})], {5: 2, 3: 2}, loaded) == {3: 2}


def test_a_follow_up_on_the_page_moves_up_to_its_hit_unless_it_is_above_it_already():
    ranked = [Ranked(memory_id=i, score=1.0 - i / 10, explain={"final": i}) for i in range(1, 6)]

    moved = attach(ranked, {4: 2, 1: 3, 9: 5}, top_k=5, why="follows", above=True)

    # 4 follows 2 and was below it: just above 2 now, at 2's score, its own explain kept; 1 follows 3 but is above
    # it already: unchanged; 9 was not on the page: inserted above 5, and the page is cut to five
    assert [item.memory_id for item in moved] == [1, 4, 2, 3, 9]
    assert moved[1].score == ranked[1].score and moved[1].explain == {"final": 4, "follows": 2}
    assert moved[0].explain == {"final": 1}


def test_the_questions_put_to_the_people_named_are_those_someone_else_asked():
    from retrieval.selectors import RankingRow

    def row(speaker: str, text: str) -> RankingRow:
        return RankingRow("h", "", T0, 1, speaker=speaker, turn_text=text)

    rows = {
        1: row("Maya", "How's the new place treating you?"),
        2: row("Dana Smith", "Remind me where you work these days?"),  # asked by the person named
        3: row("Maya", "I started a new job."),  # not a question
        4: RankingRow("h", "", T0, 1, speaker="Maya"),  # not a session turn
    }
    ranked = [Ranked(i, 1.0, {}) for i in (1, 2, 3, 4, 5)]

    assert put_to(ranked, rows, ["dana"]) == [1]
    assert put_to(ranked, rows, ["dana smith"]) == [1]
    assert put_to(ranked, rows, []) == []


def test_a_reply_comes_just_below_its_question_moved_up_if_lower_on_the_page():
    ranked = [Ranked(i, 1.0 - i / 10, {"final": i}) for i in (1, 2, 3, 4)]

    # 9 answers 1 (not on the page: inserted); 4 answers 2 (lower: moved up); 1 answers 3 (above it: stays)
    replied = attach(ranked, {9: 1, 4: 2, 1: 3}, top_k=5, why="answers", above=False)
    assert [r.memory_id for r in replied] == [1, 9, 2, 4, 3]
    assert replied[1].explain == {"answers": 1} and replied[1].score == ranked[0].score
    assert replied[3].explain == {"final": 4, "answers": 2} and replied[3].score == ranked[1].score
    assert [r.memory_id for r in attach(ranked, {9: 1}, top_k=3, why="answers", above=False)] == [1, 9, 2]


def test_a_hit_that_moves_itself_carries_nothing_and_no_turn_of_the_page_is_lost():
    ranked = [Ranked(i, 1.0 - i / 10, {}) for i in (1, 2, 3, 4)]

    # 3 moves below 1; 4 belongs below 3, which is moving: 4 stays where it was instead of leaving the page
    attached = attach(ranked, {3: 1, 4: 3}, top_k=4, why="introduced", above=False)

    assert [item.memory_id for item in attached] == [1, 3, 2, 4]
    assert attached[1].explain == {"introduced": 1} and attached[3].explain == {}
