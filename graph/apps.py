from django.apps import AppConfig


class GraphConfig(AppConfig):
    name = "graph"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from graph import hooks, signals  # noqa: F401  (signals: connects extraction and recount hand-offs)

        hooks.register()  # the graph's half of erasure, its re-index step, its links in a vault export
