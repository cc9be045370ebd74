"""The board's messages in a player's words: the library's lines (the command line's
wording, seats numbered from 0 as in a deal file, proof references, ``trick(s)``) as a
player reads them on the page.

:func:`words` rewrites one line: seats numbered from 1, a decider's citation (``"Witteveen
Thm 3.18: ..."``, ``"(Lemma 6.2, ...)"``) replaced by what it says, ``"(s)"`` plurals
resolved. :func:`rules_words` says the rule choices in words. :func:`card_reason` is the
reason the page shows for a card's verdict (the command line's ``analyse`` reason,
:attr:`~crewcheck.analysis.analyse.CardVerdict.explanation`, in these words, or the
winning line of a card that keeps the game winnable); :func:`explain_analysis` gathers
them for an analysis, with the position's reason and the crew's choice its line makes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from crewcheck.analysis.analyse import CANCELLED, POSITION_LOST, Analysis, CardVerdict
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.variants import play_state
from crewcheck.solvers.base import Result, Verdict, Witness

__all__ = ["words", "seats_from_one", "rules_words", "card_reason", "explain_analysis", "line_words", "Streaming"]

_SEATS = re.compile(r"\b([Ss]eats?) (\d+(?:(?:, | and | or )\d+)*)")
_PLURAL = re.compile(r"\b(\d+) ([a-z]+?)\(s\)")
_OTHER_PLURAL = re.compile(r"\b([a-z]+?)\(s\)")
_NUMBER = re.compile(r"\d+")

# a decider's citation and what it stands for on the board (the command line keeps it)
_CITATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Witteveen Thm 3\.15: none of properties 1-3 holds"),
     "the task's seat cannot force the task card through: the other seat has no lower card of its suit "
     "to give, and neither hand is long enough in another suit to take the lead back"),
    (re.compile(r"Witteveen Thm 3\.18: none of properties 1-3 holds"),
     "the seat leading cannot hand the task card's trick to the task's seat: it holds no higher card of "
     "that suit, and no other suit where it can win a trick and keep the lead"),
    (re.compile(r"Witteveen Thm [0-9.]+ says winnable but its playout is not well-defined"),
     "winnable, but no winning line could be written out"),
    (re.compile(r"Reiber §\d+ algorithm \([^)]*\): "), ""),
    (re.compile(r" ?\((?:Lemma|Thm|Theorem|Cor|Corollary) [^)]*\)"), ""),
    (re.compile(r"\b(?:Witteveen|Reiber|de Jong) (?:Thm|Theorem|Lemma|Cor|§)\s*[0-9.]+:?\s*"), ""),
)

REASON_TRICKS = 3
"""A ✓ card's reason shows its winning line up to the end of this many tricks ("Winning
line from here" plays all of it)."""
ORDER_WORDS = {"strict": "task tokens kept in their order", "lenient": "task tokens in a lenient order"}
ASSIGNMENT_WORDS = {"fixed": "tasks dealt to their seats", "free": "tasks drafted",
                    "decision": "the commander decides who takes the tasks",
                    "distribution": "the commander distributes the tasks"}


def seats_from_one(text: str) -> str:
    """``"seat 0"``, ``"seats 0, 2 and 3"`` numbered from 1."""

    def renumber(m: re.Match[str]) -> str:
        return f"{m.group(1)} " + _NUMBER.sub(lambda n: str(int(n.group()) + 1), m.group(2))

    return _SEATS.sub(renumber, text)


def words(text: str | None) -> str | None:
    """One of the library's lines as the board shows it (see the module docstring)."""
    if text is None:
        return None
    out = text
    for pattern, meaning in _CITATIONS:
        out = pattern.sub(meaning, out)
    out = _PLURAL.sub(lambda m: f"{m.group(1)} {m.group(2)}{'' if m.group(1) == '1' else 's'}", out)
    out = _OTHER_PLURAL.sub(lambda m: f"{m.group(1)}s", out)
    return seats_from_one(out).strip()


def rules_words(rules: Rules, tokens: bool = True) -> str:
    """``"task tokens kept in their order, tasks drafted"`` (``tokens``: whether the deal
    has task tokens; without, their rule is left unsaid)."""
    assignment = ASSIGNMENT_WORDS.get(rules.assignment, rules.assignment)
    return f"{ORDER_WORDS.get(rules.order_rule, rules.order_rule)}, {assignment}" if tokens else assignment


