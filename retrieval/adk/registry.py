"""The ``orgmemory://`` memory-service scheme for ADK's service registry (``adk web/run --memory_service_uri``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from retrieval.adk.client import DEFAULT_TIMEOUT
from retrieval.adk.service import DEFAULT_TOP_K, OrgMemoryService

SCHEME = "orgmemory"  # ADK schemes cannot contain "_"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_QUERY_PARAMS = ("tls", "timeout", "top_k")


def base_url_from_uri(uri: str) -> tuple[str, dict[str, Any]]:
    """``orgmemory://host:port[/prefix][?tls=1&timeout=5&top_k=8]`` → (``http(s)://host:port[/prefix]``, options).

    The API key never goes in the URI (ADK logs URIs): it comes from ``ORGMEMORY_API_KEY``.
    """
    parts = urlsplit(uri)
    if parts.scheme != SCHEME:
        raise ValueError(f"not an {SCHEME}:// URI: {uri!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{SCHEME}:// URIs carry no credentials; set ORGMEMORY_API_KEY instead")
    if not parts.hostname:
        raise ValueError(f"{SCHEME}:// URI needs a host, e.g. {SCHEME}://127.0.0.1:8000")
    parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - set(_QUERY_PARAMS))
    if unknown:
        raise ValueError(f"unknown {SCHEME}:// URI parameter(s) {unknown}; supported: {list(_QUERY_PARAMS)}")
    options: dict[str, Any] = {}
    tls = query.get("tls", [""])[-1].strip().lower()
    if tls not in _TRUE | _FALSE:
        raise ValueError(f"tls must be 1/0 (true/false), got {tls!r}")
    if "timeout" in query:
        options["timeout"] = float(query["timeout"][-1])
    if "top_k" in query:
        options["top_k"] = int(query["top_k"][-1])
    scheme = "https" if tls in _TRUE else "http"
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}", options


def org_memory_service_from_uri(uri: str, **kwargs: Any) -> OrgMemoryService:
    """ADK service factory: called as ``factory(uri, agents_dir=..., ...)``; the keyword arguments are ADK's
    and not needed here."""
    base_url, options = base_url_from_uri(uri)
    return OrgMemoryService(
        base_url=base_url,
        timeout=options.get("timeout", DEFAULT_TIMEOUT),
        top_k=options.get("top_k", DEFAULT_TOP_K),
    )


def register_org_memory_scheme() -> None:
    """Make ``orgmemory://host:port`` a memory-service URI for ADK (``get_fast_api_app``, ``adk web``,
    ``adk run``). Registering again is harmless: the scheme maps to the same factory."""
    from google.adk.cli.service_registry import get_service_registry

    get_service_registry().register_memory_service(SCHEME, org_memory_service_from_uri)
