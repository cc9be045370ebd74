"""The logbook of *The Quest for Planet Nine* as data, and seeded deals of its missions.

The 50 missions live in ``crewcheck/missions/data/logbook.json`` (the format is described
in ``models/missions/README.md`` and ``models/missions/logbook.schema.json``). Each mission
gives its number of task cards, its task tokens, how the tasks are handed out, its special
rule as text and as conditions of the deal format, its communication restriction and the
player counts it is dealt for.

:func:`deal_mission` deals one seeded game of a mission as a deal-file dict (the JSON
object of ``crewcheck/formats/deal.schema.json``), the way the rulebook sets a mission up:

1. ``random.Random(seed)`` shuffles the 40 playing cards (B, G, P, Y 1-9, then R 1-4) and
   deals them one at a time round the table from seat 0: 14/13/13 with 3 players, 10 each
   with 4, 8 each with 5. With ``challenge=True`` (2 or 3 players, *Challenge for Three*)
   the green cards and R1 are left out: 30 cards, 10 each.

   With 2 players the game has a third seat, JARVIS, dealt as the reference deals it
   (models/missions/README.md cites the lines): seat 2 is JARVIS and takes the first 14
   cards of the shuffled deck that are not R4 (10 with ``challenge``), laid out in the
   order drawn as columns of two, the first card face down under the second (the deal's
   ``"covered"``); the other 26 (20) cards are dealt one at a time to seats 0 and 1.
   JARVIS plays after seat 1 and before seat 0; the commander is whichever of the two
   holds R4, so JARVIS plays after the commander or before it, as in the reference,
   where it plays after a human chosen at random.
2. The commander is the holder of R4; it leads the first trick (``"lead": "rocket"``).
3. The same generator shuffles the 36 colour cards (27 without green) in the same order
   and the mission's task cards are the first ones; the task tokens go on the first task
   cards, in the logbook's order ("place them from left to right, starting with the first
   task token").
4. The tasks are handed out as the mission says (``"free"``: the draft; ``"decision"``,
   ``"distribution"``: the commander's), unless ``assignment`` says otherwise;
   ``"fixed"`` writes a seat on each task: the commander takes the first task card, the
   next seat the second, and so on round the table.
5. The conditions get concrete seats and cards where the deal decides them
   (``"commander"``, ``"left_of:P9"``, ``"token:omega"``); ``"choose"`` and
   ``"choose_any:<role>"`` stay, for the model to expand (see the logbook's
   ``placeholders``).

The same seed and player count give the same hands and the same task-card order in every
mission, so missions can be compared on common deals. The deal depends only on the seed
(Python's Mersenne Twister and ``shuffle`` are the same on every platform).

6. The crew's choices before play are written as deal fields for the model to expand:
   the token swap of mission 23 and the token move of mission 40 (``"token_move"``), and
   with five players the hand-over of one task (``"handover"``, missions 25-50 with task
   cards); ``crew_choices=False`` leaves them out.

The special rules follow Board Game Arena's implementation (the reference) unless
``reading="literal"`` asks for the rulebook's words (:data:`READINGS`). Mission 12's
random card after the first trick is a chance event, not a choice: deals leave it out
(it is listed in the deal's ``comment`` and by :func:`not_modelled`), and
:mod:`crewcheck.missions.draw` answers it for a deal.

Examples
--------
>>> len(missions())
50
>>> mission(16).special_rule
'You must not win a trick with a nine.'
>>> deal = deal_mission(16, players=4, seed=1)
>>> [len(h) for h in deal["hands"]], deal["conditions"]
([10, 10, 10, 10], [{'kind': 'no_trick_won_with', 'value': 9}])
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from importlib import resources
from typing import Any

from crewcheck.errors import InvalidInputError

__all__ = [
    "LOGBOOK_SCHEMA_ID", "PLAYERS", "JARVIS", "seats", "verdict_caveats", "ASSIGNMENTS", "DISTRESS", "READINGS",
    "Mission", "logbook", "missions", "mission", "deal_mission", "not_modelled", "resolve_placeholders",
]

LOGBOOK_SCHEMA_ID = "crewcheck-logbook/1"
PLAYERS: tuple[int, ...] = (2, 3, 4, 5)
"""Player counts a mission can be dealt for (2: the two-player game, with JARVIS as a
third seat: :data:`JARVIS`)."""
JARVIS = 2
"""JARVIS's seat in a two-player deal: after seat 1, before seat 0."""
ASSIGNMENTS: tuple[str, ...] = ("fixed", "free", "decision", "distribution")
DISTRESS: tuple[str, ...] = ("left", "right", "choose")
READINGS: tuple[str, ...] = ("reference", "literal")
"""How a special rule is read: ``"reference"`` (the default) as Board Game Arena's
implementation plays it (at commit c57d835), ``"literal"`` as the rulebook's words read.
They differ only in mission 46 with three players (BGA does not count the unplayed 14th
card); elsewhere they agree (models/missions/README.md cites each rule's line)."""

