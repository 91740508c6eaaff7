"""The question the vector arm embeds when it names people who speak in the caller's sessions — pure, no Django.

People do not say their own names: in a conversation a speaker's name is in the turns that address them ("Evening
Pavel!", "Hi Pavel, how was your day?"), not in what they say about themselves ("Tidewater Studios. I'm a sound
engineer there."). Embedded with the name, "What is Pavel's job?" is nearest to the greetings. So when the search
context finds that a name of the question is a speaker of the caller's visible session turns, the vector arm embeds
the question with that name said as "someone" ("What is someone's job?"); the keyword arm still reads the name, and
ranking's participant weighting lifts the turns that speaker said (``retrieval.conversation.weights``; measured in
bench/HISTORY.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date

from memories.temporal import tag_dates
from retrieval.relational_query import Token
from retrieval.text import CALENDAR_WORDS, STOPWORDS

STAND_IN = "someone"


def not_written_as_names(query: str, tokens: Sequence[Token]) -> set[str]:
    """The question's ordinary words — function words ("will", "may" the verb) and calendar words ("May", "June") —
    that it does not write as a person's name: lower-case, the question's first word (where every word is
    capitalised), or inside a date phrase ("in May 2025", "on 3 June"). A speaker called Will or May is not the one
    asked about there; otherwise they would claim every question that says "will" or names the month."""
    dated = {
        word
        for mention in tag_dates(query, reference=date.today())
        for word in re.findall(r"[^\W\d_]+", mention.text.casefold())
    }
    return {
        token.lower
        for position, token in enumerate(tokens)
        if (token.lower in STOPWORDS or token.lower in CALENDAR_WORDS)
        and (position == 0 or not token.text[:1].isupper() or token.lower in dated)
    }


def written_as_names(
    names: Sequence[str],
    tokens: Sequence[Token],
    spans: Mapping[str, Sequence[tuple[int, int]]],
    ordinary: set[str],
) -> list[str]:
    """Of the question's candidate ``names``, those it writes as a person's name, to be looked up among the speakers:
    none that starts or ends with one of the question's ``ordinary`` words (:func:`not_written_as_names`: "May" in
    "in May 2025" drops "May" and "May 2025"); other names keep the candidate's own test (any word of an all-lower-case
    question)."""
    kept = []
    for name in names:
        places = spans.get(name) or ()
        if places and not {tokens[places[0][0]].lower, tokens[places[0][1] - 1].lower} & ordinary:
            kept.append(name)
    return kept


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
