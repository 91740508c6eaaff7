"""The admin sign-in, limited per client address and username: after ORGMEMORY_LOGIN_FAILURE_LIMIT failures
(default 10) within ORGMEMORY_LOGIN_LOCKOUT_SECONDS (default 15 minutes) that username is refused from that address,
with a message saying so, until the window ends. Another address, or another username, is not affected, so an
attacker cannot lock an admin out from everywhere."""

from __future__ import annotations

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from memories.api.throttling import FailureCounter, client_address


def _counter() -> FailureCounter:
    return FailureCounter(
        "admin-login",
        limit=settings.ORGMEMORY_LOGIN_FAILURE_LIMIT,
        window_seconds=settings.ORGMEMORY_LOGIN_LOCKOUT_SECONDS,
    )


class RateLimitedAdminAuthenticationForm(AdminAuthenticationForm):
    def clean(self):
        username = (self.cleaned_data.get("username") or "").casefold()
        ident = f"{client_address(self.request) if self.request else 'unknown'}|{username}"
        counter = _counter()
        wait = counter.blocked(ident)
        if wait is not None:
            minutes = max(1, round(wait / 60))
            raise ValidationError(
                "Too many failed sign-ins for this username from your address. Try again in about %(minutes)d "
                "minute(s).",
                code="too_many_failures",
                params={"minutes": minutes},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            counter.fail(ident)
            raise
        counter.clear(ident)
        return cleaned
