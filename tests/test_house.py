"""The house rules on size: no module of the package over 700 lines, no function over 150
lines or with more than 12 parameters, outside :data:`ALLOWED_FUNCTIONS`, where each
entry says why. (The import rules are in ``tests/test_imports.py``.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 150
MAX_PARAMETERS = 12

ALLOWED_FUNCTIONS: dict[str, str] = {
    "solvers/search/kernel.py:search": "the numba search loop: one compiled function keeps its explicit stack "
                                       "and counters in registers",
    "solvers/search/kernel.py:gen_moves": "the numba move generator, compiled into the search loop; its "
                                          "position arrives as the loop's own variables",
    "solvers/search/cuts.py:trick_dead": "a numba cut called in the search loop with the loop's arrays "
                                         "(14 parameters: the position unpacked, the covers)",
    "solvers/search/cuts.py:boundary_dead": "a numba cut called in the search loop with the loop's arrays "
                                            "(17 parameters: the position unpacked, the covers)",
    "solvers/search/cuts.py:release_dead": "a numba cut compiled into boundary_dead, given its arrays "
                                           "(13 parameters: the position unpacked, the covers)",
    "web/app.py:create_app": "Flask's application factory: the routes are closures over the app's state",
}
"""``path:function`` (relative to ``crewcheck/``) -> why it may exceed the limits."""


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = node.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)


def oversized(folder: Path) -> list[str]:
    """Every module over :data:`MAX_MODULE_LINES` lines and every function over
    :data:`MAX_FUNCTION_LINES` lines or :data:`MAX_PARAMETERS` parameters under ``folder``
    that :data:`ALLOWED_FUNCTIONS` does not name."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder).as_posix()
        source = path.read_text(encoding="utf-8")
        lines = len(source.splitlines())
        if lines > MAX_MODULE_LINES:
            out.append(f"{rel}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            params = _parameters(node)
            if (length > MAX_FUNCTION_LINES or params > MAX_PARAMETERS) and f"{rel}:{node.name}" not in ALLOWED_FUNCTIONS:
                out.append(f"{rel}:{node.name}: {length} lines, {params} parameters")
    return out


def test_modules_and_functions_keep_their_size() -> None:
    """No module of crewcheck over 700 lines; no function over 150 lines or 12 parameters
    but those the allow-list names, each with its reason."""
    found = oversized(ROOT / "crewcheck")
    assert not found, "over the house limits: " + "; ".join(found)


def test_every_allowed_function_exists_and_says_why() -> None:
    """The allow-list names only functions that are still there and still over a limit, each
    with a reason (an entry that no longer applies is removed)."""
    stale = []
    for entry, reason in ALLOWED_FUNCTIONS.items():
        rel, name = entry.split(":")
        path = ROOT / "crewcheck" / rel
        tree = ast.parse(path.read_text(encoding="utf-8")) if path.exists() else ast.Module(body=[], type_ignores=[])
        over = any((n.end_lineno or n.lineno) - n.lineno + 1 > MAX_FUNCTION_LINES or _parameters(n) > MAX_PARAMETERS
                   for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name)
        if not over or len(reason.split()) < 3:
            stale.append(entry)
    assert stale == []


def test_the_size_check_fails_on_a_planted_module(tmp_path: Path) -> None:
    """The check can fail: a module with a 151-line function, one with 13 parameters and a
    701-line module are each reported."""
    body = "\n".join(f"    x{i} = {i}" for i in range(150))
    (tmp_path / "long.py").write_text(f"def long_one():\n{body}\n", encoding="utf-8")
    params = ", ".join(f"p{i}" for i in range(13))
    (tmp_path / "wide.py").write_text(f"def wide_one({params}):\n    return p0\n", encoding="utf-8")
    (tmp_path / "big.py").write_text("x = 0\n" * 701, encoding="utf-8")
    assert oversized(tmp_path) == [
        "big.py: 701 lines", "long.py:long_one: 151 lines, 0 parameters", "wide.py:wide_one: 2 lines, 13 parameters"]
