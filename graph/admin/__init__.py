"""Admin curation of the knowledge graph: entities (merge, split an alias back off) and links (delete), each
write through ``graph.services``, every screen inside the admin user's tenants. The interactive graph page is in
``graph.views``."""

from graph.admin import entity, link  # noqa: F401  (importing them registers the admin screens)
