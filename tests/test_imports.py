"""The import structure: layers only import downward, no import circles, test modules stand alone.

The graph is read from the source: every ``import`` of a crewcheck module, at module top,
inside a function or under ``if TYPE_CHECKING:``, so a lazy import and an import for the
type checker count as much as any other. ``docs/architecture.md`` states the same layers
in words.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "runtime": set(),
    "model": {"errors"},
    "formats": {"errors", "model"},
    "solvers": {"errors", "model", "runtime"},
    "api": {"errors", "formats", "model", "solvers"},
    "missions": {"errors"},
    "analysis": {"api", "errors", "formats", "model", "solvers"},
    "reports": {"analysis", "errors", "formats", "model", "solvers"},
    "agents": {"api", "errors", "formats", "model", "runtime", "solvers"},
    "experiments": {"agents", "api", "errors", "formats", "model", "runtime", "solvers"},
    # claims -> experiments: the Harvill & Vivek rows re-run the Deep Sea bench's jobs
    "claims": {"agents", "api", "errors", "experiments", "formats", "model", "runtime", "solvers"},
    # certificates: the producer encodes and solves; the checker module (rup) imports only
    # runtime.kernels, which tests/certificates/test_independence.py holds
    "certificates": {"errors", "formats", "model", "runtime", "solvers"},
    # web deals the games the command line deals: logbook missions, Classic and Deep Sea deals
    "web": {"agents", "analysis", "api", "errors", "formats", "missions", "model", "reports", "solvers"},
    "cli": {"<facade>", "agents", "analysis", "api", "certificates", "claims", "errors", "experiments", "formats", "missions",
            "model", "reports", "runtime", "solvers", "web"},
    "<facade>": {"api", "errors", "formats", "model", "solvers"},
    "__main__": {"cli"},
}
"""Top-level part of crewcheck -> the parts it may import (``<facade>``: ``crewcheck/__init__``)."""

def _modules(folder: Path, prefix: str) -> dict[str, Path]:
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        name = ".".join((prefix, *parts[:-1]) if parts[-1] == "__init__" else (prefix, *parts))
        out[name] = path
    return out


MODULES = _modules(ROOT / "crewcheck", "crewcheck")


def _imported(path: Path) -> Iterator[str]:
    """The modules ``path`` imports (``from a import b``: ``a.b`` when that is a module)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield f"{node.module}.{alias.name}"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = set()
        for imported in _imported(path):
            while imported and imported not in MODULES:
                imported = imported.rpartition(".")[0]
            if imported:
                targets.add(imported)
        graph[name] = targets - {name}
    return graph


def _part(module: str) -> str:
    return module.split(".")[1] if "." in module else "<facade>"


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_layers_import_only_downward() -> None:
    """Every import between parts of crewcheck is one the layer table allows (model imports
    only errors; solvers never import api, claims, agents or the CLI; nothing imports the
    CLI; only the CLI uses the package façade)."""
    wrong = [f"{module} imports {target}" for module, targets in _graph().items() for target in sorted(targets)
             if _part(target) != _part(module) and _part(target) not in ALLOWED[_part(module)]]
    assert wrong == []


def test_no_import_circle() -> None:
    """No import circle within crewcheck, at run time or for the type checker (a lazy
    import and one under ``if TYPE_CHECKING:`` count)."""
    assert [sorted(c) for c in _circles(_graph())] == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above can fail: a planted circle a -> b -> c -> a is found."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]


def test_test_modules_do_not_import_each_other() -> None:
    """Shared test code lives in helper modules (``tests/oracle.py``, ``tests/strategies.py``,
    ...), never in another test module."""
    wrong = [f"{path.relative_to(ROOT)} imports {name}" for path in sorted((ROOT / "tests").rglob("*.py"))
             for name in _imported(path) if name.startswith("tests.")
             and any(part.startswith("test_") for part in name.split("."))]
    assert wrong == []
