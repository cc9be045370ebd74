"""The games the page offers: a seeded deal of a logbook mission (for 3 to 5 players, or the
two-player game with JARVIS), a random Classic deal by number of tasks (3 to 5 players),
or a Deep Sea deal, each as a deal-file dict dealt by the same code as
the command line (:func:`crewcheck.missions.logbook.deal_mission`,
:func:`crewcheck.agents.simulate.deal`, :func:`crewcheck.agents.deepsea.deal_deepsea`).

A request names the game and its parameters (``{"game": "mission", "mission": 1,
"players": 4, "seed": 0}``); the same names are the query parameters of the page's
links, so a link deals the same game again. :func:`new_game` dispatches on ``game``
through :data:`GAMES`; a bad parameter is an :class:`~crewcheck.errors.InvalidInputError`
naming it.

A mission for two players is the two-player game with JARVIS as ``crewcheck mission N
--players 2`` deals it: JARVIS is seat 2, its cards in columns (the deal's ``covered``),
played by the commander. What the model leaves out with JARVIS is refused by name: the
distress signal, and mission 12, whose draw has JARVIS give a random face-down card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from crewcheck.errors import InvalidInputError

__all__ = ["GAMES", "new_game", "mission_list", "MAX_SEED", "MAX_CLASSIC_TASKS", "READING_NOTES", "JARVIS_PLAYERS"]

MAX_CLASSIC_TASKS = 12
"""The most tasks of a random Classic deal (as ``crewcheck deals``/``simulate`` allow)."""
READING_NOTES = {
    29: "This board plays the rule as Board Game Arena does: a crew member may be two tricks ahead of "
        "another, and the game is lost at three. Read word for word, two ahead already loses.",
    34: "This board plays the rule as Board Game Arena does: a crew member may be two tricks ahead of "
        "another, and the game is lost at three. Read word for word, two ahead already loses.",
    46: "This board plays the rule as Board Game Arena does: only the pink cards played count, so with "
        "three players (or two with JARVIS) a pink card left as the unplayed 14th card does not lose. Read "
        "word for word, it does.",
}
"""Where the rule's words and the reference reading differ, the note the page shows (the
missions' ``readings``: :data:`crewcheck.missions.logbook.READINGS`)."""
READING_LABELS = {"reference": "as Board Game Arena reads it", "literal": "word for word"}
"""The readings of a special rule (:data:`crewcheck.missions.logbook.READINGS`) in words."""
DRAW_MISSION = 12
"""The mission whose rule draws a card from the right-hand neighbour after the first
trick: the board offers the draw there (:mod:`crewcheck.web.draw`)."""
JARVIS_PLAYERS = 2
"""The player count of the two-player game with JARVIS (a third seat, seat 2, whose
cards the commander plays)."""
MAX_SEED = 2**53 - 1
"""The largest seed accepted (the largest integer a page's JavaScript keeps exactly)."""


