"""A seeded generator of chats between two friends, with labelled questions (``generate``). Pure Python.

Each conversation is two people (never an assistant) talking over many sessions weeks apart: a greeting, small talk
that drifts from topic to topic, the news of their lives (several facts a session, often across two turns, some
of them photos described in the turn), the topic coming back later without the fact, the friend using the same
words about someone else, and a goodbye. Questions are asked the way people ask about a chat, mostly with the words
that were said and sometimes not (``bench.realchat.chat.PARAPHRASE_SHARE``), in five families: ``single-hop``,
``multi-hop`` (evidence in two or more turns, usually in different sessions), ``temporal`` (a day, said relative to
the session's date or the session's date itself), ``knowledge-update`` (the later statement is the evidence, the
earlier one superseded) and ``never-said`` (no evidence; half of them ask one friend about the other's fact).

The three halves are disjoint in content, not only in wording: ``half="dev"`` and ``half="held"`` draw people,
values, statements, distractors, small talk and question frames from disjoint shares of every pool
(``bench.realchat.vocabulary.half_of``), and ``half="dev2"``, a second development half, from pools of its own
(``bench.realchat.dev2``), so no conversation of one half repeats another half's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bench.realchat import vocabulary as v
from bench.realchat.chat import PARAPHRASE_SHARE, SMALL_TALK_MAX, SMALL_TALK_MIN, Chat, Lexicon, Turn, fill
from bench.realchat.lives import lives, never_said

FAMILIES = ("single-hop", "multi-hop", "temporal", "knowledge-update", "never-said")
ANSWERABLE = FAMILIES[:-1]
APP_NAME = "realchat"


@dataclass(frozen=True)
class Question:
    id: str
    conversation_id: str
    user_id: str
    family: str
    kind: str  # "<fact kind>/<question>", or "never-said/absent"
    half: str
    text: str
    evidence: tuple[str, ...]  # event ids; empty when never said
    superseded: tuple[str, ...] = ()  # knowledge update: the earlier statement's event ids
    answer: str = ""
    gold_date: str | None = None  # temporal: the ISO day
    paraphrased: bool = False  # asked without the frame that repeats the statement's words
    as_of: str = ""


@dataclass
class Session:
    session_id: str
    day: date
    events: list[dict[str, Any]]  # {id, author, timestamp (ISO 8601), text}: the sessions API's shape


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
    half: str
    conversations: list[Conversation]
    questions: list[Question]

    def events_by_id(self) -> dict[str, dict[str, Any]]:
        return {e["id"]: e for c in self.conversations for s in c.sessions for e in s.events}


# --- sessions and questions ------------------------------------------------------------------------------------


def _small_talk(c: Chat, unsaid: list[tuple[str, ...]], count: int) -> list[list[Turn]]:
    """``count`` exchanges of small talk, each taken from ``unsaid`` (a conversation has each at most once)."""
    lex, rng = c.lex, c.rng
    pieces = []
    for _ in range(min(count, len(unsaid))):
        exchange = unsaid.pop()
        first, second = rng.sample(c.names, 2)
        fields = {"show": rng.choice(lex.shows), "snack": rng.choice(lex.snacks),
                  "third": rng.choice(lex.third_parties), "weekday": rng.choice(v.WEEKDAYS)}  # fmt: skip
        turns = [Turn(first if raw[0] == "A" else second, fill(raw[2:], fields)) for raw in exchange]
        if not any(turn.text in c.said for turn in turns):
            c.said.update(turn.text for turn in turns)
            pieces.append(turns)
    return pieces


def _exchange(templates: tuple[str, ...], first: str, second: str) -> list[Turn]:
    """A greeting or a goodbye: ``A`` is ``first``, ``B`` (and ``{b}``) is ``second``."""
    return [Turn(first if raw[0] == "A" else second, fill(raw[2:], {"b": second})) for raw in templates]


def _assemble(c: Chat) -> list[Session]:
    """The sessions: a greeting, the session's news and asides shuffled with small talk, a goodbye. No greeting,
    goodbye or small talk comes twice in a conversation, so that every turn is a memory of its own."""
    rng, lex = c.rng, c.lex
    unsaid = rng.sample(lex.small_talk, len(lex.small_talk))
    greetings = rng.sample(lex.greetings, len(lex.greetings))
    closings = rng.sample(lex.closings, len(lex.closings))
    sessions = []
    for index, (day, blocks) in enumerate(zip(c.days, c.blocks, strict=True)):
        first, second = rng.sample(c.names, 2)
        pieces = blocks + _small_talk(c, unsaid, rng.randint(SMALL_TALK_MIN, SMALL_TALK_MAX))
        rng.shuffle(pieces)
        turns = _exchange(greetings[index % len(greetings)], first, second)
        turns += [turn for piece in pieces for turn in piece]
        turns += _exchange(closings[index % len(closings)], first, second)
        session_id = f"{c.id}-s{index:02d}"
        clock = datetime.combine(day, time(hour=rng.randint(8, 20), minute=rng.randrange(60)), tzinfo=UTC)
        events = []
        for number, turn in enumerate(turns):
            clock += timedelta(seconds=rng.randint(20, 150))
            turn.id = f"{session_id}-t{number:03d}"
            events.append({"id": turn.id, "author": turn.author, "timestamp": clock.isoformat(), "text": turn.text})
        sessions.append(Session(session_id=session_id, day=day, events=events))
    return sessions


def _questions(c: Chat, user_id: str, as_of: datetime) -> list[Question]:
    out = []
    # exactly PARAPHRASE_SHARE of a conversation's answerable questions are paraphrased, so the share does not
    # drift from one draw to the next
    answerable = [i for i, ask in enumerate(c.asks) if ask.family in ANSWERABLE]
    paraphrasing = set(c.rng.sample(answerable, round(PARAPHRASE_SHARE * len(answerable))))
    for index, ask in enumerate(c.asks):
        paraphrased = index in paraphrasing
        if ask.key == "never-said/absent":
            frames = c.lex.absent
        else:
            frames = (c.lex.paraphrase if paraphrased else c.lex.echo)[ask.key]
        text = fill(c.rng.choice(frames), {**ask.fields, "name": ask.subject, "other": c.other(ask.subject)})
        out.append(
            Question(
                id=f"{c.id}-q{len(out):03d}",
                conversation_id=c.id,
                user_id=user_id,
                family=ask.family,
                kind=ask.key,
                half=c.lex.half,
                text=text,
                evidence=tuple(dict.fromkeys(turn.id for turn in ask.evidence)),
                superseded=tuple(dict.fromkeys(turn.id for turn in ask.superseded)),
                answer=ask.answer,
                gold_date=ask.gold_date.isoformat() if ask.gold_date else None,
                paraphrased=paraphrased,
                as_of=as_of.isoformat(),
            )
        )
    return out


def generate(seed: int = 11, *, half: str = "dev", conversations: int = 12, sessions: int = 18) -> Dataset:
    """``conversations`` chats of ``sessions`` sessions from the ``half``'s pools, and their questions; the same
    arguments give the same dataset, byte for byte."""
    if conversations < 1 or sessions < 12:
        raise ValueError("need at least one conversation of at least 12 sessions")
    lex = Lexicon(half)
    people = list(lex.people)
    if 2 * conversations > len(people):
        raise ValueError(f"the {half} half has people for at most {len(people) // 2} conversations")
    random.Random(f"realchat/{seed}/{half}").shuffle(people)
    chats, questions = [], []
    for index in range(conversations):
        rng = random.Random(f"realchat/{seed}/{half}/{index}")
        chat = Chat(rng, lex, f"{half}-c{index:02d}", (people[2 * index], people[2 * index + 1]), sessions)
        lives(chat)
        never_said(chat, count=2)
        assembled = _assemble(chat)
        user_id = f"{half}chat{index:02d}"
        last = max([chat.days[-1], *(ask.gold_date for ask in chat.asks if ask.gold_date)])
        as_of = datetime.combine(last + timedelta(days=3), time(12), tzinfo=UTC)  # after every answer's day
        chats.append(Conversation(chat.id, user_id, chat.names, assembled))
        questions += _questions(chat, user_id, as_of)
    return Dataset(seed=seed, half=half, conversations=chats, questions=questions)
