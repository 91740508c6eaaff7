"""Fact extraction's cost (graph.extraction.facts), in-process, its caches cleared before each pass: realistic
statements per second, and the worst case of hostile text — 32 KiB made of one phrasing the patterns look for, with
and without sentence breaks, and names that run on — so that extraction is known to stay bounded whatever a memory
holds."""

from __future__ import annotations

import time
from datetime import date

from django.core.management.base import BaseCommand

from graph.extraction import facts as extraction
from graph.extraction.facts import extract_facts

KIB32 = 32 * 1024
REFERENCE = date(2025, 9, 15)

REALISTIC = [
    "I moved to Denver last month, the new place has a garden.",
    "Ownership of the billing service moved to the Payments team on Monday.",
    "Ines now reports to Tomasz Nowak after the reorg.",
    "I was promoted to staff engineer in March.",
    "The Orion launch slipped to 14 March.",
    "We had a lovely walk by the river and the dog chased a duck.",
    "I'd love to live in Lisbon one day.",
    "Esme Laurent joined Acme Robotics from Shopify.",
]


def _hostile() -> dict[str, str]:
    return {
        "32 KiB of 'moved to', one sentence": ("I moved to Denver and " * 2000)[:KIB32],
        "32 KiB of 'moved to', short sentences": ("I moved to Denver. " * 2000)[:KIB32],
        "32 KiB of sentences just under the length bound": (("I moved to " + "Denver " * 83) + ". ") * 55,
        "32 KiB of capitalised words": ("Ownership Of The Billing Service Moved To " * 800)[:KIB32],
        "32 KiB of 'took over as'": ("Dana took over as head of " * 1300)[:KIB32],
        "32 KiB without spaces": "x" * KIB32,
        "32 KiB of capitalised words joined by apostrophes": ("Dana'" * 7000)[:KIB32],
        "32 KiB of spaces inside a statement": ("I live in" + " " * KIB32)[: KIB32 - 7] + "Denver.",
        "32 KiB of lines of spaces": ("I live in Denver.\n" + (" " * 40 + "\n") * 820)[:KIB32],
        "32 KiB of one-line records": ("Dana Reyes; title: Data Engineer; city: Denver\n" * 800)[:KIB32],
        "32 KiB of keyed fields": ("name=Dana Reyes; title=x; " * 1300)[:KIB32],
        "32 KiB of notes on a person": ("Cand: Dana Reyes, nurse. Left Acme. " * 900)[:KIB32],
        "32 KiB of 'moved here'": ("Denver is great. We moved here in April. " * 800)[:KIB32],
    }


class Command(BaseCommand):
    help = "Fact extraction: statements per second on realistic text, and the worst case on 32 KiB of hostile text."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args, **options):
        repeat = max(1, options["repeat"])
        rounds = 200 * repeat
        started = time.perf_counter()
        facts = 0
        for _ in range(rounds):
            extraction._sentence_facts.cache_clear()  # each round reads its sentences anew
            extraction._clause_dates.cache_clear()
            for text in REALISTIC:
                facts += len(extract_facts(text, speaker="Dana Reyes", reference=REFERENCE))
        elapsed = time.perf_counter() - started
        statements = rounds * len(REALISTIC)
        self.stdout.write(
            f"realistic: {statements / elapsed:,.0f} statements/s ({elapsed / statements * 1e6:.0f} µs each), "
            f"{facts / rounds:.0f} facts per {len(REALISTIC)} statements"
        )
        for name, text in _hostile().items():
            times = []
            for _ in range(repeat):
                extraction._sentence_facts.cache_clear()
                extraction._clause_dates.cache_clear()
                began = time.perf_counter()
                found = extract_facts(text, speaker="Dana Reyes", reference=REFERENCE)
                times.append(time.perf_counter() - began)
            self.stdout.write(
                f"{name}: {len(text.encode()) / 1024:.0f} KiB, worst {max(times) * 1000:.1f} ms, "
                f"median {sorted(times)[len(times) // 2] * 1000:.1f} ms, {len(found)} facts"
            )
