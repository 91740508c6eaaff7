"""Fact extraction against the labelled statement sets (bench.fact_statements): precision and recall per attribute,
per set and half. The development half's table lists its misses and wrong facts; the held-back half (the odd
statements of a set in ``HELD_BACK``) prints its figures only — it is read once at the end of a step, never to
choose a change."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from bench.fact_statements import HELD_BACK, SET_NAMES, SETS_DIR, score_set, statements, table


class Command(BaseCommand):
    help = "Fact extraction on the labelled statement sets: precision / recall per attribute, per set and half."

    def add_arguments(self, parser):
        parser.add_argument("--half", choices=("dev", "held"), default="dev", help="dev (default) or held (once)")
        parser.add_argument("--misses", action="store_true", help="list the development half's misses")

    def handle(self, *args, half: str, misses: bool, **options):
        for name in SET_NAMES:
            if half == "held" and name not in HELD_BACK:
                continue
            score = score_set(statements(SETS_DIR / name, half if name in HELD_BACK else "all"))
            label = f"{half} half" if name in HELD_BACK else "whole set (no half held back)"
            overall = score.overall
            self.stdout.write(f"\n{name}, {label}: P {overall.precision:.3f} R {overall.recall:.3f}")
            self.stdout.write(table(score, misses=misses and half == "dev"))
