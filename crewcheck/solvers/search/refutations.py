"""Cheap, sound refutations: necessary conditions for a position to be winnable.

Five rules: *lead reachability* (below); under free assignment the trump sharing of
:func:`_trump_split`; the top-trump count of the search's
:func:`crewcheck.solvers.search.cuts.boss_trump_dead`, put in words by :func:`_top_trumps`;
with covered cards the order of a stack against the order tokens
(:func:`_cover_order`); and under "nobody ever ``m`` tricks ahead" the tricks a seat's
trumps must win (:func:`trump_floor`; with the first trick, when its leader must win
it) against the share the rule leaves a seat (:func:`balance_clash`;
:func:`signal_refutation` applies it to every choice of a distress signal's passes).

Lead reachability: a seat can win a future trick only if some
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
later". Covered cards: a seat still to play in the current trick plays and follows suit
with its face-up cards only (:func:`crewcheck.model.rules.uncovered`), and is asked
about exactly those; for later tricks "holds now" still bounds every card it may play
(covered ones included), and a seat holding a trump is counted as able to trump any
other lead, whether its cards of that suit are face up or not. A property test checks
every refutation against the exhaustive oracle.

Examples
--------
>>> from crewcheck.formats.notation import parse_deal
>>> deal = parse_deal("B9 B8 | B1 B2 ; trump - ; lead 0 ; tasks B1@1 ; strict/fixed")
>>> refutation(deal.state())
'seat 1 can never win a trick, but must win B1'
"""

from __future__ import annotations

from itertools import combinations, product

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.derived import quotas_left
from crewcheck.model.rules import uncovered
from crewcheck.model.state import State
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.model.variants import signal_directions
from crewcheck.solvers.search.cuts import boss_trump_dead

__all__ = ["possible_winners", "refutation", "signal_refutation"]


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
            hand = uncovered(state.hands[seat], inst.covered)  # it follows suit with these only
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
    why = _cover_order(state)
    if why is not None:
        return why
    reach = possible_winners(state)
    why = _balance(state, reach)
    if why is not None:
        return why
    open_tasks = [i for i in range(len(inst.tasks)) if not state.done >> i & 1]
    if state.owners is None:
        for i in open_tasks:
            seat = inst.tasks[i].seat
            assert seat is not None
            if not reach >> seat & 1:
                card = inst.deck.card(inst.tasks[i].card)
                return f"seat {seat} can never win a trick, but must win {card}"
        return _top_trumps(state, [0] * inst.players)
    quota = list(quotas_left(state) or ())
    room = sum(quota[s] for s in range(inst.players) if reach >> s & 1)
    if room < len(open_tasks):
        return (f"{len(open_tasks)} tasks are open but the seats that can still win tricks "
                f"have room for only {room}")
    return _trump_split(state, quota) or _top_trumps(state, quota)


def trump_floor(mine: list[CardIndex], others: list[CardIndex]) -> int:
    """How many of ``mine`` (one seat's trumps) win the trick they are played in, at least,
    against the other seats' trumps ``others``: a trump loses only to a higher trump, and
    the seat plays one card a trick, so each of ``others`` beats at most one of ``mine``;
    the most they beat is a largest matching of ``mine`` to higher ``others`` (each of
    ``mine``, lowest first, to the lowest free one above it)."""
    beaten, i, free = 0, 0, sorted(others)
    for w in sorted(mine):
        while i < len(free) and free[i] < w:
            i += 1
        if i < len(free):
            beaten, i = beaten + 1, i + 1
    return len(mine) - beaten


def _balance_fits(won: list[int], floor: list[int], cap: list[int], total: int, margin: int) -> bool:
    """Whether final trick counts ``W`` exist with ``won[s] + floor[s] <= W[s] <= cap[s]``,
    adding up to ``total`` and no two ``margin`` or more apart: every count lies in one
    window ``a .. a + margin - 1``, and a window fits when every seat's range meets it and
    ``total`` lies between the least and the most the clipped ranges add up to."""
    for a in range(total + 1):
        lo = [max(won[s] + floor[s], a) for s in range(len(won))]
        hi = [min(cap[s], a + margin - 1) for s in range(len(won))]
        if all(x <= y for x, y in zip(lo, hi)) and sum(lo) <= total <= sum(hi):
            return True
    return False


