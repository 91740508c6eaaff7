"""``manage.py eval_answers WORLD RECALL [--own PATH] [--rows N] [--embed] [--json]``: do the deterministic answers
quote the fact?

A thin wrapper over :mod:`bench.answers`: the memories of each set are ranked by rank_bm25, the top rows go to the
extractive scorer and to the numbered list of titles, and the share of answerable questions whose answer text holds
the gold is printed beside each other, with the abstention features' AUROC and a calibration.

It also measures the support check of the extractive answers (an answer only where the sentence holds the answer
type the question asks for and shares its topic): per set, the scorer alone (``check_support=False``, as the answers
were before the check) beside the checked answers, in the same run — the share of questions answered, of answers
that do not hold the gold (a wrong answer: it names something the question did not ask for; every answer to a
question answered nowhere is one), of answerable questions answered with the gold, of questions abstained, of
never-answered questions abstained, and the questions the check lost (answered with the gold before, not after).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import datetime

from django.core.management.base import BaseCommand, CommandParser

from bench.answers import (
    OWN_SET,
    ROWS,
    Bm25Ranker,
    Case,
    Doc,
    Result,
    abstention_report,
    cached,
    contains,
    format_report,
    own_set,
    recall_set,
    run_cases,
    world_set,
)
from bench.data import DATA_VARIABLE, data_folder
from retrieval.synthesis.extractive import extract
from retrieval.synthesis.types import SourceRow

_CREATED = datetime(2026, 1, 1)


def support_figures(docs: Sequence[Doc], cases: Sequence[Case], *, rows_k: int = ROWS) -> dict:
    """The extractive answers over rank_bm25's top ``rows_k`` rows without the support check ("unchecked") and with
    it ("checked"), and the questions the check lost (see the module docstring)."""
    rank = Bm25Ranker(docs)
    outcomes: dict[str, list[tuple[bool, bool, bool]]] = {"unchecked": [], "checked": []}  # answered, right, answerable
    lost = []
    for case in cases:
        ranked = rank(case.question, rows_k)
        rows = [
            SourceRow(memory_id=i, title=docs[i].title, content=docs[i].content, created_at=_CREATED) for i in ranked
        ]
        for name, check in (("unchecked", False), ("checked", True)):
            extracted = extract(case.question, rows, check_support=check) if rows else None
            answered = extracted is not None and extracted.answer.kind != "none"
            right = answered and case.answerable and any(contains(extracted.answer.text, g) for g in case.gold)
            outcomes[name].append((answered, right, case.answerable))
        if outcomes["unchecked"][-1][1] and not outcomes["checked"][-1][1]:
            lost.append(case.question)
    report: dict = {name: _shares(results) for name, results in outcomes.items()}
    report["lost"] = lost
    return report


def _shares(outcomes: Sequence[tuple[bool, bool, bool]]) -> dict:
    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 4) if whole else None

    answered = [o for o in outcomes if o[0]]
    answerable = [o for o in outcomes if o[2]]
    negatives = [o for o in outcomes if not o[2]]
    return {
        "n": len(outcomes),
        "answered": share(len(answered), len(outcomes)),
        "wrong": share(sum(not right for _, right, _ in answered), len(answered)),
        "right": share(sum(right for _, right, _ in answerable), len(answerable)),
        "abstained": share(len(outcomes) - len(answered), len(outcomes)),
        "negatives_abstained": share(sum(not a for a, _, _ in negatives), len(negatives)),
    }


def format_support(support: dict) -> str:
    lines = [
        "Support check: answers only where the sentence holds the asked type and the question's topic",
        f"{'set':20s} {'n':>5s} {'answered':>9s} {'wrong':>7s} {'right':>7s} {'abstained':>10s} {'neg. abst.':>11s}",
    ]
    for name, figures in support.items():
        for label in ("unchecked", "checked"):
            f = figures[label]
            cells = [f[k] for k in ("answered", "wrong", "right", "abstained", "negatives_abstained")]
            shown = " ".join(
                f"{c if c is not None else '-':>{w}}" for c, w in zip(cells, (9, 7, 7, 10, 11), strict=True)
            )
            lines.append(f"{name + '/' + label:20s} {f['n']:5d} {shown}")
        lines.append(f"{name + '/lost':20s} {len(figures['lost']):5d} {'; '.join(figures['lost'])[:200]}")
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Score extractive answers against the numbered list of titles on the own set, world-v1 and associative-recall."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("world", nargs="?", help=f"the world-v1 pages folder; default ${DATA_VARIABLE}/world-v1")
        parser.add_argument(
            "recall",
            nargs="?",
            help=f"the associative-recall-v1 folder; default ${DATA_VARIABLE}/associative-recall-v1",
        )
        parser.add_argument("--own", default=str(OWN_SET), help="the own question set (JSON)")
        parser.add_argument("--rows", type=int, default=ROWS, help="visible top rows per question")
        parser.add_argument("--embed", action="store_true", help="add sentence embeddings from the configured embedder")
        parser.add_argument("--examples", type=int, default=0, help="print N development answers")
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")

    def handle(self, *args: object, **options: object) -> None:
        from pathlib import Path

        world = data_folder(options["world"], subfolder="world-v1", what="the world-v1 folder")
        recall = data_folder(options["recall"], subfolder="associative-recall-v1", what="the associative-recall folder")
        embed = None
        if options["embed"]:
            from memories.embedding import get_embedder

            embed = cached(get_embedder().embed)
        started = time.perf_counter()
        result = Result()
        rows = int(options["rows"])  # type: ignore[call-overload]
        examples = int(options["examples"])  # type: ignore[call-overload]
        support = {}
        for name, (docs, cases) in (
            ("own", own_set(Path(str(options["own"])))),
            ("world", world_set(world)),
            ("recall", recall_set(recall)),
        ):
            run_cases(name, docs, cases, result, embed=embed, rows_k=rows, keep_examples=examples)
            support[name] = support_figures(docs, cases, rows_k=rows)
        abstention = abstention_report(result)
        seconds = time.perf_counter() - started
        if options["json"]:
            payload = {k: v.as_dict() for k, v in sorted(result.tallies.items())}
            self.stdout.write(
                json.dumps(
                    {"answers": payload, "abstention": abstention, "support": support, "seconds": round(seconds, 2)}
                )
            )
            return
        self.stdout.write(format_report(result, abstention, seconds=seconds))
        self.stdout.write(format_support(support))
        for example in result.examples:
            self.stdout.write(json.dumps(example, ensure_ascii=False))
