"""POST/GET /memories, GET/PATCH/DELETE /memories/{id}, POST /memories/delete-by-query: the contract, and
tenant and scope isolation."""

from __future__ import annotations

import pytest

from memories.models import IndexState, Member, Memory, MemoryKind, Policy
from tests.api.conftest import ALBERT_VISIBLE, error_of
from tests.conftest import remember

pytestmark = pytest.mark.django_db

MEMORIES = "/api/v1/memories"
DELETE_BY_QUERY = "/api/v1/memories/delete-by-query"


def detail(memory_id: int) -> str:
    return f"{MEMORIES}/{memory_id}"


def distinct_text(index: int) -> str:
    """Texts that share no words, so dedup never merges them."""
    return " ".join(f"w{index}x{position}" for position in range(6)) + "."


class TestCreate:
    def test_one_memory_defaults_to_the_users_own_scope(self, acme, api):
        response = api.post(MEMORIES, {"user_id": "albert", "content": "I prefer Python examples."})

        assert response.status_code == 201
        body = response.json()
        memory = Memory.objects.get()
        assert body == {
            "id": memory.pk,
            "scope": {"level": "user", "key": "albert", "tag": "user:albert"},
            "project": None,
            "kind": "fact",
            "created_at": memory.created_at.isoformat().replace("+00:00", "Z"),
            "created": True,
            "deduplicated": False,
            "supersedes": None,
            "warnings": [],
            "status": "active",
        }
        assert memory.author == "albert"
        assert memory.author_member.user_id == "albert"

    @pytest.mark.parametrize("scope", ["team:platform", {"level": "team", "key": "platform"}])
    def test_scope_as_tag_or_object(self, acme, api, scope):
        response = api.post(
            MEMORIES,
            {
                "user_id": "albert",
                "content": "Platform deploys with Argo.",
                "scope": scope,
                "kind": "policy",
                "title": "Deploys",
                "metadata": {"source": "wiki"},
                "app_name": "bot",
                "session_id": "s1",
                "event_id": "e1",
            },
        )

        assert response.status_code == 201
        assert response.json()["scope"] == {"level": "team", "key": "platform", "tag": "team:platform"}
        memory = Memory.objects.get()
        assert (memory.kind, memory.title, memory.metadata) == ("policy", "Deploys", {"source": "wiki"})
        assert (memory.source_app, memory.source_session, memory.source_event_id) == ("bot", "s1", "e1")

    def test_exact_duplicate_is_200_with_the_same_id(self, acme, api):
        first = api.post(MEMORIES, {"user_id": "albert", "content": "On-call rotates weekly."})
        second = api.post(MEMORIES, {"user_id": "albert", "content": "on-call   rotates WEEKLY."})

        assert (first.status_code, second.status_code) == (201, 200)
        assert second.json()["id"] == first.json()["id"]
        assert second.json()["deduplicated"] is True
        assert Memory.objects.count() == 1

    def test_near_duplicate_supersedes(self, acme, api):
        old = api.post(MEMORIES, {"user_id": "albert", "content": "The staging database is pg-stg-1 in Frankfurt."})
        new = api.post(MEMORIES, {"user_id": "albert", "content": "The staging database is pg-stg-2 in Frankfurt."})

        assert new.status_code == 201
        assert new.json()["supersedes"] == old.json()["id"]

    def test_contradiction_warning(self, acme, api):
        api.post(MEMORIES, {"user_id": "albert", "content": "Acme uses Jenkins for builds."})
        response = api.post(MEMORIES, {"user_id": "albert", "content": "Acme no longer uses Jenkins for builds."})

        assert response.status_code == 201
        assert [warning["code"] for warning in response.json()["warnings"]] == ["possible_contradiction"]

    @pytest.mark.parametrize(
        ("body", "status", "code"),
        [
            ({"content": "no user"}, 400, "validation_error"),
            ({"user_id": "albert"}, 400, "validation_error"),
            ({"user_id": "albert", "content": "   "}, 400, "validation_error"),
            ({"user_id": "albert", "content": "x", "kind": "rumour"}, 400, "validation_error"),
            ({"user_id": "albert", "content": "x", "metadata": [1, 2]}, 400, "validation_error"),
            ({"user_id": "albert", "content": "x", "scope": "platform"}, 400, "invalid_scope"),
            ({"user_id": "albert", "content": "x", "scope": {"level": "team"}}, 400, "validation_error"),
            ({"user_id": "albert", "content": "x", "scope": 7}, 400, "validation_error"),
            ({"user_id": "bad id!", "content": "x"}, 400, "validation_error"),
            ({"user_id": "nobody", "content": "x"}, 404, "unknown_user"),
            ({"user_id": "albert", "content": "x", "scope": "team:nowhere"}, 404, "unknown_scope"),
            ({"user_id": "albert", "content": "x", "scope": "team:sales"}, 403, "scope_not_on_chain"),
            ({"user_id": "albert", "content": "x", "scope": "user:bea"}, 403, "scope_not_on_chain"),
            ({"user_id": "albert", "content": "x", "scope": "org:acme"}, 403, "level_not_writable"),
            ({"user_id": "albert", "content": "x" * (32 * 1024 + 1)}, 413, "content_too_large"),
        ],
    )
    def test_refusals(self, acme, api, body, status, code):
        response = api.post(MEMORIES, body)

        assert response.status_code == status
        assert error_of(response)["code"] == code
        assert Memory.objects.count() == 0

    def test_validation_details_name_the_field(self, acme, api):
        response = api.post(MEMORIES, {"content": "no user"})

        assert error_of(response) == {
            "code": "validation_error",
            "message": "user_id: This field is required.",
            "details": {"user_id": ["This field is required."]},
        }

    def test_body_must_be_an_object(self, acme, api):
        response = api.post(MEMORIES, ["not", "an", "object"])

        assert response.status_code == 400
        assert error_of(response)["code"] == "validation_error"

    def test_unknown_user_is_provisioned_when_policy_allows(self, acme, api):
        Policy.objects.filter(tenant=acme, scope__isnull=True).update(auto_provision_users=True)

        response = api.post(MEMORIES, {"user_id": "newcomer", "content": "Hello."})

        assert response.status_code == 201
        assert response.json()["scope"]["tag"] == "user:newcomer"
        assert Member.objects.get(tenant=acme, user_id="newcomer").scope.parent.tag == "org:acme"

    def test_another_tenants_scope_is_unknown(self, acme, globex, globex_api):
        response = globex_api.post(MEMORIES, {"user_id": "albert", "content": "x", "scope": "division:eu"})

        assert response.status_code == 404
        assert error_of(response)["code"] == "unknown_scope"

    def test_event_id_of_another_users_memory_is_a_miss(self, acme, api):
        bea = api.post(MEMORIES, {"user_id": "bea", "content": "Bea's note.", "session_id": "s", "event_id": "e"})

        response = api.post(MEMORIES, {"user_id": "albert", "content": "Other.", "session_id": "s", "event_id": "e"})

        assert response.status_code == 201  # issue 24: a 409 told albert that the id was used by someone
        assert response.json()["id"] != bea.json()["id"] and response.json()["scope"]["tag"] == "user:albert"


