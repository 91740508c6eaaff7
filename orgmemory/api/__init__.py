"""The agent-facing REST API's plumbing: API-key authentication and permissions, the deny-by-default base view,
the one exception handler, throttling, the request-id middleware, strict JSON parsing and shared serializers.

The endpoints themselves live with their apps (``memories.api``, ``graph.api``, ``retrieval.api``,
``orgmemory.health``) and are routed under ``/api/v1/`` by ``orgmemory.api_urls``.
"""
