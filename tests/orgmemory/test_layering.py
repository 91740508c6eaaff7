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
import re
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


# --- SQL strings: a module names only the tables of its own floor or those below (docs/ARCHITECTURE.md) ----------
# Imports are not the only arrows: a raw SQL string that names another app's table depends on it as surely. SQL
# names other apps' tables from ``Model._meta.db_table`` (so the import shows the arrow); a higher floor's table
# named in a lower floor's SQL string is a violation the import graph cannot see.

_SQL_SHAPE = re.compile(r"\b(select|insert|update|delete)\b[\s\S]*\b(from|into|join|set)\b", re.IGNORECASE)


def table_owners() -> dict[str, str]:
    """``{database table: module of its model}`` for every model Django knows, many-to-many tables included."""
    from django.apps import apps

    return {model._meta.db_table: model.__module__ for model in apps.get_models(include_auto_created=True)}


def _floor_of(module: str) -> int:
    """The floor of a module (outside packages — Django's own tables, tree_queries — are below every app: -1)."""
    return FLOORS.index(_app(module)) if _app(module) in FLOORS else -1


def sql_strings(path: Path) -> list[tuple[str, int]]:
    """``(text, line)`` of every string literal of the module that reads as SQL (an f-string's literal parts joined,
    so ``{Model._meta.db_table}`` leaves no name behind); docstrings are prose and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):  # breadth first: an f-string is met before the literal parts inside it
        if isinstance(node, ast.JoinedStr):
            parts = [value for value in node.values if isinstance(value, ast.Constant)]
            skipped.update(id(part) for part in parts)
            text = " ".join(str(part.value) for part in parts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            text = node.value
        else:
            continue
        if _SQL_SHAPE.search(text):
            found.append((text, node.lineno))
    return found


def tables_named(text: str, tables) -> set[str]:
    return {table for table in tables if re.search(rf"(?<![\w.]){re.escape(table)}(?!\w)", text)}


def upward_sql(modules: dict[str, Path], owners: dict[str, str]) -> list[str]:
    """SQL strings of a lower floor that name a table of a higher floor, outside the wiring."""
    bad = []
    for name, path in sorted(modules.items()):
        if name in WIRING:
            continue
        for text, line in sql_strings(path):
            for table in sorted(tables_named(text, owners)):
                if _floor_of(owners[table]) > _floor_of(name):
                    bad.append(f"{name}:{line} names {table} (a table of {_app(owners[table])}, a higher floor)")
    return bad


def execute_sites_naming_another_apps_table(modules: dict[str, Path], owners: dict[str, str]) -> list[str]:
    """``cursor.execute(…)`` calls outside ``bench`` whose SQL literal names a table of another Django app (by app
    label: ``memories.curation`` is an app of its own). The SQL is the call's literal first argument, or the string
    assigned to the name passed."""
    from django.apps import apps

    label_of_table = {table: apps.get_containing_app_config(owner).label for table, owner in owners.items()}
    sites = []
    for name, path in sorted(modules.items()):
        if _app(name) == "bench" or ".migrations." in f"{name}.":
            continue
        config = apps.get_containing_app_config(name)
        own = config.label if config else _app(name)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        assigned: dict[str, list[ast.AST]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"execute", "executemany"}
                and node.args
            ):
                continue
            sources = assigned.get(node.args[0].id, []) if isinstance(node.args[0], ast.Name) else [node.args[0]]
            text = " ".join(
                str(part.value)
                for source in sources
                for part in ast.walk(source)
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            others = sorted(table for table in tables_named(text, owners) if label_of_table[table] != own)
            if others:
                sites.append(f"{name}:{node.lineno} names {', '.join(others)}")
    return sites


def test_the_sql_reader_sees_f_string_literals_and_leaves_docstrings_out(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        '"""Reads nothing: SELECT name FROM graph_entity is prose here."""\n'
        "from graph.models import Entity\n"
        "def figures(cursor):\n"
        '    cursor.execute(f"SELECT e.id FROM {Entity._meta.db_table} e "\n'
        '                   "JOIN graph_entitylink l ON l.subject_id = e.id")\n'
        '    cursor.execute("SELECT count(*) FROM memories_memory")\n'
    )
    owners = table_owners()

    assert upward_sql({"memories.selectors.sample": module}, owners) == [
        "memories.selectors.sample:4 names graph_entitylink (a table of graph, a higher floor)"
    ]
    assert upward_sql({"retrieval.sample": module}, owners) == []  # from above, the graph's tables may be named


def test_no_sql_string_names_a_higher_floors_table():
    modules, owners = project_modules(), table_owners()
    # the reader sees the real SQL: the retrieval arms name the memory store's tables
    assert "memories_memory" in {
        t for text, _ in sql_strings(modules["retrieval.selectors"]) for t in tables_named(text, owners)
    }

    assert upward_sql(modules, owners) == []
    sites = execute_sites_naming_another_apps_table(modules, owners)
    print(f"cursor.execute sites naming another app's table (outside bench): {len(sites)}", *sites, sep="\n  ")


# --- the visibility rule is stated once (memories/visibility.py) ------------------------------------------------
# "Live" (not superseded, not expired, valid) is rendered from memories.visibility everywhere; a product file that
# writes its clauses by hand again would let the ORM and the SQL arms drift apart. Migrations keep their history.

VISIBILITY_HOME = "memories.visibility"
_HAND_WRITTEN_RULE = re.compile(
    r"superseded_by(?:_id)?\s+IS\s+NULL"  # SQL: the supersede clause
    r"|superseded_by(?:_id)?__isnull"  # the ORM's
    r"|expires_at\s+IS\s+NULL\s+OR|expires_at__(?:isnull|gt)\b"  # the expiry clause
    r"|valid_(?:from|until)\s+IS\s+NULL\s+OR|valid_from__lte\b|valid_until__gt\b",  # the validity window
    re.IGNORECASE,
)
# a check constraint compares the two ends of the window with each other, not with a moment: not the rule
_NOT_THE_RULE = re.compile(r"valid_until__gt=models\.F\(")


def hand_written_visibility(modules: dict[str, Path]) -> list[str]:
    """Lines of product modules (bench included, migrations not) outside memories.visibility that restate a
    clause of the visibility rule."""
    found = []
    for name, path in sorted(modules.items()):
        if name == VISIBILITY_HOME or ".migrations." in f"{name}.":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _HAND_WRITTEN_RULE.search(line) and not _NOT_THE_RULE.search(line):
                found.append(f"{name}:{number}: restates the visibility rule: {line.strip()}")
    return found


def test_the_visibility_check_sees_sql_and_orm_restatements(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        'LIVE = "m.superseded_by_id IS NULL AND (m.expires_at IS NULL OR m.expires_at > now())"\n'
        "rows = Memory.objects.filter(superseded_by__isnull=True, expires_at__gt=now)\n"
        "window = Q(valid_from__lte=now)\n"
        "fine = visibility.live_sql('m')\n"
    )
    assert [line.split(":")[1] for line in hand_written_visibility({"memories.sample": module})] == ["1", "2", "3"]
    assert hand_written_visibility({VISIBILITY_HOME: module}) == []


def test_no_product_module_restates_the_visibility_rule():
    modules = project_modules()
    assert VISIBILITY_HOME in modules
    assert hand_written_visibility(modules) == []


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
