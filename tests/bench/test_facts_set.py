"""bench.facts: a deterministic development set of facts that change, split into halves that share nothing.

Pure: the set is generated without a database (the scoring helpers of bench.facts.evaluate are tested on made-up
outcomes; ``manage.py eval_facts`` runs the rest).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import UTC, date, datetime
from itertools import combinations, permutations

import pytest

from bench.facts import vocabulary as v
from bench.facts.generator import (
    ANSWERABLE,
    ASSISTANT,
    ATTRIBUTES,
    CLOSED,
    FRAMES_OF,
    HALVES,
    KINDS,
    NOT_RECORDED,
    PRIVATE,
    frame_half,
    generate,
    member_name,
    names,
)


@pytest.fixture(scope="module")
def dataset():
    return generate(11)


def _dump(data) -> str:
    return json.dumps({name: asdict(half) for name, half in data.halves.items()}, default=str, sort_keys=True)


def _pool_words(half: str) -> set[str]:
    """Every subject and value the half's pools hold."""
    members = {member_name(m) for _, team in v.MEMBERS[half] for m in team}
    pools = (v.PEOPLE, v.NOBODY, v.CITIES, v.COMPANIES, v.TITLES, v.OWNER_TEAMS, v.SYSTEMS, v.PROJECTS)
    return members | {word for pool in pools for word in pool[half]} | {v.PROJECT_NAME[half]}


# --- determinism ---------------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_set_and_another_seed_another(dataset):
    assert _dump(generate(11)) == _dump(dataset)
    assert _dump(generate(12)) != _dump(dataset)


def test_each_half_comes_from_its_own_random_stream(dataset):
    again = generate(11)
    for name in HALVES:
        assert json.dumps(asdict(again.halves[name]), default=str) == json.dumps(
            asdict(dataset.halves[name]), default=str
        )


# --- halves --------------------------------------------------------------------------------------------------------


def test_the_held_back_half_shares_no_frame_with_either_development_half(dataset):
    frames = {name: {q.frame for q in half.questions} for name, half in dataset.halves.items()}
    assert not (frames["dev"] | frames["dev2"]) & frames["held"]
    for half in dataset.halves.values():
        for question in half.questions:
            assert question.half == half.name and FRAMES_OF[half.name] == frame_half(question.frame)
    assert frame_half("now/lives_in/0") == "dev" and frame_half("now/lives_in/3") == "held"


_PAIRS = list(combinations(HALVES, 2))


@pytest.mark.parametrize(("one", "other"), _PAIRS)
def test_the_pools_of_the_halves_are_disjoint(one, other):
    assert not _pool_words(one) & _pool_words(other)
    assert not {m for _, team in v.MEMBERS[one] for m in team} & {m for _, team in v.MEMBERS[other] for m in team}


@pytest.mark.parametrize(("one", "other"), _PAIRS)
def test_halves_share_no_subject_and_no_value(dataset, one, other):
    subjects = {name: {q.subject for q in half.questions} for name, half in dataset.halves.items()}
    values = {
        name: {value for q in half.questions for value in (*q.expected, *q.wrong, *q.must_not_name)}
        for name, half in dataset.halves.items()
    }
    assert not subjects[one] & subjects[other]
    assert not values[one] & values[other]


def test_no_text_of_a_half_names_anything_of_another(dataset):
    for name, other in permutations(HALVES, 2):
        half = dataset.halves[name]
        texts = [*half.texts.values(), *(q.text for q in half.questions)]
        foreign = sorted(_pool_words(other))
        for text in texts:
            assert not [word for word in foreign if names(text, word)], text


# --- questions -----------------------------------------------------------------------------------------------------


def test_every_kind_and_attribute_is_asked_in_both_halves_in_several_wordings(dataset):
    for half in dataset.halves.values():
        assert len(half.questions) >= 200
        kinds = {q.kind for q in half.questions}
        assert kinds == set(KINDS), half.name
        for kind in ("now", "before", "as-of", "as-of-date"):
            asked = [q for q in half.questions if q.kind == kind]
            assert len(asked) >= 15, (half.name, kind)
            assert {q.attribute for q in asked} == set(ATTRIBUTES), (half.name, kind)
            assert len({q.frame for q in asked}) >= 12, (half.name, kind)


