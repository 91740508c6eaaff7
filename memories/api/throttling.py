"""Rate limiting per API key (``ORGMEMORY_API_RATE``, default 1200/minute) and of failures per client address (bad
API keys: ``ORGMEMORY_BAD_KEY_RATE``; admin sign-ins), counted in Django's cache.

With several API processes give them a shared cache (Redis) so that the limit is per key, not per process."""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from memories.models import ApiKey

THROTTLE_SCOPE = "api_key"
DEFAULT_BAD_KEY_RATE = "20/minute"  # failed API-key authentications per client address


class ApiKeyRateThrottle(SimpleRateThrottle):
    scope = THROTTLE_SCOPE

    def get_rate(self) -> str | None:
        # read at request time (DRF caches the rates on the class at import), so settings overrides apply
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view) -> str | None:
        key = request.auth
        if not isinstance(key, ApiKey):
            return None  # unauthenticated requests never reach a throttled view's work
        return self.cache_format % {"scope": self.scope, "ident": key.prefix}


# --- failures per client address (bad API keys; the admin login uses the same counter) -------------------------

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def client_address(request) -> str:
    """The client's IP: the socket's address, or with ``NUM_PROXIES`` > 0 the entry that many proxies from the
    end of ``X-Forwarded-For`` (what those proxies saw), as DRF's own throttles count it."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    proxies = api_settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return remote


def parse_rate(rate: str) -> tuple[int, int]:
    """``"20/minute"`` → (20, 60). The period is read from its first letter: s, m, h or d."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[0].lower()]


class FailureCounter:
    """Failures per key in a fixed window, in Django's cache (shared across processes with ORGMEMORY_CACHE_URL).

    ``blocked`` answers the seconds left while the key is at its limit (None when it is not); ``fail`` counts one
    failure; ``clear`` forgets them (a success)."""

    def __init__(self, namespace: str, *, limit: int, window_seconds: int) -> None:
        self.namespace, self.limit, self.window = namespace, limit, window_seconds

    def _keys(self, ident: str) -> tuple[str, str]:
        digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # bounded, no odd chars
        return f"orgmemory:{self.namespace}:{digest}", f"orgmemory:{self.namespace}:{digest}:until"

    def blocked(self, ident: str) -> int | None:
        count_key, until_key = self._keys(ident)
        if (cache.get(count_key) or 0) < self.limit:
            return None
        until = cache.get(until_key) or time.time() + self.window
        return max(1, math.ceil(until - time.time()))

    def fail(self, ident: str) -> None:
        count_key, until_key = self._keys(ident)
        if cache.add(count_key, 1, timeout=self.window):
            cache.set(until_key, time.time() + self.window, timeout=self.window)
            return
        try:
            cache.incr(count_key)
        except ValueError:  # expired between add and incr: start a new window
            cache.set(count_key, 1, timeout=self.window)
            cache.set(until_key, time.time() + self.window, timeout=self.window)

    def clear(self, ident: str) -> None:
        cache.delete_many(list(self._keys(ident)))


def bad_key_counter() -> FailureCounter:
    limit, window = parse_rate(getattr(settings, "ORGMEMORY_BAD_KEY_RATE", DEFAULT_BAD_KEY_RATE))
    return FailureCounter("bad-api-key", limit=limit, window_seconds=window)
