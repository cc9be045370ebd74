"""The registry of published claims, read from ``crewcheck/claims/data/claims.json``.

Each :class:`~crewcheck.claims.claim.Claim` keeps the paper's number(s) as ``expected``
(a mapping from computed-value name to published value) and a ``compute`` callable that
never reads ``expected``. The data file names the callable as ``"module:function"``
(as :data:`crewcheck.solvers.registry.BACKENDS` names back-ends); the paper's
mathematics lives in one subpackage per paper (:mod:`crewcheck.claims.witteveen`,
:mod:`crewcheck.claims.dejong`, :mod:`crewcheck.claims.reiber`).
"""

from __future__ import annotations

import importlib
from typing import Any

from crewcheck.claims.claim import Claim, ComputeFn, Erratum, Subject
from crewcheck.claims.record import load_claims_data
from crewcheck.errors import UnknownClaimError

__all__ = ["CLAIMS", "BY_ID", "get"]


def _compute(path: str) -> ComputeFn:
    module, _, name = path.partition(":")
    fn: ComputeFn = getattr(importlib.import_module(module), name)
    return fn


def _claim(record: dict[str, Any], notes: dict[str, str]) -> Claim:
    erratum = record.get("erratum")
    return Claim(id=record["id"], source=record["source"], statement=record["statement"],
                 expected=record["expected"], compute=_compute(record["compute"]),
                 notes=tuple(notes[n] for n in record.get("notes", ())),
                 subject=Subject(record["object"]), quote=record["quote"], requires=record.get("requires"),
                 quantitative=record.get("quantitative", True),
                 erratum=None if erratum is None else Erratum(erratum["contradicted_by"], erratum["intended"]),
                 would_change=record["would_change"])


def _load() -> tuple[Claim, ...]:
    data = load_claims_data()
    return tuple(_claim(record, data["notes"]) for record in data["claims"])


CLAIMS: tuple[Claim, ...] = _load()
"""Every claim, in ledger order."""

BY_ID: dict[str, Claim] = {c.id: c for c in CLAIMS}


def get(claim_id: str) -> Claim:
    """Return the claim called `claim_id` (a unique prefix is accepted).

    Raises
    ------
    UnknownClaimError
        If no claim, or more than one, matches.
    """
    if claim_id in BY_ID:
        return BY_ID[claim_id]
    matches = [c for c in CLAIMS if c.id.startswith(claim_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownClaimError(f"ambiguous claim '{claim_id}'; matches: {', '.join(c.id for c in matches)}")
    raise UnknownClaimError(f"unknown claim '{claim_id}'; available: {', '.join(BY_ID)}")
