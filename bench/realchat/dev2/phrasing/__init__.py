"""How the friends of the second development half say things and how a later question asks about them: the pools of
``bench.realchat.phrasing``, under the same names and with the same markers (``S``/``O``/``A``/``B``, ``*`` for
evidence, ``{field}`` and ``{Field}``, ``~`` before a paraphrase), each about as long as one half's share there:
statements of the same shapes as ``dev``'s, two echoing frames and one paraphrase per question kind."""

from bench.realchat.dev2.phrasing.facts import ABSENT, FRAMES, STATEMENTS
from bench.realchat.dev2.phrasing.talk import CLOSINGS, DISTRACTORS, GREETINGS, REACTIONS, SMALL_TALK, THREADS
from bench.realchat.phrasing import PARAPHRASE_MARK

__all__ = [
    "ABSENT", "CLOSINGS", "DISTRACTORS", "FRAMES", "GREETINGS", "PARAPHRASE_MARK", "REACTIONS", "SMALL_TALK",
    "STATEMENTS", "THREADS",
]  # fmt: skip
