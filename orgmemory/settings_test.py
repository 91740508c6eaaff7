"""Settings for the test suite: the production settings module in ``test`` mode."""

import os

os.environ.setdefault("ORGMEMORY_ENV", "test")

from orgmemory.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast user creation in tests

# A test database per test process, so that two runs (a developer's and `make test`) never share one.
DATABASES["default"]["TEST"] = {"NAME": f"test_orgmemory_{os.getpid()}"}  # noqa: F405
LOGGING["loggers"]["celery.app.trace"] = {"level": "WARNING"}  # noqa: F405  (one INFO line per inline task)
# The suite sends many bad keys and failed sign-ins from 127.0.0.1 into one process-wide cache: tests of the
# limits set their own (override_settings); everything else must not trip them.
ORGMEMORY_BAD_KEY_RATE = "100000/minute"
ORGMEMORY_LOGIN_FAILURE_LIMIT = 100000
