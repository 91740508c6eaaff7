"""Unit tests for the pure text-similarity helpers (near-duplicates, negation, polarity twins)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memories.textsim import (
    NEAR_DUPLICATE_JACCARD,
    is_negated,
    jaccard,
    normalize_text,
    polarity_signature,
    polarity_twins,
    shingles,
    signatures_are_twins,
    value_words,
    words,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Hello,   WORLD!  ", "hello world"),
        ("Don\u2019t deploy on FRIDAYS.", "don't deploy on fridays"),
        ("on-call / k8s: v1.2", "on call k8s v1 2"),
        ("Stra\u00dfe", "strasse"),  # case-folded, not just lower-cased
        ("\uff21\uff43\uff4d\uff45", "acme"),  # NFKC: full-width letters
        ("", ""),
        ("!!! ...", ""),
        ("it's 'quoted'", "it's quoted"),
    ],
)
def test_normalize_text(text, expected):
    assert normalize_text(text) == expected


def test_normalize_text_is_idempotent():
    once = normalize_text("We DON'T  deploy -- on Fridays!")
    assert normalize_text(once) == once
    assert words("We DON'T deploy") == ["we", "don't", "deploy"]


class TestShingles:
    def test_bigrams(self):
        assert shingles("We deploy on Fridays.") == frozenset({"we deploy", "deploy on", "on fridays"})

    def test_trigrams(self):
        assert shingles("We deploy on Fridays", n=3) == frozenset({"we deploy on", "deploy on fridays"})

    def test_text_shorter_than_a_shingle_is_one_shingle(self):
        assert shingles("Acme") == frozenset({"acme"})
        assert shingles("Acme Robotics", n=3) == frozenset({"acme robotics"})

    def test_empty(self):
        assert shingles("") == frozenset()
        assert shingles(" ,;. ") == frozenset()

    def test_invalid_size(self):
        with pytest.raises(ValueError):
            shingles("a b", n=0)


class TestJaccard:
    @pytest.mark.parametrize(
        ("a", "b", "expected"),
        [
            ("We deploy on Fridays", "we deploy on fridays!", 1.0),
            ("We deploy on Fridays", "We deploy on Mondays", 0.5),  # {we deploy, deploy on} of 4
            ("We deploy on Fridays", "Acme uses Postgres", 0.0),
            ("a b c d", "a b c", 2 / 3),
            ("", "", 0.0),
            ("", "Acme", 0.0),
        ],
    )
    def test_texts(self, a, b, expected):
        assert jaccard(a, b) == pytest.approx(expected, abs=1e-12)

    def test_precomputed_sets(self):
        assert jaccard(frozenset({"x y", "y z"}), frozenset({"y z"})) == 0.5
        assert jaccard(shingles("a b c"), "a b c d") == pytest.approx(2 / 3, abs=1e-12)

    @given(st.text(max_size=80), st.text(max_size=80))
    @settings(max_examples=200, deadline=None)
    def test_symmetric_and_bounded(self, a, b):
        value = jaccard(a, b)
        assert 0.0 <= value <= 1.0
        assert value == jaccard(b, a)
        if words(a):
            assert jaccard(a, a) == 1.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We deploy on Fridays", False),
        ("We don't deploy on Fridays", True),
        ("We don\u2019t deploy on Fridays", True),
        ("We dont deploy on Fridays", True),
        ("We do not deploy on Fridays", True),
        ("We no longer deploy on Fridays", True),
        ("We never deploy on Fridays", True),
        ("We stopped deploying on Fridays", True),
        ("Acme isn't hiring", True),
        ("Acme mustn't ship", True),
        ("Notable results from the offsite", False),  # "not" only as a whole word
        ("Knowledge base", False),
        ("", False),
    ],
)
def test_is_negated(text, expected):
    assert is_negated(text) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("We deploy on Fridays", "We no longer deploy on Fridays", True),
        ("We deploy on Fridays", "We don't deploy on Fridays", True),
        ("We deploy on Fridays.", "We never deploy on Fridays!", True),
        ("We deploy on Fridays", "We stopped deploying on Fridays", True),
        ("We don't deploy on Fridays anymore", "We deploy on Fridays", True),
        ("The platform team uses Kafka", "The platform team no longer uses Kafka", True),
        ("Acme uses Postgres", "Acme no longer uses MySQL", False),  # different claim
        ("We deploy on Fridays", "We deploy on Fridays", False),  # same polarity
        ("We don't deploy on Fridays", "We never deploy on Fridays", False),  # both negated
        ("We deploy on Fridays", "Nobody has ever said no to cake", False),
        ("", "not", False),
    ],
)
def test_polarity_twins(a, b, expected):
    assert polarity_twins(a, b) is expected
    assert polarity_twins(b, a) is expected


def test_polarity_signature_matches_polarity_twins():
    affirmative = polarity_signature("We deploy on Fridays")
    negated = polarity_signature("We no longer deploy on Fridays")
    assert affirmative == (False, frozenset({"we deploy", "deploy on", "on friday"}))
    assert negated == (True, frozenset({"we deploy", "deploy on", "on friday"}))
    assert signatures_are_twins(affirmative, negated) is True
    assert signatures_are_twins(affirmative, affirmative) is False


def test_threshold_is_the_design_value():
    assert NEAR_DUPLICATE_JACCARD == 0.5


class TestLshBands:
    def test_identical_claims_share_every_band_whatever_the_polarity(self):
        from memories.textsim import lsh_bands

        assert len(lsh_bands("We deploy on Fridays.")) == 16
        assert lsh_bands("We deploy on Fridays.") == lsh_bands("We no longer deploy on Fridays.")
        assert lsh_bands("We deploy on Fridays.") == lsh_bands("we  DEPLOY on fridays")

    def test_unrelated_texts_share_no_band_and_empty_has_none(self):
        from memories.textsim import lsh_bands

        assert set(lsh_bands("The cafeteria serves pasta on Mondays.")).isdisjoint(
            lsh_bands("Grafana alerts page the on-call engineer.")
        )
        assert lsh_bands("") == []
        assert lsh_bands("!!!") == []

    def test_near_duplicates_usually_share_a_band(self):
        from memories.textsim import lsh_bands

        base = "The platform team deploys on Tuesdays and Thursdays"
        shared = sum(
            bool(set(lsh_bands(f"{base} {word}.")) & set(lsh_bands(f"{base}.")))
            for word in ("after ten", "before noon", "only", "at nine", "with approval", "in EU", "weekly", "again")
        )
        assert shared >= 7


def test_polarity_signatures_of_long_texts_are_computed_but_not_kept():
    from memories import textsim

    long_text = "We no longer deploy on Fridays. " * 400  # 12,800 characters
    before = textsim._signature_of.cache_info().currsize

    signature = textsim.polarity_signature(long_text)

    assert signature == textsim._signature_of.__wrapped__(long_text)
    assert signature[0] is True
    assert textsim._signature_of.cache_info().currsize == before
    assert textsim.polarity_signature("We deploy on Fridays.") == (False, textsim.shingles("we deploy on friday"))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Just back from Lisbon. Ate my body weight.", "Just back from Tallinn. Ate my body weight.", False),
        ("Ran 12 km with the club.", "Ran 21 km with the club.", False),
        # who, not what: a noun phrase's opener is no value
        ("My cousin is allergic to cats. Drama.", "The guy downstairs is allergic to cats. Drama.", True),
        ("Our babysitter has a parrot.", "A colleague has a parrot.", True),
        ("", "", True),
    ],
)
def test_value_words_tell_another_statement_from_the_same_said_again(a, b, same):
    assert (value_words(a) == value_words(b)) is same
