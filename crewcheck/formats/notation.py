"""Text forms of deals and tricks: a one-line notation and a layout for people.

The one-line notation is for notes, test failure messages and counterexample logs::

    B1 B3 | B2 B4 ; trump - ; lead 0 ; tasks B3@0:1 B4@1 ; strict/fixed ; played B1 B2

Hands are separated by ``|``; a task is ``CARD@SEAT`` (``CARD@?`` under free assignment)
with ``:TOKEN`` when it has one; a covered card is ``CARD<COVER`` after ``covered``.
:func:`parse_deal` reads it back.

>>> from crewcheck.formats.deal_json import loads
>>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0, "token": "1"}]}')
>>> to_notation(deal)
'B1 B3 | B2 B4 ; trump - ; lead 0 ; tasks B3@0:1 ; strict/fixed'
>>> parse_deal(to_notation(deal)) == deal
True
"""

from __future__ import annotations

from collections.abc import Sequence

from crewcheck.errors import InvalidDealError
from crewcheck.model.cards import Card, Deck
from crewcheck.model.instance import Instance, Lead
from crewcheck.model.outcome import Trick
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task

__all__ = ["to_notation", "parse_deal", "format_trick", "format_tasks", "format_deal", "format_covers", "describe_conditions",
           "conditions_line", "describe_choices"]


def to_notation(instance: Instance) -> str:
    """The one-line notation of ``instance``."""
    deck = instance.deck
    tasks = " ".join(
        f"{deck.card(t.card)}@{'?' if t.seat is None else t.seat}" + (f":{t.token}" if t.token else "")
        for t in instance.tasks
    )
    parts = [
        " | ".join(deck.format_mask(h) for h in instance.hands),
        f"trump {instance.trump or '-'}",
        f"lead {instance.lead}",
        f"tasks {tasks}".rstrip(),
        str(instance.rules),
    ]
    if instance.covered:
        parts.append("covered " + " ".join(f"{deck.card(low)}<{deck.card(high)}" for low, high in instance.covered))
    if instance.history:
        parts.append("played " + " ".join(str(deck.card(c)) for c in instance.history))
    return " ; ".join(parts)


def parse_deal(text: str) -> Instance:
    """Parse the one-line notation; :class:`InvalidDealError` on malformed text."""
    parts = [p.strip() for p in text.split(";")]
    hands_cards = [[Card.parse(c) for c in h.split()] for h in parts[0].split("|")]
    fields: dict[str, str] = {}
    rules = Rules()
    for part in parts[1:]:
        key, _, value = part.partition(" ")
        if "/" in key and not value:
            order, _, assignment = key.partition("/")
            rules = Rules(order, assignment)  # type: ignore[arg-type]
        elif key in ("trump", "lead", "tasks", "played", "covered"):
            fields[key] = value.strip()
        else:
            raise InvalidDealError(f"unknown part {part!r}", field="notation")
    deck = Deck.from_cards(c for h in hands_cards for c in h)
    hands = tuple(deck.mask_of(h) for h in hands_cards)
    trump = fields.get("trump", "-")
    lead_text = fields.get("lead", "0")
    lead: Lead = int(lead_text) if lead_text.isdigit() and len(lead_text) <= 6 else lead_text  # type: ignore[assignment]
    tasks = []
    for item in fields.get("tasks", "").split():
        card_text, _, rest = item.partition("@")
        seat_text, _, token = rest.partition(":")
        if seat_text != "?" and not (seat_text.isdigit() and len(seat_text) <= 6):
            raise InvalidDealError(f"expected a seat number or '?' after '@', got {item!r}", field="tasks")
        seat = None if seat_text == "?" else int(seat_text)
        tasks.append(Task(_index(deck, card_text, "tasks"), seat, token or None))
    history = tuple(_index(deck, c, "played") for c in fields.get("played", "").split())
    covered = []
    for item in fields.get("covered", "").split():
        low, sep, high = item.partition("<")
        if not sep:
            raise InvalidDealError(f"expected CARD<COVER, got {item!r}", field="covered")
        covered.append((_index(deck, low, "covered"), _index(deck, high, "covered")))
    return Instance(deck, hands, tuple(tasks), None if trump == "-" else trump, lead, rules, history,
                    covered=tuple(covered))


def _index(deck: Deck, text: str, where: str) -> int:
    card = Card.parse(text)
    if card not in deck:
        raise InvalidDealError(f"{text!r} is not dealt to any hand", field=where)
    return deck.index(card)


def format_tasks(instance: Instance, assignment: Sequence[int] | None = None) -> str:
    """``"G7 -> seat 1 [1], P9 -> seat 0"``."""
    out = []
    for i, t in enumerate(instance.tasks):
        seat = t.seat if assignment is None else assignment[i]
        who = "seat ?" if seat is None else f"seat {seat}"
        out.append(f"{instance.deck.card(t.card)} -> {who}" + (f" [{t.token}]" if t.token else ""))
    return ", ".join(out) if out else "(none)"


def describe_conditions(instance: Instance) -> list[str]:
    """Each condition of the deal in words, one line each (``[]`` without conditions).

    >>> from crewcheck.formats.deal_json import loads
    >>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "conditions": ['
    ...              '{"kind": "wins_no_tricks", "seat": "choose"}, {"kind": "balanced_tricks", "margin": 3}]}')
    >>> describe_conditions(deal)
    ['the chosen crew member wins no trick', 'nobody ever 3 tricks ahead of another']
    """
    return [cond.describe(instance) for cond in instance.conditions]


