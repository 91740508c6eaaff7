"""How the two friends say things, and how a later question asks about them.

A statement is a tuple of turns, each ``"<who>|<text>"``: ``S`` is the person the fact is about, ``O`` the friend
they are talking to, and a ``*`` after the letter marks the turn as evidence (``"S*|..."``). Small talk uses ``A``
and ``B`` for whichever two speakers the generator picks. ``{field}`` is filled from the fact; ``{Field}`` is the
same value with its first letter capitalised; ``{name}`` is the subject, ``{other}`` the friend.

A question kind has four frames that ask with the words that were said, then two (prefixed ``~``) that do not.
Every tuple is split into the halves by :func:`bench.realchat.vocabulary.half_of` (even positions: development), so
each half has its own statements, distractors, small talk and wordings, two echoing frames and one paraphrase per
question kind; the second development half has the same pools of its own (``bench.realchat.dev2.phrasing``).
Written for this set alone: nothing here is taken from ``bench.conversations``.
"""

from bench.realchat.phrasing.facts import ABSENT, FRAMES, PARAPHRASE_MARK, STATEMENTS
from bench.realchat.phrasing.talk import CLOSINGS, DISTRACTORS, GREETINGS, REACTIONS, SMALL_TALK, THREADS

__all__ = [
    "ABSENT", "CLOSINGS", "DISTRACTORS", "FRAMES", "GREETINGS", "PARAPHRASE_MARK", "REACTIONS", "SMALL_TALK",
    "STATEMENTS", "THREADS",
]  # fmt: skip