_COLOURS = ("B", "G", "P", "Y")
_TRUMP = "R"


@dataclass(frozen=True)
class Mission:
    """One logbook mission, as ``crewcheck/missions/data/logbook.json`` gives it."""

    number: int
    tasks: int
    """Number of task cards."""
    tokens: tuple[str, ...]
    """Task tokens, laid on the first task cards in this order."""
    assignment: str | None
    """``"free"``, ``"decision"``, ``"distribution"``; ``None`` without tasks."""
    special_rule: str | None
    conditions: tuple[Mapping[str, Any], ...]
    """The special rule in the deal format's condition language, with placeholders."""
    communication: Mapping[str, Any]
    """Recorded only: it cannot change whether a deal can be won."""
    players: tuple[int, ...]
    five_player_rule: bool
    unsupported: tuple[Mapping[str, str], ...]
    notes: tuple[str, ...]
    token_move: str | None = None
    """``"swap"`` (mission 23) or ``"move"`` (mission 40): the crew's token choice before the draft."""
    readings: Mapping[str, Mapping[str, Any]] = dataclass_field(default_factory=dict)
    """Other readings of the special rule (``"literal"``: source, conditions, why)."""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Mission:
        return cls(
            number=int(obj["number"]), tasks=int(obj["tasks"]), tokens=tuple(obj["tokens"]),
            assignment=obj["assignment"], special_rule=obj["special_rule"],
            conditions=tuple(obj["conditions"]), communication=obj["communication"],
            players=tuple(obj["players"]), five_player_rule=bool(obj["five_player_rule"]),
            unsupported=tuple(obj.get("unsupported", ())), notes=tuple(obj.get("notes", ())),
            token_move=obj.get("token_move"), readings=dict(obj.get("readings", {})))

    def conditions_for(self, reading: str = "reference") -> tuple[Mapping[str, Any], ...]:
        """The special rule's conditions under ``reading`` (one of :data:`READINGS`)."""
        if reading == "reference" or reading not in self.readings:
            return self.conditions
        return tuple(self.readings[reading]["conditions"])

    def describe_communication(self) -> str:
        """``"dead zone"``, ``"from trick 3"``, ``"one member silent"`` or ``""``."""
        kind = self.communication["kind"]
        if kind == "dead_zone":
            return "dead zone"
        if kind == "disruption":
            return f"from trick {self.communication['from_trick']}"
        if kind == "silenced_member":
            return "one member silent"
        return ""


@lru_cache(maxsize=1)
def _logbook_text() -> str:
    return resources.files("crewcheck.missions").joinpath("data", "logbook.json").read_text(encoding="utf-8")


def logbook() -> dict[str, Any]:
    """The logbook file as a fresh dict (sources, placeholders, the 50 missions)."""
    data: dict[str, Any] = json.loads(_logbook_text())
    return data


@lru_cache(maxsize=1)
def missions() -> tuple[Mission, ...]:
    """The 50 missions in order."""
    return tuple(Mission.from_json(m) for m in logbook()["missions"])


def mission(number: int) -> Mission:
    """Mission ``number`` (1..50); :class:`InvalidInputError` for any other number."""
    all_missions = missions()
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(all_missions):
        raise InvalidInputError(f"mission {number!r} does not exist (missions 1..{len(all_missions)})",
                                field="mission")
    return all_missions[number - 1]


def _deck(challenge: bool) -> list[str]:
    colours = [s for s in _COLOURS if not (challenge and s == "G")]
    cards = [f"{s}{v}" for s in colours for v in range(1, 10)]
    return cards + [f"{_TRUMP}{v}" for v in range(2 if challenge else 1, 5)]


def _card_key(card: str) -> tuple[int, int]:
    order = (*_COLOURS, _TRUMP)
    return order.index(card[0]), int(card[1:])