def conditions_line(instance: Instance, limit: int = 400) -> str:
    """The deal's conditions on one line of at most about ``limit`` characters: a
    condition given several times once with its count, and the rest counted when the
    line is full.

    >>> from crewcheck.formats.deal_json import loads
    >>> deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "conditions": ['
    ...              + ", ".join(['{"kind": "wins_no_tricks", "seat": 1}'] * 3) + ']}')
    >>> conditions_line(deal)
    'seat 1 wins no trick (3 times)'
    """
    counts: dict[str, int] = {}
    for text in describe_conditions(instance):
        counts[text] = counts.get(text, 0) + 1
    parts = [text if n == 1 else f"{text} ({n} times)" for text, n in counts.items()]
    line = ""
    for k, part in enumerate(parts):
        more = "; " if line else ""
        if len(line) + len(more) + len(part) > limit:
            return f"{line}; ... and {len(parts) - k} more ({len(instance.conditions)} conditions in all)"
        line += more + part
    return line


def describe_choices(instance: Instance) -> list[str]:
    """What the rules leave the crew to choose before play, in words, one line each:
    the commander's decision or distribution, a seat to choose, the token swap or move,
    the hand-over of one task, the distress signal (``[]`` when nothing)."""
    out = []
    mode = instance.rules.assignment
    if mode == "decision":
        out.append("commander's decision: every task to one crew member other than the commander")
    elif mode == "distribution":
        out.append("commander's distribution: the tasks split so that nobody holds 2 more than another")
    names = sorted(set().union(*(c.choices() for c in instance.conditions)))
    for name in names:
        if name == "choose":
            out.append(f"the commander chooses a crew member other than itself (the commander is seat {instance.commander})")
        else:
            out.append(f"the crew chooses any seat as {name.split(':', 1)[1]!r}")
    if instance.token_move == "swap":
        out.append("before the tasks are handed out the crew may swap the tokens of two tasks")
    elif instance.token_move == "move":
        out.append("before the tasks are handed out the crew may move one token to a task without one")
    if instance.handover:
        out.append("before the first trick one seat may hand one of its tasks to another")
    if instance.distress is not None:
        way = {"left": "to the left", "right": "to the right", "choose": "left or right, as the crew chooses"}
        out.append(f"distress signal: every seat passes one card that is no trump {way[instance.distress]}")
    return out


def format_trick(instance: Instance, trick: Trick, assignment: Sequence[int] | None = None) -> str:
    """``"seat 2 leads: R4 B1 B2 B3  -> seat 2 wins  (task R4 done)"``."""
    deck = instance.deck
    cards = " ".join(f"{str(deck.card(c)):>3}" for c in trick.cards)
    done = [str(deck.card(t.card)) for t in instance.tasks if t.card in trick.cards]
    tail = f"  (task {', '.join(done)} done)" if done else ""
    return f"seat {trick.leader} leads: {cards}  -> seat {trick.winner} wins{tail}"


def format_deal(instance: Instance) -> str:
    """Hands by suit, tasks and played tricks, for a person."""
    deck = instance.deck
    lines = []
    lead = instance.lead if instance.lead != "rocket" else f"rocket (seat {instance.first_leader})"
    lines.append(f"{instance.players} players, trump {instance.trump or 'none'}, first lead {lead}, "
                 f"rules {instance.rules}")
    width = max(len(s) for s in deck.suits)
    for seat, hand in enumerate(instance.hands):
        groups = []
        for s, name in enumerate(deck.suits):
            values = [str(deck.card(c).value) for c in range(deck.size)
                      if deck.suit_of(c) == s and hand >> c & 1]
            groups.append(f"{name:<{width}} {' '.join(values) if values else '-'}")
        lines.append(f"seat {seat} ({hand.bit_count():>2}): " + " | ".join(groups))
    lines.extend(format_covers(instance))
    if instance.tasks or not instance.conditions:
        lines.append("tasks: " + format_tasks(instance))
    for line in describe_conditions(instance):
        lines.append("condition: " + line)
    for line in describe_choices(instance):
        lines.append("choice: " + line)
    if instance.history:
        # walked card by card, as the loader checks a history: the replay checker wants a
        # whole game's task seats, and a seat still to choose has no single state
        from crewcheck.model.state import State

        state = State.initial(instance.without_choices())
        done = 0
        for c in instance.history:
            lead = state.leader if state.leader is not None else instance.holder[c]
            trick = (*state.trick, c)
            state = state.apply(c)
            if len(trick) == instance.players:
                done += 1
                winner = _winner(instance, lead, trick)
                lines.append(f"{done:>3}. {format_trick(instance, Trick(lead, trick, winner))}")
        rest = instance.history[done * instance.players:]
        if rest:
            lines.append("now:  " + " ".join(str(deck.card(c)) for c in rest))
        if state.end is not None:
            lines.append(f"game over: {state.end.describe(instance)}")
    return "\n".join(lines)


def format_covers(instance: Instance) -> list[str]:
    """Each seat's stacks of covered cards, top card first (JARVIS's columns), one line a
    seat (``[]`` without covered cards), as ``seat 2 columns (top/under): P7/B2  R1/G9``.
    """
    deck = instance.deck
    under = {high: low for low, high in instance.covered}
    covered = {low for low, _ in instance.covered}
    stacks: dict[int, list[str]] = {}
    for top in sorted(under):
        if top in covered:
            continue  # not the top of its stack
        column, card = [top], top
        while card in under:
            card = under[card]
            column.append(card)
        stacks.setdefault(instance.holder[top], []).append("/".join(str(deck.card(c)) for c in column))
    return [f"seat {seat} columns (top/under): {'  '.join(cols)}" for seat, cols in sorted(stacks.items())]


def _winner(instance: Instance, lead: int, cards: tuple[int, ...]) -> int:
    """The seat that wins a complete trick led by ``lead``."""
    from crewcheck.model.rules import trick_winner

    return (lead + trick_winner(instance.deck, instance.trump_suit, cards)) % instance.players
