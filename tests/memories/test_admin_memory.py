"""The memory admin: per-tenant lists, filters and full-text search, and every write (add, edit, move, re-kind,
re-index, delete) through the memory services, with refusals shown as form errors or messages."""

import re
from datetime import UTC, datetime

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories.models import IndexState, Memory, MemoryChunk, MemoryKind, Policy, Scope
from memories.services.access import access_record
from tests.conftest import remember

pytestmark = pytest.mark.django_db

LIST = "/admin/memories/memory/"
ADD = "/admin/memories/memory/add/"

# Near-duplicates (word-shingle Jaccard 9/11) and an opposite-polarity pair, each long enough to share dedup bands.
TUESDAY = "The platform team deploys the billing service to production every Tuesday morning after review"
TUESDAY_LATER = "The platform team deploys the billing service to production every Tuesday afternoon after review"
FRIDAYS = "Acme's platform team deploys the billing service to production on Fridays after the weekly review meeting"
NO_FRIDAYS = (
    "Acme's platform team no longer deploys the billing service to production on Fridays after the weekly review "
    "meeting"
)


def row_ids(response) -> set[int]:
    assert response.status_code == 200
    return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.content.decode())}


def scope(tenant, tag) -> Scope:
    level, key = tag.split(":")
    return Scope.objects.get(tenant=tenant, level=level, key=key)


@pytest.fixture
def spread(acme, globex):
    """One memory at several nodes of acme's tree and one in globex's look-alike team:platform."""
    return {
        "org": remember(acme, "Acme's fiscal year starts in February", scope="org:acme"),
        "eu": remember(acme, "The EU division hosts everything in Frankfurt", scope="division:eu"),
        "platform": remember(acme, "The platform team runs Kubernetes with Argo CD", scope="team:platform"),
        "albert": remember(acme, "Albert prefers short answers", scope="user:albert"),
        "sales": remember(acme, "Sales closes the quarter on the last Friday", scope="team:sales"),
        "globex": remember(globex, "Globex platform deploys with Jenkins", scope="team:platform"),
    }


# --- the list ---------------------------------------------------------------------------------------------------


def test_tenant_staff_lists_only_their_tenants_memories(acme_staff_client, spread):
    response = acme_staff_client.get(LIST)

    ids = {memory.pk for name, memory in spread.items() if name != "globex"}
    assert row_ids(response) == ids
    html = response.content.decode()
    assert "Jenkins" not in html
    assert "The platform team runs Kubernetes with Argo CD" in html
    assert "admin:test" in html  # the author column


def test_superuser_lists_every_tenants_memories(superuser_client, spread):
    response = superuser_client.get(LIST)

    assert row_ids(response) == {memory.pk for memory in spread.values()}


def test_scope_subtree_filter_shows_the_node_and_everything_below(acme_staff_client, acme, spread):
    eu = scope(acme, "division:eu")

    response = acme_staff_client.get(LIST, {"scope_subtree": eu.pk})

    assert row_ids(response) == {spread["eu"].pk, spread["platform"].pk, spread["albert"].pk}


def test_scope_subtree_filter_lists_only_the_admins_tenant(acme_staff_client, acme, globex, spread):
    response = acme_staff_client.get(LIST)

    listed = {int(pk) for pk in re.findall(r"\?scope_subtree=(\d+)\"", response.content.decode())}
    expected = set(Scope.objects.filter(tenant=acme).exclude(level="user").values_list("pk", flat=True)) | {
        spread["albert"].scope_id
    }  # the scope column links to each row's own node
    assert listed == expected


def test_scope_subtree_filter_ignores_another_tenants_node(acme_staff_client, globex, spread):
    response = acme_staff_client.get(LIST, {"scope_subtree": scope(globex, "org:globex").pk})

    assert row_ids(response) == set()


@pytest.mark.parametrize("value", ["abc", "-1", "99999999999999999999999"])
def test_scope_subtree_filter_with_a_bad_value_is_empty(acme_staff_client, spread, value):
    assert row_ids(acme_staff_client.get(LIST, {"scope_subtree": value})) == set()