class TestBatch:
    def test_batch_is_201_with_one_entry_per_item(self, acme, api):
        response = api.post(
            MEMORIES,
            {
                "user_id": "albert",
                "memories": [
                    {"content": "I prefer Python examples.", "kind": "preference"},
                    {"content": "On-call rotates weekly.", "scope": "team:platform"},
                ],
            },
        )

        assert response.status_code == 201
        body = response.json()
        assert (body["created"], body["deduplicated"]) == (2, 0)
        assert [item["scope"]["tag"] for item in body["memories"]] == ["user:albert", "team:platform"]
        assert [item["kind"] for item in body["memories"]] == ["preference", "fact"]

    def test_resending_a_batch_is_200_and_stores_nothing(self, acme, api):
        batch = {"memories": [{"user_id": "albert", "content": distinct_text(i)} for i in range(3)]}
        first = api.post(MEMORIES, batch)

        second = api.post(MEMORIES, batch)

        assert (first.status_code, second.status_code) == (201, 200)
        assert second.json()["deduplicated"] == 3
        assert [item["id"] for item in second.json()["memories"]] == [item["id"] for item in first.json()["memories"]]
        assert Memory.objects.count() == 3

    def test_batch_of_100_is_accepted_and_101_refused(self, acme, api):
        items = [{"content": distinct_text(i)} for i in range(101)]

        refused = api.post(MEMORIES, {"user_id": "albert", "memories": items})
        accepted = api.post(MEMORIES, {"user_id": "albert", "memories": items[:100]})

        assert refused.status_code == 400
        error = error_of(refused)
        assert error["code"] == "validation_error"
        assert error["details"] == {"memories": ["Ensure this field has no more than 100 elements."]}
        assert accepted.status_code == 201
        assert accepted.json()["created"] == 100

    def test_empty_batch_is_400(self, acme, api):
        response = api.post(MEMORIES, {"user_id": "albert", "memories": []})

        assert response.status_code == 400
        assert "memories" in error_of(response)["details"]

    def test_a_bad_item_fails_the_whole_batch_naming_its_index(self, acme, api):
        response = api.post(
            MEMORIES,
            {"user_id": "albert", "memories": [{"content": "fine"}, {"content": "fine too", "kind": "rumour"}]},
        )

        assert response.status_code == 400
        refused = f'"rumour" is not a valid choice; one of: {", ".join(MemoryKind.values)}.'
        assert error_of(response) == {
            "code": "validation_error",
            "message": f"memories[1].kind: {refused}",
            "details": {"memories": {"1": {"kind": [refused]}}},
        }
        assert Memory.objects.count() == 0

    def test_a_refused_item_rolls_back_the_batch(self, acme, api):
        response = api.post(
            MEMORIES, {"user_id": "albert", "memories": [{"content": "fine"}, {"content": "x", "scope": "team:sales"}]}
        )

        assert response.status_code == 403
        assert Memory.objects.count() == 0

    def test_one_user_per_batch(self, acme, api):
        response = api.post(
            MEMORIES, {"memories": [{"user_id": "albert", "content": "a"}, {"user_id": "bea", "content": "b"}]}
        )

        assert response.status_code == 400
        assert error_of(response)["code"] == "mixed_users"


