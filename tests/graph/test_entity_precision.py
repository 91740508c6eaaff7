"""A quieter graph: what extraction gives the graph is mostly real named things, typed right.

Pure: runs without Django (``-p no:django``). The demo tenant's memories (fixtures/demo_memories.jsonl) are read
as the store reads them (the title's entity when the title names one, then every link's ends) and scored against
a hand-written label list (tests/graph/data/demo_entity_labels.tsv): an unknown kind is not wrong, a wrong kind is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph import vocabulary as v
from graph.extraction import extract_links, normalize_entity_name, title_entity

ROOT = Path(__file__).resolve().parents[2]
LABELS = Path(__file__).parent / "data" / "demo_entity_labels.tsv"
_ORGS = {v.COMPANY, v.ORG}


def _labels() -> dict[str, tuple[str, str]]:
    labels = {}
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            norm, verdict, *kind = line.split("\t")
            labels[norm] = (verdict, kind[0] if kind else "")
    return labels


def _demo_entities(*, titles: bool) -> dict[str, tuple[str, str]]:
    found: dict[str, list[str]] = {}

    def add(name: str, norm: str, kind: str) -> None:
        if norm and norm not in found:
            found[norm] = [name, kind]
        elif norm and found[norm][1] == v.UNKNOWN:
            found[norm][1] = kind

    for line in (ROOT / "fixtures" / "demo_memories.jsonl").read_text(encoding="utf-8").splitlines():
        memory = json.loads(line)
        title = memory.get("title") or ""
        links = extract_links(memory["content"], self_name=title or None)
        name = title_entity(title, memory["content"], links, kind_given="entity_kind" in memory.get("metadata", {}))
        if name and titles:
            add(name, normalize_entity_name(name), v.UNKNOWN)
        for link in links:
            for end in (link.subject, link.object):
                if end is not None:
                    add(end.name, end.norm, end.kind)
    return {norm: (name, kind) for norm, (name, kind) in found.items()}


def _precision(entities: dict[str, tuple[str, str]]) -> float:
    labels = _labels()
    assert set(entities) <= set(labels), sorted(set(entities) - set(labels))  # every entity is labelled
    right = 0
    for norm, (_, kind) in entities.items():
        verdict, want = labels[norm]
        typed_right = kind == v.UNKNOWN or not want or kind == want or {kind, want} <= _ORGS
        right += verdict == "ok" and typed_right
    return right / len(entities)


def test_extracted_entities_of_the_demo_are_mostly_real_names() -> None:
    precision = _precision(_demo_entities(titles=False))
    print(f"demo, extracted entities: precision {precision:.3f}")
    assert precision >= 0.89


def test_with_the_titles_entities() -> None:
    # a memory's title becomes the entity it is about (graph.services) only when it names one: descriptive titles
    # ("What we do", "1:1 with Bea") do not
    precision = _precision(_demo_entities(titles=True))
    print(f"demo, titles included: precision {precision:.3f}")
    assert precision >= 0.90


def _names(text: str, self_name: str | None = None) -> dict[str, str]:
    found = {}
    for link in extract_links(text, self_name=self_name):
        for end in (link.subject, link.object):
            if end is not None:
                found[end.name] = end.kind
    return found


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Albert Novak works from home on Tuesdays and Fridays.", {"Albert Novak"}),
        ("Book QBRs and SLOs reviews with Priya Nair.", {"Priya Nair"}),
        ("I'm out, ask Dmitri Volkov.", {"Dmitri Volkov"}),
        ("Use Google Meet for calls with Harbor Home Goods.", {"Google Meet", "Harbor Home Goods"}),
        ("Write an ADR and a CRM note before talking to Globex.", {"Globex"}),
        ('She gave a talk, "Why Most Seed Rounds Are Too Large", at Stanford University.', {"Stanford University"}),
        ("Dashboards live in Looker under Ops › Weekly › Regions, owned by Ruth Alvarez.", {"Looker", "Ruth Alvarez"}),
        ("Email it@acme.example. Laptops are replaced by Dana Reyes every year.", {"Dana Reyes"}),
        ("Dana Reyes was featured in Fast Company last spring.", {"Dana Reyes", "Fast Company"}),
    ],
)
def test_common_words_that_look_like_names_are_not_entities(text: str, names: set[str]) -> None:
    assert set(_names(text)) == names


def test_a_text_calling_its_own_entity_a_customer_types_it_a_company() -> None:
    text = "Acme Retail partnered with Northwind Logistics in 2022. It is our largest customer."

    assert _names(text, self_name="Acme Retail")["Acme Retail"] == v.COMPANY
    assert (
        _names(text.replace("It is our largest customer", "It is sunny"), self_name="Acme Retail")["Acme Retail"]
        == v.UNKNOWN
    )
