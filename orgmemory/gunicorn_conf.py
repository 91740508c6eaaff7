"""gunicorn configuration for production serving: ``gunicorn -c orgmemory/gunicorn_conf.py`` (``make serve``).

One synchronous worker per core, one thread each: a request is CPU-bound (query embedding, ranking), so more
threads than cores only queue behind the GIL and the model. Each worker loads the embedder once, after the fork,
before it takes its first request (``post_worker_init``), and logs its start-up time and memory.

``preload_app`` stays off: preloading would import Django and start the embedded database's connections, the
inline sweeper thread and the embedder warm-up thread in the master, and none of those survive a fork (threads
vanish, ONNX Runtime sessions and database connections must not be shared across processes). What preloading
would save is small: the int8 model is 23 MB and a worker is ready in about a second. The master only makes sure
the ONNX cache exists (``on_starting``), so that workers do not all wait on its build lock.

Metrics: the workers write their Prometheus samples to files in ``PROMETHEUS_MULTIPROC_DIR`` and whichever worker
answers ``GET /metrics`` reports the sum of all of them. Unset, the master makes a temporary folder (removed at
exit); set, its old files are removed at start (the client library's rule: a new server starts from zero). A
worker that exits gives back its live gauges (``child_exit``).

Logs: one JSON object per line in production (``ORGMEMORY_LOG_FORMAT``, as the application's logs), with the
request id on the access log's lines.

Environment: ``ORGMEMORY_BIND`` (default ``127.0.0.1:$PORT``, PORT 8000), ``WEB_CONCURRENCY`` (workers, default
the number of cores), ``GUNICORN_TIMEOUT`` (seconds, default 60), ``GUNICORN_ACCESSLOG`` (a path or ``-``; off by
default), ``PROMETHEUS_MULTIPROC_DIR``, plus every OrgMemory variable (``ORGMEMORY_EMBEDDER``, ``DATABASE_URL``, …).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

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
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(L)s %({x-request-id}o)s'
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
proc_name = "orgmemory"

_log_format = os.environ.get("ORGMEMORY_LOG_FORMAT", "").strip().lower() or (
    "json" if os.environ.get("ORGMEMORY_ENV", "production").strip().lower() == "production" else "text"
)
if _log_format == "json":
    # gunicorn's own loggers as JSON lines too; the access log stays off unless GUNICORN_ACCESSLOG names a target
    _access_handlers = (
        {
            "access": {
                "class": "logging.StreamHandler" if accesslog == "-" else "logging.FileHandler",
                "formatter": "json",
                "filters": ["request_id"],
                **({"stream": "ext://sys.stdout"} if accesslog == "-" else {"filename": accesslog}),
            }
        }
        if accesslog
        else {}
    )
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "orgmemory.logfilters.json_formatter"}},
        "filters": {"request_id": {"()": "orgmemory.logfilters.RequestIdFilter"}},
        "handlers": {
            "error": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["request_id"],
                "stream": "ext://sys.stderr",
            },
            **_access_handlers,
        },
        "loggers": {
            "gunicorn.error": {"handlers": ["error"], "level": loglevel.upper(), "propagate": False},
            "gunicorn.access": {
                "handlers": list(_access_handlers),
                "level": "INFO" if accesslog else "CRITICAL",
                "propagate": False,
            },
        },
        "root": {"handlers": [], "level": "WARNING"},
    }

_forked_at: dict[int, float] = {}
_metrics_folder_made: list[str] = []


def _metrics_folder_prepare(server) -> None:
    """Before the first fork: the workers' shared folder of metric files, empty."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if not folder:
        folder = tempfile.mkdtemp(prefix="orgmemory-metrics-")
        _metrics_folder_made.append(folder)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder  # inherited by every worker forked from now on
    else:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for stale in Path(folder).glob("*.db"):
            stale.unlink()
    server.log.info("metrics: PROMETHEUS_MULTIPROC_DIR=%s", folder)


def on_starting(server) -> None:
    """Master, once: the metrics folder, then the ONNX model cache if needed (built in a child process; the
    master never imports torch)."""
    _metrics_folder_prepare(server)
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


def child_exit(server, worker) -> None:
    """Master: a worker ended (stopped, recycled or killed); its live gauges leave the sums."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    for folder in _metrics_folder_made:
        shutil.rmtree(folder, ignore_errors=True)


def post_worker_init(worker) -> None:
    """Worker, after the fork and the app import: load the embedder now, so the first request does not wait."""
    import logging

    from memories.embedding import EmbedderUnavailable, get_embedder
    from orgmemory.logfilters import RedactRequestDetails
    from orgmemory.observability.metrics import embedder_state_record

    logging.getLogger("gunicorn.access").addFilter(RedactRequestDetails())

    started = time.perf_counter()
    forked_at = _forked_at.get(id(worker), time.time())
    try:
        embedder = get_embedder()
        embedder.embed(["warm-up"])
        name = embedder.name
        embedder_state_record("ok")
    except EmbedderUnavailable as exc:
        name = f"unavailable ({exc})"
        embedder_state_record("degraded")
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
