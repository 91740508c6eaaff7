"""How often the recall block pins the right policy (and how often a wrong one) on the demo tenant.

A hand-written set of tasks for demo users, each with the policies (by ``external_id`` in
``fixtures/demo_memories.jsonl``) that should be pinned; a task with none expects no pin at all. The development
tasks were used to choose ``retrieval.recall.PIN_COSINE_SHARE``; the held-out ones were written before it was chosen
and never used to tune it.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, replace
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from memories.models import Memory, Tenant
from memories.orgchart import parse_org_chart
from memories.services.onboarding import tenant_onboard
from retrieval.recall import recall_block

DEMO_CHART = Path(settings.BASE_DIR) / "fixtures" / "demo_org.yaml"
DEMO_MEMORIES = Path(settings.BASE_DIR) / "fixtures" / "demo_memories.jsonl"
EVAL_SLUG = "eval-recall"
BUDGET_CHARS = 2000


@dataclass(frozen=True)
class RecallTask:
    user_id: str
    task: str
    expected: tuple[str, ...]  # external ids of the policies that should be pinned (any one counts as right)
    split: str = "dev"


def _t(user_id: str, task: str, *expected: str, split: str = "dev") -> RecallTask:
    return RecallTask(user_id, task, tuple(f"demo-{number}" for number in expected), split)


DEPLOY = ("065", "077", "075")
TASKS: tuple[RecallTask, ...] = (
    _t("albert", "prepare the Friday deploy", *DEPLOY),
    _t("bea", "write the postmortem for last night's Sev1 outage", "039"),
    _t("carlos", "give a customer a 25% discount", "047"),
    _t("celine", "pay a vendor invoice of €20k", "133"),
    _t("albert", "book two weeks of pto in August", "014"),
    _t("zoe", "set up the interview loop for a backend candidate", "126"),
    _t("valentina", "an account just turned red, what do I do", "120"),
    _t("farah", "add customer email addresses to a dbt model", "085"),
    _t("jonas", "cut the next mobile release", "092"),
    _t("albert", "where do I put the database credentials for a new service", "044", "015"),
    _t("nadia", "send non-standard contract terms to legal", "106"),
    _t("rafael", "offer a discount to an SMB customer", "110", "047"),
    _t("darius", "close the books at month end", "131"),
    _t("amara", "how much parental leave do new parents get", "124"),
    _t("oliver", "take a client out to dinner", "016"),
    _t("wes", "a vendor sent me an expensive bottle of wine", "028"),
    _t("albert", "merge a change to production", "035"),
    _t("kemi", "I am on call this week, what do I get paid", "038"),
    _t("xiomara", "tell customers about the outage", "031"),
    _t("albert", "paste customer shipment data into a chatbot", "021"),
    _t("uma", "move a €60k opportunity to stage 3", "048"),
    _t("benedikt", "share salary figures with a manager", "128"),
    _t("celine", "sign a new vendor contract worth €40k a year", "057"),
    _t("albert", "can I work from home every day", "020"),
    _t("maya", "set up my new laptop", "015"),
    _t("ines", "open a new role for a data engineer", "058"),
    _t("albert", "what is the capital of France"),
    _t("hiro", "explain how a hash map works"),
    _t("carlos", "write a haiku about autumn"),
    # held out: written before PIN_COSINE_SHARE was chosen
    _t("dmitri", "roll out the new release on Friday afternoon", *DEPLOY, split="held-out"),
    _t("esme", "I clicked a link in a suspicious email", "015", split="held-out"),
    _t("tomas", "can I give 10% off on a monthly plan", "110", split="held-out"),
    _t("gustavo", "export the customer table to share with a partner", "021", "085", split="held-out"),
    _t("lars", "the crash rate went up during the rollout", "092", split="held-out"),
    _t("paula", "approve a 35% discount for a three-year deal", "047", split="held-out"),
    _t("elif", "submit accruals late", "131", split="held-out"),
    _t("yusuf", "how fast do we post on the status page during a Sev1", "031", split="held-out"),
    _t("chen.wei", "who reviews the incident and when is the writeup due", "039", split="held-out"),
    _t("quinn", "when do I get my commission if the customer churns", "051", split="held-out"),
    _t("benedikt", "a new joiner asks when the office is closed for Christmas", "013", split="held-out"),
    _t("sofia", "what is the best pizza topping", split="held-out"),
)


def demo_tenant_load(*, slug: str) -> Tenant:
    """The demo org chart and memories as tenant ``slug`` (created fresh; an existing one is replaced). Indexing
    runs when the import commits (inline without a broker)."""
    Tenant.objects.filter(slug=slug).delete()
    plan = parse_org_chart(DEMO_CHART.read_text())
    tenant_onboard(plan=replace(plan, tenant_slug=slug, api_keys=[]))  # no keys: nothing calls the API
    call_command("import_memories", str(DEMO_MEMORIES), tenant=slug, json=True, stdout=io.StringIO())
    return Tenant.objects.get(slug=slug)


@dataclass
class Score:
    tasks: int = 0
    with_expected: int = 0
    right: int = 0  # an expected policy was pinned
    wrong: int = 0  # a policy outside the expected ones was pinned
    clean_negatives: int = 0  # tasks expecting no pin that got none
    negatives: int = 0


def evaluate(tenant: Tenant, tasks: tuple[RecallTask, ...] = TASKS) -> tuple[dict[str, Score], list[dict]]:
    """Per split scores and one row per task (what was pinned)."""
    external = dict(Memory.objects.filter(tenant=tenant).values_list("pk", "external_id"))
    scores: dict[str, Score] = {}
    rows = []
    for task in tasks:
        block = recall_block(tenant=tenant, user_id=task.user_id, task=task.task, budget_chars=BUDGET_CHARS)
        pinned = [external.get(item.id, str(item.id)) for item in block.items if item.pinned]
        expected = set(task.expected)
        score = scores.setdefault(task.split, Score())
        score.tasks += 1
        if expected:
            score.with_expected += 1
            score.right += bool(expected & set(pinned))
        else:
            score.negatives += 1
            score.clean_negatives += not pinned
        score.wrong += bool(set(pinned) - expected)
        rows.append(
            {
                "split": task.split,
                "user_id": task.user_id,
                "task": task.task,
                "expected": sorted(expected),
                "pinned": pinned,
                "no_relevant_memory": block.no_relevant_memory,
            }
        )
    return scores, rows


class Command(BaseCommand):
    help = "Recall benchmark: how often the right policy is pinned, and how often a wrong one, on the demo tenant."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--verbose", action="store_true", help="one line per task")
        parser.add_argument("--keep", action="store_true", help=f"keep the {EVAL_SLUG!r} tenant afterwards")

    def handle(self, *args, **options):
        if not DEMO_MEMORIES.exists():
            raise CommandError(f"{DEMO_MEMORIES} is missing")
        tenant = demo_tenant_load(slug=EVAL_SLUG)
        try:
            scores, rows = evaluate(tenant)
        finally:
            if not options["keep"]:
                tenant.delete()
        if options["json"]:
            self.stdout.write(json.dumps({"scores": {k: v.__dict__ for k, v in scores.items()}, "tasks": rows}))
            return
        if options["verbose"]:
            for row in rows:
                expected, pinned = set(row["expected"]), set(row["pinned"])
                mark = "ok " if (expected & pinned or not expected) and not pinned - expected else "-- "
                self.stdout.write(
                    f"{mark} [{row['split']}] {row['user_id']}: {row['task']!r} pinned {row['pinned']} "
                    f"expected {row['expected']}{' (no_relevant_memory)' if row['no_relevant_memory'] else ''}"
                )
        for split, score in scores.items():
            self.stdout.write(
                f"{split:9} {score.tasks} tasks: right policy pinned {score.right}/{score.with_expected} "
                f"({_pct(score.right, score.with_expected)}), a wrong policy pinned in {score.wrong}/{score.tasks} "
                f"({_pct(score.wrong, score.tasks)}), no pin where none is due {score.clean_negatives}/"
                f"{score.negatives}"
            )


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "n/a"
