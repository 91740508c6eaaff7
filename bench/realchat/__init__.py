"""The realistic conversational set: chats between two friends over many sessions weeks apart, generated from
pools split into a development half and a held-back half, and from the pools of a second development half of its
own (``dev2``): three halves that share no people, values, statements or wordings (``generator``, ``vocabulary``,
``phrasing``, ``dev2``), calibrated on a plain BM25's recall and on how often a question shares a word with its
evidence (``calibration``), and the harness that ingests a half through the sessions service and asks through the
search service beside rank_bm25 (``evaluate``)."""
