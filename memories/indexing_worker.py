"""What runs in a worker process of :class:`memories.services.indexing_pool.IndexingPool`. A spawned worker imports
this module before Django is set up, to unpickle the functions it is sent: so nothing here imports an app's code at
module level (the ``memories`` package's own ``__init__`` imports none)."""

from __future__ import annotations


def start(databases: dict[str, dict]) -> None:
    import logging

    import django
    from django.db import connections

    django.setup()
    # the batches' tasks run eagerly here: Celery's line per task succeeded would land in the importer's output
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    for alias, settings_dict in databases.items():
        connections[alias].settings_dict.update(settings_dict)
    from memories.embedding import EmbedderUnavailable, get_embedder

    try:
        get_embedder().embed(["warm-up"])  # loaded once per worker, before its first batch
    except EmbedderUnavailable:
        pass  # each batch's memories are then marked failed, with the reason, for the sweeper


def index(memory_ids: list[int]) -> int:
    from memories.services.indexing import memories_index_now

    memories_index_now(memory_ids=memory_ids)
    return len(memory_ids)
