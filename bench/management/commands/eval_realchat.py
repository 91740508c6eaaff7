"""The realistic conversational set (bench.realchat), one half: chats between two friends ingested through the
sessions service, every question asked through the search service for each configuration, beside rank_bm25 over
the same turns in the same run. ``--stats`` prints the pure calibration statistics of every half and touches no
database. The held-back half is for the end of a step, run once; choose with the development halves (``dev``,
``dev2``)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from bench.conversations.evaluate import ARM_CONFIGS
from bench.realchat.calibration import calibration
from bench.realchat.evaluate import evaluate, format_calibration, format_report, pooled
from bench.realchat.generator import generate
from bench.realchat.vocabulary import HALVES


class Command(BaseCommand):
    help = "Realistic conversational set, one half: evidence R@5/R@10/MRR per family beside rank_bm25."

    def add_arguments(self, parser):
        parser.add_argument(
            "--half", choices=HALVES, default="dev", help="dev (default) or dev2, or held (once, at the end)"
        )
        parser.add_argument(
            "--seed",
            default="11",
            help="a seed, or several comma-separated: their runs pooled into one report (a half's figure over more "
            "than one draw of its chats)",
        )
        parser.add_argument("--conversations", type=int, default=12)
        parser.add_argument("--sessions", type=int, default=18)
        parser.add_argument("--configs", default=",".join(ARM_CONFIGS), help="comma-separated configurations")
        parser.add_argument("--stats", action="store_true", help="calibration statistics of every half only")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the eval-realchat tenant")

    def handle(self, *args, **options):
        configs = [name for name in options["configs"].split(",") if name]
        unknown = [name for name in configs if name not in ARM_CONFIGS]
        if unknown:
            raise CommandError(f"unknown configuration {unknown[0]!r}; known: {', '.join(ARM_CONFIGS)}")
        size = {key: options[key] for key in ("conversations", "sessions")}
        try:
            seeds = [int(seed) for seed in options["seed"].split(",") if seed.strip()]
        except ValueError:
            raise CommandError(f"--seed takes whole numbers separated by commas, got {options['seed']!r}")
        if not seeds:
            raise CommandError("--seed names no seed")
        try:
            if options["stats"]:
                reports = [calibration(generate(seed, half=half, **size)) for half in HALVES for seed in seeds]
                lines = [line for report in reports for line in format_calibration(report)]
                self.stdout.write(json.dumps(reports) if options["json"] else "\n".join(lines))
                return
            datasets = [generate(seed, half=options["half"], **size) for seed in seeds]
        except ValueError as exc:
            raise CommandError(str(exc))
        quiet, keep, log = options["json"], options["keep"], self.stderr.write
        reports = [evaluate(dataset, configs=configs, keep=keep, quiet=quiet, log=log) for dataset in datasets]
        report = pooled(reports)
        self.stdout.write(json.dumps(report) if quiet else format_report(report))
