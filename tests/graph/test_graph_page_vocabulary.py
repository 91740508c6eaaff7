"""The graph page hands graph.vocabulary's labels and colours to graph.js through ``json_script``."""

from __future__ import annotations

import json
import re

import pytest

from graph import vocabulary as v

pytestmark = pytest.mark.django_db


def test_graph_page_carries_the_vocabulary_and_labels_its_relationship_filter(acme_staff_client, acme, seeded_graph):
    from django.urls import reverse

    response = acme_staff_client.get(reverse("admin:graph"), {"tenant": acme.pk})

    html = response.content.decode()
    assert response.status_code == 200
    script = re.search(r'<script id="kg-vocabulary" type="application/json">(.*?)</script>', html, re.S)
    assert script is not None
    assert json.loads(script.group(1)) == v.as_json()
    for relationship in v.RELATIONSHIPS:
        if relationship.typed:
            assert f'<option value="{relationship.value}">{relationship.label}</option>' in html
    assert f'<option value="{v.MENTIONED}">' not in html  # bare mentions are not a filter


def test_graph_js_hardcodes_no_relationship_or_kind() -> None:
    from django.conf import settings

    script = (settings.BASE_DIR / "static" / "graph" / "graph.js").read_text(encoding="utf-8")

    for value in (*v.RELATIONSHIP_VALUES, *v.ENTITY_KIND_VALUES):
        if value != v.UNKNOWN:  # the fallback colour of a kind the vocabulary does not know
            assert not re.search(rf"\b{value}\s*:", script), value
    assert "#e67e22" not in script  # founded's colour lives in the vocabulary only
