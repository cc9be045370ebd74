"""A condition kind is one row: every place that lists the kinds lists the same ones.

The model's registry (:data:`crewcheck.model.conditions.CONDITION_KINDS`) is the
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

import pytest

from crewcheck.model import judges
from crewcheck.model.conditions import CONDITION_KINDS
from crewcheck.solvers.logic import condition_clauses
from crewcheck.solvers.search.conditions import SEARCH_KINDS

ROOT = Path(__file__).resolve().parents[2]

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


GROUPS = ("tricks", "cards", "winning_card", "leads")
"""The modules of ``model/conditions/``, ``model/judges/`` and
``solvers/logic/condition_clauses/``: a kind's judge and clauses sit in the module named
as the one that defines the kind (what the kind judges)."""


def _group(kind: str) -> str:
    return CONDITION_KINDS[kind].__module__.rsplit(".", 1)[1]


def _places() -> dict[str, set[str]]:
    schema = _schema_kinds()
    return {
        "crewcheck/formats/deal.schema.json (kind enum)": schema.get("enum", set()),
        "crewcheck/formats/deal.schema.json (a branch of fields)": schema.get("branches", set()),
        "crewcheck/model/judges/__init__.py (JUDGES)": set(judges.JUDGES),
        "crewcheck/solvers/logic/condition_clauses/__init__.py (CONDITION_CLAUSES)":
            set(condition_clauses.CONDITION_CLAUSES),
        "crewcheck/solvers/search/conditions/table.py (SEARCH_KINDS, or SEARCH_RELAXES here)":
            set(SEARCH_KINDS) | SEARCH_RELAXES,
        "tests/strategies.py (conditions_for, deepsea_makers)": _strategy_kinds(),
        "docs/missions.md (the table of kinds)": _docs_kinds(),
    }


def _grouped_places() -> dict[str, tuple[set[str], set[str]]]:
    """Per module of what a kind judges: the kinds the model's module defines, and those
    the judges' and the clauses' module of the same name hold."""
    out = {}
    for group in GROUPS:
        model = {kind for kind in CONDITION_KINDS if _group(kind) == group}
        out[f"crewcheck/model/judges/{group}.py (JUDGES)"] = (model, set(getattr(judges, group).JUDGES))
        out[f"crewcheck/solvers/logic/condition_clauses/{group}.py (CLAUSES)"] = (
            model, set(getattr(condition_clauses, group).CLAUSES))
    return out


def _group_disagreements() -> list[str]:
    return [line for place, (model, kinds) in _grouped_places().items()
            for line in _disagreements(model, {place: kinds}, "the model's module of that name does not define it")]


def _disagreements(model: set[str], places: dict[str, set[str]],
                   excess: str = "no model class registers it") -> list[str]:
    out = []
    for place, kinds in places.items():
        out += [f"{kind}: missing from {place}" for kind in sorted(model - kinds)]
        out += [f"{kind}: in {place} but {excess}" for kind in sorted(kinds - model)]
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


def test_each_kind_is_judged_and_encoded_beside_its_group() -> None:
    """A kind's judge and clauses sit in the module named as the model's module that
    defines it (``model/conditions/tricks.py`` -> ``model/judges/tricks.py``, ...), and the
    model's modules are exactly those groups."""
    assert {_group(kind) for kind in CONDITION_KINDS} == set(GROUPS)
    wrong = _group_disagreements()
    assert not wrong, "\n".join(wrong)


def test_a_kind_in_another_group_is_named_with_both_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The group check can fail: a judge moved to another module's table is named as
    missing from its own module and in excess in the other."""
    monkeypatch.setitem(judges.cards.JUDGES, "wins_tricks", judges.tricks.wins_tricks)
    monkeypatch.delitem(judges.tricks.JUDGES, "wins_tricks")
    assert _group_disagreements() == [
        "wins_tricks: missing from crewcheck/model/judges/tricks.py (JUDGES)",
        "wins_tricks: in crewcheck/model/judges/cards.py (JUDGES) but the model's module of that name does not "
        "define it"]


def test_a_missing_kind_is_named_with_its_file() -> None:
    """The check can fail: a kind one place lacks is named with that place."""
    assert _disagreements({"a", "b"}, {"x.py": {"a"}, "y.md": {"a", "b", "c"}}) == [
        "b: missing from x.py", "c: in y.md but no model class registers it"]
