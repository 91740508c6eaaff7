from django.apps import AppConfig


class GraphConfig(AppConfig):
    name = "graph"
    default_auto_field = "django.db.models.BigAutoField"
