"""Hypothesis strategies for deals that shrink well.

Deals are made by drawing a permutation of the deck and cutting it into hands, so
shrinking heads toward a sorted deal; tasks are a unique sample of cards; validity is
built in by construction, never filtered afterwards. Every bound is a plain keyword
value.
"""

from __future__ import annotations

import dataclasses
import itertools

from hypothesis import strategies as st

from crewcheck.model.cards import Deck, iter_bits
from crewcheck.model.conditions import Condition
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import TOKENS, Task

__all__ = ["decks", "instances", "covered_instances", "stacked", "every_tiny_covered_deal", "TINY_COVERED_DECK",
           "playouts", "random_game", "conditions_for",
           "condition_instances"]

_SUIT_NAMES = "BGPY"


@st.composite
def decks(draw: st.DrawFn, *, max_suits: int = 3, max_values: int = 4, trumps: bool | None = None,
          max_trumps: int = 2, max_cards: int = 12) -> tuple[Deck, str | None]:
    """A small deck and its trump suit name (``None``: no trumps)."""
    suits = draw(st.integers(1, max_suits))
    values = draw(st.integers(1 if suits > 1 else 2, max(2, max_values)))
    with_trumps = draw(st.booleans()) if trumps is None else trumps
    sizes = {_SUIT_NAMES[i]: values for i in range(suits)}
    while sum(sizes.values()) > max_cards and values > 1:
        values -= 1
        sizes = {_SUIT_NAMES[i]: values for i in range(suits)}
    trump = None
    if with_trumps:
        sizes["R"] = draw(st.integers(1, max_trumps))
        trump = "R"
    return Deck.from_cards(Deck.from_sizes(sizes).cards), trump


@st.composite
def instances(
    draw: st.DrawFn,
    *,
    min_players: int = 2,
    max_players: int = 3,
    max_suits: int = 3,
    max_values: int = 4,
    max_cards: int = 12,
    max_tasks: int = 3,
    trumps: bool | None = None,
    tokens: bool = True,
    free: bool | None = None,
    lead_modes: tuple[str, ...] = ("seat", "rocket", "any"),
    order_rules: tuple[str, ...] = ("strict", "lenient"),
    equal_hands: bool = False,
    history: bool = True,
) -> Instance:
    """A valid small deal covering every rule feature (within the bounds given)."""
    deck, trump = draw(decks(max_suits=max_suits, max_values=max_values, trumps=trumps, max_cards=max_cards))
    players = draw(st.integers(min_players, max(min_players, min(max_players, deck.size))))
    if deck.size < players * (2 if equal_hands else 1):  # too few cards for the seats: add a suit
        deck = Deck.from_cards([*deck.cards, *Deck.from_sizes({"Y": 2 * players}).cards])
    order = draw(st.permutations(range(deck.size)))
    if equal_hands:
        size = deck.size // players
        cuts = [size * (i + 1) for i in range(players - 1)]
        order = order[: size * players]
    else:
        cuts = sorted(draw(st.lists(st.integers(1, deck.size - 1), min_size=players - 1,
                                    max_size=players - 1, unique=True)))
    bounds = [0, *cuts, len(order)]
    hands_list = []
    for a, b in zip(bounds, bounds[1:]):
        m = 0
        for c in order[a:b]:
            m |= 1 << c
        hands_list.append(m)
    dealt = 0
    for h in hands_list:
        dealt |= h
    if dealt != deck.full_mask:  # equal hands may leave cards out: shrink the deck to the dealt cards
        cards = [deck.card(c) for c in order]
        deck = Deck.from_cards(cards)
        hands_list = [deck.mask_of(cards[a:b]) for a, b in zip(bounds, bounds[1:])]
        if trump is not None and trump not in deck.suits:
            trump = None
    hands = tuple(hands_list)
    modes = [m for m in lead_modes if m != "rocket" or trump is not None]
    mode = draw(st.sampled_from(modes))
    lead: int | str = draw(st.integers(0, players - 1)) if mode == "seat" else mode
    is_free = draw(st.booleans()) if free is None else free
    rules = Rules(draw(st.sampled_from(order_rules)), "free" if is_free else "fixed")  # type: ignore[arg-type]
    task_cards = draw(st.lists(st.sampled_from(range(deck.size)), unique=True, max_size=max_tasks))
    tasks = []
    used_tokens: set[str] = set()
    for c in task_cards:
        seat = None if is_free else draw(st.integers(0, players - 1))
        token = None
        if tokens:
            options = [t for t in TOKENS if t not in used_tokens and
                       (not t.isdigit() or int(t) <= len(task_cards) - (1 if "omega" in used_tokens else 0))]
            token = draw(st.one_of(st.none(), st.sampled_from(options))) if options else None
            if token is not None and token.isdigit() and "omega" in used_tokens and int(token) >= len(task_cards):
                token = None
            if token == "omega" and any(t.isdigit() and int(t) >= len(task_cards) for t in used_tokens):
                token = None
            if token is not None:
                used_tokens.add(token)
        tasks.append(Task(c, seat, token))
    instance = Instance(deck, hands, tuple(tasks), trump, lead, rules)
    if history and draw(st.booleans()):
        plays = draw(playouts(instance, max_plays=deck.size))
        instance = instance.with_history(plays)
    return instance


