"""``manage.py eval_detectors [--world PATH] [--recall PATH] [--json]``: the write-time detectors on their labelled
sets (precision and recall on the development and held-back halves, cost per pair or item, the worst time on a
hostile 32 KiB input) and, given corpus folders, what the contradiction detector flags among their near-similar
sentence pairs. A thin wrapper over :mod:`bench.detectors`."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandParser

from bench.data import optional_data_folder
from bench.detectors import contradiction_report, corpus_flags, instruction_report
from bench.evaluation import load_associative_recall, load_pages


class Command(BaseCommand):
    help = "Measure the contradiction and instruction-like content detectors."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--world", help="a world-v1 pages folder: check contradiction flags among its sentences")
        parser.add_argument("--recall", help="an associative-recall-v1 folder: the same over its pages")
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")

    def handle(self, *args: object, **options: object) -> None:
        report: dict = {"contradictions": contradiction_report(), "instructions": instruction_report()}
        world = optional_data_folder(options["world"]) if options["world"] else None
        recall = optional_data_folder(options["recall"]) if options["recall"] else None
        if world is not None:
            pages, _ = load_pages(world)
            report["world_corpus"] = corpus_flags([page.text for page in pages])
        if recall is not None:
            pages, _ = load_associative_recall(recall)
            report["recall_corpus"] = corpus_flags([page.text for page in pages if page.visibility == "public"])
        if options["json"]:
            self.stdout.write(json.dumps(report, ensure_ascii=False))
            return
        for name, section in report.items():
            self.stdout.write(f"== {name}")
            for key, value in section.items():
                if key == "sample":
                    for pair in value:
                        self.stdout.write(f"   {pair['slot']:10s} {pair['a'][:90]!r}\n              {pair['b'][:90]!r}")
                else:
                    self.stdout.write(f"  {key}: {value}")
