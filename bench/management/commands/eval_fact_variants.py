"""The extractor on statements varied by grammar and by a chat's way of naming the voice (bench.fact_variants): the
share of variants read, per attribute, and the share of hedged, wished or asked controls that stayed statements of
nothing."""

from __future__ import annotations

from collections import Counter

from django.core.management.base import BaseCommand

from bench.fact_variants import REFERENCE, SPEAKER, controls, read, said_by


class Command(BaseCommand):
    help = "Fact extraction on one statement in many grammatical variants, and on hedged controls."

    def add_arguments(self, parser):
        parser.add_argument("--misses", action="store_true", help="list the variants not read")

    def handle(self, *args, misses: bool, **options):
        from graph.extraction.facts import extract_facts

        asked, got, missed = Counter(), Counter(), []
        for variant, speaker in said_by():
            asked[variant.attribute] += 1
            if read(variant, extract_facts(variant.text, speaker=speaker, reference=REFERENCE)):
                got[variant.attribute] += 1
            else:
                missed.append(variant.text)
        held = [read(c, extract_facts(c.text, speaker=SPEAKER, reference=REFERENCE)) for c in controls()]
        self.stdout.write(f"{'attribute':<12} {'variants':>8} {'read':>6}")
        for attribute in sorted(asked):
            self.stdout.write(f"{attribute:<12} {asked[attribute]:>8} {got[attribute] / asked[attribute]:>6.3f}")
        total = sum(asked.values())
        self.stdout.write(f"{'all':<12} {total:>8} {sum(got.values()) / total:>6.3f}")
        self.stdout.write(f"controls (hedged, wished, asked) stating nothing: {sum(held)}/{len(held)}")
        if misses:
            self.stdout.write("\n".join(f"  missed: {text}" for text in missed))
