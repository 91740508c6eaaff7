"""factory_boy factories for the test suite: tenants and their trees, members, users, API keys, memories, the graph.

Each factory makes its rows the way the product does, so a test never holds a row the product could not have:

- through the real service where one exists and the row has derived state: tenants and trees (``tenant_onboard``
  over an org chart), API keys (``api_key_create``: prefix, hash, the plain key shown once), memories
  (``memory_create``: content hash, dedup bands, search vector, policy checks, history, indexing on commit);
- on the model, after ``full_clean()``, where the product itself saves the model directly and nothing is derived:
  single tree nodes and members (as onboarding and provisioning do), users and tenant staff, and graph rows (which
  the product only makes by link extraction: a factory-made graph is a known graph, independent of the extractor).

Related objects share one tenant: a node's tenant is its parent's, a member's is its node's, a link's memory and
entities are made in the link's tenant. Names and keys come from sequences, so a factory call never collides with
an earlier one in the same test (``acme``/``globex`` of ``tests/conftest.py`` use fixed names; these do not).

Django is imported at module level here: import this module from test modules that need the database only.
"""

from __future__ import annotations

import json
from typing import Any

import factory
from django.contrib.auth.models import Group, User

from graph.extraction.normalize import normalize_entity_name
from graph.models import Entity, EntityAlias, EntityKind, EntityLink
from memories.models import ApiKey, Member, Memory, MemoryKind, Scope, Tenant, TenantStaff
from memories.orgchart import parse_org_chart
from memories.services import api_key_create, tenant_onboard
from memories.services.memory import Author, memory_create

FOUR_LEVELS = ["org", "division", "team", "user"]


def org_tree(org: str, divisions: dict[str, dict[str, list[str]]], *, name: str | None = None) -> list[dict]:
    """The ``tree`` of an org chart for org › division › team › user: ``{division: {team: [user ids]}}``.

    ``org_tree("acme", {"eu": {"platform": ["albert", "bea"]}})`` is ``org:acme`` › ``division:eu`` ›
    ``team:platform`` with members albert and bea (the chart format of ``memories.orgchart``)."""
    return [
        {
            "level": "org",
            "key": org,
            "name": name or org,
            "children": [
                {
                    "level": "division",
                    "key": division,
                    "name": division,
                    "children": [
                        {"level": "team", "key": team, "name": team, "members": list(members)}
                        for team, members in teams.items()
                    ],
                }
                for division, teams in divisions.items()
            ],
        }
    ]


def scope_of(tenant: Tenant, tag: str) -> Scope:
    """The node ``level:key`` of ``tenant``."""
    level, key = tag.split(":", 1)
    return Scope.objects.get(tenant=tenant, level=level, key=key)


class TenantFactory(factory.django.DjangoModelFactory):
    """A tenant onboarded by the real service: ``tenant_onboard`` over an org chart built from the arguments (the
    same path as ``manage.py onboard_tenant`` and the admin's onboarding), so its tree, members and policy row are
    what onboarding makes.

    ``tree`` is the chart's tree (see :func:`org_tree`); by default ``org:<slug>`` › ``division:hq`` ›
    ``team:core`` with no members. ``policies`` is the chart's ``policies`` mapping (None: the defaults)."""

    class Meta:
        model = Tenant

    slug = factory.Sequence(lambda n: f"tenant-{n}")
    name = factory.LazyAttribute(lambda o: f"Tenant {o.slug}")
    levels = factory.LazyFunction(lambda: list(FOUR_LEVELS))
    tree = factory.LazyAttribute(lambda o: org_tree(o.slug, {"hq": {"core": []}}, name=o.name))
    policies = None

    @classmethod
    def _create(cls, model_class, *, slug, name, levels, tree, policies, **unexpected) -> Tenant:
        if unexpected:
            raise TypeError(f"TenantFactory does not take {sorted(unexpected)}")
        chart: dict[str, Any] = {"tenant": {"slug": slug, "name": name}, "levels": levels, "tree": tree}
        if policies is not None:
            chart["policies"] = policies
        tenant_onboard(plan=parse_org_chart(json.dumps(chart)))  # JSON is YAML: the chart as a file would say it
        return model_class.objects.get(slug=slug)


