from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "memories"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from memories import signals  # noqa: F401  (connects the indexing hand-off)
        from memories.hooks import IndexStep, index_step_register
        from memories.services.indexing import memories_embed

        index_step_register(IndexStep(name="embeddings", state_field="index_state", run=memories_embed))
