"""The Celery application. With CELERY_BROKER_URL unset, tasks run inline after commit (eager mode)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")

app = Celery("orgmemory")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
