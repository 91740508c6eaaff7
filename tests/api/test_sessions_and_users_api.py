"""POST /sessions, DELETE /sessions/{id}, DELETE /users/{user_id} (GDPR erasure)."""

from __future__ import annotations

import pytest

from graph.models import Entity, EntityLink
from memories.models import ApiKey, Member, Memory, Scope
from tests.api.conftest import error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

SESSIONS = "/api/v1/sessions"


def session(events, *, user_id="albert", session_id="sess-1", app_name="support-bot"):
    return {"app_name": app_name, "user_id": user_id, "session_id": session_id, "events": events}


EVENTS = [
    {"id": "e1", "author": "user", "timestamp": 1746178200.0, "text": "Our staging database is pg-stg-2."},
    {"id": "e2", "author": "support-bot", "timestamp": 1746178201.5, "text": "Noted: staging runs on pg-stg-2 today."},
    {"id": "e3", "author": "support-bot", "timestamp": 1746178202.0, "text": "   "},
    {"id": "e4", "author": "tool", "timestamp": 1746178203.0},
]


class TestSessionIngest:
    def test_events_with_text_become_event_memories_at_the_users_scope(self, acme, api):
        response = api.post(SESSIONS, session(EVENTS))

        assert response.status_code == 201
        memories = list(Memory.objects.order_by("id"))
        assert response.json() == {
            "session_id": "sess-1",
            "created": 2,
            "skipped": 2,
            "memory_ids": [memory.pk for memory in memories],
        }
        assert [(m.kind, m.scope.tag, m.source_app, m.source_session, m.source_event_id) for m in memories] == [
            ("event", "user:albert", "support-bot", "sess-1", "e1"),
            ("event", "user:albert", "support-bot", "sess-1", "e2"),
        ]
        assert [m.metadata for m in memories] == [
            {"author": "user", "timestamp": 1746178200.0},
            {"author": "support-bot", "timestamp": 1746178201.5},
        ]

    def test_a_turn_that_repeats_an_earlier_turn_naming_another_day_keeps_both(self, acme, api):
        """A later turn that shares most of an earlier turn's words but names another day ("On 23 June. …" after
        "Next Sunday. …") tells of another event: it neither supersedes it (its date would be lost to search) nor is
        flagged as a contradiction for the curation inbox."""
        said = "Next Sunday. I've put it in the calendar twice, the ceremony starts at ten."
        later = "On 23 June. I've put it in the calendar twice, the ceremony starts at ten."
        api.post(SESSIONS, session([{"id": "e1", "author": "user", "timestamp": 1746178200.0, "text": said}]))

        response = api.post(
            SESSIONS,
            session([{"id": "e1", "author": "user", "timestamp": 1748770200.0, "text": later}], session_id="sess-2"),
        )

        assert response.status_code == 201
        turns = list(Memory.objects.order_by("id"))
        assert [(m.content, m.superseded_by_id, m.warnings) for m in turns] == [(said, None, []), (later, None, [])]
        listed = api.get("/api/v1/memories", {"user_id": "albert"}).json()["results"]
        assert sorted(memory["content"] for memory in listed) == sorted([said, later])

    def test_a_turn_that_repeats_an_earlier_turn_naming_no_other_day_folds_it(self, acme, api):
        first = "My neighbour has a parrot that learned to copy a ringtone, it drives everyone mad."
        second = "My cousin has a parrot that learned to copy a ringtone, it drives everyone mad."
        api.post(SESSIONS, session([{"id": "e1", "author": "user", "timestamp": 1746178200.0, "text": first}]))

        api.post(
            SESSIONS,
            session([{"id": "e1", "author": "user", "timestamp": 1748770200.0, "text": second}], session_id="sess-2"),
        )

        older, newer = Memory.objects.order_by("id")
        assert (older.content, older.superseded_by_id, newer.superseded_by_id) == (first, newer.pk, None)

    @pytest.mark.parametrize(
        ("first", "second"),
        [
            # another trip, by the same speaker
            (
                ("user", "Just back from Lisbon. Ate my body weight in pastries."),
                ("user", "Just back from Tallinn. Ate my body weight in pastries."),
            ),
            # another speaker's car: no new version of the first speaker's
            (
                ("Amara", "Traded the old hatchback in, we're driving a Fiat 500 now. The boot is enormous."),
                ("Yara", "Traded the old hatchback in, we're driving a Toyota Prius now. The boot is enormous."),
            ),
            # another number
            (
                ("user", "Ran 12 km along the canal with the running club, my legs are jelly now."),
                ("user", "Ran 21 km along the canal with the running club, my legs are jelly now."),
            ),
        ],
    )
    def test_a_turn_that_repeats_an_earlier_turn_with_other_names_or_numbers_keeps_both(self, acme, api, first, second):
        """Much the same words with another name or number is another statement (another trip, someone else's
        car): superseding the earlier turn hid it from search and from the memory list."""
        api.post(SESSIONS, session([{"id": "e1", "author": first[0], "timestamp": 1746178200.0, "text": first[1]}]))

        api.post(
            SESSIONS,
            session(
                [{"id": "e1", "author": second[0], "timestamp": 1748770200.0, "text": second[1]}], session_id="sess-2"
            ),
        )

        turns = list(Memory.objects.order_by("id"))
        assert [(m.content, m.superseded_by_id, m.warnings) for m in turns] == [
            (first[1], None, []),
            (second[1], None, []),
        ]

    def test_the_same_words_from_another_speaker_are_another_statement(self, acme, api):
        """Lena and Ravi each run a book club: Ravi's turn, word for word Lena's, is stored, listed and found —
        never folded into hers as a duplicate. The same speaker saying it again is still one statement."""
        said = "I run the Thursday book club at the library."
        api.post(SESSIONS, session([{"id": "e1", "author": "Lena", "timestamp": 1746178200.0, "text": said}]))

        other = api.post(
            SESSIONS,
            session([{"id": "e1", "author": "Ravi", "timestamp": 1748770200.0, "text": said}], session_id="sess-2"),
        )
        again = api.post(
            SESSIONS,
            session([{"id": "e1", "author": "lena ", "timestamp": 1748770300.0, "text": said}], session_id="sess-3"),
        )

        assert (other.json()["created"], again.json()["created"], again.json()["skipped"]) == (1, 0, 1)
        turns = list(Memory.objects.order_by("id"))
        assert [(m.metadata["author"], m.content, m.superseded_by_id) for m in turns] == [
            ("Lena", said, None),
            ("Ravi", said, None),
        ]
        listed = api.get("/api/v1/memories", {"user_id": "albert"}).json()["results"]
        assert sorted(memory["id"] for memory in listed) == [m.pk for m in turns]
        found = api.post(
            "/api/v1/search", {"user_id": "albert", "query": "Thursday book club", "top_k": 5}, format="json"
        ).json()["results"]
        assert sorted(row["id"] for row in found) == [m.pk for m in turns]

    def test_a_near_duplicate_from_another_speaker_supersedes_nothing(self, acme, api):
        """Much the same words from someone else never replace what the first speaker said (the same speaker's
        near-duplicate does: test above)."""
        first = "My neighbour has a parrot that learned to copy a ringtone, it drives everyone mad."
        second = "My cousin has a parrot that learned to copy a ringtone, it drives everyone mad."
        api.post(SESSIONS, session([{"id": "e1", "author": "Lena", "timestamp": 1746178200.0, "text": first}]))

        api.post(
            SESSIONS,
            session([{"id": "e1", "author": "Ravi", "timestamp": 1748770200.0, "text": second}], session_id="sess-2"),
        )

        turns = list(Memory.objects.order_by("id"))
        assert [(m.content, m.superseded_by_id, m.warnings) for m in turns] == [(first, None, []), (second, None, [])]

    def test_resending_is_idempotent_per_event_id(self, acme, api):
        api.post(SESSIONS, session(EVENTS[:2]))

        again = api.post(
            SESSIONS, session(EVENTS + [{"id": "e5", "author": "user", "text": "Deploys are on Fridays."}])
        )

        assert again.status_code == 201
        assert (again.json()["created"], again.json()["skipped"]) == (1, 4)
        assert Memory.objects.count() == 3
        nothing_new = api.post(SESSIONS, session(EVENTS[:2]))
        assert nothing_new.status_code == 200
        assert (nothing_new.json()["created"], nothing_new.json()["skipped"]) == (0, 2)

    def test_an_event_id_another_user_used_in_the_session_is_a_miss(self, acme, api):
        api.post(SESSIONS, session(EVENTS[:1], user_id="bea"))

        response = api.post(SESSIONS, session([{"id": "e1", "text": "Something else entirely."}]))

        assert response.status_code == 201  # issue 24: a 409 told the caller that someone used the id
        assert response.json()["created"] == 1

    @pytest.mark.parametrize(
        ("body", "status", "code"),
        [
            (session([{"text": "no id"}]), 400, "validation_error"),
            (session([{"id": "e1", "timestamp": "yesterday", "text": "x"}]), 400, "validation_error"),
            ({"user_id": "albert", "session_id": "s", "events": "nope"}, 400, "validation_error"),
            ({"user_id": "albert", "events": []}, 400, "validation_error"),
            (session([{"id": f"e{i}", "text": "x"} for i in range(1001)]), 400, "validation_error"),
            (session([{"id": "e1", "text": "x" * 40_000}]), 413, "content_too_large"),
            (session([{"id": "e1", "text": "x"}], user_id="nobody"), 404, "unknown_user"),
        ],
    )
    def test_refusals_store_nothing(self, acme, api, body, status, code):
        response = api.post(SESSIONS, body)

        assert response.status_code == status
        assert error_of(response)["code"] == code
        assert Memory.objects.count() == 0

    def test_a_bad_event_names_its_index(self, acme, api):
        response = api.post(SESSIONS, session([{"id": "e1", "text": "fine"}, {"text": "no id"}]))

        assert error_of(response)["details"] == {"events": {"1": {"id": ["This field is required."]}}}

    def test_an_oversized_event_rolls_back_the_session_and_names_its_index(self, acme, api):
        response = api.post(SESSIONS, session([{"id": "e1", "text": "fine"}, {"id": "e2", "text": "x" * 40_000}]))

        assert response.status_code == 413
        assert error_of(response)["details"]["index"] == 1
        assert Memory.objects.count() == 0


