"""Mission 12's draw on the board: after the first trick every seat draws a card from the
crew member to its right (the card seat ``s`` gives goes to seat ``s + 1``, as
:mod:`crewcheck.analysis.chance` plays it). The board lets the player pick the cards or
randomise them; :func:`draw_step` answers, for the draw picked, each seat's options with
their verdict (the other seats' cards as picked) and the deal after that draw
(:func:`crewcheck.analysis.draw_positions.after_draw`: a fresh deal, the first trick's cards gone,
the tasks it completed gone and the tokens renumbered, its winner to lead), which the
board then plays on. Where the player left the draft (or another choice) to the engine,
the draw takes the seats a winning line of the position gives the tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from crewcheck.api import decide
from crewcheck.errors import InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.model.cards import Card, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Verdict

__all__ = ["draw_step", "drawable"]


def drawable(instance: Instance) -> str | None:
    """Why the draw cannot be made after this position (``None``: it can): the deal must
    stand just after its first trick, not over, and have no covered cards (with JARVIS
    the draw is not modelled: JARVIS gives a random face-down card)."""
    if instance.covered:
        return "mission 12's draw with JARVIS (covered cards), who gives a random face-down card, is not modelled"
    state = instance.state()
    if len(instance.history) != instance.players:
        return "the draw comes right after the first trick"
    if state.end is not None:
        return "the game ended in the first trick"
    return None


def _seated(instance: Instance, budget: Budget) -> tuple[Instance, str | None]:
    """The deal with every task's seat known, as the draw needs it, and the words of the
    choices taken from the engine (``None``: the deal already fixes them). Choices left
    to the engine are those of a winning line of the position
    (:func:`crewcheck.web.choices.line_deal`); without one the draw cannot be made."""
    from crewcheck.web.choices import line_deal

    if instance.rules.assignment == "fixed" and instance.is_concrete():
        return instance, None
    result = decide(instance, budget=budget)
    seated = None if result.witness is None else line_deal(instance, result.witness)
    if seated is None:
        why = {Verdict.UNWINNABLE: "the position cannot be won, so no winning line gives the tasks' seats",
               Verdict.UNKNOWN: "the position was not decided, so no winning line gives the tasks' seats"}
        raise InvalidInputError(f"{why.get(result.verdict, 'the winning line leaves a task without a seat')}: "
                                "make the draft on the board first", field="history")
    moved = [f"seat {u.seat + 1} takes {instance.card(t.card)}" for t, u in zip(instance.tasks, seated.tasks)
             if u.seat is not None and t.seat != u.seat]
    return seated, ", ".join(moved) or None


def _verdict(instance: Instance, draw: Sequence[int], budget: Budget) -> Verdict:
    from crewcheck.analysis.draw_positions import after_draw

    after = after_draw(instance.with_history(()), tuple(instance.history), tuple(draw))
    if isinstance(after, bool):
        return Verdict.WINNABLE if after else Verdict.UNWINNABLE
    return decide(after, budget=budget).verdict


def draw_step(instance: Instance, draw: Sequence[str], *, timeout: float | None, cancelled: Callable[[], bool],
              progress: Callable[..., None]) -> dict[str, Any]:
    """``{"seats": [{"seat", "to", "card", "options": [{"value", "verdict"}]}], "verdict",
    "engine", "deal"}`` for the draw ``draw`` (the card each seat gives, in seat order): each
    seat's cards with the verdict of the draw with that card instead of its pick, the
    verdict of the draw itself and the deal after it. Where the tasks' seats were left
    to the engine, the draw takes them from a winning line of the position and
    ``"engine"`` says which ("seat 2 takes B6, ..."; else ``None``). Raises
    :class:`InvalidInputError` naming the position or the card that cannot be drawn."""
    from crewcheck.analysis.draw_positions import after_draw

    why = drawable(instance)
    if why is not None:
        raise InvalidInputError(why, field="history")
    budget = Budget(seconds=timeout, cancel=cancelled)
    progress(0, 1, "the tasks' seats")
    instance, engine = _seated(instance, budget)
    p = instance.players
    state = instance.state()
    hands = [list(iter_bits(h)) for h in state.hands]
    if len(draw) != p:
        raise InvalidInputError(f"expected one card per seat ({p}), got {len(draw)}", field="draw")
    picked = []
    for s, text in enumerate(draw):
        try:
            card = instance.deck.index(Card.parse(text))
        except (ValueError, KeyError, InvalidInputError):
            card = -1
        if card not in hands[s]:
            raise InvalidInputError(f"{text!r} is not in seat {s + 1}'s hand", field=f"draw[{s}]")
        picked.append(card)
    seats: list[dict[str, Any]] = []
    total = sum(len(h) for h in hands)
    done = 0
    for s in range(p):
        options = []
        for c in hands[s]:
            progress(done, total, f"seat {s} gives {instance.card(c)}")
            done += 1
            verdict = Verdict.UNKNOWN if cancelled() else _verdict(instance, [*picked[:s], c, *picked[s + 1:]], budget)
            options.append({"value": str(instance.card(c)), "verdict": verdict.value})
        seats.append({"seat": s, "to": (s + 1) % p, "card": str(instance.card(picked[s])), "options": options})
    verdict = next(o["verdict"] for o in seats[0]["options"] if o["value"] == seats[0]["card"])
    after = after_draw(instance.with_history(()), tuple(instance.history), tuple(picked))
    return {"seats": seats, "verdict": verdict, "engine": engine,
            "deal": None if isinstance(after, bool) else deal_json.to_dict(after)}
