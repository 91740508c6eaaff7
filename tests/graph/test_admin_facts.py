"""The facts in the admin: the entity page's fact timeline (per attribute, current first, then history; every scope
of the tenant, never another tenant's), the fact list (tenant, attribute, search), and a curator's close and
correct through ``graph.fact_services`` — the round trip through the admin forms, the audit entries, the errors on
their fields, and the timeline that reads the closed interval afterwards."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from graph.fact_services import fact_close, fact_correct
from graph.facts import facts_timeline
from graph.models import Entity, Fact
from memories.curation.models import AdminLogTenant
from memories.models import Scope, Tenant
from memories.roles import AUDITOR, CURATOR
from memories.selectors.tenancy import scope_chain_for
from orgmemory.errors import NotFound, ValidationFailed
from tests.conftest import remember
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db

FACTS = "/admin/graph/fact/"
ENTITIES = "/admin/graph/entity/"


def said_on(day: date) -> dict:
    return {"reference_time": datetime(day.year, day.month, day.day, tzinfo=UTC)}


# (scope, text, when it was said, the member whose agent wrote it — else an admin: a curated memory); each states
# exactly one fact
ACME_STATEMENTS = [
    ("team:platform", "Tomasz Nowak speaks Polish.", date(2025, 1, 6), None),
    ("team:platform", "Tomasz Nowak lives in Lisbon.", date(2025, 2, 3), None),
    ("team:platform", "Tomasz Nowak works at Initech.", date(2025, 3, 3), None),
    ("user:albert", "Tomasz Nowak moved to Porto.", date(2025, 6, 16), None),  # private to albert: the admin sees it
    ("team:platform", "Tomasz Nowak quit Initech last week.", date(2025, 9, 10), None),  # a negation from 1 September
    ("team:data", "Mia Chen works at Hooli.", date(2025, 1, 6), None),
    ("team:platform", "Ownership of the billing service moved to the Payments team.", date(2025, 4, 1), None),
    # an agent's later value does not close a curated one: the conflict is marked on both
    ("team:platform", "Ownership of the billing service moved to the Platform team.", date(2025, 5, 5), "albert"),
]
GLOBEX_STATEMENTS = [
    ("team:platform", "Tomasz Nowak works at Hooli.", None, None),
    ("team:platform", "Zed Zulu works at Vandelay Industries.", None, None),
]


def _write(tenant, statements) -> None:
    for scope, text, day, user in statements:
        remember(tenant, text, scope=scope, user=user, **(said_on(day) if day else {}))


@pytest.fixture(scope="module")
def _committed_facts(django_db_setup, django_db_blocker):
    """Acme's and globex's statements, written once per module and committed (extraction runs at each write's
    commit, as in production); each test reads them in its own rolled-back transaction."""
    from tests.conftest import ACME_CHART, GLOBEX_CHART, committed_tenants

    with committed_tenants(django_db_blocker, ACME_CHART, GLOBEX_CHART) as (acme, globex):
        _write(acme, ACME_STATEMENTS)
        _write(globex, GLOBEX_STATEMENTS)
        yield


@pytest.fixture
def facts(_committed_facts, db):
    """``facts(tenant_slug, subject, attribute, value, negated=False) -> Fact``."""

    def find(slug: str, subject: str, attribute: str, value: str, negated: bool = False) -> Fact:
        return Fact.objects.get(
            tenant__slug=slug, subject__name=subject, attribute=attribute, value=value, negated=negated
        )

    return find


@pytest.fixture
def acme_tenant(_committed_facts, db) -> Tenant:
    return Tenant.objects.get(slug="acme")


def tomasz(slug: str = "acme") -> Entity:
    return Entity.objects.get(tenant__slug=slug, name="Tomasz Nowak")


def timeline_rows(html: str) -> list[tuple[int, str]]:
    """The entity page's timeline: (fact id, state) in the order shown."""
    section = html.split('id="facts"', 1)[1]
    return [(int(pk), state) for state, pk in re.findall(r'<tr class="fact-(\w+)" data-fact-id="(\d+)">', section)]


def timeline_groups(html: str) -> list[str]:
    return re.findall(r'<tr class="fact-attribute" id="facts-(\w+)">', html)


def row_ids(response) -> set[int]:
    """The fact ids the list shows (no action applies to facts: the rows carry no checkbox, their id links)."""
    assert response.status_code == 200
    return {
        int(pk)
        for pk in re.findall(
            r'<th class="field-id"><a href="/admin/graph/fact/(\d+)/change/', response.content.decode()
        )
    }