class TestList:
    def test_lists_exactly_what_the_user_can_see(self, acme_memories, api):
        response = api.get(MEMORIES, {"user_id": "albert"})

        assert response.status_code == 200
        tags = {item["scope"]["tag"] for item in response.json()["results"]}
        ids = {item["id"] for item in response.json()["results"]}
        assert tags == ALBERT_VISIBLE
        assert ids == {acme_memories[tag].pk for tag in ALBERT_VISIBLE}

    def test_sibling_team_and_other_division_see_their_own_chain(self, acme_memories, api):
        dora = {item["scope"]["tag"] for item in api.get(MEMORIES, {"user_id": "dora"}).json()["results"]}
        carlos = {item["scope"]["tag"] for item in api.get(MEMORIES, {"user_id": "carlos"}).json()["results"]}

        assert dora == {"team:data", "division:eu", "org:acme"}
        assert carlos == {"team:sales", "org:acme"}

    def test_another_tenant_with_the_same_user_id_sees_only_its_own(self, acme_memories, globex_api):
        response = globex_api.get(MEMORIES, {"user_id": "albert"})

        ids = {item["id"] for item in response.json()["results"]}
        assert ids == {acme_memories["globex:user:albert"].pk, acme_memories["globex:team:platform"].pk}

    def test_result_fields(self, acme, api):
        memory = remember(acme, "Deploys use Argo.", user="albert", title="Deploys", metadata={"a": 1})

        item = api.get(MEMORIES, {"user_id": "albert"}).json()["results"][0]

        assert item == {
            "id": memory.pk,
            "scope": {"level": "user", "key": "albert", "tag": "user:albert"},
            "project": None,
            "kind": "fact",
            "title": "Deploys",
            "content": "Deploys use Argo.",
            "author": "albert",
            "metadata": {"a": 1},
            "app_name": "",
            "session_id": "",
            "event_id": "",
            "index_state": "pending",
            "valid_from": None,
            "valid_until": None,
            "reference_time": None,
            "event_dates": [],
            "superseded_at": None,
            "status": "active",
            "created_at": memory.created_at.isoformat().replace("+00:00", "Z"),
            "updated_at": item["updated_at"],
        }

    def test_filters(self, acme_memories, acme, api):
        remember(acme, "Albert likes dark mode.", user="albert", kind="preference")

        by_scope = api.get(MEMORIES, {"user_id": "albert", "scope": "team:platform"}).json()["results"]
        by_kind = api.get(MEMORIES, {"user_id": "albert", "kind": "preference"}).json()["results"]
        by_text = api.get(MEMORIES, {"user_id": "albert", "q": "deploys argo"}).json()["results"]
        hidden = api.get(MEMORIES, {"user_id": "albert", "q": "airflow"}).json()["results"]

        assert [item["id"] for item in by_scope] == [acme_memories["team:platform"].pk]
        assert [item["content"] for item in by_kind] == ["Albert likes dark mode."]
        assert [item["id"] for item in by_text] == [acme_memories["team:platform"].pk]
        assert hidden == []

    @pytest.mark.parametrize(
        ("params", "status", "code"),
        [
            ({}, 400, "validation_error"),
            ({"user_id": "nobody"}, 404, "unknown_user"),
            ({"user_id": "albert", "scope": "team:data"}, 400, "scope_not_on_chain"),
            ({"user_id": "albert", "scope": "team:nowhere"}, 404, "unknown_scope"),
            ({"user_id": "albert", "kind": "rumour"}, 400, "validation_error"),
            ({"user_id": "albert", "cursor": "garbage"}, 400, "invalid_cursor"),
        ],
    )
    def test_refusals(self, acme, api, params, status, code):
        response = api.get(MEMORIES, params)

        assert response.status_code == status
        assert error_of(response)["code"] == code

    @pytest.mark.parametrize("q", ["((((", "a" * 1000, "'; DROP TABLE x; --", "-", '"unterminated', "a | b & !c <-> d"])
    def test_hostile_full_text_queries_are_harmless(self, acme_memories, api, q):
        response = api.get(MEMORIES, {"user_id": "albert", "q": q})

        assert response.status_code == 200

    def test_superseded_memories_are_not_listed(self, acme, api):
        old = remember(acme, "The staging database is pg-stg-1 in Frankfurt.", user="albert")
        new = remember(acme, "The staging database is pg-stg-2 in Frankfurt.", user="albert")

        ids = [item["id"] for item in api.get(MEMORIES, {"user_id": "albert"}).json()["results"]]

        assert ids == [new.pk]
        assert old.pk not in ids

    def test_cursor_pagination_walks_every_memory_once_newest_first(self, acme, api):
        written = [remember(acme, distinct_text(i), user="albert").pk for i in range(25)]

        pages, url, params = [], MEMORIES, {"user_id": "albert", "page_size": 10}
        while url:
            body = api.get(url, params).json()
            pages.append([item["id"] for item in body["results"]])
            url, params = body["next"], None

        assert [len(page) for page in pages] == [10, 10, 5]
        assert [memory_id for page in pages for memory_id in page] == list(reversed(written))

    def test_list_query_count_is_constant(self, acme, api, django_assert_num_queries):
        for i in range(30):
            remember(acme, distinct_text(i), user="albert")

        api.get(MEMORIES, {"user_id": "albert"})  # the key's first use records last_used_at (once a minute)

        # key, member, chain, page
        with django_assert_num_queries(4):
            response = api.get(MEMORIES, {"user_id": "albert", "page_size": 30})

        assert len(response.json()["results"]) == 30