def _int(body: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    """``body[name]`` as an integer in ``low..high`` (an integer written as a string too,
    as a link's query parameter is)."""
    value = body.get(name, default)
    if isinstance(value, str) and value.strip().isascii() and value.strip().lstrip("-").isdigit() \
            and len(value.strip()) <= 20:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInputError(f"expected an integer from {low} to {high}, got {value!r}", field=name)
    return value


def _choice(body: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: str | None) -> str | None:
    value = body.get(name, default)
    if value in (None, ""):
        return default
    if value not in allowed:
        raise InvalidInputError(f"expected one of {', '.join(allowed)}, got {value!r}", field=name)
    return str(value)


def _mission(body: Mapping[str, Any]) -> dict[str, Any]:
    from crewcheck.missions.logbook import (ASSIGNMENTS, DISTRESS, READINGS, deal_mission, mission,
                                            not_modelled)

    number = _int(body, "mission", 1, 1, 50)
    m = mission(number)
    players = _int(body, "players", 4 if 4 in m.players else m.players[0], JARVIS_PLAYERS, 5)
    seed = _int(body, "seed", 0, 0, MAX_SEED)
    assignment = _choice(body, "assignment", ASSIGNMENTS, None)
    read = _choice(body, "reading", READINGS, "reference") or "reference"
    distress = _choice(body, "distress", DISTRESS, None)
    if players == JARVIS_PLAYERS:
        _jarvis_refusals(number, distress)
    deal = deal_mission(number, players, seed, assignment, reading=read, distress=distress)
    who = "2 players with JARVIS" if players == JARVIS_PLAYERS else f"{players} players"
    title = f"Mission {number}, {who}, seed {seed}" + (", the rule word for word" if read != "reference" else "")
    reading = READING_NOTES.get(number) if m.readings else None
    if reading and number == 46 and players > 3:
        reading = None  # the readings agree with four or five players (three seats, JARVIS's among them, differ)
    other = None
    if reading:  # the other reading's deal, decided beside the board's (side by side)
        name = next(r for r in READINGS if r != read)
        other = {"reading": name, "deal": deal_mission(number, players, seed, assignment, reading=name,
                                                       distress=distress),
                 "label": READING_LABELS[name]}
    return {"deal": deal, "title": title, "rule": m.special_rule, "notes": not_modelled(m, players),
            "reading": reading, "read": read, "other": other, "draw": number == DRAW_MISSION,
            "params": {"game": "mission", "mission": number, "players": players, "seed": seed,
                       "assignment": assignment or "", "reading": "" if read == "reference" else read,
                       "distress": distress or ""}}


def _jarvis_refusals(number: int, distress: str | None) -> None:
    """Refuse what the two-player game with JARVIS leaves out, naming the parameter: the
    distress signal (the commander would pass a face-up card of JARVIS's) and mission
    12's draw (JARVIS would give a random face-down card)."""
    if distress is not None:
        raise InvalidInputError("the distress signal with JARVIS (2 players) is not modelled: choose no distress "
                                "signal, or 3 to 5 players", field="distress")
    if number == DRAW_MISSION:
        raise InvalidInputError(f"mission {DRAW_MISSION}'s draw with JARVIS (2 players), who gives a random "
                                "face-down card, is not modelled: choose 3 to 5 players", field="players")


def _classic(body: Mapping[str, Any]) -> dict[str, Any]:
    from crewcheck.agents.simulate import deal, setup_instance
    from crewcheck.formats import deal_json

    players = _int(body, "players", 4, 3, 5)  # simulate.deal's two players are no game with JARVIS
    tasks = _int(body, "tasks", 3, 0, MAX_CLASSIC_TASKS)
    seed = _int(body, "seed", 0, 0, MAX_SEED)
    assignment = _choice(body, "assignment", ("fixed", "free"), "fixed")
    setup = deal(players, tasks, seed, "classic")
    # fixed: the commander takes the first task, the next seat the second, ... (as a mission deals them)
    owners = None if assignment == "free" else [(setup.commander + k) % players for k in range(tasks)]
    out = deal_json.to_dict(setup_instance(setup, owners))
    out["name"] = f"classic-{players}p-{tasks}t-seed{seed}"
    out["comment"] = (f"A random Classic deal: {players} players, {tasks} task{'s' if tasks != 1 else ''} "
                      f"({assignment}), seed {seed}, dealt by crewcheck.agents.simulate.deal; "
                      f"commander: seat {setup.commander}.")
    return {"deal": out, "title": f"Classic deal, {players} players, {tasks} tasks, seed {seed}", "rule": None,
            "notes": [], "params": {"game": "classic", "players": players, "tasks": tasks, "seed": seed,
                                    "assignment": assignment}}


def _deepsea(body: Mapping[str, Any]) -> dict[str, Any]:
    from crewcheck.agents.deepsea import TASK_IDS, DeepSeaRules, assignments, build_instance, deal_deepsea, \
        seed_tasks
    from crewcheck.formats import deal_json

    cards = _int(body, "cards", 10, 1, 10)
    seed = _int(body, "seed", 0, 0, MAX_SEED)
    dealt = deal_deepsea(cards, seed)
    rules = DeepSeaRules()
    choices = assignments(dealt, rules)
    owners_index = _int(body, "owners", 0, 0, max(0, len(choices) - 1))
    owners = choices[owners_index] if choices else ()
    built = build_instance(dealt, owners, rules)
    out = deal_json.to_dict(built.instance)
    names = [TASK_IDS[t] for t in dealt.tasks]
    catalogue = seed_tasks()
    texts = [f"{n} (seat {s}): {catalogue[n].get('text', n)}" for n, s in zip(names, owners)]
    out["name"] = f"deepsea-{cards}c-seed{seed}-owners{owners_index}"
    out["comment"] = (f"A Deep Sea deal (Harvill & Vivek's simplified tasks): {cards} cards each, seed {seed}, "
                      f"dealt by crewcheck.agents.deepsea.deal_deepsea; captain: seat {dealt.captain}; "
                      f"tasks {'; '.join(texts) or 'none'}.")
    notes = [f"cannot be won: {built.impossible}"] if built.impossible else []
    options = [", ".join(f"{n} to seat {s}" for n, s in zip(names, o)) for o in choices]
    return {"deal": out, "title": f"Deep Sea, {cards} cards each, seed {seed}", "rule": "; ".join(texts) or None,
            "notes": notes, "options": options,
            "params": {"game": "deepsea", "cards": cards, "seed": seed, "owners": owners_index}}


GAMES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "mission": _mission,
    "classic": _classic,
    "deepsea": _deepsea,
}
"""Game name -> dealer of ``{"deal", "title", "rule", "notes", "params"}``."""


def new_game(body: Mapping[str, Any]) -> dict[str, Any]:
    """The game ``body`` asks for: ``{"deal": <deal-file dict>, "title", "rule" (the
    special rule in words, or ``None``), "notes" (rules the deal leaves out), for a
    mission "reading" (:data:`READING_NOTES`: how the board reads a rule whose words read
    otherwise, or ``None``), "read" (the reading played), "other" (where the readings
    differ: the other reading's ``{"reading", "deal", "label"}``, which the page decides
    beside the board's, else ``None``) and "draw" (whether the draw of
    :data:`DRAW_MISSION` follows the first trick), "params"
    (the parameters as dealt, defaults filled in: the query of a link to this game)}``,
    and for Deep Sea ``"options"`` (each way the task phase can hand the tasks out;
    ``owners`` picks one)."""
    game = body.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidInputError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}", field="game")
    return GAMES[game](body)


def mission_list() -> list[dict[str, Any]]:
    """The 50 missions for the picker: number, tasks, tokens, assignment, player counts,
    special rule."""
    from crewcheck.missions.logbook import missions

    return [{"number": m.number, "tasks": m.tasks, "tokens": list(m.tokens), "assignment": m.assignment,
             "players": list(m.players), "rule": m.special_rule,
             "communication": m.describe_communication()} for m in missions()]
