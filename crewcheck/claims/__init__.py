"""Published claims about The Crew, each re-derived by independent computation.

The core sits at the top of the package: :mod:`~crewcheck.claims.claim` (the records),
:mod:`~crewcheck.claims.registry` (the claims, read from ``data/claims.json``),
:mod:`~crewcheck.claims.record` (the published claims and established verdicts as data),
:mod:`~crewcheck.claims.ledger` (judging and rendering) and
:mod:`~crewcheck.claims.execution` (chunked runs, resumable through the results store).
The papers' mathematics has one subpackage per paper: :mod:`~crewcheck.claims.witteveen`
(seed ``000``), :mod:`~crewcheck.claims.dejong` (``001``), :mod:`~crewcheck.claims.reiber`
(``002``). ``crewcheck prove CLAIM`` runs any of them.
"""

from __future__ import annotations

from crewcheck.claims.claim import Claim, Computation, Mode, Status, Value, Verdict

__all__ = ["Claim", "Computation", "Mode", "Status", "Value", "Verdict"]
