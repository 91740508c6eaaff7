"""Operations: Prometheus metrics, OpenTelemetry traces and the request id on every log line.

- ``metrics``: the metric families (requests per route and status, search stages, embedder state) and the
  exposition (multiprocess under gunicorn when ``PROMETHEUS_MULTIPROC_DIR`` is set);
- ``stages``: ``search_stage`` / ``traced_search``, the hooks the search pipeline wraps its stages in (a histogram
  sample and, when tracing is on, a child span each);
- ``tracing``: the OpenTelemetry SDK with the official Django, psycopg and Celery instrumentations, switched on by
  the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` variable;
- ``middleware``: times each request by its route pattern (never the raw path) and puts its request id where log
  records find it (``orgmemory.logfilters.RequestIdFilter``).

This package is the core floor: it imports no app. The scrape-time figures that need the apps' tables (index
backlog, per-tenant counts, queue depth) and the ``/metrics`` view live in ``memories.api.metrics`` (the
store's figures, read on its floor).
"""