class TestSessionDelete:
    def test_deletes_the_users_memories_of_that_session_only(self, acme, api):
        api.post(SESSIONS, session(EVENTS))
        api.post(SESSIONS, session([{"id": "b1", "text": "Bea's own event."}], user_id="bea"))
        api.post(SESSIONS, session([{"id": "x1", "text": "Another session."}], session_id="sess-2"))

        response = api.delete(f"{SESSIONS}/sess-1?user_id=albert")

        assert response.status_code == 200
        assert response.json() == {"session_id": "sess-1", "deleted": 2}
        assert sorted(Memory.objects.values_list("source_event_id", flat=True)) == ["b1", "x1"]

    def test_another_user_or_tenant_deletes_nothing(self, acme, globex, api, globex_api):
        api.post(SESSIONS, session(EVENTS[:2]))

        by_bea = api.delete(f"{SESSIONS}/sess-1?user_id=bea")
        by_globex = globex_api.delete(f"{SESSIONS}/sess-1?user_id=albert")

        assert (by_bea.json()["deleted"], by_globex.json()["deleted"]) == (0, 0)
        assert Memory.objects.count() == 2

    def test_user_id_is_required(self, acme, api):
        response = api.delete(f"{SESSIONS}/sess-1")

        assert response.status_code == 400
        assert error_of(response)["details"] == {"user_id": ["This field is required."]}


