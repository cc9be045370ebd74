"""Claims from de Jong's thesis (seed ``001``): the winnability curves of Figure 3.

Figure 3 plots, for every number of tasks (objectives) 1..36, the fraction of
10,000 random CLASSIC CREW deals (4 players, 4 suits x 9 values plus rockets
1-4, commander = holder of rocket 4) that are winnable, with *fixed*
objectives (dealt to players in selection order) and with *free* objectives
(any division with the same per-player counts): 720,000 games. The text states that
every one of the 220,000 sampled deals with 2..23 free objectives was winnable.

The full mode decides the figure at its size: 10,000 fresh seeded deals per task count
and assignment, every deal decided exactly with no time limit (0 unknown) by the default
engine, in chunks of :data:`CHUNK` deals (resumable; the records are committed). The
free 2..23 chunks come first. The quick mode decides a few deals per count under a time
limit (an UNKNOWN verdict is counted, never guessed). Our deals are not theirs: the
free-assignment statement is an empirical claim about a sample, judged with a reading
(the deal distribution as the rulebook deals) and a calibrated test (a rate of
unwinnable deals that their 0 of 220,000 would contradict).

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew",
   seed ``001``, §4.4, §5, Figure 3.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Iterator, Mapping
from typing import Any

from crewcheck.api import check_witness, choose_backend, decide
from crewcheck.solvers.registry import available as _available
from crewcheck.claims.claim import Computation, Mode, Readings, Value
from crewcheck.claims.execution import run_job
from crewcheck.errors import NotApplicableError
from crewcheck.model.cards import Card, Deck
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Budget, Verdict

__all__ = ["BACKENDS", "TIMEOUT", "FULL_COUNTS", "FULL_DEALS", "CHUNK", "FREE_RANGE", "DEJONG_DEALS_ENV",
           "deal_instance", "chunk_deals", "dejong_chunk", "curve_counts", "dejong_curve", "figure_3_free",
           "figure_3_fixed", "fixed_shape", "draft_counts", "tricks_needed", "counted_out",
           "ESCALATION", "available_backends"]

BACKENDS = ("search", "cpsat", "z3")
"""The exact back-ends fast enough for 40-card 4-player deals with trumps, preferred first."""

TIMEOUT = 10.0
"""Seconds per deal in the quick mode (an UNKNOWN verdict is counted, never guessed)."""

FULL_COUNTS: tuple[int, ...] = tuple(range(1, 37))
"""Task counts of the full figure (every count of the thesis)."""

FULL_DEALS = 10_000
"""Deals per task count and assignment in the full mode (the thesis's sample size)."""

CHUNK = 250
"""Deals per chunk in the full mode."""

FREE_RANGE = range(2, 24)
"""The task counts of the thesis's "all 220,000 winnable" statement."""

ESCALATION: tuple[tuple[str, float | None], ...] = (("engine", 20.0), ("cpsat", 300.0), ("engine", None))
"""Full mode: the exact back-ends a deal goes through in turn, each with its time limit (the
last with none, so no deal is left undecided). The engine answers nearly every deal within
the first limit; the free deals with 31-34 tasks, where every seat's tricks are counted out
exactly, held a few that its search and Glucose took many minutes or hours over and that
OR-Tools CP-SAT with the trick counts decides in seconds (the engine's SAT side now runs
CP-SAT on the 33- and 34-task deals; docs/performance.md, "Figure 3 at this scale").
A chunk counts the deals decided after the first step (its ``escalated`` field)."""

DEJONG_DEALS_ENV = "CREWCHECK_DEJONG_DEALS"
"""Environment variable overriding the number of deals per task count (Figure 3)."""


def _deal_dict(rng: Any, sizes: dict[str, int], players: int, tasks: int, objectives: str) -> dict[str, Any]:
    cards = [f"{s}{v}" for s, n in sizes.items() for v in range(1, n + 1)]
    rng.shuffle(cards)
    per = len(cards) // players
    hands = [sorted(cards[i * per:(i + 1) * per]) for i in range(players)]
    colour = [c for c in cards if not c.startswith("R")]
    chosen = rng.sample(colour, tasks)
    commander = next(i for i, h in enumerate(hands) if f"R{sizes['R']}" in h)
    if objectives == "free":
        task_list = [{"card": c} for c in chosen]
        extra = {"assignment": "free"}
    else:  # drafted round-robin from the commander, in the drawn order
        task_list = [{"card": c, "seat": (commander + i) % players} for i, c in enumerate(chosen)]
        extra = {}
    return {"schema": "crewcheck-deal/1", "deck": sizes, "hands": hands, "tasks": task_list, **extra}


def deal_instance(deal: Mapping[str, Any]) -> Instance:
    """The :class:`Instance` of a deal this module generated, built directly (the deal is
    valid by construction, so the deal file reader's schema check, a few milliseconds a
    deal, is skipped; ``tests/claims/dejong`` checks it equals ``from_dict(deal)``)."""
    deck = Deck.from_cards(Card.parse(c) for hand in deal["hands"] for c in hand)
    hands = tuple(deck.mask_of(Card.parse(c) for c in hand) for hand in deal["hands"])
    tasks = tuple(Task(deck.index(Card.parse(t["card"])), t.get("seat")) for t in deal["tasks"])
    return Instance(deck, hands, tasks, "R", "rocket", Rules("strict", deal.get("assignment", "fixed")))


def available_backends() -> set[str]:
    """The back-ends installed here (a missing one is skipped in :data:`ESCALATION`)."""
    return {name for name, missing in _available().items() if missing is None}


def _verdict(instance: Instance, backend: str, limit: float | None) -> Verdict:
    """``decide``'s verdict; CP-SAT without its explanation (a minimised core of the tasks,
    up to five times the decision's time, which a study of verdicts does not use), its
    winning line checked by the replay checker as ``decide`` checks it."""
    if backend != "cpsat":
        return decide(instance, backend=backend, timeout=limit).verdict
    from crewcheck.solvers.logic.cpsat import CpSatOptions, CpSatSolver

    answer = CpSatSolver(CpSatOptions(explain=False)).decide(instance, budget=Budget(seconds=limit))
    if answer.verdict is Verdict.WINNABLE:
        check_witness(instance, instance.history + tuple(answer.plays or ()), answer.assignment, "cpsat")
    return answer.verdict


def chunk_deals(params: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The ``size`` seeded random deals of a chunk, in order (deal files' dicts)."""
    rng = random.Random(f"dejong:{params['objectives']}:{params['tasks']}:{params['seed']}:{params['index']}")
    sizes = params.get("sizes") or {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}
    for _ in range(int(params["size"])):
        yield _deal_dict(rng, sizes, int(params.get("players", 4)), int(params["tasks"]), params["objectives"])


def dejong_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Decide ``size`` random deals with ``tasks`` objectives (``fixed`` or ``free``)."""
    out: dict[str, Any] = {"winnable": 0, "unwinnable": 0, "unknown": 0, "examples": []}
    slowest = 0.0
    steps: tuple[tuple[str, float | None], ...] = ((params["backend"], params.get("timeout")),)
    if params.get("timeout") is None and params["backend"] == ESCALATION[0][0]:
        steps = tuple(step for step in ESCALATION if step[0] in available_backends())
    for deal in chunk_deals(params):
        start = time.perf_counter()
        for n, (backend, limit) in enumerate(steps):
            verdict = _verdict(deal_instance(deal), backend, limit)
            if verdict is not Verdict.UNKNOWN:
                if n:
                    escalated = out.setdefault("escalated", {})
                    escalated[backend] = escalated.get(backend, 0) + 1
                break
        slowest = max(slowest, time.perf_counter() - start)
        key = {Verdict.WINNABLE: "winnable", Verdict.UNWINNABLE: "unwinnable"}.get(verdict, "unknown")
        out[key] += 1
        if (key == "unwinnable" and params["objectives"] == "free" and int(params["tasks"]) in FREE_RANGE
                and len(out["examples"]) < 3):
            out["examples"].append(deal)
    out["slowest_s"] = round(slowest, 3)
    return out


DECIDING: dict[str, tuple[int, ...]] = {"free": tuple(FREE_RANGE), "fixed": (1, 36)}
"""The task counts a curve's statement is decided on: free, the thesis's 2..23 ("all
220,000 winnable"); fixed, the fewest and the most tasks ("the fraction falls"). The full
mode runs them first; the rest of the curve is drawn from whatever counts are decided."""


def _chunks(mode: Mode, objectives: str, backend: str, counts: tuple[int, ...]) -> list[dict[str, Any]]:
    if mode == "full":
        return [{"objectives": objectives, "tasks": k, "seed": 0, "index": i, "backend": backend,
                 "size": min(CHUNK, FULL_DEALS - i * CHUNK), "timeout": None}
                for k in counts for i in range((FULL_DEALS + CHUNK - 1) // CHUNK)]
    deals = int(os.environ.get(DEJONG_DEALS_ENV, "4"))
    return [{"objectives": objectives, "tasks": k, "seed": 0, "index": i, "backend": backend,
             "size": min(5, deals - i * 5), "timeout": TIMEOUT}
            for k in counts for i in range((deals + 4) // 5)]


def _tally(chunks: list[dict[str, Any]], results: list[Any], per_k: dict[int, dict[str, int]],
           examples: list[Any], escalated: dict[str, int]) -> float:
    slowest = 0.0
    for c, r in zip(chunks, results):
        if r is None:
            continue
        for backend, n in r.get("escalated", {}).items():
            escalated[backend] = escalated.get(backend, 0) + int(n)
        rec = per_k.setdefault(int(c["tasks"]), {"winnable": 0, "unwinnable": 0, "unknown": 0})
        for key in rec:
            rec[key] += r[key]
        examples += r["examples"]
        slowest = max(slowest, float(r.get("slowest_s", 0.0)))
    return slowest


def curve_counts(mode: Mode, objectives: str) -> tuple[str, dict[int, dict[str, int]], dict[int, dict[str, int]],
                                                        list[Any], float, dict[str, int]]:
    """Run (or read) one curve's jobs: the back-end, counts per task count of the counts the
    statement is decided on (complete, or the claim cannot be judged), counts of the rest of
    the curve (as far as decided: with ``--records-only`` a missing count is left out),
    unwinnable free examples, the slowest deal's seconds, and the deals decided by each
    back-end after the first step of :data:`ESCALATION`."""
    backend = "engine" if mode == "full" else choose_backend(among=BACKENDS)
    deciding = DECIDING[objectives] if mode == "full" else (1, 23)
    rest = tuple(k for k in (FULL_COUNTS if mode == "full" else (4,)) if k not in deciding)
    namespace = f"dejong-fig3/{objectives}/{backend}/{'v3' if mode == 'full' else 'v1'}"
    examples: list[Any] = []
    decided: dict[int, dict[str, int]] = {}
    chunks = _chunks(mode, objectives, backend, deciding)
    escalated: dict[str, int] = {}
    slowest = _tally(chunks, run_job(namespace, dejong_chunk, chunks, label=f"de Jong {objectives}"), decided,
                     examples, escalated)
    others: dict[int, dict[str, int]] = {}
    chunks = _chunks(mode, objectives, backend, rest)
    results = run_job(namespace, dejong_chunk, chunks, label=f"de Jong {objectives} (curve)", partial=True)
    complete = {int(c["tasks"]) for c in chunks} - {int(c["tasks"]) for c, r in zip(chunks, results) if r is None}
    slowest = max(slowest, _tally([c for c in chunks if int(c["tasks"]) in complete],
                                  [r for c, r in zip(chunks, results) if int(c["tasks"]) in complete],
                                  others, examples, escalated))
    return backend, dict(sorted(decided.items())), dict(sorted(others.items())), examples, slowest, escalated


def dejong_curve(mode: Mode, objectives: str) -> Computation:
    """Reproduce one curve of de Jong's Figure 3."""
    try:
        backend, decided, others, examples, slowest, escalated = curve_counts(mode, objectives)
    except NotApplicableError:
        return Computation((Value("curve", None, "not computed"),), holds=None,
                           open_reason="needs a fast exact back-end for 40-card 4-player deals with "
                           "trumps (none of search, cpsat, z3 is installed; "
                           "'exhaustive' refuses > 20 cards)")
    per_k = dict(sorted({**decided, **others}.items()))
    deals = sum(sum(v.values()) for v in per_k.values())
    limit = "no time limit" if mode == "full" else f"timeout={TIMEOUT:g} s"
    curve = {str(k): round(v["winnable"] / max(1, v["winnable"] + v["unwinnable"]), 4) for k, v in per_k.items()}
    unknown = sum(v["unknown"] for v in per_k.values())
    all_counts = FULL_COUNTS if mode == "full" else tuple(sorted(per_k))
    missing = [k for k in all_counts if k not in per_k]
    values = [Value("curve", curve, f"fraction winnable among decided deals: {deals:,} seeded random CLASSIC "
                    f"deals ({len(per_k)} task counts), crewcheck.decide(backend={backend!r}, {limit}); "
                    f"{_escalation_text(escalated)}slowest deal {slowest:.2f} s of wall clock where its chunk ran "
                    "(time the run was stopped or the machine busy included; docs/performance.md re-times the "
                    "slowest)"),
              Value("counts", {str(k): v for k, v in per_k.items()}, "winnable / unwinnable / unknown"),
              Value("unknown", unknown, "deals left undecided (never guessed)")]
    if missing:
        values.append(Value("curve_pending", f"{len(missing)} of {len(all_counts)} task counts: "
                            f"{', '.join(map(str, missing))}", "task counts of the full figure whose 10,000 deals "
                            "the committed records do not hold yet (not needed for the statement; "
                            f"`crewcheck prove dejong-fig-3-{objectives} --full --save-records` adds them)"))
    open_reason = (f"{unknown} deals undecided" if unknown and mode == "full" else None)
    values.append(Value("thesis_text", _text_points(objectives, per_k, curve),
                        "the thesis's words on Figure 3 (§4.5; the figure's points are not in the text) "
                        "against our decided counts"))
    if objectives == "free":
        in_range = {k: v for k, v in decided.items() if k in FREE_RANGE}
        n = sum(sum(v.values()) for v in in_range.values())
        bad = sum(v["unwinnable"] for v in in_range.values())
        values.append(Value("unwinnable", bad, f"unwinnable deals among our {n:,} with 2..23 free objectives "
                            "(theirs: 0 of 220,000)"))
        # their 0 of 220,000 against our bad of n: exact probability of seeing 0 in 220,000
        # deals if the true rate were ours (a calibrated test; no normal approximation)
        p_zero = math.exp(220_000 * math.log1p(-bad / n)) if n and bad < n else (1.0 if not bad else 0.0)
        if n:
            values.append(Value("p_their_zero", round(p_zero, 6), "probability of 0 unwinnable in 220,000 deals "
                                "at our rate (a small value would say their sample and ours differ)"))
        readings = Readings(
            tried=(f"deals as the rulebook deals them (uniform 40-card deal, commander = R4 holder, k distinct "
                   f"colour tasks, the commander's draft counts), which is how de Jong's public code draws them, "
                   f"{n:,} deals: {bad} unwinnable",),
            reproducing=("rulebook deals",) if bad == 0 else (),
            contradicted=bad > 0 and p_zero < 0.05)
        evidence = (f"unwinnable free deals with 2..23 objectives: {len(examples)} kept, first: {examples[:1]}"
                    if examples and bad else f"0 of {n:,} free deals with 2..23 objectives unwinnable")
        return Computation(tuple(values), holds=None, readings=readings, open_reason=open_reason,
                           evidence=evidence, notes=_scope_note(curve))
    return fixed_shape(tuple(values), per_k, open_reason)


def fixed_shape(values: tuple[Value, ...], per_k: Mapping[int, Mapping[str, int]],
                open_reason: str | None = None) -> Computation:
    """The fixed curve against the thesis's words (§5.3): "not all games with fixed objectives
    are winnable" -- some decided deal is unwinnable. Nothing quantitative is printed (the
    figure's points are not in the text), so a holding check is CONSISTENT, not CONFIRMED."""
    below = sorted(k for k, v in per_k.items() if v["unwinnable"])
    deals = sum(sum(v.values()) for v in per_k.values())
    values += (Value("counts_with_unwinnable", len(below), f"task counts (of {len(per_k)} decided, {deals:,} deals) "
                     "with at least one unwinnable deal"),)
    evidence = (f"unwinnable deals at {len(below)} of {len(per_k)} task counts (first at k = {below[0]})" if below
                else f"every one of {deals:,} decided deals winnable")
    return Computation(values, holds=bool(below), open_reason=open_reason, evidence=evidence)


SCOPE_BELOW = 0.9
"""The fraction below which the scope note on the free curve calls a point not "close to 1"."""


def _scope_note(curve: Mapping[str, float]) -> tuple[str, ...]:
    """The free curve's scope: where the thesis's "close to 1, irrelevant of the number of
    objectives" is false as worded, from the decided fractions and the exact trick count."""
    low = sorted((int(k) for k, f in curve.items() if f < SCOPE_BELOW))
    if not low:
        return ()
    points = ", ".join(f"{curve[str(k)]:.4g} at {k}" for k in low)
    out = counted_out()
    return (f"Scope of the free curve: the thesis's sentence \"the fraction of games with free objectives that is "
            f"winnable is close to 1, irrelevant of the number of objectives\" (§4.5) is false as worded from k = "
            f"{low[0]}: {points} (below {SCOPE_BELOW:g}). At k = {', '.join(map(str, out))} no deal can be won, by "
            f"counting: eq. (13)'s counts need {', '.join(str(tricks_needed(k)) for k in out)} of the 10 tricks. The "
            "thesis prints no point of the figure, so this bounds the sentence's scope; it refutes no printed "
            "result.",)


def _escalation_text(escalated: Mapping[str, int]) -> str:
    if not escalated:
        return ""
    after = ", ".join(f"{n:,} by {backend}" for backend, n in sorted(escalated.items()))
    first = ESCALATION[0]
    return f"of which, undecided by the {first[0]} within {first[1]:g} s, {after} (figure3.ESCALATION); "


def _text_points(objectives: str, per_k: Mapping[int, Mapping[str, int]], curve: Mapping[str, float]) -> dict[str, str]:
    """What the thesis says in words about one curve, each with our figure beside it."""
    if not curve:
        return {}
    low = min(curve, key=lambda k: (curve[k], int(k)))
    lowest = f"lowest winnable fraction {curve[low]:.4f} (k = {low}) over the {len(curve)} decided task counts"
    if objectives == "free":
        free = [v for k, v in per_k.items() if k in FREE_RANGE]
        bad, n = sum(v["unwinnable"] for v in free), sum(sum(v.values()) for v in free)
        return {"all 220,000 games with 2..23 objectives winnable": f"{bad} of {n:,} unwinnable",
                "with free objectives the winnable fraction is close to 1, irrelevant of the number of "
                "objectives": f"{lowest}{_counted_out()}"}
    below = sorted((k for k, f in curve.items() if f < 1), key=int)
    return {"not all games with fixed objectives are winnable":
            f"below 1 at {len(below)} of {len(curve)} decided task counts; {lowest}"}


def draft_counts(k: int, players: int = 4) -> tuple[int, ...]:
    """The tasks each seat takes when ``k`` are drafted round-robin from the commander
    (thesis §4.4, eq. 13: ``n_p``), the commander first."""
    return tuple(k // players + (seat < k % players) for seat in range(players))


def tricks_needed(k: int, players: int = 4) -> int:
    """The fewest tricks that free assignment with the draft's counts needs: a seat taking
    ``n`` tasks wins at least ``ceil(n / players)`` tricks of its own (a trick holds one card
    of each seat)."""
    return sum(-(-n // players) for n in draft_counts(k, players))


def counted_out(players: int = 4, tricks: int = 10) -> list[int]:
    """The task counts 1..36 at which no free deal can be won, whatever the cards."""
    return [k for k in FULL_COUNTS if tricks_needed(k, players) > tricks]


def _counted_out(players: int = 4, tricks: int = 10) -> str:
    out = counted_out(players, tricks)
    if not out:
        return ""
    return (f"; no deal at all is winnable at k = {', '.join(map(str, out))} (the draft's counts need more "
            f"than {tricks} tricks: each seat wins ceil(count / {players}) tricks of its own)")


def figure_3_free(mode: Mode) -> Computation:
    """Every sampled deal with 2..23 free objectives is winnable."""
    return dejong_curve(mode, "free")


def figure_3_fixed(mode: Mode) -> Computation:
    """The fixed-objective curve (reproduced and plotted; the thesis prints no point of it)."""
    return dejong_curve(mode, "fixed")