def test_every_question_has_an_expected_value_or_an_expected_unknown(dataset):
    for half in dataset.halves.values():
        for question in half.questions:
            if question.kind in ANSWERABLE:
                assert question.expected and question.stating, question
                for value in question.expected:
                    assert value not in question.wrong, question
                    # the value is stated by a stating memory, in some spelling
                    assert any(names(half.texts[key], value) for key in question.stating), question
            elif question.kind in CLOSED:  # the negation that closed the value, and the value it closed
                assert question.expected == () and len(question.stating) == 1 and len(question.wrong) == 1, question
                assert names(half.texts[question.stating[0]], question.wrong[0]), question
            else:
                assert question.expected == () and question.stating == (), question
            if question.kind in PRIVATE:
                assert question.private or question.tenant == "other", question


def test_answerable_questions_can_be_answered_by_their_asker(dataset):
    for half in dataset.halves.values():
        for question in half.questions:
            if question.kind in ANSWERABLE:
                visible = set(half.visible_keys(question.asker, question.project))
                assert set(question.stating) <= visible, question


def test_never_said_questions_name_a_subject_whose_attribute_nothing_visible_states(dataset):
    for half in dataset.halves.values():
        members = {member_name(m) for _, team in v.MEMBERS[half.name] for m in team}
        for question in half.questions:
            if question.kind not in NOT_RECORDED:
                continue
            visible = [half.texts[key] for key in half.visible_keys(question.asker)]
            named = [text for text in visible if names(text, question.subject)]
            if question.kind == "unknown-subject":
                assert not any(names(text, question.subject) for text in half.texts.values()), question
                continue
            assert named or question.subject in members, question
            if question.attribute == "reports_to":  # a manager is named as others' manager: only "X reports to"
                subject = re.escape(question.subject)
                states = rf"\b{subject}( now)? reports to|\b{subject}'s manager|manages {subject}\b"
                assert not any(re.search(states, text) for text in named), question
                continue
            for text in named:
                assert not any(names(text, value) for value in question.wrong), (question, text)


def test_private_facts_are_stated_only_where_the_asker_cannot_see(dataset):
    for half in dataset.halves.values():
        for question in half.questions:
            if question.kind not in PRIVATE or question.tenant == "other":
                continue
            visible = set(half.visible_keys(question.asker))
            assert not visible & set(question.private), question
            seen = " ".join(half.texts[key] for key in visible)
            assert not any(names(seen, value) for value in question.must_not_name), question
        assert any(q.must_not_name for q in half.questions if q.kind == "private-teammate")


def test_as_of_questions_ask_about_a_month_after_the_statement(dataset):
    for half in dataset.halves.values():
        stated = {n.key: n.reference[:10] for n in half.notes}
        stated |= {e["id"]: datetime.fromtimestamp(e["timestamp"], tz=UTC).date().isoformat()
                   for s in half.sessions for e in s.events}  # fmt: skip
        for question in half.questions:
            if question.kind == "as-of":
                assert question.as_of and all(stated[key] < question.as_of[:10] for key in question.stating)
            if question.kind == "as-of-date":
                month = re.search(r"(January|February|March|April|May|June|July|August|September|October|November"
                                  r"|December) (\d{4})", question.text)  # fmt: skip
                assert month, question
                asked = datetime.strptime(f"1 {month[1]} {month[2]}", "%d %B %Y").date().isoformat()
                assert all(stated[key] < asked for key in question.stating), question


# --- memories ------------------------------------------------------------------------------------------------------


def test_sessions_are_in_the_sessions_api_shape(dataset):
    for half in dataset.halves.values():
        ids = set()
        people = set(v.PEOPLE[half.name])
        for session in half.sessions:
            body = session.payload()
            assert set(body) == {"app_name", "user_id", "session_id", "events"}
            stamps = [event["timestamp"] for event in session.events]
            assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
            assert datetime.fromtimestamp(stamps[0], tz=UTC).date() == session.day
            for event in session.events:
                assert set(event) == {"id", "author", "timestamp", "text"} and event["text"].strip()
                assert event["author"] in {"user", ASSISTANT} | people
                assert event["id"] not in ids
                ids.add(event["id"])
        assert {e["author"] for s in half.sessions for e in s.events} & people  # friends talk too
        assert all(date(2024, 1, 1) <= s.day <= date(2026, 9, 30) for s in half.sessions)


