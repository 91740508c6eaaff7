"""Fixtures of the retrieval tests: the API clients of ``tests/api/conftest.py`` (``api``: acme with read, write and
delete), so that a module needing another client defines its own ``api``."""

from tests.api.conftest import api, make_client  # noqa: F401