class TestDetail:
    def test_get_a_visible_memory(self, acme_memories, api):
        memory = acme_memories["org:acme"]

        response = api.get(detail(memory.pk), {"user_id": "albert"})

        assert response.status_code == 200
        assert response.json()["content"] == memory.content
        assert response.json()["scope"] == {"level": "org", "key": "acme", "tag": "org:acme"}

    @pytest.mark.parametrize("tag", ["user:bea", "team:data", "team:sales", "globex:user:albert"])
    def test_invisible_or_other_tenant_ids_are_404_never_403(self, acme_memories, api, tag):
        memory_id = acme_memories[tag].pk

        responses = {
            "get": api.get(detail(memory_id), {"user_id": "albert"}),
            "patch": api.patch(detail(memory_id), {"user_id": "albert", "content": "hijack"}),
            "delete": api.delete(f"{detail(memory_id)}?user_id=albert"),
        }

        assert {method: response.status_code for method, response in responses.items()} == {
            "get": 404,
            "patch": 404,
            "delete": 404,
        }
        assert {error_of(response)["code"] for response in responses.values()} == {"memory_not_found"}
        assert Memory.objects.get(pk=memory_id).content == acme_memories[tag].content

    def test_globex_key_never_reaches_acme_memories(self, acme_memories, globex_api):
        for tag in ALBERT_VISIBLE:
            response = globex_api.get(detail(acme_memories[tag].pk), {"user_id": "albert"})
            assert response.status_code == 404

    def test_unknown_id_is_404(self, acme, api):
        response = api.get(detail(999_999_999), {"user_id": "albert"})

        assert response.status_code == 404
        assert error_of(response)["code"] == "memory_not_found"

    def test_user_id_is_required_and_the_error_says_why(self, acme_memories, api):
        response = api.get(detail(acme_memories["user:albert"].pk))

        assert response.status_code == 400
        error = error_of(response)
        assert error["details"] == {"user_id": ["This field is required."]}
        assert error["message"] == (
            "user_id is required: the member the agent acts for: their scope chain decides which memories this key "
            "may read or change (a tenant-wide key with the admin permission may leave it out to read any memory "
            "of its tenant)"
        )

    @pytest.mark.parametrize("tag", ["user:bea", "team:data", "division:eu", "org:acme"])
    def test_a_tenant_wide_admin_key_reads_any_memory_of_its_tenant_without_user_id(
        self, acme_memories, make_client, acme, tag
    ):
        admin = make_client(acme, permissions=("read", "admin"))

        response = admin.get(detail(acme_memories[tag].pk))

        assert response.status_code == 200, response.json()
        assert (response.json()["id"], response.json()["content"]) == (
            acme_memories[tag].pk,
            acme_memories[tag].content,
        )

    @pytest.mark.parametrize("tag", ["globex:user:albert", "globex:team:platform"])
    def test_an_admin_key_without_user_id_gets_404_for_another_tenants_id(self, acme_memories, make_client, acme, tag):
        admin = make_client(acme, permissions=("read", "write", "delete", "admin"))

        response = admin.get(detail(acme_memories[tag].pk))

        assert response.status_code == 404
        assert error_of(response)["code"] == "memory_not_found"

    def test_an_admin_key_without_user_id_does_not_see_superseded_history(self, acme, make_client):
        old = remember(acme, "The platform team deploys on Fridays.", scope="team:platform")
        new = remember(acme, "The platform team deploys on Tuesdays.", scope="team:platform")
        Memory.objects.filter(pk=old.pk).update(superseded_by=new)
        admin = make_client(acme, permissions=("read", "admin"))

        assert admin.get(detail(old.pk)).status_code == 404
        assert admin.get(detail(new.pk)).status_code == 200

    @pytest.mark.parametrize(
        ("permissions", "scope"), [(("read", "write", "delete"), None), (("read", "admin"), "team:platform")]
    )
    def test_other_keys_still_need_user_id(self, acme_memories, make_client, acme, permissions, scope):
        key = make_client(acme, permissions=permissions, scope=scope)

        response = key.get(detail(acme_memories["team:platform"].pk))

        assert response.status_code == 400
        assert error_of(response)["message"].startswith("user_id is required: the member the agent acts for")

    def test_an_admin_key_reading_as_a_member_still_sees_only_their_chain(self, acme_memories, make_client, acme):
        admin = make_client(acme, permissions=("read", "admin"))

        response = admin.get(detail(acme_memories["user:bea"].pk), {"user_id": "albert"})

        assert response.status_code == 404

    def test_patch_updates_and_reindexes(self, acme_memories, api):
        memory = acme_memories["team:platform"]
        Memory.objects.filter(pk=memory.pk).update(index_state=IndexState.READY)

        response = api.patch(
            detail(memory.pk),
            {"user_id": "albert", "content": "Platform deploys with Flux now.", "title": "Deploys", "kind": "policy"},
        )

        assert response.status_code == 200
        assert (response.json()["content"], response.json()["title"], response.json()["kind"]) == (
            "Platform deploys with Flux now.",
            "Deploys",
            "policy",
        )
        memory.refresh_from_db()
        assert memory.content == "Platform deploys with Flux now."
        assert memory.index_state == IndexState.PENDING

    def test_patch_takes_user_id_from_the_query_string_too(self, acme_memories, api):
        memory = acme_memories["user:albert"]

        response = api.patch(f"{detail(memory.pk)}?user_id=albert", {"metadata": {"pinned": True}})

        assert response.status_code == 200
        assert response.json()["metadata"] == {"pinned": True}

    @pytest.mark.parametrize(
        ("body", "status", "code"),
        [
            ({"user_id": "albert"}, 400, "validation_error"),
            ({"user_id": "albert", "content": ""}, 400, "validation_error"),
            ({"user_id": "albert", "kind": "rumour"}, 400, "validation_error"),
            ({"user_id": "albert", "content": "x" * 40_000}, 413, "content_too_large"),
        ],
    )
    def test_patch_refusals(self, acme_memories, api, body, status, code):
        response = api.patch(detail(acme_memories["user:albert"].pk), body)

        assert response.status_code == status
        assert error_of(response)["code"] == code

    def test_patch_at_a_level_agents_may_not_write_is_403(self, acme_memories, api):
        response = api.patch(detail(acme_memories["org:acme"].pk), {"user_id": "albert", "content": "Rewritten."})

        assert response.status_code == 403
        assert error_of(response)["code"] == "level_not_writable"

    def test_delete_own_and_team_memories(self, acme_memories, api):
        own, team = acme_memories["user:albert"], acme_memories["team:platform"]

        first = api.delete(f"{detail(own.pk)}?user_id=albert")
        second = api.delete(f"{detail(team.pk)}?user_id=albert")

        assert (first.status_code, second.status_code) == (200, 200)
        assert first.json() == {"deleted": 1, "ids": [own.pk]}
        assert not Memory.objects.filter(pk__in=[own.pk, team.pk]).exists()

    def test_delete_visible_but_not_writable_is_403(self, acme_memories, api):
        memory = acme_memories["division:eu"]

        response = api.delete(f"{detail(memory.pk)}?user_id=albert")

        assert response.status_code == 403
        assert error_of(response)["code"] == "level_not_writable"
        assert Memory.objects.filter(pk=memory.pk).exists()

    def test_delete_needs_the_delete_permission(self, acme_memories, acme, make_client):
        client = make_client(acme, permissions=["read", "write"])

        response = client.delete(f"{detail(acme_memories['user:albert'].pk)}?user_id=albert")

        assert response.status_code == 403
        assert error_of(response)["code"] == "permission_missing"


