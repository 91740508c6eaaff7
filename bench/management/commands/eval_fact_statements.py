"""Fact extraction against the labelled statement sets (bench.fact_statements): precision and recall per attribute,
per set. The development sets' tables can list their misses and wrong facts; the held-back set (``HELD_BACK``) prints
its figures only — it is scored once at the end of a step, never to choose a change."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from bench.fact_statements import HELD_BACK, SET_NAMES, SETS_DIR, score_set, statements, table


class Command(BaseCommand):
    help = "Fact extraction on the labelled statement sets: precision / recall per attribute, per set."

    def add_arguments(self, parser):
        parser.add_argument(
            "--half", choices=("dev", "held"), default="dev", help="dev (default): the development sets; held: once"
        )
        parser.add_argument("--misses", action="store_true", help="list the development sets' misses")

    def handle(self, *args, half: str, misses: bool, **options):
        names = HELD_BACK if half == "held" else SET_NAMES
        for name in names:
            if not (SETS_DIR / name).exists():
                continue
            score = score_set(statements(SETS_DIR / name))
            overall = score.overall
            self.stdout.write(f"\n{name} ({half}): P {overall.precision:.3f} R {overall.recall:.3f}")
            self.stdout.write(table(score, misses=misses and half == "dev"))
