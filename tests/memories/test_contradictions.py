"""The contradiction review queue: the selector of open pairs, the resolve service (keep one, keep both), and the
admin page for each role, each inside its tenant."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group, User
from django.utils import timezone

from memories.curation.models import AdminLogTenant
from memories.models import Memory, Scope, TenantStaff
from memories.roles import AUDITOR, CURATOR, TENANT_ADMIN
from memories.selectors.contradictions import contradiction_open_count, contradiction_pairs_open
from memories.services.contradictions import contradiction_resolve
from memories.services.memory import Author, memory_create
from orgmemory.errors import Conflict, NotFound, ValidationFailed

pytestmark = pytest.mark.django_db

ADMIN = Author(kind="admin", label="admin:test")


def write(tenant, content: str, tag: str = "team:platform") -> Memory:
    level, key = tag.split(":")
    scope = Scope.objects.get(tenant=tenant, level=level, key=key)
    return memory_create(tenant=tenant, author=ADMIN, content=content, scope=scope).memory


def staff(username: str, role: str, *tenants) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True)
    for tenant in tenants:
        TenantStaff.objects.create(tenant=tenant, user=user)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def pair(acme):
    """(older, newer): the newer memory carries a possible_contradiction warning about the older one."""
    older = write(acme, "We deploy on Fridays.")
    newer = write(acme, "We no longer deploy on Fridays.")
    assert [w["code"] for w in newer.warnings] == ["possible_contradiction"]
    return older, newer


@pytest.fixture
def globex_pair(globex):
    older = write(globex, "Globex ships releases on Mondays.")
    newer = write(globex, "Globex never ships releases on Mondays.")
    assert [w["code"] for w in newer.warnings] == ["possible_contradiction"]
    return older, newer


def queue_url(tenant) -> str:
    return f"/admin/contradictions/{tenant.pk}/"


# --- selector ------------------------------------------------------------------------------------------------------


def test_open_pairs_list_both_sides_of_the_tenant_only(acme, pair, globex_pair):
    older, newer = pair

    pairs = contradiction_pairs_open(tenant=acme)

    assert [(p.memory.pk, p.other.pk) for p in pairs] == [(newer.pk, older.pk)]
    assert pairs[0].memory.content_head == "We no longer deploy on Fridays."
    assert pairs[0].other.content_head == "We deploy on Fridays."
    assert contradiction_open_count(tenant=acme) == 1


def test_a_pair_with_a_superseded_or_expired_side_is_not_open(acme, pair):
    older, newer = pair
    replacement = write(acme, "Deploy windows are agreed with the release manager each week.")
    Memory.objects.filter(pk=older.pk).update(superseded_by=replacement, superseded_at=timezone.now())

    assert contradiction_pairs_open(tenant=acme) == []
    assert contradiction_open_count(tenant=acme) == 0

    Memory.objects.filter(pk=older.pk).update(superseded_by=None, superseded_at=None)
    Memory.objects.filter(pk=newer.pk).update(expires_at=timezone.now() - timedelta(days=1))
    assert contradiction_open_count(tenant=acme) == 0


# --- service -------------------------------------------------------------------------------------------------------


def test_keep_both_dismisses_the_warning_and_records_who_and_when(acme, pair):
    older, newer = pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    resolution = contradiction_resolve(
        tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_both", user=admin
    )

    newer.refresh_from_db()
    older.refresh_from_db()
    assert resolution.superseded is None
    assert resolution.kept == (newer.pk, older.pk)
    assert newer.is_live and older.is_live
    recorded = newer.warnings[0]["resolution"]
    assert recorded["choice"] == "keep_both"
    assert recorded["kept"] == [newer.pk, older.pk]
    assert recorded["by"] == "acme-admin"
    assert recorded["at"]
    assert contradiction_open_count(tenant=acme) == 0
    entries = LogEntry.objects.filter(user=admin, action_flag=CHANGE).order_by("object_id")
    assert sorted(int(e.object_id) for e in entries) == sorted([older.pk, newer.pk])
    assert {e.change_message for e in entries} == {
        f"Contradiction between memory {newer.pk} and memory {older.pk} dismissed: both kept."
    }
    assert set(AdminLogTenant.objects.filter(log_entry__in=entries).values_list("tenant_id", flat=True)) == {acme.pk}


def test_keep_memory_supersedes_the_other(acme, pair):
    older, newer = pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    resolution = contradiction_resolve(
        tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_memory", user=admin
    )

    older.refresh_from_db()
    newer.refresh_from_db()
    assert resolution.superseded == older.pk
    assert older.superseded_by_id == newer.pk
    assert older.superseded_at is not None
    assert newer.is_live
    assert list(
        Memory.objects.live().filter(tenant=acme, content__contains="Fridays").values_list("pk", flat=True)
    ) == [newer.pk]
    assert newer.warnings[0]["resolution"]["kept"] == [newer.pk]
    message = LogEntry.objects.filter(object_id=str(older.pk)).get().change_message
    assert message == (
        f"Contradiction between memory {newer.pk} and memory {older.pk} resolved: kept memory {newer.pk}, "
        f"memory {older.pk} superseded by it."
    )
    assert "Fridays" not in message  # ids only: the log outlives an erasure of either author


def test_keep_other_supersedes_the_warned_memory(acme, pair):
    older, newer = pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_other", user=admin)

    older.refresh_from_db()
    newer.refresh_from_db()
    assert newer.superseded_by_id == older.pk
    assert older.is_live
    assert newer.warnings[0]["resolution"]["choice"] == "keep_other"
    assert contradiction_open_count(tenant=acme) == 0


def test_a_second_resolution_is_a_conflict_and_changes_nothing(acme, pair):
    older, newer = pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)
    contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_both", user=admin)
    before = LogEntry.objects.count()

    with pytest.raises(Conflict) as raised:
        contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice="keep_memory", user=admin)

    older.refresh_from_db()
    assert raised.value.code == "not_open"
    assert older.is_live
    assert LogEntry.objects.count() == before


def test_another_tenants_memories_are_not_found(acme, globex, pair):
    older, newer = pair
    admin = staff("globex-admin", TENANT_ADMIN, globex)

    with pytest.raises(NotFound) as raised:
        contradiction_resolve(tenant=globex, memory_id=newer.pk, other_id=older.pk, choice="keep_memory", user=admin)

    older.refresh_from_db()
    newer.refresh_from_db()
    assert raised.value.code == "memory_not_found"
    assert older.is_live and "resolution" not in newer.warnings[0]
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("choice", ["keep", "", "KEEP_BOTH", "delete"])
def test_an_unknown_choice_is_refused_and_writes_nothing(acme, pair, choice):
    older, newer = pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    with pytest.raises(ValidationFailed) as raised:
        contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice=choice, user=admin)

    newer.refresh_from_db()
    assert raised.value.code == "invalid_choice"
    assert "resolution" not in newer.warnings[0]
    assert LogEntry.objects.count() == 0


def test_a_pair_the_warning_does_not_name_is_not_open(acme, pair):
    older, newer = pair
    unrelated = write(acme, "Lunch is served at noon in the big kitchen.")
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    with pytest.raises(Conflict):
        contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=unrelated.pk, choice="keep_memory", user=admin)

    unrelated.refresh_from_db()
    assert unrelated.is_live


# --- the admin page, per role and tenant ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR, AUDITOR])
def test_the_page_lists_the_pair_side_by_side_for_every_role(client, acme, pair, role):
    older, newer = pair
    client.force_login(staff("someone", role, acme))

    response = client.get(queue_url(acme))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Contradictions</h1>" in html
    assert "We no longer deploy on Fridays." in html and "We deploy on Fridays." in html
    assert f'id="pair-{newer.pk}-{older.pk}"' in html
    assert ('value="keep_both"' in html) is (role != AUDITOR)


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR])
def test_keep_both_through_the_page(client, acme, pair, role):
    older, newer = pair
    user = staff("someone", role, acme)
    client.force_login(user)

    response = client.post(queue_url(acme), {"memory": newer.pk, "other": older.pk, "choice": "keep_both"}, follow=True)

    newer.refresh_from_db()
    assert response.status_code == 200
    assert f"Kept both memory {newer.pk} and memory {older.pk}; warning dismissed." in response.content.decode()
    assert newer.warnings[0]["resolution"]["by"] == "someone"
    assert "No open contradictions." in response.content.decode()


def test_the_auditor_cannot_resolve(client, acme, pair):
    older, newer = pair
    client.force_login(staff("auditor", AUDITOR, acme))

    response = client.post(queue_url(acme), {"memory": newer.pk, "other": older.pk, "choice": "keep_memory"})

    older.refresh_from_db()
    newer.refresh_from_db()
    assert response.status_code == 403
    assert older.is_live and "resolution" not in newer.warnings[0]


@pytest.mark.parametrize("role", [TENANT_ADMIN, CURATOR, AUDITOR])
def test_another_tenants_staff_get_404_and_see_nothing(client, acme, globex, pair, role):
    older, newer = pair
    client.force_login(staff("globex-staff", role, globex))

    page = client.get(queue_url(acme))
    post = client.post(queue_url(acme), {"memory": newer.pk, "other": older.pk, "choice": "keep_memory"})
    # acme's ids posted to the user's own tenant's queue
    own = client.post(queue_url(globex), {"memory": newer.pk, "other": older.pk, "choice": "keep_memory"})

    older.refresh_from_db()
    assert page.status_code == 404
    assert post.status_code == 404
    assert own.status_code == (404 if role != AUDITOR else 403)
    assert "Fridays" not in page.content.decode()
    assert older.is_live
    assert LogEntry.objects.count() == 0


def test_own_queue_shows_only_the_own_tenants_pairs(client, acme, globex, pair, globex_pair):
    client.force_login(staff("globex-admin", TENANT_ADMIN, globex))

    html = client.get(queue_url(globex)).content.decode()

    assert "Globex never ships releases on Mondays." in html
    assert "Fridays" not in html


def test_a_bad_post_is_a_message_and_writes_nothing(client, acme, pair):
    older, newer = pair
    client.force_login(staff("acme-admin", TENANT_ADMIN, acme))

    response = client.post(queue_url(acme), {"memory": "x", "other": older.pk, "choice": "keep_both"}, follow=True)

    newer.refresh_from_db()
    assert response.status_code == 200
    assert "Nothing was resolved: the request did not name a pair and a choice." in response.content.decode()
    assert "resolution" not in newer.warnings[0]


def test_staff_without_a_role_cannot_open_the_queue(client, acme, pair):
    user = User.objects.create_user("no-role", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    client.force_login(user)

    assert client.get(queue_url(acme)).status_code == 403


def test_the_queue_needs_a_signed_in_staff_user(client, acme, pair):
    response = client.get(queue_url(acme))

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_pair_across_tenants_is_not_found(acme, globex, pair, globex_pair):
    older, newer = pair
    globex_older, _ = globex_pair
    admin = staff("acme-admin", TENANT_ADMIN, acme)

    with pytest.raises(NotFound):
        contradiction_resolve(
            tenant=acme, memory_id=newer.pk, other_id=globex_older.pk, choice="keep_memory", user=admin
        )

    globex_older.refresh_from_db()
    assert globex_older.is_live
    assert LogEntry.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_admins_resolving_at_once_get_one_resolution_and_one_conflict(acme):
    import threading

    from django.db import connection

    older, newer = write(acme, "We deploy on Fridays."), write(acme, "We no longer deploy on Fridays.")
    admins = [staff("first", TENANT_ADMIN, acme), staff("second", TENANT_ADMIN, acme)]
    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def resolve(user, choice):
        try:
            start.wait()
            contradiction_resolve(tenant=acme, memory_id=newer.pk, other_id=older.pk, choice=choice, user=user)
            outcomes[user.username] = "resolved"
        except Conflict as exc:
            outcomes[user.username] = exc.code
        finally:
            connection.close()

    threads = [
        threading.Thread(target=resolve, args=(admins[0], "keep_memory")),
        threading.Thread(target=resolve, args=(admins[1], "keep_other")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(outcomes.values()) == ["not_open", "resolved"]
    older.refresh_from_db()
    newer.refresh_from_db()
    assert [older.is_live, newer.is_live].count(True) == 1  # exactly one of the two choices happened
    winner = next(name for name, outcome in outcomes.items() if outcome == "resolved")
    assert newer.warnings[0]["resolution"]["by"] == winner
