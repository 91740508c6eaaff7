"""Writes. Every caller (admin, API, commands, tasks) goes through these functions."""

from memories.services.onboarding import OnboardResult, tenant_onboard
from memories.services.tenancy import (
    api_key_authenticate,
    api_key_create,
    api_key_revoke,
    member_provision,
    policy_effective,
)

__all__ = [
    "OnboardResult",
    "api_key_authenticate",
    "api_key_create",
    "api_key_revoke",
    "member_provision",
    "policy_effective",
    "tenant_onboard",
]
