"""Tenants, the scope tree, members and API keys, and per-tenant / per-scope policies."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from tree_queries.fields import TreeNodeForeignKey
from tree_queries.models import TreeNode
from tree_queries.query import TreeQuerySet

from memories.embedding import configured_kind
from memories.orgchart import (  # noqa: F401  (PERMISSIONS, PROJECT_LEVEL: re-exported)
    KEY_PATTERN,
    LEVEL_PATTERN,
    PERMISSIONS,
    PROJECT_LEVEL,
)
from memories.policy_rules import FIELDS as POLICY_FIELDS
from memories.policy_rules import policy_errors

DEFAULT_LEVELS = ["org", "corporate", "country", "division", "team", "user"]

level_validator = RegexValidator(LEVEL_PATTERN, "A level is a lowercase word (a-z, 0-9, _).")
key_validator = RegexValidator(
    KEY_PATTERN,
    "A key is 1–128 characters of letters, digits and . _ @ + - (starting with a letter or digit).",
)


class TenantKeyed:
    """A tenant-owned table keyed by its tenant in the database, so it can be distributed by tenant with Citus
    (docs/SCALING.md): its primary key is ``(id, tenant_id)`` and every foreign key to another tenant-keyed table
    is ``(tenant_id, x_id) → (tenant_id, id)`` — both made by migrations (memories 0009, graph 0002–0003,
    retrieval 0002), since Django 5.2 cannot point a ``ForeignKey`` at a composite key. Django keeps addressing
    rows by ``id`` (unique: one sequence per table, and the first column of the primary key, so ``id`` look-ups
    use it), and its ``ForeignKey``s between these tables say ``db_constraint=False`` so that the database keeps
    only the tenant-inclusive constraints. ``tests/orgmemory/test_citus_ready.py`` checks the declaration against
    the catalog."""

    citus_primary_key = ("id", "tenant_id")


class Tenant(models.Model):
    """One organisation. Every other row carries its tenant and every query filters by it."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    levels = models.JSONField(default=list, help_text="The tree's levels, root first; the last one is the user level.")
    created_at = models.DateTimeField(auto_now_add=True)
    # set only by `manage.py reembed` when every vector is ready (not editable: changing it alone would search the
    # stored vectors with another embedder's questions)
    embedder = models.CharField(
        max_length=40,
        default=configured_kind,
        editable=False,
        help_text="The embedder the tenant's stored vectors are from (one of memories.embedding.EMBEDDERS); its "
        "searches embed the question with it.",
    )

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug

    def clean(self) -> None:
        levels = self.levels
        if not isinstance(levels, list) or len(levels) < 2 or not all(isinstance(level, str) for level in levels):
            raise ValidationError({"levels": "List at least two level names, root first (the last is the user level)."})
        bad = [level for level in levels if not level_validator.regex.match(level)]
        if bad:
            raise ValidationError({"levels": f"{bad[0][:40]!r} is not a lowercase word (a-z, 0-9, _)."})
        if len(set(levels)) != len(levels):
            raise ValidationError({"levels": "A level is listed twice."})
        if PROJECT_LEVEL in levels:
            raise ValidationError({"levels": f"{PROJECT_LEVEL!r} is reserved for project sub-scopes."})
        if self.pk is not None:
            stray = self.scopes.exclude(level__in=[*levels, PROJECT_LEVEL]).values_list("level", flat=True).first()
            if stray:
                raise ValidationError({"levels": f"Nodes of this tenant use the level {stray!r}, which is missing."})

    @property
    def user_level(self) -> str:
        return self.levels[-1]

    def level_index(self, level: str) -> int:
        """Depth of ``level`` (0 = root); ValueError for a level the tenant does not have."""
        return self.levels.index(level)

    @property
    def project_owner_levels(self) -> tuple[str, ...]:
        """The levels a project may hang under: the user level and the one just above it (the team)."""
        return tuple(self.levels[-2:])


