"""The date window of a question is read from its interrogative sentences only (retrieval.services._asked)."""

from retrieval.services import _asked


def test_context_sentence_before_the_question_is_not_asked():
    query = "We found a box of switches bought last autumn. Can the repair cafe charge them to the new award?"
    assert _asked(query) == "Can the repair cafe charge them to the new award?"


def test_a_single_question_is_asked_whole():
    assert _asked("What did Dana do on 14 May?") == "What did Dana do on 14 May?"


def test_a_query_without_a_question_is_asked_whole():
    assert _asked("deploy notes last week. rollback plan") == "deploy notes last week. rollback plan"


def test_an_abbreviation_does_not_end_the_question():
    query = "On 14 May, what did Dr. Smith decide?"
    assert _asked(query) == query


def test_every_question_sentence_is_kept():
    query = "Context here today. What happened on Monday? And on Friday?"
    assert _asked(query) == "What happened on Monday? And on Friday?"
