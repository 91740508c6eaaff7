"""The sets an ablation asks (``conversations_set``, ``realchat_set``, ``shared_sets``): each ingested once by its own
benchmark's code, then asked and scored by that code in whatever configuration the search is in (``Measured``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench.ablation.configs import FULL
from bench.conversations import evaluate as conversations
from bench.conversations.generator import generate as generate_conversations
from bench.evaluation import BASELINE, PATH_HALVES, build_path_questions, build_questions, load_paraphrases
from bench.realchat import evaluate as realchat
from bench.realchat.generator import generate as generate_realchat

HALVES = ("dev", "held")
SETS = ("conversations", "realchat", "world", "paraphrases", "paths", "assoc")
SHARED_SETS = ("world", "paraphrases", "paths", "assoc")
CONVERSATION_SEED = 7  # eval_conversations' default set: 20 conversations of 15 sessions
REALCHAT_SEED = 11  # eval_realchat's default set: 12 conversations of 18 sessions
WORLD_FAMILIES = ("attended", "works_at", "invested_in", "advises")


@dataclass(frozen=True)
class Measured:
    """One configuration's figures on one set (``"group|metric"`` → value, in the order they print), how many
    searches it made and the CPU they took."""

    figures: Mapping[str, float]
    searches: int
    cpu_s: float

    @property
    def cpu_ms(self) -> float:
        return self.cpu_s * 1000 / self.searches if self.searches else 0.0


@dataclass
class AblationSet:
    """An ingested set: ``ask`` runs its searches in the current configuration and scores them, ``baseline`` runs
    rank_bm25 over the same texts."""

    name: str
    label: str
    ask: Callable[[], Measured]
    baseline: Callable[[], Measured]
    ingest_s: float = 0.0


def _timed(run: Callable[[], object]) -> tuple[object, float]:
    started = time.process_time()
    result = run()
    return result, time.process_time() - started


def _recalls(
    row: Mapping[str, Mapping[str, float]], groups: Sequence[str], *, mrr: Sequence[str] = (), prefix: str = ""
) -> dict[str, float]:
    """R@5 and R@10 of each of ``groups`` (and MRR of those in ``mrr``: where R@5 is already 1.0, the answer's
    place still moves)."""
    figures = {}
    for group in groups:
        figures[f"{prefix}{group}|R@5"] = row[group]["r5"]
        figures[f"{prefix}{group}|R@10"] = row[group]["r10"]
        if group in mrr:
            figures[f"{prefix}{group}|MRR"] = row[group]["mrr"]
    return figures


def conversation_figures(half_table: Mapping[str, Mapping]) -> dict[str, float]:
    """The generated set's figures of one half (``bench.conversations.evaluate.score(...)[half]``)."""
    figures = _recalls(half_table, (*conversations.ANSWERABLE, "answerable"), mrr=("answerable",))
    if "answer_date" in half_table:
        figures["date|answer"] = half_table["answer_date"]["right"]
    if "hits_date" in half_table:
        figures["date|hits"] = half_table["hits_date"]["right"]
    figures["updates|first"] = half_table["update_order"]["current_first"]
    figures["never-said|abst"] = half_table["abstention"]["abstained"]
    figures["never-said|f-ref"] = half_table["abstention"]["false_refusals"]
    return figures


def realchat_figures(table: Mapping[str, Mapping]) -> dict[str, float]:
    """The realistic set's figures (``bench.realchat.evaluate.score``)."""
    figures = _recalls(table, realchat.GROUPS, mrr=("answerable",))
    figures["updates|first"] = table["update_order"]["current_first"]
    figures["never-said|abst"] = table["never-said"]["abstained"]
    figures["never-said|f-ref"] = table["never-said"]["false_refusals"]
    return figures


def world_figures(row: Mapping[str, Mapping], *, prefix: str = "") -> dict[str, float]:
    """One configuration's row of ``eval_retrieval``'s world table (overall and per family)."""
    return _recalls(row, ("all", *WORLD_FAMILIES), mrr=("all",), prefix=prefix)


def path_figures(table: Mapping[str, Mapping[str, Mapping]], config: str) -> dict[str, float]:
    """One configuration's path figures, per half of the wordings ``eval_retrieval`` reports."""
    figures = {}
    for half in (half for half in PATH_HALVES if half in table):
        row = table[half][config]
        figures[f"{half}|answers@10"] = row["answers@10"]
        figures[f"{half}|needed@10"] = row["needed@10"]
        if "named_in_answer" in row:
            figures[f"{half}|named"] = row["named_in_answer"]
    return figures


def assoc_figures(row: Mapping[str, Mapping]) -> dict[str, float]:
    """One configuration's associative-recall figures (``eval_retrieval``'s row)."""
    groups = ("indirect", "direct", "indirect/dev_half", "indirect/other_half")
    figures = _recalls(row, groups, mrr=("indirect", "direct"))
    figures["negatives|abst"] = row["negatives"]["abstained"]
    figures["hidden|returned"] = row["hidden_returned_any"]
    return figures


def conversations_set(
    half: str, *, slug: str, quiet: bool, log: Callable[[str], None]
) -> tuple[list[AblationSet], Callable]:
    """The generated chats (``eval_conversations``' set), all of them ingested; only the ``half`` frames asked."""
    dataset = generate_conversations(CONVERSATION_SEED)
    questions = [question for question in dataset.questions if question.half == half]
    events = dataset.events_by_id()
    return _chat_set(
        "conversations",
        f"generated chats (seed {CONVERSATION_SEED}), {half} frames",
        dataset,
        questions,
        lambda run: conversation_figures(conversations.score(questions, run, events)[half]),
        slug=slug,
        quiet=quiet,
        log=log,
    )


