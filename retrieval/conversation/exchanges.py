"""The ``exchanges`` step: the question a hit answers comes up under it — pure: no Django, no database.

Two people answer each other, and what a reply is about is often only in the question it answers ("How did the
first kiln firing go?" / "Not a single crack, I'm framing the bowl."): a question about a chat whose answer spans
both halves of an exchange finds the half that shares its words and loses the other. For the first hits of the page
(``RankingConfig.exchange_reach``) that state something, the load statement reads the turn just before each when
someone else said it and it asks something (``retrieval.selectors``), and the page ranks that question at a share of
its hit's score (``RankingConfig.exchange_share``): just below the hit at a share of 1, below the hits it does not
outrank at a smaller one.

Only that way round: the reply to a question on the page is what the ``replies`` step brings when the question was
put to someone the search names; any question's reply, brought by this step, crowded the page with the answers to
passing questions and lost more than it found (bench/HISTORY.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from retrieval.conversation.page import Page, Step
from retrieval.ranking import Ranked
from retrieval.text import is_question

if TYPE_CHECKING:
    from retrieval.selectors import RankingRow


def statements(ranked: Sequence[Ranked], rows: Mapping[int, RankingRow], reach: int) -> list[int]:
    """The session turns among the first ``reach`` hits of the page that state something (a turn that asks is no
    answer): the hits whose question, if one was put just before them, the page needs."""
    return [
        item.memory_id
        for item in ranked[:reach]
        if item.memory_id in rows and rows[item.memory_id].is_turn and not is_question(rows[item.memory_id].turn_text)
    ]


def with_prompts(ranked: Sequence[Ranked], prompts: Mapping[int, int], top_k: int, *, share: float) -> list[Ranked]:
    """``ranked`` with each question of ``prompts`` (question id → the hit that answers it) ranked at ``share`` of its
    hit's score — below the hit and every hit scoring at least that, with ``explain["prompted"]`` naming the hit —
    unless the page ranks it that high already; cut to ``top_k``. Hits are served in page order."""
    position = {item.memory_id: index for index, item in enumerate(ranked)}
    out = list(ranked)
    for question, hit in sorted(prompts.items(), key=lambda pair: (position.get(pair[1], len(ranked)), pair[0])):
        if hit not in position:
            continue
        ids = [item.memory_id for item in out]
        score = share * out[ids.index(hit)].score
        explain: Mapping = {}
        if question in ids:
            if out[ids.index(question)].score >= score:
                continue
            explain = out.pop(ids.index(question)).explain
            ids.remove(question)
        at = ids.index(hit) + 1
        while at < len(out) and out[at].score >= score:
            at += 1
        out.insert(at, Ranked(memory_id=question, score=score, explain={**explain, "prompted": hit}))
    return out[:top_k]


def _ask_prompts(page: Page) -> Page:
    return replace(page, prompted=statements(page.ranked, page.rows, page.config.exchange_reach))


def _attach_prompts(page: Page) -> Page:
    if not page.prompts:
        return page
    return replace(page, ranked=with_prompts(page.ranked, page.prompts, page.top_k, share=page.config.exchange_share))


EXCHANGES = Step("exchanges", ask=_ask_prompts, attach=_attach_prompts)
