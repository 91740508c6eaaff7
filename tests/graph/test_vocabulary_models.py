"""The graph models take their choices from graph.vocabulary, and PostgreSQL refuses any other value."""

from __future__ import annotations

import pytest

from graph import vocabulary as v


@pytest.mark.django_db
def test_model_choices_are_the_vocabulary() -> None:
    from graph.models import Entity, EntityLink

    assert [value for value, _ in Entity._meta.get_field("kind").choices] == list(v.ENTITY_KIND_VALUES)
    assert [value for value, _ in EntityLink._meta.get_field("relationship").choices] == list(v.RELATIONSHIP_VALUES)


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["kind", "relationship"])
def test_the_database_refuses_a_value_outside_the_vocabulary(acme, field: str) -> None:
    from django.db import IntegrityError, transaction

    from graph.models import Entity, EntityLink
    from tests.conftest import remember

    memory = remember(acme, "A note.")
    entity = Entity.objects.create(tenant=acme, name="Acme", norm="acme", kind=v.COMPANY)
    with pytest.raises(IntegrityError, match="entity_kind_known|link_relationship_known"), transaction.atomic():
        if field == "kind":
            Entity.objects.create(tenant=acme, name="Beta", norm="beta", kind="compnay")
        else:
            EntityLink.objects.create(
                tenant=acme, memory=memory, subject=entity, object=entity, relationship="works_for", confidence=0.5
            )
    assert not Entity.objects.filter(tenant=acme, norm="beta").exists()
    assert not EntityLink.objects.filter(tenant=acme, relationship="works_for").exists()
