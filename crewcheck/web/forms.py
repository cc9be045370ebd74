"""The page's inputs as a deal: the deal JSON as pasted, or hands and tasks typed as card
names, turned into the deal file's dict and loaded by the same code as ``crewcheck
decide`` (so the errors are the same one-line messages), plus the layout the page draws.

Typed fields (:func:`fields_to_dict`): one line of cards per seat (``"B1 B7 G3"``), the
tasks as ``CARD@SEAT`` with an optional ``:TOKEN`` (``"G7@1 P9@0:1"``; ``CARD`` alone
under free assignment), the trump suit (empty or ``-`` for none), the first lead (a seat,
``rocket`` or ``any``; empty for the default), the two rule choices, the special-rule
conditions as their JSON list (optional), the cards already played in order (``"B1 B2 B3 B4 G5"``: complete tricks, then the trick in
progress), and the crew's choices and covers when the deal has them: the covered cards as
``CARD<COVER`` (``"B3<G7"``: B3 lies under G7, the notation's form), the distress signal
(``left``, ``right`` or ``choose``), the token choice (``swap`` or ``move``) and the
five-player hand-over (``yes``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from crewcheck.errors import CrewcheckError, InvalidCardError, InvalidDealError, InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.formats.deal_json import history_index
from crewcheck.formats.notation import describe_choices, describe_conditions
from crewcheck.formats.reading import parse_json
from crewcheck.model.cards import Card
from crewcheck.model.instance import Instance
from crewcheck.model.rules import uncovered
from crewcheck.model.variants import play_state, play_variant
from crewcheck.web.choices import has_setup
from crewcheck.web.words import rules_words, words

__all__ = ["fields_to_dict", "instance_to_fields", "load", "layout", "input_of", "with_history", "condition_words",
           "columns", "jarvis_words"]

_SPLIT = re.compile(r"[\s,;|/]+")
_TASK = re.compile(r"([A-Za-z]+[0-9]+)(?:@([0-9]+|\?))?(?::(\S+))?")


def _cards(text: str) -> list[str]:
    return [t.upper() for t in _SPLIT.split(text.strip()) if t]


def fields_to_dict(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The deal file's dict for the typed fields (see the module docstring); raises
    :class:`InvalidDealError` for a field that cannot be read at all."""
    hands_text = fields.get("hands")
    if not isinstance(hands_text, list) or not hands_text or not all(isinstance(h, str) for h in hands_text):
        raise InvalidDealError("expected one line of cards per seat", field="hands")
    data: dict[str, Any] = {"hands": [_cards(h) for h in hands_text]}
    tasks = []
    for j, item in enumerate(_SPLIT.split(str(fields.get("tasks", "")).strip())):
        if not item:
            continue
        m = _TASK.fullmatch(item)
        if m is None:
            raise InvalidDealError(f"{item!r} is not a task: expected CARD@SEAT, e.g. 'G7@1' or 'P9@0:1'",
                                   field=f"tasks[{j}]")
        task: dict[str, Any] = {"card": m.group(1).upper()}
        if m.group(2) not in (None, "?"):
            task["seat"] = int(m.group(2))
        if m.group(3):
            task["token"] = m.group(3)
        tasks.append(task)
    data["tasks"] = tasks
    trump = str(fields.get("trump", "")).strip()
    if trump in ("-", "none", "None"):
        data["trump"] = None
    elif trump:
        data["trump"] = trump.upper()
    lead = str(fields.get("lead", "")).strip().lower()
    if lead:
        data["lead"] = int(lead) if lead.isascii() and lead.isdigit() and len(lead) <= 30 else lead
    for key in ("assignment", "order_rule"):
        value = str(fields.get(key, "")).strip()
        if value:
            data[key] = value
    conditions = str(fields.get("conditions", "")).strip()
    if conditions:
        try:
            data["conditions"] = parse_json(conditions, "conditions")
        except InvalidInputError as e:
            raise InvalidDealError(e.reason, field="conditions") from None
    data.update(_choices(fields))
    played = _cards(str(fields.get("played", "")))
    if played:
        data.update(_tricks(data, played))
    return data


