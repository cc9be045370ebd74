"""Claims from de Jong's thesis (seed ``001``): the winnability curves of Figure 3.

Figure 3 plots, per number of tasks (objectives) 1..23, the fraction of
10,000 random CLASSIC CREW deals (4 players, 4 suits x 9 values plus rockets
1-4, commander = holder of rocket 4) that are winnable, with *fixed*
objectives (dealt to players in selection order) and with *free* objectives
(any division with the same per-player counts). The text states that every
sampled deal with 2..23 free objectives was winnable.

Reproducing this needs the project's game model and an exact decider that
handles trumps, several tasks and the free-objective variant
(``crewcheck.decide``); until those exist on this branch the claims report
OPEN with the reason.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew",
   seed ``001``, §4.4, §5, Figure 3.
"""

from __future__ import annotations

from crewcheck.claims.base import Computation, Mode, Value

RULE_NOTES = ((
    "de Jong reads objective selection as fixed counts per player starting at the commander "
    "(§4.4); the 'free objectives' curve lets the solver choose any division with those counts, "
    "which is the rulebook's selection phase under perfect cooperation."
),)


def _decider_reason() -> str | None:
    try:
        import crewcheck  # noqa: F401
        from crewcheck import decide  # noqa: F401
    except ImportError:
        return "needs crewcheck.decide and the Classic model (foundation not merged into this branch)"
    try:
        from crewcheck.claims import solver_bridge  # noqa: F401
    except ImportError:
        return "crewcheck.decide exists but the ledger bridge to it is not written yet"
    return None


def figure_3(mode: Mode, objectives: str) -> Computation:
    """Winnability curve for `objectives` in ``{"fixed", "free"}``."""
    reason = _decider_reason()
    if reason is not None:
        return Computation((Value("curve", None, "not computed"),), holds=None, open_reason=reason)
    from crewcheck.claims import solver_bridge

    result: Computation = solver_bridge.dejong_curve(mode, objectives)
    return result


def figure_3_free(mode: Mode) -> Computation:
    """Every sampled deal with 2..23 free objectives is winnable."""
    return figure_3(mode, "free")


def figure_3_fixed(mode: Mode) -> Computation:
    """The fixed-objective curve (reproduced and plotted; no single number claimed)."""
    return figure_3(mode, "fixed")
