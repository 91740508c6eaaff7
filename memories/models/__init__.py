from memories.models.tenancy import (
    DEFAULT_LEVELS,
    ApiKey,
    Member,
    Policy,
    Scope,
    Tenant,
    TenantStaff,
)

__all__ = ["DEFAULT_LEVELS", "ApiKey", "Member", "Policy", "Scope", "Tenant", "TenantStaff"]
