"""The extraction benchmark's pure helpers (``bench.eval_extraction``, ``manage.py eval_extraction``) on a small
world written here: gold edges from ``_facts``, the scoring, the report and the timing. No Django, no database.

Run with ``python -m pytest tests/bench/test_eval_extraction.py -p no:django``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.eval_extraction import (
    evaluate_world,
    format_json,
    format_report,
    gold_edges,
    run_benchmark,
    time_extraction,
    world_paragraphs,
)
from bench.pages import read_pages


def _write_world(directory: Path) -> Path:
    pages = [
        {
            "slug": "companies/acme",
            "type": "company",
            "title": "Acme - Robotics Startup",
            "compiled_truth": "Acme is a robotics startup founded in 2021 by [Mia Brown](people/mia). "
            "[Ian Lee](people/ian) is an advisor to the company.",
            "timeline": ["- **2022-02-10** | Closed seed round led by [Ian Lee](people/ian)"],
            "_facts": {"founders": ["people/mia"], "investors": ["people/ian"], "advisors": ["people/zed"]},
        },
        {
            "slug": "people/mia",
            "type": "person",
            "title": "Mia Brown",
            "compiled_truth": "Mia Brown is the founder of [Acme](companies/acme). She worked at Globex.",
            "timeline": "",
            "_facts": {"role": "founder", "primary_affiliation": "companies/acme"},
        },
        {
            "slug": "people/ian",
            "type": "person",
            "title": "Ian Lee",
            "compiled_truth": "Ian Lee is a partner at Hooli.",
            "timeline": "",
            "_facts": {
                "role": "partner",
                "primary_affiliation": "companies/hooli",
                "secondary_affiliations": [],
            },
        },
        {
            "slug": "meetings/q1",
            "type": "meeting",
            "title": "Acme Board Meeting Q1",
            "compiled_truth": "[Mia Brown](people/mia) presented the plan.",
            "timeline": "",
            "_facts": {"attendees": ["people/mia", "people/ian"]},
        },
    ]
    for page in pages:
        (directory / f"{page['slug'].replace('/', '__')}.json").write_text(json.dumps(page), encoding="utf-8")
    (directory / "_ledger.json").write_text("{}", encoding="utf-8")
    return directory


def test_gold_edges_keep_only_pairs_of_pages(tmp_path: Path) -> None:
    gold, ambiguous = gold_edges(read_pages(_write_world(tmp_path)))
    assert gold == {
        ("people/mia", "founded", "companies/acme"),
        ("people/ian", "invested_in", "companies/acme"),
        ("people/mia", "attended", "meetings/q1"),
        ("people/ian", "attended", "meetings/q1"),
    }
    assert ambiguous == set()


def test_evaluate_world_scores_sets_of_resolved_edges(tmp_path: Path) -> None:
    result = evaluate_world(_write_world(tmp_path), include_errors=True)
    assert result["pages"] == 4
    assert result["relationships"] == {
        "founded": {"gold": 1, "extracted": 1, "correct": 1, "precision": 1.0, "recall": 1.0},
        "invested_in": {"gold": 1, "extracted": 1, "correct": 1, "precision": 1.0, "recall": 1.0},
        "works_at": {"gold": 0, "extracted": 0, "correct": 0, "precision": 0.0, "recall": 0.0},
        "advises": {"gold": 0, "extracted": 1, "correct": 0, "precision": 0.0, "recall": 0.0},
        "attended": {"gold": 2, "extracted": 1, "correct": 1, "precision": 1.0, "recall": 0.5},
    }
    assert result["overall"] == {"gold": 4, "extracted": 4, "correct": 3, "precision": 0.75, "recall": 0.75}
    # Mia works at Globex and Ian at Hooli, neither of which is a page
    assert result["unscorable"] == 2
    assert result["false_positives"] == [["people/ian", "advises", "companies/acme", "companies/acme"]]
    assert result["false_negatives"] == [["people/ian", "attended", "meetings/q1"]]


def test_report_and_json_carry_the_same_figures(tmp_path: Path) -> None:
    result = run_benchmark(_write_world(tmp_path), timing=20)
    report = format_report(result)
    assert "relationship    gold extracted correct precision  recall" in report
    assert "overall            4         4       3     0.750   0.750" in report
    assert "unscorable (an end resolves to no page): 2" in report
    assert "timing: 20 texts in" in report
    assert json.loads(format_json(result))["overall"]["precision"] == 0.75


def test_run_benchmark_rejects_a_bad_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a directory"):
        run_benchmark(tmp_path / "missing")
    with pytest.raises(ValueError, match="no world pages"):
        run_benchmark(tmp_path)


def test_time_extraction_cycles_the_texts(tmp_path: Path) -> None:
    texts = world_paragraphs(_write_world(tmp_path))
    assert len(texts) == 5
    timing = time_extraction(texts, n=50)
    assert timing["texts"] == 50
    assert timing["seconds"] >= 0
    assert timing["chars"] == sum(len(texts[i % len(texts)]) for i in range(50))
    assert time_extraction([], n=10) == {"texts": 0, "seconds": 0.0, "texts_per_second": 0.0, "chars": 0}
