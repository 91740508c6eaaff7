"""retrieval.conversation.third_party: which conversation turns are about someone other than their speaker."""

from __future__ import annotations

import pytest

from retrieval.conversation.third_party import about_someone_else, names_relation


@pytest.mark.parametrize(
    "text",
    [
        "My cousin changed jobs three times this year.",
        "Someone at the gym is training for a marathon.",
        "A friend from uni moved to Lisbon last year and won't stop posting about it.",
        "The guy downstairs got a job at a hospital and works every weekend.",
        "Our babysitter ran a marathon and now posts about their toenails.",
        "My old teacher signed up for a ceramics course.",
        "Her sister-in-law opened a bakery in Leeds.",
        "One of my colleagues is off to Kyoto in the spring.",
    ],
)
def test_a_turn_about_a_third_person_is_about_someone_else(text):
    assert about_someone_else(text)


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Bristol in May.",
        "We live in Bristol now, ten minutes from the river.",
        "My cousin stayed with us for a week.",  # the speaker is in it
        "My sister and I went to the opera.",
        "My flat in Hamburg is tiny but the rent is fair.",  # "flat" is not a person
        "The deploy moved to Thursday.",
        "Flights to Porto are booked for the summer, I can't wait.",
        "Congratulations Leila, you deserve it.",
        "Kalinda, my sister. We talk every Sunday.",  # a name first: who it is about is not clear from the opening
        "",
        None,
        "The removal van left this morning and the new neighbours already waved.",  # the noun is not the subject
    ],
)
def test_a_turn_about_the_speaker_or_no_person_is_not(text):
    assert not about_someone_else(text)


def test_a_question_naming_a_relation_is_recognised():
    assert names_relation("Where does Dana's sister live now?")
    assert names_relation("What did his colleagues think?")
    assert not names_relation("Where does Dana live now?")
    assert not names_relation(None)


def test_only_a_turns_opening_is_read_as_ranking_has_it():
    from retrieval.conversation.third_party import TURN_TEXT_CHARS

    opening = "My sister finally moved to Porto, the flat is tiny but the view is unreal. "
    long_turn = opening + "Honestly the tram up the hill is the best part. " * 10 + "I might visit in June."
    assert len(opening) < TURN_TEXT_CHARS < long_turn.index("I might")
    # ranking reads the first TURN_TEXT_CHARS characters (selectors' turn_text); the truth passes read the whole
    # content: both judge the same
    assert about_someone_else(long_turn) is about_someone_else(long_turn[:TURN_TEXT_CHARS]) is True
    assert about_someone_else(opening + "I might visit in June.") is False
