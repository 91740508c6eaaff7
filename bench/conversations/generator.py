"""A seeded, deterministic generator of multi-session chats with labelled questions (``generate``).

Each conversation is two friends talking over 15+ sessions, days to weeks apart. Facts about both are stated the
way chats state them: across turns ("Did you make it to …?" / "I did, last Tuesday!"), with relative dates
resolved against the session's date, and some of them change later (a move, a new job, a cancelled trip, a club
that moved to another weekday). Small talk that reuses the facts' words sits between them.

Questions come in five families — ``single-hop``, ``multi-session`` (evidence in several sessions), ``temporal``
(a date, or what happened in a window), ``knowledge-update`` (the current value; the superseded turns are kept)
and ``abstention`` (never said) — and each is written from one of several frames. A frame belongs to the
development half when its number within its fact kind is even, to the held-back half when it is odd
(``frame_half``), so every fact kind is asked in both halves and the held-back wordings are never seen while
developing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.conversations import vocabulary as v

FAMILIES = ("single-hop", "multi-session", "temporal", "knowledge-update", "abstention")
APP_NAME = "chat-companion"
_ORDINAL_SUFFIX = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
_COUNT_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}
_TAILS = ("Anyway.", "Honestly.", "Ha.", "So yes.", "Fingers crossed.", "Mad, right?")


@dataclass(frozen=True)
class Question:
    id: str
    conversation_id: str
    user_id: str
    family: str
    frame: str  # "<family>/<fact kind>/<number>"
    half: str  # "dev" | "held"
    text: str
    evidence: tuple[str, ...]  # event ids; empty for abstention
    superseded: tuple[str, ...] = ()  # knowledge update: the older statement's event ids
    answer: str = ""
    gold_date: str | None = None  # temporal "when": the ISO day
    gold_window: dict[str, str] | None = None  # temporal "what happened in": {start, end}
    as_of: str = ""  # ISO datetime the question is asked at (after the conversation's last session)


@dataclass
class Session:
    session_id: str
    day: date
    events: list[dict[str, Any]]  # {id, author, timestamp (epoch seconds), text}: the sessions API's shape


@dataclass
class Conversation:
    conversation_id: str
    user_id: str
    speakers: tuple[str, str]
    sessions: list[Session]

    def payloads(self) -> list[dict[str, Any]]:
        """One ``POST /api/v1/sessions`` body per session."""
        return [
            {"app_name": APP_NAME, "user_id": self.user_id, "session_id": s.session_id, "events": s.events}
            for s in self.sessions
        ]


@dataclass
class Dataset:
    seed: int
    conversations: list[Conversation]
    questions: list[Question]

    def events_by_id(self) -> dict[str, dict[str, Any]]:
        return {e["id"]: e for c in self.conversations for s in c.sessions for e in s.events}


def frame_half(frame: str) -> str:
    """The fixed split: a frame's number within its fact kind, even → ``dev``, odd → ``held``."""
    return "dev" if int(frame.rsplit("/", 1)[1]) % 2 == 0 else "held"


# --- building blocks -------------------------------------------------------------------------------------------


class _Turn:
    __slots__ = ("author", "text", "id")

    def __init__(self, author: str, text: str) -> None:
        self.author, self.text, self.id = author, text, ""


def _fill(template: str, fields: dict[str, str]) -> str:
    """``str.format`` where ``{Key}`` is ``{key}`` with its first letter capitalised."""
    full = dict(fields)
    for key, value in fields.items():
        full[key[:1].upper() + key[1:]] = value[:1].upper() + value[1:]
    return template.format(**full)


@dataclass
class _Pending:
    family: str
    kind: str
    subject: str
    frames: tuple[str, ...]
    fields: dict[str, str]
    evidence: list[_Turn]
    superseded: list[_Turn] = field(default_factory=list)
    answer: str = ""
    gold_date: date | None = None
    gold_window: tuple[date, date] | None = None


