"""Loaded by ADK's CLI (``adk web`` / ``adk run`` / ``adk api_server``) from the folder it is given, before it
builds the services: registers the ``orgmemory://`` scheme so ``--memory_service_uri orgmemory://host:port``
resolves to ``OrgMemoryService``."""

from retrieval.adk import register_org_memory_scheme

register_org_memory_scheme()
