"""A condition kind is one row: every place that lists the kinds lists the same ones.

The model's registry (:data:`crewcheck.model.condition_base.CONDITION_KINDS`) is the
reference; the deal schema (its ``kind`` enum and one branch of fields per kind), the
replay checker's judges, the logic back-ends' clauses, the search's table (with the kinds
it leaves to a relaxation, :data:`SEARCH_RELAXES`), the test strategies and the table of
``docs/missions.md`` must each name exactly those kinds. A difference fails naming the
kind and the file that lacks it (or has it in excess).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import crewcheck.model.conditions  # noqa: F401  (registers the kinds)
import crewcheck.model.deepsea_conditions  # noqa: F401  (registers the Deep Sea kinds)
from crewcheck.model.condition_base import CONDITION_KINDS
from crewcheck.model.deepsea_replay import DEEPSEA_JUDGES
from crewcheck.solvers.logic.condition_clauses import CONDITION_CLAUSES
from crewcheck.solvers.search.conditions import SEARCH_KINDS

ROOT = Path(__file__).resolve().parents[1]

SEARCH_RELAXES: frozenset[str] = frozenset()
"""Kinds without a row in the search's table: the search leaves them out (a relaxation)
and the engine's SAT side decides them. Today the search judges every kind."""


def _schema_kinds() -> dict[str, set[str]]:
    schema = json.loads((ROOT / "crewcheck" / "formats" / "deal.schema.json").read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            kind = node.get("properties", {}).get("kind") if isinstance(node.get("properties"), dict) else None
            if isinstance(kind, dict) and "enum" in kind and "allOf" in node:
                found["enum"] = set(kind["enum"])
                found["branches"] = {b["if"]["properties"]["kind"]["const"] for b in node["allOf"]
                                     if "kind" in b.get("if", {}).get("properties", {})}
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return found


def _replay_kinds() -> set[str]:
    """The kinds ``model/replay.py:_condition_holds`` judges itself (``kind == "..."``,
    ``kind in (...)``), and those it hands to ``DEEPSEA_JUDGES``."""
    tree = ast.parse((ROOT / "crewcheck" / "model" / "replay.py").read_text(encoding="utf-8"))
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_condition_holds")
    out = set(DEEPSEA_JUDGES)
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "kind":
            for right in node.comparators:
                out |= {c.value for c in ast.walk(right) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return out


def _strategy_kinds() -> set[str]:
    """The kinds ``tests/strategies.py`` draws: ``C.Class.kind`` in ``conditions_for`` and the
    keys of ``deepsea_makers``."""
    tree = ast.parse((ROOT / "tests" / "strategies.py").read_text(encoding="utf-8"))
    by_class = {cls.__name__: kind for kind, cls in CONDITION_KINDS.items()}
    out = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        if function.name == "conditions_for":
            out |= {by_class.get(n.value.attr, n.value.attr) for n in ast.walk(function)
                    if isinstance(n, ast.Attribute) and n.attr == "kind" and isinstance(n.value, ast.Attribute)}
        elif function.name == "deepsea_makers":
            out |= {k.value for n in ast.walk(function) if isinstance(n, ast.Dict)
                    for k in n.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return out


def _docs_kinds() -> set[str]:
    text = (ROOT / "docs" / "missions.md").read_text(encoding="utf-8")
    table = text.split("| kind | fields | holds when |", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.M))


def _places() -> dict[str, set[str]]:
    schema = _schema_kinds()
    return {
        "crewcheck/formats/deal.schema.json (kind enum)": schema.get("enum", set()),
        "crewcheck/formats/deal.schema.json (a branch of fields)": schema.get("branches", set()),
        "crewcheck/model/replay.py (_condition_holds, DEEPSEA_JUDGES)": _replay_kinds(),
        "crewcheck/solvers/logic/condition_clauses.py (CONDITION_CLAUSES)": set(CONDITION_CLAUSES),
        "crewcheck/solvers/search/conditions/table.py (SEARCH_KINDS, or SEARCH_RELAXES here)":
            set(SEARCH_KINDS) | SEARCH_RELAXES,
        "tests/strategies.py (conditions_for, deepsea_makers)": _strategy_kinds(),
        "docs/missions.md (the table of kinds)": _docs_kinds(),
    }


def _disagreements(model: set[str], places: dict[str, set[str]]) -> list[str]:
    out = []
    for place, kinds in places.items():
        out += [f"{kind}: missing from {place}" for kind in sorted(model - kinds)]
        out += [f"{kind}: in {place} but no model class registers it" for kind in sorted(kinds - model)]
    return out


def test_every_place_lists_every_condition_kind() -> None:
    """The schema, the replay checker, the clauses, the search, the strategies and the docs
    name exactly the kinds the model registers."""
    assert len(CONDITION_KINDS) >= 21
    wrong = _disagreements(set(CONDITION_KINDS), _places())
    assert not wrong, "\n".join(wrong)


def test_the_search_relaxes_only_kinds_it_has_no_row_for() -> None:
    """A kind is in the search's table or in its explicit relaxation, never both."""
    assert not SEARCH_RELAXES & set(SEARCH_KINDS)


def test_a_missing_kind_is_named_with_its_file() -> None:
    """The check can fail: a kind one place lacks is named with that place."""
    assert _disagreements({"a", "b"}, {"x.py": {"a"}, "y.md": {"a", "b", "c"}}) == [
        "b: missing from x.py", "c: in y.md but no model class registers it"]
