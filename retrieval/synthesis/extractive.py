"""The extractive answer: the sentence(s) of the visible top rows that answer the question, each cited.

Pure, no Django, no database. Given the question and the ranked rows (anything with ``memory_id``, ``title`` and
``content``, such as :class:`~retrieval.synthesis.types.SourceRow`), the rows' contents are split into sentences and
each sentence is scored by

- **term overlap**: the share of the question's terms the sentence holds, each term weighted by its IDF over the
  candidate sentences (a term every sentence has says nothing about which one answers);
- **question-type cues**: a "when" question wants a date, "who" a person, "where" a place, "how many / how much" a
  number, "how long / how often" a duration or frequency, "what time" a time, "why" a reason — a sentence holding a
  token of that type *beyond the question's own words* scores higher;
- **position**: the row's rank (the search already judged relevance) and the sentence's place in its memory;
- **the memory's title**: question terms in the title lift all of that memory's sentences a little;
- optionally **embedding similarity** at sentence level, through a callable the caller passes (the embedder), so
  that these pure tests run without a model.

A sentence is quoted only where it **supports** an answer (:func:`answers_asked`): it holds the answer type the
question asks for (who → a name or a role, where → a place, when → a date, how many → a number …:
:func:`holds_answer_type`) and shares the question's topic beyond its names, or holds its names when the question
asks about them. A confident wrong sentence is worse than none: without one the answer is ``kind="none"``.

:func:`extractive_answer` returns an :class:`~retrieval.synthesis.types.Answer` quoting the best supporting sentence
(and a second one when it scores nearly as well), never a list of titles. :func:`score_sentences` exposes the
ranking and :class:`LogisticCalibrator` turns features (such as :attr:`Extract.best_score`) into a confidence for
abstention.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memories.instructions import instruction_reasons
from retrieval.synthesis.question_types import has_cue, question_type
from retrieval.synthesis.support import (
    CHECK_CHARS,
    NO_DIRECT_ANSWER_TEXT,
    Asked,
    about_subjects,
    answers_asked,
    asked_of,
    holds_answer_type,
    known_names,
    loose,
    on_subject,
    speaks_of,
)
from retrieval.synthesis.types import Answer, Embed, Row, ScoredSentence
from retrieval.text import HOW_RE, QUESTION_WORDS, STOPWORDS, split_sentences, stemmed_terms

__all__ = [
    "MAX_ROWS",
    "MAX_SENTENCES",
    "NO_DIRECT_ANSWER_TEXT",
    "STOPWORDS",
    "Asked",
    "Extract",
    "LogisticCalibrator",
    "ScoredSentence",
    "answers_asked",
    "asked_of",
    "extract",
    "extractive_answer",
    "fit_logistic",
    "holds_answer_type",
    "on_subject",
    "question_type",
    "score_sentences",
    "split_sentences",
]

MAX_ROWS = 8  # rows whose sentences are considered: the visible top of the ranking
MAX_SENTENCES = 2  # sentences quoted at most
SECOND_SENTENCE_RATIO = 0.85  # a second sentence is quoted when it scores at least this share of the best
_SENTENCE_CHARS = 400  # a quoted sentence is cut at this length

# Weights of the score's parts. Overlap is in [0, 1]; a cue is 0 or 1; priors are in (0, 1].
_W_OVERLAP = 1.0
_W_CUE = 0.35
_W_ROW = 0.2
_W_POSITION = 0.05
_W_TITLE = 0.15
_TITLE_TERM_CREDIT = 0.5  # a question term found only in the memory's title counts half in a sentence's overlap
_W_EMBEDDING = 0.6


@dataclass(frozen=True)
class Extract:
    """The chosen sentences (best first), the answer built from them, and features for abstention: the best
    sentence's score and term overlap, its cosine when an embedder was given, and the question type."""

    sentences: tuple[ScoredSentence, ...]
    answer: Answer
    best_score: float
    best_overlap: float
    best_cosine: float | None
    question_type: str | None