class _Builder:
    def __init__(self, rng: random.Random, conversation_id: str, sessions: int, start: date) -> None:
        self.rng = rng
        self.id = conversation_id
        self.names = tuple(rng.sample(v.FIRST_NAMES, 2))
        self.days = [start]
        for _ in range(sessions - 1):
            self.days.append(self.days[-1] + timedelta(days=rng.choice((2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 21))))
        self.blocks: list[list[list[_Turn]]] = [[] for _ in range(sessions)]
        self.pending: list[_Pending] = []
        self.event_days: dict[str, set[date]] = {name: set() for name in self.names}
        self.trip_places: set[str] = set()
        self.companies: set[str] = set()
        self.said: set[str] = set()
        self._small_talk: list[str] = []

    def small_talk(self, count: int) -> list[str]:
        """``count`` distractor sentences this conversation has not used yet (drawn from every "{who}" filling)."""
        if len(self._small_talk) < count:
            pool = [_fill(t, {"who": who}) for t in v.DISTRACTORS for who in (v.WHO if "{who}" in t else ("",))]
            self._small_talk = [text for text in pool if text not in self.said]
            self.rng.shuffle(self._small_talk)
        taken, self._small_talk = self._small_talk[:count], self._small_talk[count:]
        return taken

    def other(self, name: str) -> str:
        return self.names[1] if name == self.names[0] else self.names[0]

    def say(self, session: int, subject: str, statements, fields: dict[str, str]) -> list[_Turn]:
        """Put one of ``statements`` (its turns) in a session; returns its evidence turns. An evidence turn's text
        is never one the conversation already holds (the sessions service stores a repeated text once)."""
        fields = {"name": subject, "other": self.other(subject), **fields}
        for attempt, statement in enumerate([*self.rng.sample(statements, len(statements)), statements[0]]):
            block, evidence = [], []
            for speaker, template, is_evidence in statement:
                text = _fill(template, fields)
                if is_evidence and attempt == len(statements):
                    while text in self.said:
                        text = f"{text} {self.rng.choice(_TAILS)}"
                turn = _Turn(subject if speaker == "S" else self.other(subject), text)
                block.append(turn)
                if is_evidence:
                    evidence.append(turn)
            if not any(turn.text in self.said for turn in evidence):
                break
        self.said.update(turn.text for turn in evidence)
        self.blocks[session].append(block)
        return evidence

    def distract(self, after: int, subject: str, kind: str, fields: dict[str, str]) -> None:
        """Sometimes, in a later session, the other person says the fact's words about something else."""
        if self.rng.random() < 0.4 or after >= len(self.days):
            return
        text = _fill(self.rng.choice(v.HARD_DISTRACTORS[kind]), fields)
        if text not in self.said:
            self.said.add(text)
            self.blocks[self.rng.randrange(after, len(self.days))].append([_Turn(self.other(subject), text)])

    def ask(self, pending: _Pending) -> None:
        self.pending.append(pending)


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _day_text(day: date) -> str:
    return f"{day.day} {day.strftime('%B')}"


def _ordinal(n: int) -> str:
    return f"{n}{_ORDINAL_SUFFIX.get(n, 'th')}"


def _past_when(rng: random.Random, today: date) -> tuple[str, date]:
    """A relative (or absolute) way to say a recent past day, and the day it means."""
    choice = rng.randrange(9)
    if choice == 0:
        return "yesterday", today - timedelta(days=1)
    if choice == 1:
        return "the day before yesterday", today - timedelta(days=2)
    if choice == 2:
        back = rng.randint(3, 6)
        return f"{_COUNT_WORDS[back]} days ago", today - timedelta(days=back)
    if choice == 3:
        return "a week ago", today - timedelta(days=7)
    if choice == 4:
        return "two weeks ago", today - timedelta(days=14)
    if choice in (5, 6):
        weekday = rng.randrange(7)
        delta = (today.weekday() - weekday) % 7 or 7
        return f"last {v.WEEKDAY_NAMES[weekday]}", today - timedelta(days=delta)
    if choice == 7 and today.day > 3:
        day = rng.randint(1, today.day - 2)
        return f"on the {_ordinal(day)}", today.replace(day=day)
    back = rng.randint(3, 12)
    past = today - timedelta(days=back)
    return f"on {_day_text(past)}", past


def _future_when(rng: random.Random, today: date) -> tuple[str, date]:
    choice = rng.randrange(5)
    if choice == 0:
        return "tomorrow", today + timedelta(days=1)
    if choice == 1:
        return "the day after tomorrow", today + timedelta(days=2)
    if choice == 2:
        weekday = rng.randrange(7)
        delta = (weekday - today.weekday()) % 7 or 7
        return f"next {v.WEEKDAY_NAMES[weekday]}", today + timedelta(days=delta)
    if choice == 3:
        ahead = rng.randint(3, 6)
        return f"in {_COUNT_WORDS[ahead]} days", today + timedelta(days=ahead)
    ahead = rng.randint(3, 12)
    future = today + timedelta(days=ahead)
    return f"on {_day_text(future)}", future


