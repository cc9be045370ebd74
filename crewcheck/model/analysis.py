"""Cheap, sound refutations: necessary conditions for a position to be winnable.

The only one so far is *lead reachability*. A seat can win a future trick only if some
seat that may lead that trick leads a suit the seat can beat: with a higher card of that
suit than the leader's lowest, or, against a non-trump lead, with any trump. Starting from
the seats that may win the current trick (or lead the next one), the closure of that
relation over-approximates every seat that can ever win a trick again. A task whose seat
is outside it can never be completed.

Soundness (by induction on the tricks still to play): the leader of each future trick
won the previous one, so lies in the set; the winner of a trick led in suit X is the
leader, the holder of the highest X card (higher than the led card, hence than the
leader's lowest X) or the holder of the highest trump (against a non-trump lead, any
trump holder may be void by then). Hands only shrink, so "holds now" bounds "can play
later". A property test checks every refutation against the exhaustive oracle.

Examples
--------
>>> from crewcheck.formats.notation import parse_deal
>>> deal = parse_deal("B9 B8 | B1 B2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed")
>>> refutation(deal.state())
'seat 1 can never win a trick, but must win B1'
"""

from __future__ import annotations

from crewcheck.model.cards import Mask, iter_bits
from crewcheck.model.state import State

__all__ = ["possible_winners", "refutation"]


def _beats_some_lead(state: State, leader: int, seat: int) -> bool:
    """Whether ``seat`` can beat some card that ``leader`` could lead (relaxed)."""
    inst = state.instance
    deck = inst.deck
    trump = inst.trump_suit
    lead_hand, hand = state.hands[leader], state.hands[seat]
    trumps_held = hand & deck.suit_mask(trump) if trump is not None else 0
    for s in range(len(deck.suits)):
        led = lead_hand & deck.suit_mask(s)
        if not led:
            continue
        lowest = (led & -led).bit_length() - 1
        mine = hand & deck.suit_mask(s)
        if mine and mine.bit_length() - 1 > lowest:
            return True
        if trumps_held and s != trump:
            return True
    return False


def possible_winners(state: State) -> Mask:
    """Seats (as a bitmask) that may still win a trick from ``state``, the current trick
    included. Seats outside it certainly win no trick."""
    inst = state.instance
    p = inst.players
    deck = inst.deck
    trump = inst.trump_suit
    if state.leader is None:  # free first lead: anyone may lead
        start = (1 << p) - 1
    elif not state.trick:
        start = 1 << state.leader
    else:  # the current trick: its best card so far, and whoever still to play can beat it
        best = state.trick[0]
        for c in state.trick[1:]:
            if deck.suit_of(c) == deck.suit_of(best) and c > best or (
                deck.suit_of(c) == trump and deck.suit_of(best) != trump
            ):
                best = c
        start = 1 << inst.holder[best]
        led = deck.suit_of(state.trick[0])
        for k in range(len(state.trick), p):
            seat = (state.leader + k) % p
            hand = state.hands[seat]
            follow = hand & deck.suit_mask(led)
            playable = follow if follow else hand
            for c in iter_bits(playable):
                if deck.suit_of(c) == deck.suit_of(best) and c > best or (
                    deck.suit_of(c) == trump and deck.suit_of(best) != trump
                ):
                    start |= 1 << seat
                    break
    reach = start
    grew = True
    while grew:
        grew = False
        for seat in range(p):
            if reach >> seat & 1:
                continue
            if any(reach >> r & 1 and _beats_some_lead(state, r, seat) for r in range(p)):
                reach |= 1 << seat
                grew = True
    return reach


def refutation(state: State) -> str | None:
    """A one-line reason why ``state`` cannot be won, or ``None`` if none is found.

    ``None`` does not mean winnable: this is a cheap necessary condition only.
    """
    if state.end is not None:
        return None if state.end.won else "the game is already lost"
    inst = state.instance
    reach = possible_winners(state)
    open_tasks = [i for i in range(len(inst.tasks)) if not state.done >> i & 1]
    if state.owners is None:
        for i in open_tasks:
            seat = inst.tasks[i].seat
            assert seat is not None
            if not reach >> seat & 1:
                card = inst.deck.card(inst.tasks[i].card)
                return f"seat {seat} can never win a trick, but must win {card}"
        return None
    counts = inst.task_counts or ()
    room = sum(counts[s] - sum(1 for o in state.owners if o == s)
               for s in range(inst.players) if reach >> s & 1)
    if room < len(open_tasks):
        return (f"{len(open_tasks)} tasks are open but the seats that can still win tricks "
                f"have room for only {room}")
    return None