# --- scoring --------------------------------------------------------------------------------------------------------


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def score_sentences(
    question: str, rows: Sequence[Row], *, embed: Embed | None = None, max_rows: int = MAX_ROWS
) -> list[ScoredSentence]:
    """Every sentence of the first ``max_rows`` rows, scored for answering ``question``, best first (ties: the
    better-ranked row, then the earlier sentence). Each also carries what :func:`answers_asked` reads: its
    ``coverage`` of the question's topic (IDF-weighted like overlap, title terms counting half) and ``about``.

    ``score = 1.0·overlap + 0.35·cue + 0.2/(1 + row rank) + 0.05/(1 + index) + 0.15·title overlap
    (+ 0.6·cosine with ``embed``)``, where overlap is the IDF-weighted share of the question's terms that the
    sentence holds (IDF over the candidate sentences; a term only in the memory's title counts half), cue says the
    sentence holds a token of the asked type (:func:`question_type`) beyond the question's words, and title
    overlap is the same share for the memory's title. ``embed`` maps texts to vectors (question first); its
    failure is the caller's. No rows → ``[]``; a question without terms → all overlaps 0.
    """
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    candidates: list[tuple[int, Row, int, str]] = []
    for rank, row in enumerate(rows[:max_rows]):
        for index, sentence in enumerate(split_sentences(row.content or "")):
            candidates.append((rank, row, index, sentence))
    if not candidates:
        return []
    # the word after "how" says what is asked ("how fast", "how long"), not what the answer mentions
    asked = HOW_RE.sub(" ", question)
    q_terms = [t for t in stemmed_terms(asked) if t not in QUESTION_WORDS]
    q_set = frozenset(q_terms)
    sentence_terms = [frozenset(stemmed_terms(sentence)) for _, _, _, sentence in candidates]
    n = len(candidates)
    kind = question_type(question)
    asked = asked_of(question)
    # the topic is read without possessives ("Ana's children's school"), so it may hold terms the question's words
    # spell otherwise: each gets its own weight
    idf = {
        t: math.log(1.0 + (n + 1) / (0.5 + sum(1 for terms in sentence_terms if t in terms)))
        for t in q_set | asked.topic
    }
    total = sum(idf[t] for t in q_set)
    topic_total = sum(idf[t] for t in asked.topic)
    cosines: list[float | None] = [None] * n
    if embed is not None:
        vectors = list(embed([question] + [sentence for _, _, _, sentence in candidates]))
        cosines = [_cosine(vectors[0], vector) for vector in vectors[1:]]
    title_overlap: dict[int, float] = {}
    scored = []
    title_terms: dict[int, frozenset[str]] = {}
    about: dict[int, bool] = {}
    for (rank, row, index, sentence), terms, cosine in zip(candidates, sentence_terms, cosines, strict=True):
        if rank not in title_overlap:
            title_terms[rank] = frozenset(stemmed_terms(row.title or ""))
            title_overlap[rank] = sum(idf[t] for t in q_set & title_terms[rank]) / total if total else 0.0
            about[rank] = about_subjects(asked, row)
        # a sentence is about its memory's subject even when it says "the startup": the title's terms count half
        inherited = (q_set & title_terms[rank]) - terms
        overlap = (
            (sum(idf[t] for t in q_set & terms) + _TITLE_TERM_CREDIT * sum(idf[t] for t in inherited)) / total
            if total
            else 0.0
        )
        cue = has_cue(kind, sentence, q_set)
        loosened = {loose(t) for t in terms}
        held = {t for t in asked.topic if loose(t) in loosened}
        coverage = (
            (
                sum(idf[t] for t in held)
                + _TITLE_TERM_CREDIT * sum(idf[t] for t in (asked.topic & title_terms[rank]) - held)
            )
            / topic_total
            if topic_total
            else 1.0
        )
        score = (
            _W_OVERLAP * overlap
            + _W_CUE * cue
            + _W_ROW / (1 + rank)
            + _W_POSITION / (1 + index)
            + _W_TITLE * title_overlap[rank]
            + (_W_EMBEDDING * cosine if cosine is not None else 0.0)
        )
        scored.append(
            ScoredSentence(
                memory_id=row.memory_id,
                row_rank=rank,
                index=index,
                text=sentence,
                score=round(score, 6),
                overlap=round(overlap, 6),
                cue=cue,
                cosine=None if cosine is None else round(cosine, 6),
                coverage=round(coverage, 6),
                about=about[rank] or speaks_of(asked, sentence[:CHECK_CHARS]),
            )
        )
    scored.sort(key=lambda s: (-s.score, s.row_rank, s.index))
    return scored


def _addresses_model(sentence: str) -> bool:
    return bool(instruction_reasons(sentence))


def _quote(sentence: str) -> str:
    text = " ".join(sentence.split())
    if len(text) > _SENTENCE_CHARS:
        text = text[:_SENTENCE_CHARS].rstrip() + " …"
    return text


