"""The layers of the site, read from the source: every ``import`` in every module of games/, scoring/ and
handsite/, those inside functions too.

- ``games.engine`` is pure Python: no Django, and nothing of the site outside the engine;
- ``handsite`` imports neither ``games`` nor ``scoring``;
- ``scoring`` imports nothing of ``games`` but ``games.engine``;
- no two modules import each other, directly or round a longer circle.

Not counted: imports in an ``AppConfig.ready()`` (Django runs them once every app is loaded) and in an
``if TYPE_CHECKING:`` block (never run). Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``;
those implicit imports are not edges, or every package that gathers its modules' names would be in a
circle with them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT

APPS = ("games", "scoring", "handsite")


@dataclass(frozen=True)
class Import:
    """One imported name as written, and the site's module it runs (``None`` for a library)."""

    line: int
    name: str
    module: str | None


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {
    _module_name(path): path for app in APPS for path in sorted((ROOT / app).rglob("*.py"))
}


def _site_module(name: str) -> str | None:
    """The longest module of the site that ``name`` (a dotted import) names or lies in."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, path: Path):
        self.module, self.path, self.found = module, path, []
        self.package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING":
            for statement in node.orelse:
                self.visit(statement)
            return
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name == "ready" and self.path.name == "apps.py":
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append(Import(node.lineno, alias.name, _site_module(alias.name)))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            name = submodule if submodule in MODULES else source
            self.found.append(Import(node.lineno, name, _site_module(name)))


def _imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    visitor = _Imports(module, path)
    visitor.visit(ast.parse(path.read_text(), filename=str(path)))
    return visitor.found


IMPORTS: dict[str, list[Import]] = {module: _imports_of(module) for module in MODULES}


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _offences(rule) -> list[str]:
    return [
        f"{MODULES[module].relative_to(ROOT)}:{item.line} imports {item.name}"
        for module, items in IMPORTS.items()
        for item in items
        if rule(module, item)
    ]


def test_the_reader_sees_imports_inside_functions_and_relative_ones():
    names = {item.name for item in IMPORTS["games.engine.family"]}
    assert {"games.engine.advice", "games.engine.handfoot_play", "games.engine.view"} <= names
    source = "def queue():\n    from scoring.tasks import refresh_group_ratings\n"
    reader = _Imports("scoring.services.ratings", MODULES["scoring.services.ratings"])
    reader.visit(ast.parse(source))
    assert [item.module for item in reader.found] == ["scoring.tasks"]


def test_the_engine_imports_no_django_and_nothing_of_the_site_outside_the_engine():
    def rule(module: str, item: Import) -> bool:
        if not _in(module, "games.engine"):
            return False
        if item.name.split(".")[0] == "django":
            return True
        return item.module is not None and not _in(item.module, "games.engine")

    assert _offences(rule) == []


def test_handsite_imports_neither_games_nor_scoring():
    def rule(module: str, item: Import) -> bool:
        return _in(module, "handsite") and item.name.split(".")[0] in ("games", "scoring")

    assert _offences(rule) == []


def test_scoring_imports_nothing_of_games_but_the_engine():
    def rule(module: str, item: Import) -> bool:
        return (
            _in(module, "scoring")
            and item.name.split(".")[0] == "games"
            and not _in(item.name, "games.engine")
        )

    assert _offences(rule) == []


def _circles() -> list[list[str]]:
    """Every set of modules that import one another round a circle (strongly connected components of
    more than one module, Tarjan's algorithm), each sorted, in a stable order."""
    edges = {
        module: sorted({item.module for item in items if item.module and item.module != module})
        for module, items in IMPORTS.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return sorted(found)


def _described(component: list[str]) -> list[str]:
    """The imports that hold a circle together, as ``file:line imports module``."""
    members = set(component)
    return [
        f"{MODULES[module].relative_to(ROOT)}:{item.line} imports {item.module}"
        for module in component
        for item in IMPORTS[module]
        if item.module in members and item.module != module
    ]


def _circles_in(area: str) -> list[list[str]]:
    return [component for component in _circles() if _in(component[0], area)]


def test_the_engine_is_in_no_import_circle():
    assert [_described(c) for c in _circles_in("games.engine")] == []


@pytest.mark.parametrize("app", APPS)
def test_no_module_is_in_an_import_circle(app):
    assert [_described(c) for c in _circles_in(app)] == []
