"""A seeded, deterministic development set of facts that change (``generate``).

Members talk to their assistant over sessions two years long (the event's author is ``user``, the assistant's turns
echo what they heard: "Noted that you live in Boston."; now and then a friend talks in the member's session under
their own name), and notes are written at a team or the org scope by an admin (curated) or by a member's agent. In
them, lives_in, works_at, job_title, reports_to, owned_by and due_date change: moves, new jobs, promotions, reorgs,
ownership handovers, launches that slip; statements about the past ("I lived in Boston until 2019"), changes said
in passing ("Since I moved to Denver in March …"), indirect ones ("My new place in Denver has a garden"), two
people in one turn, and traps that name a value without stating it ("I'd love to live in Lisbon one day").

Questions (``KINDS``): the current value (``now``, and ``self``: a member about themselves), the earlier value
(``before``), the value as of a month (``as-of``: asked with ``SearchOptions(as_of=…)``; ``as-of-date``: the month is
in the question), ``curated`` (an admin's value against an agent's later, conflicting one: the curated one is
expected), ``closed`` (a value a negation closed with nothing new — "I left Acme": the answer must not give it as
current), ``never-said`` (an attribute of a known subject nobody stated), ``unknown-subject`` (nobody mentions
them), and private facts asked where they must not reach (``private-teammate``: another member of the tenant;
``private-tenant``: a member with the same user id in another tenant; ``private-project``: a project's note asked
without the project).

The development and held-back halves share no question frame, subject or value: a frame's half is its number's
parity (``frame_half``), and every subject and value comes from its half's pools (bench.facts.vocabulary). A second
development half (``dev2``) asks the development frames about subjects and values of its own. Each half is generated
from its own seeded random stream, so no half changes when another does.
"""

from __future__ import annotations

import random

from bench.facts.model import (
    ANSWERABLE,
    APP_NAME,
    ASSISTANT,
    ATTRIBUTES,
    CLOSED,
    FRAMES_OF,
    HALVES,
    KINDS,
    NOT_RECORDED,
    PRIVATE,
    Dataset,
    Half,
    Note,
    Question,
    Session,
    date_spellings,
    frame_half,
    member_name,
    month_text,
    names,
)
from bench.facts.questions import QuestionWriter
from bench.facts.stories import StoryBuilder

__all__ = [
    "ANSWERABLE", "APP_NAME", "ASSISTANT", "ATTRIBUTES", "CLOSED", "FRAMES_OF", "HALVES", "KINDS", "NOT_RECORDED",
    "PRIVATE", "Dataset", "Half", "Note", "Question", "Session", "date_spellings", "frame_half", "generate",
    "member_name", "month_text", "names",
]  # fmt: skip


def generate(seed: int = 11) -> Dataset:
    """Both halves; the same seed gives the same set, byte for byte, and each half is generated from its own
    random stream."""
    halves = {}
    for name in HALVES:
        half = Half(name)
        builder = StoryBuilder(random.Random(f"{seed}/{name}"), half)
        builder.build()
        writer = QuestionWriter(builder)
        writer.ask_about_stories()
        writer.ask_about_the_unsaid()
        writer.hide_only_the_unseen()
        halves[name] = half
    return Dataset(seed=seed, halves=halves)
