"""Writes. Every caller (admin, API, commands, tasks) goes through these functions."""

from memories.services.tenancy import (
    OnboardResult,
    api_key_authenticate,
    api_key_create,
    api_key_revoke,
    member_provision,
    policy_effective,
    tenant_onboard,
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
