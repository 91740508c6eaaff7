"""An ablation's report and table: each configuration's figures, their difference from the reference, its CPU."""

from __future__ import annotations

from collections.abc import Mapping

from bench.ablation.sets import Measured
from bench.evaluation import BASELINE


def report_rows(
    rows: Mapping[str, Measured],
    *,
    reference: str,
    name: str,
    label: str,
    seconds: dict,
    steps_spent: Mapping[str, float] | None = None,
) -> dict:
    """One set's report: each configuration's figures, their difference from ``reference``'s, its CPU per search;
    with ``steps_spent`` (:func:`step_clock` in the reference run), the reference's steps' own CPU per search (all
    of them) and, on each ``-step`` row, that step's."""
    full = rows[reference]
    own = {} if steps_spent is None else dict(steps_spent)
    per_search = 1000 / full.searches if full.searches else 0.0
    step_ms = {f"-{step}": round(seconds_spent * per_search, 3) for step, seconds_spent in own.items()}
    if own:
        step_ms[reference] = round(sum(own.values()) * per_search, 3)
    return {
        "name": name,
        "label": label,
        "searches": full.searches,
        "reference": reference,
        "seconds": seconds,
        "configs": {
            config: {
                "figures": dict(row.figures),
                "delta": {key: round(value - full.figures[key], 3) for key, value in row.figures.items()},
                "cpu_ms": round(row.cpu_ms, 2),
                "cpu_delta_ms": round(row.cpu_ms - full.cpu_ms, 2),
                **({"step_cpu_ms": step_ms[config]} if config in step_ms else {}),
            }
            for config, row in rows.items()
        },
    }


def _cell(value: float | None, *, delta: bool) -> str:
    if value is None:  # a figure this row has not (rank_bm25 states no answer)
        return "-"
    if not delta:
        return f"{value:.3f}"
    return "." if abs(value) < 0.0005 else f"{value:+.3f}"


def format_set(report: Mapping) -> list[str]:
    """One set's table: a row per configuration; the reference and rank_bm25 rows give the figures, every other
    row its difference from the reference ("." where there is none); then the CPU per search, in ms (a difference
    on the other rows too), and the steps' own CPU per search in the reference run (all of them on its row, the
    step's on a ``-step`` row)."""
    reference = report["reference"]
    configs = report["configs"]
    keys = list(configs[reference]["figures"])
    groups: dict[str, list[str]] = {}
    for key in keys:
        group, _, metric = key.rpartition("|")
        groups.setdefault(group, []).append(metric)
    widths = []  # per key: the width of its cell
    head_groups, head_metrics = "", ""
    for group, metrics in groups.items():
        cell = max(8, *(len(metric) + 2 for metric in metrics))
        span = max(cell * len(metrics), len(group) + 2)
        first = span - cell * (len(metrics) - 1)
        head_groups += f"{group:>{span}}"
        for index, metric in enumerate(metrics):
            width = first if index == 0 else cell
            widths.append(width)
            head_metrics += f"{metric:>{width}}"
    name_width = max(len(name) for name in configs) + 2
    lines = [
        f"== {report['name']}: {report['label']}; {report['searches']} searches a configuration; "
        f"ingest {report['seconds']['ingest']}s, searches {report['seconds']['search']}s",
        f"{'':<{name_width}}{head_groups}{'CPU':>12}{'own CPU':>10}",
        f"{'config':<{name_width}}{head_metrics}{'ms/search':>12}{'ms':>10}",
    ]
    for config, row in configs.items():
        delta = config not in (reference, BASELINE)
        values = row["delta"] if delta else row["figures"]
        cells = "".join(
            f"{_cell(values.get(key), delta=delta):>{width}}" for key, width in zip(keys, widths, strict=True)
        )
        cpu = f"{row['cpu_delta_ms']:+.2f}" if delta else f"{row['cpu_ms']:.2f}"
        own = f"{row['step_cpu_ms']:.3f}" if "step_cpu_ms" in row else ""
        lines.append(f"{config:<{name_width}}{cells}{cpu:>12}{own:>10}".rstrip())
    return lines


def format_report(report: Mapping) -> str:
    lines = [
        f"ablation, {report['half']} half of the conversational sets: each step of the search left out alone, each "
        "ranking switch off alone; rows other than full and rank_bm25 give the difference from full",
    ]
    for set_report in report["sets"].values():
        lines += ["", *format_set(set_report)]
    lines += ["", f"total {report['seconds']}s"]
    return "\n".join(lines)
