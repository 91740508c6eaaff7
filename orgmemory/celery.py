"""The Celery application. With CELERY_BROKER_URL unset, tasks run inline after commit (eager mode)."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")

app = Celery("orgmemory")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Delivery guarantees, as defaults that CELERY_* settings may override. With late acks (CELERY_TASK_ACKS_LATE) a
# message is acknowledged only after its task ran, and every task is idempotent (ids in; re-running one rewrites
# the same rows), so a task that runs twice is harmless while a task that never runs loses an index:
# - a pool process killed mid-task (OOM, kill -9) would otherwise be acknowledged as failed; reject it so the
#   broker redelivers it;
# - a whole worker killed mid-task leaves its message unacknowledged; Redis hands it to another worker after the
#   visibility timeout (kombu's default is an hour; our tasks take seconds). Workers look for such messages every
#   10 s (kombu scans only every 10th look by default, i.e. every 100 s; the scan is one cheap Redis query).
app.add_defaults(
    {
        "task_reject_on_worker_lost": True,
        "broker_transport_options": {
            "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT_SECONDS", "300")),
            "unacked_restore_throttle": 1,
        },
    }
)


@worker_process_init.connect(weak=False)
def _tracing_in_pool_process(**kwargs) -> None:
    """A prefork pool process traces its tasks too (OpenTelemetry's Celery instrumentation, when
    OTEL_EXPORTER_OTLP_ENDPOINT is set); a no-op when the parent process already started tracing."""
    from orgmemory.observability.tracing import tracing_setup_from_env

    tracing_setup_from_env()
