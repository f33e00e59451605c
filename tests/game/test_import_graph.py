"""The package's import graph, parsed from the source (issue 14): no cycles, and the layers point
one way — `__main__` (the CLI) → `ui` → `sim` → `game` → `engine` → `content` / `storage` →
`errors` / `_core`. Nothing outside `ui/` (and the CLI that opens the window) imports pygame or
`artificer.ui`: everything below runs headless.

Every import counts, those under `if TYPE_CHECKING:` and inside functions too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import artificer

PACKAGE = Path(artificer.__file__).parent
#: The layers, lowest first: a module may import its own layer's and lower layers' modules only.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"artificer", "errors", "_core"}),
    frozenset({"content", "storage"}),
    frozenset({"engine"}),
    frozenset({"game"}),
    frozenset({"sim"}),
    frozenset({"ui"}),
    frozenset({"__main__"}),
)
#: Packages only the window (and the CLI that opens it) may import.
WINDOW_PACKAGES = frozenset({"pygame", "pygame_gui"})


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
#: The extension (its stubs stand for it) is a module too.
MODULES["artificer._core"] = PACKAGE / "_core.pyi"


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """The lines of the statements under `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                for inner in ast.walk(child):
                    if hasattr(inner, "lineno"):
                        lines.add(inner.lineno)
    return lines


def _imports(module: str, path: Path) -> Iterator[tuple[str, bool]]:
    """(imported name, type-only) for each import in `path`: a module of the package when it is one,
    else the imported top-level name (`pygame`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_lines(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield (alias.name if alias.name in MODULES else alias.name.split(".")[0]), node.lineno in typing_only
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                name = full if full in MODULES else base if base in MODULES else base.split(".")[0]
                yield name, node.lineno in typing_only


def _package_of(module: str) -> str:
    """The layer name of a module of the package: `game` for `artificer.game.shop`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _graph(runtime_only: bool) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {module: set() for module in MODULES}
    for module, path in MODULES.items():
        if path.suffix == ".pyi":
            continue
        for name, type_only in _imports(module, path):
            if name in MODULES and name != module and not (runtime_only and type_only):
                edges[module].add(name)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check below can fail: a two-module and a three-module cycle are found, a chain is not."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}, "g": set()}
    assert sorted(_cycles(edges)) == [["a", "b"], ["c", "d", "e"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_modules_are_found() -> None:
    """The parser sees the package: the run's modules and their imports are there."""
    edges = _graph(runtime_only=False)
    assert {"artificer.game.run", "artificer.game.state", "artificer.ui.play", "artificer._core"} <= set(edges)
    assert "artificer.game.state" in edges["artificer.game.run"]
    assert "artificer.engine" in edges["artificer.game.run"]


def test_no_module_imports_in_a_circle() -> None:
    """No import, type-only or not, closes a circle anywhere in the package (issue 14: the run's
    state, shop and potions used to import each other; the shop scene and its Esc menu too)."""
    assert _cycles(_graph(runtime_only=False)) == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _package_of(m) not in {"ui", "__main__"}))
def test_the_layers_point_one_way(module: str) -> None:
    """ui → sim → game → engine → content → errors: no module imports a layer above its own, and
    nothing below the window imports pygame or pygame-gui."""
    rank = {name: level for level, names in enumerate(LAYERS) for name in names}
    own = rank[_package_of(module)]
    path = MODULES[module]
    if path.suffix == ".pyi":
        return
    for name, _ in _imports(module, path):
        assert name not in WINDOW_PACKAGES, f"{module} imports {name}: only artificer.ui may"
        if name in MODULES:
            assert rank[_package_of(name)] <= own, f"{module} imports {name}, a layer above it"
