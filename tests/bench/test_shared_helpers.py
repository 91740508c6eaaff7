"""The helpers every benchmark shares (``bench.pages``, ``bench.stats``): one page reader behind both the retrieval
and the extraction benchmark, one percentile. Pure: no Django, no database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.eval_extraction import page_text
from bench.evaluation import load_pages
from bench.pages import read_pages
from bench.stats import percentile


def _write(directory: Path, name: str, data) -> None:
    (directory / name).write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def world(tmp_path: Path) -> Path:
    _write(tmp_path, "b.json", {"slug": "a/zed", "title": "Zed", "compiled_truth": " Zed. ", "timeline": ["x", "y"]})
    _write(tmp_path, "a.json", {"slug": "b/amy", "title": "Amy", "type": "person", "compiled_truth": "Amy."})
    _write(tmp_path, "_ledger.json", {"slug": "ledger", "compiled_truth": "not a page"})
    _write(tmp_path, "notes.json", {"slug": "no-text"})  # no compiled_truth: not a page
    _write(tmp_path, "list.json", ["not", "a", "page"])
    return tmp_path


def test_read_pages_keeps_the_pages_sorted_by_slug(world):
    assert [page["slug"] for page in read_pages(world)] == ["a/zed", "b/amy"]


def test_the_two_benchmarks_read_the_same_pages_each_as_it_ingests_them(world):
    pages, facts = load_pages(world)
    assert [(page.slug, page.type, page.text) for page in pages] == [
        ("a/zed", "", "Zed.\n\nx\ny"),
        ("b/amy", "person", "Amy."),
    ]
    assert facts == {"a/zed": {}, "b/amy": {}}
    assert [page_text(page) for page in read_pages(world)] == [" Zed. \nx\ny", "Amy.\n"]


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([5.0], 99, 5.0), ([1, 2, 3, 4], 50, 2), ([4, 1, 3, 2], 75, 3), ([1, 2, 3, 4], 100, 4), ([1, 2, 3, 4], 0, 1)],
)
def test_percentile_is_the_nearest_rank(values, q, expected):
    assert percentile(values, q) == expected


def test_percentile_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        percentile([], 50)
