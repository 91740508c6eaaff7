"""Answering over ranked rows: cited answers and gap analysis — pure, no Django, no DB (docs/ARCHITECTURE.md
§ Search path).

These are thin passes over rows that ranking already ordered; they never re-rank. :func:`synthesize` asks a
pluggable :class:`SynthesisLLM` for a cited answer and degrades to a deterministic one — a zero-LLM sentence
built from typed edges for relationship questions, else a numbered, cited list of the top rows — so it never
fails a search. :func:`analyze_gaps` reports what the rows do not cover.

Modules: ``types`` (the rows, edges and answers the passes exchange, and the LLM protocol), ``answers`` (the
relational sentence, the cited list and the LLM path), ``gaps`` (gap analysis). Callers import from here.
"""

from __future__ import annotations

from retrieval.synthesis.answers import (
    LIST_LIMIT,
    MAX_LISTED,
    NO_MATCH_TEXT,  # noqa: F401  (public before the split, never in __all__)
    PROMPT_LIMIT,
    build_prompt,
    cited_list_answer,
    parse_llm_answer,
    path_answer,
    relational_answer,
    synthesize,
)
from retrieval.synthesis.gaps import Gaps, analyze_gaps
from retrieval.synthesis.types import Answer, Edge, SourceRow, SynthesisLLM

__all__ = [
    "LIST_LIMIT",
    "MAX_LISTED",
    "PROMPT_LIMIT",
    "Answer",
    "Edge",
    "Gaps",
    "SourceRow",
    "SynthesisLLM",
    "analyze_gaps",
    "build_prompt",
    "cited_list_answer",
    "parse_llm_answer",
    "path_answer",
    "relational_answer",
    "synthesize",
]
