"""``manage.py eval_answers WORLD RECALL [--own PATH] [--rows N] [--embed] [--json]``: do the deterministic answers
quote the fact?

A thin wrapper over :mod:`bench.answers`: the memories of each set are ranked by rank_bm25, the top rows go to the
extractive scorer and to the numbered list of titles, and the share of answerable questions whose answer text holds
the gold is printed beside each other, with the abstention features' AUROC and a calibration.
"""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandParser

from bench.answers import (
    OWN_SET,
    ROWS,
    Result,
    abstention_report,
    cached,
    format_report,
    own_set,
    recall_set,
    run_cases,
    world_set,
)
from bench.data import DATA_VARIABLE, data_folder


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
        for name, (docs, cases) in (
            ("own", own_set(Path(str(options["own"])))),
            ("world", world_set(world)),
            ("recall", recall_set(recall)),
        ):
            run_cases(name, docs, cases, result, embed=embed, rows_k=rows, keep_examples=examples)
        abstention = abstention_report(result)
        seconds = time.perf_counter() - started
        if options["json"]:
            payload = {k: v.as_dict() for k, v in sorted(result.tallies.items())}
            self.stdout.write(json.dumps({"answers": payload, "abstention": abstention, "seconds": round(seconds, 2)}))
            return
        self.stdout.write(format_report(result, abstention, seconds=seconds))
        for example in result.examples:
            self.stdout.write(json.dumps(example, ensure_ascii=False))
