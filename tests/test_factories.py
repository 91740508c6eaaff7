"""The test factories make rows the product could make: through its services, tenants kept consistent."""

from __future__ import annotations

import pytest

from graph.models import EntityLink
from memories.models import Member, Memory, MemoryKind, Scope, TenantStaff
from memories.services import api_key_authenticate
from memories.services.memory import content_hash
from orgmemory.errors import PermissionDenied
from tests.factories import (
    ApiKeyFactory,
    EntityFactory,
    EntityLinkFactory,
    MemberFactory,
    MemoryFactory,
    ScopeFactory,
    StaffUserFactory,
    TenantFactory,
    org_tree,
    scope_of,
)

pytestmark = pytest.mark.django_db


def tags(tenant) -> list[str]:
    return sorted(scope.tag for scope in Scope.objects.filter(tenant=tenant))


def test_tenant_factory_onboards_the_default_tree():
    tenant = TenantFactory(slug="north")

    assert tenant.name == "Tenant north"
    assert tenant.levels == ["org", "division", "team", "user"]
    assert tags(tenant) == ["division:hq", "org:north", "team:core"]
    assert scope_of(tenant, "team:core").parent == scope_of(tenant, "division:hq")


def test_tenant_factory_onboards_a_given_tree_with_members_and_policies():
    tenant = TenantFactory(
        slug="south",
        tree=org_tree("south", {"eu": {"platform": ["albert", "bea"]}, "us": {"sales": ["carlos"]}}),
        policies={"auto_provision_users": True},
    )

    assert tags(tenant) == [
        "division:eu",
        "division:us",
        "org:south",
        "team:platform",
        "team:sales",
        "user:albert",
        "user:bea",
        "user:carlos",
    ]
    assert {m.user_id: m.scope.parent.tag for m in Member.objects.filter(tenant=tenant)} == {
        "albert": "team:platform",
        "bea": "team:platform",
        "carlos": "team:sales",
    }
    assert tenant.policies.get(scope=None).auto_provision_users is True


def test_scope_and_member_factories_keep_the_parents_tenant():
    team = ScopeFactory(parent=ScopeFactory(key="emea"), key="ops")
    member = MemberFactory(tenant=team.tenant, parent="team:ops", user_id="olga")

    assert (team.level, team.parent.tag, team.parent.parent.tag) == ("team", "division:emea", f"org:{team.tenant.slug}")
    assert (member.scope.tag, member.scope.parent, member.scope.tenant) == ("user:olga", team, team.tenant)
    with pytest.raises(ValueError, match="another tenant"):
        ScopeFactory(tenant=TenantFactory(), parent=team)


def test_member_factory_defaults_to_the_first_team_of_a_new_tenant():
    member = MemberFactory(user_id="una")

    assert member.scope.parent.tag == "team:core"
    assert member.tenant == member.scope.tenant


def test_api_key_factory_returns_a_key_that_authenticates():
    key = ApiKeyFactory(permissions=["read"], scope="team:core")

    assert api_key_authenticate(plain=key.plain) == key
    assert (key.permissions, key.scope.tag, key.key_hash != key.plain) == (["read"], "team:core", True)


def test_memory_factory_writes_through_the_service():
    member = MemberFactory(user_id="albert")
    tenant = member.tenant

    own, other = MemoryFactory.create_batch(2, tenant=tenant, user="albert")
    team = MemoryFactory(tenant=tenant, scope="team:core", content="The core team ships on Tuesdays.", kind="policy")
    root = MemoryFactory(tenant=tenant)

    assert (own.scope, own.author, own.author_member) == (member.scope, "albert", member)
    assert own.content_hash == content_hash(own.content) and own.dedup_bands  # derived by the write path
    assert Memory.objects.live().filter(tenant=tenant).count() == 4  # generated texts are never near-duplicates
    assert (team.scope.tag, team.kind, team.author) == ("team:core", MemoryKind.POLICY, "admin:test")
    assert root.scope.tag == f"org:{tenant.slug}"
    assert MemoryFactory(tenant=tenant, scope="team:core", content="The core team ships on Tuesdays.") == team
    with pytest.raises(PermissionDenied):  # the service's checks apply: albert may not write at the org
        MemoryFactory(tenant=tenant, user="albert", scope=f"org:{tenant.slug}")
    assert other.pk != own.pk


def test_entity_link_factory_builds_its_memory_and_entities_in_its_tenant():
    tenant = TenantFactory()
    link = EntityLinkFactory(tenant=tenant, subject=EntityFactory(tenant=tenant, name="Ada Lovelace"))

    assert {link.memory.tenant, link.subject.tenant, link.object.tenant} == {tenant}
    assert (link.subject.norm, link.subject_norm) == ("ada lovelace", "ada lovelace")
    with pytest.raises(ValueError, match="another tenant"):
        EntityLinkFactory(tenant=tenant, subject=EntityFactory())
    assert EntityLink.objects.count() == 1


def test_staff_user_factory_administers_the_tenants_given():
    tenant = TenantFactory()
    user = StaffUserFactory(tenants=[tenant])

    assert user.is_staff and not user.is_superuser
    assert list(TenantStaff.objects.filter(user=user).values_list("tenant", flat=True)) == [tenant.pk]
    assert user.check_password("pw")