class TestDeleteByQuery:
    @pytest.fixture
    def notes(self, acme):
        return {
            "dark": remember(acme, "Albert prefers dark mode in every editor.", user="albert"),
            "light": remember(acme, "Albert prefers light mode on paper.", user="albert"),
            "team": remember(acme, "The team prefers dark mode dashboards.", scope="team:platform"),
            "bea": remember(acme, "Bea prefers dark mode too.", user="bea"),
        }

    def test_deletes_only_memories_at_the_scope_containing_every_word(self, notes, api):
        response = api.post(DELETE_BY_QUERY, {"user_id": "albert", "query": "prefers dark mode"})

        assert response.status_code == 200
        assert response.json() == {
            "deleted": 1,
            "ids": [notes["dark"].pk],
            "scope": {"level": "user", "key": "albert", "tag": "user:albert"},
            "project": None,
            "dry_run": False,
        }
        assert set(Memory.objects.values_list("pk", flat=True)) == {
            notes["light"].pk,
            notes["team"].pk,
            notes["bea"].pk,
        }

    def test_team_scope_and_dry_run(self, notes, api):
        preview = api.post(
            DELETE_BY_QUERY, {"user_id": "albert", "query": "dark mode", "scope": "team:platform", "dry_run": True}
        )

        assert preview.json()["ids"] == [notes["team"].pk]
        assert preview.json()["deleted"] == 0
        assert Memory.objects.filter(pk=notes["team"].pk).exists()

    @pytest.mark.parametrize(
        ("body", "status", "code"),
        [
            ({"user_id": "albert", "query": "(((("}, 400, "empty_query"),
            ({"user_id": "albert", "query": "the and of"}, 400, "empty_query"),
            ({"user_id": "albert"}, 400, "validation_error"),
            ({"user_id": "albert", "query": "dark", "scope": "user:bea"}, 403, "scope_not_on_chain"),
            ({"user_id": "albert", "query": "dark", "scope": "org:acme"}, 403, "level_not_writable"),
            ({"user_id": "nobody", "query": "dark"}, 404, "unknown_user"),
        ],
    )
    def test_refusals_delete_nothing(self, notes, api, body, status, code):
        response = api.post(DELETE_BY_QUERY, body)

        assert response.status_code == status
        assert error_of(response)["code"] == code
        assert Memory.objects.count() == 4

    def test_negation_syntax_cannot_widen_the_match(self, notes, api):
        response = api.post(DELETE_BY_QUERY, {"user_id": "albert", "query": "-nothing"})

        assert response.json()["ids"] == []
        assert Memory.objects.count() == 4

    def test_another_tenant_cannot_touch_them(self, notes, globex_api):
        response = globex_api.post(DELETE_BY_QUERY, {"user_id": "albert", "query": "dark mode"})

        assert response.status_code == 200
        assert response.json()["deleted"] == 0
        assert Memory.objects.count() == 4


