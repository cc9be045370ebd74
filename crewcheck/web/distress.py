"""The distress signal as steps of the set-up: the direction (when the crew chooses it),
then the card each seat passes, in seat order, each option with its own verdict.

A deal with a distress signal (:attr:`~crewcheck.model.instance.Instance.distress`)
leaves the crew the direction (``"choose"``: left or right) and, for every seat that
holds a card that is no trump, the card it passes. The combinations run to millions, so
no option's verdict tries them one by one: a direction's verdict is the engine's
decision of the deal with that direction and the passes free (one formula, the passes as
variables: :func:`crewcheck.solvers.logic.choices.decide_signal`), and a seat's cards
are decided under assumptions in one incremental solver, the passes already picked
fixed and the later seats' passes free (:func:`crewcheck.analysis.seats.signal_verdicts`).

Picks travel in the set-up's ``picks``: ``"direction"`` (``"1"`` left, ``"-1"`` right)
and ``"pass{s}"`` (the card seat ``s``, from 0, passes). Once every pass is picked the
deal is the one after the passes, without a signal; the other choices and the draft
follow on it (:func:`crewcheck.web.choices.setup_step`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Literal

from crewcheck.api import decide
from crewcheck.errors import InvalidDealError, InvalidInputError, NotApplicableError
from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import Choice, count_variants, passed_hands, variants
from crewcheck.solvers.base import Budget, Verdict

__all__ = ["DIRECTIONS", "signal_step", "signal_picks", "after_signal"]

DIRECTIONS: dict[str, tuple[int, ...]] = {"left": (1,), "right": (-1,), "choose": (1, -1)}
"""The deal's ``distress`` -> the directions the crew may signal in (``+1``: to the next
seat in play order, the left)."""
_NAMES: dict[int, Literal["left", "right"]] = {1: "left", -1: "right"}
MAX_ENUMERATED = 5000
"""The most deals a seat's passes are decided over one by one when the formula does not
serve (a condition it does not encode, or a game already over under every choice)."""


def _passable(instance: Instance, seat: Seat) -> list[int]:
    """The cards ``seat`` may pass: its cards that are no trump."""
    trumps = 0 if instance.trump_suit is None else instance.deck.suit_mask(instance.trump_suit)
    return list(iter_bits(instance.hands[seat] & ~trumps))


def _step(name: str, title: str, options: list[dict[str, Any]], made: list[str], **extra: Any) -> dict[str, Any]:
    return {"step": name, "title": title, "options": options, "made": made, "deal": None, **extra}


def _direction(instance: Instance, picks: Mapping[str, str]) -> int | None:
    """The direction picked (or the deal's only one); ``None`` while it is still open."""
    ways = DIRECTIONS[instance.distress or "left"]
    if len(ways) == 1:
        return ways[0]
    if "direction" not in picks:
        return None
    value = picks["direction"]
    if value not in ("1", "-1"):
        raise InvalidInputError(f"{value!r} is not an option of this step", field="picks.direction")
    return int(value)


def signal_step(instance: Instance, picks: Mapping[str, str], budget: Budget,
                progress: Callable[..., None]) -> tuple[dict[str, Any] | None, Instance, list[str]]:
    """The signal's next step after ``picks``, or (every pass picked) ``None`` with the deal
    after the passes and the picks in words. A pick that is no option raises
    :class:`InvalidInputError` naming it (``picks.direction``, ``picks.pass{s}``)."""
    from crewcheck.analysis.seats import signal_verdicts

    direction = _direction(instance, picks)
    if direction is None:
        options: list[dict[str, Any]] = []
        for n, way in enumerate(DIRECTIONS["choose"]):
            progress(n, 2, f"the distress signal to the {_NAMES[way]}")
            verdict = decide(replace(instance, distress=_NAMES[way]), budget=budget).verdict
            options.append({"value": str(way), "label": f"pass to the {_NAMES[way]}", "verdict": verdict.value})
        return _step("direction", "The crew signals distress: which way the cards go", options, []), instance, []
    made = [f"distress signal to the {_NAMES[direction]}"]
    given: dict[Seat, int] = {}
    p = instance.players
    for seat in range(p):
        cards = _passable(instance, seat)
        if not cards:  # it holds only trumps: it passes nothing
            given[seat] = -1
            continue
        key = f"pass{seat}"
        if key not in picks:
            one = replace(instance, distress=_NAMES[direction])
            progress(0, 1, f"the distress signal: seat {seat + 1}'s card")
            try:
                verdicts = signal_verdicts(one, given, seat, cards, timeout=budget.seconds, cancel=budget.cancel)
            except NotApplicableError:  # a condition the formula does not encode, or no game to encode
                verdicts = _enumerated(one, given, seat, cards, budget)
            to = (seat + direction) % p
            options = [
                {"value": str(instance.card(c)), "label": str(instance.card(c)), "card": True,
                 "made": f"seat {seat + 1} passes {instance.card(c)}", "verdict": verdicts[c].value}
                for c in cards]
            return _step(key, f"Distress signal: seat {seat + 1} passes a card to seat {to + 1}", options, made,
                         seat=seat), instance, made
        names = {str(instance.card(c)): c for c in cards}
        if picks[key] not in names:
            raise InvalidInputError(f"{picks[key]!r} is not a card seat {seat + 1} may pass", field=f"picks.{key}")
        given[seat] = names[picks[key]]
        made.append(f"seat {seat + 1} passes {picks[key]}")
    return None, after_signal(instance, direction, tuple(given[s] for s in range(p))), made


def _enumerated(instance: Instance, given: Mapping[Seat, int], seat: Seat, cards: list[int],
                budget: Budget) -> dict[int, Verdict]:
    """:func:`~crewcheck.analysis.seats.signal_verdicts` by trying the deals one by one
    (each candidate until one of its deals is won), for a deal whose choices number at
    most :data:`MAX_ENUMERATED`."""
    if count_variants(instance) > MAX_ENUMERATED:
        raise NotApplicableError(f"the crew has more than {MAX_ENUMERATED} choices: the engine chooses")
    out = {c: Verdict.UNWINNABLE for c in cards}
    for choice, variant in variants(instance):
        assert choice.passes is not None
        card = choice.passes[seat]
        if card not in out or out[card] is Verdict.WINNABLE or any(choice.passes[s] != c for s, c in given.items()):
            continue
        if budget.cancel is not None and budget.cancel():
            return {c: v if v is Verdict.WINNABLE else Verdict.UNKNOWN for c, v in out.items()}
        got = decide(variant, budget=budget).verdict
        if got is Verdict.WINNABLE or out[card] is Verdict.UNWINNABLE:
            out[card] = got
    return out


def after_signal(instance: Instance, direction: int, passes: tuple[int, ...]) -> Instance:
    """The deal after the passes, without a signal (:class:`InvalidInputError` when the
    passes empty a hand)."""
    try:
        return replace(instance, hands=passed_hands(instance, direction, passes), distress=None)
    except InvalidDealError as e:
        raise InvalidInputError(f"these passes leave a seat without a card ({e.reason})", field="picks") from None


def signal_picks(instance: Instance, choice: Choice) -> dict[str, str]:
    """A line's distress signal (``choice.direction``, ``choice.passes``) as the set-up's
    picks."""
    assert choice.direction is not None and choice.passes is not None
    picks = {} if len(DIRECTIONS[instance.distress or "left"]) == 1 else {"direction": str(choice.direction)}
    for seat, card in enumerate(choice.passes):
        if card >= 0:
            picks[f"pass{seat}"] = str(instance.card(card))
    return picks
