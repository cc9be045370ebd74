"""Published claims about The Crew, each re-derived by independent computation.

``crewcheck prove`` runs the ledger; ``proofs/*.py`` are readable scripts that
call into this package. See :mod:`crewcheck.claims.registry` for the claims.
"""

from __future__ import annotations

from crewcheck.claims.base import Claim, Computation, Mode, Status, Value, Verdict

__all__ = ["Claim", "Computation", "Mode", "Status", "Value", "Verdict"]
