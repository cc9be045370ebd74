"""The import structure: layers only import downward, no import circles, test modules stand alone.

The graph is read from the source: every ``import`` of a crewcheck module, at module top,
inside a function or under ``if TYPE_CHECKING:``, so a lazy import and an import for the
type checker count as much as any other; so do the edges no ``import`` statement shows: a
read of another package's data (``resources.files("crewcheck.missions")``) and a
``"crewcheck.module:Name"`` string a registry imports by name (in the source or in the
package's JSON data). ``docs/architecture.md`` states the same layers in a table, which a
test here compares with :data:`ALLOWED` row by row.
"""

from __future__ import annotations

import ast
import json
import re
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
    # agents -> missions: the Harvill & Vivek agents read their five tasks from the Deep Sea catalogue
    "agents": {"api", "errors", "formats", "missions", "model", "runtime", "solvers"},
    # experiments -> missions: the Deep Sea missions study deals from the missions' data
    "experiments": {"agents", "api", "errors", "formats", "missions", "model", "runtime", "solvers"},
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


_BY_NAME = re.compile(r"crewcheck(\.\w+)*:\w+")
"""A ``"module:Name"`` string, which a registry imports by name."""


def _imported(path: Path, *, hidden: bool = True) -> Iterator[str]:
    """The modules ``path`` imports (``from a import b``: ``a.b`` when that is a module);
    ``hidden``: also the packages whose data it reads (``resources.files("crewcheck.x")``)
    and the modules its ``"crewcheck.x:Name"`` strings name."""
    yield from _imported_source(path.read_text(encoding="utf-8"), hidden=hidden)


def _imported_source(source: str, *, hidden: bool = True) -> Iterator[str]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif hidden and isinstance(node, ast.Call) and _called(node) == "files" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value
        elif hidden and isinstance(node, ast.Constant) and isinstance(node.value, str) and _BY_NAME.fullmatch(node.value):
            yield node.value.replace(":", ".")


