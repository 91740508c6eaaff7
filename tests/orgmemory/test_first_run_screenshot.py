"""The first run's final block (issue 42, items 1 and 6), in a real headless Chromium: what `make run` does before
it serves — ``load_demo --handover`` on the test database, the hand-over taken as the development server takes it —
and then the development server's own start-up end (``runserver``'s ``on_bind``), whose last lines are the block.
The block is shown as a terminal shows it (monospace, light on dark, 120 columns, long lines wrapped) with the API
keys and the password masked, and saved as ``<test artifacts>/first-run/first_run_block.png``
(``docs/screenshots/`` holds a copy)."""

from __future__ import annotations

import html
import io
from urllib.parse import quote

import pytest
from django.core.management import call_command

from orgmemory.handover import RULE, dev_password, handover_take
from orgmemory.management.commands.runserver import Command as Runserver
from tests.orgmemory.test_smoke_make_run import demo_keys

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]  # indexing inline, as under make run

HOST, PORT = "127.0.0.1", 8000  # make run's address (PORT ?= 8000)
URL = f"http://{HOST}:{PORT}"
COLUMNS = 120
MASK = "\u2022"  # •, one column wide in a monospace font: a masked line keeps its alignment

TERMINAL = """<!doctype html>
<html><head><meta charset="utf-8"><title>make run</title><style>
  html, body {{ margin: 0; background: #d9dce1; }}
  body {{ padding: 24px; display: inline-block; }}
  #window {{ border-radius: 8px; overflow: hidden; box-shadow: 0 6px 24px rgba(0, 0, 0, .35); }}
  #title {{ background: #2e3138; color: #aab0bb; font: 13px/28px "DejaVu Sans", sans-serif; text-align: center;
            position: relative; }}
  #title i {{ position: absolute; top: 9px; width: 11px; height: 11px; border-radius: 50%; }}
  #screen {{ background: #16181d; color: #d7dae0; padding: 14px 16px 16px;
             font: 14px/1.45 "DejaVu Sans Mono", "Liberation Mono", monospace; }}
  .line {{ width: {columns}ch; white-space: pre-wrap; word-break: break-all; }}  /* a terminal's hard wrap */
  .dim {{ color: #7f8794; }}
  .probe {{ position: absolute; visibility: hidden; white-space: pre; }}
</style></head><body><div id="window">
  <div id="title"><i style="left: 12px; background: #ff5f57"></i><i style="left: 30px; background: #febc2e"></i>
    <i style="left: 48px; background: #28c840"></i>make run &mdash; the end of the first run</div>
  <div id="screen">
{lines}
    <span class="probe" id="narrow">iiiiiiiiii</span><span class="probe" id="wide">WWWWWWWWWW</span>
    <span class="probe" id="masked">{masks}</span>
  </div></div>
</body></html>"""


@pytest.fixture
def shots(test_artifacts_dir):
    folder = test_artifacts_dir / "first-run"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def first_run_end(data_dir) -> tuple[str, list[str]]:
    """What `make run` prints last on a first run: ``load_demo --handover`` (the superuser, the demo tenant and its
    keys, left in ``data_dir``), then the development server's start-up end, which takes the hand-over and prints
    the block. The server is not started: ``on_bind`` is what runs once it listens. Returns the server's own last
    line before the block, and the block."""
    loaded = io.StringIO()
    call_command("load_demo", "--handover", stdout=loaded)
    assert RULE not in loaded.getvalue()  # load_demo leaves the block to the server
    out = io.StringIO()
    server = Runserver(stdout=out, no_color=True)
    server.addr, server._raw_ipv6, server.protocol = HOST, False, "http"  # as runserver's handle() sets them
    server.handover = handover_take(data_dir=data_dir, environ={})  # as its handle() does (not into os.environ)
    server.on_bind(PORT)
    lines = out.getvalue().rstrip("\n").splitlines()
    start = lines.index(RULE)
    assert lines[-1] == RULE and lines[start:].count(RULE) == 2  # the block is the last thing printed
    return lines[start - 1], lines[start:]


def masked(line: str, secrets: list[str]) -> str:
    """``line`` with each secret replaced by as many bullets (an API key keeps its ``om_`` prefix)."""
    for secret in secrets:
        keep = 3 if secret.startswith("om_") else 0
        line = line.replace(secret, secret[:keep] + MASK * (len(secret) - keep))
    return line


def test_the_first_runs_final_block_as_a_terminal_shows_it(page, page_errors, settings, tmp_path, shots):
    settings.ORGMEMORY_ENV = "development"  # load_demo refuses any other mode; runserver prints the block only then
    settings.ORGMEMORY_DATA_DIR = tmp_path  # the password, the hand-over file: throwaway, as the test database

    before, block = first_run_end(tmp_path)
    assert before.startswith("For more information on production servers")  # Django's last start-up line

    # the real block holds the address, the superuser and its password, and both keys with their permissions
    password = dev_password(tmp_path)
    keys = demo_keys("\n".join(block))
    assert password and set(keys) == {"support-agent", "ops-admin"}
    assert block[1] == f"# OrgMemory (development) is at {URL}/"
    assert f"# admin      {URL}/admin/   user admin   password {password}" in block
    assert [line.split("  # ")[-1] for line in block if line.startswith("export ")] == [
        "support-agent: read, write",
        "ops-admin: read, write, delete, admin",
    ]

    secrets = [password, *keys.values()]
    shown = [masked(line, secrets) for line in block]
    rows = "\n".join(
        [f'    <div class="line dim">{html.escape(before)}</div>']  # the server's own start-up end, dimmed
        + [f'    <div class="line">{html.escape(line)}</div>' for line in shown]
    )
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("data:text/html;charset=utf-8," + quote(TERMINAL.format(columns=COLUMNS, lines=rows, masks=MASK * 10)))

    screen = page.locator("#screen")
    text = screen.inner_text()
    assert f"# OrgMemory (development) is at {URL}/" in text
    assert f"# admin      {URL}/admin/   user admin   password {MASK * len(password)}" in text
    for name, permissions in (("support-agent", "read, write"), ("ops-admin", "read, write, delete, admin")):
        assert f"# {name}: {permissions}" in text
    assert "export KEY=om_" + MASK in text and "export ADMIN_KEY=om_" + MASK in text
    assert not any(secret in page.content() for secret in secrets)  # masked: nothing real in the picture
    # as a terminal: one width for every character, the 112-column rule on one row, a longer line wrapped, not cut
    widths = {page.locator(f"#{probe}").bounding_box()["width"] for probe in ("narrow", "wide", "masked")}
    assert len(widths) == 1, widths
    row_height = page.locator("#narrow").bounding_box()["height"]  # one row
    lines = page.locator("#screen .line:not(.dim)")
    assert lines.first.bounding_box()["height"] == pytest.approx(row_height, abs=1)  # the rule
    curl = next(i for i, line in enumerate(shown) if line.startswith("curl "))
    assert len(shown[curl]) > COLUMNS
    assert lines.nth(curl).bounding_box()["height"] == pytest.approx(
        row_height * -(-len(shown[curl]) // COLUMNS), abs=1
    )
    assert screen.evaluate("screen => screen.scrollWidth <= screen.clientWidth")

    page.locator("#window").screenshot(path=shots / "first_run_block.png")
    assert page_errors == []
