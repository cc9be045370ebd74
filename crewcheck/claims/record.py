"""The record: the claims as published and the verdicts established for them, as data.

Two JSON files ship with the package, in ``crewcheck/claims/data/``:

``claims.json``
    Every claim: its id, source, statement, the paper's numbers (``expected``), the
    function that re-derives it (``"module:function"``) and its standing notes. Read by
    :mod:`crewcheck.claims.registry`.
``established.json``
    The verdict the project has established for each claim; ``crewcheck prove`` exits 1
    when a recomputed verdict differs from it (:func:`crewcheck.claims.ledger.exit_code`).

``crewcheck prove --record`` rewrites ``established.json`` in the checkout it is run
from (:data:`CHECKOUT_ESTABLISHED`, relative to the working directory), never in an
installed package: a record is a change to review and commit, like any other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from crewcheck.claims.claim import Status, Verdict

__all__ = ["CHECKOUT_ESTABLISHED", "load_claims_data", "load_established", "save_established"]

CHECKOUT_ESTABLISHED = Path("crewcheck") / "claims" / "data" / "established.json"
"""Where ``prove --record`` writes, relative to the root of a checkout."""


def _read(name: str) -> Any:
    return json.loads(resources.files("crewcheck.claims").joinpath("data", name).read_text(encoding="utf-8"))


def load_claims_data() -> dict[str, Any]:
    """The parsed ``claims.json``: ``{"schema", "notes": {name: text}, "claims": [...]}``."""
    data: dict[str, Any] = _read("claims.json")
    return data


def load_established(path: Path | None = None) -> dict[str, Status]:
    """``{claim id: established status}`` from ``path``, or from the package's record."""
    record = _read("established.json") if path is None else json.loads(path.read_text(encoding="utf-8"))
    return {k: Status[v] for k, v in record.items()}


def save_established(verdicts: Iterable[Verdict], path: Path) -> None:
    """Record the statuses of ``verdicts`` as established in the file at ``path``,
    keeping the record of every other claim there.

    Raises
    ------
    FileNotFoundError
        If there is no record at ``path`` (not a checkout: nothing is written).
    """
    record = {k: v.name for k, v in load_established(path).items()}
    for v in verdicts:
        record[v.claim.id] = v.status.name
    path.write_text(json.dumps(dict(sorted(record.items())), indent=2) + "\n", encoding="utf-8")