def test_superuser_scope_filter_names_the_tenant(superuser_client, spread):
    html = superuser_client.get(LIST).content.decode()

    assert "acme · Platform (team:platform)" in html
    assert "globex · Platform (team:platform)" in html


def test_level_filter(acme_staff_client, spread):
    response = acme_staff_client.get(LIST, {"level": "team"})

    assert row_ids(response) == {spread["platform"].pk, spread["sales"].pk}


def test_kind_filter(acme_staff_client, acme, spread):
    rule = remember(acme, "Never share customer data with third parties", kind=MemoryKind.POLICY, scope="org:acme")

    assert row_ids(acme_staff_client.get(LIST, {"kind__exact": "policy"})) == {rule.pk}


def test_index_state_filter(acme_staff_client, spread):
    Memory.objects.filter(pk=spread["eu"].pk).update(index_state=IndexState.FAILED, index_error="boom")

    assert row_ids(acme_staff_client.get(LIST, {"index_state__exact": "failed"})) == {spread["eu"].pk}


def test_warning_and_superseded_filters(acme_staff_client, acme):
    older = remember(acme, TUESDAY, scope="team:platform")
    newer = remember(acme, TUESDAY_LATER, scope="team:platform")
    affirmative = remember(acme, FRIDAYS, scope="team:platform")
    negated = remember(acme, NO_FRIDAYS, scope="team:platform")
    older.refresh_from_db()
    assert older.superseded_by_id == newer.pk
    assert negated.warnings[0]["memory_id"] == affirmative.pk

    assert row_ids(acme_staff_client.get(LIST, {"has_warning": "yes"})) == {negated.pk}
    assert row_ids(acme_staff_client.get(LIST, {"has_warning": "no"})) == {newer.pk, affirmative.pk}  # current only
    assert row_ids(acme_staff_client.get(LIST, {"has_warning": "no", "show": "all"})) == {
        older.pk,
        newer.pk,
        affirmative.pk,
    }
    assert row_ids(acme_staff_client.get(LIST, {"show": "history"})) == {older.pk}
    assert "⚠ 1" in acme_staff_client.get(LIST).content.decode()


@pytest.fixture
def history(acme, globex):
    """acme: a memory superseded by a newer version, one that expired, one current; globex: its own history."""
    older = remember(acme, TUESDAY, scope="team:platform")
    newer = remember(acme, TUESDAY_LATER, scope="team:platform")
    expired = remember(acme, "The summer offsite is booked in Lisbon", scope="team:data")
    Memory.objects.filter(pk=expired.pk).update(expires_at=datetime(2020, 1, 31, 12, 0, tzinfo=UTC))
    current = remember(acme, "The data team uses Airflow", scope="team:data")
    globex_older = remember(globex, TUESDAY, scope="team:platform")
    globex_newer = remember(globex, TUESDAY_LATER, scope="team:platform")
    older.refresh_from_db()
    globex_older.refresh_from_db()
    assert (older.superseded_by_id, globex_older.superseded_by_id) == (newer.pk, globex_newer.pk)
    return {
        "older": older,
        "newer": newer,
        "expired": expired,
        "current": current,
        "globex_older": globex_older,
        "globex_newer": globex_newer,
    }


def test_the_list_shows_current_memories_until_one_click_shows_all(acme_staff_client, history):
    default = acme_staff_client.get(LIST)

    assert row_ids(default) == {history["newer"].pk, history["current"].pk}
    html = default.content.decode()
    show = html.split('id="changelist-filter"')[1].split("</details>")[0]  # the sidebar's first filter
    assert "<summary> Show </summary>" in show
    assert re.findall(r'<li( class="selected")?>\s*<a href="([^"]*)">([^<]*)</a>', show) == [
        (' class="selected"', "?", "current"),
        ("", "?show=all", "all"),
        ("", "?show=history", "history (superseded or expired)"),
    ]
    assert 'class="history-badge"' not in html and "column-history_marker" not in html

    everything = acme_staff_client.get(LIST, {"show": "all"})
    assert row_ids(everything) == {history[name].pk for name in ("older", "newer", "expired", "current")}
    assert row_ids(acme_staff_client.get(LIST, {"show": "history"})) == {history["older"].pk, history["expired"].pk}
    assert row_ids(acme_staff_client.get(LIST, {"show": "anything"})) == row_ids(default)  # unknown: the default