@st.composite
def covered_instances(draw: st.DrawFn, *, max_cards: int = 9, max_tasks: int = 2, history: bool = True,
                      free: bool | None = None, conditions: bool = False) -> Instance:
    """A small deal in which one seat (JARVIS's, in the two-player game) holds stacks of
    covered cards: its hand in a drawn order, cut into stacks of one to three cards (the
    first card of a stack under the second, the second under the third). ``conditions``:
    a deal of :func:`condition_instances` (choices and the commander's assignments too),
    without history."""
    if conditions:
        base = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"),
                                        max_cards=max_cards, max_tasks=max_tasks))
        history = False
    else:
        base = draw(instances(min_players=2, max_players=3, max_cards=max_cards, max_tasks=max_tasks,
                              history=False, free=free))
    inst = draw(stacked(base))
    if history and draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=inst.deck.size)))
    return inst


@st.composite
def stacked(draw: st.DrawFn, base: Instance) -> Instance:
    """``base`` with one seat's hand cut into stacks of covered cards, as in
    :func:`covered_instances` (its history left out: it may not respect the covers)."""
    base = base.with_history(())
    seat = draw(st.integers(0, base.players - 1))
    mine = draw(st.permutations(list(iter_bits(base.hands[seat]))))
    covered = []
    at = 0
    while at < len(mine):
        size = draw(st.integers(1, 3))
        stack = mine[at:at + size]
        covered.extend(zip(stack, stack[1:]))
        at += size
    return dataclasses.replace(base, covered=tuple(covered))


TINY_COVERED_DECK = Deck.from_sizes({"B": 3, "G": 2, "R": 1})
"""The six-card deck (B1-3, G1-2, R1 the trump) of :func:`every_tiny_covered_deal`."""


def every_tiny_covered_deal(split: tuple[int, ...], jarvis: int) -> list[Instance]:
    """Every deal of :data:`TINY_COVERED_DECK` with hands ``split`` (cut from each
    ordering of the cards' seats), one cover in seat ``jarvis`` (every ordered pair), one
    task (every card, every seat), the holder of the rocket leading."""
    deck = TINY_COVERED_DECK
    deals = []
    seats_of = sorted(set(itertools.permutations([s for s, n in enumerate(split) for _ in range(n)])))
    for seats in seats_of:
        hands = tuple(sum(1 << c for c in range(deck.size) if seats[c] == s) for s in range(len(split)))
        mine = [c for c in range(deck.size) if seats[c] == jarvis]
        for low, high in itertools.permutations(mine, 2):
            for card in range(deck.size):
                for owner in range(len(split)):
                    deals.append(Instance(deck, hands, (Task(card, owner),), "R", "rocket", covered=((low, high),)))
    return deals


@st.composite
def full_free_instances(draw: st.DrawFn) -> Instance:
    """Free assignment where the tasks are every card in play but a few (at most one per
    seat, trumps among them or not): the quotas fill the tricks, so each seat's tricks and
    the other cards it takes are counted out exactly (the CP-SAT trick counts)."""
    base = draw(instances(min_players=2, max_players=3, max_cards=8, max_tasks=0, free=True, tokens=False,
                          equal_hands=draw(st.booleans()), history=False))
    cards = list(range(base.deck.size))
    spare = draw(st.lists(st.sampled_from(cards), unique=True, max_size=base.players))
    inst = dataclasses.replace(base, tasks=tuple(Task(c) for c in cards if c not in spare))
    if draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=inst.deck.size)))
    return inst


@st.composite
def playouts(draw: st.DrawFn, instance: Instance, *, max_plays: int = 40) -> tuple[int, ...]:
    """A legal sequence of plays from the start of ``instance`` (stops at the game's end)."""
    state = State.initial(instance)
    plays: list[int] = []
    limit = draw(st.integers(0, max_plays))
    while not state.is_terminal() and len(plays) < limit:
        legal = list(_bits(state.legal_mask()))
        card = draw(st.sampled_from(legal))
        plays.append(card)
        state = state.apply(card)
    return tuple(plays)


