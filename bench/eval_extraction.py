"""Extraction benchmark over the world-v1 pages (pure: no Django, no database).

``evaluate_world`` runs :func:`graph.extraction.extract_links` over every page's ``compiled_truth`` +
``timeline`` with ``self_name=title`` and scores the typed edges against gold relations taken from ``_facts``
(which is read for scoring only, never for extraction).

Gold edges (both ends must be pages of the corpus, as in the retrieval protocol):

* company pages: ``founders`` -> founded, ``investors`` -> invested_in, ``employees`` -> works_at,
  ``advisors`` -> advises (person -> company);
* meeting pages: ``attendees`` -> attended (person -> meeting);
* person pages: ``role`` + ``primary_affiliation``: founder -> founded, advisor -> advises, engineer and
  partner -> works_at (a partner of a venture firm is employed by it).

``secondary_affiliations`` say that *some* relation holds without saying which: an extracted edge between a
person and one of their secondary affiliations whose relationship is not in the gold set is counted as
``ambiguous`` (reported, excluded from precision) rather than as a false positive.

Entities resolve to pages by link target (when it is a page slug), else by normalised name equal to a page
title's; an extracted edge with an end that resolves to no page is ``unscorable`` (reported, excluded).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.pages import read_pages, timeline_text
from graph import vocabulary as v
from graph.extraction import extract_links, normalize_entity_name, split_title
from graph.extraction.types import EntityRef

SCORED_RELATIONSHIPS: tuple[str, ...] = (v.FOUNDED, v.INVESTED_IN, v.WORKS_AT, v.ADVISES, v.ATTENDED)
_COMPANY_FACTS = {
    "founders": v.FOUNDED,
    "investors": v.INVESTED_IN,
    "employees": v.WORKS_AT,
    "advisors": v.ADVISES,
}
_PERSON_ROLES = {"founder": v.FOUNDED, "advisor": v.ADVISES, "engineer": v.WORKS_AT, "partner": v.WORKS_AT}

Edge = tuple[str, str, str]


def page_text(page: dict[str, Any]) -> str:
    """``compiled_truth + "\\n" + timeline``: what extraction reads of a page."""
    return f"{page.get('compiled_truth') or ''}\n{timeline_text(page)}"


def gold_edges(pages: Sequence[dict[str, Any]]) -> tuple[set[Edge], set[tuple[str, str]]]:
    """(gold typed edges, ambiguous person/affiliation pairs) from ``_facts`` -- see the module docstring."""
    slugs = {page["slug"] for page in pages}
    gold: set[Edge] = set()
    ambiguous: set[tuple[str, str]] = set()
    for page in pages:
        facts, slug = page.get("_facts") or {}, page["slug"]
        if page.get("type") == "company":
            for key, relationship in _COMPANY_FACTS.items():
                gold.update((person, relationship, slug) for person in facts.get(key) or [] if person in slugs)
        elif page.get("type") == "meeting":
            gold.update((person, v.ATTENDED, slug) for person in facts.get("attendees") or [] if person in slugs)
        elif page.get("type") == "person":
            relationship = _PERSON_ROLES.get(facts.get("role") or "")
            primary = facts.get("primary_affiliation")
            if relationship and primary in slugs:
                gold.add((slug, relationship, primary))
            ambiguous.update((slug, other) for other in facts.get("secondary_affiliations") or [] if other in slugs)
    return gold, ambiguous


def _resolver(pages: Sequence[dict[str, Any]]) -> Callable[[EntityRef], str | None]:
    """Entity -> page slug: by link target when it is a slug, else by a page title's normalised name."""
    slugs = {page["slug"] for page in pages}
    by_norm = {normalize_entity_name(page["title"]): page["slug"] for page in pages}
    # "Echo - Robotics Startup" is the entity "Echo": its name without the tagline maps too, when unambiguous
    names: dict[str, set[str]] = {}
    for page in pages:
        names.setdefault(normalize_entity_name(split_title(page["title"])[0]), set()).add(page["slug"])
    for norm, owners in names.items():
        if len(owners) == 1 and norm not in by_norm:
            by_norm[norm] = next(iter(owners))

    def resolve(entity: EntityRef) -> str | None:
        if entity.target and entity.target.strip("/") in slugs:
            return entity.target.strip("/")
        return by_norm.get(entity.norm)

    return resolve


def _ratio(numerator: int, denominator: int) -> float:
    return round(numerator / denominator, 4) if denominator else 0.0


def _scores(gold: set[Edge], extracted: set[Edge], correct: set[Edge]) -> dict[str, float | int]:
    return {
        "gold": len(gold),
        "extracted": len(extracted),
        "correct": len(correct),
        "precision": _ratio(len(correct), len(extracted)),
        "recall": _ratio(len(correct), len(gold)),
    }


def _collapse_employment(edges: set[Edge]) -> set[Edge]:
    """Lenient view: founded and works_at both mean "is part of the company" (a founder is also staff)."""
    return {(s, v.WORKS_AT if r == v.FOUNDED else r, o) for s, r, o in edges}