def extract(
    question: str,
    rows: Sequence[Row],
    *,
    embed: Embed | None = None,
    max_rows: int = MAX_ROWS,
    max_sentences: int = MAX_SENTENCES,
    check_support: bool = True,
) -> Extract | None:
    """The best sentence that answers the question (:func:`answers_asked`) and, up to ``max_sentences``, the
    sentences after it that score at least ``SECOND_SENTENCE_RATIO`` of it and are :func:`on_subject`, as an
    :class:`Extract`; ``None`` when the rows hold no sentence. A sentence that reads as instructions to a model
    (:func:`memories.instructions.instruction_reasons`) is never chosen. When no sentence answers, the answer is
    ``Answer(NO_DIRECT_ANSWER_TEXT, (), False, kind="none")`` and ``sentences`` is empty; the features
    (``best_score`` …) are the best-scored sentence's either way. ``check_support=False`` quotes the best-scored
    sentence whatever it holds (the scorer alone, for measuring the check).

    The answer's text is the quoted sentences in the order they appear in the ranking (row rank, then place in
    the memory), each followed by its citation ``[n]``; citations number memories by first appearance; a
    sentence is cut at 400 characters.
    """
    if max_sentences < 1:
        raise ValueError(f"max_sentences must be >= 1, got {max_sentences}")
    # a sentence that addresses the model is never quoted as an answer (it is data, shown only as quoted data)
    scored = [
        s for s in score_sentences(question, rows, embed=embed, max_rows=max_rows) if not _addresses_model(s.text)
    ]
    if not scored:
        return None
    best = scored[0]
    asked = asked_of(question)
    titles = {row.memory_id: row.title or "" for row in rows[:max_rows]}
    known = known_names(scored) if check_support else frozenset()
    position = next(
        (
            i
            for i, s in enumerate(scored)
            if not check_support or answers_asked(asked, s, title=titles.get(s.memory_id, ""), known=known)
        ),
        None,
    )
    if position is None:
        return Extract(
            sentences=(),
            answer=Answer(text=NO_DIRECT_ANSWER_TEXT, citations=(), used_llm=False, kind="none"),
            best_score=best.score,
            best_overlap=best.overlap,
            best_cosine=best.cosine,
            question_type=question_type(question),
        )
    first = scored[position]
    chosen = [first]
    # a second sentence adds to the answer: it is quoted when it scores nearly as well and answers too, or shares
    # the question's topic (it may name its answer in words no type check knows: "the maintenance liaison")
    for candidate in scored[position + 1 :]:
        if len(chosen) >= max_sentences or candidate.score < SECOND_SENTENCE_RATIO * first.score:
            break
        title = titles.get(candidate.memory_id, "")
        on = (
            not check_support
            or on_subject(asked, candidate, title=title, names_alone=False)
            or answers_asked(asked, candidate, title=title, known=known)
        )
        if on and (candidate.overlap > 0 or candidate.cue):
            chosen.append(candidate)
    ordered = sorted(chosen, key=lambda s: (s.row_rank, s.index))
    numbers: dict[int, int] = {}
    parts = []
    for sentence in ordered:
        number = numbers.setdefault(sentence.memory_id, len(numbers) + 1)
        parts.append(f"{_quote(sentence.text)} [{number}]")
    answer = Answer(
        text=" ".join(parts),
        citations=tuple((number, memory_id) for memory_id, number in numbers.items()),
        used_llm=False,
    )
    return Extract(
        sentences=tuple(chosen),
        answer=answer,
        best_score=best.score,
        best_overlap=best.overlap,
        best_cosine=best.cosine,
        question_type=question_type(question),
    )


def extractive_answer(
    *, question: str, rows: Sequence[Row], embed: Embed | None = None, max_sentences: int = MAX_SENTENCES
) -> Answer | None:
    """The extractive :class:`~retrieval.synthesis.types.Answer` (``used_llm=False``) quoting the answering
    sentence(s) with citations; ``kind="none"`` with ``NO_DIRECT_ANSWER_TEXT`` and no citation when no sentence
    answers; ``None`` when the rows hold no sentence (see :func:`extract`)."""
    result = extract(question, rows, embed=embed, max_sentences=max_sentences)
    return None if result is None else result.answer


# --- calibration for abstention -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogisticCalibrator:
    """``sigmoid(intercept + Σ weight·feature)`` over named features (a missing feature counts as 0): a confidence
    in [0, 1] that the question is answered by what is visible."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float

    def confidence(self, features: Mapping[str, float | None]) -> float:
        z = self.intercept + sum(
            w * float(features.get(n) or 0.0) for n, w in zip(self.names, self.weights, strict=True)
        )
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


def fit_logistic(
    rows: Sequence[Mapping[str, float | None]],
    labels: Sequence[bool],
    *,
    names: Sequence[str],
    l2: float = 1.0,
    iterations: int = 50,
) -> LogisticCalibrator:
    """L2-regularised logistic regression by Newton's method (the intercept unpenalised) over ``names`` of each
    feature row; ``labels`` True = answerable. Needs both classes, else ``ValueError``."""
    import numpy as np

    if len(rows) != len(labels) or not rows:
        raise ValueError("rows and labels must be non-empty and of equal length")
    y = np.array([1.0 if label else 0.0 for label in labels])
    if y.min() == y.max():
        raise ValueError("both classes are needed to fit")
    x = np.array([[1.0] + [float(row.get(n) or 0.0) for n in names] for row in rows])
    w = np.zeros(x.shape[1])
    penalty = np.eye(x.shape[1]) * l2
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return LogisticCalibrator(names=tuple(names), weights=tuple(float(v) for v in w[1:]), intercept=float(w[0]))
