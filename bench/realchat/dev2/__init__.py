"""The second development half of the realistic chats, ``dev2``: pools of its own with the names and the shapes of
``bench.realchat.vocabulary`` and ``bench.realchat.phrasing`` (``vocabulary``, ``phrasing``), written apart from both
of their halves, so that it shares no person, value, statement, distractor, small talk or question frame with ``dev``
or ``held``. A ``bench.realchat.chat.Lexicon`` of ``dev2`` takes these pools whole."""
