"""Benchmark: how long the two regex-heavy pure cores take on hostile input (catastrophic backtracking guards).

The tests check that hostile input parses correctly; how fast is measured here, where a busy machine cannot turn
it into a flaky failure. ``--budget`` makes the command exit non-zero when an input takes longer (CPU time)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError

# name -> text; sized like the longest inputs the API accepts (queries are capped; memory contents are not small)
QUERIES: dict[str, str] = {
    "long word": "who founded " + "a" * 100_000,
    "repeated who": "who " * 50_000,
    "unbalanced parentheses": "who founded " + "(" * 400 + ")" * 99,
    "possessives": "who founded " + "'s " * 166,
    "who was": "who was " * 64,
    "single letters": "who founded " + "a " * 250,
    "repeated did": "what did " + "did " * 125 + "found",
    "repeated the": "who is the founder of " + "the " * 122,
    "repeated about": "tell me about " + "about " * 83,
    "quotes": "'" * 512,
    "question marks": "?" * 512,
    "spaces": " " * 511 + "x",
    "typographic possessives": "\u2019s " * 170,
}
CONTENTS: dict[str, str] = {
    "long word": "A" * 100_000,
    "capitalised words": "Aa " * 50_000,
    "brackets": "[" * 50_000,
    "double brackets": "[[" * 30_000,
    "founded by": "founded by " * 20_000,
    "name founded by": "Acme founded by " * 20_000,
    "and-list": "Alice and " * 20_000 + "founded Acme",
    "comma-list": "Alice, " * 30_000,
    "links": "[Acme](x) " * 20_000,
    "wikilinks": "[[Acme]] and " * 20_000,
    "honorifics": "Dr. " * 30_000,
    "initials": "A. B. " * 30_000,
    "role words": "Alice is a senior senior senior senior " * 10_000,
    "bullets": "- **2021** | Joined [Acme](x) as CTO\n" * 5_000,
    "unclosed link": "[Acme Corp](" + "a" * 100_000,
    "soft-wrapped lines": "acme founded\n" * 30_000,
}


def _cases() -> list[tuple[str, str, Callable[[], object]]]:
    from graph.extraction import extract_links
    from retrieval.relational_query import parse_relational_query

    cases: list[tuple[str, str, Callable[[], object]]] = []
    for name, text in QUERIES.items():
        cases.append(("parse_relational_query", name, lambda text=text: parse_relational_query(text)))
    for name, text in CONTENTS.items():
        cases.append(("extract_links", name, lambda text=text: extract_links(text, self_name="Acme Board Meeting")))
    return cases


class Command(BaseCommand):
    help = "Time parse_relational_query and extract_links on hostile inputs (CPU seconds per call)."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=3, help="Calls per input; the median is reported.")
        parser.add_argument("--budget", type=float, default=None, help="Fail when any input's median exceeds it.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, repeat: int, budget: float | None, **options):
        if repeat < 1:
            raise CommandError("--repeat must be at least 1")
        rows = []
        for function, name, call in _cases():
            cpu, wall = [], []
            for _ in range(repeat):
                cpu_started, wall_started = time.process_time(), time.perf_counter()
                call()
                cpu.append(time.process_time() - cpu_started)
                wall.append(time.perf_counter() - wall_started)
            rows.append(
                {
                    "function": function,
                    "input": name,
                    "cpu_seconds": round(statistics.median(cpu), 4),
                    "wall_seconds": round(statistics.median(wall), 4),
                }
            )
        rows.sort(key=lambda row: row["cpu_seconds"], reverse=True)
        over = [row for row in rows if budget is not None and row["cpu_seconds"] > budget]
        if options["json"]:
            self.stdout.write(json.dumps({"repeat": repeat, "budget": budget, "rows": rows, "over_budget": len(over)}))
        else:
            self.stdout.write(f"{'function':<24} {'input':<26} {'cpu s':>8} {'wall s':>8}")
            for row in rows:
                self.stdout.write(
                    f"{row['function']:<24} {row['input']:<26} {row['cpu_seconds']:>8.4f} {row['wall_seconds']:>8.4f}"
                )
        if over:
            names = ", ".join(row["input"] for row in over)
            raise CommandError(f"{len(over)} input(s) over the {budget}s budget: {names}")
