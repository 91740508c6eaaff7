"""The extractor on each attribute's facts in the shapes people give them (bench.fact_variants: grammar, other words,
records, joined clauses, two people, changes, names, speech, a learner's English, the past): the share of variants
read, per attribute and per family, and the share of hedged, wished or asked controls and near misses that stated
nothing of the fact."""

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

        # (each variant counted under its attribute and under its family)
        asked = {"attribute": Counter(), "family": Counter()}
        got = {"attribute": Counter(), "family": Counter()}
        missed = []
        for variant, speaker in said_by():
            hit = read(variant, extract_facts(variant.text, speaker=speaker, reference=REFERENCE))
            for key in ("attribute", "family"):
                asked[key][getattr(variant, key)] += 1
                got[key][getattr(variant, key)] += hit
            if not hit:
                missed.append(variant.text)
        held = [read(c, extract_facts(c.text, speaker=SPEAKER, reference=REFERENCE)) for c in controls()]
        self.stdout.write(f"{'attribute':<12} {'variants':>8} {'read':>6}")
        for key in ("attribute", "family"):
            for name in sorted(asked[key]):
                self.stdout.write(f"{name:<12} {asked[key][name]:>8} {got[key][name] / asked[key][name]:>6.3f}")
        total = asked["family"].total()
        self.stdout.write(f"{'all':<12} {total:>8} {got['family'].total() / total:>6.3f}")
        self.stdout.write(f"controls (hedged, wished, asked; near misses) stating nothing: {sum(held)}/{len(held)}")
        if misses:
            self.stdout.write("\n".join(f"  missed: {text}" for text in missed))
