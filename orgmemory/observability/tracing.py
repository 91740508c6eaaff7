"""OpenTelemetry tracing: off unless the standard ``OTEL_EXPORTER_OTLP_ENDPOINT`` variable is set (or
``OTEL_SDK_DISABLED=true`` turns it off again). Then every process that sets Django up (gunicorn workers, runserver,
Celery workers, ``manage.py mcp``) exports its spans over OTLP/HTTP to that endpoint, with the official
instrumentations: a span per request (Django), per SQL statement (psycopg) and per task (Celery), and the search
pipeline's stages as child spans of the request's.

The exporter reads the other standard variables itself (``OTEL_EXPORTER_OTLP_HEADERS``, ``…_TIMEOUT``,
``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``, ``OTEL_TRACES_SAMPLER``…). Spans are batched and sent from a
background thread, so a slow collector never holds a request. Request spans carry the path without its query
string and with the ids in ``/users/…`` and ``/sessions/…`` masked, like the logs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import Any

from orgmemory.logfilters import redact_request_line

logger = logging.getLogger(__name__)

ENDPOINT_VARIABLE = "OTEL_EXPORTER_OTLP_ENDPOINT"
DEFAULT_SERVICE_NAME = "orgmemory"
# Request-span attributes that hold the raw path or query (old and stable semantic conventions).
_URL_ATTRIBUTES = ("http.url", "http.target", "url.full", "url.path")
_QUERY_ATTRIBUTES = ("url.query",)

_lock = threading.Lock()
_state: dict[str, Any] = {"tracer": None, "provider": None}


def enabled() -> bool:
    return _state["tracer"] is not None


def span(name: str):
    """A context manager: a child span of the current one while tracing is on (yields the span), else nothing
    (yields None) at the cost of one check."""
    tracer = _state["tracer"]
    if tracer is None:
        return contextlib.nullcontext(None)
    return tracer.start_as_current_span(name)


def requested_by_environment() -> bool:
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return bool(os.environ.get(ENDPOINT_VARIABLE, "").strip())


def tracing_setup_from_env() -> bool:
    """Start tracing when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set; idempotent. A broken exporter configuration is
    logged and leaves tracing off: observability must not stop the service."""
    if enabled() or not requested_by_environment():
        return enabled()
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        tracing_start(exporter=OTLPSpanExporter(), batch=True, set_global=True)
    except Exception:
        logger.exception("OpenTelemetry tracing could not start; serving without it")
        return False
    logger.info("OpenTelemetry tracing on: spans go to %s", os.environ[ENDPOINT_VARIABLE].strip())
    return True


def tracing_start(*, exporter, batch: bool = True, set_global: bool = True):
    """Trace into ``exporter`` from now on (the tests pass the SDK's in-memory exporter with ``batch=False``) and
    instrument Django, psycopg and Celery. Returns the tracer provider."""
    from opentelemetry import trace
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    with _lock:
        if _state["provider"] is not None:
            return _state["provider"]
        attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: DEFAULT_SERVICE_NAME}
        provider = TracerProvider(resource=Resource.create(attributes))
        # the batch processor re-creates its export thread in a forked child (Celery's prefork pool)
        provider.add_span_processor(BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter))
        if set_global:
            trace.set_tracer_provider(provider)
        DjangoInstrumentor().instrument(
            tracer_provider=provider, request_hook=_redact_request_span, is_sql_commentor_enabled=False
        )
        # Django's backend calls psycopg.connect, which the instrumentor wraps (keeping Django's cursor class): one
        # span per statement, the SQL text with its placeholders, never the parameters. Connections opened before
        # this point stay untraced: Django is set up (and this runs) before any is opened.
        PsycopgInstrumentor().instrument(tracer_provider=provider, enable_commenter=False, skip_dep_check=True)
        CeleryInstrumentor().instrument(tracer_provider=provider)
        _state.update(provider=provider, tracer=provider.get_tracer("orgmemory.search"))
        return provider


def tracing_stop() -> None:
    """Undo ``tracing_start`` (the tests' clean-up): the instrumentations are removed, spans flushed."""
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor

    with _lock:
        provider = _state["provider"]
        if provider is None:
            return
        for instrumentor in (DjangoInstrumentor(), PsycopgInstrumentor(), CeleryInstrumentor()):
            instrumentor.uninstrument()
        provider.force_flush()
        _state.update(provider=None, tracer=None)


def _redact_request_span(span, request) -> None:
    """The request span names the route, not who or what was asked: no query string, no ids in the path."""
    if not span.is_recording():
        return
    attributes = getattr(span, "attributes", None) or {}
    for key in _URL_ATTRIBUTES:
        value = attributes.get(key)
        if isinstance(value, str):
            span.set_attribute(key, redact_request_line(value))
    for key in _QUERY_ATTRIBUTES:
        if key in attributes:
            span.set_attribute(key, "")