def as_member(tenant: Tenant, user_id: str, subject: Entity, attribute: str):
    """What ``user_id`` reads of ``subject``'s ``attribute``: (value, valid_from, valid_until, current)."""
    return [
        (view.value, view.valid_from, view.valid_until, view.current)
        for view in facts_timeline(
            tenant_id=tenant.pk,
            chain_ids=[scope.pk for scope in scope_chain_for(tenant=tenant, user_id=user_id)],
            subject_ids=[subject.pk],
            attributes=[attribute],
            now=timezone.now(),
        )
    ]


def staff_client(client, tenant: Tenant, role: str):
    client.force_login(StaffUserFactory(tenants=[tenant], groups=[role]))
    return client


# --- the entity page's timeline ---------------------------------------------------------------------------------


def test_entity_page_shows_the_timeline_per_attribute_current_first(acme_staff_client, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    lisbon = facts("acme", "Tomasz Nowak", "lives_in", "Lisbon")
    initech = facts("acme", "Tomasz Nowak", "works_at", "Initech")
    left = facts("acme", "Tomasz Nowak", "works_at", "Initech", negated=True)
    polish = facts("acme", "Tomasz Nowak", "speaks", "Polish")

    html = acme_staff_client.get(f"{ENTITIES}{tomasz().pk}/change/").content.decode()

    assert timeline_groups(html) == ["lives_in", "works_at", "speaks"]  # the vocabulary's order
    assert timeline_rows(html) == [
        (porto.pk, "current"),
        (lisbon.pk, "closed"),
        (initech.pk, "closed"),
        (polish.pk, "current"),
    ]
    assert "2025-06-16 – open" in html and "2025-02-03 – 2025-06-16" in html and "2025-03-03 – 2025-09-01" in html
    # what closed each: the later value, the negation
    assert f'by <a href="/admin/graph/fact/{porto.pk}/change/">fact {porto.pk}: Porto</a>' in html
    assert f'by <a href="/admin/graph/fact/{left.pk}/change/">fact {left.pk}: no longer Initech</a>' in html
    # the stating memory, with its scope: the admin sees a member's private fact too
    assert f'<a href="/admin/memories/memory/{porto.memory_id}/change/">memory {porto.memory_id}</a>' in html
    assert "(user:albert)" in html
    assert f'href="/admin/graph/fact/{porto.pk}/close/"' in html
    assert f'href="/admin/graph/fact/{porto.pk}/correct/"' in html


def test_entity_page_timeline_never_shows_another_tenants_facts(acme_staff_client, superuser_client, facts):
    hooli = facts("globex", "Tomasz Nowak", "works_at", "Hooli")

    html = acme_staff_client.get(f"{ENTITIES}{tomasz('acme').pk}/change/").content.decode()

    assert hooli.pk not in {pk for pk, _ in timeline_rows(html)}
    assert "Hooli" not in html
    # the superuser reads globex's Tomasz on globex's entity page: only globex's facts
    globex_html = superuser_client.get(f"{ENTITIES}{tomasz('globex').pk}/change/").content.decode()
    assert timeline_rows(globex_html) == [(hooli.pk, "current")]


def test_an_entity_without_facts_says_so(acme_staff_client, facts):
    initech = Entity.objects.get(tenant__slug="acme", name="Initech")

    html = acme_staff_client.get(f"{ENTITIES}{initech.pk}/change/").content.decode()

    assert "No fact about Initech yet." in html


def test_entity_page_marks_a_conflict_and_which_memory_is_curated(acme_staff_client, facts):
    payments = facts("acme", "billing service", "owned_by", "Payments")
    platform = facts("acme", "billing service", "owned_by", "Platform")

    html = acme_staff_client.get(f"{ENTITIES}{payments.subject_id}/change/").content.decode()

    # the curated value stays current; the agent's later one is outranked, not silently dropped
    assert timeline_rows(html) == [(payments.pk, "current"), (platform.pk, "outranked")]
    assert f'conflicts with <a href="/admin/graph/fact/{platform.pk}/change/">fact {platform.pk}: Platform</a>' in html
    assert f'conflicts with <a href="/admin/graph/fact/{payments.pk}/change/">fact {payments.pk}: Payments</a>' in html
    curated = re.findall(r'data-fact-id="\d+">.*?<td>(yes|no)</td>', html, flags=re.S)
    assert curated == ["yes", "no"]


def test_entity_page_queries_do_not_grow_with_its_facts(acme_staff_client, acme_tenant, facts):
    url = f"{ENTITIES}{tomasz().pk}/change/"
    acme_staff_client.get(url)  # the session, content types and permissions cached
    with CaptureQueriesContext(connection) as before:
        acme_staff_client.get(url)
    for value in ("Spanish", "German", "French"):
        _literal_fact(acme_tenant, "speaks", value)

    with CaptureQueriesContext(connection) as after:
        html = acme_staff_client.get(url).content.decode()

    assert len(timeline_rows(html)) == 7
    assert len(after.captured_queries) == len(before.captured_queries)


# --- the fact list --------------------------------------------------------------------------------------------


def test_tenant_staff_list_only_their_tenants_facts(acme_staff_client, acme_tenant):
    expected = set(Fact.objects.filter(tenant=acme_tenant).values_list("pk", flat=True))

    assert len(expected) == 8
    assert row_ids(acme_staff_client.get(FACTS)) == expected


def test_superuser_lists_every_tenants_facts_and_filters_by_tenant(superuser_client, acme_tenant):
    globex = Tenant.objects.get(slug="globex")

    assert row_ids(superuser_client.get(FACTS)) == set(Fact.objects.values_list("pk", flat=True))
    assert row_ids(superuser_client.get(FACTS, {"tenant__id__exact": globex.pk})) == set(
        Fact.objects.filter(tenant=globex).values_list("pk", flat=True)
    )


def test_fact_list_filters_by_attribute_and_searches_subject_and_value(acme_staff_client, facts):
    lives = {facts("acme", "Tomasz Nowak", "lives_in", value).pk for value in ("Lisbon", "Porto")}
    billing = {facts("acme", "billing service", "owned_by", value).pk for value in ("Payments", "Platform")}

    assert row_ids(acme_staff_client.get(FACTS, {"attribute": "lives_in"})) == lives
    assert row_ids(acme_staff_client.get(FACTS, {"q": "billing"})) == billing
    assert row_ids(acme_staff_client.get(FACTS, {"q": "Hooli"})) == {facts("acme", "Mia Chen", "works_at", "Hooli").pk}


def test_tenant_staff_cannot_open_or_curate_another_tenants_fact(acme_staff_client, facts):
    hooli = facts("globex", "Tomasz Nowak", "works_at", "Hooli")

    for url in (f"{FACTS}{hooli.pk}/change/", f"{FACTS}{hooli.pk}/close/", f"{FACTS}{hooli.pk}/correct/"):
        response = acme_staff_client.get(url)
        assert (response.status_code, response["Location"]) == (302, "/admin/"), url
    response = acme_staff_client.post(
        f"{FACTS}{hooli.pk}/close/", {"valid_until": "2025-10-01", "note": "Not yours to close."}
    )

    assert (response.status_code, response["Location"]) == (302, "/admin/")
    hooli.refresh_from_db()
    assert (hooli.valid_until, hooli.curator_note) == (None, "")
    assert not LogEntry.objects.exists()


def test_facts_cannot_be_added_deleted_or_saved_here(acme_staff_client, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")

    page = acme_staff_client.get(f"{FACTS}{porto.pk}/change/").content.decode()
    saved = acme_staff_client.post(f"{FACTS}{porto.pk}/change/", {"valid_until": "2025-10-01"})

    assert 'name="_save"' not in page
    assert f'href="/admin/graph/fact/{porto.pk}/close/"' in page
    assert acme_staff_client.get(f"{FACTS}add/").status_code == 403
    assert acme_staff_client.get(f"{FACTS}{porto.pk}/delete/").status_code == 403
    assert saved.status_code == 302
    porto.refresh_from_db()
    assert porto.valid_until is None
    assert not LogEntry.objects.exists()


# --- close ----------------------------------------------------------------------------------------------------


def test_close_round_trip_through_the_admin_form(acme_staff_client, acme_tenant, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    lisbon = facts("acme", "Tomasz Nowak", "lives_in", "Lisbon")
    url = f"{FACTS}{porto.pk}/close/"

    form = acme_staff_client.get(url)
    response = acme_staff_client.post(
        url, {"valid_until": "2025-11-01", "note": "He told us he moved back to Lisbon in November."}
    )

    assert form.status_code == 200
    assert 'name="valid_until"' in form.content.decode() and 'name="note"' in form.content.decode()
    assert response.status_code == 302
    assert response["Location"] == f"{ENTITIES}{porto.subject_id}/change/#facts"
    porto.refresh_from_db()
    assert (porto.valid_until, porto.curator_note) == (
        date(2025, 11, 1),
        "He told us he moved back to Lisbon in November.",
    )
    # the timeline reads the closed interval: Porto ended on the day set; Lisbon still closed by it
    assert as_member(acme_tenant, "albert", tomasz(), "lives_in") == [
        ("Porto", date(2025, 6, 16), date(2025, 11, 1), False),
        ("Lisbon", date(2025, 2, 3), date(2025, 6, 16), False),
    ]
    html = acme_staff_client.get(response["Location"]).content.decode()
    assert timeline_rows(html)[:2] == [(porto.pk, "ended"), (lisbon.pk, "closed")]
    assert "2025-06-16 – 2025-11-01" in html
    assert "He told us he moved back to Lisbon in November." in html
    assert f"Fact {porto.pk} closed: valid until 2025-11-01." in html


def test_close_is_audit_logged_with_who_what_and_the_tenant(acme_staff_client, acme_tenant, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")

    acme_staff_client.post(f"{FACTS}{porto.pk}/close/", {"valid_until": "2025-11-01", "note": "Moved back."})

    entry = LogEntry.objects.get()
    assert (entry.user.username, entry.action_flag, entry.content_type.model, entry.object_id) == (
        "acme-admin",
        CHANGE,
        "fact",
        str(porto.pk),
    )
    assert entry.change_message == (
        f"Closed fact {porto.pk} (Tomasz Nowak lives in Porto): valid until 2025-11-01 (was open). Note: Moved back."
    )
    assert AdminLogTenant.objects.get(log_entry=entry).tenant_id == acme_tenant.pk
    # the fact's history page and the audit log show it
    assert "valid until 2025-11-01 (was open)" in acme_staff_client.get(f"{FACTS}{porto.pk}/history/").content.decode()
    assert f"Closed fact {porto.pk}" in acme_staff_client.get("/admin/admin/logentry/").content.decode()


def test_close_before_the_fact_began_is_an_error_on_valid_until(acme_staff_client, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")

    response = acme_staff_client.post(f"{FACTS}{porto.pk}/close/", {"valid_until": "2025-06-01", "note": "Oops."})

    assert response.status_code == 200
    assert response.context["form"].errors == {"valid_until": ["It cannot end before it began (2025-06-16)."]}
    assert "form-row errors field-valid_until" in response.content.decode()
    porto.refresh_from_db()
    assert (porto.valid_until, porto.curator_note) == (None, "")
    assert not LogEntry.objects.exists()


def test_close_without_a_note_is_an_error_on_note(acme_staff_client, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")

    response = acme_staff_client.post(f"{FACTS}{porto.pk}/close/", {"valid_until": "2025-11-01", "note": "   "})

    assert response.status_code == 200
    assert response.context["form"].errors == {"note": ["This field is required."]}
    assert "form-row errors field-note" in response.content.decode()
    porto.refresh_from_db()
    assert porto.valid_until is None
    assert not LogEntry.objects.exists()


def test_a_negation_cannot_be_closed(acme_staff_client, facts):
    left = facts("acme", "Tomasz Nowak", "works_at", "Initech", negated=True)

    page = acme_staff_client.get(f"{FACTS}{left.pk}/change/").content.decode()
    response = acme_staff_client.post(f"{FACTS}{left.pk}/close/", {"valid_until": "2025-11-01", "note": "No."})

    assert f'href="/admin/graph/fact/{left.pk}/close/"' not in page
    assert f'href="/admin/graph/fact/{left.pk}/correct/"' in page
    assert response.context["form"].errors == {
        "valid_until": ["A negation ends a value; it holds nothing to close. Correct its value instead."]
    }


# --- correct --------------------------------------------------------------------------------------------------


def test_correct_round_trip_names_the_tenants_entity(acme_staff_client, acme_tenant, facts):
    initech = facts("acme", "Tomasz Nowak", "works_at", "Initech")
    acme_hooli = Entity.objects.get(tenant=acme_tenant, name="Hooli")
    url = f"{FACTS}{initech.pk}/correct/"

    form = acme_staff_client.get(url).content.decode()
    response = acme_staff_client.post(url, {"value": "hooli", "note": "He joined Hooli, not Initech."})

    assert 'name="value" value="Initech"' in form
    assert response.status_code == 302
    initech.refresh_from_db()
    assert (initech.value, initech.value_entity_id, initech.curator_note) == (
        "Hooli",
        acme_hooli.pk,
        "He joined Hooli, not Initech.",
    )
    entry = LogEntry.objects.get()
    assert (entry.user.username, entry.object_id) == ("acme-admin", str(initech.pk))
    assert entry.change_message == (
        f"Corrected fact {initech.pk} (Tomasz Nowak works at): value “Initech” → “Hooli”. "
        "Note: He joined Hooli, not Initech."
    )
    assert AdminLogTenant.objects.get(log_entry=entry).tenant_id == acme_tenant.pk
    html = acme_staff_client.get(response["Location"]).content.decode()
    assert f'<a href="/admin/graph/entity/{acme_hooli.pk}/change/">Hooli</a>' in html


def test_correct_to_a_name_only_another_tenant_knows_is_an_error_on_value(acme_staff_client, facts):
    initech = facts("acme", "Tomasz Nowak", "works_at", "Initech")

    response = acme_staff_client.post(
        f"{FACTS}{initech.pk}/correct/", {"value": "Vandelay Industries", "note": "Wrong company."}
    )

    assert response.status_code == 200
    assert response.context["form"].errors == {
        "value": [
            "No entity of this tenant is called “Vandelay Industries” (by name or alias). Its value must be an "
            "entity the graph knows: check the spelling, or merge the names first."
        ]
    }
    initech.refresh_from_db()
    assert (initech.value, initech.curator_note) == ("Initech", "")
    assert not LogEntry.objects.exists()


def test_correct_without_a_note_is_an_error_on_note(acme_staff_client, facts):
    initech = facts("acme", "Tomasz Nowak", "works_at", "Initech")

    response = acme_staff_client.post(f"{FACTS}{initech.pk}/correct/", {"value": "Hooli", "note": ""})

    assert response.context["form"].errors == {"note": ["This field is required."]}
    assert not LogEntry.objects.exists()


# --- roles ----------------------------------------------------------------------------------------------------


def test_a_curator_closes_a_fact(client, acme_tenant, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    curator = staff_client(client, acme_tenant, CURATOR)

    response = curator.post(f"{FACTS}{porto.pk}/close/", {"valid_until": "2025-11-01", "note": "Moved back."})

    assert response.status_code == 302
    porto.refresh_from_db()
    assert porto.valid_until == date(2025, 11, 1)
    assert LogEntry.objects.get().user.groups.get().name == CURATOR


def test_an_auditor_reads_the_timeline_and_changes_nothing(client, acme_tenant, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    auditor = staff_client(client, acme_tenant, AUDITOR)

    html = auditor.get(f"{ENTITIES}{tomasz().pk}/change/").content.decode()
    fact_page = auditor.get(f"{FACTS}{porto.pk}/change/").content.decode()

    assert (porto.pk, "current") in timeline_rows(html)
    assert "/close/" not in html and "/correct/" not in html and "/close/" not in fact_page
    assert auditor.get(f"{FACTS}{porto.pk}/close/").status_code == 403
    assert auditor.post(f"{FACTS}{porto.pk}/close/", {"valid_until": "2025-11-01", "note": "x"}).status_code == 403
    porto.refresh_from_db()
    assert porto.valid_until is None


# --- the services, called directly ----------------------------------------------------------------------------


def test_services_refuse_another_tenants_fact(acme_tenant, facts):
    hooli = facts("globex", "Tomasz Nowak", "works_at", "Hooli")
    user = StaffUserFactory(tenants=[acme_tenant])

    with pytest.raises(NotFound) as closing:
        fact_close(tenant=acme_tenant, fact=hooli, until=date(2025, 10, 1), by=user, note="x")
    with pytest.raises(NotFound) as correcting:
        fact_correct(tenant=acme_tenant, fact=hooli, value="Initech", by=user, note="x")

    assert closing.value.code == correcting.value.code == "fact_not_found"


@pytest.mark.parametrize(
    ("until", "note", "code", "field"),
    [
        (date(2025, 11, 1), " \n ", "note_required", "note"),
        (date(2025, 11, 1), "x" * 301, "note_too_long", "note"),
        (date(2025, 6, 15), "Too early.", "interval_reversed", "valid_until"),
    ],
)
def test_fact_close_validation(acme_tenant, facts, until, note, code, field):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")

    with pytest.raises(ValidationFailed) as refused:
        fact_close(tenant=acme_tenant, fact=porto, until=until, by=StaffUserFactory(), note=note)

    assert (refused.value.code, list(refused.value.details)) == (code, [field])


def test_closing_twice_on_the_same_day_is_refused_and_a_later_day_moves_it(acme_tenant, facts):
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    user = StaffUserFactory(tenants=[acme_tenant])
    fact_close(tenant=acme_tenant, fact=porto, until=date(2025, 11, 1), by=user, note="Moved back.")

    with pytest.raises(ValidationFailed) as refused:
        fact_close(tenant=acme_tenant, fact=porto, until=date(2025, 11, 1), by=user, note="Again.")
    moved = fact_close(tenant=acme_tenant, fact=porto, until=date(2025, 12, 1), by=user, note="A month later.")

    assert refused.value.code == "already_closed"
    assert (moved.valid_until, moved.curator_note) == (date(2025, 12, 1), "A month later.")
    assert list(LogEntry.objects.order_by("pk").values_list("change_message", flat=True))[-1] == (
        f"Closed fact {porto.pk} (Tomasz Nowak lives in Porto): valid until 2025-12-01 (was 2025-11-01). "
        "Note: A month later."
    )


def _literal_fact(tenant: Tenant, attribute: str, value: str) -> Fact:
    """A fact of a literal attribute about Tomasz, on one of acme's memories (extraction states none here)."""
    anchor = Fact.objects.select_related("subject").get(tenant=tenant, attribute="speaks", value="Polish")
    return Fact.objects.create(
        tenant=tenant,
        memory_id=anchor.memory_id,
        subject=anchor.subject,
        attribute=attribute,
        value=value,
        valid_from=date(2025, 1, 6),
        recorded_at=datetime(2025, 1, 6, tzinfo=UTC),
        confidence=0.8,
    )


@pytest.mark.parametrize(
    ("attribute", "old", "written", "stored"),
    [
        ("due_date", "2025-10-01", " 2025-10-15 ", "2025-10-15"),
        ("job_title", "engineer", "Staff  Engineer", "staff engineer"),
        ("speaks", "Polish", "Portuguese", "Portuguese"),
    ],
)
def test_fact_correct_keeps_literal_values_as_extraction_does(acme_tenant, attribute, old, written, stored):
    fact = _literal_fact(acme_tenant, attribute, old)

    corrected = fact_correct(tenant=acme_tenant, fact=fact, value=written, by=StaffUserFactory(), note="Misread.")

    assert (corrected.value, corrected.value_entity_id) == (stored, None)


@pytest.mark.parametrize(
    ("attribute", "old", "written", "code"),
    [
        ("due_date", "2025-10-01", "next Tuesday", "invalid_date"),
        ("speaks", "Polish", "Polish", "value_unchanged"),
        ("speaks", "Polish", "  ", "value_required"),
        ("speaks", "Polish", "x" * 201, "value_too_long"),
    ],
)
def test_fact_correct_validation(acme_tenant, attribute, old, written, code):
    fact = _literal_fact(acme_tenant, attribute, old)

    with pytest.raises(ValidationFailed) as refused:
        fact_correct(tenant=acme_tenant, fact=fact, value=written, by=StaffUserFactory(), note="Misread.")

    assert (refused.value.code, list(refused.value.details)) == (code, ["value"])
    assert not LogEntry.objects.exists()


def test_fact_correct_refuses_the_subject_as_its_own_value(acme_tenant, facts):
    initech = facts("acme", "Tomasz Nowak", "works_at", "Initech")

    with pytest.raises(ValidationFailed) as refused:
        fact_correct(tenant=acme_tenant, fact=initech, value="Tomasz Nowak", by=StaffUserFactory(), note="x")

    assert refused.value.code == "value_is_subject"


def test_the_admin_timeline_reads_every_scope_of_the_tenant(acme_staff_client, acme_tenant, facts):
    """A teammate of albert's (not albert) reads Lisbon as current; the admin reads Porto (albert's private move)."""
    porto = facts("acme", "Tomasz Nowak", "lives_in", "Porto")
    assert Scope.objects.get(tenant=acme_tenant, level="user", key="albert").pk == porto.memory.scope_id

    assert as_member(acme_tenant, "bea", tomasz(), "lives_in") == [("Lisbon", date(2025, 2, 3), None, True)]
    html = acme_staff_client.get(f"{ENTITIES}{tomasz().pk}/change/").content.decode()
    assert timeline_rows(html)[0] == (porto.pk, "current")
