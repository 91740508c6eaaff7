"""Rate limiting per API key (``ORGMEMORY_API_RATE``, default 1200/minute), counted in Django's cache.

With several API processes give them a shared cache (Redis) so that the limit is per key, not per process."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from memories.models import ApiKey

THROTTLE_SCOPE = "api_key"


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