def test_history_rows_are_marked_and_link_what_replaced_them(acme_staff_client, history):
    html = acme_staff_client.get(LIST, {"show": "all"}).content.decode()

    markers = dict(re.findall(r'value="(\d+)" class="action-select".*?class="field-history_marker">(.*?)</td>', html))
    older, newer, expired, current = (history[name].pk for name in ("older", "newer", "expired", "current"))
    badge = '<span class="history-badge" title="not returned by searches">history</span>'
    assert markers == {
        str(older): f'{badge}<br>replaced by <a href="/admin/memories/memory/{newer}/change/">memory {newer}</a>',
        str(expired): f"{badge}<br>expired 2020-01-31 12:00",
        str(newer): "-",  # Django's empty cell, as in the warnings column
        str(current): "-",
    }


def test_history_never_crosses_tenants(acme_staff_client, history):
    for show in ("all", "history"):
        response = acme_staff_client.get(LIST, {"show": show})

        assert not row_ids(response) & {history["globex_older"].pk, history["globex_newer"].pk}
        assert "globex" not in response.content.decode().lower()


def test_the_history_column_costs_no_query_per_row(acme_staff_client, acme):
    def version_pair(n: int) -> None:
        older = remember(acme, f"The nightly export number {n} starts at midnight", scope="team:data")
        newer = remember(acme, f"The nightly export number {n} starts at one", scope="team:data")
        Memory.objects.filter(pk=older.pk).update(superseded_by=newer)

    version_pair(0)
    with CaptureQueriesContext(connection) as few:
        acme_staff_client.get(LIST, {"show": "all"})
    for n in range(1, 6):
        version_pair(n)

    with CaptureQueriesContext(connection) as many:
        response = acme_staff_client.get(LIST, {"show": "all"})

    assert len(row_ids(response)) == 12
    assert response.content.decode().count('class="history-badge"') == 6
    assert len(many) == len(few)


def test_list_query_count_does_not_grow_with_rows(acme_staff_client, acme):
    remember(acme, "first memory about caching", scope="team:platform")
    with CaptureQueriesContext(connection) as few:
        acme_staff_client.get(LIST)
    for n in range(10):
        remember(acme, f"memory number {n} about the {n}th data pipeline", scope="team:data")

    with CaptureQueriesContext(connection) as many:
        response = acme_staff_client.get(LIST)

    assert len(row_ids(response)) == 11
    assert len(many) == len(few)
    assert not any("search_vector" in query["sql"] for query in many.captured_queries)


# --- search -----------------------------------------------------------------------------------------------------


def test_full_text_search_uses_stems_and_phrases(acme_staff_client, spread):
    assert row_ids(acme_staff_client.get(LIST, {"q": "kubernetes"})) == {spread["platform"].pk}
    assert row_ids(acme_staff_client.get(LIST, {"q": "hosting frankfurt"})) == {spread["eu"].pk}  # hosts ~ hosting
    assert row_ids(acme_staff_client.get(LIST, {"q": '"fiscal year" -quarter'})) == {spread["org"].pk}


def test_search_falls_back_to_substrings(acme_staff_client, spread):
    assert row_ids(acme_staff_client.get(LIST, {"q": "Kuber"})) == {spread["platform"].pk}


def test_search_never_crosses_tenants(acme_staff_client, spread):
    assert row_ids(acme_staff_client.get(LIST, {"q": "Jenkins"})) == set()


def test_a_5000_character_hostile_search_is_harmless(acme_staff_client, spread):
    response = acme_staff_client.get(LIST, {"q": "\"'(&|!:*" * 715})

    assert response.status_code == 200
    assert row_ids(response) == set()


@pytest.mark.parametrize("query", ["a\x00b", "'", "!!", "& | !", "foo:*", "\\", "%_%", "<script>", "-", '"'])
def test_odd_search_input_never_errors_nor_leaks(acme_staff_client, spread, query):
    response = acme_staff_client.get(LIST, {"q": query})

    assert response.status_code == 200
    assert spread["globex"].pk not in row_ids(response)
    assert "<script>" not in response.content.decode().split('id="result_list"')[-1]


