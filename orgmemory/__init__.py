"""OrgMemory: long-term memory for AI agents, shared along an organisation's hierarchy."""

from orgmemory.celery import app as celery_app
from orgmemory.version import VERSION as __version__

__all__ = ["celery_app", "__version__"]