class ScopeFactory(factory.django.DjangoModelFactory):
    """One node below ``parent`` (a Scope or a tag; default: the root of ``tenant``, itself new by default), one
    level down unless ``level`` says otherwise, in the parent's tenant; saved after ``full_clean()`` as onboarding
    saves its nodes. For a whole tree, give ``TenantFactory`` a ``tree``; for a user's node, use ``MemberFactory``."""

    class Meta:
        model = Scope

    parent = None
    tenant = factory.LazyAttribute(lambda o: o.parent.tenant if isinstance(o.parent, Scope) else TenantFactory())
    level = None
    key = factory.Sequence(lambda n: f"node-{n}")
    name = factory.LazyAttribute(lambda o: o.key.replace("-", " ").title())

    @classmethod
    def _create(cls, model_class, *, parent, tenant, level, key, name) -> Scope:
        if parent is None:
            parent = Scope.objects.get(tenant=tenant, parent=None)
        elif isinstance(parent, str):
            parent = scope_of(tenant, parent)
        if parent.tenant_id != tenant.pk:
            raise ValueError(f"ScopeFactory: the parent {parent.tag} is a node of another tenant than {tenant}")
        if level is None:
            level = tenant.levels[tenant.levels.index(parent.level) + 1]
        scope = model_class(tenant=tenant, parent=parent, level=level, key=key, name=name)
        scope.full_clean()
        scope.save()
        return scope


def _lowest_inner_node(tenant: Tenant) -> Scope:
    """The tenant's first node on the level just above the users (a team in a four-level tree)."""
    return Scope.objects.filter(tenant=tenant, level=tenant.levels[-2]).order_by("pk").first()


class MemberFactory(factory.django.DjangoModelFactory):
    """A member (an agent's ``user_id``) with their own user-level node under ``parent``, in ``tenant``: by default
    the first team of a new tenant. Saved after ``full_clean()``, node then member, as onboarding and
    ``member_provision`` do."""

    class Meta:
        model = Member

    tenant = factory.SubFactory(TenantFactory)
    parent = factory.LazyAttribute(lambda o: _lowest_inner_node(o.tenant))
    user_id = factory.Sequence(lambda n: f"user-{n}")
    display_name = ""

    @classmethod
    def _create(cls, model_class, *, tenant, parent, user_id, display_name) -> Member:
        if isinstance(parent, str):
            parent = scope_of(tenant, parent)
        scope = Scope(tenant=tenant, level=tenant.user_level, key=user_id, name=user_id, parent=parent)
        scope.full_clean()
        scope.save()
        member = model_class(tenant=tenant, user_id=user_id, scope=scope, display_name=display_name)
        member.full_clean()
        member.save()
        return member