def random_game(data: st.DataObject, instance: Instance) -> tuple[State, list[int]]:
    """A random legal game of ``instance`` to its end: the final state and the cards played."""
    state = State.initial(instance)
    plays: list[int] = []
    while not state.is_terminal():
        card = data.draw(st.sampled_from(list(iter_bits(state.legal_mask()))))
        plays.append(card)
        state = state.apply(card)
    return state, plays


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def note_deal(text: str) -> None:
    """``hypothesis.note`` that also works when called outside a hypothesis test (helpers
    shared by property tests and plain parametrized tests)."""
    from hypothesis import note
    from hypothesis.errors import InvalidArgument

    try:
        note(text)
    except InvalidArgument:
        pass


@st.composite
def own_task_instances(draw: st.DrawFn) -> Instance:
    """Fixed-assignment deals in which most task cards are owned by the seat holding them,
    in two or three long suits, with or without order tokens: the case of the precedence
    refutation (a seat's own task card must win its trick itself, so seats that cannot duck
    under it must first play out its suit) and of its check against the tokens' order."""
    inst = draw(instances(min_players=2, max_players=3, max_suits=3, max_values=6, max_cards=12,
                          max_tasks=5, free=False, tokens=draw(st.booleans()), history=False))
    tasks = tuple(Task(t.card, inst.holder[t.card] if draw(st.integers(0, 3)) else t.seat, t.token)
                  for t in inst.tasks)
    return dataclasses.replace(inst, tasks=tasks)


@st.composite
def trump_pad_instances(draw: st.DrawFn) -> Instance:
    """Free-assignment deals with trumps in which all but at most three of the cards that
    are not trumps are tasks, in hands of unequal length, sometimes after a few plays: the
    case of the trump-sharing refutation (the cards that are no task, mostly trumps, must
    make each seat's tricks come out whole)."""
    inst = draw(instances(min_players=2, max_players=3, max_suits=2, max_values=4, max_cards=11,
                          max_tasks=0, trumps=True, free=True, tokens=False, history=False))
    trump = inst.trump_suit
    colour = [c for c in range(inst.deck.size) if inst.deck.suit_of(c) != trump]
    spared = draw(st.integers(0, 3))  # a few colour cards that are no task ("plain" cards)
    cards = colour[spared:]
    tasks = tuple(Task(c, None, None) for c in cards)
    inst = dataclasses.replace(inst, tasks=tasks)
    if draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=inst.players * 2)))
    return inst


def deepsea_makers(instance: Instance, *, choose: bool = False) -> dict[str, st.SearchStrategy[Condition]]:
    """A strategy for each condition kind of *Mission Deep Sea*
    (``crewcheck.model.conditions.kinds_of(DEEP_SEA)``) on ``instance``'s deck and seats,
    by JSON name (some drawn conditions may not fit the deal: check ``problems``)."""
    from crewcheck.model import conditions as C

    p, deck, tricks = instance.players, instance.deck, instance.tricks
    seat = st.sampled_from(list(range(p)) + (["choose"] if choose and p > 2 else []))
    values = sorted({v for vals in deck.values for v in vals})
    value = st.sampled_from(values)
    suit = st.sampled_from(deck.suits)
    cmp = st.sampled_from(["==", ">=", "<="])
    cards = st.lists(st.integers(0, deck.size - 1), min_size=1, max_size=4, unique=True).map(tuple)
    some_cards = st.one_of(st.none(), cards)
    total = st.one_of(st.none(), st.integers(0, 3 * max(values) + 2))
    trick_ref = st.one_of(st.integers(1, tricks), st.just("last"))
    return {
        "wins_cards": st.builds(C.WinsCards, seat, st.integers(0, 4), cmp, st.one_of(st.none(), suit),
                                st.one_of(st.none(), value)),
        "compares_cards_won": st.builds(C.ComparesCardsWon, seat, suit, suit, cmp, st.integers(0, 2),
                                        st.integers(0, 2)),
        "wins_trick_where": st.builds(C.WinsTrickWhere, seat, some_cards, some_cards, some_cards, total, total,
                                      st.one_of(st.none(), suit), st.one_of(st.none(), suit)),
        "wins_consecutive_tricks": st.builds(C.WinsConsecutiveTricks, seat, st.integers(0, tricks), cmp,
                                             st.booleans()),
        "wins_no_tricks_at": st.builds(C.WinsNoTricksAt, seat,
                                       st.lists(trick_ref, min_size=1, max_size=2, unique=True).map(tuple)),
        "wins_as_many_tricks_as": st.builds(C.WinsAsManyTricksAs, seat, seat),
        "wins_more_than_the_rest": st.builds(C.WinsMoreThanTheRest, seat),
        "wins_all_cards_of_a_suit": st.builds(C.WinsAllCardsOfASuit, seat, st.booleans()),
        "leads_no_cards": st.builds(C.LeadsNoCards, seat, suit),
    }