def _choices(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The covers and the crew's choices among the typed fields, as the deal file writes
    them (the loader judges the values)."""
    out: dict[str, Any] = {}
    covered = []
    for j, item in enumerate(_SPLIT.split(str(fields.get("covered", "")).strip())):
        if not item:
            continue
        low, sep, high = item.partition("<")
        if not sep or not low or not high:
            raise InvalidDealError(f"{item!r} is not a cover: expected CARD<COVER, e.g. 'B3<G7'",
                                   field=f"covered[{j}]")
        covered.append([low.upper(), high.upper()])
    if covered:
        out["covered"] = covered
    for key in ("distress", "token_move"):
        value = str(fields.get(key, "")).strip().lower()
        if value:
            out[key] = value
    handover = str(fields.get("handover", "")).strip().lower()
    if handover not in _NO:
        if handover not in _YES:
            raise InvalidDealError(f"expected 'yes' or 'no', got {handover[:40]!r}", field="handover")
        out["handover"] = True
    return out


_YES = ("yes", "true", "1", "on")
_NO = ("", "no", "false", "0", "off")


def _tricks(data: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """``played`` and ``current`` for a flat list of cards. The leads are found by
    replaying as far as the cards are legal; an illegal card is left for the loader to
    report, at its place."""
    p = len(data["hands"])
    base = {k: v for k, v in data.items() if k not in ("played", "current")}
    leads: list[int] = []
    try:
        inst = deal_json.from_dict(base)
        state = play_state(inst)
        for n, text in enumerate(cards):
            card = -1
            if n % p == 0:
                lead = state.leader
                if lead is None:
                    card = inst.deck.index(Card.parse(text))
                    lead = inst.holder[card]
                leads.append(lead)
            state = state.apply(inst.deck.index(Card.parse(text)) if card < 0 else card)
    except (CrewcheckError, ValueError, KeyError):
        pass
    out: dict[str, Any] = {"played": []}
    for k in range(0, len(cards), p):
        lead = leads[k // p] if k // p < len(leads) else 0
        chunk = cards[k:k + p]
        trick = {"lead": lead, "cards": chunk}
        if len(chunk) == p:
            out["played"].append(trick)
        else:
            out["current"] = trick
    if not out["played"]:
        del out["played"]
    return out


def instance_to_fields(instance: Instance) -> dict[str, Any]:
    """The typed fields that describe ``instance`` (to fill the form)."""
    deck = instance.deck
    tasks = []
    for t in instance.tasks:
        text = str(deck.card(t.card)) + ("" if t.seat is None else f"@{t.seat}")
        tasks.append(text + (f":{t.token}" if t.token else ""))
    return {
        "hands": [deck.format_mask(h) for h in instance.hands],
        "tasks": " ".join(tasks),
        "trump": instance.trump or "-",
        "lead": str(instance.lead),
        "assignment": instance.rules.assignment,
        "order_rule": instance.rules.order_rule,
        "played": " ".join(str(deck.card(c)) for c in instance.history),
        "conditions": json.dumps(deal_json.to_dict(instance)["conditions"]) if instance.conditions else "",
        "covered": " ".join(f"{deck.card(low)}<{deck.card(high)}" for low, high in instance.covered),
        "distress": instance.distress or "",
        "token_move": instance.token_move or "",
        "handover": "yes" if instance.handover else "",
    }


def input_of(field: str, mode: str) -> str:
    """The page input next to which an error at JSON path ``field`` is shown (``mode``
    ``"game"``: a new game's parameter, shown by the input of that name)."""
    if mode == "json":
        return "json"
    if mode == "game":
        return f"game.{field}" if field else "game"
    m = re.match(r"hands\[(\d+)\]", field)
    if m:
        return f"hands.{m.group(1)}"
    for name in ("tasks", "trump", "lead", "assignment", "order_rule", "conditions", "covered", "distress", "token_move", "handover"):
        if field.startswith(name):
            return name
    if field.startswith(("played", "current", "history")):
        return "played"
    return "hands.0" if field in ("hands", "deck") else "deal"


def load(body: Mapping[str, Any]) -> tuple[Instance, str]:
    """The instance a request describes and its input mode (``"json"`` or ``"fields"``):
    ``{"deal": <deal file text or object>}`` or ``{"fields": {...}}``. Errors are the
    loader's, with the index of an illegal card of the history."""
    if "fields" in body:
        mode = "fields"
        if not isinstance(body["fields"], Mapping):
            raise InvalidDealError("expected an object of fields", field="deal")
        data: Any = fields_to_dict(body["fields"])
    else:
        mode = "json"
        deal = body.get("deal")
        if isinstance(deal, str):  # the deal file's text: read as a file is
            data = parse_json(deal)
        else:
            data = deal
        if not isinstance(data, dict):
            raise InvalidDealError(f"expected a JSON object, got {type(data).__name__}", field="deal")
        data = deal_json.split_line(data)[1]  # a line of a deal stream: its id and seed set aside
    try:
        return deal_json.from_dict(data), mode
    except InvalidDealError as e:
        index = history_index(data, e.field)
        if index is None:
            raise
        error = InvalidDealError(f"{e.reason} (card {index + 1} of the game)", field=e.field, status=e.status)
        error.index = index  # type: ignore[attr-defined]
        raise error from None


def with_history(instance: Instance, cards: Any) -> Instance:
    """``instance`` with its history replaced by ``cards`` (card names, from the first
    card of the game): a position on a line the page shows."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise InvalidDealError("expected a list of card names", field="history")
    history = []
    for n, text in enumerate(cards):
        try:
            card = Card.parse(text)
        except InvalidCardError as e:
            raise InvalidCardError(e.args[0], field=f"history[{n}]") from None
        if card not in instance.deck:
            raise InvalidDealError(f"{text!r} is not dealt to any hand", field=f"history[{n}]")
        history.append(instance.deck.index(card))
    try:
        return instance.with_history(history)
    except InvalidDealError as e:
        index = history_index({"hands": list(instance.hands)}, e.field)
        if index is None:
            raise
        raise InvalidDealError(f"{e.reason} (card {index + 1} of the game)", field=f"history[{index}]",
                               status=e.status) from None


def condition_words(instance: Instance) -> list[str]:
    """The deal's conditions (special rules) and the choices the rules leave the crew, in
    words, one sentence each, as the page shows them: the command line's own wording
    (:func:`crewcheck.formats.notation.describe_conditions` and ``describe_choices``) in
    the board's words (:func:`crewcheck.web.words.words`: seats from 1), with the first
    letter raised and a full stop."""
    out = []
    for line in describe_conditions(instance) + describe_choices(instance):
        text = words(line.strip()) or ""
        out.append(text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))
    return out


TASK_STATES = ("done", "failed", "open")
"""A task on the board: taken by its seat, lost (taken by another seat, by a seat with
no room for it, or against its order token), or its card still out."""


def _tricks_played(instance: Instance) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The complete tricks of the history (lead, cards, winner) and the seat that won
    each card played in them."""
    deck = instance.deck
    tricks: list[dict[str, Any]] = []
    won_by: dict[int, int] = {}
    walk = play_variant(instance).initial_state()
    for c in instance.history:
        trick = (*walk.trick, c)
        lead = walk.leader if walk.leader is not None else instance.holder[c]
        walk = walk.apply(c)
        if len(trick) == instance.players:
            tricks.append({"lead": lead, "cards": [str(deck.card(x)) for x in trick], "winner": walk.leader})
            won_by.update((x, walk.leader) for x in trick if walk.leader is not None)
    return tricks, won_by


def task_status(instance: Instance, state: Any, won_by: Mapping[int, int]) -> list[str]:
    """Each task's state (:data:`TASK_STATES`) after the history: a task whose card was
    won is ``"failed"`` when the game ended on it, or when a seat other than its own won
    it; else ``"done"``. The model's ``done`` mask alone says only that the card was won."""
    end = state.end
    failed = end.failed_task if end is not None and not end.won else None
    out = []
    for i, t in enumerate(instance.tasks):
        if not state.done >> i & 1:
            out.append("open")
        elif i == failed or (t.seat is not None and won_by.get(t.card, t.seat) != t.seat):
            out.append("failed")
        else:
            out.append("done")
    return out


def end_words(instance: Instance, end: Any, tasks: list[dict[str, Any]]) -> str:
    """How the game ended, in a player's words (``tasks``: the layout's, with the seat
    that won each task card): ``"task B6 was won by seat 1, who could not take it"``."""
    if end.won or end.failed_task is None or end.termination.value != "task failed":
        return words(end.describe(instance).split(": ", 1)[-1]) or ""
    t = tasks[end.failed_task]
    owner = t["seat"]
    by = t["won_by"]
    if owner is not None:
        return f"task {t['card']} was won by seat {by + 1}, not by seat {owner + 1}, whose task it is"
    return f"task {t['card']} was won by seat {by + 1}, who had no room for another task"


def columns(instance: Instance, state: Any, seat: int) -> list[list[dict[str, Any]]]:
    """The cards of ``seat`` that lie in columns (the deal's ``covered``: JARVIS's in the
    two-player game), each column from its top card down, in the deal's order; ``[]``
    when no card of the seat is covered. Each card: ``card``, ``held`` (not yet played)
    and ``face_up``: no card still on it when the trick in progress began (a card turns
    up at the end of the trick its cover went in, so only a face-up card may be played,
    :func:`crewcheck.model.rules.uncovered`)."""
    hand = instance.hands[seat]
    mine = [(low, high) for low, high in instance.covered if hand >> high & 1]
    if not mine:
        return []
    under = {high: low for low, high in mine}
    lying = {low for low, _ in mine}
    in_trick = sum(1 << c for c in state.trick if hand >> c & 1)
    face_up = uncovered(state.hands[seat] | in_trick, instance.covered)
    deck = instance.deck
    out = []
    for top in [high for _, high in mine if high not in lying]:
        column, card = [], top
        while True:
            column.append({"card": str(deck.card(card)), "held": bool(state.hands[seat] >> card & 1),
                           "face_up": bool(face_up >> card & 1)})
            if card not in under:
                break
            card = under[card]
        out.append(column)
    return out


def jarvis_words(instance: Instance, seat: int) -> str:
    """The two-player game with JARVIS in a player's words (seats from 1): who JARVIS
    is, that the commander plays its cards, and when a card under another may be played."""
    commander = "the commander" if instance.commander is None else f"the commander (seat {instance.commander + 1})"
    return (f"Two players with JARVIS: seat {seat + 1} is JARVIS, whose cards lie in columns, a face-up card "
            f"on a face-down one; {commander} plays JARVIS's cards on its turn. A card under another turns up, "
            "and may be played, once the card on it went in an earlier trick.")


def layout(instance: Instance) -> dict[str, Any]:
    """What the page draws: the hands by suit with task marks, each seat's score (tricks
    won; tasks held, done, failed and open), the tasks with their state
    (:func:`task_status`) and the seat that won each, the tricks played and the trick in
    progress (``trick``: its number, from 1), whose turn it is, the commander and the
    tasks each seat drafts (``quota``, free assignment), whether the crew has choices
    to make before the first card (``setup``: :mod:`crewcheck.web.choices`), and the
    deal file, and the seat whose cards lie in columns (``jarvis``: JARVIS's seat and the
    two-player game in words, :func:`jarvis_words`; each seat's ``columns``, :func:`columns`).
    Seats are numbered from 0 as in the deal file; the page shows them from 1."""
    deck = instance.deck
    state = play_state(instance)
    task_of = {t.card: (i, t) for i, t in enumerate(instance.tasks)}
    seats: list[dict[str, Any]] = []
    for seat, hand in enumerate(instance.hands):
        suits = []
        for s, name in enumerate(deck.suits):
            cards = []
            for c in range(deck.size):
                if deck.suit_of(c) != s or not hand >> c & 1:
                    continue
                entry: dict[str, Any] = {"card": str(deck.card(c)), "held": bool(state.hands[seat] >> c & 1)}
                if c in task_of:
                    i, t = task_of[c]
                    entry["task"] = {"seat": t.seat, "token": t.token, "index": i}
                cards.append(entry)
            suits.append({"suit": name, "cards": cards})
        seats.append({"seat": seat, "suits": suits, "columns": columns(instance, state, seat)})
    tricks, won_by = _tricks_played(instance)
    jarvis = next((box["seat"] for box in seats if box["columns"]), None)
    p = instance.players
    rest = instance.history[len(tricks) * p:]
    status = task_status(instance, state, won_by)
    owners = state.owners or ()
    tasks = [{"card": str(deck.card(t.card)), "seat": t.seat, "token": t.token,
              "status": status[i], "done": status[i] == "done",
              "won_by": won_by.get(t.card),
              "taken_by": owners[i] if i < len(owners) and owners[i] >= 0 else None}
             for i, t in enumerate(instance.tasks)]
    for box in seats:
        mine = [t for t in tasks if (t["seat"] if t["seat"] is not None else t["taken_by"]) == box["seat"]]
        box["score"] = {"tricks": sum(1 for t in tricks if t["winner"] == box["seat"]), "tasks": len(mine),
                        **{k: sum(1 for t in mine if t["status"] == k) for k in TASK_STATES}}
    return {
        "players": p,
        "suits": list(deck.suits),
        "trump": instance.trump,
        "first_leader": instance.first_leader,
        "rules": str(instance.rules),
        "rules_words": rules_words(instance.rules, any(t.token for t in instance.tasks)),
        "seats": seats,
        "tasks": tasks,
        "conditions": condition_words(instance),
        "tricks": tricks,
        "current": None if not rest else {"lead": state.leader,
                                          "cards": [str(deck.card(c)) for c in rest]},
        "to_play": state.to_play,
        "trick": state.tricks_played + 1,
        "commander": instance.commander,
        "jarvis": None if jarvis is None else {"seat": jarvis, "words": jarvis_words(instance, jarvis)},
        "setup": has_setup(instance),
        "quota": None if instance.task_counts is None else list(instance.task_counts),
        "over": None if state.end is None else state.end.describe(instance),
        "over_words": None if state.end is None else end_words(instance, state.end, tasks),
        "won": None if state.end is None else state.end.won,
        "legal": [str(deck.card(c)) for c in range(deck.size) if state.legal_mask() >> c & 1],
        "history": [str(deck.card(c)) for c in instance.history],
        "deal": deal_json.to_dict(instance),
        "fields": instance_to_fields(instance),
    }
