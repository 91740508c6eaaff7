from django.apps import AppConfig


class OrgMemoryConfig(AppConfig):
    name = "orgmemory"
    verbose_name = "OrgMemory"

    def ready(self) -> None:
        from orgmemory import dbcheck  # noqa: F401  (registers the database check)
