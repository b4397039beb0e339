"""The architecture is held, not hoped for: import-linter's contracts, no import cycle, few late imports.

The contracts live in pyproject.toml (``[tool.importlinter]``): the virtual phone as Android's
layers, the plugin's layers, and the plugin reaching the phone only through its boot entry point.
grimp (import-linter's graph) counts every import, at module level and inside functions. The
contracts leave out imports under ``if TYPE_CHECKING:`` (annotations, which never run); the
cycle test counts them too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pytest_mobileagent"
#: Imports of the project's own modules inside functions, each with its reason in a comment.
LATE_IMPORT_BUDGET = 15


def _lint_imports_command() -> list[str]:
    script = Path(sys.executable).with_name("lint-imports")
    return [str(script)] if script.exists() else [sys.executable, "-c",
                                                   "import sys; from importlinter.cli import lint_imports_command;"
                                                   " sys.exit(lint_imports_command())"]


def test_lint_imports_keeps_every_contract():
    result = subprocess.run([*_lint_imports_command(), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the groups of modules that import each other round a circle."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(edges[node]):
                work.append((node, child + 1))
                nxt = edges[node][child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def test_no_import_cycle_among_the_projects_modules():
    """Not even through an annotation: a module named under ``if TYPE_CHECKING:`` counts here."""
    graph = grimp.build_graph(PACKAGE, exclude_type_checking_imports=False)
    assert _strongly_connected(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for name in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(name)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.three")
    graph.add_import(importer="a.three", imported="a.one")
    assert _strongly_connected(graph) == [["a.one", "a.three", "a.two"]]


def _late_project_imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) of each import of a project module inside a function of `path`."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[:len(package.split(".")) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.split(".")[0] == PACKAGE:
                    found.append((child.lineno, target))
            elif in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name) for alias in child.names
                             if alias.name.split(".")[0] == PACKAGE)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _has_reason(lines: list[str], lineno: int) -> bool:
    """A comment on the import's line, or above the group of import lines it stands in."""
    if "#" in lines[lineno - 1]:
        return True
    index = lineno - 2
    while index >= 0 and lines[index].strip().startswith(("from ", "import ")):
        index -= 1
    return index >= 0 and lines[index].strip().startswith("#")


def test_imports_inside_functions_are_few_and_each_says_why():
    """A late import of a project module dodges nothing: each is for cost, with its reason beside it."""
    late = []
    unexplained = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for lineno, target in _late_project_imports(path):
            where = f"{path.relative_to(ROOT)}:{lineno} imports {target}"
            late.append(where)
            if not _has_reason(lines, lineno):
                unexplained.append(where)
    assert len(late) <= LATE_IMPORT_BUDGET, "\n".join(late)
    assert not unexplained, "a late import needs its reason in a comment:\n" + "\n".join(unexplained)


def test_the_late_import_finder_sees_relative_imports_in_functions():
    source = ROOT / PACKAGE / "virtual_phone" / "__init__.py"
    assert any(target == f"{PACKAGE}.virtual_phone.phone" for _, target in _late_project_imports(source))
