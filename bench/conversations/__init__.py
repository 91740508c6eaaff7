"""The conversational development set: generated multi-session chats with labelled evidence turns
(``generator``), and the harness that ingests them through the sessions service and asks every question through
the search service beside a rank_bm25 baseline (``evaluate``)."""
