"""The admin roles, defined once: Django groups whose model permissions the admin checks on top of tenant membership.

A staff user sees a tenant only through ``TenantStaff`` (superusers see every tenant); within the tenants they are
assigned to, their groups decide what they may do:

- **Tenant admin** — everything within the tenant: memories, the scope tree, members (and their erasure), API keys,
  policies, the graph, the audit log.
- **Curator** — views and changes memories and entities (edit, move, re-kind, merge, resolve contradictions); sees
  the tree and members; no API keys, no policies, no deletes, no erasure, no audit log.
- **Auditor** — views everything within the tenant, the audit log included; changes nothing.

A role is per user, not per tenant: a user assigned to two tenants has the same role in both. The groups are created
and their permissions set after every ``migrate`` (:func:`roles_sync`, a ``post_migrate`` handler): what is listed
here is what they hold, so a permission added here reaches existing groups on the next deploy.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

TENANT_ADMIN = "Tenant admin"
CURATOR = "Curator"
AUDITOR = "Auditor"

ERASE_PERMISSION = ("memories", "member", "erase_member", "Can erase a member (GDPR)")
"""A permission of its own (on the member model): erasing is not the same as deleting a row."""

VIEW = ("view",)
VIEW_CHANGE = ("view", "change")
ALL = ("view", "add", "change", "delete")

# (app label, model) -> actions; the app labels are those of INSTALLED_APPS
ROLE_PERMISSIONS: dict[str, dict[tuple[str, str], tuple[str, ...]]] = {
    TENANT_ADMIN: {
        ("memories", "tenant"): VIEW_CHANGE,  # creating and deleting tenants stays with superusers
        ("memories", "scope"): ALL,
        ("memories", "member"): ("view", "change", "delete", "erase"),
        ("memories", "apikey"): ALL,
        ("memories", "policy"): ALL,
        ("memories", "memory"): ALL,
        ("graph", "entity"): VIEW_CHANGE,
        ("graph", "entityalias"): VIEW,
        ("graph", "entitylink"): ("view", "delete"),
        ("admin", "logentry"): VIEW,
    },
    CURATOR: {
        ("memories", "tenant"): VIEW,
        ("memories", "scope"): VIEW,
        ("memories", "member"): VIEW,
        ("memories", "memory"): ("view", "add", "change"),
        ("graph", "entity"): VIEW_CHANGE,
        ("graph", "entityalias"): VIEW,
        ("graph", "entitylink"): VIEW,
    },
    AUDITOR: {
        ("memories", "tenant"): VIEW,
        ("memories", "scope"): VIEW,
        ("memories", "member"): VIEW,
        ("memories", "apikey"): VIEW,
        ("memories", "policy"): VIEW,
        ("memories", "memory"): VIEW,
        ("graph", "entity"): VIEW,
        ("graph", "entityalias"): VIEW,
        ("graph", "entitylink"): VIEW,
        ("admin", "logentry"): VIEW,
    },
}

ROLES = tuple(ROLE_PERMISSIONS)


def _codename(action: str, model: str) -> str:
    return f"{action}_{model}"


def erase_permission_ensure() -> Permission:
    """The ``memories.erase_member`` permission (Django creates only the four default ones per model)."""
    app_label, model, codename, name = ERASE_PERMISSION
    content_type = ContentType.objects.get_by_natural_key(app_label, model)
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=codename, defaults={"name": name}
    )
    return permission


def roles_sync() -> dict[str, int]:
    """Create the three groups and set their permissions to exactly :data:`ROLE_PERMISSIONS`. Idempotent. Returns
    the number of permissions each group holds."""
    erase_permission_ensure()
    wanted: dict[str, set[tuple[str, str]]] = {}
    for role, grants in ROLE_PERMISSIONS.items():
        wanted[role] = {
            (app_label, _codename(action, model))
            for (app_label, model), actions in grants.items()
            for action in actions
        }
    labels = {app_label for grants in wanted.values() for app_label, _ in grants}
    by_key = {
        (app_label, codename): pk
        for pk, app_label, codename in Permission.objects.filter(content_type__app_label__in=labels).values_list(
            "pk", "content_type__app_label", "codename"
        )
    }
    missing = sorted({key for grants in wanted.values() for key in grants} - set(by_key))
    if missing:
        raise LookupError(f"roles name permissions that do not exist: {missing}")
    counts = {}
    for role, grants in wanted.items():
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.set([by_key[key] for key in grants])
        counts[role] = len(grants)
    return counts


def roles_sync_after_migrate(sender, using="default", **kwargs) -> None:
    """``post_migrate`` handler: sent once per app; runs for the last of them (the permissions of every app exist
    by then — Django creates them in the same signal, app by app)."""
    from django.apps import apps

    # Django sends the signal only for apps with a models module (an app without models, e.g. bench, gets none)
    if sender.label != [app for app in apps.get_app_configs() if app.models_module is not None][-1].label:
        return
    if using != "default":
        return
    roles_sync()


def user_role_names(user) -> list[str]:
    """The role groups ``user`` belongs to, in :data:`ROLES` order (superusers: all of them implicitly, [])."""
    names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return [role for role in ROLES if role in names]
