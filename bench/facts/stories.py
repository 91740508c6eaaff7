"""The memories of one half: members' sessions with their assistant (and friends), notes by admins and agents, built
story by story — a subject, an attribute, and the periods its values held (``StoryBuilder.build``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from bench.facts import vocabulary as v
from bench.facts.model import (
    ASSISTANT,
    ATTRIBUTES,
    FIRST_DAY,
    FRAMES_OF,
    LAST_DAY,
    ORG,
    PERSON_ATTRIBUTES,
    Half,
    Note,
    Session,
    member_name,
)

# --- building blocks ---------------------------------------------------------------------------------------------


class _Turn:
    __slots__ = ("author", "text", "id")

    def __init__(self, author: str, text: str) -> None:
        self.author, self.text, self.id = author, text, ""


@dataclass
class Period:
    value: str
    start: date | None  # when it became true (None: before anything the set says)
    stated: date  # the statement's day
    source: _Turn | str  # the stating turn, or a note's key
    end: date | None = None

    @property
    def key(self) -> str:
        return self.source.id if isinstance(self.source, _Turn) else self.source


@dataclass
class Story:
    subject: str  # as questions write it
    attribute: str
    periods: list[Period]
    askers: tuple[str, ...]
    owner: str = ""  # the member whose private sessions hold it
    curated: Period | None = None  # a conflict: the curated period wins
    history_only: bool = False  # the earlier period was stated afterwards ("until 2019"): no as-of questions
    closing: _Turn | str = ""  # a negation that closed the last value with nothing new ("I left Acme")
    project: str | None = None  # stated only in this project's notes

    @property
    def closing_key(self) -> str:
        return self.closing.id if isinstance(self.closing, _Turn) else self.closing


def fill(template: str, **fields: str) -> str:
    """``str.format`` where ``{Key}`` is ``{key}`` capitalised and ``{a_v}`` is ``{v}`` with its article; the text
    starts with a capital."""
    if "v" in fields:
        fields["a_v"] = ("an " if fields["v"][:1].lower() in "aeiou" else "a ") + fields["v"]
    full = dict(fields)
    for key, value in fields.items():
        full[key[:1].upper() + key[1:]] = value[:1].upper() + value[1:]
    text = template.format(**full)
    return text[:1].upper() + text[1:]


def _first_of_month(day: date) -> date:
    return day.replace(day=1)


def next_month(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1)


class StoryBuilder:
    """Builds one half's stories into its ``Half``: sessions and notes, and the periods each value held (what the
    questions are written from). All choices come from ``rng``, in a fixed order."""

    def __init__(self, rng: random.Random, half: Half) -> None:
        self.rng, self.half, self.name = rng, half, half.name
        self.teams = half.teams()
        self.members = [m for members in self.teams.values() for m in members]
        self.blocks: dict[str, list[tuple[date, list[_Turn]]]] = {m: [] for m in self.members}
        self.stories: list[Story] = []
        self.people = list(v.PEOPLE[self.name])
        rng.shuffle(self.people)
        self.pools = {
            "lives_in": list(v.CITIES[self.name]),
            "works_at": list(v.COMPANIES[self.name]),
            "job_title": list(v.TITLES[self.name]),
            "owned_by": list(v.OWNER_TEAMS[self.name]),
        }
        for pool in self.pools.values():
            rng.shuffle(pool)
        self.managers = [self.people.pop() for _ in range(8)]
        self.pools["reports_to"] = self.managers
        self.systems = list(v.SYSTEMS[self.name])
        self.projects = list(v.PROJECTS[self.name])
        rng.shuffle(self.systems)
        rng.shuffle(self.projects)
        self.used: dict[str, set[str]] = {a: set() for a in ATTRIBUTES}
        self.counter = 0

    # values and days

    def values(self, attribute: str, count: int, avoid: set[str] = frozenset()) -> list[str]:
        picked = self.rng.sample([value for value in self.pools[attribute] if value not in avoid], count)
        self.used[attribute].update(picked)
        return picked

    def day(self, low: date, high: date) -> date:
        return low + timedelta(days=self.rng.randrange(max(1, (high - low).days)))

    def when(self, said: date) -> tuple[str, date]:
        """A dated phrase for a change said on ``said``, and the day it means."""
        choice = self.rng.randrange(5)
        if choice == 0:
            return "last month", _first_of_month(_first_of_month(said) - timedelta(days=1))
        if choice == 1 and said.month > 2:
            month = said.month - self.rng.randint(1, 2)
            return f"in {date(said.year, month, 1).strftime('%B')}", date(said.year, month, 1)
        if choice == 2:
            return "last week", said - timedelta(days=7)
        if choice == 3:
            return "two weeks ago", said - timedelta(days=14)
        return "yesterday", said - timedelta(days=1)

    def due(self, after: date, floor: date | None = None) -> date:
        """A launch day after ``after`` (and, for a slip, after the previous day ``floor``): even days of the
        month in the development halves, odd in the held one."""
        day = after + timedelta(days=self.rng.randint(100, 180))
        if floor is not None:
            day = max(day, floor + timedelta(days=self.rng.randint(14, 60)))
        while (day.day % 2 == 0) != (FRAMES_OF[self.name] == "dev"):
            day += timedelta(days=1)
        self.used["due_date"].add(day.isoformat())
        return day

    def day_text(self, day: date, said: date) -> str:
        form = self.rng.randrange(3)
        if form == 2 or (day - said).days > 300:
            return f"{day.day} {day.strftime('%B')} {day.year}"
        return f"{day.day} {day.strftime('%B')}" if form == 0 else f"{day.strftime('%B')} {day.day}"

    # memories

    def note(self, content: str, day: date, scope: str, author: str, project: str | None = None) -> str:
        self.counter += 1
        key = f"{self.name}-n{self.counter:03d}"
        moment = datetime.combine(day, time(10, self.rng.randrange(60)), tzinfo=UTC)
        self.half.notes.append(Note(key, content, scope, author, moment.isoformat(), project))
        return key

    def say(self, member: str, day: date, *turns: tuple[str, str]) -> list[_Turn]:
        block = [_Turn(author, text) for author, text in turns]
        self.blocks[member].append((day, block))
        return block

    def note_scope(self) -> tuple[str, tuple[str, ...]]:
        """A team (written by one of its members' agents) or the org; and who may ask."""
        if self.rng.random() < 0.4:
            return ORG, tuple(self.members)
        team = self.rng.choice(sorted(self.teams))
        return f"team:{team}", self.teams[team]

    # stories

    def member_story(self, member: str, attribute: str, pattern: str) -> None:
        rng, name = self.rng, member_name(member)
        count = 3 if pattern == "change3" else 2
        values = self.values(attribute, count)
        d0 = self.day(date(2024, 2, 1), date(2024, 11, 30))
        periods: list[Period] = []
        if pattern == "past":
            current = self.say(
                member,
                d0,
                ("user", fill(rng.choice(v.SELF_FIRST[attribute]), v=values[1])),
                (ASSISTANT, fill(rng.choice(v.ECHOES[attribute]), v=values[1])),
            )
            d1 = self.day(d0 + timedelta(days=90), date(2026, 6, 30))
            year = str(d0.year - rng.randint(1, 3))
            past = self.say(
                member,
                d1,
                ("user", fill(rng.choice(v.SELF_PAST[attribute]), v=values[0], year=year)),
                (ASSISTANT, rng.choice(v.ECHO_PAST)),
            )
            periods = [
                Period(values[0], None, d1, past[0], end=date(int(year), 12, 31)),
                Period(values[1], d0, d0, current[0]),
            ]
            last = d1
        elif pattern == "negated":
            first = self.say(
                member,
                d0,
                ("user", fill(rng.choice(v.SELF_FIRST[attribute]), v=values[0])),
                (ASSISTANT, fill(rng.choice(v.ECHOES[attribute]), v=values[0])),
            )
            said = self.day(d0 + timedelta(days=160), date(2026, 8, 31))
            template = rng.choice(v.SELF_NEGATION[attribute])
            phrase, effective = self.when(said) if "{when}" in template else ("", said)
            closing = self.say(
                member,
                said,
                ("user", fill(template, old=values[0], when=phrase)),
                (ASSISTANT, fill(rng.choice(v.ECHO_NEGATION), old=values[0])),
            )
            periods = [Period(values[0], d0, d0, first[0], end=effective)]
            last = said
        else:
            first = self.say(
                member,
                d0,
                ("user", fill(rng.choice(v.SELF_FIRST[attribute]), v=values[0])),
                (ASSISTANT, fill(rng.choice(v.ECHOES[attribute]), v=values[0])),
            )
            periods = [Period(values[0], d0, d0, first[0])]
            last = d0
            for index in range(1, count):
                said = self.day(last + timedelta(days=160), min(last + timedelta(days=400), date(2026, 8, 31)))
                template = rng.choice(v.SELF_CHANGE[attribute])
                phrase, effective = self.when(said) if "{when}" in template else ("", said)
                text = fill(template, v=values[index], old=values[index - 1], when=phrase)
                turns = self.say(
                    member, said, ("user", text), (ASSISTANT, fill(rng.choice(v.ECHOES[attribute]), v=values[index]))
                )
                periods[-1].end = effective
                periods.append(Period(values[index], effective, said, turns[0]))
                last = said
        if rng.random() < 0.6:
            trap = self.values(attribute, 1, avoid=set(values))[0]
            self.say(
                member,
                self.day(last + timedelta(days=5), last + timedelta(days=60)),
                ("user", fill(rng.choice(v.SELF_TRAPS[attribute]), v=trap)),
                (ASSISTANT, rng.choice(v.TRAP_REPLIES)),
            )
        story = Story(name, attribute, periods, (member,), owner=member, history_only=pattern == "past")
        if pattern == "negated":
            story.closing = closing[0]
        self.stories.append(story)

    def friend_story(self, member: str) -> None:
        rng = self.rng
        friend, attribute = self.people.pop(), rng.choice(("lives_in", "works_at"))
        values = self.values(attribute, 2)
        d0 = self.day(date(2024, 3, 1), date(2025, 3, 31))
        first = self.say(member, d0, (friend, fill(rng.choice(v.FRIEND_FIRST[attribute]), v=values[0])))
        said = self.day(d0 + timedelta(days=150), date(2026, 8, 31))
        template = rng.choice(v.FRIEND_CHANGE[attribute])
        phrase, effective = self.when(said) if "{when}" in template else ("", said)
        change = self.say(
            member,
            said,
            (friend, fill(template, v=values[1], old=values[0], when=phrase)),
            ("user", rng.choice(v.FRIEND_REPLIES)),
        )
        periods = [Period(values[0], d0, d0, first[0], end=effective), Period(values[1], effective, said, change[0])]
        self.stories.append(Story(friend, attribute, periods, (member,), owner=member))

    def two_people_story(self, member: str) -> None:
        rng = self.rng
        p1, p2 = self.people.pop(), self.people.pop()
        cities, companies = self.values("lives_in", 2), self.values("works_at", 2)
        d0 = self.day(date(2024, 3, 1), date(2025, 3, 31))
        first = self.say(
            member,
            d0,
            ("user", fill(rng.choice(v.TWO_PEOPLE_FIRST), p1=p1, p2=p2, c=cities[0], co=companies[0])),
            (ASSISTANT, rng.choice(v.NEWS_ECHOES)),
        )
        said = self.day(d0 + timedelta(days=150), date(2026, 8, 31))
        template = rng.choice(v.TWO_PEOPLE)
        phrase, effective = self.when(said) if "{when}" in template else ("", said)
        change = self.say(
            member,
            said,
            ("user", fill(template, p1=p1, p2=p2, c=cities[1], co=companies[1], when=phrase)),
            (ASSISTANT, rng.choice(v.NEWS_ECHOES)),
        )
        for person, attribute, values in ((p1, "lives_in", cities), (p2, "works_at", companies)):
            periods = [
                Period(values[0], d0, d0, first[0], end=effective),
                Period(values[1], effective, said, change[0]),
            ]
            self.stories.append(Story(person, attribute, periods, (member,), owner=member))

    def note_story(self, subject: str, attribute: str, changes: int) -> None:
        rng = self.rng
        scope, askers = self.note_scope()
        authors = rng.choice((("agent", "agent"), ("agent", "admin"), ("admin", "admin")))
        if scope == ORG:
            authors = ("admin", "admin")
        writer = rng.choice(askers)
        said = self.day(date(2024, 2, 1), date(2024, 10, 31))
        periods: list[Period] = []
        for index in range(changes + 1):
            author = writer if authors[min(index, 1)] == "agent" else "admin"
            if attribute == "due_date":
                floor = date.fromisoformat(periods[-1].value) if periods else None
                value = self.day_text(day := self.due(said, floor), said)
                value_iso = day.isoformat()
            else:
                value_iso = self.values(attribute, 1, avoid={p.value for p in periods} | {subject})[0]
                value = value_iso
            templates = v.NOTE_FIRST if index == 0 else v.NOTE_CHANGE
            template = rng.choice(templates[attribute])
            phrase, effective = self.when(said) if "{when}" in template else ("", said)
            old = periods[-1].value if periods else ""
            text = fill(template, s=subject, v=value, d=value, old=old, when=phrase)
            key = self.note(text, said, scope, author)
            if periods:
                periods[-1].end = effective
            periods.append(Period(value_iso, effective if index else said, said, key))
            if attribute == "due_date":
                said = self.day(said + timedelta(days=75), date.fromisoformat(value_iso) - timedelta(days=7))
            else:
                said = self.day(said + timedelta(days=150), min(said + timedelta(days=400), date(2026, 9, 15)))
        self.stories.append(Story(subject, attribute, periods, askers))

    def negation_story(self, subject: str, attribute: str) -> None:
        """A note states a value; a later one closes it with nothing new ("Ines no longer works at Acme")."""
        rng = self.rng
        scope, askers = self.note_scope()
        author = "admin" if scope == ORG else rng.choice(askers)
        value = self.values(attribute, 1)[0]
        d0 = self.day(date(2024, 2, 1), date(2024, 12, 31))
        first = self.note(fill(rng.choice(v.NOTE_FIRST[attribute]), s=subject, v=value), d0, scope, author)
        said = self.day(d0 + timedelta(days=150), date(2026, 8, 31))
        template = rng.choice(v.NOTE_NEGATION[attribute])
        phrase, effective = self.when(said) if "{when}" in template else ("", said)
        closing = self.note(fill(template, s=subject, old=value, when=phrase), said, scope, author)
        story = Story(subject, attribute, [Period(value, d0, d0, first, end=effective)], askers, closing=closing)
        self.stories.append(story)

    def curated_story(self, subject: str, attribute: str) -> None:
        rng = self.rng
        team = rng.choice(sorted(self.teams))
        curated, agent = self.values(attribute, 2, avoid={subject})
        d0 = self.day(date(2024, 3, 1), date(2025, 6, 30))
        d1 = self.day(d0 + timedelta(days=60), date(2026, 8, 31))
        first = self.note(fill(rng.choice(v.CURATED[attribute]), s=subject, v=curated), d0, ORG, "admin")
        later = self.note(
            fill(rng.choice(v.AGENT_CONFLICT[attribute]), s=subject, v=agent),
            d1,
            f"team:{team}",
            rng.choice(self.teams[team]),
        )
        periods = [Period(curated, d0, d0, first, end=d1), Period(agent, d1, d1, later)]
        self.stories.append(Story(subject, attribute, periods, self.teams[team], curated=periods[0]))

    def project_story(self, attribute: str) -> None:
        rng = self.rng
        team = rng.choice(sorted(self.teams))
        person, value = self.people.pop(), self.values(attribute, 1)[0]
        said = self.day(date(2025, 1, 1), date(2026, 6, 30))
        template = rng.choice([t for t in v.NOTE_CHANGE[attribute] if "{old}" not in t])
        phrase, effective = self.when(said) if "{when}" in template else ("", said)
        project = v.PROJECT_NAME[self.name]
        key = self.note(
            fill(template, s=person, v=value, when=phrase),
            said,
            f"team:{team}",
            rng.choice(self.teams[team]),
            project=project,
        )
        story = Story(person, attribute, [Period(value, effective, said, key)], self.teams[team], project=project)
        self.stories.append(story)

    def fillers(self) -> None:
        rng = self.rng
        for scope in [ORG, *(f"team:{t}" for t in sorted(self.teams))]:
            for text in rng.sample(v.NOTE_FILLERS, 3):
                author = "admin" if scope == ORG else rng.choice(self.teams[scope.split(":")[1]])
                self.note(text, self.day(FIRST_DAY, LAST_DAY), scope, author)
        for attribute, subject in (("owned_by", self.systems[4]), ("due_date", self.projects[3])):
            self.note(fill(rng.choice(v.MENTIONS[attribute]), s=subject), self.day(FIRST_DAY, LAST_DAY), ORG, "admin")

    def build(self) -> list[Story]:
        rng = self.rng
        chosen = [(member, attribute) for member in self.members for attribute in rng.sample(PERSON_ATTRIBUTES, 2)]
        # the members' lives_in / works_at stories: two end in a negation, two are told as history, the rest change
        told = sum(attribute in v.SELF_PAST for _, attribute in chosen)
        deck = ["negated", "negated", "past", "past"][:told]
        deck += [rng.choice(("change", "change", "change3")) for _ in range(told - len(deck))]
        rng.shuffle(deck)
        for member, attribute in chosen:
            pattern = deck.pop() if attribute in v.SELF_PAST else rng.choice(("change", "change", "change3"))
            self.member_story(member, attribute, pattern)
        for member in rng.sample(self.members, 3):
            self.friend_story(member)
        for member in rng.sample(self.members, 2):
            self.two_people_story(member)
        for attribute, changes in (
            ("reports_to", 1),
            ("reports_to", 2),
            ("reports_to", 1),
            ("job_title", 1),
            ("job_title", 1),
            ("works_at", 1),
            ("lives_in", 1),
        ):
            self.note_story(self.people.pop(), attribute, changes)
        for system, changes in zip(self.systems[:3], (1, 2, 1), strict=True):
            self.note_story(system, "owned_by", changes)
        for project, changes in zip(self.projects[:3], (1, 2, 1), strict=True):
            self.note_story(project, "due_date", changes)
        self.negation_story(self.people.pop(), "works_at")
        self.negation_story(self.people.pop(), "lives_in")
        self.curated_story(self.systems[3], "owned_by")
        self.curated_story(self.people.pop(), "reports_to")
        self.curated_story(self.people.pop(), "reports_to")
        self.project_story("lives_in")
        self.project_story("works_at")
        self.fillers()
        self._assemble()
        return self.stories

    def _assemble(self) -> None:
        rng = self.rng
        for member in self.members:
            by_day: dict[date, list[list[_Turn]]] = {}
            for day, block in self.blocks[member]:
                by_day.setdefault(day, []).append(block)
            for _ in range(2):
                by_day.setdefault(self.day(FIRST_DAY, LAST_DAY), [])
            for index, day in enumerate(sorted(by_day)):
                pieces = [*by_day[day]]
                pieces += [[_Turn("user", a), _Turn(ASSISTANT, b)] for a, b in rng.sample(v.FILLERS, 2)]
                rng.shuffle(pieces)
                opening, closing = rng.choice(v.SESSION_OPENINGS), rng.choice(v.SESSION_CLOSINGS)
                turns = [_Turn("user", opening[0]), _Turn(ASSISTANT, opening[1])]
                turns += [turn for piece in pieces for turn in piece]
                turns += [_Turn("user", closing[0]), _Turn(ASSISTANT, closing[1])]
                session_id = f"{self.name}-{member}-s{index:02d}"
                clock = datetime.combine(day, time(rng.randint(8, 20), rng.randrange(60)), tzinfo=UTC)
                events = []
                for number, turn in enumerate(turns):
                    clock += timedelta(seconds=rng.randint(20, 150))
                    turn.id = f"{session_id}-t{number:02d}"
                    events.append(
                        {"id": turn.id, "author": turn.author, "timestamp": clock.timestamp(), "text": turn.text}
                    )
                    self.half.scope_of[turn.id] = f"user:{member}"
                    self.half.texts[turn.id] = turn.text
                self.half.sessions.append(Session(session_id, member, day, events))
        for note in self.half.notes:
            self.half.scope_of[note.key] = note.scope
            self.half.texts[note.key] = note.content