def test_search_drops_what_postgres_rejects(rf, root, spread):
    model_admin = admin.site._registry[Memory]
    request = rf.get(LIST)
    request.user = root

    found, may_have_duplicates = model_admin.get_search_results(request, Memory.objects.all(), "Kuber\x00netes \ud800")

    assert list(found.values_list("pk", flat=True)) == [spread["platform"].pk]
    assert may_have_duplicates is False


# --- add --------------------------------------------------------------------------------------------------------


def test_add_creates_through_the_service_and_indexes(superuser_client, acme, django_capture_on_commit_callbacks):
    platform = scope(acme, "team:platform")

    with django_capture_on_commit_callbacks(execute=True):
        response = superuser_client.post(
            ADD,
            {
                "tenant": acme.pk,
                "scope": platform.pk,
                "kind": "policy",
                "title": "Change freeze",
                "content": "  No deploys during the December change freeze.  ",
                "metadata": '{"source": "handbook"}',
            },
        )

    memory = Memory.objects.get()
    assert response.status_code == 302
    assert response["Location"] == LIST
    assert (memory.tenant_id, memory.scope_id, memory.kind) == (acme.pk, platform.pk, "policy")
    assert (memory.title, memory.content) == ("Change freeze", "No deploys during the December change freeze.")
    assert memory.metadata == {"source": "handbook"}
    assert memory.author == "admin:root"
    assert memory.author_user.username == "root"
    assert memory.index_state == IndexState.READY
    assert MemoryChunk.objects.filter(memory=memory, scope=platform).count() == 1


def test_duplicate_add_says_where_it_is_stored(superuser_client, acme):
    existing = remember(acme, "The platform on-call rotation changes on Mondays", scope="team:platform")

    response = superuser_client.post(
        ADD,
        {
            "tenant": acme.pk,
            "scope": scope(acme, "team:platform").pk,
            "kind": "fact",
            "content": "the platform  on-call rotation changes on mondays",
            "metadata": "{}",
        },
        follow=True,
    )

    assert response.redirect_chain == [(f"/admin/memories/memory/{existing.pk}/change/", 302)]
    assert f"already stored as memory {existing.pk}" in response.content.decode()
    assert Memory.objects.count() == 1


def test_add_of_a_near_duplicate_and_a_contradiction_shows_messages(superuser_client, acme):
    older = remember(acme, TUESDAY, scope="team:platform")
    affirmative = remember(acme, FRIDAYS, scope="team:platform")
    platform = scope(acme, "team:platform").pk

    superseding = superuser_client.post(
        ADD, {"tenant": acme.pk, "scope": platform, "kind": "fact", "content": TUESDAY_LATER}, follow=True
    )
    contradicting = superuser_client.post(
        ADD, {"tenant": acme.pk, "scope": platform, "kind": "fact", "content": NO_FRIDAYS}, follow=True
    )

    assert f'This supersedes <a href="/admin/memories/memory/{older.pk}/change/">memory {older.pk}</a>' in (
        superseding.content.decode()
    )
    html = contradicting.content.decode()
    assert f'<li class="warning">This may contradict memory {affirmative.pk} (<a ' in html  # the id, never a quote
    assert f'(<a href="/admin/memories/memory/{affirmative.pk}/change/">memory {affirmative.pk}</a>)</li>' in html


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("null\x00byte", "Null characters are not allowed."),
        ("   \n\t ", "This field is required."),
        ("", "This field is required."),
    ],
)
def test_bad_content_is_a_form_error_and_stores_nothing(superuser_client, acme, content, error):
    response = superuser_client.post(
        ADD, {"tenant": acme.pk, "scope": scope(acme, "team:platform").pk, "kind": "fact", "content": content}
    )

    assert response.status_code == 200
    assert error in response.content.decode()
    assert Memory.objects.count() == 0