# --- the conversation ------------------------------------------------------------------------------------------


def _single_hop(b: _Builder, taken: dict[str, set[str]]) -> None:
    rng = b.rng
    kinds = ["job", "pet", "instrument", "hometown", "allergy", "car"]
    jobs = rng.sample(v.JOBS, 2)
    pets = rng.sample(v.PETS, 2)
    for index, name in enumerate(b.names):
        for kind in rng.sample(kinds, 3):
            taken[name].add(kind)
            session = rng.randrange(0, len(b.days) - 4)
            if kind == "job":
                role, company = jobs[index]
                b.companies.add(company)
                fields = {"role": role, "company": company, "role_a": _article(role)}
                evidence = b.say(session, name, v.JOB_STATEMENTS, fields)
                b.distract(session + 1, name, "job", fields)
                b.ask(_Pending("single-hop", "employer", name, v.EMPLOYER_FRAMES, fields, evidence, answer=company))
                b.ask(_Pending("single-hop", "occupation", name, v.ROLE_FRAMES, fields, evidence, answer=role))
            elif kind == "pet":
                breed, species, pet = pets[index]
                fields = {"breed": breed, "species": species, "pet": pet}
                evidence = b.say(session, name, v.PET_STATEMENTS, fields)
                b.distract(session + 1, name, "pet", fields)
                b.ask(_Pending("single-hop", "pet", name, v.PET_FRAMES, fields, evidence, answer=pet))
                later = rng.randrange(session + 3, len(b.days))
                trouble, _ = rng.choice(v.PET_TROUBLE)
                more = b.say(later, name, v.PET_TROUBLE_STATEMENTS, {**fields, "trouble": trouble})
                b.ask(_Pending("multi-session", "pet-trouble", name, v.PET_TROUBLE_FRAMES, fields, evidence + more,
                               answer=trouble))  # fmt: skip
            else:
                pools = {
                    "instrument": (v.INSTRUMENTS, v.INSTRUMENT_STATEMENTS, v.INSTRUMENT_FRAMES),
                    "hometown": (v.HOMETOWNS, v.HOMETOWN_STATEMENTS, v.HOMETOWN_FRAMES),
                    "allergy": (v.ALLERGENS, v.ALLERGY_STATEMENTS, v.ALLERGY_FRAMES),
                    "car": (v.CARS, v.CAR_STATEMENTS, v.CAR_FRAMES),
                }
                values, statements, frames = pools[kind]
                key = {"instrument": "instrument", "hometown": "town", "allergy": "allergen", "car": "car"}[kind]
                value = values[(rng.randrange(len(values)) + index) % len(values)]
                fields = {key: value}
                evidence = b.say(session, name, statements, fields)
                b.distract(session + 1, name, kind, fields)
                b.ask(_Pending("single-hop", kind, name, frames, fields, evidence, answer=value))


def _multi_session(b: _Builder) -> None:
    rng = b.rng
    subject = rng.choice(b.names)
    relation = rng.choice(v.SIBLING_RELATIONS)
    relative = rng.choice(v.RELATIVE_NAMES[relation])
    job = rng.choice(v.SIBLING_JOBS)
    fields = {"relation": relation, "relative": relative, "relative_job": job}
    first = rng.randrange(0, len(b.days) - 6)
    second = rng.randrange(first + 3, len(b.days))
    evidence = b.say(first, subject, v.SIBLING_INTRO, fields)
    evidence += b.say(second, subject, v.SIBLING_JOB, fields)
    b.ask(_Pending("multi-session", "relative-job", subject, v.SIBLING_FRAMES, fields, evidence, answer=job))

    traveller = b.other(subject)
    places = rng.sample(v.TRIP_PLACES[:8], rng.choice((2, 3)))
    sessions = sorted(rng.sample(range(1, len(b.days)), len(places)))
    evidence = []
    for place, session in zip(places, sessions, strict=True):
        evidence += b.say(session, traveller, v.TRIP_STATEMENTS, {"place": place})
        b.distract(session + 1, traveller, "trip", {"place": place})
    b.ask(_Pending("multi-session", "trips", traveller, v.TRIP_FRAMES, {}, evidence, answer=", ".join(places)))
    b.trip_places.update(places)