def line_words(cards: list[str], players: int, played: int, tricks: int | None = None) -> str:
    """A winning line's cards after ``played`` cards of the game, tricks separated by
    ``" / "``; with ``tricks``, only up to the end of that many tricks, then ``"/ ..."``."""
    out: list[str] = []
    ends = 0
    for k, card in enumerate(cards):
        if k and (played + k) % players == 0:
            ends += 1
            if tricks is not None and ends >= tricks:
                out.append("/ ...")
                break
            out.append("/")
        out.append(card)
    return " ".join(out)


def _takes(instance: Instance, witness: Witness | None, tasks: Sequence[int]) -> str:
    """``"seat 2 takes B6"`` for the tasks ``tasks`` as ``witness`` hands them out."""
    if witness is None or witness.assignment is None:
        return ""
    return ", ".join(f"seat {witness.assignment[i] + 1} takes {instance.card(instance.tasks[i].card)}"
                     for i in tasks if 0 <= witness.assignment[i])


def _ends_at_once(instance: Instance, card: int) -> str | None:
    """How the game ends when ``card`` is played now, if it ends with this card."""
    end = play_state(instance).apply(card).end
    return None if end is None or end.won else words(end.describe(instance).removeprefix("lost: "))


def card_reason(instance: Instance, v: CardVerdict, open_tasks: Sequence[int]) -> str:
    """The reason shown for one card class's verdict: a ✓ card's winning line (and who
    takes each open task in it), a ✗ card's reason, an undecided card's state."""
    n = len(instance.history)
    if v.verdict is Verdict.WINNABLE:
        plays = [str(instance.card(c)) for c in v.witness.plays[n:]] if v.witness is not None else []
        takes = _takes(instance, v.witness, open_tasks)
        line = line_words(plays, instance.players, n, REASON_TRICKS)
        return (f"wins with: {line}" if line else "keeps the game winnable") + (f" ({takes})" if takes else "")
    why = words(v.explanation)
    if v.verdict is Verdict.UNWINNABLE and v.how == POSITION_LOST:
        return "the game is already lost, whatever is played" + (f": {why}" if why else "")
    if v.verdict is Verdict.UNWINNABLE:
        now = _ends_at_once(instance, v.cards[0])
        if now:
            return f"loses at once: {now}"
        return f"loses: {why}" if why else ("loses: every way the crew can play on after it fails a task "
                                            "or a rule (every line was searched)")
    return "not decided: stopped" if v.how == CANCELLED else "not decided in the time limit"


def explain_analysis(a: Analysis) -> dict[str, Any]:
    """The board's words for an analysis: ``cards`` (one reason per card class, in the
    order of the analysis's ``cards``: :func:`card_reason`), ``position`` (why the
    position is lost, or ``None``), ``choice`` (the crew's choice the position's winning
    line makes, in the command line's words, or ``None``) and ``takes`` (open task card
    -> the seat that takes it in that line, from 0)."""
    inst = a.instance
    state = play_state(inst)
    open_tasks = [i for i in range(len(inst.tasks)) if not state.done >> i & 1]
    w = a.position.witness
    takes = {}
    if w is not None and w.assignment is not None and inst.rules.assignment != "fixed":
        takes = {str(inst.card(inst.tasks[i].card)): w.assignment[i] for i in open_tasks if w.assignment[i] >= 0}
    choice = None if w is None or w.choice is None else words(w.choice.describe(inst))
    return {"cards": [card_reason(inst, v, open_tasks) for v in a.cards],
            "position": words(a.position.explanation), "choice": choice, "takes": takes}


class Streaming:
    """An analysis's verdicts for the page as they are found: passed to
    :func:`~crewcheck.analysis.analyse.analyse` (``progress=``, ``decided=``), it publishes
    through the job's ``progress`` the part known so far, ``{"position": verdict or None,
    "cards": {card: {"verdict", "reason"}}}`` (each card of a decided class, with
    :func:`card_reason`)."""

    def __init__(self, instance: Instance, publish: Callable[..., None]) -> None:
        self.instance = instance
        self.publish = publish
        state = play_state(instance)
        self.open_tasks = [i for i in range(len(instance.tasks)) if not state.done >> i & 1]
        self.step: tuple[int, int, str] = (0, 0, "")
        self.known: dict[str, Any] = {"position": None, "cards": {}}

    def progress(self, done: int, total: int, what: str) -> None:
        self.step = (done, total, what)
        self.publish(done, total, what)

    def decided(self, position: Result, verdict: CardVerdict | None) -> None:
        cards = dict(self.known["cards"])
        if verdict is not None:
            reason = card_reason(self.instance, verdict, self.open_tasks)
            for c in verdict.cards:
                cards[str(self.instance.card(c))] = {"verdict": verdict.verdict.value, "reason": reason}
        self.known = {"position": position.verdict.value, "cards": cards}
        self.publish(*self.step, partial=self.known)
