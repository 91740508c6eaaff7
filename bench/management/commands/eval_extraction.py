"""``manage.py eval_extraction PATH [--json] [--timing N]``: the extraction benchmark.

A thin wrapper: everything it prints comes from :mod:`bench.eval_extraction`.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.data import DATA_VARIABLE, data_folder
from bench.eval_extraction import format_json, format_report, run_benchmark


class Command(BaseCommand):
    help = "Score typed-edge extraction against the world-v1 pages' _facts; optionally time it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", nargs="?", help=f"the folder of world pages (*.json); default ${DATA_VARIABLE}/world-v1"
        )
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
        parser.add_argument(
            "--timing",
            type=int,
            default=0,
            metavar="N",
            help="also time extraction over N paragraphs (e.g. 10000)",
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            timing = int(options["timing"])  # type: ignore[call-overload]
            pages = data_folder(options["path"], subfolder="world-v1", what="the world pages folder")
            result = run_benchmark(pages, timing=timing)
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(format_json(result) if options["json"] else format_report(result))
