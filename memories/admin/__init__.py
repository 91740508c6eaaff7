from memories.admin import memory, tenancy  # noqa: F401  (importing them registers the admin screens)
