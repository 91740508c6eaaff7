"""The values answering passes around — ranked rows, typed edges, cited answers — and the LLM protocol.

Plain frozen dataclasses, no Django: ``retrieval.services`` builds the rows and edges from the database; the
passes in :mod:`~retrieval.synthesis.answers` and :mod:`~retrieval.synthesis.gaps` read them and return answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


class SynthesisLLM(Protocol):
    """Anything that completes a prompt: ``complete(system, prompt) -> reply text``. May raise."""

    def complete(self, system: str, prompt: str) -> str: ...


@dataclass(frozen=True)
class SourceRow:
    """One ranked result as given to answering."""

    memory_id: int
    title: str
    content: str
    created_at: datetime


@dataclass(frozen=True)
class Edge:
    """A typed edge supporting a relational answer; citable only if ``memory_id`` is among the rows."""

    subject: str
    relationship: str
    object: str
    memory_id: int


@dataclass(frozen=True)
class Answer:
    """An answer text whose ``[n]`` markers map to memory ids through ``citations`` ((n, memory_id), …)."""

    text: str
    citations: tuple[tuple[int, int], ...]
    used_llm: bool
    kind: str | None = None  # "date" for a when question's date answer; None: the answer's usual form
    fact: dict | None = None  # kind "fact": the fact it states (graph.facts.FactView.as_json and its subject)


class Row(Protocol):
    """Anything answering reads as a ranked row: its memory id, title and content."""

    memory_id: int
    title: str
    content: str


# a sentence-level embedder the caller passes (the pure tests pass none)
Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]


@dataclass(frozen=True)
class ScoredSentence:
    """One candidate sentence: its memory, its rank among the rows (0 = best), its place in the memory, its text
    (markdown links reduced to their text) and its score with the parts that made it."""

    memory_id: int
    row_rank: int
    index: int
    text: str
    score: float
    overlap: float
    cue: bool
    cosine: float | None
    coverage: float = 1.0  # the IDF-weighted share of the question's topic terms held (see :class:`Asked`)
    about: bool = True  # the sentence's memory names what the question names (or the question names nothing)
