from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CurationConfig(AppConfig):
    name = "memories.curation"
    label = "curation"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "curation"

    def ready(self) -> None:
        from memories.roles import roles_sync_after_migrate

        post_migrate.connect(roles_sync_after_migrate, dispatch_uid="orgmemory-roles-sync")
