"""Which of the search's conversational and truth mechanisms pay (bench.ablation): each set ingested once, then asked
with every step, with each step left out alone and with each ranking switch off alone, beside rank_bm25; per set and
configuration the set's figures, the difference from all steps, and the CPU per search. ``--half`` picks the
conversational sets' half (the generated set's frames, the realistic set's half); the shared sets report what
``eval_retrieval`` reports for them. The held-back half is for the end of a step, run once; choose with dev."""

from __future__ import annotations

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bench.ablation import (
    HALVES,
    SETS,
    SHARED_SETS,
    ablate,
    configurations,
    conversations_set,
    format_report,
    realchat_set,
    shared_sets,
)
from bench.data import DATA_VARIABLE, data_folder


class Command(BaseCommand):
    help = "Ablation of the search's conversational and truth steps and ranking switches, per set, beside rank_bm25."

    def add_arguments(self, parser):
        parser.add_argument("bench", nargs="?", help=f"the shared data folder (for {','.join(SHARED_SETS)}); "
                            f"default ${DATA_VARIABLE}")  # fmt: skip
        parser.add_argument("--half", choices=HALVES, default="dev", help="dev (default) or held (once, at the end)")
        parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, bench: str | None, **options):
        sets = [name for name in options["sets"].split(",") if name]
        unknown = [name for name in sets if name not in SETS]
        if unknown:
            raise CommandError(f"unknown set {unknown[0]!r}; known: {', '.join(SETS)}")
        shared = [name for name in SHARED_SETS if name in sets]
        folder = data_folder(bench) if shared else None
        quiet, half = options["json"], options["half"]
        log = self.stderr.write
        configs = configurations(again=True)
        started = time.perf_counter()
        report: dict = {"half": half, "configs": [config.name for config in configs], "sets": {}}
        builders = []  # each ingests one tenant's sets; one tenant at a time
        if "conversations" in sets:
            builders.append(lambda: conversations_set(half, slug="ablation-conversations", quiet=quiet, log=log))
        if "realchat" in sets:
            builders.append(lambda: realchat_set(half, slug="ablation-realchat", quiet=quiet, log=log))
        if shared:
            builders.append(lambda: shared_sets(folder, shared, quiet=quiet, log=log))
        for build in builders:
            ablation_sets, close = build()
            try:
                for ablation_set in ablation_sets:
                    with tqdm(total=len(configs), desc=ablation_set.name, file=sys.stderr, disable=quiet) as bar:
                        report["sets"][ablation_set.name] = ablate(
                            ablation_set, configs, progress=lambda name, bar=bar: _advance(bar, name)
                        )
            finally:
                close()
        report["seconds"] = round(time.perf_counter() - started, 1)
        self.stdout.write(json.dumps(report) if quiet else format_report(report))


def _advance(bar, name: str) -> None:
    bar.set_postfix_str(name)
    bar.update()
