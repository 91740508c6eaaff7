"""Current truth and authority over a ranked result page (pure: no database): the ``truth`` step.

After ranking, three bounded adjustments are made to the page, in this order:

1. **Curated authority.** A curated memory (admin-written, imported, or an approved proposal: see
   :func:`memories.services.trust.memory_is_curated`) has its score multiplied by ``1 + CURATED_BOOST``: it wins
   near ties against agent-written memories, never against a clearly better match.
2. **Open contradictions.** Both members of an open ``possible_contradiction`` warning shown on the page carry
   ``contradicts``; within each pair the winner — the newer memory, unless the older is curated and the newer is
   not — is moved just above the loser when ranked below it.
3. **Proposals.** A proposed policy is never ranked above a curated policy of the page: it moves just below the
   last such policy.

Scores are then re-assigned in page order (the page's scores, sorted), so they stay non-increasing. For questions
about how things stand, the ``later_statements`` step (:mod:`retrieval.conversation.later_statements`) follows.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from memories.models import Memory, MemoryKind, MemoryStatus
from memories.selectors.contradictions import CONTRADICTION_CODE
from memories.services.trust import memory_is_curated
from retrieval.conversation.page import Hit, Page, Step
from retrieval.synthesis.dates import PAST_TENSE_RE

CURATED_BOOST = 0.1


def open_contradictions(memories: Sequence[Memory]) -> dict[int, list[int]]:
    """Memory id → the ids it contradicts, for the open (unresolved) contradiction warnings whose two memories
    are both in ``memories``. A warning naming a memory off the page is left out: that memory may be history, or
    one the reader cannot see."""
    shown = {memory.pk for memory in memories}
    pairs: dict[int, set[int]] = defaultdict(set)
    for memory in memories:
        for warning in memory.warnings or []:
            if not isinstance(warning, dict) or warning.get("code") != CONTRADICTION_CODE or "resolution" in warning:
                continue
            other = warning.get("memory_id")
            if isinstance(other, int) and not isinstance(other, bool) and other != memory.pk and other in shown:
                pairs[memory.pk].add(other)
                pairs[other].add(memory.pk)
    return {memory_id: sorted(others) for memory_id, others in pairs.items()}


def pair_winner(a: Memory, b: Memory) -> Memory:
    """The memory of a contradicting pair that states the current truth: the newer, unless the older is curated
    and the newer is not."""
    newer, older = (a, b) if (a.created_at, a.pk) >= (b.created_at, b.pk) else (b, a)
    if memory_is_curated(older) and not memory_is_curated(newer):
        return older
    return newer


def current_rows(rows: Sequence, hits: Sequence[Hit]) -> list:
    """``rows`` (anything with ``memory_id``) without the memories that lose an open contradiction on the page: an
    answer quotes the rule that holds, not both sides."""
    by_id = {hit.memory.pk: hit.memory for hit in hits}
    losers = {
        memory_id
        for hit in hits
        for other_id in hit.contradicts
        if other_id in by_id
        for memory_id in [hit.memory.pk]
        if pair_winner(hit.memory, by_id[other_id]).pk != memory_id
    }
    return [row for row in rows if row.memory_id not in losers]


def truth_ordered(hits: list[Hit]) -> list[Hit]:
    """``hits`` (ranked, best first) with the three adjustments of the module docstring; each hit's
    ``contradicts`` is set, and with ``explain`` its ``curated`` flag and any ``truth`` move."""
    if not hits:
        return hits
    contradicts = open_contradictions([hit.memory for hit in hits])
    curated = {hit.memory.pk: memory_is_curated(hit.memory) for hit in hits}
    boosted = {hit.memory.pk: hit.score * (1 + CURATED_BOOST) if curated[hit.memory.pk] else hit.score for hit in hits}
    position = {hit.memory.pk: index for index, hit in enumerate(hits)}
    # stable: equal adjusted scores keep the ranking's order
    order = sorted(hits, key=lambda hit: (-boosted[hit.memory.pk], position[hit.memory.pk]))
    moved: dict[int, str] = {}
    by_id = {hit.memory.pk: hit for hit in hits}
    for memory_id in sorted(contradicts):
        for other_id in contradicts[memory_id]:
            if other_id < memory_id:
                continue  # each pair once
            winner = pair_winner(by_id[memory_id].memory, by_id[other_id].memory)
            loser_id = other_id if winner.pk == memory_id else memory_id
            ids = [hit.memory.pk for hit in order]
            if ids.index(winner.pk) > ids.index(loser_id):
                order.remove(by_id[winner.pk])
                order.insert(ids.index(loser_id), by_id[winner.pk])
                moved[winner.pk] = f"above memory {loser_id}, which it contradicts"
    curated_policies = [
        hit.memory.pk for hit in order if hit.memory.kind == MemoryKind.POLICY and curated[hit.memory.pk]
    ]
    if curated_policies:
        for hit in [hit for hit in order if hit.memory.status == MemoryStatus.PROPOSED]:
            ids = [h.memory.pk for h in order]
            last = max(ids.index(memory_id) for memory_id in curated_policies)
            if ids.index(hit.memory.pk) < last:
                order.remove(hit)
                order.insert(last, hit)  # the list shrank by one: index ``last`` is just below that policy
                moved[hit.memory.pk] = "below the curated policies (a proposal)"
    scores = sorted((boosted[hit.memory.pk] for hit in hits), reverse=True)
    for hit, score in zip(order, scores, strict=True):
        hit.score = score
        hit.contradicts = contradicts.get(hit.memory.pk, [])
        if hit.explain is not None:
            hit.explain["curated"] = curated[hit.memory.pk]
            if hit.memory.pk in moved:
                hit.explain["truth"] = moved[hit.memory.pk]
    return order


# a question about an earlier state ("where did she live before?") wants the earlier statement, and one about when
# something happened ("when did she go?", not "when does the choir meet now?") an event, not how things stand
_PAST_RE = re.compile(r"\b(?:before|previous(?:ly)?|used to|original(?:ly)?|former(?:ly)?|earlier|first|old)\b", re.I)


def asks_about_the_past(question: str, *, asks_a_date: bool = False) -> bool:
    """The question asks about an earlier state, or (``asks_a_date``: a "when …?" question) in the past tense about
    when something happened."""
    return bool(_PAST_RE.search(question) or (asks_a_date and PAST_TENSE_RE.search(question)))


def _truth(page: Page) -> Page:
    """What holds now, and who may say so, outranks what was said before or proposed (module docstring)."""
    return replace(page, hits=truth_ordered(list(page.hits)))


TRUTH = Step("truth", order=_truth)