class TestUserErasure:
    @pytest.fixture
    def admin(self, acme, make_client):
        return make_client(acme, permissions=["admin"])

    @pytest.fixture
    def written(self, acme, globex, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            return {
                "albert_private": remember(acme, "Albert Quince studied at Imperial College.", user="albert"),
                "albert_team": remember(
                    acme, "Zorbix Labs was founded by Albert Quince.", user="albert", scope="team:platform"
                ),
                "bea_team": remember(acme, "Bea Lindqvist works at Zorbix Labs.", user="bea", scope="team:platform"),
                "org": remember(acme, "Acme's fiscal year starts in February.", scope="org:acme"),
                "globex_albert": remember(globex, "Globex albert studied at Imperial College.", user="albert"),
            }

    def test_erases_the_users_memories_links_orphaned_entities_and_identity(self, acme, admin, written):
        albert_ids = [written["albert_private"].pk, written["albert_team"].pk]
        albert_links = EntityLink.objects.filter(memory_id__in=albert_ids)
        others = EntityLink.objects.filter(tenant=acme).exclude(memory_id__in=albert_ids)
        still_mentioned = set(others.values_list("subject_id", flat=True)) | set(
            others.values_list("object_id", flat=True)
        )
        linked = set(albert_links.values_list("subject_id", flat=True)) | set(
            albert_links.exclude(object=None).values_list("object_id", flat=True)
        )
        orphaned = linked - still_mentioned
        assert Entity.objects.filter(tenant=acme, name="Albert Quince", pk__in=orphaned).exists()

        link_count = albert_links.count()

        response = admin.delete("/api/v1/users/albert")

        assert response.status_code == 200
        assert response.json() == {
            "user_id": "albert",
            "memories": 2,
            "links": link_count,
            "entities": len(orphaned),
            "scopes": 1,
            "api_keys": 0,
            "policies": 0,
        }
        assert not Member.objects.filter(tenant=acme, user_id="albert").exists()
        assert not Scope.objects.filter(tenant=acme, level="user", key="albert").exists()
        assert set(Memory.objects.filter(tenant=acme).values_list("pk", flat=True)) == {
            written["bea_team"].pk,
            written["org"].pk,
        }
        assert not Entity.objects.filter(pk__in=orphaned).exists()
        assert Entity.objects.get(tenant=acme, name="Zorbix Labs").mention_count == 1  # still in bea's memory

    def test_other_tenants_namesake_is_untouched(self, acme, globex, admin, written):
        admin.delete("/api/v1/users/albert")

        assert Member.objects.filter(tenant=globex, user_id="albert").exists()
        assert Memory.objects.filter(pk=written["globex_albert"].pk).exists()
        assert Entity.objects.filter(tenant=globex, name="Imperial College").exists()

    def test_keys_bound_to_the_users_node_go_with_it(self, acme, admin, make_client):
        make_client(acme, scope=Scope.objects.get(tenant=acme, level="user", key="albert"))

        response = admin.delete("/api/v1/users/albert")

        assert response.json()["api_keys"] == 1
        assert not ApiKey.objects.filter(tenant=acme, scope__key="albert").exists()

    def test_needs_admin(self, acme, api):
        response = api.delete("/api/v1/users/albert")

        assert response.status_code == 403
        assert error_of(response)["code"] == "permission_missing"
        assert Member.objects.filter(tenant=acme, user_id="albert").exists()

    @pytest.mark.parametrize(("user_id", "status", "code"), [("nobody", 404, "unknown_user"), ("bad!id", 400, None)])
    def test_unknown_or_invalid_user(self, acme, admin, user_id, status, code):
        response = admin.delete(f"/api/v1/users/{user_id}")

        assert response.status_code == status
        if code:
            assert error_of(response)["code"] == code

    def test_a_restricted_admin_key_erases_only_inside_its_subtree(self, acme, make_client):
        data_admin = make_client(acme, permissions=["admin"], scope=Scope.objects.get(tenant=acme, key="data"))

        response = data_admin.delete("/api/v1/users/albert")

        assert response.status_code == 403
        assert error_of(response)["code"] == "scope_restricted"
        assert Member.objects.filter(tenant=acme, user_id="albert").exists()

    def test_globex_admin_cannot_erase_acme_users(self, acme, globex_api):
        response = globex_api.delete("/api/v1/users/dora")

        assert response.status_code == 404
        assert Member.objects.filter(tenant=acme, user_id="dora").exists()