class UserFactory(factory.django.DjangoModelFactory):
    """A Django user (not staff) with the password ``pw``."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"person-{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.com")
    password = factory.django.Password("pw")


class StaffUserFactory(UserFactory):
    """A staff user of the admin who administers ``tenants`` (TenantStaff rows; none by default: such a user sees
    no tenant) and belongs to the auth ``groups`` named (existing groups, e.g. the roles the migrations create)."""

    username = factory.Sequence(lambda n: f"staff-{n}")
    is_staff = True

    @factory.post_generation
    def tenants(self, create: bool, tenants, **_) -> None:
        for tenant in tenants or ():
            TenantStaff.objects.create(tenant=tenant, user=self)

    @factory.post_generation
    def groups(self, create: bool, names, **_) -> None:
        for name in names or ():
            self.groups.add(Group.objects.get(name=name))


class SuperUserFactory(UserFactory):
    """A superuser: sees and administers every tenant."""

    username = factory.Sequence(lambda n: f"root-{n}")
    is_staff = True
    is_superuser = True


class ApiKeyFactory(factory.django.DjangoModelFactory):
    """An API key made by ``api_key_create`` (a random prefix, only the hash stored). The plain key, shown once by
    the service, is on the returned row as ``.plain``. ``scope`` restricts the key to a subtree (a Scope or a
    ``level:key`` tag of the tenant)."""

    class Meta:
        model = ApiKey

    tenant = factory.SubFactory(TenantFactory)
    name = factory.Sequence(lambda n: f"test-key-{n}")
    permissions = factory.LazyFunction(lambda: ["read", "write", "delete"])
    scope = None

    @classmethod
    def _create(cls, model_class, *, tenant, name, permissions, scope) -> ApiKey:
        if isinstance(scope, str):
            scope = scope_of(tenant, scope)
        key, plain = api_key_create(tenant=tenant, name=name, permissions=list(permissions), scope=scope)
        key.plain = plain
        return key


class MemoryFactory(factory.django.DjangoModelFactory):
    """A memory written by the real write service, ``memory_create`` — never ``Memory.objects.create``: the row's
    content hash, dedup bands and search vector, the scope and policy checks, deduplication and history are the
    write path's, and a model-made row would be one the product cannot hold.

    The author: with ``user`` (a member's user_id) an agent acting for that member, writing at ``scope`` or, by
    default, at the member's own node; without, an admin (``admin:test``) writing at ``scope`` (a tag, a Scope, or
    None: the tenant's root). ``author`` overrides both. Any other ``memory_create`` argument passes through
    (``kind``, ``title``, ``metadata``, ``source_session``, ``expires_at``, …).

    The returned memory is the one the write stored or, for a duplicate, the one it returned. Its embedding and
    links are made on commit, as in production: a ``db`` test that needs them wraps the call in
    ``django_capture_on_commit_callbacks(execute=True)``; under ``transactional_db`` they run at once."""

    class Meta:
        model = Memory

    tenant = factory.SubFactory(TenantFactory)
    # twelve random words of Faker's lorem list: two generated memories never share enough word runs for the write
    # path's near-duplicate check to fold one into the other
    content = factory.Faker("sentence", nb_words=12, variable_nb_words=False)
    scope = None
    user = None
    author = None

    @classmethod
    def _create(cls, model_class, *, tenant, content, scope, user, author, **arguments) -> Memory:
        if author is None:
            if user is not None:
                member = Member.objects.select_related("scope").get(tenant=tenant, user_id=user)
                author = Author(kind="agent", member=member)
            else:
                author = Author(kind="admin", label="admin:test")
        if scope is None and author.member is None:
            scope = Scope.objects.get(tenant=tenant, parent=None)
        return memory_create(tenant=tenant, author=author, content=content, scope=scope, **arguments).memory


class EntityFactory(factory.django.DjangoModelFactory):
    """A graph entity of ``tenant``, saved on the model with its normalised name (the identity link extraction
    resolves names to). The product makes entities only by extracting links from memories: use this factory for a
    known graph in tests of the graph's reads (selectors, API, admin), and ``MemoryFactory`` + on-commit extraction
    for tests of extraction itself."""

    class Meta:
        model = Entity

    tenant = factory.SubFactory(TenantFactory)
    name = factory.Sequence(lambda n: f"Entity {n}")
    norm = factory.LazyAttribute(lambda o: normalize_entity_name(o.name))
    kind = EntityKind.UNKNOWN

    @classmethod
    def _create(cls, model_class, **fields) -> Entity:
        entity = model_class(**fields)
        entity.full_clean()
        entity.save()
        return entity


class EntityAliasFactory(factory.django.DjangoModelFactory):
    """Another name of ``entity``, in the entity's tenant (as an admin's merge or the resolver records it)."""

    class Meta:
        model = EntityAlias

    entity = factory.SubFactory(EntityFactory)
    tenant = factory.SelfAttribute("entity.tenant")
    name = factory.Sequence(lambda n: f"Alias {n}")
    norm = factory.LazyAttribute(lambda o: normalize_entity_name(o.name))


class EntityLinkFactory(factory.django.DjangoModelFactory):
    """``subject —relationship→ object`` as stated by ``memory``, all in ``tenant`` (each made there unless given).
    ``object=None`` with ``relationship="mentioned"`` is a bare mention. Saved on the model (see EntityFactory);
    the entities' ``mention_count`` is left as it was — call ``graph.services.entities_recount`` when a test reads it.
    """

    class Meta:
        model = EntityLink

    tenant = factory.SubFactory(TenantFactory)
    memory = factory.SubFactory(MemoryFactory, tenant=factory.SelfAttribute("..tenant"))
    subject = factory.SubFactory(EntityFactory, tenant=factory.SelfAttribute("..tenant"))
    relationship = "works_at"
    object = factory.SubFactory(EntityFactory, tenant=factory.SelfAttribute("..tenant"))
    confidence = 0.9
    subject_norm = factory.LazyAttribute(lambda o: o.subject.norm)
    object_norm = factory.LazyAttribute(lambda o: o.object.norm if o.object is not None else "")

    @classmethod
    def _create(cls, model_class, **fields) -> EntityLink:
        tenant = fields["tenant"]
        strays = [
            name
            for name in ("memory", "subject", "object")
            if fields.get(name) is not None and fields[name].tenant_id != tenant.pk
        ]
        if strays:
            raise ValueError(f"EntityLinkFactory: {', '.join(strays)} of another tenant than {tenant}")
        return model_class.objects.create(**fields)


__all__ = [
    "FOUR_LEVELS",
    "ApiKeyFactory",
    "EntityAliasFactory",
    "EntityFactory",
    "EntityLinkFactory",
    "MemberFactory",
    "MemoryFactory",
    "MemoryKind",
    "ScopeFactory",
    "StaffUserFactory",
    "SuperUserFactory",
    "TenantFactory",
    "UserFactory",
    "org_tree",
    "scope_of",
]
