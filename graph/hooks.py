"""The graph's registrations into the memory store's extension points (``memories.hooks``), made by
``GraphConfig.ready``: its half of a user's erasure, its re-index step, and the links a vault export writes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graph.models import Entity, EntityLink, Fact
from graph.services import entity_names_forget_unused, links_extract_for_memories
from memories.hooks import (
    ErasureShare,
    IndexStep,
    erasure_share_register,
    index_step_register,
    vault_links_register,
)
from memories.models import Tenant


def links_erasure_start(*, tenant: Tenant, memory_ids: list[int]) -> Callable[[], ErasureShare]:
    """Before the memories go: count the links they state (the delete cascades them) and note the entities they
    touch; after: forget the names only the erased memories used, aliases included (a merge must not keep them
    alive)."""
    links = EntityLink.objects.filter(tenant=tenant, memory_id__in=memory_ids)
    touched: set[int] = set()
    for subject_id, object_id in links.values_list("subject_id", "object_id"):
        touched.add(subject_id)
        if object_id:
            touched.add(object_id)
    link_count = links.count()
    # the facts they state go with them (a cascade); their ids are the audit entries of curators' changes to scrub
    facts = sorted(Fact.objects.filter(tenant=tenant, memory_id__in=memory_ids).values_list("pk", flat=True))

    def finish() -> ErasureShare:
        pruned = entity_names_forget_unused(tenant_id=tenant.pk, entity_ids=touched)
        return ErasureShare(
            counts={"links": link_count, "entities": len(pruned), "facts": len(facts)},
            erased={Entity: sorted(pruned), Fact: facts},
        )

    return finish


def vault_links_read(
    memory_ids: Sequence[int],
) -> tuple[list[tuple[int, int, str, int | None]], list[tuple[int, str, str]]]:
    """The links of ``memory_ids`` (memory, then link order) and the entities they name, for a vault export."""
    rows = EntityLink.objects.filter(memory_id__in=list(memory_ids)).order_by("memory_id", "id")
    links = list(rows.values_list("memory_id", "subject_id", "relationship", "object_id"))
    entity_ids = {
        entity_id for _, subject_id, _, object_id in links for entity_id in (subject_id, object_id) if entity_id
    }
    entities = list(Entity.objects.filter(pk__in=entity_ids).values_list("pk", "name", "kind"))
    return links, entities


def register() -> None:
    erasure_share_register("graph", links_erasure_start)
    index_step_register(IndexStep(name="links", state_field="links_state", run=links_extract_for_memories))
    vault_links_register(vault_links_read)
