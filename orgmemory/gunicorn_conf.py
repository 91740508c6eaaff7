"""gunicorn configuration for production serving: ``gunicorn -c orgmemory/gunicorn_conf.py`` (``make serve``).

One synchronous worker per core, one thread each: a request is CPU-bound (query embedding, ranking), so more
threads than cores only queue behind the GIL and the model. Each worker loads the embedder once, after the fork,
before it takes its first request (``post_worker_init``), and logs its start-up time and memory.

``preload_app`` stays off: preloading would import Django and start the embedded database's connections, the
inline sweeper thread and the embedder warm-up thread in the master, and none of those survive a fork (threads
vanish, ONNX Runtime sessions and database connections must not be shared across processes). What preloading
would save is small: the int8 model is 23 MB and a worker is ready in about a second. The master only makes sure
the ONNX cache exists (``on_starting``), so that workers do not all wait on its build lock.

Environment: ``ORGMEMORY_BIND`` (default ``127.0.0.1:$PORT``, PORT 8000), ``WEB_CONCURRENCY`` (workers, default
the number of cores), ``GUNICORN_TIMEOUT`` (seconds, default 60), ``GUNICORN_ACCESSLOG`` (a path or ``-``; off by
default), plus every OrgMemory variable (``ORGMEMORY_EMBEDDER``, ``DATABASE_URL``, …).
"""

from __future__ import annotations

import os
import time

# before anything imports numpy / onnxruntime / torch: no spinning thread pools, no hub access, no tokenizer pool
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ORGMEMORY_EMBED_THREADS", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")

wsgi_app = "orgmemory.wsgi:application"
bind = [os.environ.get("ORGMEMORY_BIND") or f"127.0.0.1:{os.environ.get('PORT') or 8000}"]
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
worker_class = "sync"
threads = 1
preload_app = False
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 60)
graceful_timeout = 30
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
# %(U)s is the path without the query string (which holds user_id and q); the ids in /users/… and /sessions/… are
# masked by the filter post_worker_init adds
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(L)s'
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
proc_name = "orgmemory"

_forked_at: dict[int, float] = {}


def on_starting(server) -> None:
    """Master, once: build the ONNX model cache if needed (in a child process; the master never imports torch)."""
    started = time.perf_counter()
    try:  # settings only (no django.setup(): the master imports no models and opens no database connection)
        from memories.embedding import embedder_prepare

        model = embedder_prepare()
    except Exception as exc:  # workers still start: search degrades and indexing retries, as without gunicorn
        server.log.error("embedder cache could not be prepared: %s: %s", type(exc).__name__, exc)
        return
    if model is not None:
        server.log.info("embedder model %s ready in %.1f s", model, time.perf_counter() - started)


def pre_fork(server, worker) -> None:
    _forked_at[id(worker)] = time.time()


def post_worker_init(worker) -> None:
    """Worker, after the fork and the app import: load the embedder now, so the first request does not wait."""
    import logging

    from memories.embedding import EmbedderUnavailable, get_embedder
    from orgmemory.logfilters import RedactRequestDetails

    logging.getLogger("gunicorn.access").addFilter(RedactRequestDetails())

    started = time.perf_counter()
    forked_at = _forked_at.get(id(worker), time.time())
    try:
        embedder = get_embedder()
        embedder.embed(["warm-up"])
        name = embedder.name
    except EmbedderUnavailable as exc:
        name = f"unavailable ({exc})"
    rss_mb = _rss_mb()
    worker.log.info(
        "worker %s ready %.2f s after fork: embedder %s loaded in %.2f s, RSS %s MB",
        worker.pid,
        time.time() - forked_at,
        name,
        time.perf_counter() - started,
        rss_mb,
    )


def _rss_mb() -> int | str:
    try:
        import psutil

        return round(psutil.Process().memory_info().rss / 2**20)
    except Exception:
        return "?"
