"""Pure text-similarity helpers shared by the memory store (near-duplicate and contradiction checks at write
time) and by answering (contradiction gaps at read time).

No Django, no database: plain functions over strings, so both sides agree on exactly one definition of
"near-duplicate" (word-shingle Jaccard >= ``NEAR_DUPLICATE_JACCARD``) and of "opposite polarity".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

import numpy as np

__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "is_negated",
    "jaccard",
    "normalize_text",
    "polarity_signature",
    "polarity_twins",
    "shingles",
    "signatures_are_twins",
    "value_words",
    "words",
]

#: Word-shingle Jaccard at or above which two texts count as near-duplicates and as the same claim when checking
#: polarity (docs/ARCHITECTURE.md § Memory store).
NEAR_DUPLICATE_JACCARD = 0.5

# A word is a run of word characters, optionally joined by inner apostrophes ("don't", "o'brien") so that
# contractions survive as one token and negations like "don't" stay recognisable. Every repetition needs an
# apostrophe first, so the pattern cannot backtrack catastrophically.
_WORD_RE = re.compile(r"\w+(?:'\w+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})

# Words that flip a claim's polarity. "stopped" covers "we stopped deploying on Fridays".
_NEGATORS = frozenset(
    {
        "not", "no", "never", "nor", "cannot", "stopped", "ceased",
        "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont", "cant", "couldnt",
        "shouldnt", "wouldnt", "hasnt", "havent", "hadnt", "aint",
    }
)  # fmt: skip
# Words dropped together with the negators before comparing two claims: they only carry the negation
# ("no longer", "not anymore", "any more").
_NEGATION_FILLERS = frozenset({"longer", "anymore"})


def normalize_text(text: str) -> str:
    """Return ``text`` as lowercase words separated by single spaces.

    Contract: NFKC-normalised, case-folded, typographic apostrophes made straight, punctuation dropped
    (inner apostrophes of contractions kept). Idempotent. This is the similarity normalisation, not a
    storage format: it loses punctuation on purpose.
    """
    folded = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES).casefold()
    return " ".join(_WORD_RE.findall(folded))


def words(text: str) -> list[str]:
    """The normalised words of ``text`` (see :func:`normalize_text`)."""
    return normalize_text(text).split()


def _shingles_of(tokens: Sequence[str], n: int) -> frozenset[str]:
    if n < 1:
        raise ValueError(f"shingle size must be >= 1, got {n}")
    if not tokens:
        return frozenset()
    if len(tokens) < n:
        # A text shorter than one shingle is still comparable: it becomes a single shingle of all its words.
        return frozenset({" ".join(tokens)})
    return frozenset(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def shingles(text: str, n: int = 2) -> frozenset[str]:
    """Word ``n``-grams of the normalised text, each joined by single spaces.

    Contract: empty text → empty set; a text with fewer than ``n`` words → one shingle of all its words;
    ``n < 1`` → ``ValueError``.
    """
    return _shingles_of(words(text), n)


def jaccard(a: str | AbstractSet[str], b: str | AbstractSet[str]) -> float:
    """Jaccard similarity |A∩B| / |A∪B| in [0, 1].

    ``a`` and ``b`` are either texts (compared by their 2-word :func:`shingles`) or precomputed shingle sets
    (so a caller comparing one text against many computes its shingles once). Two empty inputs give 0.0:
    nothing is not a duplicate of nothing.
    """
    set_a = shingles(a) if isinstance(a, str) else a
    set_b = shingles(b) if isinstance(b, str) else b
    union = len(set_a | set_b)
    if union == 0:
        return 0.0
    return len(set_a & set_b) / union


def _is_negator(token: str) -> bool:
    return token.replace("'", "") in _NEGATORS or token.endswith("n't")


def is_negated(text: str) -> bool:
    """True when ``text`` contains a negation: not/no/never/nor/cannot, any "n't" contraction (with or without
    the apostrophe), or "stopped"/"ceased" ("we stopped deploying on Fridays")."""
    return any(_is_negator(token) for token in words(text))


def suffix_stem(word: str, *, shortest: int = 2) -> str:
    """``word`` without its first inflection suffix (-ing, -ed, -es, -s, -e) that leaves at least ``shortest``
    letters. Deliberately crude, only so that "deploying"/"deploys"/"deploy" and "uses"/"using"/"use" compare equal
    (once a claim's negation is removed): the same word always stems the same way, which is all a symmetric
    comparison needs."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= shortest:
            return word[: -len(suffix)]
    return word


def _claim_tokens(tokens: Iterable[str]) -> list[str]:
    """The words of a claim with its negation removed and stemmed, for comparing a claim with its twin."""
    return [suffix_stem(t) for t in tokens if not _is_negator(t) and t not in _NEGATION_FILLERS]


def polarity_signature(text: str) -> tuple[bool, frozenset[str]]:
    """``(is_negated(text), claim shingles)`` — what :func:`polarity_twins` compares, computed once per text
    so that checking one text against many (or all pairs of a result page) does not re-tokenise; cached for texts
    of up to ``_CACHED_CHARS`` characters (a write batch meets each candidate's text once per new memory that bands
    with it), so the cache holds at most 2,048 short texts.

    The claim shingles are the 2-word shingles of the text with negation words ("no longer", "don't",
    "never", "stopped", …) removed and a crude suffix stem applied.
    """
    return _signature_of(text) if len(text) <= _CACHED_CHARS else _signature_of.__wrapped__(text)


_CACHED_CHARS = 4000


@lru_cache(maxsize=2048)
def _signature_of(text: str) -> tuple[bool, frozenset[str]]:
    tokens = words(text)
    negated = any(_is_negator(t) for t in tokens)
    return negated, _shingles_of(_claim_tokens(tokens), 2)


def signatures_are_twins(a: tuple[bool, frozenset[str]], b: tuple[bool, frozenset[str]]) -> bool:
    """:func:`polarity_twins` over two precomputed :func:`polarity_signature` values."""
    return a[0] != b[0] and jaccard(a[1], b[1]) >= NEAR_DUPLICATE_JACCARD


def polarity_twins(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` state the same claim with opposite polarity.

    Contract: exactly one of them :func:`is_negated`, and the Jaccard of their claim shingles (see
    :func:`polarity_signature`) is at least ``NEAR_DUPLICATE_JACCARD``. "We deploy on Fridays" / "We no
    longer deploy on Fridays" → True; "Acme uses Postgres" / "Acme no longer uses MySQL" → False; two
    negated (or two affirmative) texts → False.
    """
    return signatures_are_twins(polarity_signature(a), polarity_signature(b))


# --- candidate search for near-duplicates: MinHash with LSH banding ----------------------------------------------

_LSH_BANDS = 16
_LSH_ROWS = 3
_MERSENNE = (1 << 61) - 1
_PERMUTATIONS = tuple(
    (
        int.from_bytes(hashlib.blake2b(f"a{i}".encode(), digest_size=8).digest(), "big") % _MERSENNE or 1,
        int.from_bytes(hashlib.blake2b(f"b{i}".encode(), digest_size=8).digest(), "big") % _MERSENNE,
    )
    for i in range(_LSH_BANDS * _LSH_ROWS)
)


def lsh_bands(text: str) -> list[int]:
    """16 band keys (signed 64-bit) of a MinHash over the text's *claim* shingles (negations removed).

    Two texts share at least one band with probability 1 − (1 − J³)¹⁶: 0.88 at Jaccard 0.5, 0.98 at 0.6, 1.0 for
    opposite-polarity twins (identical claims), but only 0.12 at 0.2 — so a GIN index over the bands finds
    near-duplicates and twins without dragging in every loosely similar memory of a busy scope (two-row bands,
    0.48 at 0.2, made the candidate search grow with the scope: 9.7 writes/s at 2,000 templated memories), and the
    exact Jaccard / polarity checks then decide. Empty text → [].
    """
    claim = polarity_signature(text)[1]
    if not claim:
        return []
    hashed = [int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "big") for s in claim]
    minima = _minima(hashed)
    bands = []
    for band in range(_LSH_BANDS):
        rows = minima[band * _LSH_ROWS : (band + 1) * _LSH_ROWS]
        digest = hashlib.blake2b(repr((band, rows)).encode(), digest_size=8).digest()
        bands.append(int.from_bytes(digest, "big", signed=True))
    return bands


# a stored band is keyed by its memory's scope, so the GIN index over the bands finds the write's own scope's
# candidates only: with plain bands it could not also match the scope (the embedded PostgreSQL has no btree_gin),
# and the near-duplicate lookup read every live row of a busy scope instead (bench/HISTORY.md, "Bulk import").
# The key is plain integer arithmetic that PostgreSQL computes the same way (``band # key``, migration 0020), so
# stored bands are re-keyed without their texts; the product stays within a signed 64-bit integer.
def scope_keyed_bands(bands: list[int], scope_id: int) -> list[int]:
    """``bands`` (:func:`lsh_bands`) as stored at scope ``scope_id``: each XOR-ed with the scope's key. Two memories
    share a keyed band only when they share the band and the scope; an injective key per scope keeps every band
    of one scope distinct from every other scope's (save a 2**-64 chance per pair)."""
    key = (scope_id % 2147483647) * 2654435761
    return [band ^ key for band in bands]


_M = np.uint64(_MERSENNE)
_A = np.array([a for a, _ in _PERMUTATIONS], dtype=np.uint64)[:, None]
_B = np.array([b for _, b in _PERMUTATIONS], dtype=np.uint64)[:, None]
_A_HIGH, _A_LOW = _A >> np.uint64(31), _A & np.uint64((1 << 31) - 1)


def _mod_mersenne(x: np.ndarray) -> np.ndarray:
    x = (x & _M) + (x >> np.uint64(61))
    x = (x & _M) + (x >> np.uint64(61))
    return np.where(x >= _M, x - _M, x)


def _minima(hashed: list[int]) -> list[int]:
    """``[min((a * h + b) % (2**61 - 1) for h in hashed) for a, b in _PERMUTATIONS]``, exactly, in 64-bit
    arithmetic (numpy's fixed-width integers, because Python's arbitrary-precision ones are slow on a long
    memory): with h reduced below 2**61 and a, h split in 31-bit halves, a*h = hi*2**62 + mid*2**31 + lo, and
    2**61 ≡ 1 folds every term below 2**64."""
    h = np.array([value % _MERSENNE for value in hashed], dtype=np.uint64)[None, :]
    h_high, h_low = h >> np.uint64(31), h & np.uint64((1 << 31) - 1)
    high = _A_HIGH * h_high  # < 2**60
    mid = _A_HIGH * h_low + _A_LOW * h_high  # < 2**62
    low = _A_LOW * h_low  # < 2**62
    mid_high, mid_low = mid >> np.uint64(30), mid & np.uint64((1 << 30) - 1)
    x = _mod_mersenne(high * np.uint64(2) + mid_high + (mid_low << np.uint64(31)))
    x = _mod_mersenne(x + _mod_mersenne(low))
    x = _mod_mersenne(x + _B)
    return x.min(axis=1).tolist()


# Capitalised words that open a noun phrase rather than name something ("My cousin …", "The guy downstairs …"): two
# texts that differ only there differ in who, not in a name or a number
_NOT_VALUES = frozenset(
    """a an the my our your his her their its this that these those some someone somebody one i we you he she they
    it there here every each another other""".split()
)
_VALUE_RE = re.compile(r"\b(?:[A-ZÀ-Ý][\w'’-]*|\d[\d.,:/-]*)")


def value_words(text: str) -> frozenset[str]:
    """The names and numbers ``text`` uses (capitalised words, save the openers of a noun phrase; numerals), lower
    case: two near-duplicates that differ here state different values ("Just back from Lisbon." / "Just back from
    Tallinn.") and are two statements, not one said twice."""
    return frozenset(
        found for found in (match.casefold() for match in _VALUE_RE.findall(text or "")) if found not in _NOT_VALUES
    )
