"""Fit the fusion's numeric tunables on the development halves (issue 41 item 3), reproducibly.

Every set is ingested once (as its evaluation command ingests it, in a tenant of its own) and each of its development
questions is searched once through the real search service with every arm (the ``full`` configuration), while
``retrieval.ranking.rank`` is patched — only inside this command, for the duration of the searches — to keep the
keyword arguments it received (``bench.fusion_fit.capturing_rank``). Then ``bench.fusion_fit.fit`` re-ranks those
inputs offline (``rank`` is pure) and chooses the tunables by coordinate ascent: a few passes, each parameter in turn
set to the best value of a small grid around its current value, the objective being the mean over sets of R@5 + R@10
of the re-ranked top lists (each set counts once, whatever its size); a move must gain more than ``--min-gain``, a
tie keeps the value nearest the default, and no move may lower any one set's R@5 or R@10 below its figure at the
defaults (``--max-set-loss``, 0 by default): no set pays for another.

The development questions, never the held-back ones:

- ``conversations``: the generated conversational set (``eval_conversations``' seed and size), dev frames, answerable;
- ``realchat``: the realistic chats' development half (``eval_realchat --half dev``), answerable;
- ``realchat2``: their second development half, of other people, values and wordings (``--half dev2``), answerable;
- ``world``: world-v1's template questions (the set has no halves);
- ``paraphrases``: world-v1-paraphrases, development frames (bench.evaluation.DEV_FRAMES);
- ``paths``: the 2–3-hop path questions, development wordings; gold: the answers;
- ``assoc``: associative-recall-v1, development-half families (bench.evaluation.is_dev_half), indirect and direct;
- ``corpus-N`` (with ``--corpus-sizes N``, after ``load_corpus --size N``): a generated multi-level corpus,
  ``tune_fusion``'s development half of its questions (even positions); a hit is a copy of the memory the question
  was drawn from.

**The proxy.** Only ``rank`` is re-run. What the search does after it — follow-ups and replies attached to a hit,
relatives, introductions, dated replies, context turns, current truth and later statements first, the facts' lead —
is not re-run during fitting: the fitted figures are those of ``rank``'s own top list. The search's own end-to-end
figures on the same questions are printed beside them (at the defaults), and the end-to-end evaluations confirm a
change of defaults. Not fitted: the tier boosts (their strength is ``tune_fusion``'s), autocut (off by default), the
cosine share of the base score (not a config field) and the relational weight of an "about" plan (the search
service's). On the six data sets some tunables cannot move: in a session-turn pool the keyword and vector lists
become one list (score fusion), whose weight the normalisation cancels; the page sets' top lists already hold every
answer at the defaults (they guard, they do not pull); their memories are ingested in the same minutes, so recency,
and with it the floor, is flat; no question is a title. The generated corpora, whose memories have ages and whose
pages fuse by rank, are what moves the arm weights, the recency boost and the floor.

rank_bm25 over the same texts, on the same questions, is printed beside them.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bench import fusion_fit
from bench.conversations import evaluate as conversations
from bench.conversations.generator import generate as generate_conversations
from bench.corpus.generator import corpus_plan
from bench.data import DATA_VARIABLE, data_folder
from bench.evaluation import (
    build_path_questions,
    build_questions,
    is_dev_half,
    load_paraphrases,
)
from bench.management.commands.eval_retrieval import Command as EvalRetrieval
from bench.management.commands.tune_fusion import SKIP as CORPUS_SKIP
from bench.queries import SourceCheck, distinct_queries
from bench.realchat.generator import ANSWERABLE as REALCHAT_ANSWERABLE
from bench.realchat.generator import generate as generate_realchat
from memories.models import Tenant
from retrieval.services import SearchOptions, search_memories

SETS = ("conversations", "realchat", "realchat2", "world", "paraphrases", "paths", "assoc")
FULL = ("keyword", "vector", "relational")
TOP_K = 10
CONVERSATION_SEED = 7  # eval_conversations' defaults: 20 conversations of 15 sessions
REALCHAT_SEED = 11  # eval_realchat's defaults: 12 conversations of 18 sessions, development half
# The objective gain a move needs: about one and a half questions of a 200-question set, over eight sets. Without
# it the fit also took moves worth a fraction of one question (score fusion 0.2 → 0.5), and end to end those cost
# the realistic chats' development half R@5 and update order (bench/HISTORY.md).
MIN_GAIN = 0.001


class Command(BaseCommand):
    help = "Fit the fusion's tunables on the development halves by coordinate ascent (beside rank_bm25)."

    def add_arguments(self, parser):
        parser.add_argument("bench", nargs="?", help=f"the shared data folder (default ${DATA_VARIABLE})")
        parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated subset of {','.join(SETS)}")
        parser.add_argument(
            "--passes", type=int, default=5, help="coordinate-ascent passes (fewer when one moves nothing)"
        )
        parser.add_argument(
            "--min-gain", type=float, default=MIN_GAIN, help="objective gain a move needs (0: any gain)"
        )
        parser.add_argument(
            "--max-set-loss",
            type=float,
            default=0.0,
            help="no move may cost any set more than this of its R@5 or of its R@10 at the defaults (2: no guard)",
        )
        parser.add_argument(
            "--corpus-sizes",
            default="",
            help="also these generated corpora (loaded with load_corpus), tune_fusion's development half",
        )
        parser.add_argument("--corpus-questions", type=int, default=400, help="per corpus (half of them development)")
        parser.add_argument("--save", help="write the captured inputs to this file (pickle), to fit again with --load")
        parser.add_argument(
            "--load", help="fit on inputs captured before (--save; comma-separated files) instead of searching"
        )
        parser.add_argument(
            "--params", default="", help="fit only these tunables (comma-separated), the others held at the defaults"
        )
        parser.add_argument("--keep", action="store_true", help="keep the fit-* tenants")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, bench: str | None, **options):
        self.quiet = options["json"]
        sets = [name for name in options["sets"].split(",") if name]
        unknown = [name for name in sets if name not in SETS]
        if unknown:
            raise CommandError(f"unknown set {unknown[0]!r}; known: {', '.join(SETS)}")
        sizes = [int(part) for part in options["corpus_sizes"].split(",") if part.strip()]
        sets += [f"corpus-{size}" for size in sizes]
        known = {param.name: param for param in fusion_fit.params_table()}
        names = [name for name in options["params"].split(",") if name]
        if [name for name in names if name not in known]:
            raise CommandError(f"unknown tunable; known: {', '.join(known)}")
        params = tuple(known[name] for name in names) or None
        if options["load"]:
            cases, baseline = [], {}
            for path in options["load"].split(","):
                with open(path, "rb") as handle:
                    saved = pickle.load(handle)  # noqa: S301 - a file this command wrote
                cases += [fusion_fit.restored(case) for case in saved["cases"] if case.set_name in sets]
                baseline.update({name: row for name, row in saved["baseline"].items() if name in sets})
        else:
            cases, baseline = self._capture(sets, bench, keep=options["keep"])
            for size in sizes:
                self._corpus(size, options["corpus_questions"], cases, baseline)
            if options["save"]:
                Path(options["save"]).write_bytes(
                    pickle.dumps({"cases": [fusion_fit.portable(c) for c in cases], "baseline": baseline})
                )
        report = self._fit(
            cases,
            baseline,
            passes=options["passes"],
            min_gain=options["min_gain"],
            max_set_loss=options["max_set_loss"],
            params=params,
        )
        self.stdout.write(json.dumps(report) if self.quiet else _format(report))

    # --- fitting -------------------------------------------------------------------------------------------------
    def _fit(self, cases, baseline, *, passes: int, min_gain: float, max_set_loss: float | None, params=None) -> dict:
        defaults = fusion_fit.default_params()
        # the defaults must give back what rank returned during the searches (else configure() is wrong)
        mismatched = sum(1 for c in cases if c.inputs is not None and tuple(fusion_fit.rerank(c, defaults)) != c.ranked)
        started = time.perf_counter()
        result = fusion_fit.fit(
            cases, params=params, passes=passes, min_gain=min_gain, max_set_loss=max_set_loss, log=self._log
        )
        before = fusion_fit.evaluate(cases, defaults)
        after = fusion_fit.evaluate(cases, result.params)
        return {
            "questions": len(cases),
            "unranked": sum(1 for c in cases if c.inputs is None),
            "default_mismatches": mismatched,
            "fit_seconds": round(time.perf_counter() - started, 1),
            "passes": passes,
            "min_gain": min_gain,
            "max_set_loss": max_set_loss,
            "defaults": defaults,
            "fitted": result.params,
            "objective": {"before": fusion_fit.objective(before), "after": fusion_fit.objective(after)},
            "sets": {
                name: {"before": before[name], "after": after[name], "rank_bm25": baseline.get(name)} for name in before
            },
            "end_to_end_defaults": fusion_fit.searched(cases),
            "steps": [
                {
                    "pass": s.pass_no,
                    "param": s.param,
                    "tried": {str(v): None if o is None else round(o, 4) for v, o in s.tried.items()},
                    "value": s.value,
                }  # fmt: skip
                for s in result.steps
            ],
        }

    def _log(self, line: str) -> None:
        if not self.quiet:
            self.stderr.write(line)

    # --- capturing -----------------------------------------------------------------------------------------------
    def _capture(self, sets: Sequence[str], bench: str | None, *, keep: bool) -> tuple[list, dict]:
        cases: list[fusion_fit.Case] = []
        baseline: dict[str, dict] = {}
        slugs: list[str] = []
        sets = [name for name in sets if name in SETS]
        try:
            if "conversations" in sets:
                slugs.append("fit-conversations")
                self._conversational("conversations", slugs[-1], cases, baseline)
            for name in ("realchat", "realchat2"):
                if name in sets:
                    slugs.append(f"fit-{name}")
                    self._conversational(name, slugs[-1], cases, baseline)
            if {"world", "paraphrases", "paths"} & set(sets):
                slugs.append("fit-world")
                self._world(data_folder(bench), sets, slugs[-1], cases, baseline)
            if "assoc" in sets:
                slugs.append("fit-assoc")
                self._assoc(data_folder(bench), slugs[-1], cases, baseline)
        finally:
            if not keep:
                Tenant.objects.filter(slug__in=slugs).delete()
        return cases, baseline

    def _search(self, set_name: str, tenant, asked: Sequence[tuple], key_of: Mapping[int, str]) -> list:
        """Search each (user id, question, gold keys[, its own keys]) once with every arm, keeping what ``rank``
        received."""
        options = SearchOptions(top_k=TOP_K, arms=FULL, synthesize=True, track_access=False)
        out = []
        with fusion_fit.capturing_rank() as calls:
            for user_id, text, gold, *own in tqdm(asked, desc=set_name, file=sys.stderr, disable=self.quiet):
                keys = own[0] if own else key_of
                calls.clear()
                result = search_memories(tenant=tenant, user_id=user_id, query=text, options=options)
                if len(calls.inputs) > 1:
                    self._log(f"{set_name}: rank called {len(calls.inputs)} times for one search; the last is kept")
                out.append(
                    fusion_fit.Case(
                        set_name=set_name,
                        inputs=calls.inputs[-1] if calls.inputs else None,
                        key_of=keys,
                        gold=gold,
                        ranked=tuple(keys.get(i, f"?{i}") for i in calls.outputs[-1]) if calls.outputs else (),
                        searched=tuple(keys.get(hit.memory.pk, f"?{hit.memory.pk}") for hit in result.hits),
                    )
                )
        return out

    def _conversational(self, name: str, slug: str, cases: list, baseline: dict) -> None:
        if name == "conversations":
            dataset = generate_conversations(CONVERSATION_SEED)
            answerable = conversations.ANSWERABLE
        else:
            dataset = generate_realchat(REALCHAT_SEED, half="dev2" if name == "realchat2" else "dev")
            answerable = REALCHAT_ANSWERABLE
        tenant = conversations.tenant_for(dataset, slug=slug)
        event_of, stats = conversations.ingest(tenant, dataset, quiet=self.quiet)
        self._log(f"{name}: ingested {stats['turns']} turns as {stats['memories']} memories")
        # the generated set's development frames; every question of a realistic development half
        questions = [
            q for q in dataset.questions if q.half in ("dev", "dev2") and q.family in answerable and q.evidence
        ]
        asked = [(q.user_id, q.text, frozenset(q.evidence)) for q in questions]
        cases += self._search(name, tenant, asked, event_of)
        run = conversations.run_baseline(dataset, questions, set(event_of.values()), speaker=False)
        baseline[name] = fusion_fit.recall({name: list(zip(run.ranked, [g for _, _, g in asked], strict=True))})[name]

    def _retrieval_command(self):
        command = EvalRetrieval()
        command.quiet = True
        return command

    def _world(self, folder: Path, sets: Sequence[str], slug: str, cases: list, baseline: dict) -> None:
        # eval_retrieval's own ingest, under this command's tenant
        tenant, slug_of, _, bm25, pages, facts = self._retrieval_command()._world(
            folder / "world-v1", {"reuse": False}, slug=slug
        )
        templates = build_questions(pages, facts)
        asked_by_set = {}
        if "world" in sets:
            asked_by_set["world"] = [("reader", q.text, q.gold) for q in templates]
        if "paraphrases" in sets:
            paraphrases = load_paraphrases(folder / "world-v1-paraphrases" / "paraphrases.json", templates)
            asked_by_set["paraphrases"] = [("reader", q.text, q.gold) for q, dev in paraphrases if dev]
        if "paths" in sets:
            paths = build_path_questions(pages, facts, fresh=False)
            asked_by_set["paths"] = [("reader", q.text, q.answers) for q in paths if q.dev]
        for name, asked in asked_by_set.items():
            cases += self._search(name, tenant, asked, slug_of)
            baseline[name] = fusion_fit.recall({name: [(bm25.search(text), gold) for _, text, gold in asked]})[name]

    def _assoc(self, folder: Path, slug: str, cases: list, baseline: dict) -> None:
        tenant, key_of, _, bm25, _, probes = self._retrieval_command()._assoc(
            folder / "associative-recall-v1", {"reuse": False}, slug=slug
        )
        asked = [
            ("reader", p.text, p.gold) for p in probes if p.kind != "negative" and p.gold and is_dev_half(p.family_id)
        ]
        cases += self._search("assoc", tenant, asked, key_of)
        baseline["assoc"] = fusion_fit.recall({"assoc": [(bm25.search(text), gold) for _, text, gold in asked]})[
            "assoc"
        ]

    def _corpus(self, size: int, count: int, cases: list, baseline: dict) -> None:
        """``tune_fusion``'s questions on a generated corpus (the same skip and order), its development half only:
        the even positions."""
        plan = corpus_plan(seed=1, size=size)
        tenant = Tenant.objects.filter(slug=plan.tenants[0].slug).first()
        if tenant is None:
            raise CommandError(f"corpus of size {size} is not loaded: manage.py load_corpus --size {size}")
        check = SourceCheck(plan, tenant, baseline_max=sys.maxsize)
        name = f"corpus-{size}"
        asked, bm25 = [], []
        for index, query in enumerate(distinct_queries(plan, CORPUS_SKIP + count)[CORPUS_SKIP:]):
            if index % 2:
                continue  # the held-out half: never asked here
            keys = fusion_fit.SourceKeys(frozenset(check.sources(query)))
            asked.append((query.user_id, query.text, frozenset({"source"}), keys))
            bm25.append(([keys[i] for i in check.baseline_top(query) or []], frozenset({"source"})))
        cases += self._search(name, tenant, asked, {})
        baseline[name] = fusion_fit.recall({name: bm25})[name]


def _format(report: dict) -> str:
    lines = [
        f"fit_fusion: {report['questions']} development questions ({report['unranked']} never ranked); defaults "
        f"reproduce the captured rankings: {report['default_mismatches']} mismatches; fit {report['fit_seconds']}s, "
        f"at most {report['passes']} passes, min gain {report['min_gain']}, max loss of a set "
        f"{'none' if report['max_set_loss'] is None else report['max_set_loss']}",
        "",
        f"{'parameter':<20}{'default':>10}{'fitted':>10}",
    ]
    for name, value in report["defaults"].items():
        fitted = report["fitted"][name]
        mark = "  *" if fitted != value else ""
        lines.append(f"{name:<20}{value:>10g}{fitted:>10g}{mark}")
    lines += [
        "",
        "development questions, R@5 / R@10 of rank's top list (the proxy), before (defaults) / after (fitted); "
        "rank_bm25 and the search end to end at the defaults beside",
        f"{'set':<15}{'n':>5}  {'before':<15}{'after':<15}{'R5+R10 delta':>13}  {'rank_bm25':<15}{'end to end':<15}",
    ]
    for name, row in report["sets"].items():
        before, after, bm25 = row["before"], row["after"], row["rank_bm25"] or {"r5": 0.0, "r10": 0.0}
        e2e = report["end_to_end_defaults"][name]
        delta = after["r5"] + after["r10"] - before["r5"] - before["r10"]
        lines.append(
            f"{name:<15}{before['n']:>5}  {before['r5']:.3f} / {before['r10']:.3f}  {after['r5']:.3f} / "
            f"{after['r10']:.3f}  {delta:>+13.3f}  {bm25['r5']:.3f} / {bm25['r10']:.3f}  "
            f"{e2e['r5']:.3f} / {e2e['r10']:.3f}"
        )
    objective = report["objective"]
    lines.append(
        f"objective (mean over sets of R@5 + R@10): {objective['before']:.4f} -> {objective['after']:.4f} "
        f"({objective['after'] - objective['before']:+.4f})"
    )
    return "\n".join(lines)
