# Before roles, every staff user assigned to a tenant (TenantStaff) was a full admin of it and Django's model
# permissions were ignored. The admin now checks them: staff assigned to a tenant who hold none of the roles are put
# in the "Tenant admin" group, so an upgrade takes nobody's access away. The group's permissions are set after
# migrate (memories.roles.roles_sync, a post_migrate handler), when every app's permissions exist.

from django.db import migrations

ROLES = ("Tenant admin", "Curator", "Auditor")


def existing_staff_are_tenant_admins(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    User = apps.get_model("auth", "User")
    TenantStaff = apps.get_model("memories", "TenantStaff")
    staff_ids = set(TenantStaff.objects.values_list("user_id", flat=True))
    if not staff_ids:
        return
    group, _ = Group.objects.get_or_create(name="Tenant admin")
    with_role = set(User.objects.filter(groups__name__in=ROLES).values_list("pk", flat=True))
    for user in User.objects.filter(pk__in=staff_ids - with_role):
        user.groups.add(group)


class Migration(migrations.Migration):
    dependencies = [
        ("curation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(existing_staff_are_tenant_admins, migrations.RunPython.noop)]