def test_a_refused_write_is_a_form_error(superuser_client, acme):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=20)

    response = superuser_client.post(
        ADD,
        {
            "tenant": acme.pk,
            "scope": scope(acme, "team:platform").pk,
            "kind": "fact",
            "content": "This text is longer than twenty bytes",
        },
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"content": ["content is 37 bytes; the limit is 20"]}
    assert Memory.objects.count() == 0


def test_metadata_must_be_an_object(superuser_client, acme):
    response = superuser_client.post(
        ADD,
        {"tenant": acme.pk, "scope": scope(acme, "team:data").pk, "kind": "fact", "content": "x", "metadata": "[1]"},
    )

    assert response.context["adminform"].form.errors == {"metadata": ["metadata must be a JSON object"]}
    assert Memory.objects.count() == 0


def test_scope_of_another_tenant_is_a_form_error(superuser_client, acme, globex):
    response = superuser_client.post(
        ADD, {"tenant": acme.pk, "scope": scope(globex, "team:platform").pk, "kind": "fact", "content": "x y z"}
    )

    assert response.context["adminform"].form.errors == {"scope": ["team:platform is not a scope of acme."]}
    assert Memory.objects.count() == 0


def selected_tenant(response) -> str | None:
    select = response.content.decode().split('name="tenant"')[1].split("</select>")[0]
    found = re.search(r'<option value="(\d*)" selected>', select)
    return found.group(1) if found else None


def test_add_preselects_the_only_tenant_and_names_the_scopes(acme_staff_client, acme, globex):
    response = acme_staff_client.get(ADD)

    assert selected_tenant(response) == str(acme.pk)
    scopes = response.content.decode().split('name="scope"')[1].split("</select>")[0]
    labels = re.findall(r'<option value="\d+">([^<]*)</option>', scopes)
    assert labels[:4] == [
        "Acme Corp (org:acme)",
        "\u2003Europe (division:eu)",
        "\u2003\u2003Data (team:data)",
        ("\u2003\u2003\u2003dora (user:dora)"),
    ]
    assert len(labels) == Scope.objects.filter(tenant=acme).count()  # none of globex's


def test_a_superuser_of_a_one_tenant_install_gets_it_preselected(superuser_client, acme):
    assert selected_tenant(superuser_client.get(ADD)) == str(acme.pk)


def test_a_superuser_of_two_tenants_chooses(superuser_client, acme, globex):
    assert selected_tenant(superuser_client.get(ADD)) == ""  # the empty choice


def test_tenant_staff_cannot_add_to_another_tenant(acme_staff_client, acme, globex):
    form = acme_staff_client.get(ADD).content.decode()
    response = acme_staff_client.post(
        ADD, {"tenant": globex.pk, "scope": scope(globex, "team:platform").pk, "kind": "fact", "content": "x y z"}
    )

    assert f'<option value="{acme.pk}" selected>acme</option>' in form
    assert "globex" not in form
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"tenant", "scope"}
    assert Memory.objects.count() == 0


# --- change page ------------------------------------------------------------------------------------------------


def test_change_page_shows_history_and_warnings(superuser_client, acme):
    older = remember(acme, TUESDAY, scope="team:platform")
    newer = remember(acme, TUESDAY_LATER, scope="team:platform")
    affirmative = remember(acme, FRIDAYS, scope="team:platform")
    negated = remember(acme, NO_FRIDAYS, scope="team:platform")

    newer_page = superuser_client.get(f"{LIST}{newer.pk}/change/").content.decode()
    older_page = superuser_client.get(f"{LIST}{older.pk}/change/").content.decode()
    negated_page = superuser_client.get(f"{LIST}{negated.pk}/change/").content.decode()

    assert f'supersedes <a href="/admin/memories/memory/{older.pk}/change/">memory {older.pk}</a>' in newer_page
    assert f'superseded by <a href="/admin/memories/memory/{newer.pk}/change/">memory {newer.pk}</a>' in older_page
    assert "<strong>possible_contradiction</strong>" in negated_page
    assert f'<a href="/admin/memories/memory/{affirmative.pk}/change/">memory {affirmative.pk}</a>' in negated_page
    assert '<div class="readonly">admin:test</div>' in newer_page  # the author, read-only
    assert '<div class="readonly">pending, 0 chunks</div>' in newer_page
    assert '<div class="readonly">never</div>' in newer_page  # no search returned it yet

    access_record(memory_ids=[newer.pk, newer.pk, newer.pk])
    newer_page = superuser_client.get(f"{LIST}{newer.pk}/change/").content.decode()
    assert re.search(r'<div class="readonly">3 times, last [^<]+</div>', newer_page)


