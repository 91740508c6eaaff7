"""Shared fixtures. Tests run on the real embedded PostgreSQL (pgvector + pg_trgm), never SQLite."""

from __future__ import annotations

import os

import pytest

from tests.services import plain_pg_url, redis_url  # noqa: F401  (session fixtures: servers besides the database)

# --- CI: nothing may be skipped ---------------------------------------------------------------------------------
# A skip in CI means a part of the product went untested (a missing server, a missing extra); `.ci/run` installs
# everything the suite needs, so under CI=true any skipped test fails the run.


def _skipped_reports(config) -> list:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return list(reporter.stats.get("skipped", [])) if reporter is not None else []


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("CI") and _skipped_reports(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = _skipped_reports(config)
    if os.environ.get("CI") and skipped:
        terminalreporter.write_sep("=", f"CI=true: {len(skipped)} skipped test(s) fail the run", red=True)
        for report in skipped:
            terminalreporter.write_line(f"SKIPPED {report.nodeid}: {report.longrepr[-1] if report.longrepr else ''}")


ACME_CHART = """
tenant: {slug: acme, name: Acme Corp}
levels: [org, division, team, user]
tree:
  - level: org
    key: acme
    name: Acme Corp
    children:
      - level: division
        key: eu
        name: Europe
        children:
          - {level: team, key: platform, name: Platform, members: [albert, bea]}
          - {level: team, key: data, name: Data, members: [dora]}
      - level: division
        key: us
        name: Americas
        children:
          - {level: team, key: sales, name: Sales, members: [carlos]}
policies: {auto_provision_users: false, writable_levels: {agent: [user, team]}}
"""

GLOBEX_CHART = """
tenant: {slug: globex, name: Globex}
levels: [org, team, user]
tree:
  - level: org
    key: globex
    name: Globex
    children:
      - {level: team, key: platform, name: Platform, members: [albert, zed]}
"""


def onboard(text: str):
    # imported here so that the pure test modules also run without Django (-p no:django)
    from memories.models import Tenant
    from memories.orgchart import parse_org_chart
    from memories.services import tenant_onboard

    plan = parse_org_chart(text)
    tenant_onboard(plan=plan)
    return Tenant.objects.get(slug=plan.tenant_slug)


@pytest.fixture
def acme(db):
    """Acme: org:acme › division:eu › team:platform (albert, bea), team:data (dora); division:us › team:sales
    (carlos)."""
    return onboard(ACME_CHART)


@pytest.fixture
def globex(db):
    """A second tenant that reuses the names `albert` and `team:platform`, to catch cross-tenant leaks."""
    return onboard(GLOBEX_CHART)


@pytest.fixture
def root(db):
    """A Django superuser (sees every tenant in the admin)."""
    from django.contrib.auth.models import User

    return User.objects.create_superuser("root", "root@example.com", "pw")


@pytest.fixture
def superuser_client(client, root):
    client.force_login(root)
    return client


@pytest.fixture
def acme_staff_client(client, acme):
    """A staff user who administers only the acme tenant."""
    from django.contrib.auth.models import User

    from memories.models import TenantStaff

    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    client.force_login(user)
    return client


# --- Browser tests: pytest-playwright on Debian's chromium ---------------------------------------------------------
# Playwright never downloads a browser here (`playwright install` is not run): every launch uses the system chromium
# that .ci/run installs. Screenshots a test saves go to $ORGMEMORY_TEST_ARTIFACTS (default test-artifacts/).

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def chromium_executable() -> str | None:
    import shutil

    return (
        os.environ.get("CHROMIUM")
        or next((p for p in CHROMIUM_PATHS if os.path.exists(p)), None)
        or (shutil.which("chromium"))
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    executable = chromium_executable()
    if executable is None:
        message = "chromium is not installed (.ci/run installs Debian's chromium; locally: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": executable, "args": ["--no-sandbox"]}


@pytest.fixture(scope="session")
def test_artifacts_dir():
    from pathlib import Path

    path = Path(os.environ.get("ORGMEMORY_TEST_ARTIFACTS", "test-artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path