def _temporal(b: _Builder, count: int) -> None:
    rng = b.rng
    events = rng.sample(v.EVENTS, count)
    by_person: dict[str, list[tuple[date, list[_Turn]]]] = {name: [] for name in b.names}
    sessions = rng.sample(range(1, len(b.days) - 1), count)
    for (said, noun, verb), session in zip(events, sessions, strict=True):
        subject = rng.choice(b.names)
        today = b.days[session]
        future = rng.random() < 0.35
        for _ in range(8):
            when, day = (_future_when if future else _past_when)(rng, today)
            if day not in b.event_days[subject]:
                break
        b.event_days[subject].add(day)
        plain = said if said.startswith("the ") or "'s " in said else f"the {said}"
        fields = {"event": said, "when": when, "comment": rng.choice(v.EVENT_COMMENTS), "noun": noun, "verb": verb,
                  "thing": noun.removeprefix("the "), "said_plain": plain}  # fmt: skip
        evidence = b.say(session, subject, v.EVENT_FUTURE if future else v.EVENT_PAST, fields)
        b.distract(session + 1, subject, "event", fields)
        after = next((i for i in range(session + 1, len(b.days)) if b.days[i] > day), None)
        if future and after is not None:
            b.blocks[after].append([_Turn(b.other(subject), v.EVENT_FOLLOW_UP[0][1]),
                                    _Turn(subject, v.EVENT_FOLLOW_UP[1][1])])  # fmt: skip
        b.ask(_Pending("temporal", "when", subject, v.WHEN_FRAMES, fields, evidence, answer=day.isoformat(),
                       gold_date=day))  # fmt: skip
        by_person[subject].append((day, evidence))
    for name, happened in by_person.items():
        if not happened:
            continue
        day, evidence = rng.choice(happened)
        if rng.random() < 0.5:
            fields = {"day": f"{_day_text(day)} {day.year}"}
            b.ask(_Pending("temporal", "on-day", name, v.WINDOW_DAY_FRAMES, fields, evidence, gold_window=(day, day)))
            continue
        first = day.replace(day=1)
        last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        inside = [turn for d, turns in happened if first <= d <= last for turn in turns]
        fields = {"month": f"{day.strftime('%B')} {day.year}"}
        b.ask(_Pending("temporal", "in-month", name, v.WINDOW_MONTH_FRAMES, fields, inside, gold_window=(first, last)))


