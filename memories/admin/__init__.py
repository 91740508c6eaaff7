from memories.admin import tenancy  # noqa: F401  (registers the tenancy screens)