class TenantStaff(models.Model):
    """Grants a (non-superuser) Django staff user the admin of one tenant; superusers see every tenant."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="tenant_staff")

    class Meta:
        verbose_name = "tenant administrator"
        constraints = [models.UniqueConstraint(fields=["tenant", "user"], name="tenantstaff_unique")]

    def __str__(self) -> str:
        return f"{self.user} administers {self.tenant}"


class ForTenantQuerySet(models.QuerySet):
    def for_tenant(self, tenant: Tenant) -> ForTenantQuerySet:
        return self.filter(tenant=tenant)


class ScopeQuerySet(TreeQuerySet):
    def for_tenant(self, tenant: Tenant) -> ScopeQuerySet:
        return self.filter(tenant=tenant)


class Scope(TenantKeyed, TreeNode):
    """A node of a tenant's org tree (org › … › team › user). Its tag is ``level:key``."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="scopes")
    # tree-queries' parent field, with the database constraint made tenant-inclusive by migration (TenantKeyed)
    parent = TreeNodeForeignKey(
        "self",
        blank=True,
        null=True,
        on_delete=models.CASCADE,
        verbose_name="parent",
        related_name="children",
        db_constraint=False,
    )
    level = models.CharField(max_length=32, validators=[level_validator])
    key = models.CharField(max_length=128, validators=[key_validator])
    name = models.CharField(max_length=200, blank=True)

    objects = ScopeQuerySet.as_manager(with_tree_fields=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "level", "key"],
                condition=~Q(level=PROJECT_LEVEL),
                name="scope_unique_key_per_tenant_level",
            ),
            # a project's name is unique under its owner node (two teams may each have an "alpha")
            models.UniqueConstraint(
                fields=["tenant", "parent", "key"],
                condition=Q(level=PROJECT_LEVEL),
                name="scope_unique_project_per_owner",
            ),
            models.CheckConstraint(
                condition=~Q(level=PROJECT_LEVEL) | Q(parent__isnull=False), name="scope_project_has_owner"
            ),
            models.CheckConstraint(condition=~Q(parent=models.F("id")), name="scope_not_own_parent"),
        ]
        indexes = [models.Index(fields=["tenant", "parent"], name="scope_tenant_parent")]

    def __str__(self) -> str:
        return self.tag

    @property
    def tag(self) -> str:
        return f"{self.level}:{self.key}"

    @property
    def is_project(self) -> bool:
        return self.level == PROJECT_LEVEL

    @property
    def home(self) -> Scope:
        """The tree node this scope stands for in policy and presentation: a project's owner node, else itself."""
        return self.parent if self.is_project else self

    @property
    def project_name(self) -> str | None:
        """The project's name for a project node, else None."""
        return self.key if self.is_project else None

    def clean(self) -> None:
        super().clean()  # tree-queries refuses a parent that would make a loop
        errors = {}
        if self.tenant_id and self.parent_id and self.parent.tenant_id != self.tenant_id:
            errors["parent"] = "The parent is a node of another tenant."
        if self.is_project:
            owner = self.parent if self.parent_id else None
            if owner is None or owner.is_project or owner.level not in self.tenant.project_owner_levels:
                errors["parent"] = (
                    f"A project hangs under a node of level {' or '.join(self.tenant.project_owner_levels)}."
                )
        elif self.tenant_id and self.level and self.level not in (self.tenant.levels or []):
            errors["level"] = f"{self.level!r} is not a level of {self.tenant} ({', '.join(self.tenant.levels)})."
        if errors:
            raise ValidationError(errors)


