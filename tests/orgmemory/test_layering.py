"""The layering of docs/ARCHITECTURE.md ("Layering"), checked on the source: every module of the four apps is
parsed with ``ast`` and each ``import`` / ``from … import`` statement — at module level, inside functions and
classes, and under ``if TYPE_CHECKING`` alike — becomes an arrow to the module it names.

- Apps sit on floors, ``orgmemory`` (core) < ``memories`` < ``graph`` < ``retrieval``: an arrow may only point to
  the same floor or down. The only modules allowed to point up are ``orgmemory``'s wiring (URLs, the admin site,
  health, the WSGI/ASGI entry points and the gunicorn configuration), which exist to put the apps together; nothing
  but other wiring imports them.
- ``bench`` (benchmarks, evaluations, corpora, load tests) is the top floor, above ``retrieval``: it may import
  every app, and no product module imports it — the wiring included, since production does not install it.
- Inside an app the module graph has no cycle (so no import hidden inside a function to dodge one).

``python tests/orgmemory/test_layering.py`` prints the app graph with its arrow counts and any violation.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOORS = ("orgmemory", "memories", "graph", "retrieval", "bench")  # bottom first
WIRING = frozenset(
    {
        "orgmemory.urls",
        "orgmemory.api_urls",
        "orgmemory.health",
        "orgmemory.wsgi",
        "orgmemory.asgi",
        "orgmemory.gunicorn_conf",
        "orgmemory.admin_site",
        "orgmemory.metrics_api",
    }
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every Python module of the apps (migrations included: they are code too)."""
    return {_module_name(path): path for app in FLOORS for path in sorted((ROOT / app).rglob("*.py"))}


def imported_names(name: str, path: Path) -> list[tuple[str, int]]:
    """``(dotted name, line)`` for every import anywhere in the module; ``from a import b`` yields ``a`` and
    ``a.b`` (``b`` may be a submodule), relative imports resolved against the module's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"]
    return found


def import_graph() -> dict[str, dict[str, int]]:
    """``{module: {imported project module: first line}}`` (imports of outside packages are left out)."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        targets: dict[str, int] = {}
        for imported, line in imported_names(name, path):
            while imported and imported not in modules:  # ``a.b.Name`` → module ``a.b``
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.setdefault(imported, line)
        graph[name] = targets
    return graph


def _app(module: str) -> str:
    return module.partition(".")[0]


def app_arrows(graph: dict[str, dict[str, int]]) -> Counter[tuple[str, str]]:
    """How many module imports go from each app to each other app."""
    return Counter((_app(a), _app(b)) for a, targets in graph.items() for b in targets if _app(a) != _app(b))


def upward_imports(graph: dict[str, dict[str, int]]) -> list[str]:
    """Imports from a lower floor to a higher one, outside the wiring."""
    bad = []
    for module, targets in sorted(graph.items()):
        for target, line in sorted(targets.items()):
            if FLOORS.index(_app(target)) > FLOORS.index(_app(module)) and module not in WIRING:
                bad.append(f"{module}:{line} imports {target} (a higher floor)")
    return bad


def bench_importers(graph: dict[str, dict[str, int]]) -> list[str]:
    """Product modules (wiring included) that import the bench app."""
    return [
        f"{module}:{line} imports {target} (the bench app, absent in production)"
        for module, targets in sorted(graph.items())
        if _app(module) != "bench"
        for target, line in sorted(targets.items())
        if _app(target) == "bench"
    ]


def wiring_importers(graph: dict[str, dict[str, int]]) -> list[str]:
    """Modules outside the wiring that import a wiring module."""
    return [
        f"{module}:{line} imports the wiring module {target}"
        for module, targets in sorted(graph.items())
        if module not in WIRING
        for target, line in sorted(targets.items())
        if target in WIRING
    ]


def cycles_within_apps(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected sets of two or more modules of one app (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(t for t in graph[root] if _app(t) == _app(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(t for t in graph[child] if _app(t) == _app(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


# --- the checks ------------------------------------------------------------------------------------------------


def test_the_parser_sees_function_level_relative_and_type_checking_imports(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from graph.models import Entity\n"
        "def later():\n"
        "    import retrieval.services\n"
        "    from ..tasks import embed_memories\n"
    )
    names = {name for name, _ in imported_names("memories.services.sample", module)}
    assert {
        "memories.services.sibling",
        "graph.models.Entity",
        "retrieval.services",
        "memories.tasks.embed_memories",
    } <= names


def test_the_graph_covers_every_app():
    graph = import_graph()
    assert {_app(module) for module in graph} == set(FLOORS)
    assert graph["memories.api.base"]["memories.api.auth"] > 0  # a real arrow, with its line


def test_no_import_points_up_a_floor_outside_the_wiring():
    graph = import_graph()
    assert upward_imports(graph) == []
    assert wiring_importers(graph) == []


def test_no_product_module_imports_the_bench_app():
    graph = import_graph()
    assert any(_app(target) == "retrieval" for target in graph["bench.management.commands.eval_retrieval"])
    assert bench_importers(graph) == []


def test_the_apps_form_the_documented_floors():
    arrows = app_arrows(import_graph())
    assert {edge for edge in arrows if FLOORS.index(edge[1]) > FLOORS.index(edge[0])} == {
        ("orgmemory", "memories"),  # wiring: URLs, the admin site, health, wsgi/asgi, gunicorn
        ("orgmemory", "graph"),  # wiring: URLs, the admin site
        ("orgmemory", "retrieval"),  # wiring: URLs, the admin site
    }


def test_no_import_cycle_inside_an_app():
    assert cycles_within_apps(import_graph()) == []


if __name__ == "__main__":
    graph = import_graph()
    print(f"{len(graph)} modules; arrows between apps (module imports):")
    for (source, target), count in sorted(app_arrows(graph).items(), key=lambda item: FLOORS.index(item[0][0])):
        up = FLOORS.index(target) > FLOORS.index(source)
        direction = ("up (wiring)" if source == "orgmemory" else "UP: a violation") if up else "down"
        print(f"  {source:>9} -> {target:<9} {count:3}  {direction}")
    wiring = sorted(
        {f"{m} -> {_app(t)}" for m, ts in graph.items() for t in ts if m in WIRING and _app(t) != "orgmemory"}
    )
    print("upward arrows come only from:", ", ".join(wiring))
    print("violations:", upward_imports(graph) + wiring_importers(graph) + bench_importers(graph) or "none")
    print("cycles inside an app:", cycles_within_apps(graph) or "none")