def _called(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id if isinstance(call.func, ast.Name) else ""


def _json_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def _data_edges() -> dict[str, set[str]]:
    """The ``"crewcheck.x:Name"`` strings of the package's JSON data, as edges from the
    package that holds the file (``claims/data/claims.json``: from ``crewcheck.claims``)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "crewcheck").rglob("*.json")):
        folder = path.parent
        while not (folder / "__init__.py").exists():
            folder = folder.parent
        owner = ".".join(("crewcheck", *folder.relative_to(ROOT / "crewcheck").parts))
        named = {s.replace(":", ".") for s in _json_strings(json.loads(path.read_text(encoding="utf-8")))
                 if _BY_NAME.fullmatch(s)}
        out.setdefault(owner, set()).update(named)
    return out


def _resolve(imported: str) -> str:
    while imported and imported not in MODULES:
        imported = imported.rpartition(".")[0]
    return imported


def _graph(*, hidden: bool = True) -> dict[str, set[str]]:
    """Module -> the modules it imports; ``hidden``: with the data reads and by-name strings
    (the layer rule counts them; an import circle is one of ``import`` statements only, as
    a registry naming a back-end that imports the registry is no circle at run time)."""
    graph: dict[str, set[str]] = {}
    data = _data_edges() if hidden else {}
    for name, path in MODULES.items():
        found = (*_imported(path, hidden=hidden), *data.get(name, ()))
        targets = {_resolve(imported) for imported in found} - {""}
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
    assert [sorted(c) for c in _circles(_graph(hidden=False))] == []


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


def test_hidden_edges_are_read() -> None:
    """A read of another package's data and a ``"module:Name"`` string count as imports, so
    the layer rule sees them (a planted source with one of each)."""
    source = 'from importlib import resources\nresources.files("crewcheck.missions").joinpath("x.json")\n' \
             'BACKENDS = {"engine": "crewcheck.solvers.engine:EngineSolver"}\n'
    assert set(_imported_source(source)) == {"importlib.resources", "crewcheck.missions",
                                              "crewcheck.solvers.engine.EngineSolver"}
    assert set(_imported_source(source, hidden=False)) == {"importlib.resources"}


def _doc_parts(cell: str) -> set[str]:
    """The parts a cell of the layer table names (remarks in parentheses left out)."""
    cell = re.sub(r"\([^)]*\)", "", cell.replace("(`crewcheck/__init__`)", "`<facade>`"))
    return set(re.findall(r"`([^`]+)`", cell))


def _doc_table(text: str) -> dict[str, set[str]]:
    """The layer table of ``docs/architecture.md`` as part -> parts ("everything below it":
    every part but itself and ``__main__``; "nothing of crewcheck": none)."""
    section = text.split("## Layers: what each part may import", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("part", "---"):
            continue
        for part in _doc_parts(cells[0]):
            below = cells[1].startswith("everything below it")
            out[part] = set(ALLOWED) - {part, "__main__"} if below else _doc_parts(cells[1])
    return out


def _table_differences(doc: dict[str, set[str]], code: dict[str, set[str]]) -> list[str]:
    return [f"row {part}: docs/architecture.md says {sorted(doc.get(part, ()))}, "
            f"tests/test_imports.py says {sorted(code.get(part, ()))}"
            for part in sorted(set(doc) | set(code)) if doc.get(part) != code.get(part)]


def test_the_documented_layer_table_is_the_tested_one() -> None:
    """docs/architecture.md's table of layers says what :data:`ALLOWED` says, row by row."""
    doc = _doc_table((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    differences = _table_differences(doc, ALLOWED)
    assert not differences, "\n".join(differences)


def test_a_differing_row_is_named() -> None:
    """The comparison can fail: a table with one part more in a row names that row."""
    doc = {part: set(allowed) for part, allowed in ALLOWED.items()}
    doc["model"] = {"errors", "solvers"}
    assert _table_differences(doc, ALLOWED) == [
        "row model: docs/architecture.md says ['errors', 'solvers'], tests/test_imports.py says ['errors']"]


def _tree_sections(text: str) -> dict[str, str]:
    """The tree of docs/architecture.md by top-level entry (``model``, ``api.py``, ...)."""
    tree = text.split("```", 2)[1]
    out: dict[str, str] = {}
    current = None
    for line in tree.splitlines():
        found = re.match(r"^  (\S+?)/?\s", line + " ")
        if found and not line.startswith("   "):
            current = found.group(1)
        if current is not None:
            out[current] = out.get(current, "") + line + "\n"
    return out


def _unnamed(sections: dict[str, str], modules: list[tuple[str, ...]]) -> list[str]:
    """The module paths (relative to ``crewcheck/``) that their part's lines of the tree do not
    name: by file name, by stem, or by a folder holding them (``witteveen/``)."""
    out = []
    for parts in modules:
        text = sections.get(parts[0], "")
        stem = parts[-1].removesuffix(".py")
        named = re.search(rf"(?<![\w/]){re.escape(stem)}(\.py)?\b", text) is not None
        if not (named or any(f"{folder}/" in text for folder in parts[1:-1])):
            out.append("/".join(parts))
    return out


def test_every_module_is_in_the_architecture_tree() -> None:
    """Each module of the package is named in docs/architecture.md's tree, in the lines of
    its part (a subpackage the tree describes as a whole, such as ``claims/witteveen/``,
    names its modules)."""
    sections = _tree_sections((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    modules = [p.relative_to(ROOT / "crewcheck").parts for p in MODULES.values() if p.name != "__init__.py"]
    unnamed = _unnamed(sections, modules)
    assert not unnamed, "not named in docs/architecture.md's tree: " + ", ".join(unnamed)


def test_an_unnamed_module_is_found() -> None:
    """The tree check can fail: a module its part's lines do not name is listed."""
    sections = {"model": "  model/  cards.py tasks.py\n"}
    assert _unnamed(sections, [("model", "cards.py"), ("model", "hidden.py")]) == ["model/hidden.py"]
