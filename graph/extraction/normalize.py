"""Entity-name normalisation shared by extraction and entity resolution."""

from __future__ import annotations

import re
import unicodedata

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "“": '"', "”": '"', "„": '"'})
_DASHES_RE = re.compile(r"[\u2010-\u2015\u2212\-]+")
_DROP_RE = re.compile(r"['.\u00b7]")  # joined, not spaced: "O'Brien" -> "obrien", "U.S." -> "us"
_SPACE_RE = re.compile(r"[^\w&]+")
_LEADING_THE_RE = re.compile(r"^the\s+")


def normalize_entity_name(name: str) -> str:
    """Canonical comparison key for an entity name.

    NFKC, unicode quotes/dashes unified, casefolded; apostrophes and periods are dropped, every other run of
    punctuation/whitespace becomes one space (``&`` is kept: "AT&T"), and a leading "the" is removed. So
    "Acme Corp.", "acme corp" and "The Acme Corp" all give "acme corp"; "Hewlett-Packard" gives
    "hewlett packard". Never raises; returns "" for a name with no letters or digits.
    """
    folded = unicodedata.normalize("NFKC", name).translate(_QUOTES).casefold()
    folded = _DASHES_RE.sub(" ", folded)
    folded = _DROP_RE.sub("", folded)
    folded = _SPACE_RE.sub(" ", folded).replace("_", " ").strip()
    folded = " ".join(folded.split())
    stripped = _LEADING_THE_RE.sub("", folded)
    return stripped or folded
