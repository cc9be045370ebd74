"""The one writer of crewcheck's results: JSON objects and text for the command line, the
web page and ``decide --batch`` (each schema has exactly one writer here).

Schemas
    ``crewcheck-result/1`` (:func:`result_to_dict`): ``schema``, ``verdict``, ``backend``,
    ``rules``, ``seconds``, ``witness`` (tricks ``{"lead", "cards", "winner"}``, history
    included), ``history_tricks``, ``assignment`` (free assignment: ``{"card", "seat"}``
    per task), ``choice`` (what the crew chose before play: ``seats``, ``recipient``,
    ``quota``, ``distress``, ``token_move`` (``{"kind", "tasks"}``), ``handover``
    (``{"giver", "receiver"}``); ``null`` when nothing was left to choose), ``stats``,
    ``explanation`` and ``next`` (the winning line's cards after the history). An error
    in this schema is ``{"schema", "error": {...}}`` (:func:`error_result`), the error
    object being written by :mod:`crewcheck.reports.errors` (``type``, ``field``,
    ``message``, ``line``, ``input_error``; ``index`` for an illegal card of a game's
    history).

    ``crewcheck-analysis/1`` (:func:`analysis_to_dict`) and ``crewcheck-review/1``
    (:func:`review_to_dict`) carry the result of the position in the first form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crewcheck.analysis.analyse import POSITION_LOST, Analysis
from crewcheck.analysis.review import Review
from crewcheck.formats.notation import conditions_line, format_tasks, format_trick
from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance
from crewcheck.model.outcome import Trick
from crewcheck.model.variants import Choice, play_state, play_variant
from crewcheck.reports.errors import error_to_dict, internal_error_to_dict
from crewcheck.solvers.base import Result, Verdict, Witness

__all__ = [
    "RESULT_SCHEMA", "ANALYSIS_SCHEMA", "REVIEW_SCHEMA",
    "witness_to_list", "choice_to_dict", "result_to_dict", "error_to_dict", "error_result",
    "internal_error_to_dict", "analysis_to_dict", "review_to_dict",
    "cards_text", "line_text", "describe_deal", "result_lines", "position_text", "analysis_lines",
    "summary", "review_lines",
]

RESULT_SCHEMA = "crewcheck-result/1"
ANALYSIS_SCHEMA = "crewcheck-analysis/1"
REVIEW_SCHEMA = "crewcheck-review/1"


# -- JSON -------------------------------------------------------------------------------
def _card(instance: Instance, c: CardIndex) -> str:
    return str(instance.deck.card(c))


def witness_to_list(instance: Instance, witness: Witness) -> list[dict[str, object]]:
    """A winning game as tricks ``{"lead", "cards", "winner"}``, history included."""
    return [{"lead": t.leader, "cards": [_card(instance, c) for c in t.cards], "winner": t.winner}
            for t in witness.tricks]


def choice_to_dict(instance: Instance, choice: Choice | None) -> dict[str, object] | None:
    """What the crew chose before play, only the parts there were to choose."""
    if choice is None:
        return None
    distress = None
    if choice.passes is not None:
        distress = {"direction": "left" if choice.direction == 1 else "right",
                    "passes": [None if c < 0 else _card(instance, c) for c in choice.passes]}
    token_move = None
    if choice.token_move is not None:
        i, j = choice.token_move
        token_move = {"kind": instance.token_move, "tasks": [_card(instance, instance.tasks[i].card),
                                                             _card(instance, instance.tasks[j].card)]}
    handover = None if choice.handover is None else {"giver": choice.handover[0], "receiver": choice.handover[1]}
    parts = (("seats", dict(choice.seats) or None), ("recipient", choice.recipient),
             ("quota", choice.quota), ("distress", distress), ("token_move", token_move), ("handover", handover))
    return {k: v for k, v in parts if v is not None}


def result_to_dict(instance: Instance, result: Result) -> dict[str, object]:
    """The JSON form of a decision (schema ``crewcheck-result/1``, see the module docstring)."""
    w = result.witness
    assignment = None
    if w is not None and w.assignment is not None:
        assignment = [{"card": _card(instance, t.card), "seat": s} for t, s in zip(instance.tasks, w.assignment)]
    return {
        "schema": RESULT_SCHEMA,
        "verdict": result.verdict.value,
        "backend": result.backend,
        "rules": {"order_rule": result.rules.order_rule, "assignment": result.rules.assignment},
        "seconds": round(result.stats.seconds, 6),
        "witness": None if w is None else witness_to_list(instance, w),
        "history_tricks": None if w is None else w.history_tricks,
        "assignment": assignment,
        "choice": None if w is None else choice_to_dict(instance, w.choice),
        "stats": {"nodes": result.stats.nodes, **dict(result.stats.extra)},
        "explanation": result.explanation,
        "next": None if w is None else [_card(instance, c) for c in w.plays[len(instance.history):]],
    }


def error_result(error: Exception) -> dict[str, Any]:
    """An error in the result schema: ``{"schema": "crewcheck-result/1", "error": {...}}``."""
    return {"schema": RESULT_SCHEMA, "error": error_to_dict(error)}


def analysis_to_dict(a: Analysis) -> dict[str, object]:
    """The JSON form of an analysis (schema ``crewcheck-analysis/1``)."""
    inst = a.instance
    n = len(inst.history)
    cards = []
    for v in a.cards:
        cards.append({
            "cards": [_card(inst, c) for c in v.cards],
            "verdict": v.verdict.value,
            "how": v.how,
            "next": None if v.witness is None else [_card(inst, c) for c in v.witness.plays[n:]],
            "witness": None if v.witness is None else witness_to_list(inst, v.witness),
            "explanation": v.explanation,
            "seconds": round(v.seconds, 6),
            "nodes": v.nodes,
        })
    tasks = None
    if a.tasks is not None:
        tasks = [{"card": _card(inst, inst.tasks[t.task].card), "seats": list(t.seats),
                  "unknown": list(t.unknown)} for t in a.tasks]
    state = play_state(inst)
    return {
        "schema": ANALYSIS_SCHEMA,
        "verdict": a.position.verdict.value,
        "to_play": a.to_play,
        "trick": state.tricks_played + 1,
        "history": n,
        "cards": cards,
        "tasks": tasks,
        "position": result_to_dict(inst, a.position),
        "seconds": round(a.seconds, 6),
        "decisions": a.decisions,
        "nodes": a.nodes,
    }


def review_to_dict(r: Review) -> dict[str, object]:
    """The JSON form of a review (schema ``crewcheck-review/1``)."""
    inst = r.instance
    losing = None
    if r.losing is not None:
        step = r.steps[r.losing]
        kept = [] if r.alternatives is None else [[_card(inst, c) for c in v.cards]
                                                  for v in r.alternatives.winning]
        losing = {"index": step.index, "trick": step.trick, "seat": step.seat,
                  "card": _card(inst, step.card), "kept_winnable": kept}
    return {
        "schema": REVIEW_SCHEMA,
        "start": r.start.value,
        "end": r.end.value,
        "losing": losing,
        "gap": None if r.gap is None else list(r.gap),
        "explanation": r.explanation,
        "steps": [{"index": s.index, "trick": s.trick, "seat": s.seat, "card": _card(inst, s.card),
                   "before": s.before.value, "after": s.after.value} for s in r.steps],
        "alternatives": None if r.alternatives is None else analysis_to_dict(r.alternatives),
        "backend": r.backend,
        "seconds": round(r.seconds, 6),
        "decisions": r.decisions,
        "nodes": r.nodes,
    }


# -- text -------------------------------------------------------------------------------
def cards_text(instance: Instance, cards: Sequence[CardIndex]) -> str:
    """``"B3 = B4"``: a class of equivalent cards."""
    return " = ".join(_card(instance, c) for c in cards)


def line_text(instance: Instance, plays: Sequence[CardIndex]) -> str:
    """The cards of ``plays`` after the history, tricks separated by ``/``."""
    p = instance.players
    n = len(instance.history)
    out: list[str] = []
    for i in range(n, len(plays)):
        if i > n and i % p == 0:
            out.append("/")
        out.append(_card(instance, plays[i]))
    return " ".join(out)


def describe_deal(instance: Instance) -> str:
    """``"4 players (10/10/10/10 cards), trump R, first lead rocket (seat 2), 3 tasks"``."""
    sizes = "/".join(str(h.bit_count()) for h in instance.hands)
    lead = instance.lead if instance.lead != "rocket" else f"rocket (seat {instance.first_leader})"
    trump = instance.trump or "none"
    conditions = f", {len(instance.conditions)} condition(s)" if instance.conditions else ""
    if instance.distress is not None:
        conditions += f", distress signal ({instance.distress})"
    return (f"{instance.players} players ({sizes} cards), trump {trump}, first lead {lead}, "
            f"{len(instance.tasks)} tasks{conditions}")


def result_lines(instance: Instance, result: Result) -> list[str]:
    """A decision as text: the verdict first, then the deal, the reason, the winning line."""
    s = result.stats
    out = [f"{result.verdict.value}  ({result.backend}, {s.seconds:.3g} s, {s.nodes} nodes)",
           f"rules: {result.rules}; {describe_deal(instance)}"]
    if instance.conditions:
        out.append("conditions: " + conditions_line(instance))
    if result.explanation:
        out.append(f"why: {result.explanation}")
    elif result.verdict is Verdict.UNWINNABLE and s.extra.get("stage") == "sat":
        out.append("why: refuted by clause learning (no short reason); `--backend sat` finds a smallest set "
                   "of tasks that cannot all be completed")
    w = result.witness
    if w is None:
        return out
    if w.choice is not None:
        out.append(f"choice: {w.choice.describe(instance)}")
    if w.assignment is not None:
        out.append("assignment: " + format_tasks(instance, w.assignment))
    for n, trick in enumerate(w.tricks):
        tag = "  (played)" if n < w.history_tricks else ""
        out.append(f"{n + 1:>3}. {format_trick(instance, trick, w.assignment)}{tag}")
    return out


def position_text(instance: Instance) -> str:
    """Where the game stands after the history: ``"trick 3, seat 1 to lead"``."""
    state = play_state(instance)
    if state.end is not None:
        return f"the game is over after trick {state.tricks_played}: {state.end.describe(instance)}"
    if state.to_play is None:
        who = "any seat leads"
    elif state.trick:
        who = f"seat {state.to_play} to play ({' '.join(_card(instance, c) for c in state.trick)} on the table)"
    else:
        who = f"seat {state.to_play} to lead"
    return f"trick {state.tricks_played + 1}, {who}"


def analysis_lines(a: Analysis, indent: str = "  ") -> list[str]:
    """One line per class of equivalent cards: the cards, the verdict, the winning line or why not."""
    inst = a.instance
    width = max((len(cards_text(inst, v.cards)) for v in a.cards), default=0)
    out = []
    for v in a.cards:
        detail = ""
        if v.witness is not None:
            detail = line_text(inst, v.witness.plays)
        elif v.explanation and v.how != POSITION_LOST:
            detail = f"why: {v.explanation}"
        out.append(f"{indent}{cards_text(inst, v.cards):<{width}}  {v.verdict.value:<10}  {detail}".rstrip())
    return out


def summary(r: Review) -> str:
    """The review in one line, verdict first (``crewcheck review`` prints it first).

    ``"lost at trick 5: seat 3 played Y9 (card 18 of the game); G6 = G8 or R2 = R3 kept it
    winnable"``, ``"never winnable: ..."``, ``"won: the game was never lost"``,
    ``"still winnable after all 12 cards"``, ``"no card played yet: the deal is winnable"``.
    """
    inst = r.instance
    n = len(r.steps)
    if n == 0 and r.start is not Verdict.UNKNOWN:
        why = f": {r.explanation}" if r.explanation else ""
        return f"no card played yet: the deal is {r.start.value}{why}"
    if r.start is Verdict.UNWINNABLE:
        return "never winnable" + (f": {r.explanation}" if r.explanation else "")
    if r.start is Verdict.UNKNOWN:
        return "unknown: the deal was not decided in the time limit"
    if r.losing is not None:
        step = r.steps[r.losing]
        kept = [cards_text(inst, v.cards) for v in r.alternatives.winning] if r.alternatives else []
        tail = ""
        if kept:
            tail = f"; {', '.join(kept[:-1])} or {kept[-1]} kept it winnable" if len(kept) > 1 \
                else f"; {kept[0]} kept it winnable"
        return (f"lost at trick {step.trick}: seat {step.seat} played {inst.card(step.card)} "
                f"(card {step.index + 1} of the game){tail}")
    if r.gap is not None:
        return (f"lost between card {r.gap[0] + 1} and card {r.gap[1] + 1} of the game "
                "(the positions between were not decided in the time limit)")
    if r.end is Verdict.WINNABLE and play_state(inst).end is not None:
        return "won: the game was never lost"
    if r.end is Verdict.WINNABLE:
        return f"still winnable after all {n} cards"
    return f"undecided: winnable at the start, not decided after the {n} cards"


def review_lines(r: Review) -> list[str]:
    """The reviewed game one trick a line with the verdict after it; the losing card is
    starred (``*Y9``)."""
    instance = r.instance
    p = instance.players
    state = play_variant(instance).initial_state()
    out = []
    for first in range(0, len(r.steps), p):
        steps = r.steps[first:first + p]
        leader = steps[0].seat
        for s in steps:
            state = state.apply(s.card)
        after = steps[-1].after.value
        lost_here = r.losing is not None and first <= r.losing < first + p
        if len(steps) == p:
            assert state.leader is not None
            text = format_trick(instance, Trick(leader, tuple(s.card for s in steps), state.leader))
        else:
            text = f"seat {leader} leads: " + " ".join(f"{_card(instance, s.card):>3}" for s in steps) + "  ..."
        if lost_here:
            assert r.losing is not None
            card = _card(instance, r.steps[r.losing].card)
            text = text.replace(f" {card:>3}", " " + f"*{card}".rjust(3), 1)  # the card that lost it
            after = f"lost by {card}"
        out.append(f"{first // p + 1:>3}. {text:<60} {after}")
    return out