def _first_trick_winner(inst: Instance, state: State) -> int | None:
    """The seat that leads the first trick and must win it (``wins_tricks_at`` naming
    trick 1 and that seat), before any card is played; ``None`` if there is none."""
    if state.tricks_played or state.trick or state.leader is None:
        return None
    for cond, memo in zip(inst.conditions, state.memos):
        if cond.kind == "wins_tricks_at" and getattr(cond, "seat") == state.leader and 1 in getattr(cond, "tricks") \
                and not memo:
            return state.leader
    return None


def _balance(state: State, reach: Mask) -> str | None:
    """"Nobody ever ``m`` tricks ahead" (``balanced_tricks``) at a trick boundary: its
    final counts must lie within ``m - 1`` of each other and add up to the game's tricks
    (:func:`balance_clash`)."""
    inst = state.instance
    if state.trick or not isinstance(inst, Instance):
        return None
    for cond, memo in zip(inst.conditions, state.memos):
        if cond.kind != "balanced_tricks" or not isinstance(memo, tuple):
            continue
        margin = int(getattr(cond, "margin"))
        left = min(h.bit_count() for h in state.hands)
        first = _first_trick_winner(inst, state)
        plain = first is not None and state.hands[first] & ~_trumps(inst) != 0
        why = balance_clash(inst, state.hands, [int(x) for x in memo], left, margin, reach,
                            [h.bit_count() for h in state.hands], first, plain)
        if why is not None:
            return why
    return None


def _trumps(inst: Instance) -> Mask:
    return 0 if inst.trump_suit is None else inst.deck.suit_mask(inst.trump_suit)


def balance_clash(inst: Instance, hands: tuple[Mask, ...], won: list[int], left: int, margin: int, reach: Mask,
                  sizes: list[int], first: int | None = None, plain: bool = True) -> str | None:
    """Whether the tricks still to play cannot be shared so that nobody ends ``margin``
    ahead, with hands of ``sizes`` cards (a distress signal's passes change the sizes,
    never the trumps) and ``left`` tricks to play; the reason, or ``None``.

    A seat wins at least :func:`trump_floor` tricks with the trumps it cannot keep back
    (it plays every card but ``sizes[s] - left``); a seat outside :func:`possible_winners`
    wins no more. ``first``: a seat that leads the first trick and must win it; whatever
    it leads (a trump that beats the trumps the others must follow with, their lowest, or,
    if ``plain``, a card that is no trump, which nobody may trump), it then has that trick
    and the floor of the trumps left."""
    p, trumps, deck = len(hands), _trumps(inst), inst.deck
    held = [list(iter_bits(h & trumps)) for h in hands]

    def floor_of(s: int, mine: list[CardIndex], theirs: list[list[CardIndex]]) -> int:
        rest = [c for o in range(p) if o != s for c in theirs[o]]
        return max(0, trump_floor(mine, rest) - (sizes[s] - left))

    floor = [floor_of(s, held[s], held) for s in range(p)]
    cap = [won[s] + left if reach >> s & 1 else won[s] for s in range(p)]
    total = sum(won) + left
    most = (total + (p - 1) * (margin - 1)) // p
    ahead = f"nobody may be {margin} tricks ahead, which leaves a seat at most {most}"
    if not _balance_fits(won, floor, cap, total, margin):
        for s in range(p):
            if won[s] + floor[s] > most:
                names = " ".join(str(deck.card(c)) for c in held[s])
                beaten = len(held[s]) - trump_floor(held[s], [c for o in range(p) if o != s for c in held[o]])
                which = "which the other seats' trumps cannot beat" if not beaten else \
                    f"of which the other seats' trumps can beat at most {beaten}"
                return f"seat {s} holds {names}, {which}: it wins at least {won[s] + floor[s]} of the {total} " \
                       f"tricks, but {ahead}"
        return f"nobody may be {margin} tricks ahead, and the {total} tricks cannot be shared so"
    if first is None:
        return None
    leads: list[tuple[list[CardIndex], list[list[CardIndex]]]] = [(held[first], held)] if plain else []
    for c in held[first]:  # a trump led: the others follow with a trump, below it
        if all(not held[o] or min(held[o]) < c for o in range(p) if o != first):
            rest = [h[1:] if o != first and h else h for o, h in enumerate(held)]
            leads.append(([x for x in held[first] if x != c], rest))
    lows = []
    for mine, theirs in leads:
        low = 1 + floor_of(first, mine, theirs)
        if _balance_fits(won, [*floor[:first], max(floor[first], low), *floor[first + 1:]], cap, total, margin):
            return None
        lows.append(low)
    if not lows:
        return f"seat {first} leads the first trick and must win it, but it holds only trumps the others can beat"
    return (f"seat {first} leads the first trick and must win it; whatever it leads, it wins at least "
            f"{min(lows)} of the {total} tricks with it and its trumps, but {ahead}")