def _updates(b: _Builder, taken: dict[str, set[str]]) -> None:
    rng = b.rng
    free_for_job = [n for n in b.names if "job" not in taken[n]]
    kinds = rng.sample(["home", "job", "trip", "club"] if free_for_job else ["home", "trip", "club"], 3)
    for kind in kinds:
        candidates = free_for_job if kind == "job" else list(b.names)
        subject = rng.choice(candidates)
        old_session = rng.randrange(0, len(b.days) // 2)
        new_session = rng.randrange(old_session + 3, len(b.days))
        if kind == "home":
            old, new = rng.sample(v.CITIES, 2)
            fields, olds, news, frames = {"old": old, "new": new}, v.HOME_OLD, v.HOME_NEW, v.HOME_FRAMES
        elif kind == "job":
            (role, old), (_, new) = rng.sample([j for j in v.JOBS if j[1] not in b.companies], 2)
            fields, olds, news, frames = (
                {"old": old, "new": new, "role": role},
                v.JOB_OLD,
                v.JOB_NEW,
                v.JOB_UPDATE_FRAMES,
            )
        elif kind == "trip":
            old, new = rng.sample([p for p in v.TRIP_PLACES if p not in b.trip_places], 2)
            fields, olds, news, frames = {"old": old, "new": new}, v.TRIP_OLD, v.TRIP_NEW, v.TRIP_UPDATE_FRAMES
        else:
            club, club_q = rng.choice(v.CLUBS)
            old, new = rng.sample(v.WEEKDAY_NAMES[:5], 2)
            fields = {"old": old, "new": new, "club": club, "club_q": club_q}
            olds, news, frames = v.CLUB_OLD, v.CLUB_NEW, v.CLUB_FRAMES
        superseded = b.say(old_session, subject, olds, fields)
        evidence = b.say(new_session, subject, news, fields)
        if kind == "home":
            b.distract(new_session + 1, subject, "home", fields)
        b.ask(_Pending("knowledge-update", kind, subject, frames, fields, evidence, superseded=superseded, answer=new))


def _abstentions(b: _Builder, count: int) -> None:
    frames = tuple(text for text, _ in v.ABSENT_FRAMES)
    for _ in range(count):
        b.ask(_Pending("abstention", "never-said", b.rng.choice(b.names), frames, {}, []))


def _assemble(b: _Builder) -> list[Session]:
    rng = b.rng
    sessions = []
    for index, (day, blocks) in enumerate(zip(b.days, b.blocks, strict=True)):
        first, second = b.names if index % 2 == 0 else b.names[::-1]
        fields = {"name": first, "other": second}
        opening, reply = rng.choice(v.GREETINGS)
        turns = [_Turn(first, _fill(opening, fields)), _Turn(second, _fill(reply, fields))]
        small_talk = [[_Turn(rng.choice(b.names), text)] for text in b.small_talk(rng.randint(5, 9))]
        small_talk += [[_Turn(rng.choice(b.names), text)] for text in rng.sample(v.FILLERS, rng.randint(2, 4))]
        rng.shuffle(blocks)
        pieces = blocks + small_talk
        rng.shuffle(pieces)
        for piece in pieces:
            turns += piece
        closing, bye = rng.choice(v.CLOSINGS)
        turns += [_Turn(second, closing), _Turn(first, bye)]
        session_id = f"{b.id}-s{index:02d}"
        clock = datetime.combine(day, time(hour=rng.randint(8, 21), minute=rng.randrange(60)), tzinfo=UTC)
        events = []
        for number, turn in enumerate(turns):
            clock += timedelta(seconds=rng.randint(15, 140))
            turn.id = f"{session_id}-t{number:02d}"
            events.append({"id": turn.id, "author": turn.author, "timestamp": clock.timestamp(), "text": turn.text})
        sessions.append(Session(session_id=session_id, day=day, events=events))
    return sessions


def _questions(b: _Builder, as_of: datetime, counter: list[int]) -> list[Question]:
    out = []
    user_id = b.id
    for pending in b.pending:
        number = b.rng.randrange(len(pending.frames))
        text = _fill(pending.frames[number], {**pending.fields, "name": pending.subject})
        frame = f"{pending.family}/{pending.kind}/{number}"
        counter[0] += 1
        window = pending.gold_window
        out.append(
            Question(
                id=f"{b.id}-q{len(out):03d}",
                conversation_id=b.id,
                user_id=user_id,
                family=pending.family,
                frame=frame,
                half=frame_half(frame),
                text=text,
                evidence=tuple(dict.fromkeys(t.id for t in pending.evidence)),
                superseded=tuple(t.id for t in pending.superseded),
                answer=pending.answer,
                gold_date=pending.gold_date.isoformat() if pending.gold_date else None,
                gold_window={"start": window[0].isoformat(), "end": window[1].isoformat()} if window else None,
                as_of=as_of.isoformat(),
            )
        )
    return out


def generate(seed: int = 7, *, conversations: int = 20, sessions: int = 15) -> Dataset:
    """``conversations`` chats of ``sessions`` sessions each, and their questions; the same seed gives the same
    dataset, byte for byte."""
    if conversations < 1 or sessions < 8:
        raise ValueError("need at least one conversation of at least 8 sessions")
    chats, questions, counter = [], [], [0]
    for index in range(conversations):
        rng = random.Random(f"{seed}/{index}")
        start = date(2023, 1, 2) + timedelta(days=rng.randrange(900))
        builder = _Builder(rng, f"conv{index:02d}", sessions, start)
        taken: dict[str, set[str]] = {name: set() for name in builder.names}
        _single_hop(builder, taken)
        _multi_session(builder)
        _temporal(builder, count=5)
        _updates(builder, taken)
        _abstentions(builder, count=3)
        chat_sessions = _assemble(builder)
        last_day = max([builder.days[-1], *(d for days in builder.event_days.values() for d in days)])
        as_of = datetime.combine(last_day + timedelta(days=2), time(12), tzinfo=UTC)
        chats.append(Conversation(builder.id, builder.id, builder.names, chat_sessions))
        questions += _questions(builder, as_of, counter)
    return Dataset(seed=seed, conversations=chats, questions=questions)
