"""The replay checker's judge of each condition kind, re-derived from the rules text and
the card texts (:mod:`crewcheck.model.conditions` says what each kind means; these
modules share no code with it, and work on :class:`~crewcheck.model.cards.Card` names and
values, not masks).

Each judge answers the checker's question for one condition, given as a plain field
dict: does it hold now, whatever the rest of the game? :data:`JUDGES` maps a kind to its
judge; :func:`crewcheck.model.replay.replay` consults it after every trick. The judges
are grouped by what they judge, as the kinds are: :mod:`.tricks`, :mod:`.cards`,
:mod:`.winning_card`, :mod:`.leads`; :mod:`.game` holds what they see (:class:`Game`).
"""

from __future__ import annotations

from crewcheck.model.judges import cards, leads, tricks, winning_card
from crewcheck.model.judges.game import Game, Judge

__all__ = ["Game", "Judge", "JUDGES"]

JUDGES: dict[str, Judge] = {**tricks.JUDGES, **cards.JUDGES, **winning_card.JUDGES, **leads.JUDGES}
"""The checker's judge of every condition kind, by JSON name: the tables of the modules,
each of which judges the kinds of the model's module of the same name."""