def not_modelled(m: Mission, players: int, *, crew_choices: bool = True) -> list[str]:
    """The rules of ``m`` that a deal for ``players`` leaves out, one sentence each
    (``crew_choices``: as :func:`deal_mission`'s)."""
    out = [f"{u['rule']}: {u['effect']}" for u in m.unsupported]
    if not crew_choices and m.token_move is not None:
        out.append(f"the token {m.token_move} before the draft: left out, so a deal called unwinnable may "
                   "still be won with it")
    if not crew_choices and players == 5 and m.five_player_rule:
        out.append("the five-player rule (one crew member may hand one task to another before the first "
                   "trick): left out, so a deal called unwinnable may still be won with it")
    return out


_DEAL_NAME = re.compile(r"mission-(\d\d)-[2345]p")


def verdict_caveats(deal: Mapping[str, Any]) -> list[str]:
    """What a verdict on a deal file of ``crewcheck mission N`` (known by its ``name``)
    leaves out of the mission's rule, one sentence each: mission 12's random draw;
    ``[]`` for any other deal."""
    name = deal.get("name")
    found = _DEAL_NAME.match(name) if isinstance(name, str) else None
    if found is None or not 1 <= int(found.group(1)) <= len(missions()):
        return []
    m = missions()[int(found.group(1)) - 1]
    return [f"mission {m.number}: this verdict leaves out the {u['rule']}; {u['effect']}" for u in m.unsupported]


def resolve_placeholders(conditions: Sequence[Mapping[str, Any]], hands: Sequence[Sequence[str]],
                         tasks: Sequence[Mapping[str, Any]], commander: int) -> list[dict[str, Any]]:
    """The conditions with the placeholders that the deal decides made concrete.

    ``"commander"`` becomes the commander's seat, ``"left_of:<card>"`` the seat after the
    holder of ``<card>``, and a card ``"token:<token>"`` the task card carrying that
    token. ``"choose"`` and ``"choose_any:<role>"`` are left for the model.
    """
    p = len(hands)
    holder = {card: s for s, hand in enumerate(hands) for card in hand}
    by_token = {t["token"]: t["card"] for t in tasks if "token" in t}
    out = []
    for k, cond in enumerate(conditions):
        c = dict(cond)
        for field in ("seat", "other"):
            v = c.get(field)
            if v == "commander":
                c[field] = commander
            elif isinstance(v, str) and v.startswith("left_of:"):
                card = v.split(":", 1)[1]
                if card not in holder:
                    raise InvalidInputError(f"{v!r}: {card} is not dealt", field=f"conditions[{k}].{field}")
                c[field] = (holder[card] + 1) % p
        card_ref = c.get("card")
        if isinstance(card_ref, str) and card_ref.startswith("token:"):
            token = card_ref.split(":", 1)[1]
            if token not in by_token:
                raise InvalidInputError(f"{card_ref!r}: no task carries the token {token!r}",
                                        field=f"conditions[{k}].card")
            c["card"] = by_token[token]
        out.append(c)
    return out


