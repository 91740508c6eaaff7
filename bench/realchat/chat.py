"""Writing one conversation: the half's pools (``Lexicon``), the turns said so far, the facts asked about later,
and how a fact is said (``Chat.say``), comes back without its value (``Chat.surround``) and is asked about (``Ask``).
Pure Python; ``bench.realchat.lives`` says what is said, ``bench.realchat.generator`` assembles the sessions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from bench.realchat import phrasing as p
from bench.realchat import vocabulary as v
from bench.realchat.dev2 import phrasing as p2
from bench.realchat.dev2 import vocabulary as v2
from bench.realchat.vocabulary import HALVES, half_of

# The calibration knobs (bench.realchat.calibration measures what they give): how many questions avoid the words
# that were said, how often a fact's topic comes back without it, how often the friend uses its words elsewhere,
# and how much small talk a session has.
PARAPHRASE_SHARE = 0.25
THREADS_PER_FACT = 4
DISTRACTORS_PER_FACT = 2
SMALL_TALK_MIN, SMALL_TALK_MAX = 2, 4
_GAPS = (5, 7, 9, 11, 14, 16, 19, 23, 28, 33)
_TAILS = ("Anyway!", "Mad, isn't it?", "So that's that.", "Ha.")


class Turn:
    """One turn: who said it, what, and its event id once the sessions are assembled."""

    __slots__ = ("author", "text", "id")

    def __init__(self, author: str, text: str) -> None:
        self.author, self.text, self.id = author, text, ""


def fill(template: str, fields: dict[str, str]) -> str:
    """``str.format`` where ``{Key}`` is ``{key}`` with its first letter capitalised."""
    full = dict(fields)
    for key, value in fields.items():
        full[key[:1].upper() + key[1:]] = value[:1].upper() + value[1:]
    return template.format(**full)


def article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


@dataclass
class Ask:
    """A question to ask once the conversation is written: its family, its frames' key, whom it is about, the
    fields its frame is filled with, and the turns that answer it (and those a later statement replaced)."""

    family: str
    key: str
    subject: str
    fields: dict[str, str]
    evidence: list[Turn]
    superseded: list[Turn] = field(default_factory=list)
    answer: str = ""
    gold_date: date | None = None


class Lexicon:
    """The half's share of every pool of the vocabulary and the phrasing: for ``dev`` and ``held``, their share of
    ``bench.realchat.vocabulary``'s and ``bench.realchat.phrasing``'s tuples (``half_of``); for ``dev2``, the pools of
    ``bench.realchat.dev2`` whole."""

    def __init__(self, half: str) -> None:
        if half not in HALVES:
            raise ValueError(f"half must be one of {HALVES}, got {half!r}")
        self.half = half
        self._vocabulary, phrasing = (v2, p2) if half == "dev2" else (v, p)
        self.statements = {key: self.share(pool) for key, pool in phrasing.STATEMENTS.items()}
        frames = {key: self.share(pool) for key, pool in phrasing.FRAMES.items()}
        mark = p.PARAPHRASE_MARK
        self.echo = {key: tuple(f for f in pool if not f.startswith(mark)) for key, pool in frames.items()}
        self.paraphrase = {key: tuple(f[1:] for f in pool if f.startswith(mark)) for key, pool in frames.items()}
        self.threads = {key: self.share(pool) for key, pool in phrasing.THREADS.items()}
        self.distractors = {key: self.share(pool) for key, pool in phrasing.DISTRACTORS.items()}
        for name in ("ABSENT", "SMALL_TALK", "GREETINGS", "CLOSINGS", "REACTIONS"):
            setattr(self, name.lower(), self.share(getattr(phrasing, name)))

    def share(self, pool: tuple) -> tuple:
        """The half's share of one of its pools: ``dev2`` has pools of its own, ``dev`` and ``held`` split theirs."""
        return tuple(pool) if self.half == "dev2" else half_of(pool, self.half)

    def __getattr__(self, name: str):
        # the vocabulary's pools, by their lower-case name: ``lexicon.pets`` is the half's share of ``PETS``
        pool = getattr(self.__dict__.get("_vocabulary"), name.upper(), None)
        if not isinstance(pool, tuple):
            raise AttributeError(name)
        return self.share(pool)