def test_change_page_edits_through_the_service(superuser_client, acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        memory = remember(acme, "The data team uses Airflow", scope="team:data")
    assert MemoryChunk.objects.get(memory=memory).text == "The data team uses Airflow"

    with django_capture_on_commit_callbacks(execute=True):
        response = superuser_client.post(
            f"{LIST}{memory.pk}/change/",
            {"kind": "note", "title": "Orchestration", "content": "The data team uses Dagster", "metadata": "{}"},
        )

    memory.refresh_from_db()
    assert response.status_code == 302
    assert (memory.kind, memory.title, memory.content) == ("note", "Orchestration", "The data team uses Dagster")
    assert memory.index_state == IndexState.READY
    assert MemoryChunk.objects.get(memory=memory).text == "Orchestration. The data team uses Dagster"


def test_change_page_refusal_is_a_form_error(superuser_client, acme):
    memory = remember(acme, "The data team uses Airflow", scope="team:data")
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=30)

    response = superuser_client.post(
        f"{LIST}{memory.pk}/change/",
        {"kind": "fact", "title": "", "content": "The data team uses Airflow and Dagster", "metadata": "{}"},
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"content": ["content is 38 bytes; the limit is 30"]}
    memory.refresh_from_db()
    assert memory.content == "The data team uses Airflow"


def test_tenant_staff_cannot_open_another_tenants_memory(acme_staff_client, spread):
    response = acme_staff_client.get(f"{LIST}{spread['globex'].pk}/change/")

    assert response.status_code == 302
    assert response["Location"] == "/admin/"


# --- actions ----------------------------------------------------------------------------------------------------


def test_move_action_asks_for_a_scope_of_the_same_tenant(acme_staff_client, acme, spread):
    response = acme_staff_client.post(LIST, {"action": "move_to_scope", "_selected_action": [spread["albert"].pk]})

    assert response.status_code == 200
    html = response.content.decode()
    offered = {int(pk) for pk in re.findall(r'<option value="(\d+)"', html)}
    assert offered == set(Scope.objects.filter(tenant=acme).values_list("pk", flat=True))
    assert "Albert prefers short answers" in html


