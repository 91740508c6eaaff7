"""The conversational development set (bench.conversations): generated multi-session chats ingested through the
sessions service, every question asked through the search service for each configuration, beside rank_bm25 over
the same turns in the same run."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from bench.conversations.evaluate import ARM_CONFIGS, evaluate, format_report
from bench.conversations.generator import generate

SMALL = {"conversations": 6, "sessions": 15}


class Command(BaseCommand):
    help = "Conversational set: evidence R@5/R@10/MRR per family and frame half, abstention, beside rank_bm25."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--conversations", type=int, default=20)
        parser.add_argument("--sessions", type=int, default=15)
        parser.add_argument("--small", action="store_true", help=f"{SMALL['conversations']} conversations only")
        parser.add_argument("--configs", default=",".join(ARM_CONFIGS), help="comma-separated configurations")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the eval-conversations tenant")

    def handle(self, *args, **options):
        configs = [name for name in options["configs"].split(",") if name]
        unknown = [name for name in configs if name not in ARM_CONFIGS]
        if unknown:
            raise CommandError(f"unknown configuration {unknown[0]!r}; known: {', '.join(ARM_CONFIGS)}")
        size = SMALL if options["small"] else {k: options[k] for k in ("conversations", "sessions")}
        try:
            dataset = generate(options["seed"], **size)
        except ValueError as exc:
            raise CommandError(str(exc))
        quiet = options["json"]
        report = evaluate(
            dataset, configs=configs, keep=options["keep"], quiet=quiet, log=lambda line: self.stderr.write(line)
        )
        self.stdout.write(json.dumps(report) if quiet else format_report(report))
