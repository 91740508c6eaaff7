"""The graph page in a real headless Chromium (Debian's ``chromium``), driven over the Chrome DevTools Protocol.

No browser download and no driver: Chromium is started with ``--remote-debugging-pipe`` and spoken to through two
pipes (fd 3 in, fd 4 out, NUL-separated JSON), so the test needs nothing beyond the standard library. It logs in
with a session cookie, opens the page on the live server for a seeded graph, checks what the page publishes on
``window.orgGraph``, clicks a node and an edge with real mouse events, and saves ``artifacts/graph_page.png``.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
VIEWPORT = {"width": 1280, "height": 900}
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    f"--window-size={VIEWPORT['width']},{VIEWPORT['height']}",
    "--remote-debugging-pipe",
]
# Installed before the page's own scripts: catches what the console API would not show (uncaught errors, rejections).
ERROR_HOOK = """
window.__pageErrors = [];
window.addEventListener("error", (event) => window.__pageErrors.push(String(event.message || event.type)));
window.addEventListener("unhandledrejection", (event) => window.__pageErrors.push(String(event.reason)));
"""


def chromium_binary() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class CdpError(RuntimeError):
    pass


class Chromium:
    """A headless Chromium and one page of it, over the DevTools pipe. Console errors, uncaught exceptions and
    failed loads of the page are collected in ``errors``."""

    def __init__(self, binary: str, profile: str) -> None:
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        log = os.path.join(profile, "chromium.log")
        self.log_path = log
        # posix_spawn, not Popen(preexec_fn=...): the live server thread is running, and the pipe ends must land on
        # exactly fds 3 and 4 of the child
        self.pid = os.posix_spawn(
            binary,
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_OPEN, 1, log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600),
                (os.POSIX_SPAWN_DUP2, 1, 2),
                (os.POSIX_SPAWN_DUP2, to_browser_read, 3),
                (os.POSIX_SPAWN_DUP2, from_browser_write, 4),
            ],
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict] = []
        self.errors: list[str] = []
        self.session: str | None = None

    # --- protocol ---------------------------------------------------------------------------------------------

    def send(self, method: str, params: dict | None = None, *, page: bool = True, timeout: float = 30) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if page and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._on_event(reply)

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self._from_browser], [], [], remaining)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise CdpError(f"Chromium exited; see {self.log_path}")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def _on_event(self, event: dict) -> None:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(f"exception: {details.get('exception', {}).get('description') or details['text']}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append(
                "console: " + " ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"])
            )
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if entry.get("url", "").endswith("/favicon.ico"):
                return  # the site has no favicon and Chromium always asks for one: not the page's error
            self.errors.append(f"log: {entry['text']} {entry.get('url', '')}".strip())

    def pump(self, seconds: float) -> None:
        """Process events for a while (the page keeps running meanwhile)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise CdpError("Chromium exited")
            self._buffer += chunk
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                self._on_event(json.loads(raw))

    # --- the page ---------------------------------------------------------------------------------------------

    def open_page(self) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, page=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, page=False)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_HOOK})
        self.send("Emulation.setDeviceMetricsOverride", {**VIEWPORT, "deviceScaleFactor": 1, "mobile": False})

    def set_cookie(self, *, url: str, name: str, value: str) -> None:
        self.send("Network.setCookie", {"url": url, "name": name, "value": value, "httpOnly": True})

    def navigate(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'", timeout=30)

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise CdpError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, *, timeout: float = 20):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except CdpError:
                value = None  # mid-navigation: the context went away
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{expression} stayed falsy; page errors: {self.errors}")
            self.pump(0.1)

    def click(self, x: float, y: float) -> None:
        """A real left click: move there (force-graph finds what is under the pointer on its next frames), then
        press and release."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self.pump(0.3)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.send("Browser.close", page=False, timeout=5)
        except (CdpError, TimeoutError, OSError):
            pass
        for _ in range(50):
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.1)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self._to_browser)
        os.close(self._from_browser)


@pytest.fixture
def chromium():
    binary = chromium_binary()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="orgmemory-chromium-") as profile:
        browser = Chromium(binary, profile)
        try:
            browser.open_page()
            yield browser
        finally:
            browser.close()


@pytest.fixture
def logged_in(chromium, live_server, transactional_db):
    """The browser, signed in as a superuser through a session cookie."""
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    chromium.set_cookie(url=live_server.url, name="sessionid", value=client.cookies["sessionid"].value)
    return chromium


def test_graph_page_draws_recentres_and_opens_memories(logged_in, live_server, acme, seeded_graph):
    browser = logged_in
    entities = seeded_graph.entities
    acme_robotics = entities["Acme Robotics"]

    browser.navigate(f"{live_server.url}/admin/graph/?tenant={acme.pk}&entity={acme_robotics.pk}&depth=2")
    browser.wait_for("window.orgGraph && window.orgGraph.interactive()")

    assert browser.evaluate("window.orgGraph.centre()") == acme_robotics.pk
    assert browser.evaluate("window.orgGraph.nodeCount()") == 5
    assert browser.evaluate("window.orgGraph.edgeCount()") == 5
    assert browser.evaluate("window.orgGraph.nodeIds()") == sorted(
        seeded_graph.ids("Acme Robotics", "Alice Smith", "Bob Jones", "Carol White", "Stanford University")
    )
    assert "5 entities and 5 links within 2 hops of Acme Robotics." in browser.evaluate(
        "document.getElementById('kg-status').textContent"
    )
    browser.screenshot(ARTIFACTS / "graph_page.png")

    # a click on Carol White recentres the graph on her (depth 2: Carol → Bob → Acme Robotics, Alice)
    carol = entities["Carol White"]
    loads = browser.evaluate("window.orgGraph.loads()")
    position = browser.evaluate(f"window.orgGraph.nodeScreenPosition({carol.pk})")
    assert 0 < position["x"] < VIEWPORT["width"] and 0 < position["y"] < VIEWPORT["height"]
    browser.click(position["x"], position["y"])
    browser.wait_for(f"window.orgGraph.loads() > {loads} && window.orgGraph.interactive()")

    assert browser.evaluate("window.orgGraph.centre()") == carol.pk
    assert browser.evaluate("window.orgGraph.nodeIds()") == sorted(
        seeded_graph.ids("Carol White", "Bob Jones", "Acme Robotics", "Alice Smith")
    )
    assert browser.evaluate("location.search") == f"?tenant={acme.pk}&depth=2&entity={carol.pk}"
    assert browser.evaluate("document.getElementById('kg-entity').value") == "Carol White"
    browser.screenshot(ARTIFACTS / "graph_page_recentred.png")

    # a click on the edge Carol —advises→ Bob opens the memory that states it
    advises = next(edge for edge in browser.evaluate("window.orgGraph.edges()") if edge["relationship"] == "advises")
    assert advises["memory"] == seeded_graph.memories["advises"].pk
    middle = browser.evaluate(f"window.orgGraph.edgeScreenPosition({advises['id']})")
    browser.click(middle["x"], middle["y"])
    memory_page = f"/admin/memories/memory/{advises['memory']}/change/"
    browser.wait_for(f"location.pathname === '{memory_page}' && document.readyState === 'complete'")

    assert "Carol White advises Bob Jones." in browser.evaluate("document.body.innerText")
    browser.pump(0.2)
    assert browser.errors == []
    assert browser.evaluate("window.__pageErrors") == []


def test_graph_page_search_box_and_filters(logged_in, live_server, acme, seeded_graph):
    browser = logged_in
    entities = seeded_graph.entities

    browser.navigate(f"{live_server.url}/admin/graph/")
    browser.wait_for("window.orgGraph && window.orgGraph.ready()")
    # no entity asked for: the tenant's most mentioned one (Alice and Bob tie at three; the name decides)
    assert browser.evaluate("window.orgGraph.centre()") == entities["Alice Smith"].pk

    loads = browser.evaluate("window.orgGraph.loads()")
    browser.evaluate(
        """(() => {
            const input = document.getElementById("kg-entity");
            input.value = "stanf";
            document.getElementById("kg-controls").requestSubmit();
        })()"""
    )
    browser.wait_for(f"window.orgGraph.loads() > {loads} && window.orgGraph.ready()")
    assert browser.evaluate("window.orgGraph.centre()") == entities["Stanford University"].pk
    assert browser.evaluate("window.orgGraph.nodeIds()") == sorted(
        seeded_graph.ids("Stanford University", "Alice Smith")
    )

    loads = browser.evaluate("window.orgGraph.loads()")
    browser.evaluate(
        """(() => {
            const depth = document.getElementById("kg-depth");
            depth.value = "2";
            depth.dispatchEvent(new Event("change"));
        })()"""
    )
    browser.wait_for(f"window.orgGraph.loads() > {loads} && window.orgGraph.ready()")
    assert browser.evaluate("window.orgGraph.nodeCount()") == 4  # Stanford, Alice, Acme Robotics, Bob

    loads = browser.evaluate("window.orgGraph.loads()")
    browser.evaluate(
        """(() => {
            const relationship = document.getElementById("kg-relationship");
            relationship.value = "attended";
            relationship.dispatchEvent(new Event("change"));
        })()"""
    )
    browser.wait_for(f"window.orgGraph.loads() > {loads} && window.orgGraph.ready()")
    assert browser.evaluate("window.orgGraph.nodeIds()") == sorted(
        seeded_graph.ids("Stanford University", "Alice Smith")
    )

    browser.evaluate(
        """(() => {
            document.getElementById("kg-entity").value = "no such entity";
            document.getElementById("kg-controls").requestSubmit();
        })()"""
    )
    browser.wait_for("window.orgGraph.error() !== ''")
    assert browser.evaluate("window.orgGraph.error()") == "No entity of this tenant matches “no such entity”."
    assert browser.errors == []
    assert browser.evaluate("window.__pageErrors") == []