def test_move_action_moves_memory_and_chunks(acme_staff_client, acme, spread, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        memory = remember(acme, "Albert is on call this week", scope="user:albert")
    platform = scope(acme, "team:platform")

    response = acme_staff_client.post(
        LIST,
        {"action": "move_to_scope", "_selected_action": [memory.pk], "apply": "Move", "scope": platform.pk},
        follow=True,
    )

    memory.refresh_from_db()
    assert memory.scope_id == platform.pk
    assert list(MemoryChunk.objects.filter(memory=memory).values_list("scope_id", flat=True)) == [platform.pk]
    assert "Moved 1 memory to team:platform." in response.content.decode()


def test_move_action_refuses_another_tenants_scope(acme_staff_client, globex, spread):
    memory = spread["albert"]

    response = acme_staff_client.post(
        LIST,
        {
            "action": "move_to_scope",
            "_selected_action": [memory.pk],
            "apply": "Move",
            "scope": scope(globex, "team:platform").pk,
        },
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    memory.refresh_from_db()
    assert memory.scope.tag == "user:albert"


def test_superuser_cannot_move_across_tenants_either(superuser_client, acme, globex, spread):
    mixed = superuser_client.post(
        LIST,
        {"action": "move_to_scope", "_selected_action": [spread["albert"].pk, spread["globex"].pk]},
        follow=True,
    )
    crafted = superuser_client.post(
        LIST,
        {
            "action": "move_to_scope",
            "_selected_action": [spread["albert"].pk],
            "apply": "Move",
            "scope": scope(globex, "org:globex").pk,
        },
    )

    assert "Select memories of one tenant to move them together." in mixed.content.decode()
    assert "Select a valid choice" in crafted.content.decode()
    assert Memory.objects.get(pk=spread["albert"].pk).scope.tag == "user:albert"
    assert Memory.objects.get(pk=spread["globex"].pk).scope.tag == "team:platform"


def test_move_refused_by_policy_is_a_message(acme_staff_client, acme, spread):
    Policy.objects.filter(tenant=acme, scope__isnull=True).update(
        writable_levels={"agent": ["user", "team"], "admin": ["team", "user"]}
    )
    memory = spread["platform"]

    response = acme_staff_client.post(
        LIST,
        {
            "action": "move_to_scope",
            "_selected_action": [memory.pk],
            "apply": "Move",
            "scope": scope(acme, "org:acme").pk,
        },
        follow=True,
    )

    html = response.content.decode()
    assert response.redirect_chain == [(LIST, 302)]
    assert (
        f"1 memory not moved ({memory.pk}): policy does not let admin authors write at the org level "
        "(allowed: team, user)"
    ) in html
    assert "Moved" not in html
    memory.refresh_from_db()
    assert memory.scope.tag == "team:platform"


def test_change_kind_actions(acme_staff_client, spread):
    chosen = [spread["org"].pk, spread["eu"].pk]

    response = acme_staff_client.post(LIST, {"action": "make_policy", "_selected_action": chosen}, follow=True)

    assert "2 memories changed to policy." in response.content.decode()
    assert dict(Memory.objects.filter(pk__in=chosen + [spread["sales"].pk]).values_list("pk", "kind")) == {
        spread["org"].pk: "policy",
        spread["eu"].pk: "policy",
        spread["sales"].pk: "fact",
    }


def test_reindex_action_embeds_again(acme_staff_client, spread, django_capture_on_commit_callbacks):
    memory = spread["platform"]
    Memory.objects.filter(pk=memory.pk).update(index_state=IndexState.FAILED, index_error="model missing")
    assert not MemoryChunk.objects.filter(memory=memory).exists()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = acme_staff_client.post(LIST, {"action": "reindex", "_selected_action": [memory.pk]}, follow=True)

    memory.refresh_from_db()
    assert len(callbacks) == 1
    assert "Queued 1 memory for re-indexing." in response.content.decode()
    assert (memory.index_state, memory.index_error) == (IndexState.READY, "")
    assert memory.embedding_model != ""
    assert list(MemoryChunk.objects.filter(memory=memory).values_list("text", flat=True)) == [memory.content]


def test_delete_action_removes_memories_and_chunks(acme_staff_client, acme, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        doomed = remember(acme, "The data warehouse is Snowflake", scope="team:data")
        kept = remember(acme, "The data team meets on Thursdays", scope="team:data")
    assert MemoryChunk.objects.filter(memory=doomed).count() == 1

    confirm = acme_staff_client.post(LIST, {"action": "delete_selected", "_selected_action": [doomed.pk]})
    response = acme_staff_client.post(
        LIST, {"action": "delete_selected", "_selected_action": [doomed.pk], "post": "yes"}, follow=True
    )

    assert "Are you sure" in confirm.content.decode()
    assert "Successfully deleted 1 memory." in response.content.decode()
    assert list(Memory.objects.values_list("pk", flat=True)) == [kept.pk]
    assert list(MemoryChunk.objects.values_list("memory_id", flat=True)) == [kept.pk]


def test_delete_page_deletes_through_the_service(acme_staff_client, spread):
    memory = spread["sales"]

    response = acme_staff_client.post(f"{LIST}{memory.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert Memory.objects.count() == len(spread) - 1


def test_actions_cannot_reach_another_tenants_memories(acme_staff_client, spread):
    foreign = spread["globex"]

    acme_staff_client.post(LIST, {"action": "make_note", "_selected_action": [foreign.pk]})
    acme_staff_client.post(LIST, {"action": "delete_selected", "_selected_action": [foreign.pk], "post": "yes"})

    foreign.refresh_from_db()
    assert foreign.kind == "fact"
