"""The independent witness checker (the NP verifier of Reiber §6).

:func:`replay` re-plays a sequence of cards from the start of a deal and reports how
the game went. It shares the card model (:class:`Deck`, :class:`Card`) with the rest of
crewcheck but *not* the move generator: follow-suit, covered cards (a card under another
is face up once that card has gone in a complete trick), trick winners, task ownership and
the order tokens are re-derived here from the rules text, with cards compared by suit
name and value. A bug in :mod:`.rules` or :mod:`.state` therefore shows up as a
rejected witness instead of hiding in both.

Tokens are judged by building, trick by trick, the linear order of completed tasks
(absolute tokens at their numbered place, ``omega`` at the very end, relative tokens by
rank, untokened tasks in the gaps) and checking it against each token's definition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from crewcheck.errors import IllegalPlayError
from crewcheck.model.cards import Card
from crewcheck.model.judges import JUDGES, Game
from crewcheck.model.outcome import Outcome, Termination, Trick

if TYPE_CHECKING:
    from crewcheck.model.instance import Instance

__all__ = ["Termination", "Outcome", "Trick", "replay"]


def replay(instance: Instance, plays: Sequence[int], assignment: Sequence[int] | None = None,
           choice: Mapping[str, int] | None = None,
           distress: tuple[int, Sequence[int]] | None = None, *,
           token_move: tuple[int, int] | None = None, handover: tuple[int, int] | None = None) -> Outcome:
    """Re-play ``plays`` (card indices from the first trick) and return the outcome.

    Parameters
    ----------
    instance
        The deal. Its ``history`` must be a prefix of ``plays``.
    plays
        Every card played, in order, from the first trick of the game.
    assignment
        Any assignment but fixed: the seat of each task; must fit the assignment rule
        (the draft's counts; all to one crew member; nobody 2 tasks ahead).
    choice
        The seat the crew chose for each choice the conditions name (``"choose"``: not the
        commander; ``"choose_any:<name>"``: any seat).
    distress
        With a distress signal: ``(direction, passes)``, ``+1`` to the left (the next seat
        in play order) or ``-1``, and the card each seat passed (``-1``: it held only
        trumps). The game is played with the hands after the passes.
    token_move
        With the deal's ``"token_move"``: ``(i, j)``, task indices: the tokens of tasks
        ``i`` and ``j`` swapped (``"swap"``) or task ``i``'s token moved to task ``j``,
        which has none (``"move"``); ``None``: the tokens stay.
    handover
        With the deal's ``"handover"``: ``(giver, receiver)``; ``assignment`` is then the
        seats *after* the hand-over, and the seats before it (one of the receiver's tasks
        back with the giver) must fit the assignment rule.

    Raises
    ------
    IllegalPlayError
        A card not held by the seat on turn, a failure to follow suit, a play after the
        game ended, a history mismatch, a bad assignment or a bad choice.
    """
    deck = instance.deck
    cards = deck.cards
    p = len(instance.hands)
    hands = [set(deck.cards_of(h)) for h in instance.hands]
    if instance.distress is not None or distress is not None:
        _pass_cards(instance, hands, distress)
    if tuple(plays[: len(instance.history)]) != instance.history:
        raise IllegalPlayError("the plays do not start with the deal's history")
    tokens = _tokens(instance, token_move)
    owner = _owners(instance, assignment, handover)
    conditions = _concrete_conditions(instance, choice)
    trump = instance.trump
    task_card = [cards[t.card] for t in instance.tasks]
    n_tasks = len(task_card)

    if instance.lead == "any":
        leader = -1
    elif instance.lead == "rocket":
        leader = _commander(instance)
    else:
        leader = int(instance.lead)

    under = {cards[low]: cards[high] for low, high in instance.covered}  # covered card -> its cover
    gone: set[Card] = set()  # the cards of the complete tricks

    def face_up(card: Card) -> bool:
        return card not in under or under[card] in gone

    tricks: list[Trick] = []
    order: list[int] = []  # completed tasks in their linear order
    completed: set[int] = set()
    current: list[Card] = []
    if n_tasks == 0 and _settled(instance, conditions, tricks, hands):
        if plays:
            raise IllegalPlayError("the game is won before any card is played (nothing to do)")
        return Outcome(True, Termination.ALL_TASKS_DONE)
    for n, index in enumerate(plays):
        if type(index) is not int or not 0 <= index < len(cards):  # numpy ints pass; -1 must not wrap
            if isinstance(index, bool) or not hasattr(index, "__index__") or not 0 <= index.__index__() < len(cards):
                raise IllegalPlayError(f"play {n}: {index!r} is not a card index of this deal "
                                       f"(0..{len(cards) - 1})")
            index = index.__index__()
        card = cards[index]
        if leader == -1:
            leader = next(s for s in range(p) if card in hands[s])
        seat = (leader + len(current)) % p
        if card not in hands[seat]:
            raise IllegalPlayError(f"play {n}: {card} is not in the hand of seat {seat}")
        if not face_up(card):
            raise IllegalPlayError(f"play {n}: {card} still lies under {under[card]}")
        if current:
            led = current[0].suit
            if card.suit != led and any(c.suit == led and face_up(c) for c in hands[seat]):
                raise IllegalPlayError(f"play {n}: seat {seat} must follow {led}, not play {card}")
        hands[seat].remove(card)
        current.append(card)
        if len(current) < p:
            continue
        trumps = [c for c in current if trump is not None and c.suit == trump]
        best = max(trumps or [c for c in current if c.suit == current[0].suit], key=lambda c: c.value)
        winner = (leader + current.index(best)) % p
        tricks.append(Trick(leader, tuple(deck.index(c) for c in current), winner))
        gone.update(current)
        group = [i for i in range(n_tasks) if task_card[i] in current]
        end = _judge(instance, tokens, owner, group, winner, order, completed)
        current = []
        leader = winner
        if end is None and len(completed) == n_tasks and _settled(instance, conditions, tricks, hands):
            end = Outcome(True, Termination.ALL_TASKS_DONE)
        if end is None and any(not h for h in hands):
            end = Outcome(False, Termination.OUT_OF_CARDS if len(completed) < n_tasks
                          else Termination.CONDITION_BROKEN)
        if end is not None:
            if n + 1 != len(plays):
                raise IllegalPlayError(f"play {n + 1}: the game ended with trick {len(tricks)}")
            return Outcome(end.won, end.termination, end.failed_task, tuple(tricks))
    return Outcome(False, None, None, tuple(tricks))


def _pass_cards(instance: Instance, hands: list[set[Card]], distress: tuple[int, Sequence[int]] | None) -> None:
    """Apply the distress signal's passes to ``hands`` (checking them against the rules)."""
    if instance.distress is None or distress is None:
        raise IllegalPlayError("a distress signal needs the deal's 'distress' and the witness's passes")
    direction, passes = distress
    allowed = {"left": (1,), "right": (-1,), "choose": (1, -1)}[instance.distress]
    p = len(hands)
    if direction not in allowed or len(passes) != p:
        raise IllegalPlayError(f"distress signal {instance.distress!r}: passes {list(passes)} "
                               f"in direction {direction!r} do not fit")
    given: list[Card | None] = []
    for s, index in enumerate(passes):
        options = [c for c in hands[s] if c.suit != instance.trump]
        if index < 0:
            if options:
                raise IllegalPlayError(f"distress signal: seat {s} must pass a card that is no trump")
            given.append(None)
            continue
        card = instance.deck.cards[index]
        if card not in options:
            raise IllegalPlayError(f"distress signal: seat {s} cannot pass {card}")
        given.append(card)
    for s, passed in enumerate(given):
        if passed is not None:
            hands[s].remove(passed)
            hands[(s + direction) % p].add(passed)


def _commander(instance: Instance) -> int:
    """The holder of the highest trump; without trumps the first leader (seat 0 if free)."""
    trump = instance.trump
    if trump is None:
        return int(instance.lead) if isinstance(instance.lead, int) else 0
    top = max((c for c in instance.deck.cards if c.suit == trump), key=lambda c: c.value)
    return next(s for s in range(len(instance.hands)) if top in instance.deck.cards_of(instance.hands[s]))


def _tokens(instance: Instance, move: tuple[int, int] | None) -> list[str | None]:
    """Each task's token after the crew's token move (checked against the deal's rule)."""
    tokens = [t.token for t in instance.tasks]
    if move is None:
        return tokens
    if instance.token_move is None:
        raise IllegalPlayError("the witness moves a token, but the deal allows no token move")
    i, j = move
    if not (0 <= i < len(tokens) and 0 <= j < len(tokens)) or i == j:
        raise IllegalPlayError(f"token move: {move!r} does not name two tasks of the deal")
    if instance.token_move == "swap":
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        if tokens[i] is None or tokens[j] is not None:
            raise IllegalPlayError(f"token move: task {i} must have a token and task {j} none")
        tokens[i], tokens[j] = None, tokens[i]
    return tokens


def _owners(instance: Instance, assignment: Sequence[int] | None,
            handover: tuple[int, int] | None = None) -> list[int]:
    p, k = len(instance.hands), len(instance.tasks)
    mode = instance.rules.assignment
    if handover is not None:
        if not instance.handover:
            raise IllegalPlayError("the witness hands a task over, but the deal has no hand-over")
        giver, receiver = handover
        if not (0 <= giver < p and 0 <= receiver < p) or giver == receiver:
            raise IllegalPlayError(f"hand-over: {handover!r} does not name two seats")
    if mode == "fixed":
        fixed = [int(t.seat) for t in instance.tasks]  # type: ignore[arg-type]
        if handover is None:
            return fixed
        if assignment is None or len(assignment) != k:
            raise IllegalPlayError("hand-over: the witness must give one seat per task")
        changed = [i for i in range(k) if assignment[i] != fixed[i]]
        if len(changed) != 1 or (fixed[changed[0]], assignment[changed[0]]) != tuple(handover):
            raise IllegalPlayError(f"hand-over {handover!r}: seats {list(assignment)} do not differ from "
                                   f"{fixed} by one task from the giver to the receiver")
        return list(assignment)
    if assignment is None or len(assignment) != k or any(not 0 <= a < p for a in assignment):
        raise IllegalPlayError(f"{mode} assignment: the witness must give one seat per task")
    got = [sum(1 for a in assignment if a == s) for s in range(p)]
    if handover is not None:  # the counts before the hand-over must fit the rule
        giver, receiver = handover
        if got[receiver] == 0:
            raise IllegalPlayError(f"hand-over {handover!r}: seat {receiver} holds no task")
        got[receiver] -= 1
        got[giver] += 1
    if mode == "decision":
        holders = [s for s in range(p) if got[s]]
        if len(holders) > 1 or (k and holders[0] == _commander(instance)):
            raise IllegalPlayError("commander's decision: every task goes to one crew member, "
                                   f"not the commander; got seats {list(assignment)}")
    elif mode == "distribution":
        if max(got) - min(got) > 1:
            raise IllegalPlayError(f"commander's distribution: tasks per seat {got} leave someone "
                                   "2 tasks ahead of another")
    else:
        if instance.quota is not None:
            want = list(instance.quota)
        else:
            start = 0 if instance.lead == "any" else _commander(instance) if instance.lead == "rocket" \
                else int(instance.lead)
            want = [len(range((s - start) % p, k, p)) for s in range(p)]
        if want != got:
            raise IllegalPlayError(f"free assignment: tasks per seat {got}, the draft gives {want}")
    return list(assignment)


def _concrete_conditions(instance: Instance, choice: Mapping[str, int] | None) -> list[dict[str, object]]:
    """The conditions as plain field dicts, with the chosen seats filled in."""
    out = []
    chosen = dict(choice or {})
    for cond in instance.conditions:
        d: dict[str, object] = {f: getattr(cond, f) for f in cond.FIELDS}
        d["kind"] = cond.kind
        for f in ("seat", "other"):
            v = d.get(f)
            if isinstance(v, str) and v.startswith("choose"):
                seat = chosen.get(v)
                if seat is None or not 0 <= seat < len(instance.hands) or (
                        v == "choose" and seat == _commander(instance)):
                    raise IllegalPlayError(f"the deal lets the crew choose {v!r} ('choose' is not the "
                                           f"commander); the witness chose {seat!r}")
                d[f] = seat
        out.append(d)
    return out


def _settled(instance: Instance, conditions: list[dict[str, object]], tricks: list[Trick],
             hands: list[set[Card]]) -> bool:
    """Whether every condition holds after ``tricks``, whatever the rest of the game: each
    re-derived from its definition by its judge (:data:`crewcheck.model.judges.JUDGES`,
    which share no code with :mod:`.conditions`)."""
    game = Game(instance, tricks, hands)
    for c in conditions:
        judge = JUDGES.get(str(c["kind"]))
        if judge is None:
            raise IllegalPlayError(f"the replay checker does not know condition kind {c['kind']!r}")
        if not judge(game, c):
            return False
    return True


def _kind_rank(token: str | None) -> tuple[str, int]:
    """("number", 3) for "3", ("arrow", 2) for ">>", ("omega", 0)."""
    assert token is not None
    if token.isdigit():
        return "number", int(token)
    return ("arrow", len(token)) if token.startswith(">") else ("omega", 0)


def _judge(instance: Instance, tokens: list[str | None], owner: list[int], group: list[int], winner: int,
           order: list[int], completed: set[int]) -> Outcome | None:
    """Record the tasks completed in one trick; return a losing outcome or ``None``."""
    for i in group:
        if owner[i] != winner:
            return Outcome(False, Termination.TASK_FAILED, i)
    if not group:
        return None
    total = len(tokens)
    start = len(order)
    slots: list[int | None] = [None] * len(group)
    rest: list[int] = []
    for i in group:
        tok = tokens[i]
        if tok is not None and tok.isdigit():
            pos = int(tok) - 1 - start
            if not 0 <= pos < len(group) or slots[pos] is not None:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
            slots[pos] = i
        elif tok == "omega":
            if start + len(group) != total or slots[-1] is not None:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
            slots[-1] = i
        else:
            rest.append(i)
    rest.sort(key=lambda i: (tokens[i] is None, len(tokens[i] or "")))
    it = iter(rest)
    slots = [s if s is not None else next(it) for s in slots]
    order.extend(int(s) for s in slots)  # type: ignore[arg-type]
    completed.update(group)
    # every token against the order built so far
    for i, tok in enumerate(tokens):
        if tok is None:
            continue
        if tok.isdigit():
            at = order.index(i) + 1 if i in completed else None
            if (at is not None and at != int(tok)) or (at is None and int(tok) <= len(order)):
                return Outcome(False, Termination.ORDER_VIOLATED, i)
        elif tok == "omega":
            if i in completed and len(order) != total:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
        else:
            for j in completed:
                other = tokens[j]
                if other and other.startswith(">") and len(other) > len(tok) and (
                    i not in completed or order.index(i) > order.index(j)
                ):
                    return Outcome(False, Termination.ORDER_VIOLATED, i)
    if instance.rules.order_rule == "strict":
        tokened = sorted((_kind_rank(tokens[i]), i) for i in group if tokens[i] is not None)
        for ((kind_a, rank_a), _), ((kind_b, rank_b), i) in zip(tokened, tokened[1:]):
            if kind_a != kind_b or kind_b == "omega" or rank_b != rank_a + 1:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
    return None