class Member(TenantKeyed, models.Model):
    """An external ``user_id`` (as agents send it) bound to its user-level scope node."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="members")
    user_id = models.CharField(max_length=128, validators=[key_validator])
    # one member per user node: UniqueConstraint(tenant, scope) below (a node belongs to one tenant)
    scope = models.ForeignKey(Scope, on_delete=models.CASCADE, related_name="members", db_constraint=False)
    display_name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user_id"], name="member_unique_user_id_per_tenant"),
            models.UniqueConstraint(fields=["tenant", "scope"], name="member_unique_scope_per_tenant"),
        ]
        ordering = ["user_id"]

    def __str__(self) -> str:
        return self.user_id

    def clean(self) -> None:
        if self.tenant_id and self.scope_id and self.scope.tenant_id != self.tenant_id:
            raise ValidationError({"scope": "The member's node belongs to another tenant."})


class ApiKey(TenantKeyed, models.Model):
    """A hashed API key. The plain key (``om_<prefix>_<secret>``) is shown once, when it is created."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    # unique per tenant (constraint below); authentication finds the candidates by prefix alone (indexed) and
    # compares each one's hash, so a prefix shared by two tenants' keys still authenticates each of them
    prefix = models.CharField(max_length=16, db_index=True, editable=False)
    key_hash = models.CharField(max_length=64, editable=False)
    permissions = models.JSONField(default=list, help_text="Any of read, write, delete, admin.")
    scope = models.ForeignKey(
        Scope,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
        help_text="Optional: restrict the key to this subtree.",
        db_constraint=False,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "name"], condition=Q(revoked_at__isnull=True), name="apikey_unique_active_name"
            ),
            models.UniqueConstraint(fields=["tenant", "prefix"], name="apikey_unique_prefix_per_tenant"),
        ]
        ordering = ["tenant", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def clean(self) -> None:
        if self.tenant_id and self.scope_id and self.scope.tenant_id != self.tenant_id:
            raise ValidationError({"scope": "The key's subtree belongs to another tenant."})


class Policy(TenantKeyed, models.Model):
    """Tenant-wide policy (``scope`` null) or an override for a subtree (fields left null inherit)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="policies")
    # one override per node: UniqueConstraint(tenant, scope) below
    scope = models.ForeignKey(
        Scope, null=True, blank=True, on_delete=models.CASCADE, related_name="policies", db_constraint=False
    )
    writable_levels = models.JSONField(
        null=True, blank=True, help_text='Levels each kind of author may write at, e.g. {"agent": ["user", "team"]}.'
    )
    auto_provision_users = models.BooleanField(null=True, blank=True)
    default_scope = models.ForeignKey(
        Scope,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Where auto-provisioned users get their user node (default: the root).",
        db_constraint=False,
    )
    max_content_bytes = models.PositiveIntegerField(null=True, blank=True)
    tier_boost = models.JSONField(null=True, blank=True, help_text='Per-level multipliers, e.g. {"org": 0.6}.')
    retention_days = models.JSONField(null=True, blank=True, help_text='Per kind or level, e.g. {"event": 365}.')
    glossary = models.JSONField(null=True, blank=True, help_text='Acronym expansions, e.g. {"k8s": "kubernetes"}.')
    updated_at = models.DateTimeField(auto_now=True)

    objects = ForTenantQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "policies"
        constraints = [
            models.UniqueConstraint(
                fields=["tenant"], condition=Q(scope__isnull=True), name="policy_one_default_per_tenant"
            ),
            models.UniqueConstraint(fields=["tenant", "scope"], name="policy_unique_scope_per_tenant"),
            models.CheckConstraint(
                condition=Q(max_content_bytes__isnull=True) | Q(max_content_bytes__gte=1),
                name="policy_max_content_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tenant} policy" + (f" for {self.scope.tag}" if self.scope_id else "")

    def clean(self) -> None:
        """The JSON fields follow ``memories.policy_rules`` for the tenant's levels; both scopes are the tenant's;
        auto-provisioned users go under an inner node, never under another user's own node."""
        if not self.tenant_id:
            return
        levels = self.tenant.levels or []
        values = {name: getattr(self, name) for name in POLICY_FIELDS}
        errors: dict[str, list[str]] = policy_errors(values, levels=levels)
        if self.scope_id and self.scope.tenant_id != self.tenant_id:
            errors["scope"] = ["This node belongs to another tenant."]
        elif self.scope_id and self.scope.is_project:
            errors["scope"] = ["A project holds no policy of its own: set it on the project's owner node."]
        if self.default_scope_id:
            if self.default_scope.tenant_id != self.tenant_id:
                errors["default_scope"] = ["This node belongs to another tenant."]
            elif levels and self.default_scope.level == levels[-1]:
                errors["default_scope"] = ["A user's own node cannot hold other users: choose a team or above."]
        if errors:
            raise ValidationError(errors)
