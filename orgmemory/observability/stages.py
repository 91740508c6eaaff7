"""The hooks the search pipeline wraps its stages in: each stage is a histogram sample and, when tracing is on, a
child span of the search's span (itself a child of the request's span)."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from orgmemory.observability import metrics, tracing

F = TypeVar("F", bound=Callable[..., Any])


@contextlib.contextmanager
def search_stage(name: str, timings: dict[str, float] | None = None) -> Iterator[None]:
    """Time the block as search stage ``name``; with ``timings``, also store its milliseconds there (the search
    result's ``timings_ms``, which the playground and the benchmarks show). An exception still ends the span and
    records the sample, then propagates unchanged."""
    started = time.perf_counter()
    span = tracing.span(f"search.{name}")
    try:
        with span:
            yield
    finally:
        seconds = time.perf_counter() - started
        metrics.stage_observe(name, seconds)
        if timings is not None:
            timings[name] = round(seconds * 1000, 2)


def traced_search(function: F) -> F:
    """Wrap the whole search: one ``search`` span around the stages, its total time and the arms it lost."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        with tracing.span("search") as span:
            result = function(*args, **kwargs)
            degraded = list(getattr(result, "degraded", ()) or ())
            if span is not None and degraded:
                span.set_attribute("orgmemory.search.degraded", degraded)
        metrics.stage_observe("total", time.perf_counter() - started)
        metrics.degraded_observe(degraded)
        return result

    return wrapper  # type: ignore[return-value]
