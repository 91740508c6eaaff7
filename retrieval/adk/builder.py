"""``build_memory_service()``: org memory for generated agents, which must run without it rather than fail.

The registry path (``orgmemory://`` URIs, ``OrgMemoryService()``) is an explicit opt-in and raises on a bad
configuration. A generated agent instead calls::

    from retrieval.adk.builder import build_memory_service, memory_tools

    memory = build_memory_service()  # None, with one warning saying why, when org memory is not there
    agent = LlmAgent(..., tools=[*memory_tools(memory), *other_tools])
    runner = Runner(..., memory_service=memory)

``None`` when ``ORGMEMORY_URL`` or ``ORGMEMORY_API_KEY`` is unset, when the Google ADK (the ``adk`` extra) is not
installed, when the configuration is malformed, or when the server does not answer its health check with that key
within ``probe_timeout`` seconds. Importing this module needs neither Django nor the ADK.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

import httpx

from retrieval.adk.client import API_KEY_ENV, API_PREFIX, URL_ENV, USER_AGENT

if TYPE_CHECKING:
    from retrieval.adk.service import OrgMemoryService

logger = logging.getLogger(__name__)

DEFAULT_PROBE_TIMEOUT = 3.0  # seconds for the one health call at build time: an agent's start-up must not hang


def build_memory_service(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    probe_timeout: float = DEFAULT_PROBE_TIMEOUT,
    **options: Any,
) -> OrgMemoryService | None:
    """An ``OrgMemoryService`` ready to use, or None (logged as a warning naming the missing piece). Never raises.

    ``base_url`` / ``api_key`` default to ``ORGMEMORY_URL`` / ``ORGMEMORY_API_KEY``; ``options`` go to
    ``OrgMemoryService`` (``timeout``, ``top_k``, ``project``…)."""
    try:
        return _build(base_url=base_url, api_key=api_key, probe_timeout=probe_timeout, options=options)
    except Exception as exc:  # the contract: an agent without org memory, never an agent that cannot start
        return _without(f"unexpected {type(exc).__name__}: {exc}")


def memory_tools(service: OrgMemoryService | None) -> list:
    """ADK's ``preload_memory`` and ``load_memory`` when there is a memory service, else none (both tools raise
    without one)."""
    if service is None:
        return []
    from google.adk.tools import load_memory, preload_memory

    return [preload_memory, load_memory]


def _build(*, base_url: str | None, api_key: str | None, probe_timeout: float, options: dict[str, Any]):
    url = (base_url if base_url is not None else os.environ.get(URL_ENV, "")).strip()
    key = (api_key if api_key is not None else os.environ.get(API_KEY_ENV, "")).strip()
    if not url:
        return _without(f"{URL_ENV} is not set")
    if not key:
        return _without(f"{API_KEY_ENV} is not set")
    try:
        from retrieval.adk.service import OrgMemoryService
    except ImportError as exc:
        return _without(
            f"the Google ADK is not installed (the adk extra: pip install 'orgmemory[adk]'; {type(exc).__name__})"
        )
    try:
        service = OrgMemoryService(base_url=url, api_key=key, **options)
    except (TypeError, ValueError) as exc:
        return _without(f"the configuration is not valid: {exc}")
    problem = _probe(service.base_url, key, probe_timeout)
    if problem is not None:
        return _without(problem)
    logger.info("OrgMemory is this agent's memory service (%s)", service.base_url)
    return service


def _probe(base_url: str, api_key: str, timeout: float) -> str | None:
    """None when the server answers its health check with this key, else why not."""
    headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": USER_AGENT}
    try:
        response = httpx.get(f"{base_url}{API_PREFIX}/health", headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        return f"{base_url} did not answer within {timeout:g} s"
    except httpx.HTTPError as exc:
        return f"{base_url} is unreachable ({type(exc).__name__}: {exc})"
    if response.status_code in (401, 403):
        return f"{base_url} refused the API key ({response.status_code})"
    if response.status_code != 200:
        return f"{base_url} is not healthy (HTTP {response.status_code})"
    try:
        status = response.json().get("status")
    except ValueError:
        return f"{base_url} did not answer like an OrgMemory server (the health body is not JSON)"
    if status not in ("ok", "degraded"):  # degraded: the embedder is down, search still answers
        return f"{base_url} reports status {status!r}"
    return None


def _without(reason: str) -> None:
    logger.warning("OrgMemory is off for this agent: %s; it runs without organisational memory", reason)
    return None
