"""The deal file: JSON <-> :class:`~crewcheck.model.Instance`.

Loading is two steps: the shape is checked against ``deal.schema.json`` (next to this
module, shipped in the wheel), then the rules are checked by building the instance (a
valid shape can still be an impossible deal). Every problem raises an
:class:`~crewcheck.errors.InvalidInputError` whose message starts with the JSON path of
the offending value, e.g. ``tasks[3].card: 'B0' is not a card``.

Examples
--------
>>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}')
>>> deal.players, deal.lead, deal.trump
(2, 0, None)
>>> loads(dumps(deal)) == deal
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from crewcheck.errors import IllegalPlayError, InvalidCardError, InvalidDealError, InvalidInputError
from crewcheck.formats.reading import MAX_DEAL_BYTES, decode, json_path, parse_json, read_bytes, short_repr
from crewcheck.model.cards import CLASSIC_SIZES, Card, Deck
from crewcheck.model.conditions import Condition, condition_from_json, condition_to_json
from crewcheck.model.instance import Instance
from crewcheck.model.limits import MAX_CONDITIONS, MAX_CONDITIONS_BYTES
from crewcheck.model.rules import Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import Task

__all__ = ["SCHEMA_ID", "schema", "from_dict", "with_conditions", "to_dict", "load", "load_with_text", "loads", "dump", "dumps", "history_index",
           "LINE_KEYS", "split_line", "to_line"]

SCHEMA_ID = "crewcheck-deal/1"
_CARD_PATTERN = "^[A-Za-z]+[1-9][0-9]*$"


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The deal JSON Schema."""
    text = resources.files("crewcheck.formats").joinpath("deal.schema.json").read_text()
    return json.loads(text)  # type: ignore[no-any-return]


_path = json_path


@lru_cache(maxsize=1)
def _validator() -> Any:
    """The schema's validator, with JSON's "integer" read strictly: ``2.0`` and ``1e0``
    are numbers but not integers here (JSON Schema counts them as integers, and they
    would reach the model as floats)."""
    from jsonschema import Draft202012Validator, validators

    def is_integer(checker: Any, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer)
    strict = validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    return strict(schema())


