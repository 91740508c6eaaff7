"""Project sub-scopes (issue 14): a project hangs under a user or team node, exists from its first write, is seen
only by requests that name it, and never widens a write or a delete — checked at every service that takes one."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from memories.models import PROJECT_LEVEL, Member, Memory, Scope, Tenant
from memories.selectors import scope_tree_with_member_counts
from memories.services.deletion import memories_delete_by_query, memory_delete_by_member
from memories.services.erasure import user_erase
from memories.services.memory import Author, memory_create, memory_update
from memories.services.sessions import session_delete, session_ingest
from orgmemory.errors import DomainError, NotFound, PermissionDenied, ValidationFailed
from retrieval.recall import recall_block
from retrieval.services import SearchOptions, search_memories

pytestmark = pytest.mark.django_db

WORD = "quokka"  # one rare word every memory below carries, so one keyword query can see them all


def agent(tenant: Tenant, user_id: str) -> Author:
    return Author(kind="agent", member=Member.objects.select_related("scope").get(tenant=tenant, user_id=user_id))


def write(tenant, user_id, text, *, scope=None, project=None):
    return memory_create(
        tenant=tenant, author=agent(tenant, user_id), content=f"{text} ({WORD})", scope=scope, project=project
    )


def seen(tenant, user_id, *, project=None, scopes=()) -> set[str]:
    result = search_memories(
        tenant=tenant,
        user_id=user_id,
        query=WORD,
        options=SearchOptions(top_k=50, arms=("keyword",), project=project, scopes=scopes, track_access=False),
    )
    return {hit.memory.content.removesuffix(f" ({WORD})") for hit in result.hits}


@pytest.fixture
def world(acme, globex):
    """albert (team platform) and bea (platform), dora (team data); global and project memories at user and team
    level, a same-named project in another team and in another tenant."""
    write(acme, "albert", "albert global")
    write(acme, "albert", "albert alpha", project="alpha")
    write(acme, "albert", "albert beta", project="beta")
    write(acme, "albert", "platform global", scope="team:platform")
    write(acme, "bea", "platform alpha", scope="team:platform", project="alpha")
    write(acme, "bea", "bea alpha", project="alpha")
    write(acme, "dora", "data alpha", scope="team:data", project="alpha")
    write(globex, "albert", "globex albert alpha", project="alpha")
    return acme


# --- visibility ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("user_id", "project", "expected"),
    [
        ("albert", None, {"albert global", "platform global"}),
        ("albert", "alpha", {"albert global", "platform global", "albert alpha", "platform alpha"}),
        ("albert", "beta", {"albert global", "platform global", "albert beta"}),
        ("bea", None, {"platform global"}),
        ("bea", "alpha", {"platform global", "platform alpha", "bea alpha"}),
        ("dora", "alpha", {"data alpha"}),
    ],
)
def test_a_search_sees_the_chains_global_memories_plus_only_the_named_project(world, user_id, project, expected):
    assert seen(world, user_id, project=project) == expected


def test_a_project_restricted_to_one_scope_keeps_only_that_scopes_project_node(world):
    assert seen(world, "albert", project="alpha", scopes=("team:platform",)) == {"platform global", "platform alpha"}


def test_naming_a_project_the_user_does_not_have_is_a_404_and_a_malformed_name_a_400(world):
    with pytest.raises(NotFound) as missing:
        seen(world, "bea", project="beta")  # albert's beta is not on bea's chain
    assert missing.value.code == "unknown_project"
    for bad in ("has space", "x" * 129, "../up", 7):
        with pytest.raises(ValidationFailed) as malformed:
            seen(world, "albert", project=bad)
        assert malformed.value.code == "invalid_project"


def test_recall_takes_the_project_too(world):
    block = recall_block(tenant=world, user_id="albert", task=WORD, budget_chars=2000, project="beta")
    assert any("albert beta" in item.line for item in block.items)
    assert not any("alpha" in item.line for item in block.items)
    with pytest.raises(NotFound):
        recall_block(tenant=world, user_id="dora", task=WORD, budget_chars=2000, project="beta")


# --- writes --------------------------------------------------------------------------------------------------------


def test_a_project_exists_from_its_first_write_under_its_owner_node(world):
    albert = Member.objects.get(tenant=world, user_id="albert")
    projects = Scope.objects.filter(tenant=world, level=PROJECT_LEVEL)
    assert sorted((node.parent.tag, node.key) for node in projects) == [
        ("team:data", "alpha"),
        ("team:platform", "alpha"),
        ("user:albert", "alpha"),
        ("user:albert", "beta"),
        ("user:bea", "alpha"),
    ]
    again = write(world, "albert", "albert alpha two", project="alpha")
    assert again.memory.scope.parent_id == albert.scope_id
    assert projects.count() == 5  # the second write reuses the node


def test_dedup_stays_on_its_side_of_the_project_line(world):
    outside = write(world, "albert", "same words")
    inside = write(world, "albert", "same words", project="alpha")
    assert outside.created and inside.created and outside.memory.pk != inside.memory.pk
    assert write(world, "albert", "same words", project="alpha").memory.pk == inside.memory.pk


def test_a_project_hangs_only_under_a_user_or_team_node(world):
    with pytest.raises(ValidationFailed) as refused:
        memory_create(
            tenant=world, author=Author(kind="admin", label="t"), content="x", scope="division:eu", project="alpha"
        )
    assert refused.value.code == "invalid_project"
    with pytest.raises(PermissionDenied):  # a project under a team off the writer's chain
        write(world, "albert", "sneaky", scope="team:data", project="alpha")
    with pytest.raises(ValidationFailed):  # a project is named with `project`, never as a scope tag
        write(world, "albert", "tagged", scope="project:alpha")


def test_an_agent_changes_a_project_memory_only_by_naming_its_project(world):
    memory = Memory.objects.get(tenant=world, content__startswith="albert alpha")
    with pytest.raises(PermissionDenied) as refused:
        memory_update(memory=memory, author=agent(world, "albert"), content="changed quietly")
    assert refused.value.code == "project_required"
    memory_update(
        memory=memory, author=agent(world, "albert"), content=f"albert alpha edited ({WORD})", project="alpha"
    )
    assert "albert alpha edited" in seen(world, "albert", project="alpha")


# --- deletes -------------------------------------------------------------------------------------------------------


def test_a_delete_by_query_without_a_project_never_touches_project_memories(world):
    albert = Member.objects.get(tenant=world, user_id="albert")
    result = memories_delete_by_query(tenant=world, member=albert, query=WORD)
    assert len(result.ids) == 1  # "albert global" only
    assert seen(world, "albert", project="alpha") == {"platform global", "albert alpha", "platform alpha"}
    assert seen(world, "albert", project="beta") == {"platform global", "albert beta"}


def test_a_delete_by_query_with_a_project_never_widens_beyond_it(world):
    albert = Member.objects.get(tenant=world, user_id="albert")
    result = memories_delete_by_query(tenant=world, member=albert, query=WORD, project="alpha")
    assert (
        len(result.ids) == 1 and not Memory.objects.filter(pk__in=result.ids).exists()
    )  # "albert alpha" at the user's own project; the team's alpha and beta stay
    assert seen(world, "albert", project="alpha") == {"albert global", "platform global", "platform alpha"}
    assert seen(world, "albert", project="beta") == {"albert global", "platform global", "albert beta"}
    team = memories_delete_by_query(tenant=world, member=albert, query=WORD, scope="team:platform", project="alpha")
    assert len(team.ids) == 1
    assert seen(world, "bea", project="alpha") == {"platform global", "bea alpha"}
    with pytest.raises(NotFound) as missing:
        memories_delete_by_query(tenant=world, member=albert, query=WORD, project="gamma")
    assert missing.value.code == "unknown_project"


def test_a_delete_by_id_names_the_project_of_a_project_memory(world):
    albert = Member.objects.get(tenant=world, user_id="albert")
    memory = Memory.objects.get(tenant=world, content__startswith="albert beta")
    with pytest.raises(PermissionDenied) as refused:
        memory_delete_by_member(tenant=world, member=albert, memory=memory)
    assert refused.value.code == "project_required"
    with pytest.raises(NotFound):
        memory_delete_by_member(tenant=world, member=albert, memory=memory, project="alpha")
    assert memory_delete_by_member(tenant=world, member=albert, memory=memory, project="beta") == 1


def test_sessions_write_into_and_delete_from_a_project_only_when_named(world):
    author = agent(world, "albert")
    events = [{"id": "e1", "text": f"session note in alpha ({WORD})"}]
    session_ingest(tenant=world, author=author, app_name="app", session_id="s1", events=events, project="alpha")
    session_ingest(
        tenant=world, author=author, app_name="app", session_id="s1", events=[{"id": "e2", "text": f"plain ({WORD})"}]
    )
    assert "session note in alpha" in seen(world, "albert", project="alpha")
    assert "session note in alpha" not in seen(world, "albert")
    assert session_delete(tenant=world, member=author.member, session_id="s1") == 1  # the plain one
    assert "session note in alpha" in seen(world, "albert", project="alpha")
    assert session_delete(tenant=world, member=author.member, session_id="s1", project="alpha") == 1
    assert "session note in alpha" not in seen(world, "albert", project="alpha")


# --- erasure, tree, tenancy ----------------------------------------------------------------------------------------


def test_erasure_takes_the_users_projects_and_what_they_wrote_in_team_projects(world):
    write(world, "albert", "albert in the platform alpha", scope="team:platform", project="alpha")
    result = user_erase(tenant=world, user_id="albert")
    assert result.memories == 5  # global, alpha, beta, platform global, platform alpha (his)
    assert not Scope.objects.filter(tenant=world, level=PROJECT_LEVEL, parent__key="albert").exists()
    assert not Memory.objects.filter(tenant=world, content__contains="albert").exists()
    assert seen(world, "bea", project="alpha") == {"platform alpha", "bea alpha"}


def test_projects_show_in_the_tree_under_their_owner(world):
    nodes = scope_tree_with_member_counts(tenant=world)
    tags = [(node.tag, node.tree_depth) for node in nodes]
    platform = tags.index(("team:platform", 2))
    assert ("project:alpha", 3) in tags[platform:]
    platform_node = next(node for node in nodes if node.tag == "team:platform")
    assert platform_node.member_count == 2  # a project is not a member


def test_a_tenant_cannot_use_the_project_level_in_its_tree(acme):
    acme.levels = ["org", "project", "user"]
    with pytest.raises(ValidationError):
        acme.clean()
    node = Scope(tenant=acme, level=PROJECT_LEVEL, key="alpha", parent=Scope.objects.get(tenant=acme, key="eu"))
    with pytest.raises(ValidationError):
        node.full_clean()


def test_the_admin_tree_shows_projects_under_their_owner_only_to_their_tenants_admins(world, acme_staff_client):
    page = acme_staff_client.get("/admin/memories/scope/")
    assert page.status_code == 200
    html = page.content.decode()
    named = "({})".format  # each node is named with its tag: "Platform (team:platform)"
    assert html.count(named("project:alpha")) == 4  # albert's, bea's, platform's, data's — not globex albert's
    assert html.index(named("team:platform")) < html.index(named("project:alpha"))
    assert html.count(named("project:beta")) == 1


def test_a_refused_write_creates_no_project(acme):
    from memories.models import Policy
    from memories.services.memory import memory_create_batch

    Policy.objects.filter(tenant=acme, scope__isnull=True).update(max_content_bytes=100)
    projects = Scope.objects.filter(tenant=acme, level=PROJECT_LEVEL)
    with pytest.raises(ValidationFailed):  # the second item is refused: all or nothing, no project either
        memory_create_batch(
            tenant=acme,
            author=agent(acme, "albert"),
            items=[{"content": "fine", "project": "alpha"}, {"content": "", "project": "beta"}],
        )
    with pytest.raises(PermissionDenied):  # a team off albert's chain
        write(acme, "albert", "sneaky", scope="team:data", project="gamma")
    with pytest.raises(DomainError) as too_big:  # over the tenant's size limit
        write(acme, "albert", "x" * 200, project="delta")
    assert too_big.value.code == "content_too_large"
    assert not projects.exists() and not Memory.objects.filter(tenant=acme).exists()
    partial = memory_create_batch(
        tenant=acme,
        author=agent(acme, "albert"),
        items=[{"content": "kept", "project": "alpha"}, {"content": "x" * 200, "project": "alpha"}],
        partial=True,
    )
    assert [result.error is None for result in partial] == [True, False]
    assert [node.key for node in projects] == ["alpha"]
    assert Memory.objects.get(tenant=acme).scope.key == "alpha"


def test_an_hr_resync_keeps_projects_with_their_owner_nodes(world):
    """A chart says nothing of projects: a re-sync neither removes them nor their memories (team projects stay
    with the team, a member's with the member, who may move)."""
    from memories.orgchart import parse_org_chart
    from memories.services import tenant_onboard
    from tests.conftest import ACME_CHART

    moved = ACME_CHART.replace("members: [albert, bea]", "members: [bea]").replace(
        "members: [dora]", "members: [dora, albert]"
    )
    result = tenant_onboard(plan=parse_org_chart(moved), sync=True, leavers={})
    removed = [scope.tag for scope in result.diff.scopes_removed]
    assert not [tag for tag in removed if tag.startswith("project:")]
    assert Scope.objects.filter(tenant=world, level=PROJECT_LEVEL).count() == 5
    assert seen(world, "albert", project="alpha") == {"albert global", "albert alpha", "data alpha"}  # now in data
    assert seen(world, "bea", project="alpha") == {"platform global", "platform alpha", "bea alpha"}


def test_a_team_removed_by_a_resync_takes_its_projects_only_when_confirmed(world):
    from memories.orgchart import parse_org_chart
    from memories.services import tenant_onboard
    from tests.conftest import ACME_CHART

    without_data = ACME_CHART.replace(
        "          - {level: team, key: data, name: Data, members: [dora]}\n", ""
    ).replace("members: [albert, bea]", "members: [albert, bea, dora]")
    plan = parse_org_chart(without_data)
    with pytest.raises(ValidationFailed) as refused:
        tenant_onboard(plan=plan, sync=True, leavers={})
    assert "team:data › project:alpha" in refused.value.message
    assert Scope.objects.filter(tenant=world, level=PROJECT_LEVEL, parent__key="data").exists()
    result = tenant_onboard(plan=plan, sync=True, leavers={}, delete_scope_memories=True)
    assert [removal.tag for removal in result.diff.scopes_removed] == ["team:data › project:alpha", "team:data"]
    assert not Memory.objects.filter(tenant=world, content__startswith="data alpha").exists()
    assert seen(world, "dora", project="alpha") == {"platform global", "platform alpha"}


def test_a_chart_may_not_name_a_level_project():
    from memories.orgchart import OrgChartError, parse_org_chart

    with pytest.raises(OrgChartError, match="reserved for project sub-scopes"):
        parse_org_chart("tenant: {slug: x, name: X}\nlevels: [org, project, user]\ntree: [{level: org, key: x}]\n")
