"""The extractor on each attribute's facts in the shapes people give them (bench.fact_variants: grammar, other words,
records, joined clauses, two people, changes, names): the share of variants read, per attribute and per family, and
the share of hedged, wished or asked controls and near misses that stated nothing of the fact."""

from __future__ import annotations

from collections import Counter

from django.core.management.base import BaseCommand

from bench.fact_variants import REFERENCE, SPEAKER, controls, read, said_by


class Command(BaseCommand):
    help = "Fact extraction on each attribute's facts in the shapes people give them, and on controls."

    def add_arguments(self, parser):
        parser.add_argument("--misses", action="store_true", help="list the variants not read")

    def handle(self, *args, misses: bool, **options):
        from graph.extraction.facts import extract_facts

        asked, got, missed = Counter(), Counter(), []
        for variant, speaker in said_by():
            asked[variant.attribute] += 1
            asked[variant.family] += 1
            if read(variant, extract_facts(variant.text, speaker=speaker, reference=REFERENCE)):
                got[variant.attribute] += 1
                got[variant.family] += 1
            else:
                missed.append(variant.text)
        families = {variant.family for variant, _speaker in said_by()}
        held = [read(c, extract_facts(c.text, speaker=SPEAKER, reference=REFERENCE)) for c in controls()]
        self.stdout.write(f"{'attribute':<12} {'variants':>8} {'read':>6}")
        for attribute in sorted(set(asked) - families):
            self.stdout.write(f"{attribute:<12} {asked[attribute]:>8} {got[attribute] / asked[attribute]:>6.3f}")
        for family in sorted(families):
            self.stdout.write(f"{family:<12} {asked[family]:>8} {got[family] / asked[family]:>6.3f}")
        total = sum(asked[family] for family in families)
        self.stdout.write(f"{'all':<12} {total:>8} {sum(got[family] for family in families) / total:>6.3f}")
        self.stdout.write(f"controls (hedged, wished, asked; near misses) stating nothing: {sum(held)}/{len(held)}")
        if misses:
            self.stdout.write("\n".join(f"  missed: {text}" for text in missed))
