"""Measuring the write-time detectors: contradictions (memories.contradiction) and instruction-like content
(memories.instructions) on their labelled sets, their cost, and — for contradictions — what they flag among the
near-similar sentence pairs of a real corpus (world-v1, associative-recall), where almost nothing contradicts.

Pure (no Django); ``eval_detectors`` prints it.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from memories.contradiction import contradiction_between
from memories.instructions import instruction_reasons

TESTS = Path(__file__).resolve().parent.parent / "tests" / "memories"
CONTRADICTION_PAIRS = TESTS / "contradiction_pairs.json"
INSTRUCTION_ITEMS = TESTS / "instruction_items.json"


def _pr(tp: int, fp: int, fn: int) -> dict:
    return {
        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "recall": round(tp / (tp + fn), 4) if tp + fn else None,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def contradiction_report(path: Path = CONTRADICTION_PAIRS, *, repeat: int = 20) -> dict:
    pairs = json.loads(path.read_text(encoding="utf-8"))["pairs"]
    report: dict = {"n": len(pairs), "contradicting": sum(p["contradicts"] for p in pairs)}
    by_type_missed: Counter[str] = Counter()
    for split in ("dev", "held"):
        tp = fp = fn = 0
        for pair in pairs:
            if pair["split"] != split:
                continue
            found = contradiction_between(
                pair["a"], pair["b"], title_a=pair.get("title_a", ""), title_b=pair.get("title_b", "")
            )
            tp += found is not None and pair["contradicts"]
            fp += found is not None and not pair["contradicts"]
            fn += found is None and pair["contradicts"]
            if found is None and pair["contradicts"]:
                by_type_missed[pair["type"]] += 1
        report[split] = _pr(tp, fp, fn)
    from memories.contradiction import _tokens, value_masked
    from memories.textsim import lsh_bands

    def share_band(a: str, b: str) -> bool:
        return bool(set(lsh_bands(a)) & set(lsh_bands(b)))

    # would the write path's candidate search (MinHash bands) bring each pair together at all?
    for label, key in ((True, "contradicting"), (False, "not_contradicting")):
        subset = [p for p in pairs if p["contradicts"] == label]
        report[f"candidate_share_{key}"] = {
            "plain_bands": round(sum(share_band(p["a"], p["b"]) for p in subset) / len(subset), 4),
            "value_masked_bands": round(
                sum(share_band(value_masked(p["a"]), value_masked(p["b"])) for p in subset) / len(subset), 4
            ),
        }

    started = time.perf_counter()
    for _ in range(repeat):
        _tokens.cache_clear()  # the cost of a pair never seen before
        for pair in pairs:
            contradiction_between(pair["a"], pair["b"])
    report["microseconds_per_pair"] = round((time.perf_counter() - started) / (repeat * len(pairs)) * 1e6, 1)
    return report


def instruction_report(path: Path = INSTRUCTION_ITEMS, *, repeat: int = 5) -> dict:
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    report: dict = {"n": len(items), "injections": sum(i["injection"] for i in items)}
    for split in ("dev", "held"):
        tp = fp = fn = 0
        for item in items:
            if item["split"] != split:
                continue
            flagged = bool(instruction_reasons(item["text"]))
            tp += flagged and item["injection"]
            fp += flagged and not item["injection"]
            fn += not flagged and item["injection"]
        report[split] = _pr(tp, fp, fn)
    started = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            instruction_reasons(item["text"])
    report["microseconds_per_item"] = round((time.perf_counter() - started) / (repeat * len(items)) * 1e6, 1)
    worst = 0.0
    for text in _hostile_inputs(32 * 1024):
        started = time.perf_counter()
        instruction_reasons(text)
        worst = max(worst, time.perf_counter() - started)
    report["worst_32kib_ms"] = round(worst * 1000, 1)
    return report


def _hostile_inputs(size: int) -> Iterable[str]:
    rng = random.Random(7)
    for unit in (
        "a ",
        "i.",
        "<!--",
        '<a style="',
        "![x](http://a/?",
        "QUFB",
        '{"name": "',
        "a\u200b",
        "system\n",
        "a-",
    ):
        yield (unit * (size // len(unit) + 1))[:size]
    yield "".join(rng.choice("ab -.<>!{}[]()=?&:|\n") for _ in range(size))


# --- contradictions in a real corpus ------------------------------------------------------------------------------

_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD_RE = re.compile(r"[^\W_]+")


def corpus_flags(texts: Sequence[str], *, min_jaccard: float = 0.4, sample: int = 10) -> dict:
    """Sentence pairs of ``texts`` (from different texts) whose word sets have Jaccard >= ``min_jaccard`` — the
    kind of pair the write path's candidate search brings together — and how many of them the detector flags,
    with a sample of the flagged pairs to read."""
    sentences = []
    for doc, text in enumerate(texts):
        for sentence in _SENTENCE_RE.split(re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)):
            sentence = sentence.strip(" -*|")
            if 20 <= len(sentence) <= 300:
                sentences.append((doc, sentence, frozenset(_WORD_RE.findall(sentence.casefold()))))
    by_word: dict[str, list[int]] = {}
    for index, (_, _, words) in enumerate(sentences):
        for word in words:
            by_word.setdefault(word, []).append(index)
    candidates: set[tuple[int, int]] = set()
    for index, (doc, _, words) in enumerate(sentences):
        seen: Counter[int] = Counter()
        for word in words:
            postings = by_word[word]
            if len(postings) > 400:
                continue  # a word in hundreds of sentences ("the") does not make a pair
            for other in postings:
                if other > index and sentences[other][0] != doc:
                    seen[other] += 1
        for other, shared in seen.items():
            union = len(words | sentences[other][2])
            if union and shared / union >= min_jaccard:
                candidates.add((index, other))
    flagged = []
    for i, j in sorted(candidates):
        found = contradiction_between(sentences[i][1], sentences[j][1])
        if found is not None:
            flagged.append((sentences[i][1], sentences[j][1], found.kind, found.slot, found.values))
    return {
        "sentences": len(sentences),
        "candidate_pairs": len(candidates),
        "flagged": len(flagged),
        "by_slot": dict(Counter(f[3] for f in flagged)),
        "sample": [
            {"a": a, "b": b, "kind": kind, "slot": slot, "values": list(values)}
            for a, b, kind, slot, values in random.Random(1).sample(flagged, min(sample, len(flagged)))
        ],
    }