class Chat:
    """One conversation being written: its two people, its session days (days to weeks apart), the pieces of each
    session (blocks of turns), every text said so far (none is said twice) and the questions to ask."""

    def __init__(self, rng: random.Random, lex: Lexicon, conversation_id: str, names: tuple[str, str], sessions: int):
        self.rng, self.lex, self.id, self.names = rng, lex, conversation_id, names
        start = date(2022, 3, 1) + timedelta(days=rng.randrange(1000))
        self.days = [start]
        for _ in range(sessions - 1):
            self.days.append(self.days[-1] + timedelta(days=rng.choice(_GAPS)))
        self.blocks: list[list[list[Turn]]] = [[] for _ in range(sessions)]
        self.said: set[str] = set()
        self.asks: list[Ask] = []
        self.facts: dict[str, list[tuple[str, str, dict[str, str]]]] = {name: [] for name in names}
        self.used: set[Any] = set()
        self.made: dict[tuple[str, str], list[tuple[str, ...]]] = {}

    @property
    def n(self) -> int:
        return len(self.days)

    def other(self, name: str) -> str:
        return self.names[1] if name == self.names[0] else self.names[0]

    def pick(self, pool):
        """A value of ``pool`` not yet used in this conversation (values repeat only when a pool runs out)."""
        fresh = [value for value in pool if value not in self.used] or list(pool)
        value = self.rng.choice(fresh)
        self.used.add(value)
        return value

    def _turns(self, template_turns, subject: str, fields: dict[str, str]) -> list[tuple[Turn, bool]]:
        fields = {"name": subject, "other": self.other(subject), **fields}
        out = []
        for raw in template_turns:
            who, text = raw.split("|", 1)
            author = subject if who[0] == "S" else self.other(subject)
            out.append((Turn(author, fill(text, fields)), who.endswith("*")))
        return out

    def say(self, session: int, key: str, subject: str, fields: dict[str, str]) -> list[Turn]:
        """One of the half's statements of ``key`` in ``session``, with a reaction sometimes; returns its evidence
        turns. No text is said twice in a conversation (the sessions service keeps one turn per text)."""
        # a statement the subject already made is said last: the same sentence with one word changed would be
        # a near-duplicate, which the store folds into the later turn
        variants = list(self.lex.statements[key])
        self.rng.shuffle(variants)
        made = self.made.setdefault((subject, key), [])
        variants.sort(key=lambda variant: variant in made)
        for attempt, variant in enumerate([*variants, variants[0]]):
            turns = self._turns(variant, subject, fields)
            if attempt == len(variants):
                for turn, _ in turns:
                    while turn.text in self.said:
                        turn.text = f"{turn.text} {self.rng.choice(_TAILS)}"
            if not any(turn.text in self.said for turn, _ in turns):
                break
        made.append(variant)
        block = [turn for turn, _ in turns]
        if block[-1].author == subject and self.rng.random() < 0.5:
            reaction = self._turns([self.rng.choice(self.lex.reactions)], subject, fields)[0][0]
            if reaction.text not in self.said:
                block.append(reaction)
        self.said.update(turn.text for turn in block)
        self.blocks[session].append(block)
        return [turn for turn, evidence in turns if evidence]

    def aside(self, session: int, templates: tuple[str, ...], subject: str, fields: dict[str, str]) -> None:
        """Turns that are no evidence: the topic coming back, or the friend using its words elsewhere."""
        block = [turn for turn, _ in self._turns(templates, subject, fields)]
        if not any(turn.text in self.said for turn in block):
            self.said.update(turn.text for turn in block)
            self.blocks[session].append(block)

    def surround(self, kind: str, subject: str, fields: dict[str, str], after: int) -> None:
        """The fact's topic comes back later without it, and the friend says its words about something else."""
        threads = self.lex.threads[kind]
        for templates in self.rng.sample(threads, min(THREADS_PER_FACT, len(threads))):
            self.aside(self.rng.randrange(min(after, self.n - 1), self.n), templates, subject, fields)
        distractors = self.lex.distractors[kind]
        for template in self.rng.sample(distractors, min(DISTRACTORS_PER_FACT, len(distractors))):
            self.aside(self.rng.randrange(self.n), (template,), subject, fields)

    def ask(self, ask: Ask) -> None:
        self.asks.append(ask)
        self.facts[ask.subject].append((ask.key, ask.family, ask.fields))
