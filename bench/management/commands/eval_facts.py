"""The facts-that-change set (bench.facts): one half loaded through the real services into a fresh tenant, every
question asked through the search service, beside rank_bm25 over the same memory texts in the same run."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from bench.facts.evaluate import evaluate, format_report
from bench.facts.generator import HALVES, generate


class Command(BaseCommand):
    help = "Facts that change: current / before / as-of answers, never-said, private leaks, beside rank_bm25."

    def add_arguments(self, parser):
        parser.add_argument(
            "--half", choices=HALVES, required=True, help="dev or dev2 (development), or held (the held-back frames)"
        )
        parser.add_argument("--seed", type=int, default=11)
        parser.add_argument("--examples", type=int, default=0, help="print N answers per question kind")
        parser.add_argument("--json", action="store_true", help="print the report (with every answer) as JSON")
        parser.add_argument("--keep", action="store_true", help="keep the eval-facts tenants")

    def handle(self, *args, **options):
        quiet = options["json"]
        report = evaluate(
            generate(options["seed"]),
            half=options["half"],
            keep=options["keep"],
            quiet=quiet,
            log=lambda line: self.stderr.write(line),
        )
        self.stdout.write(
            json.dumps(report, default=str) if quiet else format_report(report, examples=options["examples"])
        )