def evaluate_world(pages_dir: Path | str, *, include_errors: bool = False) -> dict[str, Any]:
    """Score typed-edge extraction over the world pages in ``pages_dir``.

    Returns ``{"pages", "relationships": {rel: {gold, extracted, correct, precision, recall}}, "overall",
    "lenient", "unscorable", "ambiguous", "seconds"}`` (plus ``false_positives`` / ``false_negatives`` lists
    of ``[subject, relationship, object(, source page)]`` when ``include_errors``). Edges are compared as sets
    of ``(subject slug, relationship, object slug)``; "lenient" scores the same sets with founded and
    works_at merged into one relation.
    """
    pages = read_pages(pages_dir)
    gold, ambiguous_pairs = gold_edges(pages)
    resolve = _resolver(pages)
    extracted: set[Edge] = set()
    sources: dict[Edge, str] = {}
    unscorable: set[tuple[str, str, str]] = set()
    started = time.perf_counter()
    for page in pages:
        for link in extract_links(page_text(page), self_name=page["title"]):
            if link.relationship not in SCORED_RELATIONSHIPS or link.object is None:
                continue
            subject, obj = resolve(link.subject), resolve(link.object)
            if subject is None or obj is None:
                unscorable.add((link.subject.norm, link.relationship, link.object.norm))
                continue
            edge = (subject, link.relationship, obj)
            extracted.add(edge)
            sources.setdefault(edge, page["slug"])
    seconds = time.perf_counter() - started
    ambiguous = {e for e in extracted if e not in gold and (e[0], e[2]) in ambiguous_pairs}
    scored = extracted - ambiguous
    correct = scored & gold
    result: dict[str, Any] = {
        "pages": len(pages),
        "relationships": {},
        "unscorable": len(unscorable),
        "ambiguous": len(ambiguous),
        "seconds": round(seconds, 3),
    }
    for relationship in SCORED_RELATIONSHIPS:
        in_relationship = {e for e in scored if e[1] == relationship}
        result["relationships"][relationship] = _scores(
            {e for e in gold if e[1] == relationship}, in_relationship, in_relationship & gold
        )
    result["overall"] = _scores(gold, scored, correct)
    lenient_gold, lenient_scored = _collapse_employment(gold), _collapse_employment(scored)
    result["lenient"] = _scores(lenient_gold, lenient_scored, lenient_scored & lenient_gold)
    if include_errors:
        result["false_positives"] = sorted([*edge, sources[edge]] for edge in scored - gold)
        result["false_negatives"] = sorted(list(edge) for edge in gold - extracted)
    return result


def world_paragraphs(pages_dir: Path | str) -> list[str]:
    """Every non-empty paragraph / timeline line of the world pages, in slug order (timing input)."""
    texts: list[str] = []
    for page in read_pages(pages_dir):
        texts.extend(p.strip() for p in page_text(page).split("\n") if p.strip())
    return texts


def time_extraction(texts: Iterable[str], n: int = 10000) -> dict[str, float | int]:
    """Run ``extract_links`` over ``n`` texts (cycling ``texts``); report total seconds and texts/second."""
    pool = [t for t in texts if t]
    if not pool or n <= 0:
        return {"texts": 0, "seconds": 0.0, "texts_per_second": 0.0, "chars": 0}
    chars = 0
    started = time.perf_counter()
    for i in range(n):
        text = pool[i % len(pool)]
        chars += len(text)
        extract_links(text)
    seconds = time.perf_counter() - started
    return {
        "texts": n,
        "seconds": round(seconds, 3),
        "texts_per_second": round(n / seconds, 1) if seconds else 0.0,
        "chars": chars,
    }


def run_benchmark(pages_dir: Path | str, *, timing: int = 0) -> dict[str, Any]:
    """``evaluate_world``, plus ``result["timing"] = time_extraction(paragraphs, n=timing)`` if ``timing``.

    Raises ``ValueError`` when ``pages_dir`` is not a directory of world pages or ``timing`` is negative.
    """
    pages_dir = Path(pages_dir)
    if not pages_dir.is_dir():
        raise ValueError(f"{pages_dir} is not a directory")
    if timing < 0:
        raise ValueError("timing must be >= 0")
    result = evaluate_world(pages_dir)
    if not result["pages"]:
        raise ValueError(f"no world pages (*.json with a slug) in {pages_dir}")
    if timing:
        result["timing"] = time_extraction(world_paragraphs(pages_dir), n=timing)
    return result


def format_json(result: dict[str, Any]) -> str:
    """The same figures as :func:`format_report`, as one JSON object."""
    return json.dumps(result, indent=2, sort_keys=True)


def format_report(result: dict[str, Any]) -> str:
    """A plain-text table: relationship | gold | extracted | correct | precision | recall, then totals."""
    header = f"{'relationship':<14} {'gold':>5} {'extracted':>9} {'correct':>7} {'precision':>9} {'recall':>7}"
    lines = [f"Extraction benchmark: {result.get('pages', 0)} pages", header, "-" * len(header)]

    def row(name: str, s: dict[str, Any]) -> str:
        return (
            f"{name:<14} {s['gold']:>5} {s['extracted']:>9} {s['correct']:>7} "
            f"{s['precision']:>9.3f} {s['recall']:>7.3f}"
        )

    for relationship, scores in result.get("relationships", {}).items():
        lines.append(row(relationship, scores))
    lines.append("-" * len(header))
    lines.append(row("overall", result["overall"]))
    if "lenient" in result:
        lines.append(row("lenient", result["lenient"]) + "   (founded and works_at merged)")
    lines.append(
        f"unscorable (an end resolves to no page): {result.get('unscorable', 0)}; "
        f"ambiguous (secondary affiliation, relation unknown): {result.get('ambiguous', 0)}"
    )
    timing = result.get("timing")
    if timing:
        lines.append(
            f"timing: {timing['texts']} texts in {timing['seconds']:.2f} s = {timing['texts_per_second']:.0f} texts/s"
        )
    return "\n".join(lines)
