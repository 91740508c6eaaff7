"""The memory store's admin screens (importing them registers them on ``admin.site``, OrgMemory's site of
``orgmemory.admin_site``) and its custom pages, which that site mounts."""

from memories.admin import audit, login, memory, policy, tenancy  # noqa: F401  (importing them registers the admin screens)
