"""The fresh half of the path questions (issue 40): wordings nobody tuned on, beside the dev and held-out halves.

Pure: the questions are built from a small world written here, never searched — the retrieval benchmark itself is
run once, by the lead, and its misses on the fresh half are never read.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.evaluation import (
    FRESH_PATH_WORDINGS,
    PATH_HALVES,
    PATH_WORDINGS,
    Page,
    PathQuestion,
    build_path_questions,
)

# The dev and held-out wordings as they were when the fresh half was written: the fresh half must not change them
# (their figures are compared across runs).
FROZEN_PATH_WORDINGS = {
    "founders_of_investments": (
        ("Who founded the companies that {seed} invested in?", True),
        ("Which founders started the startups {seed} has backed?", True),
        ("Name the people who founded companies in {seed}'s portfolio.", False),
    ),
    "investors_of_employer": (
        ("Which investors backed the company {seed} works at?", True),
        ("Who funded {seed}'s employer?", True),
        ("Who has invested in the firm where {seed} is employed?", False),
    ),
    "advisors_of_founded": (
        ("Who advises the companies founded by {seed}?", True),
        ("Which advisers help the startups {seed} started?", True),
        ("List the advisors of companies {seed} co-founded.", False),
    ),
    "meetings_of_staff": (
        ("Which meetings did people from {seed} attend?", True),
        ("What meetings did employees of {seed} go to?", True),
        ("Which sessions were attended by {seed}'s staff?", False),
    ),
    "advisors_of_attendee_foundings": (
        ("Who advises the companies founded by people who attended {seed}?", True),
        ("Which advisors work with startups started by the attendees of {seed}?", False),
    ),
}


def _normal(text: str) -> str:
    """Case, punctuation and spacing folded: two wordings differing only in those are the same wording."""
    return " ".join(re.findall(r"\w+", text.casefold()))


def _world() -> tuple[list[Page], dict[str, dict]]:
    """Two companies, one meeting and six people: every path family has at least two seeds with answers."""
    people = {
        "people/alice-adams": "Alice Adams",
        "people/bob-brown": "Bob Brown",
        "people/carol-chen": "Carol Chen",
        "people/dave-diaz": "Dave Diaz",
        "people/erin-evans": "Erin Evans",
        "people/frank-fox": "Frank Fox",
    }
    pages = [Page(slug=slug, type="person", title=title, text=f"{title}.") for slug, title in people.items()]
    pages += [
        Page(slug="companies/acme", type="company", title="Acme - Fintech Startup", text="Acme."),
        Page(slug="companies/beta", type="company", title="Beta", text="Beta."),
        Page(slug="meetings/demo-day", type="meeting", title="Demo Day W25 – Acme Pitch", text="Demo day."),
        Page(slug="meetings/one-on-one", type="meeting", title="1:1 Carol Chen + Frank Fox", text="A 1:1."),
    ]
    facts = {
        "companies/acme": {
            "founders": ["people/bob-brown"],
            "employees": ["people/carol-chen", "people/frank-fox"],
            "investors": ["people/alice-adams"],
            "advisors": ["people/dave-diaz"],
        },
        "companies/beta": {
            "founders": ["people/carol-chen", "people/missing"],  # a slug without a page is never an answer
            "employees": ["people/dave-diaz"],
            "investors": ["people/alice-adams", "people/frank-fox"],
            "advisors": ["people/erin-evans"],
        },
        "meetings/demo-day": {"attendees": ["people/bob-brown", "people/carol-chen"]},
        "meetings/one-on-one": {"attendees": ["people/carol-chen", "people/frank-fox"]},
    }
    return pages, facts


@pytest.fixture(scope="module")
def questions() -> list[PathQuestion]:
    pages, facts = _world()
    return build_path_questions(pages, facts)


def _by(questions, family: str, half: str) -> list[PathQuestion]:
    return [q for q in questions if q.family == family and q.half == half]


def test_the_dev_and_held_out_wordings_are_unchanged():
    assert PATH_WORDINGS == FROZEN_PATH_WORDINGS


def test_every_path_family_has_fresh_wordings_at_least_as_many_as_held_out():
    assert set(FRESH_PATH_WORDINGS) == set(PATH_WORDINGS)
    for family, wordings in PATH_WORDINGS.items():
        held_out = sum(1 for _, dev in wordings if not dev)
        assert len(FRESH_PATH_WORDINGS[family]) >= max(held_out, 1), family


def test_fresh_wordings_name_the_seed_once_and_nothing_else():
    for family, wordings in FRESH_PATH_WORDINGS.items():
        for wording in wordings:
            assert wording.count("{seed}") == 1, (family, wording)
            assert "{" not in wording.replace("{seed}", ""), (family, wording)
            assert wording.format(seed="Zed Zhao").count("Zed Zhao") == 1


def test_fresh_wordings_are_distinct_from_dev_held_out_and_each_other():
    existing = {_normal(wording) for wordings in PATH_WORDINGS.values() for wording, _ in wordings}
    fresh = [_normal(wording) for wordings in FRESH_PATH_WORDINGS.values() for wording in wordings]
    assert not set(fresh) & existing
    assert len(set(fresh)) == len(fresh)


def test_the_built_questions_have_three_halves_and_the_fresh_texts_are_new(questions):
    assert {q.half for q in questions} == set(PATH_HALVES)
    assert all(q.dev == (q.half == "dev") for q in questions)
    existing = {_normal(q.text) for q in questions if q.half != "fresh"}
    fresh = [_normal(q.text) for q in questions if q.half == "fresh"]
    assert fresh and not set(fresh) & existing
    assert len(set(fresh)) == len(fresh)


def test_every_family_is_asked_in_the_fresh_half_at_least_as_often_as_in_the_held_out_one(questions):
    for family in PATH_WORDINGS:
        held_out, fresh = _by(questions, family, "held_out"), _by(questions, family, "fresh")
        assert held_out, family  # the small world gives every family its seeds
        assert len(fresh) >= len(held_out), family
        seeds = len(held_out) // sum(1 for _, dev in PATH_WORDINGS[family] if not dev)
        assert len(fresh) == len(FRESH_PATH_WORDINGS[family]) * seeds, family


def test_the_fresh_half_keeps_the_same_gold_seed_by_seed(questions):
    for family in PATH_WORDINGS:
        held_wordings = sum(1 for _, dev in PATH_WORDINGS[family] if not dev)
        fresh_wordings = len(FRESH_PATH_WORDINGS[family])
        held_out, fresh = _by(questions, family, "held_out"), _by(questions, family, "fresh")
        held_gold = [(q.answers, q.needed) for q in held_out][::held_wordings]  # one per seed, in seed order
        fresh_gold = [(q.answers, q.needed) for q in fresh]
        assert fresh_gold == [gold for gold in held_gold for _ in range(fresh_wordings)], family
        dev_gold = Counter((q.answers, q.needed) for q in _by(questions, family, "dev"))
        assert set(dev_gold) == set(held_gold), family


def test_the_gold_is_the_worlds(questions):
    fresh = {q.text: q for q in questions if q.half == "fresh"}
    wording = FRESH_PATH_WORDINGS["advisors_of_attendee_foundings"][0]
    question = fresh[wording.format(seed="Demo Day W25 – Acme Pitch")]
    assert question.answers == {"people/dave-diaz", "people/erin-evans"}
    assert question.needed == {
        "people/bob-brown",
        "people/carol-chen",
        "companies/acme",
        "companies/beta",
        "people/dave-diaz",
        "people/erin-evans",
    }
    wording = FRESH_PATH_WORDINGS["founders_of_investments"][0]
    assert fresh[wording.format(seed="Alice Adams")].answers == {"people/bob-brown", "people/carol-chen"}


def test_the_existing_halves_are_built_exactly_as_before_the_fresh_half(questions):
    pages, facts = _world()
    without = build_path_questions(pages, facts, fresh=False)
    assert {q.half for q in without} == {"dev", "held_out"}
    assert questions[: len(without)] == without  # same questions, same order; the fresh half comes after them
    assert all(q.half == "fresh" for q in questions[len(without) :])


def test_the_command_reports_the_fresh_half_on_its_own():
    from bench.management.commands.eval_retrieval import _format

    row = {"answers@10": 0.5, "needed@10": 0.25, "n": 2}
    table = {half: {"full": dict(row, n=n)} for half, n in (("dev", 4), ("held_out", 2), ("fresh", 12))}
    report = {"sets": {"paths": [{"label": "", "n": 18, "table": table, "latency": {}}]}}
    text = _format(report)
    assert "-- dev wordings" in text and "-- held_out wordings" in text
    fresh = text.split("-- fresh wordings", 1)[1]
    assert "(n=12)" in fresh.splitlines()[1]


def test_the_command_scores_each_half_on_its_own_questions(questions, monkeypatch):
    from bench.management.commands import eval_retrieval

    def fake_runs(self, tenant, key_of, baseline, texts, configs, desc, synthesize=False):
        # every answer in the top 10 for the fresh questions, none for the others
        fresh = {q.text: q for q in questions if q.half == "fresh"}
        run = eval_retrieval.Run()
        for text in texts:
            run.ranked.append(sorted(fresh[text].answers) if text in fresh else [])
            run.latencies.append(1.0)
        return {"full": run}

    monkeypatch.setattr(eval_retrieval.Command, "_runs", fake_runs)
    monkeypatch.setattr(eval_retrieval.Memory.objects, "filter", lambda **kwargs: [])
    result = eval_retrieval.Command()._path_set(None, {}, None, questions, ["full"], "")
    table = result["table"]
    assert list(table) == list(PATH_HALVES)
    for half in PATH_HALVES:
        assert table[half]["full"]["n"] == sum(1 for q in questions if q.half == half)
    assert table["fresh"]["full"]["answers@10"] == 1.0
    assert table["dev"]["full"]["answers@10"] == table["held_out"]["full"]["answers@10"] == 0.0