def signal_refutation(instance: Instance) -> str | None:
    """A reason why no choice of a distress signal's passes wins ``instance`` (no history),
    or ``None``: :func:`balance_clash` on the hands after the passes of each direction.
    The passes move no trump, so the trump floors stay; a seat holding only trumps passes
    nothing, so hand sizes (and the tricks played) may change by the direction, and a seat
    may get its first card that is no trump."""
    if instance.history or instance.distress is None:
        return None
    trumps = _trumps(instance)
    p = instance.players
    hands = tuple(instance.hands)
    gives = [int(hand & ~trumps != 0) for hand in hands]
    # (a condition's seat the crew chooses leaves no single state, nor a first winner)
    concrete = all(c.is_concrete() for c in instance.conditions)
    first = _first_trick_winner(instance, instance.state()) if concrete else None
    why = None
    for cond in instance.conditions:
        if cond.kind != "balanced_tricks":
            continue
        margin = int(getattr(cond, "margin"))
        for direction in signal_directions(instance):
            sizes = [hands[s].bit_count() - gives[s] + gives[(s - direction) % p] for s in range(p)]
            plain = first is not None and (gives[first] + gives[(first - direction) % p] > 0)
            why = balance_clash(instance, hands, [0] * p, min(sizes), margin, (1 << p) - 1, sizes, first, plain)
            if why is None:
                break
        if why is not None:
            return why
    return None


def _cover_order(state: State) -> str | None:
    """A task card lies under cards still held whose tasks the order tokens do not let
    complete first (any assignment).

    A covered card is played in a later trick than the card on it (its seat turns it up
    only then), so a task card under others of its stack still held completes in a later
    trick than every task on them. As in :func:`crewcheck.solvers.search.cuts.token_order_dead`
    (sound under either reading of the tokens), that is a contradiction when one of those
    carries "last" (omega), when both carry absolute or both relative tokens and the
    upper one's rank is higher, or when the lower one's absolute rank ``r`` leaves room for
    fewer than the tasks done so far and those above it (at most ``r - 1`` tasks complete
    before its trick).
    """
    inst = state.instance
    if not inst.covered or not any(t.token is not None for t in inst.tasks):
        return None
    held = 0
    for hand in state.hands:
        held |= hand
    over = dict(inst.covered)  # covered card -> the card on it
    open_task = {t.card: i for i, t in enumerate(inst.tasks) if not state.done >> i & 1}
    done = state.done.bit_count()
    for i, task in enumerate(inst.tasks):
        if state.done >> i & 1 or not held >> task.card & 1:
            continue
        above: list[int] = []  # the open tasks on the cards above it, still held
        card = task.card
        while card in over and held >> over[card] & 1:
            card = over[card]
            if card in open_task:
                above.append(open_task[card])
        if not above:
            continue
        kind, rank = token_kind(task.token) if task.token is not None else (None, 0)
        clash = kind is TokenKind.ABSOLUTE and done + len(above) > rank - 1
        for j in above:
            token = inst.tasks[j].token
            if token is None or clash:
                continue
            other, other_rank = token_kind(token)
            clash = other is TokenKind.LAST or (other is kind and other_rank > rank)
        if clash:
            name = inst.deck.card
            return (f"{name(task.card)} lies under {', '.join(str(name(inst.tasks[j].card)) for j in above)}, "
                    f"whose task completes first, which the order tokens forbid")
    return None


def _top_trumps(state: State, quota: list[int]) -> str | None:
    """At a trick boundary, the search's top-trump rule
    (:func:`crewcheck.solvers.search.cuts.boss_trump_dead`, its docstring says why it is
    sound), in words."""
    inst = state.instance
    if state.trick or inst.trump_suit is None:
        return None
    deck = inst.deck
    open_cards = 0
    own = [0] * inst.players
    for i, task in enumerate(inst.tasks):
        if not state.done >> i & 1:
            open_cards |= 1 << task.card
            if task.seat is not None:
                own[task.seat] |= 1 << task.card
    hands = list(state.hands)
    inplay = 0
    for hand in hands:
        inplay |= hand
    free = int(state.owners is not None)
    if not boss_trump_dead(hands, inst.players, free, inplay, open_cards & inplay, own, quota, inst.trump_suit,
                           list(deck.suit_masks), min(h.bit_count() for h in hands)):
        return None
    taken = "more task cards than its quota" if free else "task cards of other seats"
    return (f"however long the game lasts, a seat's trumps above all others' win tricks into which "
            f"the other seats must play {taken}")