class TestEnumErrorsListTheAcceptedValues:
    KINDS = ", ".join(MemoryKind.values)  # fact, policy, preference, event, note

    def test_write(self, acme, api):
        response = api.post(MEMORIES, {"user_id": "albert", "content": "x", "kind": "rumour"})

        assert response.status_code == 400
        assert error_of(response) == {
            "code": "validation_error",
            "message": f'kind: "rumour" is not a valid choice; one of: {self.KINDS}.',
            "details": {"kind": [f'"rumour" is not a valid choice; one of: {self.KINDS}.']},
        }
        assert Memory.objects.count() == 0

    def test_list_filter(self, acme, api):
        response = api.get(MEMORIES, {"user_id": "albert", "kind": "Fact"})

        assert response.status_code == 400
        assert error_of(response)["message"] == f'kind: "Fact" is not a valid choice; one of: {self.KINDS}.'

    def test_patch(self, acme_memories, api):
        memory = acme_memories["user:albert"]

        response = api.patch(detail(memory.pk), {"user_id": "albert", "kind": "gossip"})

        assert response.status_code == 400
        assert error_of(response)["message"] == f'kind: "gossip" is not a valid choice; one of: {self.KINDS}.'
        assert Memory.objects.get(pk=memory.pk).kind == memory.kind

    def test_search_kinds_name_the_item(self, acme, api):
        response = api.post(
            "/api/v1/search", {"user_id": "albert", "query": "deploys", "kinds": ["fact", "rumor"]}, format="json"
        )

        assert response.status_code == 400
        assert error_of(response)["details"] == {
            "kinds": {"1": [f'"rumor" is not a valid choice; one of: {self.KINDS}.']}
        }

    def test_other_errors_of_the_same_field_are_left_as_they_are(self, acme, api):
        response = api.post(MEMORIES, {"user_id": "albert", "content": "x", "kind": None}, format="json")

        assert response.status_code == 400
        assert error_of(response)["message"] == "kind: This field may not be null."
