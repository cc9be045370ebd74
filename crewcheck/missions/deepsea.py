"""*Mission Deep Sea* missions as the game deals them: hands, captain, task cards drawn to a
difficulty, and the crew's ways of taking them.

The procedure (:func:`draw_mission`), from one ``random.Random(seed)``:

1. the 40 cards are shuffled and dealt round the table from seat 0 (with 3 players seat 0
   gets 14 cards, the 14th is never played), as the logbook's deals
   (:func:`crewcheck.missions.logbook.deal_mission`): the same seed and player count give
   the same hands; the captain is the holder of R4;
2. the 96 task cards are shuffled and turned up one by one; a card is taken if its
   difficulty for the player count keeps the sum at most the mission's difficulty ``D``,
   else set aside, until the sum is ``D`` (the rulebook: draw until the difficulties add
   up to the mission's);
3. while a drawn card says to deal again (its ``redeal_when``: one seat holds every card of
   a listed set) the 40 cards are shuffled and dealt again.

The crew then takes the cards in turn, one each from the captain round the table, until
all are taken: with every hand known the crew can reach any split in which seat
``captain + i`` takes the cards of turns ``i, i + p, ...`` (:func:`takings`), except that
a card marked ``not_for_captain`` is never the captain's (a captain left with only such
cards passes the turn). A mission can be won when one
of these takings leads to a winnable deal (:mod:`crewcheck.experiments.deepsea_missions`).

The cards are those of ``crewcheck/missions/data/deepsea_tasks.json`` (the catalogue);
:func:`resolve_conditions` turns a card's conditions, written with placeholders, into
conditions of the deal format.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import permutations
from typing import Any

from crewcheck.errors import InvalidInputError

__all__ = ["PLAYERS", "DeepSeaMission", "catalogue", "task_cards", "draw_mission", "takings", "resolve_conditions",
           "card_conditions", "first_taking", "taking_count", "MAX_TAKINGS", "deal_deepsea_mission", "mission_deal"]

MAX_TAKINGS = 200_000
"""The most ways of taking the cards :func:`takings` lists, counted as the seats take
them in turn (:func:`taking_count`): 11 cards among 5 seats make 415,800 and take
seconds to list, 15 among 3 make 756,756 and take minutes; the study's largest mission
(difficulty 16, 5 players) has 17,640."""
PLAYERS: tuple[int, ...] = (3, 4, 5)
"""Deep Sea deals for 3, 4 or 5 players (2 players need the game's dummy hand: not modelled)."""
_COLOURS = ("B", "G", "P", "Y")
_TRUMP = "R"
_CARD_SETS = ("won_with", "holding", "only")


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    """The catalogue file (``crewcheck-deepsea-tasks/1``) as a dict."""
    text = resources.files("crewcheck.missions").joinpath("data", "deepsea_tasks.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


def task_cards() -> tuple[dict[str, Any], ...]:
    """The 96 task cards, ``DS01`` .. ``DS96``."""
    return tuple(catalogue()["tasks"])


def _deck() -> list[str]:
    return [f"{s}{v}" for s in _COLOURS for v in range(1, 10)] + [f"{_TRUMP}{v}" for v in range(1, 5)]


def _card_key(card: str) -> tuple[int, int]:
    return (*_COLOURS, _TRUMP).index(card[0]), int(card[1:])


@dataclass(frozen=True)
class DeepSeaMission:
    """One seeded mission: the hands, the captain and the task cards in the order drawn."""

    difficulty: int
    players: int
    seed: int
    hands: tuple[tuple[str, ...], ...]
    """Card names per seat, sorted."""
    captain: int
    """The holder of R4; takes the first card and leads the first trick."""
    cards: tuple[str, ...]
    """The ids of the task cards drawn (``"DS07"``), in draw order."""
    set_aside: tuple[str, ...]
    """Cards turned up that would have overshot the difficulty."""
    redeals: int
    """How often the hands were dealt again because of a card's ``redeal_when``."""


def _deal(rng: random.Random, players: int) -> tuple[tuple[str, ...], ...]:
    cards = _deck()
    rng.shuffle(cards)
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(cards):
        hands[k % players].append(card)
    return tuple(tuple(sorted(h, key=_card_key)) for h in hands)


def _redeal_needed(cards: Sequence[Mapping[str, Any]], hands: Sequence[Sequence[str]]) -> bool:
    for card in cards:
        for group in card.get("redeal_when", ()):
            if any(set(group) <= set(hand) for hand in hands):
                return True
    return False


def draw_mission(difficulty: int, players: int = 4, seed: int = 0) -> DeepSeaMission:
    """The seeded mission of ``difficulty`` for ``players`` (see the module docstring).

    Bad arguments raise :class:`InvalidInputError` naming the field.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise InvalidInputError(f"{players!r} players: Deep Sea missions are dealt for 3, 4 or 5 players",
                                field="players")
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty < 1:
        raise InvalidInputError(f"expected a difficulty from 1, got {difficulty!r}", field="difficulty")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"expected an integer seed, got {seed!r}", field="seed")
    rng = random.Random(seed)
    hands = _deal(rng, players)
    by_id = {c["id"]: c for c in task_cards()}
    order = sorted(by_id)
    rng.shuffle(order)
    taken: list[str] = []
    aside: list[str] = []
    total = 0
    for cid in order:
        d = int(by_id[cid]["difficulty"][str(players)])
        if total + d <= difficulty:
            taken.append(cid)
            total += d
            if total == difficulty:
                break
        else:
            aside.append(cid)
    if total != difficulty:
        raise InvalidInputError(f"no draw of the 96 cards adds up to difficulty {difficulty} "
                                f"({total} at most)", field="difficulty")
    redeals = 0
    while _redeal_needed([by_id[c] for c in taken], hands):
        hands = _deal(rng, players)
        redeals += 1
    captain = next(s for s, h in enumerate(hands) if f"{_TRUMP}4" in h)
    return DeepSeaMission(difficulty, players, seed, hands, captain, tuple(taken), tuple(aside), redeals)


def takings(mission: DeepSeaMission) -> Iterator[tuple[int, ...]]:
    """Every way the crew can take the cards (the seat of each card, in draw order), each
    split once, the draw order first (card ``i`` to seat ``captain + i``).

    The seats take one card each in turn from the captain; a captain whose every remaining
    card is ``not_for_captain`` passes the turn to the next seat. The splits come in the
    order of their first appearance among the orders of taking (card by card, lowest
    first); the splits of the cards left after some turns depend only on the seat to take
    and the cards left, so each such set is listed once (``p x 2^k`` of them, not the
    ``k!`` orders of taking).
    """
    p, k, captain = mission.players, len(mission.cards), mission.captain
    about = taking_count(k, p)
    if about > MAX_TAKINGS:
        raise _too_many(f"about {about:,}", k)
    barred = _barred(mission)
    listed = 0

    @lru_cache(maxsize=None)
    def splits(seat: int, left: frozenset[int]) -> tuple[tuple[int, ...], ...]:
        """The splits of the cards ``left`` from ``seat``'s turn on (the seat of each
        card, ``-1`` for the cards already taken), each once, in the order of first
        appearance."""
        nonlocal listed
        if not left:
            return ((-1,) * k,)
        options = sorted(c for c in left if not (barred[c] and seat == captain))
        if not options:
            return splits((seat + 1) % p, left)
        out: dict[tuple[int, ...], None] = {}
        for c in options:
            for rest in splits((seat + 1) % p, left - {c}):
                out.setdefault((*rest[:c], seat, *rest[c + 1:]), None)
        listed += len(out)
        if listed > 20 * MAX_TAKINGS:  # the captain's passes made many more splits than counted
            raise _too_many(f"more than {MAX_TAKINGS:,}", k)
        return tuple(out)

    found = splits(captain, frozenset(range(k)))
    if len(found) > MAX_TAKINGS:
        raise _too_many(f"{len(found):,}", k)
    yield from found


def _barred(mission: DeepSeaMission) -> list[bool]:
    """Whether each of the mission's cards is ``not_for_captain``."""
    return [bool(_card(c).get("not_for_captain")) for c in mission.cards]


def _too_many(how_many: str, cards: int) -> InvalidInputError:
    return InvalidInputError(f"the crew has {how_many} ways of taking the {cards} cards of this mission; "
                             f"at most {MAX_TAKINGS:,} are decided", field="difficulty")


def taking_count(cards: int, players: int) -> int:
    """How many ways ``players`` seats taking ``cards`` cards one each in turn can share
    them: the multinomial of the counts the turns give (exact when no card is
    ``not_for_captain``; a captain's passes change it a little)."""
    out = math.factorial(cards)
    for i in range(players):
        out //= math.factorial(len(range(i, cards, players)))
    return out


def first_taking(mission: DeepSeaMission) -> tuple[int, ...]:
    """The first split :func:`takings` gives, without listing the others: the draw order
    (card ``i`` to seat ``captain + i``), a captain whose every remaining card is
    ``not_for_captain`` passing the turn."""
    p, captain = mission.players, mission.captain
    barred = _barred(mission)
    owners = [-1] * len(mission.cards)
    left = list(range(len(mission.cards)))
    seat = captain
    while left:
        options = [c for c in left if not (barred[c] and seat == captain)]
        if options:
            owners[options[0]] = seat
            left.remove(options[0])
        seat = (seat + 1) % p
    return tuple(owners)


def _card(cid: str) -> dict[str, Any]:
    for c in task_cards():
        if c["id"] == cid:
            return c
    raise InvalidInputError(f"unknown task card {cid!r}; ids are DS01..DS96", field="card")


def _card_set(spec: Any, players: int) -> list[str]:
    if isinstance(spec, list):
        return list(spec)
    deck = _deck()
    if "colour_values" in spec:
        return [c for c in deck if c[0] != _TRUMP and int(c[1:]) in spec["colour_values"]]
    if "values" in spec:
        return [c for c in deck if int(c[1:]) in spec["values"]]
    return [c for c in deck if c[0] in spec["suits"]]


def resolve_conditions(card: Mapping[str, Any], seat: int, captain: int, players: int) -> list[dict[str, Any]]:
    """The conditions of task ``card`` taken by ``seat``, in the deal format: ``"self"``,
    ``"captain"`` and ``"each_other"`` (one copy per other seat) made seats, card sets made
    card lists and ``{"by_players": ...}`` numbers made numbers."""
    out = []
    for cond in card.get("conditions", ()):
        copies = [dict(cond)]
        if "each_other" in (cond.get("seat"), cond.get("other")):
            copies = []
            for o in range(players):
                if o != seat:
                    copies.append({k: (o if v == "each_other" else v) for k, v in cond.items()})
        for c in copies:
            for f in ("seat", "other"):
                if c.get(f) == "self":
                    c[f] = seat
                elif c.get(f) == "captain":
                    c[f] = captain
            for f in _CARD_SETS:
                if f in c and not isinstance(c[f], bool):
                    c[f] = _card_set(c[f], players)
            for f, v in list(c.items()):
                if isinstance(v, dict) and "by_players" in v:
                    c[f] = v["by_players"][str(players)]
            out.append(c)
    return out


def card_conditions(mission: DeepSeaMission, i: int, seat: int) -> list[dict[str, Any]]:
    """The conditions of ``mission``'s card ``i`` taken by ``seat``, in the deal format
    (:func:`mission_deal` lists those of every card, in card order)."""
    return resolve_conditions(_card(mission.cards[i]), seat, mission.captain, mission.players)


def mission_deal(mission: DeepSeaMission, owners: Sequence[int]) -> dict[str, Any]:
    """The deal file (a dict) of ``mission`` with card ``i`` taken by ``owners[i]``."""
    if len(owners) != len(mission.cards) or any(not 0 <= s < mission.players for s in owners):
        raise InvalidInputError(f"expected {len(mission.cards)} seats in 0..{mission.players - 1}, "
                                f"got {list(owners)}", field="take")
    conditions: list[dict[str, Any]] = []
    lines = []
    for cid, seat in zip(mission.cards, owners, strict=True):
        card = _card(cid)
        if card.get("not_for_captain") and seat == mission.captain:
            raise InvalidInputError(f"{cid} ({card['text']!r}) cannot go to the captain (seat {seat})",
                                    field="take")
        conditions.extend(resolve_conditions(card, seat, mission.captain, mission.players))
        lines.append(f"{cid} seat {seat} (difficulty {card['difficulty'][str(mission.players)]}): {card['text']}")
    comment = (f"Mission Deep Sea, difficulty {mission.difficulty}, {mission.players} players, seed {mission.seed}; "
               f"captain seat {mission.captain}; task cards drawn: " + "; ".join(lines))
    if mission.set_aside:
        comment += f"; set aside (would overshoot): {', '.join(mission.set_aside)}"
    if mission.redeals:
        comment += f"; hands dealt {mission.redeals + 1} times (a card's redeal rule)"
    return {
        "schema": "crewcheck-deal/1",
        "name": f"deepsea-d{mission.difficulty:02d}-{mission.players}p-seed{mission.seed}",
        "comment": comment,
        "deck": "classic",
        "hands": [list(h) for h in mission.hands],
        "trump": _TRUMP,
        "lead": mission.captain,
        "conditions": conditions,
    }


def deal_deepsea_mission(difficulty: int, players: int = 4, seed: int = 0,
                         take: Sequence[int] | None = None) -> dict[str, Any]:
    """A seeded Deep Sea mission as a deal-file dict: the cards taken in draw order
    (the first split :func:`takings` gives: card ``i`` by seat ``captain + i`` unless a
    card may not go to the captain), or by the seats ``take`` names."""
    mission = draw_mission(difficulty, players, seed)
    owners = tuple(take) if take is not None else first_taking(mission)
    return mission_deal(mission, owners)
