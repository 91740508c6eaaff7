"""Admin curation of the knowledge graph: entities (merge, split an alias back off; the page's fact timeline), links
(delete) and facts (close, correct), each write through ``graph.services`` or ``graph.fact_services``, every screen
inside the admin user's tenants. The interactive graph page is in ``graph.views``."""

from graph.admin import entity, fact, link  # noqa: F401  (importing them registers the admin screens)
