"""retrieval.text: the text primitives every search pass reads with — pure, exact values."""

from __future__ import annotations

from memories.textsim import suffix_stem
from retrieval.text import (
    CALENDAR_TERMS,
    CALENDAR_WORDS,
    GAP_STOPWORDS,
    STOPWORDS,
    content_terms,
    is_question,
    name_words,
    named_in,
    speaker_named,
)


def test_a_text_asks_something_when_it_ends_with_a_question_mark():
    assert is_question("How's the new place treating you?  \n")
    assert not is_question("Is it? I think so.")
    assert not is_question(None) and not is_question("")


def test_a_speaker_is_named_by_their_whole_name_or_their_first_name():
    assert speaker_named("Dana Smith", {"dana"})
    assert speaker_named(" Dana Smith ", {"dana smith"})
    assert not speaker_named("Maya", {"dana", "dana smith"})
    assert not speaker_named("Dana Smith", {"smith"})  # a last name alone is not how the context finds a speaker


def test_a_text_names_a_speaker_by_their_whole_name_as_a_phrase_or_their_first_name():
    words = name_words("What did Dana Smith say about Al's plan?")
    assert named_in("Dana Smith", words) and named_in("Al", words)  # the whole name, as a phrase
    assert named_in("Dana Jones", words)  # the first name alone
    assert not named_in("Jo Smith", words)  # neither: a first name counts from three letters
    assert not named_in("", words)


def test_names_and_titles_are_compared_as_case_folded_words():
    assert name_words("Jean-Luc O'Brien_2") == ["jean", "luc", "o", "brien_2"]


def test_the_calendar_words_are_month_and_weekday_names_and_their_terms_are_stems():
    assert {"may", "june", "sunday"} <= CALENDAR_WORDS and "jun" not in CALENDAR_WORDS
    # a schedule's values, not its topic: weekday plurals and times of day stem to the same terms
    assert content_terms("Fridays evening yesterday") <= CALENDAR_TERMS
    assert not content_terms("choir rehearsal") & CALENDAR_TERMS


def test_gap_analysis_also_skips_the_words_of_a_request():
    assert {"list", "show", "find", "anything"} <= GAP_STOPWORDS - STOPWORDS
    assert "want" in STOPWORDS and "want" not in GAP_STOPWORDS


def test_the_memory_stores_suffix_stem_keeps_the_stem_it_is_asked_to():
    assert suffix_stem("deploying") == suffix_stem("deploys") == "deploy"
    assert suffix_stem("use") == "us" and suffix_stem("use", shortest=3) == "use"
