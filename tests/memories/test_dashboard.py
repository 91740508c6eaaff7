"""The tenant dashboard: each selector's exact figures inside its tenant, the knowledge-gap record (through the search
and recall APIs too), the embedder and queue state with a real Redis broker, and the page for every role."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from graph import selectors as graph_figures
from graph.models import Entity, EntityLink
from memories.curation import selectors as curation
from memories.curation.models import SearchGap
from memories.curation.services import search_gap_record, search_gaps_prune
from memories.models import IndexState, Memory, Scope, TenantStaff
from memories.roles import AUDITOR, CURATOR, TENANT_ADMIN
from memories.selectors import dashboard as figures
from memories.services import api_key_create
from memories.services.memory import Author, memory_create
from orgmemory.admin_site import dashboard_context

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="admin:test")


def write(tenant, content: str, tag: str = "team:platform", **kwargs) -> Memory:
    level, key = tag.split(":")
    scope = Scope.objects.get(tenant=tenant, level=level, key=key)
    return memory_create(tenant=tenant, author=ADMIN, content=content, scope=scope, **kwargs).memory


def staff(username: str, role: str | None, *tenants) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def acme_data(acme, globex):
    """acme: 3 facts at team:platform (one superseded by a near-duplicate), a policy at the org root, a preference at
    albert's node; globex: one fact (must never show in acme's figures)."""
    write(acme, "The platform team deploys on Tuesdays and Thursdays.")
    write(acme, "The platform team deploys on Tuesdays and Thursdays after 10:00.")  # supersedes the first
    write(acme, "Incidents are reviewed every Monday morning by the on-call engineer.")
    write(acme, "Every vendor contract needs a second signature from legal.", "org:acme", kind="policy")
    write(acme, "Albert prefers written summaries over meetings.", "user:albert", kind="preference")
    write(globex, "Globex keeps its backups for ninety days.", "team:platform")
    return acme


# --- selectors ------------------------------------------------------------------------------------------------------


def test_memories_per_level_and_kind_in_the_tenants_level_order(acme_data):
    rows = figures.memories_per_level_and_kind(tenant=acme_data)

    assert [(r.level, r.kind, r.live, r.history) for r in rows] == [
        ("org", "policy", 1, 0),
        ("team", "fact", 2, 1),
        ("user", "preference", 1, 0),
    ]


def test_level_totals_fold_the_kinds_of_each_level_in_the_tenants_order(acme_data):
    write(acme_data, "The platform team keeps a runbook per service.", kind="note")

    totals = figures.level_totals(figures.memories_per_level_and_kind(tenant=acme_data))

    assert totals == [
        figures.LevelTotal(level="org", live=1, history=0),
        figures.LevelTotal(level="team", live=3, history=1),
        figures.LevelTotal(level="user", live=1, history=0),
    ]


def test_the_dashboard_page_shows_a_total_per_level(superuser_client, acme_data):
    html = superuser_client.get(f"/admin/dashboard/{acme_data.pk}/").content.decode()

    totals = html.split('id="memories-per-level-totals"')[1].split("</table>")[0]
    assert '<tr data-level="team"><th scope="row">team</th><td class="count">2</td><td class="count">1</td></tr>' in (
        totals
    )


def test_index_backlog_counts_pending_and_failed_of_the_tenant(acme_data, globex):
    Memory.objects.filter(tenant=acme_data, kind="policy").update(index_state=IndexState.FAILED)
    Memory.objects.filter(tenant=acme_data, kind="preference").update(
        index_state=IndexState.READY, links_state=IndexState.READY
    )
    Memory.objects.filter(tenant=acme_data, kind="fact").update(links_state=IndexState.FAILED)

    backlog = figures.index_backlog(tenant=acme_data)

    # nothing ran on commit in this test: every row starts pending
    assert backlog == figures.IndexBacklog(embedding_pending=3, embedding_failed=1, links_pending=1, links_failed=3)
    assert figures.index_backlog(tenant=globex).embedding_pending == 1


def test_writes_per_day_lists_thirty_days_with_zeros(acme_data, globex):
    three_days_ago = timezone.now() - timedelta(days=3)
    old = Memory.objects.filter(tenant=acme_data, kind="preference")
    old.update(created_at=three_days_ago)
    Memory.objects.filter(tenant=acme_data, kind="policy").update(created_at=timezone.now() - timedelta(days=45))

    days = figures.writes_per_day(tenant=acme_data)

    assert len(days) == 30
    today = timezone.now().astimezone(figures.UTC).date()
    assert days[-1].day == today
    counts = {d.day: d.count for d in days if d.count}
    assert counts == {today: 3, three_days_ago.astimezone(figures.UTC).date(): 1}  # the 45-day-old one is out


def test_knowledge_gaps_count_searches_and_askers_per_query(acme, globex):
    search_gap_record(tenant=acme, user_id="albert", query="Quarterly  bonus policy")
    search_gap_record(tenant=acme, user_id="albert", query="quarterly bonus policy")
    search_gap_record(tenant=acme, user_id="bea", query="quarterly bonus policy")
    search_gap_record(tenant=acme, user_id="bea", query="parking rules")
    search_gap_record(tenant=acme, user_id="nobody", query="unknown users record nothing")
    search_gap_record(tenant=globex, user_id="zed", query="globex secret roadmap")

    gaps = curation.knowledge_gaps(tenant=acme)

    assert gaps == [
        curation.KnowledgeGap(query="quarterly bonus policy", searches=3, members=2),
        curation.KnowledgeGap(query="parking rules", searches=1, members=1),
    ]


def test_knowledge_gaps_are_bounded_per_tenant(acme):
    for n in range(12):
        search_gap_record(tenant=acme, user_id="albert", query=f"question {n}")

    deleted = search_gaps_prune(tenant_id=acme.pk, keep=5)

    assert deleted == 7
    assert SearchGap.objects.filter(tenant=acme).count() == 5


def test_erasing_a_member_erases_their_gaps(acme):
    from memories.services.erasure import user_erase

    search_gap_record(tenant=acme, user_id="albert", query="albert's private question")
    search_gap_record(tenant=acme, user_id="bea", query="bea's question")

    user_erase(tenant=acme, user_id="albert")

    assert list(SearchGap.objects.values_list("query", flat=True)) == ["bea's question"]


def test_the_search_and_recall_apis_record_what_found_nothing(acme):
    _, plain = api_key_create(tenant=acme, name="agent", permissions=["read", "write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")

    search = client.post("/api/v1/search", {"user_id": "albert", "query": "zebra migration schedule"}, format="json")
    recall = client.post(
        "/api/v1/recall", {"user_id": "bea", "task": "zebra migration schedule", "budget_chars": 500}, format="json"
    )

    assert search.status_code == 200 and search.json()["no_relevant_memory"] is True
    assert recall.status_code == 200 and recall.json()["no_relevant_memory"] is True
    assert curation.knowledge_gaps(tenant=acme) == [
        curation.KnowledgeGap(query="zebra migration schedule", searches=2, members=2)
    ]


def test_open_contradictions_of_the_tenant(acme, globex):
    write(acme, "We deploy on Fridays.")
    write(acme, "We no longer deploy on Fridays.")
    write(globex, "Globex ships releases on Mondays.")
    write(globex, "Globex never ships releases on Mondays.")

    assert figures.open_contradictions(tenant=acme) == 1


def test_stale_entities_are_those_without_a_recent_live_mention(acme, globex):
    live = write(acme, "Alice Smith leads the platform team.")
    old = write(acme, "Carol Jones ran the 2019 offsite.")
    Memory.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=200))
    gone = write(acme, "Bob Stone owns the billing service.")
    Memory.objects.filter(pk=gone.pk).update(superseded_by=live, superseded_at=timezone.now())
    globex_memory = write(globex, "Dan Brown runs Globex security.")

    def mention(tenant, memory, name, count=1):
        entity = Entity.objects.create(tenant=tenant, name=name, norm=name.lower(), kind="person", mention_count=count)
        EntityLink.objects.create(
            tenant=tenant, memory=memory, subject=entity, relationship="mentioned", confidence=1.0
        )
        return entity

    mention(acme, live, "Alice Smith")
    carol = mention(acme, old, "Carol Jones", count=2)
    bob = mention(acme, gone, "Bob Stone", count=3)
    mention(globex, globex_memory, "Dan Brown")
    Memory.objects.filter(pk=globex_memory.pk).update(created_at=timezone.now() - timedelta(days=400))

    stale = graph_figures.stale_entities(tenant=acme)

    assert stale.total == 2
    assert [(e.entity_id, e.live_mentions) for e in stale.shown] == [(bob.pk, 0), (carol.pk, 1)]
    assert stale.shown[0].last_live_mention is None


def test_the_dashboard_is_one_statement_per_figure(acme_data, django_assert_num_queries):
    with django_assert_num_queries(6):  # per level, backlog, writes, gaps, contradictions, stale entities
        context = dashboard_context(acme_data)

    assert context["live_total"] == 4
    assert context["history_total"] == 1
    assert context["writes_total"] == 5


# --- embedder and queue ---------------------------------------------------------------------------------------------


def test_runtime_state_without_a_broker_is_inline():
    state = figures.runtime_state()

    assert state.broker == "inline"
    assert state.queue_length is None
    assert state.embedder_configured


def test_runtime_state_reads_the_queue_length_from_a_real_redis(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.delete("orgmemory")
    client.lpush("orgmemory", "a", "b", "c")
    cache.delete("orgmemory:dashboard:queue")
    try:
        with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=redis_url):
            state = figures.runtime_state()
    finally:
        client.delete("orgmemory")
        cache.delete("orgmemory:dashboard:queue")

    assert state.broker == "configured"
    assert state.queue_length == 3
    assert state.queue_error == ""


def test_runtime_state_with_an_unreachable_broker_says_so():
    cache.delete("orgmemory:dashboard:queue")
    try:
        with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:9/0"):
            state = figures.runtime_state()
    finally:
        cache.delete("orgmemory:dashboard:queue")

    assert state.queue_length is None
    assert state.queue_error.startswith("the broker did not answer")


# --- the page, per role and tenant ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR, AUDITOR])
def test_the_dashboard_page_for_every_role_of_the_tenant(client, acme_data, role):
    search_gap_record(tenant=acme_data, user_id="albert", query="quarterly bonus policy")
    client.force_login(staff("someone", role, acme_data))

    response = client.get(f"/admin/dashboard/{acme_data.pk}/")

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="live-total">4<' in html
    assert "quarterly bonus policy" in html
    assert html.count('class="bar"') == 30
    assert "<script" not in html.split('id="tenant-dashboard"')[1].split("</svg>")[0]
    assert "Globex" not in html
    assert ('id="audit-link"' in html) is (role != CURATOR)  # curators do not read the audit log


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR, AUDITOR])
def test_another_tenants_staff_get_404(client, acme_data, globex, role):
    search_gap_record(tenant=acme_data, user_id="albert", query="quarterly bonus policy")
    client.force_login(staff("globex-staff", role, globex))

    response = client.get(f"/admin/dashboard/{acme_data.pk}/")

    assert response.status_code == 404
    assert "quarterly bonus policy" not in response.content.decode()


def test_staff_without_a_role_get_403(client, acme_data):
    client.force_login(staff("no-role", None, acme_data))

    assert client.get(f"/admin/dashboard/{acme_data.pk}/").status_code == 403


def test_the_index_is_the_dashboard_for_a_one_tenant_admin(client, acme_data):
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme_data))

    html = client.get("/admin/").content.decode()

    assert 'id="tenant-dashboard" data-tenant="acme"' in html
    assert 'id="live-total">4<' in html


def test_the_index_links_every_tenants_dashboard_for_a_superuser(superuser_client, acme_data, globex):
    html = superuser_client.get("/admin/").content.decode()

    assert f'href="/admin/dashboard/{acme_data.pk}/" class="dashboard-link"' in html
    assert f'href="/admin/dashboard/{globex.pk}/" class="dashboard-link"' in html
    assert 'id="tenant-dashboard"' not in html
    assert superuser_client.get(f"/admin/dashboard/{globex.pk}/").status_code == 200


def test_an_unknown_tenant_is_404(superuser_client, acme):
    assert superuser_client.get("/admin/dashboard/999999/").status_code == 404
