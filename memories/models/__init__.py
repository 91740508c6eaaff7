from memories.models.embedding import ChunkShadowVector
from memories.models.memory import (
    EMBEDDING_DIM,
    IndexState,
    Memory,
    MemoryAccess,
    MemoryChunk,
    MemoryKind,
    MemorySource,
    MemoryStatus,
)
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
    "ChunkShadowVector",
    "EMBEDDING_DIM",
    "IndexState",
    "Memory",
    "MemoryAccess",
    "MemoryChunk",
    "MemoryKind",
    "MemorySource",
    "MemoryStatus",
    "DEFAULT_LEVELS",
    "PROJECT_LEVEL",
    "ApiKey",
    "Member",
    "Policy",
    "Scope",
    "Tenant",
    "TenantStaff",
]