def realchat_set(
    half: str, *, slug: str, quiet: bool, log: Callable[[str], None]
) -> tuple[list[AblationSet], Callable]:
    """The realistic chats of ``half`` (``eval_realchat --half``)."""
    dataset = generate_realchat(REALCHAT_SEED, half=half)
    questions = dataset.questions
    return _chat_set(
        "realchat",
        f"realistic chats (seed {REALCHAT_SEED}), {half} half",
        dataset,
        questions,
        lambda run: realchat_figures(realchat.score(questions, run)),
        slug=slug,
        quiet=quiet,
        log=log,
    )


def _chat_set(
    name: str,
    label: str,
    dataset,
    questions: Sequence,
    figures: Callable[[conversations.Run], dict[str, float]],
    *,
    slug: str,
    quiet: bool,
    log: Callable[[str], None],
) -> tuple[list[AblationSet], Callable]:
    """A set of chats ingested through the sessions service once, its ``questions`` asked with the full
    configuration's arms (each configuration's steps come from the settings) and scored by ``figures``."""
    started = time.perf_counter()
    tenant = conversations.tenant_for(dataset, slug=slug)
    event_of, stats = conversations.ingest(tenant, dataset, quiet=quiet)
    log(f"{name}: ingested {stats['turns']} turns as {stats['memories']} memories")

    def measure(run_of: Callable[[], conversations.Run]) -> Measured:
        run, cpu = _timed(run_of)
        return Measured(figures(run), len(questions), cpu)

    arms = conversations.ARM_CONFIGS[FULL]
    stored = set(event_of.values())
    ablation_set = AblationSet(
        name=name,
        label=label,
        ask=lambda: measure(
            lambda: conversations.run_config(tenant, questions, event_of, arms, synthesize=True, quiet=True)
        ),
        baseline=lambda: measure(lambda: conversations.run_baseline(dataset, questions, stored, speaker=False)),
        ingest_s=time.perf_counter() - started,
    )
    return [ablation_set], tenant.delete


def shared_sets(
    bench: Path, names: Sequence[str], *, quiet: bool, log: Callable[[str], None]
) -> tuple[list[AblationSet], Callable]:
    """The shared sets ``names`` asks for (world, paraphrases and paths share the world-v1 tenant), through
    ``eval_retrieval``'s own ingest, searches and tables: each configuration is its ``full`` run, and rank_bm25 is
    read from the last such run (it does not depend on the configuration). Each set's run is bound to its tenant
    and baseline when it is added (``partial``), as the next set's ingest reuses the names."""
    from bench.management.commands.eval_retrieval import Command as Retrieval

    retrieval = Retrieval()
    retrieval.quiet = True
    options = {"reuse": False}
    tenants = []
    sets: list[AblationSet] = []

    def add(name: str, label: str, run_set: Callable[[], dict], figures_of: Callable, ingest_s: float = 0.0) -> None:
        last: dict[str, dict] = {}

        def measured(config: str) -> Measured:
            if config == FULL or "result" not in last:
                last["result"] = run_set()
            result = last["result"]
            searches = result["n"]
            cpu_s = result["latency"][config]["cpu_ms"] * searches / 1000
            return Measured(figures_of(result["table"], config), searches, cpu_s)

        sets.append(AblationSet(name, label, partial(measured, FULL), partial(measured, BASELINE), ingest_s))

    if {"world", "paraphrases", "paths"} & set(names):
        started = time.perf_counter()
        tenant, slug_of, stats, bm25, pages, facts = retrieval._world(bench / "world-v1", options)
        tenants.append(tenant)
        log(f"world-v1: ingested {stats.get('memories', 0)} pages")
        ingest_s = time.perf_counter() - started
        templates = build_questions(pages, facts)
        if "world" in names:
            add(
                "world",
                "world-v1",
                partial(retrieval._world_set, tenant, slug_of, bm25, templates, [FULL], ""),
                lambda table, config: world_figures(table[config]),
                ingest_s,
            )
        if "paraphrases" in names:
            paraphrases = load_paraphrases(bench / "world-v1-paraphrases" / "paraphrases.json", templates)
            add(
                "paraphrases",
                "world-v1 paraphrases (dev and held-out wordings, as eval_retrieval reports them; ingested with world)",
                partial(retrieval._paraphrase_set, tenant, slug_of, bm25, paraphrases, [FULL], ""),
                lambda table, config: {
                    key: value
                    for half in ("dev", "held_out")
                    for key, value in world_figures(table[half][config], prefix=f"{half} ").items()
                },
            )
        if "paths" in names:
            paths = build_path_questions(pages, facts)
            add(
                "paths",
                "2-3-hop paths over world-v1 (every wording half, as eval_retrieval reports them; ingested with world)",
                partial(retrieval._path_set, tenant, slug_of, bm25, paths, [FULL], ""),
                path_figures,
            )
    if "assoc" in names:
        started = time.perf_counter()
        tenant, key_of, stats, bm25, pages, probes = retrieval._assoc(bench / "associative-recall-v1", options)
        tenants.append(tenant)
        log(f"associative-recall-v1: ingested {stats.get('memories', 0)} pages")
        hidden = {page.key for page in pages if page.visibility != "public"}
        add(
            "assoc",
            "associative-recall-v1",
            partial(retrieval._assoc_set, tenant, key_of, bm25, probes, hidden, [FULL], ""),
            lambda table, config: assoc_figures(table[config]),
            time.perf_counter() - started,
        )

    def close() -> None:
        for tenant in tenants:
            tenant.delete()

    return sets, close
