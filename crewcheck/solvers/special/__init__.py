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

``backend="auto"`` (:func:`crewcheck.choose_backend`) tries the confirmed deciders in
:data:`CONFIRMED` order first, then the registry's default order.
"""

from __future__ import annotations


__all__ = ["CONFIRMED", "UNCONFIRMED"]

CONFIRMED: tuple[str, ...] = ("single_value", "two_player_one_task", "single_suit_owned", "hampath")
"""Special deciders checked against the oracle on their whole class (small sizes), in the
order ``backend="auto"`` tries them."""

UNCONFIRMED: dict[str, str] = {
    "single_suit": "Reiber §5 answers 'unwinnable' on winnable deals "
                   "(models/counterexamples/single_suit_lemma51.json)",
}
"""Special deciders that disagree with the oracle, and why they are never chosen."""