def _check_shape(data: Any) -> None:
    if isinstance(data.get("conditions"), list):
        # conditions get the precise messages of condition_from_json, within its bounds;
        # the schema's check of each one (milliseconds a condition) is not run
        data = {**data, "conditions": []}
    errors = sorted(_validator().iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    if not errors:
        return
    err = errors[0]
    if err.validator == "oneOf" and isinstance(err.instance, dict):
        # {"deck": {"B": 2.0}}: the object branch's own error names the key
        inner = [e for e in err.context or () if len(e.absolute_path) > len(err.absolute_path)]
        if inner:
            err = min(inner, key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    where = _path(err.absolute_path)
    v = err.validator
    if v == "additionalProperties":
        allowed = set(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in allowed)
        msg = f"unknown key {short_repr(extra[0])}; allowed: {', '.join(sorted(allowed))}"
    elif v == "required":
        msg = err.message.replace(" is a required property", "") + " is required"
        msg = f"missing key {msg.split(' ')[0]}"
    elif v == "type":
        msg = f"expected {err.validator_value}, got {short_repr(err.instance)}"
    elif v == "pattern" and err.validator_value == _CARD_PATTERN:
        msg = f"{short_repr(err.instance)} is not a card (a suit name in letters followed by a value from 1, e.g. 'B7')"
    elif v == "pattern":
        msg = f"{short_repr(err.instance)} is not a suit name (letters only)"
    elif v in ("enum", "const", "oneOf"):
        msg = f"unexpected value {short_repr(err.instance)}"
        options = err.schema.get("enum")
        if options:
            msg += f"; expected one of {', '.join(map(str, options))}"
        elif where == "lead":
            msg += "; expected a seat number, 'rocket' or 'any'"
        elif where == "deck":
            msg += "; expected 'classic' or an object such as {\"B\": 9, \"R\": 4}"
    elif v == "minItems" and where == "hands":
        msg = f"need at least 2 hands, got {len(err.instance)}"
    else:
        msg = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    raise InvalidDealError(msg, field=where or "deal")


def _card(text: str, where: str) -> Card:
    try:
        return Card.parse(text)
    except InvalidCardError as e:
        raise InvalidCardError(str(e), field=where) from None


def _check_conditions_bound(data: Mapping[str, Any]) -> None:
    """Refuse more than :data:`~crewcheck.model.limits.MAX_CONDITIONS` conditions, or
    more than :data:`~crewcheck.model.limits.MAX_CONDITIONS_BYTES` of them as JSON,
    before any of them is read (each one costs every later step)."""
    conditions = data.get("conditions")
    if not isinstance(conditions, list):
        return
    if len(conditions) > MAX_CONDITIONS:
        raise InvalidDealError(f"{len(conditions):,} conditions is more than the limit of {MAX_CONDITIONS}",
                               field="conditions")
    size = len(json.dumps(conditions, separators=(",", ":")).encode())
    if size > MAX_CONDITIONS_BYTES:
        raise InvalidDealError(f"{size:,} bytes of conditions is more than the limit of "
                               f"{MAX_CONDITIONS_BYTES:,}", field="conditions")


def from_dict(data: Mapping[str, Any]) -> Instance:
    """Build and validate an :class:`Instance` from a parsed deal file."""
    if not isinstance(data, Mapping):
        raise InvalidDealError(f"expected a JSON object, got {type(data).__name__}", field="deal")
    _check_conditions_bound(data)
    _check_shape(data)
    hands_cards: list[list[Card]] = []
    where_dealt: dict[Card, str] = {}
    for s, hand in enumerate(data["hands"]):
        cards = []
        for k, text in enumerate(hand):
            card = _card(text, f"hands[{s}][{k}]")
            if card in where_dealt:
                other = where_dealt[card]
                again = "twice in" if other.startswith(f"hands[{s}]") else "also dealt to"
                target = f"hands[{s}]" if again == "twice in" else other.split("]")[0] + "]"
                raise InvalidDealError(f"card {str(card)!r} is {again} {target}", field=f"hands[{s}][{k}]")
            where_dealt[card] = f"hands[{s}][{k}]"
            cards.append(card)
        hands_cards.append(cards)
    if "deck" in data:
        spec = data["deck"]
        declared = Deck.from_sizes(CLASSIC_SIZES if spec == "classic" else spec)
        for card, where in where_dealt.items():
            if card.suit not in declared.suits:
                raise InvalidDealError(f"unknown suit {card.suit!r} in {str(card)!r}; the deck has "
                                       f"{', '.join(declared.suits)}", field=where)
            if card not in declared:
                raise InvalidDealError(f"{str(card)!r} is not in the deck", field=where)
        missing = [str(c) for c in declared.cards if c not in where_dealt]
        if missing:
            raise InvalidDealError(f"{len(missing)} card(s) of the deck are not dealt: "
                                   f"{' '.join(missing[:8])}", field="deck")
    deck = Deck.from_cards(where_dealt)
    hands = tuple(deck.mask_of(cards) for cards in hands_cards)

    if "trump" in data:
        trump = data["trump"]
        if trump is not None and trump not in deck.suits:
            raise InvalidDealError(f"unknown suit {trump!r}: no card of it is dealt "
                                   f"(suits: {', '.join(deck.suits)})", field="trump")
    else:
        trump = "R" if "R" in deck.suits else None
    lead = data.get("lead", "rocket" if trump is not None else 0)
    if lead == "rocket" and trump is None:
        raise InvalidDealError("'rocket' needs a trump suit; this deal has none", field="lead")
    if isinstance(lead, int) and lead >= len(hands):
        raise InvalidDealError(f"seat {lead} does not exist (seats 0..{len(hands) - 1})", field="lead")
    rules = Rules(order_rule=data.get("order_rule", "strict"), assignment=data.get("assignment", "fixed"))

    tasks = []
    for j, t in enumerate(data.get("tasks", [])):
        card = _card(t["card"], f"tasks[{j}].card")
        if card not in deck:
            raise InvalidDealError(f"{str(card)!r} is not dealt to any hand", field=f"tasks[{j}].card")
        tasks.append(Task(deck.index(card), t.get("seat"), t.get("token")))
    card_index = _card_index(deck)
    conditions = _conditions(data.get("conditions", []), card_index)
    covered = tuple((card_index(low, f"covered[{j}][0]"), card_index(high, f"covered[{j}][1]"))
                    for j, (low, high) in enumerate(data.get("covered", [])))
    base = Instance(deck, hands, tuple(tasks), trump, lead, rules, conditions=conditions,
                    distress=data.get("distress"), token_move=data.get("token_move"),
                    handover=bool(data.get("handover", False)), covered=covered)

    history = _history(base, data)
    return base.with_history(history) if history else base


def with_conditions(base: Instance, conditions: list[Any]) -> Instance:
    """``base`` with, in place of its conditions, those of a deal file's ``"conditions"``
    list, read and checked as :func:`from_dict` reads them (a deal that differs only in
    its conditions, such as a Deep Sea taking, is not read again whole)."""
    _check_conditions_bound({"conditions": conditions})
    return replace(base, conditions=_conditions(conditions, _card_index(base.deck)))


def _card_index(deck: Deck) -> Callable[[Any, str], int]:
    """Reads a card name at a JSON path as the deck's index of that card."""
    def card_index(text: Any, where: str) -> int:
        card = _card(text, where)
        if card not in deck:
            raise InvalidDealError(f"{str(card)!r} is not dealt to any hand", field=where)
        return deck.index(card)

    return card_index


def _conditions(items: list[Any], card_index: Callable[[Any, str], int]) -> tuple[Condition, ...]:
    return tuple(condition_from_json(c, f"conditions[{j}]", card_index) for j, c in enumerate(items))


def _history(base: Instance, data: Mapping[str, Any]) -> list[int]:
    tricks = [(f"played[{k}]", t) for k, t in enumerate(data.get("played", []))]
    if "current" in data:
        tricks.append(("current", data["current"]))
    p = base.players
    state = State.initial(base.without_choices())
    history: list[int] = []
    for where, trick in tricks:
        cards = [_card(c, f"{where}.cards[{i}]") for i, c in enumerate(trick["cards"])]
        if where == "current" and len(cards) >= p:
            raise InvalidDealError(f"a trick in progress has fewer than {p} cards, got {len(cards)}; "
                                   "complete tricks go in 'played'", field="current.cards")
        if where != "current" and len(cards) != p:
            raise InvalidDealError(f"expected {p} cards (one per seat), got {len(cards)}", field=f"{where}.cards")
        if state.is_terminal():
            assert state.end is not None
            raise InvalidDealError(f"the game already ended ({state.end.describe(base.without_choices())})", field=where)
        lead = trick["lead"]
        if state.leader is not None and lead != state.leader:
            why = "the first leader" if not history else "the winner of the previous trick"
            raise InvalidDealError(f"expected seat {state.leader} ({why}), got {lead}", field=f"{where}.lead")
        if lead >= p:
            raise InvalidDealError(f"seat {lead} does not exist (seats 0..{p - 1})", field=f"{where}.lead")
        for i, card in enumerate(cards):
            field = f"{where}.cards[{i}]"
            if card not in base.deck:
                raise InvalidDealError(f"{str(card)!r} is not dealt to any hand", field=field)
            index = base.deck.index(card)
            if i == 0 and base.holder[index] != lead:
                raise InvalidDealError(f"{str(card)!r} is held by seat {base.holder[index]}, "
                                       f"not by the leader seat {lead}", field=field)
            try:
                state = state.apply(index)
            except IllegalPlayError as e:
                raise InvalidDealError(str(e), field=field) from None
            history.append(index)
        if "winner" in trick and where != "current" and trick["winner"] != state.leader:
            raise InvalidDealError(f"seat {state.leader} wins this trick, not seat {trick['winner']}",
                                   field=f"{where}.winner")
    return history


def to_dict(instance: Instance) -> dict[str, Any]:
    """The deal file of ``instance`` (every option written out)."""
    deck = instance.deck
    out: dict[str, Any] = {
        "schema": SCHEMA_ID,
        "hands": [[str(c) for c in deck.cards_of(h)] for h in instance.hands],
        "trump": instance.trump,
        "lead": instance.lead,
        "assignment": instance.rules.assignment,
        "order_rule": instance.rules.order_rule,
        "tasks": [],
    }
    for t in instance.tasks:
        task: dict[str, Any] = {"card": str(deck.card(t.card))}
        if t.seat is not None:
            task["seat"] = t.seat
        if t.token is not None:
            task["token"] = t.token
        out["tasks"].append(task)
    if instance.distress is not None:
        out["distress"] = instance.distress
    if instance.token_move is not None:
        out["token_move"] = instance.token_move
    if instance.handover:
        out["handover"] = True
    if instance.covered:
        out["covered"] = [[str(deck.card(low)), str(deck.card(high))] for low, high in instance.covered]
    if instance.conditions:
        out["conditions"] = [condition_to_json(c, lambda i: str(deck.card(i))) for c in instance.conditions]
    if instance.history:
        state = State.initial(instance.without_choices())
        played: list[dict[str, Any]] = []
        trick: list[str] = []
        leader = None
        for c in instance.history:
            if not state.trick:
                leader = instance.holder[c] if state.leader is None else state.leader
            state = state.apply(c)
            trick.append(str(deck.card(c)))
            if not state.trick:
                played.append({"lead": leader, "cards": trick, "winner": state.leader})
                trick = []
        if played:
            out["played"] = played
        if trick:
            out["current"] = {"lead": leader, "cards": trick}
    return out


LINE_KEYS: tuple[str, ...] = ("id", "seed")
"""Keys a line of a deal stream (JSONL, ``crewcheck deals``, ``decide --batch``) may carry
besides the deal's own: ``id`` (a string, echoed in the line's result) and ``seed`` (an
integer: the base seed of the generator that made the deal)."""


def split_line(data: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The line keys of a deal stream's line (or of such a line saved as a file) taken
    off: ``(id or None, the deal file)``. ``id`` must be a string, ``seed`` an integer."""
    deal = dict(data)
    ident = deal.pop("id", None)
    if "id" in data and not isinstance(ident, str):
        raise InvalidDealError(f"expected a string, got {short_repr(ident)}", field="id")
    seed = deal.pop("seed", None)
    if "seed" in data and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidDealError(f"expected an integer, got {short_repr(seed)}", field="seed")
    return ident, deal


def to_line(deal: Instance | Mapping[str, Any], *, ident: str, seed: int | None = None) -> str:
    """One line of a deal stream: ``{"id": ident, "seed": seed, ...the deal file}`` as
    compact JSON (no ``seed`` key when it is ``None``), the only writer of such lines."""
    body = to_dict(deal) if isinstance(deal, Instance) else dict(deal)
    head: dict[str, Any] = {"id": ident} if seed is None else {"id": ident, "seed": seed}
    return json.dumps({**head, **body}, separators=(",", ":"))


def loads(text: str | bytes) -> Instance:
    """Parse a deal from JSON text (or UTF-8 bytes; a line of a deal stream too, its
    :data:`LINE_KEYS` left aside), within the limits of
    :mod:`crewcheck.formats.reading` (size, nesting, integer size, no key twice)."""
    if isinstance(text, (bytes, bytearray)):
        text = decode(bytes(text))
    if not isinstance(text, str):
        raise TypeError(f"loads() takes JSON text, got {type(text).__name__}")
    if len(text) > MAX_DEAL_BYTES:
        raise InvalidInputError(f"deal text longer than the limit of {MAX_DEAL_BYTES:,} characters")
    data = parse_json(text)
    if not isinstance(data, dict):
        raise InvalidDealError(f"expected a JSON object, got {type(data).__name__}", field="deal")
    return from_dict(split_line(data)[1])


def load(path: str | Path) -> Instance:
    """Read a deal file; ``"-"`` reads standard input.

    Only a regular file is read, and at most :data:`~crewcheck.formats.reading.MAX_DEAL_BYTES`
    of it; the errors name the file."""
    return load_with_text(path)[0]


def load_with_text(path: str | Path) -> tuple[Instance, str]:
    """:func:`load`, and the file's text (for what a caller reads beside the deal)."""
    where = str(path)
    text = decode(read_bytes(where), where)
    try:
        return loads(text), text
    except InvalidInputError as e:
        if e.field in ("", "deal"):  # the whole document: name the file
            raise type(e)(e.reason, field=where) from None
        raise


def dumps(instance: Instance, *, indent: int | None = None) -> str:
    return json.dumps(to_dict(instance), indent=indent)


def dump(instance: Instance, path: str | Path) -> None:
    Path(path).write_text(dumps(instance, indent=2) + "\n", encoding="utf-8")


def history_index(data: object, field: str) -> int | None:
    """The index in the game (0 = first card) of the card at ``field`` of a deal file
    (``"played[2].cards[1]"``, ``"current.cards[0]"``), or ``None``: used to say which
    card of a pasted game is illegal."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        return None
    p = len(data["hands"])
    m = re.fullmatch(r"played\[(\d+)\]\.cards\[(\d+)\]", field)
    if m:
        return int(m.group(1)) * p + int(m.group(2))
    m = re.fullmatch(r"current\.cards\[(\d+)\]", field)
    played = data.get("played")
    if m and isinstance(played, list):
        return len(played) * p + int(m.group(1))
    return None
