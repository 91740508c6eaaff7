from django.apps import AppConfig


class OrgMemoryConfig(AppConfig):
    name = "orgmemory"
    verbose_name = "OrgMemory"

    def ready(self) -> None:
        from orgmemory import dbcheck  # noqa: F401  (registers the database check)
        from orgmemory.observability.tracing import tracing_setup_from_env

        tracing_setup_from_env()  # OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set