def test_stating_turns_are_unique_in_their_scope_so_dedup_never_merges_them(dataset):
    for half in dataset.halves.values():
        stating = {key for q in half.questions for key in q.stating}
        for key in stating:
            same_scope = [k for k, scope in half.scope_of.items() if scope == half.scope_of[key]]
            assert [half.texts[k] for k in same_scope].count(half.texts[key]) == 1, half.texts[key]


def test_notes_are_written_by_admins_and_agents_at_team_and_org_scopes(dataset):
    for half in dataset.halves.values():
        teams = {f"team:{team}": members for team, members in v.MEMBERS[half.name]}
        for note in half.notes:
            assert note.scope in {"org:hq", *teams}
            if note.author != "admin":
                assert note.scope in teams and note.author in teams[note.scope]  # an agent writes on its chain
        assert {n.author == "admin" for n in half.notes} == {True, False}
        assert any(n.project for n in half.notes)


# --- scoring helpers -----------------------------------------------------------------------------------------------


def test_names_matches_whole_words_and_any_spelling_of_a_day():
    assert names("Dmitri lives in Denver (since August 2025) [1].", "Denver")
    assert not names("Dmitri lives in Denverton.", "Denver")
    assert names("The Orion launch is on 14 March 2026 [2].", "2026-03-14")
    assert names("Orion launches March 14, 2026.", "2026-03-14")
    assert not names("Orion launches on 4 March 2026.", "2026-03-14")
    assert not names("Orion launches on 14 March 2026.", "2026-03-04")
    assert names("Owned by the Payments team.", "payments")


def test_the_score_counts_right_wrong_first_refusals_and_leaks():
    from bench.facts.evaluate import Outcome, score
    from bench.facts.generator import Question

    def question(kind: str, **fields) -> Question:
        base = dict(id=kind, half="dev", kind=kind, attribute="lives_in", frame="now/lives_in/0", text="?",
                    asker="dmitri", subject="Dmitri", expected=(), stating=(), wrong=())  # fmt: skip
        return Question(**{**base, **fields})

    questions = [
        question("now", expected=("Denver",), stating=("a",), wrong=("Boston",)),
        question("now", expected=("Denver",), stating=("a",), wrong=("Boston",)),
        question("never-said", wrong=("Boston", "Denver")),
        question("private-teammate", private=("p",), must_not_name=("Lisbon",)),
        question("private-tenant", tenant="other", must_not_name=("Lisbon",)),
        question("closed", stating=("c",), wrong=("Acme",)),
        question("closed", stating=("c",), wrong=("Acme",)),
    ]
    outcomes = [
        Outcome(answer="Dmitri lives in Denver [1].", answer_kind="fact", hits=[1, 2]),
        Outcome(answer="Noted that you live in Boston.", answer_kind="default", hits=[2]),
        Outcome(answer="Nothing you can see says where Dmitri lives.", answer_kind="unknown"),
        Outcome(answer="", answer_kind="-", hits=[3]),
        Outcome(answer="Maybe Lisbon?", answer_kind="default", hits=[]),
        Outcome(answer="Dmitri works at Acme [1].", answer_kind="default", hits=[2]),
        Outcome(answer="Dmitri no longer works at Acme (since May 2025) [1].", answer_kind="fact", hits=[4]),
    ]
    table = score(questions, outcomes, {"a": 1, "p": 3, "c": 4}, {1, 2, 3, 4}, ["a", *[None] * 6])
    assert table["now"] == {
        "n": 2, "kinds": {"fact": 1, "default": 1}, "right": 0.5, "wrong": 0.5, "first": 0.5, "bm25": 0.5,
        "refused": 0.0,
    }  # fmt: skip
    assert table["never-said"]["unknown_or_none"] == 1.0 and table["never-said"]["names_a_value"] == 0.0
    assert table["private-teammate"]["leaks"] == 1  # the private memory is a hit
    assert table["private-tenant"]["leaks"] == 1  # the answer names the private value
    assert table["private"]["leaks"] == 2
    assert table["closed"]["states_closed"] == 0.5 and table["closed"]["first"] == 0.5
