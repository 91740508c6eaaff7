"""The HTTP side of the ADK adapter: configuration, the error type, and an ``httpx.AsyncClient`` per event loop
with one retry on connection errors. Imports neither Django nor ADK."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

import httpx

logger = logging.getLogger(__name__)

URL_ENV = "ORGMEMORY_URL"
API_KEY_ENV = "ORGMEMORY_API_KEY"
API_PREFIX = "/api/v1"
DEFAULT_TIMEOUT = 10.0
DEFAULT_RETRY_DELAY = 0.2
USER_AGENT = "orgmemory-adk/0.1"

# Failures where the request cannot have been processed, or the connection broke before a response: retried
# once. Every endpoint the adapter calls is idempotent (sessions per event id, memories by content or event id,
# search is a read), so a retry never stores twice. A read timeout and any HTTP status are not retried.
RETRYABLE_ERRORS: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError)


class OrgMemoryError(Exception):
    """An OrgMemory API call failed.

    ``status`` is the HTTP status (``None`` when no response arrived: ``code`` is then ``unreachable``,
    ``timeout`` or ``transport_error``); ``code``, ``message`` and ``details`` come from the API's
    ``{"error": {...}}`` body.
    """

    def __init__(
        self, *, status: int | None, code: str, message: str, details: Any = None, method: str = "", path: str = ""
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.details = details if details is not None else {}
        self.method = method
        self.path = path
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method else ""
        status = f"{self.status} " if self.status is not None else ""
        return f"OrgMemory API error {status}{self.code}: {self.message}{where}"


def resolve_base_url(base_url: str | None) -> str:
    """The server root from the argument or ``ORGMEMORY_URL``: ``http(s)://host[:port][/prefix]``, no trailing
    slash and no ``/api/v1`` (added per request). Raises ValueError naming the variable when neither is set."""
    url = (base_url if base_url is not None else os.environ.get(URL_ENV, "")).strip()
    if not url:
        raise ValueError(f"OrgMemory URL missing: pass base_url or set {URL_ENV} (e.g. http://127.0.0.1:8000).")
    parts = httpx.URL(url)
    if parts.scheme not in ("http", "https") or not parts.host:
        raise ValueError(f"{URL_ENV} must be an http(s) URL such as http://127.0.0.1:8000, got {url!r}.")
    if parts.query or parts.fragment:
        raise ValueError(f"{URL_ENV} must not carry a query or fragment, got {url!r}.")
    url = url.rstrip("/")
    if url.endswith(API_PREFIX):
        url = url[: -len(API_PREFIX)]
    return url


def resolve_api_key(api_key: str | None) -> str:
    """The key from the argument or ``ORGMEMORY_API_KEY``; ValueError naming the variable when neither is set."""
    key = (api_key if api_key is not None else os.environ.get(API_KEY_ENV, "")).strip()
    if not key:
        raise ValueError(f"OrgMemory API key missing: pass api_key or set {API_KEY_ENV}.")
    return key


def error_from_response(response: httpx.Response, *, method: str, path: str) -> OrgMemoryError:
    """Map an HTTP error response to OrgMemoryError, reading ``{"error": {"code", "message", "details"}}`` when
    the body has it (a proxy's HTML 502 still gives a readable error)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return OrgMemoryError(
            status=response.status_code,
            code=str(error.get("code") or f"http_{response.status_code}"),
            message=str(error.get("message") or response.reason_phrase),
            details=error.get("details") if error.get("details") is not None else {},
            method=method,
            path=path,
        )
    snippet = " ".join(response.text.split())[:200]
    return OrgMemoryError(
        status=response.status_code,
        code=f"http_{response.status_code}",
        message=f"{response.reason_phrase}: {snippet}" if snippet else response.reason_phrase,
        method=method,
        path=path,
    )


class OrgMemoryHttp:
    """JSON calls to ``<base_url>/api/v1/...`` with ``Authorization: Bearer <key>``.

    ADK may call one memory service from several event loops (``Runner.run`` runs its own loop in a thread, the
    web server has another), and an ``httpx.AsyncClient`` is bound to the loop that opened its connections. So
    there is one client per loop, created on first use in that loop; clients of loops that have closed are
    dropped.
    """

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        timeout: float = DEFAULT_TIMEOUT,
        retry_delay: float = DEFAULT_RETRY_DELAY,
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout!r}")
        self.base_url = base_url
        self.timeout = timeout
        self.retry_delay = retry_delay
        self._headers = {
            "Authorization": f"Bearer {api_key}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
        self._clients: dict[asyncio.AbstractEventLoop, httpx.AsyncClient] = {}
        self._lock = threading.Lock()

    def client(self) -> httpx.AsyncClient:
        """The client of the running loop (created on first use)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            for stale in [other for other in self._clients if other.is_closed()]:
                # its connections died with the loop; nothing can await their closing any more
                del self._clients[stale]
            client = self._clients.get(loop)
            if client is None or client.is_closed:
                client = httpx.AsyncClient(
                    base_url=self.base_url + API_PREFIX, headers=self._headers, timeout=self.timeout
                )
                self._clients[loop] = client
            return client

    @property
    def open_clients(self) -> int:
        with self._lock:
            return sum(1 for client in self._clients.values() if not client.is_closed)

    async def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None) -> Any:
        """Send one call (retried once on a connection error) and return the decoded JSON body (None if empty).
        Raises OrgMemoryError for an HTTP error status, a timeout, or a server still unreachable on the retry."""
        for attempt in (1, 2):
            try:
                response = await self.client().request(method, path, json=json, params=params)
                break
            except RETRYABLE_ERRORS as exc:
                if attempt == 2:
                    raise OrgMemoryError(
                        status=None,
                        code="unreachable",
                        message=f"no response from {self.base_url} after one retry: {type(exc).__name__}: {exc}",
                        method=method,
                        path=path,
                    ) from exc
                logger.info("OrgMemory %s %s failed (%s); retrying once", method, path, type(exc).__name__)
                await asyncio.sleep(self.retry_delay)
            except httpx.TimeoutException as exc:
                raise OrgMemoryError(
                    status=None,
                    code="timeout",
                    message=f"no answer from {self.base_url} within {self.timeout:g} s ({type(exc).__name__})",
                    method=method,
                    path=path,
                ) from exc
            except httpx.HTTPError as exc:
                raise OrgMemoryError(
                    status=None,
                    code="transport_error",
                    message=f"{type(exc).__name__}: {exc}",
                    method=method,
                    path=path,
                ) from exc
        if response.is_error:
            raise error_from_response(response, method=method, path=path)
        if not response.content:
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise OrgMemoryError(
                status=response.status_code,
                code="invalid_response",
                message="the server answered with a body that is not JSON",
                method=method,
                path=path,
            ) from exc

    async def aclose(self) -> None:
        """Close every client: the running loop's now, a live other loop's on that loop, a closed loop's dropped."""
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:
            current = None
        with self._lock:
            clients, self._clients = self._clients, {}
        for loop, client in clients.items():
            if loop is current:
                await client.aclose()
            elif not loop.is_closed() and loop.is_running():
                asyncio.run_coroutine_threadsafe(client.aclose(), loop)