@st.composite
def conditions_for(draw: st.DrawFn, instance: Instance, *, max_conditions: int = 2,
                   choose: bool = False, kinds: tuple[str, ...] | None = None) -> tuple[Condition, ...]:
    """Up to ``max_conditions`` random conditions that fit ``instance`` (every kind of
    the logbook's box, or those of ``kinds``, which may name the Deep Sea kinds of
    :func:`deepsea_makers`)."""
    from crewcheck.model import conditions as C

    p, deck, tricks = instance.players, instance.deck, instance.tricks
    seat_values: list[object] = list(range(p)) + (["choose"] if choose and p > 2 else [])
    seat = st.sampled_from(seat_values)
    values = sorted({v for vals in deck.values for v in vals})
    value = st.sampled_from(values)
    suit = st.sampled_from(deck.suits)
    trick_ref = st.one_of(st.integers(1, tricks), st.just("last"))
    card = st.integers(0, deck.size - 1)
    by_kind = [
        (C.WinsNoTricks.kind, st.builds(C.WinsNoTricks, seat)),
        (C.WinsTricks.kind,
         st.builds(C.WinsTricks, seat, st.integers(0, tricks), st.sampled_from(["==", ">=", "<="]))),
        (C.WinsFewerTricksThan.kind, st.builds(C.WinsFewerTricksThan, seat, seat)),
        (C.WinsNoCards.kind, st.builds(C.WinsNoCards, seat, suit, st.one_of(st.none(), value))),
        (C.WinsAllCards.kind, st.builds(C.WinsAllCards, seat, suit, st.booleans())),
        (C.TrickWonWith.kind,
         st.builds(C.TrickWonWith, value, st.integers(0, 2), st.one_of(st.none(), seat), st.booleans())),
        (C.NoTrickWonWith.kind, st.builds(C.NoTrickWonWith, value)),
        (C.EachTrumpWinsATrick.kind, st.builds(C.EachTrumpWinsATrick, st.booleans())),
        (C.WinsTricksAt.kind,
         st.builds(C.WinsTricksAt, seat, st.lists(trick_ref, min_size=1, max_size=2, unique=True).map(tuple),
                   st.booleans(), st.booleans())),
        (C.BalancedTricks.kind, st.builds(C.BalancedTricks, st.integers(1, 3))),
        (C.TaskInTrick.kind, st.builds(C.TaskInTrick, card, trick_ref)),
        (C.WinsTogether.kind,
         st.builds(C.WinsTogether, seat, st.lists(card, min_size=1, max_size=2, unique=True).map(tuple))),
    ]
    if kinds is not None:
        by_kind += list(deepsea_makers(instance, choose=choose).items())
    makers = [m for kind, m in by_kind if kinds is None or kind in kinds]
    out: list[Condition] = []
    for _ in range(draw(st.integers(1, max_conditions))):
        cond = draw(st.one_of(makers))
        if not cond.problems(instance):
            out.append(cond)
    return tuple(out)


@st.composite
def condition_instances(draw: st.DrawFn, *, choose: bool = False, assignments: tuple[str, ...] = ("fixed", "free"),
                        max_cards: int = 10, max_tasks: int = 2, kinds: tuple[str, ...] | None = None) -> Instance:
    """A small deal without history carrying random conditions, under one of ``assignments``."""
    base = draw(instances(max_cards=max_cards, max_tasks=max_tasks, history=False, free=True,
                          max_players=4))
    mode = draw(st.sampled_from(assignments))
    tasks = base.tasks
    if mode == "fixed":
        tasks = tuple(Task(t.card, draw(st.integers(0, base.players - 1)), t.token) for t in tasks)
    conds = draw(conditions_for(base, choose=choose, kinds=kinds))
    return Instance(base.deck, base.hands, tasks, base.trump, base.lead,
                    Rules(base.rules.order_rule, mode), conditions=conds)  # type: ignore[arg-type]
