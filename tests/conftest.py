"""Shared fixtures. Tests run on the real embedded PostgreSQL (pgvector + pg_trgm), never SQLite."""

from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def committed_tenants(django_db_blocker, *charts: str):
    """Onboard ``charts`` outside any test's transaction, so what is written for them stays committed (on-commit
    indexing runs at each write's commit, as in production); yields the tenants and deletes them at the end.

    For data many tests of a module only read: a module-scoped fixture writes it once inside this block, and each
    test reads it in its own transaction (``db``), rolled back at its end so what a test changes is undone. Not for
    transactional tests (their flush empties every table)."""
    from memories.models import Tenant

    with django_db_blocker.unblock():
        tenants = [onboard(chart) for chart in charts]
        try:
            yield tenants
        finally:
            Tenant.objects.filter(pk__in=[tenant.pk for tenant in tenants]).delete()


def remember(tenant, content, *, user=None, scope=None, **kwargs):
    """Write a memory through the write service and return it: as the agent of member ``user`` (at their own node,
    or at ``scope`` on their chain), else as an admin (``admin:test``) at ``scope`` (a tag or Scope; default the
    root). Other ``memory_create`` arguments pass through (``kind``, ``title``, ``source_session``, …). The one
    helper for this in the suite: ``tests.factories.MemoryFactory`` with the content first."""
    from tests.factories import MemoryFactory  # Django-dependent: see onboard

    return MemoryFactory(tenant=tenant, content=content, user=user, scope=scope, **kwargs)


def tomasz_statements(tenant) -> dict:
    """The facts story several surfaces' isolation tests read: Tomasz Nowak worked at Initech and joined Globex
    (org-wide); albert alone heard he moved to Lisbon; albert's project alpha says he reports to Ines Duarte. The
    memories by name; the caller decides when they commit (their facts are extracted then)."""
    return {
        "initech": remember(
            tenant, "Tomasz Nowak works at Initech.", scope="org:acme", reference_time="2025-01-10T09:00:00Z"
        ),
        "globex": remember(
            tenant, "Tomasz Nowak joined Globex last month.", scope="org:acme", reference_time="2025-06-12T09:00:00Z"
        ),
        "lisbon": remember(
            tenant, "Tomasz Nowak moved to Lisbon last week.", user="albert", reference_time="2025-07-03T09:00:00Z"
        ),
        "alpha": remember(
            tenant,
            "Tomasz Nowak now reports to Ines Duarte.",
            user="albert",
            project="alpha",
            reference_time="2025-07-04T09:00:00Z",
        ),
    }


@pytest.fixture(scope="session")
def openapi():
    """The OpenAPI document the app serves (``tests/openapi.py``): documented examples by operation id and status,
    and strict validation of bodies against the documented schemas. Built once per session, without a database."""
    from tests.openapi import OpenApi

    return OpenApi.served()


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
    """A staff user who administers only the acme tenant (the "Tenant admin" role)."""
    from django.contrib.auth.models import Group, User

    from memories.models import TenantStaff
    from memories.roles import TENANT_ADMIN

    user = User.objects.create_user("acme-admin", password="pw", is_staff=True)
    TenantStaff.objects.create(tenant=acme, user=user)
    user.groups.add(Group.objects.get(name=TENANT_ADMIN))  # memories.roles: everything within the tenant
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


@pytest.fixture(scope="session")
def playwright(playwright):
    """pytest-playwright's session-long Playwright, with ``DJANGO_ALLOW_ASYNC_UNSAFE=true`` for as long as it runs.

    Playwright's sync API keeps its event loop marked as running in the main thread between calls (it drives the
    loop from a greenlet), from the first browser test to the end of the session. Django's async-safety check sees
    that loop and would refuse every ORM call of the test, of the database set-up and of every later test in the
    process; the variable tells it the calls are synchronous ones (they are: nothing here runs on that loop)."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield playwright
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


PLAYWRIGHT_FIXTURES = {"playwright", "browser", "context", "page"}


@pytest.fixture(autouse=True)
def _no_playwright_loop_outside_browser_tests(request):
    """Once a browser test ran, playwright's loop stays marked as running in the main thread for the rest of the
    session (see ``playwright`` above), and ``asyncio.run()`` in any later test fails ("cannot be called from a
    running event loop"). A test that does not use playwright runs with the mark cleared, and without
    ``DJANGO_ALLOW_ASYNC_UNSAFE`` (Django's check of ORM calls from async code applies again); both are put back
    after the test, since playwright's next call resumes that loop where it left off."""
    import asyncio

    loop = asyncio._get_running_loop()
    if loop is None or PLAYWRIGHT_FIXTURES.intersection(request.fixturenames):
        yield
        return
    allowed = os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
        if allowed is not None:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed


@pytest.fixture
def page_errors(page) -> list[str]:
    """What went wrong inside ``page`` while the test ran: uncaught exceptions and console errors (a failed load
    is one), in order. The browser always asks for /favicon.ico, which the site does not serve: not counted.
    A browser test ends with ``assert page_errors == []``."""
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type in ("error", "assert") and not message.location.get("url", "").endswith("/favicon.ico"):
            errors.append(f"console: {message.text} {message.location.get('url', '')}".strip())

    page.on("pageerror", lambda error: errors.append(f"exception: {error}"))
    page.on("console", on_console)
    return errors


@pytest.fixture
def admin_page(live_server, page, page_errors):
    """``admin_page(user=None) -> Page``: the test's playwright ``page``, signed in to the admin of the live server
    as ``user`` (a staff user; ``None``: a new superuser ``root``), showing ``/admin/``.

    The session is made by Django's test client (``force_login``) and handed to the browser as its session cookie,
    so no test types a password. The database is the transactional one (``live_server`` serves from another
    thread); ``DJANGO_ALLOW_ASYNC_UNSAFE`` is set by the ``playwright`` fixture above. Page errors are collected in
    the ``page_errors`` fixture. Other browser tests of the admin start here::

        def test_something(admin_page, live_server, page_errors):
            page = admin_page(StaffUserFactory(tenants=[tenant]))  # tests/factories.py; None: a superuser
            page.goto(f"{live_server.url}/admin/...")
            page.get_by_role("button", name="Save").click()
            assert page_errors == []
    """
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    def log_in(user: User | None = None):
        if user is None:
            user = User.objects.create_superuser("root", "root@example.com", "pw")
        assert user.is_staff, f"{user.username} is not staff: the admin would refuse the session"
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page.goto(f"{live_server.url}/admin/")
        assert page.url == f"{live_server.url}/admin/", f"not signed in: the admin sent the browser to {page.url}"
        return page

    return log_in
