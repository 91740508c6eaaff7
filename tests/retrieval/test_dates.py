"""The date answer of a "when" question (pure): which questions ask for a date, how the question is restated, and
which of the top hits' dates answers it."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from retrieval.selectors import ContextTurn
from retrieval.synthesis.dates import DatedRow, date_answer, is_when_question

REF = datetime(2025, 5, 8, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When did Dana go to the support group?", True),
        ("what date was the concert?", True),
        ("On what day did Sam move?", True),
        ("Which day is the offsite?", True),
        ("What was the date of Mei's pottery class?", True),
        ("What's the date of the offsite?", True),
        ("What was the plan for the offsite?", False),
        ("Who went to the support group?", False),
        ("Whenever you can, remind me.", False),
        ("", False),
    ],
)
def test_which_questions_ask_for_a_date(question, expected):
    assert is_when_question(question) is expected


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("When did Dana go to the support group?", "Dana went to the support group on 7 May 2025 [1]."),
        ("When did the code freeze start?", "The code freeze started on 7 May 2025 [1]."),
        ("When did my sister move to Lisbon?", "Your sister moved to Lisbon on 7 May 2025 [1]."),
        ("Which day did Sam stop smoking?", "Sam stopped smoking on 7 May 2025 [1]."),
        ("When will I start the course?", "You will start the course on 7 May 2025 [1]."),
        ("What date works for the dentist?", "On 7 May 2025 [1]: “It happened yesterday.”"),
        ("When was the ceremony that Yara mentioned?", "The ceremony that Yara mentioned was on 7 May 2025 [1]."),
        ("When was the new contract signed?", "The new contract was signed on 7 May 2025 [1]."),
        ("What was the date of Mei's pottery class?", "On 7 May 2025 [1]: “It happened yesterday.”"),
    ],
)
def test_the_question_is_restated_with_the_date_and_its_citation(question, text):
    answer = date_answer(question=question, hits=[DatedRow(9, "It happened yesterday.", ["2025-05-07"], REF)])
    assert answer.text == text
    assert answer.citations == ((1, 9),) and answer.kind == "date" and not answer.used_llm


def test_the_date_of_the_sentence_the_question_is_about_wins():
    hits = [
        DatedRow(1, "I saw the dentist today. The support group meets next week.", ["2025-05-08"], REF, "s"),
        DatedRow(2, "I went to the support group yesterday.", ["2025-05-07"], REF, "s"),
    ]
    answer = date_answer(question="When did Dana go to the support group?", hits=hits, today=date(2025, 6, 1))
    assert answer.citations == ((1, 2),) and "7 May 2025" in answer.text


def test_an_answer_to_an_undated_question_turn_takes_its_words():
    hits = [
        DatedRow(41, "Did you make it to the pottery class in the end?", [], REF, "s"),
        DatedRow(40, "We had pasta on Friday.", ["2025-05-02"], REF, "s"),
        DatedRow(42, "I did, last Tuesday! Loved it.", ["2025-05-06"], REF, "s"),
    ]
    answer = date_answer(question="When did Mia go to the pottery class?", hits=hits, today=date(2025, 6, 1))
    assert answer.citations == ((1, 42),) and "6 May 2025" in answer.text


def test_a_past_question_is_not_answered_by_a_day_still_ahead():
    hits = [
        DatedRow(1, "The support group meets next Monday.", ["2025-05-12"], REF),
        DatedRow(2, "I went to the support group on Tuesday.", ["2025-05-06"], REF),
    ]
    answer = date_answer(question="When did Dana go to the support group?", hits=hits, today=date(2025, 5, 9))
    assert answer.citations == ((1, 2),)


def test_no_dated_hit_is_no_date_answer():
    assert date_answer(question="When did it happen?", hits=[DatedRow(1, "It happened.", [], REF)]) is None
    assert date_answer(question="When did it happen?", hits=[]) is None


def test_an_undated_question_hit_is_dated_by_its_reply():
    """ "Did you make it to the gig?" / "I did, yesterday!": the reply is not a hit, but it was loaded beside it."""
    reply = ContextTurn(12, "Sam", "I did, yesterday! Such a good crowd.", REF)
    asked = DatedRow(11, "Did you make it to the gig in the end?", [], REF, session="s1", reply=reply)
    answer = date_answer(question="When did Sam go to the gig?", hits=[asked])
    assert answer.text == "Sam went to the gig on 7 May 2025 [1]." and answer.citations == ((1, 12),)


def test_a_reply_dates_only_a_hit_about_the_question():
    reply = ContextTurn(12, "Sam", "Yesterday, it was great.", REF)
    asked = DatedRow(11, "How was it?", [], REF, session="s1", reply=reply)
    assert date_answer(question="When did Sam go to the gig?", hits=[asked]) is None


def test_a_question_hit_in_other_words_is_dated_by_its_reply_when_it_means_the_question():
    """ "the citizenship ceremony" for "the naturalisation event": no word shared, the cosine says it is the same
    thing; an unrelated question hit (low cosine) still lends nothing."""
    reply = ContextTurn(12, "Kenji", "I did, on 2 May! Honestly emotional.", REF)
    question = "When did Kenji attend the naturalisation event?"
    asked = DatedRow(
        11, "Did you make it to the citizenship ceremony?", [], REF, session="s1", reply=reply, cosine=0.52
    )
    answer = date_answer(question=question, hits=[asked], today=date(2025, 6, 1))
    assert answer.citations == ((1, 12),) and "2 May 2025" in answer.text
    unrelated = DatedRow(11, "Did you see the new bakery?", [], REF, session="s1", reply=reply, cosine=0.18)
    assert date_answer(question=question, hits=[unrelated], today=date(2025, 6, 1)) is None


def test_a_hit_that_means_the_event_wins_over_a_better_ranked_dated_hit_about_something_else():
    # no question word in either: "amateur evening" is said "open mic night"; the vector arm's cosine tells them apart
    hits = [
        DatedRow(1, "The wine tasting was two days ago.", ["2025-05-06"], REF, "s", cosine=0.21),
        DatedRow(2, "The open mic night is on 18 May, wish me luck.", ["2025-05-18"], REF, "s", cosine=0.58),
    ]
    answer = date_answer(question="Which day did Niko perform at the amateur show?", hits=hits, today=date(2025, 6, 1))
    assert answer.citations == ((1, 2),) and "18 May 2025" in answer.text
    # without the cosines the better-ranked hit would answer
    plain = [DatedRow(h.memory_id, h.content, h.event_dates, h.reference, h.session) for h in hits]
    answer = date_answer(question="Which day did Niko perform at the amateur show?", hits=plain, today=date(2025, 6, 1))
    assert answer.citations == ((1, 1),)


ADR = "ADR-031 (accepted 9 February 2026): we move all service deployments from Helm charts to Kustomize overlays."


def test_a_when_of_how_often_is_not_answered_by_a_dated_note_below_the_schedule():
    """ "when do we deploy?" asks when deploys recur: the deploy-day policy ranked above answers it (the usual
    answer quotes it), not the migration note's date further down."""
    hits = [
        DatedRow(1, "The platform team deploys on Tuesdays and Thursdays after 10:00.", [], REF),
        DatedRow(2, ADR, ["2026-02-09"], REF),
    ]

    assert date_answer(question="when do we deploy?", hits=hits) is None
    # asked about the past, or with the dated note first, the date answers
    assert date_answer(question="When did we move deployments to Kustomize?", hits=hits).kind == "date"
    assert date_answer(question="when do we deploy?", hits=hits[::-1]).kind == "date"
    # no present tense, or a time in the past: a date is asked, whatever schedule ranks above
    assert date_answer(question="What year did we move deployments to Kustomize?", hits=hits).kind == "date"
    assert date_answer(question="How long ago did deployments move to Kustomize?", hits=hits).kind == "date"
    assert date_answer(question="Which month: the move to Kustomize?", hits=hits).kind == "date"
