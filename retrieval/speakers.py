"""The question the vector arm embeds when it names people who speak in the caller's sessions — pure, no Django.

People do not say their own names: in a conversation a speaker's name is in the turns that address them ("Evening
Pavel!", "Hi Pavel, how was your day?"), not in what they say about themselves ("Tidewater Studios. I'm a sound
engineer there."). Embedded with the name, "What is Pavel's job?" is nearest to the greetings. So when the search
context finds that a name of the question is a speaker of the caller's visible session turns, the vector arm embeds
the question with that name said as "someone" ("What is someone's job?"); the keyword arm still reads the name, and
ranking's participant weighting lifts the turns that speaker said (``retrieval.services``). Measured on the
conversational set's development frames (bench/HISTORY.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

STAND_IN = "someone"


def without_speakers(text: str, speakers: Iterable[str]) -> str:
    """``text`` with each of ``speakers`` (lower-cased names, e.g. "pavel", "dana smith", "jean-luc") said as
    "someone" — "Pavel's" as "someone's" —, matched case-insensitively on word boundaries; unchanged when none
    occurs."""
    names = sorted({name.strip() for name in speakers if name and name.strip()}, key=len, reverse=True)
    if not names:
        return text
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(r"\s+".join(map(_word_pattern, name.split())) for name in names) + r")(?!\w)",
        re.IGNORECASE,
    )
    return pattern.sub(STAND_IN, text)


def _word_pattern(word: str) -> str:
    """``word`` matched as written, an apostrophe as either of the two people type ("O'Brien", "O’Brien")."""
    return "['’]".join(map(re.escape, re.split("['’]", word)))
