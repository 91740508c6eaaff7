"""The graph's API views: entities, their neighbourhoods and their facts, each as one user may see them."""

from graph.api.entities import EntityDetailApi, EntityListApi
from graph.api.facts import EntityFactsApi, current_facts, entity_facts_as_dict
from graph.api.neighbours import EntityNeighboursApi, neighbourhood_as_dict

__all__ = [
    "EntityDetailApi",
    "EntityFactsApi",
    "EntityListApi",
    "EntityNeighboursApi",
    "current_facts",
    "entity_facts_as_dict",
    "neighbourhood_as_dict",
]
