"""The one percentile every benchmark reports (latency p50/p95/p99), so two commands' figures mean the same."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in [0, 100]) of a non-empty sequence: a value that was measured, never an
    interpolation between two."""
    if not values:
        raise ValueError("percentile of an empty sequence")
    ordered = sorted(values)
    index = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[index]
