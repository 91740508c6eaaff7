from django.apps import AppConfig


class GraphConfig(AppConfig):
    name = "graph"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from graph import signals  # noqa: F401  (connects extraction and recount hand-offs)
