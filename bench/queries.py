"""The generated corpora's questions as the search benchmarks ask them (``bench_search``, ``bench_vector``,
``tune_fusion``): distinct texts, and where each one's answer is."""

from __future__ import annotations

from django.core.management.base import CommandError

from bench.corpus.generator import BenchQuery, benchmark_queries
from bench.evaluation import Bm25Baseline


def distinct_queries(plan, count: int) -> list[BenchQuery]:
    """``count`` questions with distinct texts (a repeated text would be answered by the workers' embedding
    cache), in the generator's order (the kinds interleaved)."""
    seen: set[str] = set()
    out: list[BenchQuery] = []
    seed = 7
    while len(out) < count and seed < 40:
        for query in benchmark_queries(plan, count=count * 2, seed=seed):
            key = " ".join(query.text.split()).casefold()
            if key not in seen:
                seen.add(key)
                out.append(query)
                if len(out) >= count:
                    break
        seed += 1
    if len(out) < count:
        raise CommandError(f"only {len(out)} distinct questions for {count} requests")
    return out


class SourceCheck:
    """Quality on a generated corpus: the memories a question was drawn from (the same text may sit at several
    scopes) and, up to ``baseline_max`` memories, rank_bm25's top ``k`` over the texts the question's user may see
    (rank_bm25 scores every document in Python, a dict per document). Shared by ``bench_search`` and
    ``tune_fusion``."""

    def __init__(self, plan, tenant, *, baseline_max: int) -> None:
        from memories.models import Memory

        self.plan, self.tenant = plan, tenant
        from memories.visibility import current_q

        self.live = Memory.objects.filter(current_q(), tenant=tenant)
        self.rows: list[tuple] = []
        self.baseline: Bm25Baseline | None = None
        if self.live.count() <= baseline_max:
            self.rows = list(self.live.values_list("pk", "scope_id", "title", "content"))
            self.baseline = Bm25Baseline([row[0] for row in self.rows], [f"{row[2]}\n{row[3]}" for row in self.rows])

    def sources(self, query: BenchQuery) -> set[int]:
        from bench.corpus.generator import memory_at
        from memories.services.memory.validation import content_hash

        digest = content_hash(memory_at(self.plan, 0, query.source).content)
        return set(self.live.filter(content_hash=digest).values_list("pk", flat=True))

    def baseline_top(self, query: BenchQuery, k: int = 10) -> list[int] | None:
        """rank_bm25's top ``k`` for the question's user, or None above ``baseline_max`` memories."""
        from memories.selectors import scope_chain_for

        if self.baseline is None:
            return None
        visible = {scope.pk for scope in scope_chain_for(tenant=self.tenant, user_id=query.user_id)}
        return self.baseline.search(query.text, k, allowed=[row[1] in visible for row in self.rows])
