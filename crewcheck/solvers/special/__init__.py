"""Special-case deciders: the published polynomial algorithms, one module per theorem.

=====================  ===========================================  ==========  =========
back-end               class (paper)                                 confirmed   module
=====================  ===========================================  ==========  =========
single_value           β(1, _, _, _), Reiber §3                      yes         single_value
single_suit_owned      β(_, 1, _, O*), Reiber §4                     yes         single_suit_owned
single_suit            β(_, 1, _, _), Reiber §5                      NO          single_suit
two_player_one_task    2 players, 1 task, Witteveen Thm 3.15/3.18    yes         two_player_one_task
hampath                Reiber's reduction deals, Lemma 6.2           yes         ../hampath
=====================  ===========================================  ==========  =========

"Confirmed" means the back-end agreed with the exhaustive oracle on every deal of its
class in the test suite (``tests/solvers/special/``, ``tests/solvers/test_hampath.py``);
``single_suit`` has counterexamples (``docs/special-cases.md``) and is never chosen
automatically.

:func:`auto_backend` is the ``backend="auto"`` dispatch: the first confirmed special
decider whose class contains the deal, else the default order of the registry.
"""

from __future__ import annotations

from crewcheck.errors import NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry

__all__ = ["CONFIRMED", "UNCONFIRMED", "auto_backend"]

CONFIRMED: tuple[str, ...] = ("single_value", "two_player_one_task", "single_suit_owned", "hampath")
"""Special deciders checked against the oracle on their whole class (small sizes), in the
order :func:`auto_backend` tries them."""

UNCONFIRMED: dict[str, str] = {
    "single_suit": "Reiber §5 answers 'unwinnable' on winnable deals "
                   "(models/counterexamples/single_suit_lemma51.json)",
}
"""Special deciders that disagree with the oracle, and why they are never chosen."""


def auto_backend(instance: Instance) -> str:
    """The back-end ``backend="auto"`` should use for ``instance``.

    A confirmed special-case decider whose class contains the deal (and whose
    dependencies are installed), else the first back-end of
    :data:`registry.DEFAULT_ORDER` that is installed and supports it.

    Raises
    ------
    NotApplicableError
        No installed back-end decides the deal.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> auto_backend(loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 0, '
    ...                    '"tasks": [{"card": "B2", "seat": 0}]}'))
    'two_player_one_task'
    """
    avail = registry.available()
    for name in CONFIRMED:
        if avail.get(name) is None and registry.get(name).supports(instance) is None:
            return name
    reasons = []
    for name in registry.DEFAULT_ORDER:
        if name not in registry.BACKENDS or avail.get(name) is not None:
            continue
        why = registry.get(name).supports(instance)
        if why is None:
            return name
        reasons.append(why)
    raise NotApplicableError("no installed back-end decides this deal: " + "; ".join(reasons))
