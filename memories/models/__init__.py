from memories.models.memory import EMBEDDING_DIM, IndexState, Memory, MemoryAccess, MemoryChunk, MemoryKind
from memories.models.tenancy import (
    DEFAULT_LEVELS,
    PROJECT_LEVEL,
    ApiKey,
    Member,
    Policy,
    Scope,
    Tenant,
    TenantStaff,
)

__all__ = [
    "EMBEDDING_DIM",
    "IndexState",
    "Memory",
    "MemoryAccess",
    "MemoryChunk",
    "MemoryKind",
    "DEFAULT_LEVELS",
    "PROJECT_LEVEL",
    "ApiKey",
    "Member",
    "Policy",
    "Scope",
    "Tenant",
    "TenantStaff",
]
