"""The questions of one half, asked about the stories a ``StoryBuilder`` built: now, self, before, as of a month (by
option and in words), curated against agent, never said, unknown subjects, and private facts asked where they
must not reach."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.facts import vocabulary as v
from bench.facts.model import (
    FRAMES_OF,
    PERSON_ATTRIBUTES,
    PRIVATE,
    Question,
    frame_half,
    member_name,
    month_text,
    names,
)
from bench.facts.stories import Period, Story, StoryBuilder, fill, next_month


class QuestionWriter:
    """Writes the questions of ``builder``'s half into it."""

    def __init__(self, builder: StoryBuilder) -> None:
        self.builder, self.rng, self.half, self.name = builder, builder.rng, builder.half, builder.name
        self.stories, self.members, self.used = builder.stories, builder.members, builder.used
        self.systems, self.projects = builder.systems, builder.projects

    def frame(self, family: str, attribute: str, taken: set[str]) -> tuple[str, str]:
        """A frame of this half (one the subject was not yet asked in, when there is one)."""
        frames = v.FRAMES[family][attribute]
        ids = [f"{family}/{attribute}/{n}" for n in range(len(frames))]
        mine = [frame for frame in ids if frame_half(frame) == FRAMES_OF[self.name]]
        frame = self.rng.choice([f for f in mine if f not in taken] or mine)
        taken.add(frame)
        return frame, frames[int(frame.rsplit("/", 1)[1])]

    def ask(
        self,
        kind: str,
        family: str,
        story_subject: str,
        attribute: str,
        asker: str,
        taken: set[str],
        expected: tuple[str, ...] = (),
        stating: tuple[str, ...] = (),
        **extra: Any,
    ) -> None:
        frame, template = self.frame(family, attribute, taken)
        month = extra.pop("month", None)
        text = fill(template, s=story_subject, m=month_text(month) if month else "")
        wrong = extra.pop("wrong", None) or tuple(sorted(self.used[attribute] - set(expected) - {story_subject}))
        number = len(self.half.questions)
        self.half.questions.append(
            Question(
                id=f"{self.name}-q{number:04d}",
                half=self.name,
                kind=kind,
                attribute=attribute,
                frame=frame,
                text=text,
                asker=asker,
                subject=story_subject,
                expected=expected,
                stating=stating,
                wrong=wrong,
                **extra,
            )
        )

    def as_of_months(self, story: Story) -> list[tuple[Period, date]]:
        """Months wholly inside a closed period and after its statement."""
        months = []
        for period in story.periods:
            if period.end is None or period is story.curated:
                continue
            month = next_month(period.stated)
            while next_month(month) <= period.end:
                months.append((period, month))
                month = next_month(month)
        return months

    def ask_about_stories(self) -> None:
        rng = self.rng
        owner_keys: dict[str, tuple[str, ...]] = {}
        for key, scope in self.half.scope_of.items():
            if scope.startswith("user:"):
                owner_keys.setdefault(scope[5:], ())
                owner_keys[scope[5:]] += (key,)
        for story in self.stories:
            taken: set[str] = set()
            subject, attribute = story.subject, story.attribute
            values = tuple(dict.fromkeys(p.value for p in story.periods))
            current = story.curated or story.periods[-1]
            if story.curated is not None:
                for asker in rng.sample(story.askers, 2):
                    self.ask("curated", "now", subject, attribute, asker, taken, (current.value,), (current.key,))
                continue
            if story.project is not None:
                self.ask(
                    "now",
                    "now",
                    subject,
                    attribute,
                    rng.choice(story.askers),
                    taken,
                    (current.value,),
                    (current.key,),
                    project=story.project,
                )
                for asker in rng.sample(story.askers, 2):
                    self.ask(
                        "private-project",
                        "now",
                        subject,
                        attribute,
                        asker,
                        taken,
                        private=(current.key,),
                        must_not_name=values,
                    )
                continue
            if story.closing:  # nothing holds now: the closed value must not come back as current
                closed = {"stating": (story.closing_key,), "wrong": (current.value,)}
                for _ in range(1 if story.owner else 2):
                    self.ask("closed", "now", subject, attribute, rng.choice(story.askers), taken, **closed)
                if story.owner and subject == member_name(story.owner):
                    self.ask("closed", "self", subject, attribute, story.owner, taken, **closed)
                current = None
            else:
                for _ in range(1 if story.owner else 2):
                    self.ask(
                        "now",
                        "now",
                        subject,
                        attribute,
                        rng.choice(story.askers),
                        taken,
                        (current.value,),
                        (current.key,),
                    )
                if story.owner and subject == member_name(story.owner):
                    self.ask("self", "self", subject, attribute, story.owner, taken, (current.value,), (current.key,))
            earlier = [p for p in story.periods if p is not current]
            if earlier:
                self.ask(
                    "before",
                    "before",
                    subject,
                    attribute,
                    rng.choice(story.askers),
                    taken,
                    tuple(p.value for p in earlier),
                    tuple(p.key for p in earlier),
                )
            months = [] if story.history_only else self.as_of_months(story)
            for kind in ("as-of", "as-of-date")[: len(months)]:
                period, month = months.pop(rng.randrange(len(months)))
                moment = datetime.combine(month + timedelta(days=14), time(12), tzinfo=UTC).isoformat()
                extra = {"as_of": moment} if kind == "as-of" else {"month": month}
                self.ask(
                    kind,
                    kind,
                    subject,
                    attribute,
                    rng.choice(story.askers),
                    taken,
                    (period.value,),
                    (period.key,),
                    **extra,
                )
            if story.owner:
                teammate = rng.choice([m for m in self.members if m != story.owner])
                self.ask(
                    "private-teammate",
                    "now",
                    subject,
                    attribute,
                    teammate,
                    taken,
                    private=owner_keys[story.owner],
                    must_not_name=values,
                )
            if rng.random() < 0.35:
                self.ask(
                    "private-tenant",
                    "now",
                    subject,
                    attribute,
                    rng.choice(self.members),
                    taken,
                    tenant="other",
                    must_not_name=values,
                )

    def ask_about_the_unsaid(self) -> None:
        """never-said: an attribute of a subject the asker's memories (or the org chart) name, that nothing states;
        unknown-subject: a name, system or project nothing mentions."""
        rng = self.rng
        stated = {(story.subject, story.attribute) for story in self.stories}
        subjects = [*(member_name(m) for m in self.members), *v.PEOPLE[self.name], *self.systems, *self.projects]
        members = {member_name(m) for m in self.members}
        candidates = []
        for asker in self.members:
            seen = " ".join(self.half.texts[key] for key in self.half.visible_keys(asker))
            for subject in subjects:
                if subject not in members and not names(seen, subject):
                    continue
                if subject in self.systems:
                    attributes: tuple[str, ...] = ("owned_by",)
                elif subject in self.projects:
                    attributes = ("due_date",)
                else:
                    attributes = PERSON_ATTRIBUTES
                candidates += [(asker, subject, a) for a in attributes if (subject, a) not in stated]
        rng.shuffle(candidates)
        asked: set[tuple[str, str]] = set()
        for asker, subject, attribute in candidates:
            if (subject, attribute) not in asked and len(asked) < 16:
                asked.add((subject, attribute))
                self.ask("never-said", "now", subject, attribute, asker, set())
        unknown = [(name, rng.choice(PERSON_ATTRIBUTES)) for name in v.NOBODY[self.name]]
        unknown += [(self.systems[5], "owned_by"), (self.projects[4], "due_date")]
        for subject, attribute in unknown:
            for asker in rng.sample(self.members, 2):
                self.ask("unknown-subject", "now", subject, attribute, asker, set())

    def hide_only_the_unseen(self) -> None:
        """A private question's values that something visible to the asker also says (another story's value) are
        not leaks when named: keep in ``must_not_name`` only what nothing visible says."""
        for index, question in enumerate(self.half.questions):
            if question.kind not in PRIVATE or question.tenant != "main":
                continue
            seen = " ".join(self.half.texts[key] for key in self.half.visible_keys(question.asker))
            hidden = tuple(value for value in question.must_not_name if not names(seen, value))
            self.half.questions[index] = replace(question, must_not_name=hidden)
