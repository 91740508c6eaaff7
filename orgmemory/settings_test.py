"""Settings for the test suite: the production settings module in ``test`` mode."""

import os

os.environ.setdefault("ORGMEMORY_ENV", "test")

from orgmemory.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast user creation in tests

# A test database per test process, so that two runs (a developer's and `make test`) never share one.
DATABASES["default"]["TEST"] = {"NAME": f"test_orgmemory_{os.getpid()}"}  # noqa: F405
LOGGING["loggers"]["celery.app.trace"] = {"level": "WARNING"}  # noqa: F405  (one INFO line per inline task)
