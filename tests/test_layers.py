"""The packages depend one way (companion -> display, hardware, vision, engines; engines and vision
import nothing of ours) and no module imports itself back through others, lazily or not.

Imports under `if TYPE_CHECKING:` are left out: they are never run, so they make no circle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = (
    "engines", "vision", "hardware", "display", "companion", "advisor", "club", "pages", "review",
)  # fmt: skip
# What each package may import of ours besides itself (packages not named here: anything).
ALLOWED = {
    "engines": set(),
    "vision": set(),
    "hardware": {"vision"},  # the simulated camera draws its dice with vision.render
    "display": {"engines"},
    "advisor": {"engines"},
    "review": {"engines", "advisor"},
}


def module_files() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", "")) == (
        "TYPE_CHECKING"
    )


def run_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, at module level or inside a function."""
    for node in ast.iter_child_nodes(tree):
        branches = node.orelse if is_type_checking(node) else [node]
        for branch in branches:
            yield from run_imports_of(branch)


def run_imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from run_imports(node)


def imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in run_imports(tree):
            for target in imported_names(node, name, path.name == "__init__.py"):
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_no_module_imports_itself_back(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_the_packages_depend_one_way(graph: dict[str, set[str]]) -> None:
    wrong = [
        f"{name} imports {target}"
        for name, targets in graph.items()
        for target in targets
        if name.split(".")[0] in ALLOWED
        and target.split(".")[0] != name.split(".")[0]
        and target.split(".")[0] not in ALLOWED[name.split(".")[0]]
    ]
    assert wrong == []


def test_a_circle_is_seen() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
