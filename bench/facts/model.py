"""The facts-that-change set's data: what a half holds (sessions, notes, questions) and the shared helpers that read
values in text. bench.facts.generator builds it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bench.facts import vocabulary as v

HALVES = ("dev", "dev2", "held")
# the frames each half asks: both development halves ask the development frames
FRAMES_OF = {"dev": "dev", "dev2": "dev", "held": "held"}
ATTRIBUTES = ("lives_in", "works_at", "job_title", "reports_to", "owned_by", "due_date")
PERSON_ATTRIBUTES = ("lives_in", "works_at", "job_title", "reports_to")
KINDS = (
    "now",
    "self",
    "before",
    "as-of",
    "as-of-date",
    "curated",
    "closed",
    "never-said",
    "unknown-subject",
    "private-teammate",
    "private-tenant",
    "private-project",
)
ANSWERABLE = ("now", "self", "before", "as-of", "as-of-date", "curated")
CLOSED = ("closed",)  # a value closed with nothing new: the answer must not give it as current
NOT_RECORDED = ("never-said", "unknown-subject")
PRIVATE = ("private-teammate", "private-tenant", "private-project")
APP_NAME = "assistant-app"
ORG = "org:hq"
ASSISTANT = "assistant"
FIRST_DAY, LAST_DAY = date(2024, 2, 1), date(2026, 9, 30)


def frame_half(frame: str) -> str:
    """The fixed split of the frames: a frame's number, even → ``dev``, odd → ``held``."""
    return "dev" if int(frame.rsplit("/", 1)[1]) % 2 == 0 else "held"


def member_name(user_id: str) -> str:
    return user_id[:1].upper() + user_id[1:]


def month_text(day: date) -> str:
    return f"{day.strftime('%B')} {day.year}"


def date_spellings(iso: str) -> tuple[str, ...]:
    """The ways an answer may write the day ``iso``."""
    day = date.fromisoformat(iso)
    month, short = day.strftime("%B"), day.strftime("%b")
    return (iso, f"{day.day} {month}", f"{month} {day.day}", f"{day.day} {short} {day.year}", f"{short} {day.day},")


@dataclass(frozen=True)
class Note:
    key: str
    content: str
    scope: str  # "team:<key>" or ORG
    author: str  # "admin" (curated) or the user id of the member whose agent writes it
    reference: str  # ISO datetime: the note's own "now"
    project: str | None = None
    tenant: str = "main"  # "main" | "other"


@dataclass
class Session:
    session_id: str
    user_id: str
    day: date
    events: list[dict[str, Any]]  # {id, author, timestamp (epoch seconds), text}: the sessions API's shape

    def payload(self) -> dict[str, Any]:
        return {"app_name": APP_NAME, "user_id": self.user_id, "session_id": self.session_id, "events": self.events}


@dataclass(frozen=True)
class Question:
    id: str
    half: str
    kind: str
    attribute: str
    frame: str  # "<family>/<attribute>/<number>"
    text: str
    asker: str  # a user id (in the other tenant for private-tenant)
    subject: str
    expected: tuple[str, ...]  # any of these is right; empty: nothing visible to the asker states it
    stating: tuple[str, ...]  # keys of the memories stating an expected value
    wrong: tuple[str, ...]  # values that are wrong or outdated here
    tenant: str = "main"
    as_of: str | None = None  # ISO datetime for SearchOptions(as_of=...)
    project: str | None = None
    private: tuple[str, ...] = ()  # keys that must never be a hit
    must_not_name: tuple[str, ...] = ()  # private values nothing visible to the asker states


@dataclass
class Half:
    """One half's memories and questions."""

    name: str
    sessions: list[Session] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    scope_of: dict[str, str] = field(default_factory=dict)  # memory key -> scope tag ("user:<id>", "team:…", ORG)
    texts: dict[str, str] = field(default_factory=dict)  # memory key -> text

    def teams(self) -> dict[str, tuple[str, ...]]:
        return dict(v.MEMBERS[self.name])

    def chain(self, user_id: str) -> set[str]:
        team = next(t for t, members in self.teams().items() if user_id in members)
        return {f"user:{user_id}", f"team:{team}", ORG}

    def visible_keys(self, user_id: str, project: str | None = None) -> list[str]:
        """Keys of the memories ``user_id`` sees (their chain; a project's notes only when asked with it)."""
        chain = self.chain(user_id)
        projects = {n.key for n in self.notes if n.project is not None and n.project != project}
        return [key for key, scope in self.scope_of.items() if scope in chain and key not in projects]


@dataclass
class Dataset:
    seed: int
    halves: dict[str, Half]

    @property
    def questions(self) -> list[Question]:
        return [q for half in self.halves.values() for q in half.questions]


def names(text: str, value: str) -> bool:
    """``text`` names ``value`` (case-insensitive, as a whole word or phrase; a day in any of its spellings)."""
    try:
        spellings = date_spellings(value)
    except ValueError:
        spellings = (value,)
    return any(re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text, re.IGNORECASE) for s in spellings)