def deal_mission(number: int, players: int = 4, seed: int = 0, assignment: str | None = None, *,
                 challenge: bool = False, distress: str | None = None, reading: str = "reference",
                 crew_choices: bool = True) -> dict[str, Any]:
    """A seeded random deal of logbook mission ``number`` as a deal-file dict.

    ``assignment`` overrides the mission's (one of :data:`ASSIGNMENTS`); ``challenge``
    deals the 30-card *Challenge for Three* (3 players only); ``distress`` adds the
    distress signal (``"left"``, ``"right"`` or ``"choose"``); ``reading`` is how the
    special rule is read (:data:`READINGS`). With ``crew_choices`` (the default) the deal
    carries the choices the mission leaves the crew before play: the token swap of
    mission 23 and the token move of mission 40 (``"token_move"``), and with five players
    the hand-over of one task (``"handover"``, missions 25-50 with tasks); without, they
    are left out (the crew has fewer options, so an "unwinnable" is a lower bound). See
    the module docstring for the exact procedure. Bad arguments raise
    :class:`InvalidInputError`.
    """
    m = mission(number)
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
        raise InvalidInputError(f"{players!r} players: missions are dealt for 2 (with JARVIS), 3, 4 or 5 "
                                "players", field="players")
    if players not in m.players:
        raise InvalidInputError(f"mission {number} is not played with {players} players "
                                f"(players: {', '.join(map(str, m.players))})", field="players")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"expected an integer seed, got {seed!r}", field="seed")
    if assignment is not None and assignment not in ASSIGNMENTS:
        raise InvalidInputError(f"unknown assignment {assignment!r}; expected one of {', '.join(ASSIGNMENTS)}",
                                field="assignment")
    if challenge and players not in (2, 3):
        raise InvalidInputError(f"the Challenge for Three is for 2 or 3 players, not {players}", field="challenge")
    if reading not in READINGS:
        raise InvalidInputError(f"unknown reading {reading!r}; expected one of {', '.join(READINGS)}",
                                field="reading")
    if distress is not None and distress not in DISTRESS:
        raise InvalidInputError(f"unknown distress direction {distress!r}; expected one of {', '.join(DISTRESS)}",
                                field="distress")
    if distress is not None and players == 2:
        raise InvalidInputError("the distress signal with JARVIS is not modelled", field="distress")

    rng = random.Random(seed)
    cards = _deck(challenge)
    rng.shuffle(cards)
    hands, covered = _deal_cards(cards, players)
    top = f"{_TRUMP}4"
    commander = next(s for s, h in enumerate(hands) if top in h)

    task_deck = [c for c in _deck(challenge) if not c.startswith(_TRUMP)]
    rng.shuffle(task_deck)
    tasks: list[dict[str, Any]] = []
    for k, card in enumerate(task_deck[:m.tasks]):
        task: dict[str, Any] = {"card": card}
        if k < len(m.tokens):
            task["token"] = m.tokens[k]
        tasks.append(task)
    mode = assignment or m.assignment
    if mode == "fixed":
        for k, task in enumerate(tasks):
            task["seat"] = (commander + k) % seats(players)

    conditions = resolve_placeholders(m.conditions_for(reading), hands, tasks, commander)

    deal: dict[str, Any] = {
        "schema": "crewcheck-deal/1",
        "name": f"mission-{number:02d}-{players}p{'-challenge' if challenge else ''}-seed{seed}",
        "comment": _comment(m, players, seed, challenge, commander, mode, crew_choices),
    }
    if not challenge:
        deal["deck"] = "classic"
    deal["hands"] = hands
    deal["trump"] = _TRUMP
    deal["lead"] = "rocket"
    if tasks:
        deal["tasks"] = tasks
        deal["assignment"] = mode
    if conditions:
        deal["conditions"] = conditions
    if covered:
        deal["covered"] = covered
    if distress is not None:
        deal["distress"] = distress
    if crew_choices and m.token_move is not None:
        deal["token_move"] = m.token_move
    if crew_choices and tasks and players == 5 and m.five_player_rule:
        deal["handover"] = True
    return deal


def seats(players: int) -> int:
    """The seats of a deal for ``players``: one more with 2 players (JARVIS)."""
    return 3 if players == 2 else players


def _deal_cards(cards: list[str], players: int) -> tuple[list[list[str]], list[list[str]]]:
    """The shuffled ``cards`` dealt to the seats, and JARVIS's columns as ``[covered,
    covering]`` pairs (none but with 2 players). See the module docstring, step 1."""
    covered: list[list[str]] = []
    if players == 2:
        top = f"{_TRUMP}4"
        size = len(cards) // 3 + (1 if len(cards) == 40 else 0)  # 14 (the lucky guy's extra card), or 10
        jarvis = [c for c in cards if c != top][:size]
        covered = [[jarvis[k], jarvis[k + 1]] for k in range(0, size, 2)]
        cards = [c for c in cards if c not in jarvis]
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(cards):
        hands[k % players].append(card)
    if covered:
        hands.append([c for pair in covered for c in pair])
    return [sorted(h, key=_card_key) for h in hands], covered


def _comment(m: Mission, players: int, seed: int, challenge: bool, commander: int, mode: str | None,
             crew_choices: bool = True) -> str:
    what = [f"{m.tasks} task{'s' if m.tasks != 1 else ''}" if m.tasks else "no task cards"]
    if m.tokens:
        what.append("tokens " + " ".join(m.tokens))
    if mode:
        what.append(f"assignment {mode}")
    head = f"The Crew logbook mission {m.number} ({', '.join(what)})"
    head += f": {m.special_rule}" if m.special_rule else "."
    deck = "Challenge for Three deck (no green, no R1), " if challenge else ""
    jarvis = (f" with JARVIS at seat {JARVIS} (its columns: 'covered'; the commander plays its cards)"
              if players == 2 else "")
    text = (f"{head} {deck}{players} players{jarvis}, seed {seed}, dealt by crewcheck.missions.logbook.deal_mission; "
            f"commander: seat {commander}.")
    left_out = not_modelled(m, players, crew_choices=crew_choices)
    if left_out:
        text += " Not modelled: " + "; ".join(left_out) + "."
    return text
