"""The facts-that-change set, end to end: one half of ``bench.facts.generator`` is loaded through the real services
into a fresh tenant (sessions through ``session_ingest``, as ``POST /api/v1/sessions`` does; notes through
``memory_create``, by an admin or a member's agent, at a team or the org scope, some in a project), indexed
synchronously (embeddings, graph links), and every question goes through ``search_memories`` as its asker, with
``synthesize`` on, beside rank_bm25 over the same live memory texts the asker can see, in the same run.

Figures per question kind: the share of answers naming an expected value (``right``), naming a wrong or outdated
value and no expected one (``wrong``), the stating memory ranked first (``first``; ``bm25`` for the baseline), and
answerable questions refused (``refused``: no answer, ``answer.kind`` unknown or none, or ``no_relevant_memory``);
for never-said and unknown subjects, the share answered ``unknown`` / ``none`` (or not answered), flagged
``no_relevant_memory``, and naming some value; for private facts, leaks (a private memory among the hits or cited,
or the answer naming a value nothing the asker can see states), which must be 0.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from tqdm import tqdm

from bench.evaluation import Bm25Baseline
from bench.facts import vocabulary as v
from bench.facts.generator import ANSWERABLE, CLOSED, NOT_RECORDED, PRIVATE, Dataset, Half, Question, names
from bench.stats import percentile
from graph.models import Fact
from graph.services import links_extract_for_memories
from memories.models import Member, Memory, Tenant
from memories.orgchart import parse_org_chart
from memories.services.indexing import memories_embed
from memories.services.memory import Author, memory_create
from memories.services.onboarding import tenant_onboard
from memories.services.sessions import session_ingest
from memories.signals import indexing_deferred
from orgmemory.oncommit import deferred
from retrieval.services import SearchOptions, search_memories

SLUG = "eval-facts"
OTHER_SLUG = "eval-facts-other"
TOP_K = 10
REFUSING_KINDS = ("unknown", "none")
CURATOR = Author(kind="admin", label="admin:curator")
# an answer that names a closed value with one of these says it is closed (not that it holds)
CLOSING_CUES = ("no longer", "left", "until", "former", "previous", "used to", "not ", "moved out", "quit", "ended")


@dataclass
class Outcome:
    """What the search gave one question."""

    answer: str = ""
    answer_kind: str = "-"  # "fact", "unknown", "none", "date", "default" (the usual form), "-" (no answer)
    hits: list[int] = field(default_factory=list)
    cited: list[int] = field(default_factory=list)
    no_relevant_memory: bool = False
    bm25_first: str | None = None  # the baseline's first key (main-tenant questions)
    latency_ms: float = 0.0


# --- load ------------------------------------------------------------------------------------------------------


def _chart(slug: str, name: str, teams: Sequence[tuple[str, Sequence[str]]]) -> str:
    children = ", ".join(
        f"{{level: team, key: {key}, name: {key.title()}, members: [{', '.join(members)}]}}" for key, members in teams
    )
    return (
        f"tenant: {{slug: {slug}, name: {name}}}\nlevels: [org, team, user]\n"
        f"tree: [{{level: org, key: hq, name: {name}, children: [{children}]}}]\n"
        "policies: {writable_levels: {agent: [user, team]}}\n"
    )


def tenants_for(half: Half, *, slug: str = SLUG) -> tuple[Tenant, Tenant]:
    """A fresh tenant with the half's teams and members, and another tenant whose members have the same user ids
    (existing tenants of those slugs are deleted first)."""
    other_slug = f"{slug}-other"
    Tenant.objects.filter(slug__in=[slug, other_slug]).delete()
    everyone = [m for _, members in v.MEMBERS[half.name] for m in members]
    tenant_onboard(plan=parse_org_chart(_chart(slug, "Facts bench", v.MEMBERS[half.name])))
    tenant_onboard(plan=parse_org_chart(_chart(other_slug, "Elsewhere", [("crew", everyone)])))
    return Tenant.objects.get(slug=slug), Tenant.objects.get(slug=other_slug)


def _author(tenant: Tenant, who: str) -> Author:
    if who == "admin":
        return CURATOR
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=who))


def ingest(main: Tenant, other: Tenant, half: Half, *, quiet: bool = False) -> tuple[dict[str, int], dict]:
    """Every session and note of the half (and the other tenant's few notes), then embeddings and graph links for
    what was stored. Returns the memory id of each key, and counts and timings."""
    pk_of: dict[str, int] = {}
    started = time.perf_counter()
    with indexing_deferred() as embed_ids, deferred("links") as link_ids:
        for session in tqdm(half.sessions, desc="sessions", file=sys.stderr, disable=quiet):
            author = _author(main, session.user_id)
            with transaction.atomic():
                result = session_ingest(
                    tenant=main,
                    author=author,
                    app_name=session.payload()["app_name"],
                    session_id=session.session_id,
                    events=session.events,
                )
            for event, memory_id in zip(session.events, result.memory_ids, strict=True):
                pk_of[event["id"]] = memory_id
        for note in tqdm(half.notes, desc="notes", file=sys.stderr, disable=quiet):
            written = memory_create(
                tenant=main,
                author=_author(main, note.author),
                content=note.content,
                scope=note.scope,
                project=note.project,
                reference_time=datetime.fromisoformat(note.reference),
            )
            pk_of[note.key] = written.memory.pk
        for text in v.OTHER_TENANT_NOTES:
            memory_create(tenant=other, author=CURATOR, content=text, scope="org:hq")
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        ids = sorted(embed_ids)
        for start in tqdm(range(0, len(ids), 64), desc="embed", file=sys.stderr, disable=quiet):
            memories_embed(memory_ids=ids[start : start + 64])
        embed_s = time.perf_counter() - started
        started = time.perf_counter()
        links = links_extract_for_memories(memory_ids=sorted(link_ids))
        links_s = time.perf_counter() - started
    live = set(Memory.objects.filter(tenant=main).live().values_list("pk", flat=True))
    return pk_of, {
        "memories": Memory.objects.filter(tenant=main).count(),
        "live": len(live),
        "facts": Fact.objects.filter(tenant=main).count(),
        "write_s": round(write_s, 2),
        "embed_s": round(embed_s, 2),
        "links_s": round(links_s, 2),
        "links": links.get("links", 0) if isinstance(links, dict) else 0,
    }


def statements_extracted(main: Tenant, half: Half, pk_of: dict[str, int]) -> dict:
    """How many of the set's stating memories hold the fact they state (attribute, value, negation) after
    indexing: what the answers can stand on."""
    stated: set[tuple[str, str, str, bool]] = set()
    for question in half.questions:
        if question.kind in ANSWERABLE and len(question.stating) == len(question.expected):
            pairs = zip(question.stating, question.expected, strict=True)
            stated.update((key, question.attribute, value, False) for key, value in pairs)
        elif question.kind in CLOSED:
            stated.add((question.stating[0], question.attribute, question.wrong[0], True))
    rows = Fact.objects.filter(tenant=main, memory_id__in=[pk_of[key] for key, *_ in stated])
    held: dict[tuple[int, str, bool], list[str]] = {}
    for memory_id, attribute, negated, value in rows.values_list("memory_id", "attribute", "negated", "value"):
        held.setdefault((memory_id, attribute, negated), []).append(value)
    found = sum(
        any(names(text, value) for text in held.get((pk_of[key], attribute, negated), ()))
        for key, attribute, value, negated in stated
    )
    return {"stated": len(stated), "extracted": found}


# --- asking ----------------------------------------------------------------------------------------------------


def ask(tenants: dict[str, Tenant], question: Question) -> Outcome:
    options = SearchOptions(
        top_k=TOP_K,
        synthesize=True,
        track_access=False,
        as_of=datetime.fromisoformat(question.as_of) if question.as_of else None,
        project=question.project,
    )
    started = time.perf_counter()
    result = search_memories(
        tenant=tenants[question.tenant], user_id=question.asker, query=question.text, options=options
    )
    outcome = Outcome(latency_ms=(time.perf_counter() - started) * 1000)
    outcome.hits = [hit.memory.pk for hit in result.hits]
    outcome.no_relevant_memory = bool(result.no_relevant_memory)
    if result.answer is not None:
        outcome.answer = result.answer.text or ""
        outcome.answer_kind = result.answer.kind or "default"
        outcome.cited = [memory_id for _, memory_id in result.answer.citations]
    return outcome


def bm25_firsts(half: Half, questions: Sequence[Question], pk_of: dict[str, int], live: set[int]) -> list[str | None]:
    """rank_bm25 over the live memories each asker sees (one row per stored memory): the first key per question."""
    indexes: dict[tuple[str, str | None], Bm25Baseline] = {}
    firsts: list[str | None] = []
    for question in questions:
        if question.tenant != "main":
            firsts.append(None)
            continue
        index_key = (question.asker, question.project)
        if index_key not in indexes:
            keys, seen = [], set()
            for key in half.visible_keys(question.asker, question.project):
                pk = pk_of.get(key)
                if pk in live and pk not in seen:
                    seen.add(pk)
                    keys.append(key)
            indexes[index_key] = Bm25Baseline(keys, [half.texts[key] for key in keys])
        ranked = indexes[index_key].search(question.text, k=1)
        firsts.append(ranked[0] if ranked else None)
    return firsts


# --- scoring ---------------------------------------------------------------------------------------------------


def refused(outcome: Outcome) -> bool:
    return outcome.no_relevant_memory or outcome.answer_kind in ("-", *REFUSING_KINDS)


def leaked(question: Question, outcome: Outcome, private_pks: set[int]) -> bool:
    if private_pks & (set(outcome.hits) | set(outcome.cited)):
        return True
    return any(names(outcome.answer, value) for value in question.must_not_name)


def _share(flags) -> float:
    flags = list(flags)
    return round(sum(map(bool, flags)) / len(flags), 3) if flags else 0.0


def score(
    questions: Sequence[Question],
    outcomes: Sequence[Outcome],
    pk_of: dict[str, int],
    main_pks: set[int],
    bm25: Sequence[str | None],
) -> dict:
    """The figures per kind (see the module docstring), with the group rows the issue asks for."""
    rows: dict[str, dict] = {}
    groups = {
        **{kind: (kind,) for kind in (*ANSWERABLE, *CLOSED, *NOT_RECORDED, *PRIVATE)},
        "current (now+self)": ("now", "self"),
        "as-of (both)": ("as-of", "as-of-date"),
        "answerable": ANSWERABLE,
        "not recorded": NOT_RECORDED,
        "private": PRIVATE,
    }
    for name, kinds in groups.items():
        picked = [i for i, q in enumerate(questions) if q.kind in kinds]
        if not picked:
            continue
        row: dict = {"n": len(picked), "kinds": dict(Counter(outcomes[i].answer_kind for i in picked))}
        if set(kinds) <= set(ANSWERABLE):
            right = [any(names(outcomes[i].answer, e) for e in questions[i].expected) for i in picked]
            row["right"] = _share(right)
            row["wrong"] = _share(
                not ok and any(names(outcomes[i].answer, w) for w in questions[i].wrong)
                for i, ok in zip(picked, right, strict=True)
            )
            row["first"] = _share(
                outcomes[i].hits[:1] and outcomes[i].hits[0] in {pk_of.get(k) for k in questions[i].stating}
                for i in picked
            )
            row["bm25"] = _share(bm25[i] in questions[i].stating for i in picked)
            row["refused"] = _share(refused(outcomes[i]) for i in picked)
        elif set(kinds) <= set(CLOSED):
            row["states_closed"] = _share(
                names(outcomes[i].answer, questions[i].wrong[0])
                and not any(cue in outcomes[i].answer.casefold() for cue in CLOSING_CUES)
                for i in picked
            )
            row["unknown_or_none"] = _share(outcomes[i].answer_kind in ("-", *REFUSING_KINDS) for i in picked)
            row["first"] = _share(
                outcomes[i].hits[:1] and outcomes[i].hits[0] == pk_of.get(questions[i].stating[0]) for i in picked
            )
        elif set(kinds) <= set(NOT_RECORDED):
            row["unknown_or_none"] = _share(outcomes[i].answer_kind in ("-", *REFUSING_KINDS) for i in picked)
            row["no_relevant_memory"] = _share(outcomes[i].no_relevant_memory for i in picked)
            row["names_a_value"] = _share(any(names(outcomes[i].answer, w) for w in questions[i].wrong) for i in picked)
        else:
            leaks = []
            for i in picked:
                question = questions[i]
                private = main_pks if question.tenant == "other" else {pk_of[k] for k in question.private}
                leaks.append(leaked(question, outcomes[i], private))
            row["leaks"] = sum(leaks)
            row["unknown_or_none"] = _share(outcomes[i].answer_kind in ("-", *REFUSING_KINDS) for i in picked)
        rows[name] = row
    return rows


def evaluate(
    dataset: Dataset,
    *,
    half: str = "dev",
    slug: str = SLUG,
    keep: bool = False,
    quiet: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> dict:
    """Load one half, ask its questions, score: the report of one run (tenants deleted afterwards unless
    ``keep``)."""
    part = dataset.halves[half]
    main, other = tenants_for(part, slug=slug)
    try:
        pk_of, stats = ingest(main, other, part, quiet=quiet)
        stats["statements"] = statements_extracted(main, part, pk_of)
        log(
            f"stored {stats['memories']} memories ({stats['live']} live) for {len(part.sessions)} sessions and "
            f"{len(part.notes)} notes"
        )
        main_pks = set(Memory.objects.filter(tenant=main).values_list("pk", flat=True))
        live = set(Memory.objects.filter(tenant=main).live().values_list("pk", flat=True))
        tenants = {"main": main, "other": other}
        outcomes = [ask(tenants, q) for q in tqdm(part.questions, desc="questions", file=sys.stderr, disable=quiet)]
        bm25 = bm25_firsts(part, part.questions, pk_of, live)
        for outcome, first in zip(outcomes, bm25, strict=True):
            outcome.bm25_first = first
    finally:
        if not keep:
            Tenant.objects.filter(pk__in=[main.pk, other.pk]).delete()
    latencies = [o.latency_ms for o in outcomes]
    return {
        "seed": dataset.seed,
        "half": half,
        "sessions": len(part.sessions),
        "notes": len(part.notes),
        "questions": len(part.questions),
        "ingest": stats,
        "table": score(part.questions, outcomes, pk_of, main_pks, bm25),
        "latency": {"p50_ms": round(percentile(latencies, 50), 1), "p95_ms": round(percentile(latencies, 95), 1)},
        "outcomes": [
            {
                "id": q.id,
                "kind": q.kind,
                "asker": q.asker,
                "text": q.text,
                "expected": q.expected,
                "answer_kind": o.answer_kind,
                "answer": o.answer,
                "no_relevant_memory": o.no_relevant_memory,
                "first": next((k for k, pk in pk_of.items() if o.hits[:1] == [pk]), None),
                "stating": q.stating,
            }
            for q, o in zip(part.questions, outcomes, strict=True)
        ],
    }


# --- report ----------------------------------------------------------------------------------------------------


def format_report(report: dict, *, examples: int = 0) -> str:
    stats = report["ingest"]
    lines = [
        f"facts set, seed {report['seed']}, half {report['half']}: {report['sessions']} sessions, {report['notes']} "
        f"notes -> {stats['memories']} memories ({stats['live']} live); {report['questions']} questions",
        f"ingest: write {stats['write_s']} s, embed {stats['embed_s']} s, links {stats['links_s']} s; "
        f"{stats['facts']} facts; stating memories holding the fact they state: "
        f"{stats['statements']['extracted']}/{stats['statements']['stated']}",
        "",
        f"{'answerable':<20} {'n':>4} {'right':>6} {'wrong':>6} {'first':>6} {'bm25@1':>7} {'refused':>8}",
    ]
    table = report["table"]
    for name in (
        "now",
        "self",
        "current (now+self)",
        "before",
        "as-of",
        "as-of-date",
        "as-of (both)",
        "curated",
        "answerable",
    ):
        if name in table:
            row = table[name]
            lines.append(
                f"{name:<20} {row['n']:>4} {row['right']:>6.3f} {row['wrong']:>6.3f} {row['first']:>6.3f} "
                f"{row['bm25']:>7.3f} {row['refused']:>8.3f}"
            )
    if "closed" in table:
        row = table["closed"]
        lines += [
            "",
            f"{'closed (negated)':<20} {'n':>4} {'states closed':>14} {'unknown/none':>13} {'negation first':>15}",
            f"{'closed':<20} {row['n']:>4} {row['states_closed']:>14.3f} {row['unknown_or_none']:>13.3f} "
            f"{row['first']:>15.3f}",
        ]
    lines += ["", f"{'not recorded':<20} {'n':>4} {'unknown/none':>13} {'no_relevant':>12} {'names a value':>14}"]
    for name in (*NOT_RECORDED, "not recorded"):
        if name in table:
            row = table[name]
            lines.append(
                f"{name:<20} {row['n']:>4} {row['unknown_or_none']:>13.3f} {row['no_relevant_memory']:>12.3f} "
                f"{row['names_a_value']:>14.3f}"
            )
    lines += ["", f"{'private':<20} {'n':>4} {'leaks':>6} {'unknown/none':>13}"]
    for name in (*PRIVATE, "private"):
        if name in table:
            row = table[name]
            lines.append(f"{name:<20} {row['n']:>4} {row['leaks']:>6} {row['unknown_or_none']:>13.3f}")
    lines += [
        "",
        "answer kinds: "
        + "; ".join(
            f"{name} {dict(sorted(table[name]['kinds'].items()))}"
            for name in ("answerable", "closed", "not recorded", "private")
            if name in table
        ),
    ]
    lines.append(f"latency p50/p95 ms: {report['latency']['p50_ms']}/{report['latency']['p95_ms']}")
    if examples:
        lines += ["", "examples (first answers per kind):"]
        shown: Counter = Counter()
        for row in report["outcomes"]:
            if shown[row["kind"]] < examples:
                shown[row["kind"]] += 1
                lines.append(
                    f"  [{row['kind']}] {row['asker']}: {row['text']} -> {row['answer_kind']}: "
                    f"{row['answer'][:160]!r} (expected {', '.join(row['expected']) or '-'})"
                )
    return "\n".join(lines)
