"""The recall block (``retrieval.recall`` and ``POST /api/v1/recall``): the assembly rules on plain data, then the
demo tenant on real PostgreSQL with the real embedder — on-topic policies pinned, the budget, isolation, bad
input; what holds now of the task's named entities first (facts the caller may see)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from rest_framework.test import APIClient

from bench.management.commands.eval_recall import demo_tenant_load
from graph.facts import FactView
from memories.models import Memory, Scope
from memories.services import api_key_create
from orgmemory.errors import ValidationFailed
from retrieval.recall import (
    ELLIPSIS,
    RecallLine,
    TaskFacts,
    assemble,
    closed_notes,
    fact_sentence,
    line_text,
    recall_block,
    recall_budget,
)
from tests.api.conftest import error_of
from tests.conftest import remember, tomasz_statements

RECALL = "/api/v1/recall"
DEPLOY_POLICIES = {"demo-065", "demo-077", "demo-075"}  # the platform team's deploy days / schedule


# --- the assembly, pure ---------------------------------------------------------------------------------------


def line(memory_id: int, text: str, *, kind: str = "fact", pinned: bool = False) -> RecallLine:
    return RecallLine(memory_id=memory_id, kind=kind, scope="team:platform", text=text, pinned=pinned)


def test_a_line_cites_kind_and_id():
    assert line(123, "We deploy on Tuesdays.", kind="policy").line == "- [policy #123] We deploy on Tuesdays."


def test_line_text_is_one_line_with_the_title_unless_the_content_starts_with_it():
    assert (
        line_text("Deploy days", "We no longer\n deploy  on Fridays.") == "Deploy days: We no longer deploy on Fridays."
    )
    assert line_text("Postmortems", "Postmortems are blameless.") == "Postmortems are blameless."
    assert line_text("", "a\tb") == "a b"


def test_assemble_keeps_whole_lines_in_order_within_the_budget():
    lines = [line(1, "a" * 30), line(2, "b" * 60), line(3, "c" * 10)]  # rendered: 42, 72 and 22 characters

    chosen = assemble(lines, budget=100)

    # 42 + 1 + 72 > 100: the second line is left out whole; the third still fits
    assert [text for _, text in chosen] == [lines[0].line, lines[2].line]
    assert len("\n".join(text for _, text in chosen)) == 42 + 1 + 22


def test_assemble_counts_the_newlines():
    lines = [line(1, "a" * 38), line(2, "b" * 38)]  # 50 characters each
    assert len(assemble(lines, budget=100)) == 1
    assert len(assemble(lines, budget=101)) == 2


def test_only_an_over_long_first_line_is_shortened():
    (first,) = assemble([line(1, "x" * 500), line(2, "short")], budget=200)

    assert first[1].startswith("- [fact #1] xxx") and first[1].endswith(ELLIPSIS)
    assert len(first[1]) == 200  # it takes the whole budget


def test_an_over_long_later_line_is_left_out_not_shortened():
    lines = [line(1, "short"), line(2, "y" * 500), line(3, "also short")]

    chosen = assemble(lines, budget=200)

    assert [text for _, text in chosen] == [lines[0].line, lines[2].line]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({}, "budget_chars"),
        ({"budget_chars": 500, "budget_tokens": 100}, "budget_chars"),
        ({"budget_chars": 0}, "budget_chars"),
        ({"budget_chars": 199}, "budget_chars"),
        ({"budget_chars": 20_001}, "budget_chars"),
        ({"budget_tokens": 49}, "budget_tokens"),
        ({"budget_tokens": 5_001}, "budget_tokens"),
        ({"budget_tokens": True}, "budget_tokens"),
        ({"budget_chars": "500"}, "budget_chars"),
    ],
)
def test_bad_budgets(kwargs, field):
    with pytest.raises(ValidationFailed) as refused:
        recall_budget(**kwargs)
    assert refused.value.code == "invalid_budget"
    assert field in refused.value.details


def test_budgets():
    assert recall_budget(budget_chars=200) == 200
    assert recall_budget(budget_chars=20_000) == 20_000
    assert recall_budget(budget_tokens=50) == 200
    assert recall_budget(budget_tokens=5_000) == 20_000


# --- the demo tenant --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo org chart and memories, committed once for the module (indexed on commit) and deleted after."""
    with pytest.MonkeyPatch.context() as patch, django_db_blocker.unblock():
        # access tracking would write from a background thread while the tenant is deleted at the end
        patch.setattr("retrieval.services.access_schedule", lambda *, memory_ids: None)
        tenant = demo_tenant_load(slug="recall-demo")
        yield tenant
        tenant.delete()