def _trump_split(state: State, quota: list[int]) -> str | None:
    """Free assignment, at a trick boundary, no trump a task: the cards that are no task
    cannot be shared out so that every seat's tricks come out whole.

    Each trick holds one card per seat, so a seat that takes ``q`` more tasks in ``t``
    tricks takes ``p * t - q`` cards that are no task: a multiple of ``p`` minus ``q``. A
    seat plays all its task cards, so if ``P`` more tricks are played it plays ``P`` minus
    that many cards that are no task, some trumps and the rest other cards ("plain").
    A trick with trumps in it goes, with all of them, to the seat that played the
    highest; a plain card is let go to any seat (a relaxation). This tries every ``P``,
    every choice of the trumps played and every way of putting them into tricks (one per
    seat and trick), gives each seat the fewest plain cards that make its count whole (at
    least one trick per trump trick it wins), and refutes if that is always more plain
    cards than are played. It bites when the plain cards are few: on Classic deals whose
    36 colour cards are all tasks, a longer hand keeps cards that must be trumps.
    """
    inst = state.instance
    trump = inst.trump_suit
    if state.trick or trump is None:
        return None
    deck = inst.deck
    p = inst.players
    open_cards = 0
    for i, task in enumerate(inst.tasks):
        if not state.done >> i & 1:
            open_cards |= 1 << task.card
    trumps_mask = deck.suit_mask(trump)
    if open_cards & trumps_mask:
        return None
    trumps_of = [sorted(iter_bits(hand & trumps_mask), reverse=True) for hand in state.hands]
    if sum(len(t) for t in trumps_of) > 8:
        return None  # the enumeration below grows fast; no refutation claimed
    tasks_of = [(hand & open_cards).bit_count() for hand in state.hands]
    plain_of = [(hand & ~open_cards & ~trumps_mask).bit_count() for hand in state.hands]
    tricks = min(hand.bit_count() for hand in state.hands)

    def shares(played: list[tuple[int, int]], plain: int) -> bool:
        """Whether the played (card, seat) pairs, highest first, go into tricks so that
        ``plain`` plain cards can make every seat's count whole."""
        groups: list[list[int]] = []  # [winner, size, seats mask]

        def place(k: int) -> bool:
            if k == len(played):
                r = [0] * p
                g = [0] * p
                for winner, size, _ in groups:
                    r[winner] += size
                    g[winner] += 1
                need = 0
                for s in range(p):
                    extra = -(quota[s] + r[s]) % p
                    short = g[s] - (quota[s] + r[s] + extra) // p
                    need += extra + p * max(0, short)
                return need <= plain
            seat = played[k][1]
            for group in groups:
                if not group[2] >> seat & 1:
                    group[1] += 1
                    group[2] |= 1 << seat
                    if place(k + 1):
                        return True
                    group[1] -= 1
                    group[2] &= ~(1 << seat)
            groups.append([seat, 1, 1 << seat])
            if place(k + 1):
                return True
            groups.pop()
            return False

        return place(0)

    for played_tricks in range(max(tasks_of), tricks + 1):
        plays = [played_tricks - tasks_of[s] for s in range(p)]
        options = [[c for x in range(max(0, plays[s] - plain_of[s]), min(plays[s], len(trumps_of[s])) + 1)
                    for c in combinations(trumps_of[s], x)] for s in range(p)]
        for choice in product(*options):
            played = sorted(((c, s) for s in range(p) for c in choice[s]), reverse=True)
            if shares(played, sum(plays) - len(played)):
                return None
    names = " ".join(str(deck.card(c)) for c in sorted(c for t in trumps_of for c in t))
    plain = sum(plain_of)
    others = f" and {plain} other cards that are no task" if plain else ""
    return (f"the trumps left ({names or 'none'}){others} cannot be shared out so that each "
            f"seat takes its task quota in whole tricks of {p} cards")
