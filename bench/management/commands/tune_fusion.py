"""How the fusion's tunables were chosen, reproducibly: on generated multi-level corpora (``load_corpus``), every
question of ``bench.corpus.benchmark_queries`` is searched once with the defaults and the ranking's inputs are
kept; then each point of a grid re-ranks them (``retrieval.ranking.rank`` is pure) and is scored by how often the
memory the question was drawn from comes back in the top 10. Questions alternate between a development half
(chosen on) and a held-out half (reported as it comes out), and rank_bm25 over the same visible texts is printed
beside them. The data folder's sets are checked separately with ``eval_retrieval``."""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

from bench.corpus.generator import corpus_plan
from bench.evaluation import BASELINE
from bench.queries import SourceCheck, distinct_queries
from memories.models import Tenant
from retrieval import ranking, services

SKIP = 400  # the first questions of the generator's order are bench_search's; these come after them
# Each grid holds the current default (fit_fusion may have moved it), so that the defaults are a point of the grid.
GRID = {
    "tier_strength": tuple(sorted({1.0, 0.5, 0.25, 0.0, ranking.TIER_STRENGTH}, reverse=True)),  # DESIGN_TIER_BOOST**
    "keyword_trust": tuple(sorted({0.0, 0.5, 1.0, ranking.KEYWORD_TRUST})),
    "vector_weight": tuple(sorted({1.0, 0.5, ranking.DEFAULT_ARM_WEIGHTS["vector"]}, reverse=True)),
    "recency_max": tuple(sorted({0.4, 0.2, ranking.RankingConfig().recency_max}, reverse=True)),
}
# DESIGN as written: its tiers at full strength, no keyword trust, equal keyword and vector weights, its recency and
# floor (the grid's other points keep the current defaults of what they do not vary).
DESIGN = ranking.RankingConfig(
    tier_boost=ranking.DESIGN_TIER_BOOST,
    keyword_trust=0.0,
    arm_weights={"keyword": 1.0, "vector": 1.0, "relational": 0.5},
    recency_max=0.4,
    recency_half_days=30.0,
    floor_ratio=0.6,
)


class Command(BaseCommand):
    help = "Sweep the fusion's tunables on generated corpora (dev / held-out halves, beside rank_bm25)."

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="10000,100000", help="corpus sizes (loaded with load_corpus)")
        parser.add_argument("--questions", type=int, default=400, help="per size (half development, half held out)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--top", type=int, default=12, help="grid points printed, best development score first")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, sizes: str, questions: int, seed: int, **options):
        captured = []
        baseline = {}
        for size in [int(part) for part in sizes.split(",") if part.strip()]:
            rows, hits = self._capture(size, questions, seed)
            captured += rows
            baseline[size] = hits
        points = []
        for strength, trust, vector, recency in itertools.product(*GRID.values()):
            config = ranking.RankingConfig(
                tier_boost={level: value**strength for level, value in ranking.DESIGN_TIER_BOOST.items()},
                keyword_trust=trust,
                arm_weights={**ranking.DEFAULT_ARM_WEIGHTS, "vector": vector},
                recency_max=recency,
            )
            points.append(
                {
                    "tier_strength": strength,
                    "keyword_trust": trust,
                    "vector_weight": vector,
                    "recency_max": recency,
                    "scores": _score(captured, config),
                }
            )
        for point in points:
            point["development"] = sum(v for (_, half), v in point["scores"].items() if half == "dev")
        points.sort(key=lambda p: -p["development"])
        current = next(
            p
            for p in points
            if (p["tier_strength"], p["keyword_trust"], p["vector_weight"], p["recency_max"])
            == (
                ranking.TIER_STRENGTH,
                ranking.KEYWORD_TRUST,
                ranking.DEFAULT_ARM_WEIGHTS["vector"],
                ranking.RankingConfig().recency_max,
            )
        )
        design_point = {
            "tier_strength": 1.0,
            "keyword_trust": 0.0,
            "vector_weight": 1.0,
            "recency_max": 0.4,
            "scores": _score(captured, DESIGN),
        }
        if options["json"]:
            out = {"baseline": baseline, "points": points}
            self.stdout.write(json.dumps(out, default=lambda key: "/".join(map(str, key))))
            return
        keys = sorted({key for p in points for key in p["scores"]})
        header = " ".join(f"{f'{size} {half}':>14}" for size, half in keys)
        lines = [
            f"tune_fusion: source memory in the top 10, {questions} questions per size (even: development, odd: "
            "held out)",
            f"  {'tier str  kw trust  vec w  recency':<58} {header}",
            f"  {BASELINE + ' (same visible texts)':<58} "
            + " ".join(f"{baseline[size][half]:>14.3f}" for size, half in keys),
        ]

        def line(label: str, point: dict) -> str:
            return f"  {label:<58} " + " ".join(f"{point['scores'][key]:>14.3f}" for key in keys)

        def knobs(p: dict) -> str:
            return f"{p['tier_strength']:<9}{p['keyword_trust']:<10}{p['vector_weight']:<7}{p['recency_max']}"

        lines.append(line(f"{knobs(design_point)}  (DESIGN as written)", design_point))
        lines.append(line(f"{knobs(current)}  (the defaults, unrounded)", current))
        lines.append("  best on the development halves:")
        lines += [line(knobs(p), p) for p in points[: options["top"]]]
        self.stdout.write("\n".join(lines))

    def _capture(self, size: int, count: int, seed: int) -> tuple[list[dict], dict[str, float]]:
        plan = corpus_plan(seed=seed, size=size)
        tenant = Tenant.objects.filter(slug=plan.tenants[0].slug).first()
        if tenant is None:
            raise CommandError(f"corpus of size {size} is not loaded: manage.py load_corpus --size {size}")
        check = SourceCheck(plan, tenant, baseline_max=sys.maxsize)
        real_rank = services.rank
        inputs: dict = {}

        def keep(**kwargs):
            inputs.update(kwargs)
            return real_rank(**kwargs)

        captured, found = [], {"dev": 0, "held": 0}
        services.rank = keep
        try:
            for index, query in enumerate(distinct_queries(plan, SKIP + count)[SKIP:]):
                half = "dev" if index % 2 == 0 else "held"
                inputs.clear()
                services.search_memories(
                    tenant=tenant,
                    user_id=query.user_id,
                    query=query.text,
                    options=services.SearchOptions(top_k=10, track_access=False),
                )
                source = check.sources(query)
                found[half] += bool(source & set(check.baseline_top(query)))
                if inputs:
                    captured.append({"key": (size, half), "source": source, "inputs": dict(inputs)})
        finally:
            services.rank = real_rank
        return captured, {half: hits / (count / 2) for half, hits in found.items()}


def _score(captured: list[dict], config: ranking.RankingConfig) -> dict[tuple, float]:
    found: dict[tuple, int] = {}
    total: dict[tuple, int] = {}
    for row in captured:
        inputs = row["inputs"]
        # the policy's overrides: every level whose boost is not the default's
        policy = {k: v for k, v in inputs["config"].tier_boost.items() if ranking.DEFAULT_TIER_BOOST.get(k) != v}
        ranked = ranking.rank(
            **{**inputs, "config": replace(config.with_tier_overrides(policy), lead_arm=inputs["config"].lead_arm)}
        )
        found[row["key"]] = found.get(row["key"], 0) + bool(row["source"] & {r.memory_id for r in ranked})
        total[row["key"]] = total.get(row["key"], 0) + 1
    return {key: found[key] / total[key] for key in total}