@pytest.fixture
def ext(demo, db) -> dict[int, str]:
    """memory id → the fixture's external_id"""
    return dict(Memory.objects.filter(tenant=demo).values_list("pk", "external_id"))


def demo_client(tenant, *, permissions=("read",), scope: Scope | None = None) -> APIClient:
    _, plain = api_key_create(
        tenant=tenant, name=f"recall-{permissions}-{scope}", permissions=list(permissions), scope=scope
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


@pytest.fixture
def api(demo, db) -> APIClient:
    return demo_client(demo)


def post(client: APIClient, **body):
    return client.post(RECALL, body, format="json")


@pytest.mark.django_db
class TestDemoTenant:
    def test_the_friday_deploy_pins_the_deploy_policy_and_no_unrelated_one(self, demo, ext):
        block = recall_block(tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=2000)

        pinned = [ext[item.id] for item in block.items if item.pinned]
        assert block.no_relevant_memory is False
        assert pinned and set(pinned) <= DEPLOY_POLICIES
        policies = Memory.objects.filter(tenant=demo, kind="policy").count()
        assert len(pinned) < policies  # never every policy
        # pinned lines come first, each cited with its memory id
        flags = [item.pinned for item in block.items]
        assert flags == sorted(flags, reverse=True)
        for item in block.items:
            assert item.line.startswith(f"- [{item.kind} #{item.id}] ")
        assert block.block.splitlines()[1:] == [item.line for item in block.items]  # under the data notice
        assert len(block.block) <= 2000

    def test_other_lines_are_the_relevant_rest_deduplicated(self, demo, ext):
        block = recall_block(tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=20_000)

        unpinned = [item for item in block.items if not item.pinned]
        assert unpinned  # the standup note, the Kustomize ADR, ...
        hashes = Memory.objects.filter(pk__in=[item.id for item in block.items]).values_list("content_hash", flat=True)
        assert len(set(hashes)) == len(block.items)
        assert len({item.id for item in block.items}) == len(block.items)

    @pytest.mark.parametrize("budget", [200, 260, 333, 700, 1500])
    def test_the_budget_is_respected_in_whole_lines(self, demo, budget):
        full = recall_block(tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=20_000)
        cut = recall_block(tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=budget)

        assert len(cut.block) <= budget
        assert cut.block.splitlines()[1:] == [item.line for item in cut.items]
        whole = {item.line for item in full.items}
        for index, item in enumerate(cut.items):
            assert item.line in whole or (index == 0 and item.line.endswith(ELLIPSIS))
        # greedy: every line left out would not have fitted
        used = len(cut.block)
        for item in full.items:
            if item.id not in {kept.id for kept in cut.items}:
                assert used + 1 + len(item.line) > budget

    def test_a_task_nothing_answers_gives_an_empty_block(self, demo):
        block = recall_block(tenant=demo, user_id="albert", task="write a haiku about autumn", budget_chars=2000)
        assert (block.block, block.items, block.no_relevant_memory) == ("", [], True)

    def test_only_the_users_chain_is_recalled(self, demo, ext):
        # bea's private note about on-call handovers exists, but albert recalls only his own chain
        task = "Dmitri missed on-call handovers"
        bea = recall_block(tenant=demo, user_id="bea", task=task, budget_chars=20_000)
        albert = recall_block(tenant=demo, user_id="albert", task=task, budget_chars=20_000)

        assert "user:bea" in {item.scope for item in bea.items}
        assert {item.scope for item in albert.items} <= {
            "user:albert",
            "team:platform",
            "division:engineering",
            "org:northwind",
        }

    def test_kinds_filter(self, demo):
        block = recall_block(
            tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=2000, kinds=["policy", "note"]
        )
        assert {item.kind for item in block.items} == {"policy", "note"}  # the standup note; no fact, no event

        facts = recall_block(
            tenant=demo, user_id="albert", task="prepare the Friday deploy", budget_chars=2000, kinds=["fact"]
        )
        assert not any(item.pinned for item in facts.items)  # no policy asked for, none pinned
        assert {item.kind for item in facts.items} <= {"fact"}


@pytest.mark.django_db
class TestApi:
    def test_recall(self, demo, api, ext):
        response = post(api, user_id="albert", task="prepare the Friday deploy", budget_tokens=200)

        assert response.status_code == 200, response.content
        body = response.json()
        assert set(body) == {"block", "items", "used_chars", "budget_chars", "no_relevant_memory"}
        assert body["budget_chars"] == 800
        assert body["used_chars"] == len(body["block"]) <= 800
        assert body["no_relevant_memory"] is False
        first = body["items"][0]
        assert set(first) == {
            "id", "kind", "scope", "project", "line", "pinned", "contradicts", "status", "possible_instruction",
            "provenance",
        }  # fmt: skip
        assert first["project"] is None
        assert first["pinned"] is True and ext[first["id"]] in DEPLOY_POLICIES
        assert first["scope"] == "team:platform"
        assert body["block"].split("\n")[1] == first["line"]

    @pytest.mark.parametrize(
        ("body", "code"),
        [
            ({"budget_chars": 0}, "validation_error"),
            ({"budget_chars": 1_000_000}, "validation_error"),
            ({"budget_tokens": 0}, "validation_error"),
            ({"budget_tokens": 10**9}, "validation_error"),
            ({"budget_chars": 500, "budget_tokens": 100}, "invalid_budget"),
            ({}, "invalid_budget"),
            ({"budget_chars": "lots"}, "validation_error"),
            ({"budget_chars": 500, "task": ""}, "validation_error"),
            ({"budget_chars": 500, "task": "x" * 2001}, "validation_error"),
            ({"budget_chars": 500, "kinds": ["rumour"]}, "validation_error"),
            ({"budget_chars": 500, "user_id": "al bert"}, "validation_error"),
        ],
    )
    def test_bad_input_is_a_400(self, api, body, code):
        response = post(api, **{"user_id": "albert", "task": "prepare the Friday deploy", **body})

        assert response.status_code == 400, response.content
        error = error_of(response)
        assert error["code"] == code

    def test_unknown_user_is_a_404(self, api):
        response = post(api, user_id="nobody", task="prepare the Friday deploy", budget_chars=500)
        assert response.status_code == 404
        assert error_of(response)["code"] == "unknown_user"

    def test_another_tenants_user_is_a_404(self, api, acme):
        # dora exists only in acme; the demo tenant's key cannot reach her
        response = post(api, user_id="dora", task="prepare the Friday deploy", budget_chars=500)
        assert response.status_code == 404
        assert error_of(response)["code"] == "unknown_user"

    def test_another_tenants_key_does_not_see_the_demo(self, demo, acme, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            remember(acme, "The platform team deploys on Mondays only.", scope="team:platform", kind="policy")
        response = post(demo_client(acme), user_id="albert", task="prepare the Friday deploy", budget_chars=2000)

        assert response.status_code == 200
        scopes = {item["scope"] for item in response.json()["items"]}
        assert scopes and scopes <= {"user:albert", "team:platform", "division:eu", "org:acme"}
        assert all(not Memory.objects.filter(pk=item["id"], tenant=demo).exists() for item in response.json()["items"])

    def test_a_restricted_key_outside_its_subtree_is_a_403(self, demo):
        platform = Scope.objects.get(tenant=demo, level="team", key="platform")
        client = demo_client(demo, scope=platform)

        assert post(client, user_id="albert", task="prepare the Friday deploy", budget_chars=500).status_code == 200
        refused = post(client, user_id="carlos", task="prepare the Friday deploy", budget_chars=500)
        assert refused.status_code == 403
        assert error_of(refused)["code"] == "scope_restricted"

    def test_needs_a_key_with_read(self, demo):
        anonymous = APIClient().post(RECALL, {"user_id": "albert", "task": "x", "budget_chars": 500}, format="json")
        assert anonymous.status_code == 401
        writer = demo_client(demo, permissions=("write",))
        refused = post(writer, user_id="albert", task="prepare the Friday deploy", budget_chars=500)
        assert refused.status_code == 403
        assert error_of(refused)["code"] == "permission_missing"

    def test_in_the_openapi_schema(self, api):
        schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert schema.status_code == 200
        operation = json.loads(schema.content)["paths"]["/api/v1/recall"]["post"]
        assert operation["operationId"] == "recall"
        assert set(operation["responses"]) >= {"200", "400", "403", "404"}


# --- what holds now of the task's entities ----------------------------------------------------------------------


def fact_view(fact_id: int, attribute: str, value: str, memory_id: int, **fields) -> FactView:
    defaults = dict(
        subject_id=1,
        subject="Dmitri Volkov",
        value_entity_id=None,
        negated=False,
        valid_from=None,
        valid_until=None,
        confidence=0.8,
        curated=False,
        recorded_at=datetime(2025, 9, 12, tzinfo=UTC),
    )
    return FactView(id=fact_id, attribute=attribute, value=value, memory_id=memory_id, **{**defaults, **fields})


def test_a_fact_line_is_the_facts_sentence_cited_by_its_memory():
    fact = {"attribute": "lives_in", "value": "Denver"}
    plain = RecallLine(memory_id=12, kind="event", scope="user:albert", text="Dmitri lives in Denver", pinned=False)

    assert replace(plain, fact=fact).line == "- Dmitri lives in Denver [#12]"
    assert (
        replace(plain, fact=fact, note="#7 says otherwise").line == "- Dmitri lives in Denver (#7 says otherwise) [#12]"
    )


def test_the_sentence_is_the_vocabularys_with_since_when():
    moved = fact_view(2, "lives_in", "Denver", 12, valid_from=date(2025, 8, 1), current=True)
    launch = fact_view(3, "due_date", "2026-03-02", 14, subject="Orion", valid_from=date(2025, 9, 1), current=True)

    assert fact_sentence(moved) == "Dmitri Volkov lives in Denver (since 1 August 2025)"
    assert fact_sentence(launch) == "Orion is due on 2 March 2026"  # a date is its own "since"


def test_a_memory_stating_only_closed_values_is_marked_and_one_still_current_is_not():
    denver = fact_view(2, "lives_in", "Denver", 12, valid_from=date(2025, 8, 1), current=True)
    boston = fact_view(1, "lives_in", "Boston", 10, valid_until=date(2025, 8, 1), closed_by=2)
    left = fact_view(3, "works_at", "Initech", 11, valid_until=date(2025, 6, 2), closed_by=99)  # by a negation
    also_current = fact_view(4, "works_at", "Acme", 12, valid_until=date(2025, 1, 1), closed_by=2)

    notes = closed_notes(TaskFacts(facts=[denver, boston, left, also_current], memories={}))

    assert notes == {10: "no longer current, see #12", 11: "no longer current"}


@pytest.fixture
def tomasz(acme, django_capture_on_commit_callbacks) -> dict[str, int]:
    """Tomasz Nowak worked at Initech and joined Globex (org-wide); albert alone heard he moved to Lisbon; albert's
    project alpha says he reports to Ines Duarte."""
    with django_capture_on_commit_callbacks(execute=True):
        said = tomasz_statements(acme)
    return {name: memory.pk for name, memory in said.items()}


TASK = "Prepare the welcome pack for Tomasz Nowak"


def fact_lines_of(block) -> list[str]:
    return [item.line for item in block.items if item.fact is not None]


@pytest.mark.django_db
class TestFacts:
    @pytest.fixture(autouse=True)
    def _no_access_tracking(self, monkeypatch):
        # the background recorder would write from its own thread while the test's transaction is rolled back
        monkeypatch.setattr("retrieval.services.access_schedule", lambda *, memory_ids: None)

    def test_the_current_facts_about_the_tasks_entities_come_first_one_cited_line_each(self, acme, tomasz):
        block = recall_block(tenant=acme, user_id="albert", task=TASK, budget_chars=2000)

        lines = [
            f"- Tomasz Nowak lives in Lisbon (since 23 June 2025) [#{tomasz['lisbon']}]",
            f"- Tomasz Nowak works at Globex (since 1 May 2025) [#{tomasz['globex']}]",
        ]
        assert block.block.splitlines()[1:3] == lines  # under the data notice
        assert fact_lines_of(block) == lines
        first = block.items[0]
        assert (first.id, first.kind, first.scope, first.pinned) == (tomasz["lisbon"], "fact", "user:albert", False)
        assert {key: first.fact[key] for key in ("subject", "attribute", "value", "valid_from", "current")} == {
            "subject": "Tomasz Nowak",
            "attribute": "lives_in",
            "value": "Lisbon",
            "valid_from": "2025-06-23",
            "current": True,
        }
        # the closed value is never stated as current; the memory that said it says it no longer holds
        assert "works at Initech (since" not in block.block
        (initech,) = [item for item in block.items if item.id == tomasz["initech"]]
        assert initech.fact is None
        assert initech.line == (
            f"- [fact #{tomasz['initech']}] Tomasz Nowak works at Initech. (no longer current, see #{tomasz['globex']})"
        )

    def test_a_private_fact_reaches_no_teammate_and_no_other_team(self, acme, tomasz):
        bea = recall_block(tenant=acme, user_id="bea", task=TASK, budget_chars=2000)
        carlos = recall_block(tenant=acme, user_id="carlos", task=TASK, budget_chars=2000)

        for block in (bea, carlos):
            assert fact_lines_of(block) == [f"- Tomasz Nowak works at Globex (since 1 May 2025) [#{tomasz['globex']}]"]
            assert "Lisbon" not in block.block
            assert tomasz["lisbon"] not in {item.id for item in block.items}

    def test_a_project_fact_only_inside_its_project(self, acme, tomasz):
        outside = recall_block(tenant=acme, user_id="albert", task=TASK, budget_chars=2000)
        inside = recall_block(tenant=acme, user_id="albert", task=TASK, budget_chars=2000, project="alpha")

        assert "reports to" not in "\n".join(fact_lines_of(outside))
        assert f"- Tomasz Nowak reports to Ines Duarte (since 4 July 2025) [#{tomasz['alpha']}]" in fact_lines_of(
            inside
        )
        (reports,) = [item for item in inside.items if item.fact and item.fact["attribute"] == "reports_to"]
        assert (reports.project, reports.scope) == ("alpha", "user:albert")

    def test_another_tenant_recalls_none_of_them(self, acme, globex, tomasz, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            hooli = remember(
                globex, "Tomasz Nowak works at Hooli.", scope="org:globex", reference_time="2025-02-01T09:00:00Z"
            )

        block = recall_block(tenant=globex, user_id="albert", task=TASK, budget_chars=2000)

        assert fact_lines_of(block) == [f"- Tomasz Nowak works at Hooli (since 1 February 2025) [#{hooli.pk}]"]
        assert not set(tomasz.values()) & {item.id for item in block.items}

    def test_as_of_recalls_the_facts_as_they_stood_then(self, acme, tomasz):
        block = recall_block(
            tenant=acme, user_id="albert", task=TASK, budget_chars=2000, as_of=datetime(2025, 3, 1, tzinfo=UTC)
        )

        assert fact_lines_of(block) == [
            f"- Tomasz Nowak works at Initech (since 10 January 2025) [#{tomasz['initech']}]"
        ]

    def test_the_kinds_asked_for_filter_the_stating_memories(self, acme, tomasz):
        block = recall_block(tenant=acme, user_id="albert", task=TASK, budget_chars=2000, kinds=["policy"])

        assert fact_lines_of(block) == []

    def test_the_api_gives_each_fact_item_its_fact(self, acme, tomasz):
        response = post(demo_client(acme), user_id="bea", task=TASK, budget_chars=2000)

        assert response.status_code == 200, response.content
        first = response.json()["items"][0]
        assert first["line"] == f"- Tomasz Nowak works at Globex (since 1 May 2025) [#{tomasz['globex']}]"
        assert {key: first["fact"][key] for key in ("subject", "attribute", "value", "memory_id", "current")} == {
            "subject": "Tomasz Nowak",
            "attribute": "works_at",
            "value": "Globex",
            "memory_id": tomasz["globex"],
            "current": True,
        }
        assert all("fact" not in item for item in response.json()["items"][1:])
